/* reduce: MPI_Reduce on MPI_COMM_WORLD for every predefined datatype with every predefined
 * operation valid for it (SUM, PROD, MIN, MAX, LAND, LOR, LXOR, BAND, BOR, BXOR, MINLOC/MAXLOC
 * on pair types) at count 1000, plus count 1 with MPI_IN_PLACE at the root once per type, the
 * root rotating over the combinations; every root for two combinations at counts 1, 1000, 65537;
 * 65537 and 1M elements for a few combinations. Results are compared with an exact locally
 * computed reference; receive buffers of non-roots stay untouched. */
#include "../common/mpitest.h"
#include "../common/mt_reduce.h"

static unsigned char *sbuf, *rbuf, *ebuf;
static int mpich;

/* one MPI_Reduce of `count` elements at `root`, in place at the root if `in_place` */
static void run(const mtr_type *t, int op, int count, int root, int in_place)
{
    size_t bytes = t->extent * (size_t)count;
    char what[160];
    /* Known deviation: MPICH 4.0 crashes on MPI_IN_PLACE at a non-zero root for counts above a
     * few hundred (pmodels/mpich#6540); skipped there. */
    if (in_place && root != 0 && count > 100 && mpich)
        return;
    t->contrib(sbuf, (size_t)count, mt_rank, mt_size, op);
    if (mt_rank == root)
        t->expect(ebuf, (size_t)count, mt_size, op);
    if (mt_rank != root)
        memset(rbuf, 0xEE, bytes);
    else if (in_place)
        memcpy(rbuf, sbuf, bytes);
    else
        memset(rbuf, 0, bytes);
    MT_MPI(MPI_Reduce(in_place && mt_rank == root ? MPI_IN_PLACE : sbuf, rbuf, count, t->type,
                      mtr_mpi_op(op), root, MPI_COMM_WORLD));
    snprintf(what, sizeof what, "MPI_Reduce%s %s %s count %d root %d",
             in_place ? "(MPI_IN_PLACE)" : "", t->name, mtr_op_name[op], count, root);
    if (mt_rank == root)
        MTR_CHECK(t, op, rbuf, ebuf, (size_t)count, what);
    else
        MT_VERIFY_CONST(rbuf, bytes, 0xEE, what); /* recvbuf is not significant at non-roots */
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    mt_set_errors_return(MPI_COMM_WORLD);
    mpich = mt_library_is("MPICH");
    mtr_type types[MTR_MAX_TYPES];
    int ntypes = mtr_get_types(types);
    const int big = 1 << 20;
    sbuf = mt_malloc(16 * (size_t)big);
    rbuf = mt_malloc(16 * (size_t)big);
    ebuf = mt_malloc(16 * (size_t)big);

    /* all valid (type, op) combinations, root rotating; in place once per type */
    int combo = 0;
    for (int t = 0; t < ntypes; t++) {
        int first = 1;
        for (int op = 0; op < MTR_NOPS; op++)
            if (types[t].ops & MTR_BIT(op)) {
                run(&types[t], op, 1000, combo % mt_size, 0);
                if (first)
                    run(&types[t], op, 1, (combo + 1) % mt_size, 1);
                first = 0;
                combo++;
            }
    }

    /* every root */
    const mtr_type *t_int = mtr_find(types, ntypes, MPI_INT);
    const mtr_type *t_dint = mtr_find(types, ntypes, MPI_DOUBLE_INT);
    MT_ASSERT(t_int && t_dint, "type missing from the reduction table");
    const int counts[] = {1, 1000, 65537};
    for (int root = 0; root < mt_size; root++)
        for (int c = 0; c < 3; c++) {
            run(t_int, MTR_SUM, counts[c], root, c % 2);
            run(t_dint, MTR_MAXLOC, counts[c], root, (c + 1) % 2);
        }

    /* large: 1M elements for two combinations, 65537 for some more */
    struct {
        MPI_Datatype type;
        int op, count;
    } large[] = {{MPI_INT, MTR_SUM, big},
                 {MPI_DOUBLE_INT, MTR_MINLOC, big},
                 {MPI_DOUBLE, MTR_MAX, 65537},
                 {MPI_UNSIGNED_CHAR, MTR_BXOR, 65537},
                 {MPI_C_DOUBLE_COMPLEX, MTR_PROD, 65537}};
    for (int l = 0; l < (int)(sizeof large / sizeof large[0]); l++) {
        const mtr_type *t = mtr_find(types, ntypes, large[l].type);
        MT_ASSERT(t != NULL, "type missing from the reduction table");
        run(t, large[l].op, large[l].count, (l + 1) % mt_size, 0);
        run(t, large[l].op, large[l].count, 0, 1);
    }

    free(sbuf);
    free(rbuf);
    free(ebuf);
    return mt_finish();
}
