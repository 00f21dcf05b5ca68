/* reduce: MPI_Reduce on MPI_COMM_WORLD for every predefined datatype with every predefined
 * operation valid for it (SUM, PROD, MIN, MAX, LAND, LOR, LXOR, BAND, BOR, BXOR, MINLOC/MAXLOC
 * on pair types), every root, counts 1, 3, 1000 (65537 and 1M for a few combinations), with and
 * without MPI_IN_PLACE at the root; results compared with an exact locally computed reference;
 * receive buffers of non-roots stay untouched. */
#include "../common/mpitest.h"
#include "../common/mt_reduce.h"

static unsigned char *sbuf, *rbuf, *ebuf;
static int mpich;

static void run(const mtr_type *t, int op, int count)
{
    size_t bytes = t->extent * (size_t)count;
    char what[160];
    t->contrib(sbuf, (size_t)count, mt_rank, mt_size, op);
    t->expect(ebuf, (size_t)count, mt_size, op);
    for (int root = 0; root < mt_size; root++) {
        /* separate send and receive buffers */
        memset(rbuf, mt_rank == root ? 0 : 0xEE, bytes);
        MT_MPI(MPI_Reduce(sbuf, rbuf, count, t->type, mtr_mpi_op(op), root, MPI_COMM_WORLD));
        snprintf(what, sizeof what, "MPI_Reduce %s %s count %d root %d", t->name,
                 mtr_op_name[op], count, root);
        if (mt_rank == root)
            MTR_CHECK(t, op, rbuf, ebuf, (size_t)count, what);
        else
            MT_VERIFY_CONST(rbuf, bytes, 0xEE, what);

        /* MPI_IN_PLACE at the root; non-roots pass a receive buffer that must stay untouched.
         * Known deviation: MPICH 4.0 crashes on MPI_IN_PLACE at a non-zero root for counts
         * above a few hundred (pmodels/mpich#6540); skipped there. */
        if (root != 0 && count > 100 && mpich)
            continue;
        if (mt_rank == root)
            memcpy(rbuf, sbuf, bytes);
        else
            memset(rbuf, 0xEE, bytes);
        MT_MPI(MPI_Reduce(mt_rank == root ? MPI_IN_PLACE : sbuf, rbuf, count, t->type,
                          mtr_mpi_op(op), root, MPI_COMM_WORLD));
        snprintf(what, sizeof what, "MPI_Reduce(MPI_IN_PLACE) %s %s count %d root %d", t->name,
                 mtr_op_name[op], count, root);
        if (mt_rank == root)
            MTR_CHECK(t, op, rbuf, ebuf, (size_t)count, what);
        else
            MT_VERIFY_CONST(rbuf, bytes, 0xEE, what);
    }
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    mt_set_errors_return(MPI_COMM_WORLD);
    mpich = mt_library_is("MPICH");
    mtr_type types[MTR_MAX_TYPES];
    int ntypes = mtr_get_types(types);
    const int big = 1 << 20;
    sbuf = mt_malloc(32 * (size_t)big);
    rbuf = mt_malloc(32 * (size_t)big);
    ebuf = mt_malloc(32 * (size_t)big);

    const int counts[] = {1, 3, 1000};
    for (int t = 0; t < ntypes; t++)
        for (int op = 0; op < MTR_NOPS; op++)
            if (types[t].ops & MTR_BIT(op))
                for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++)
                    run(&types[t], op, counts[c]);

    /* large counts for a few combinations */
    struct {
        MPI_Datatype type;
        int op;
    } large[] = {{MPI_INT, MTR_SUM},
                 {MPI_DOUBLE, MTR_MAX},
                 {MPI_DOUBLE_INT, MTR_MINLOC},
                 {MPI_UNSIGNED_CHAR, MTR_BXOR},
                 {MPI_C_DOUBLE_COMPLEX, MTR_PROD}};
    for (size_t l = 0; l < sizeof large / sizeof large[0]; l++) {
        const mtr_type *t = mtr_find(types, ntypes, large[l].type);
        MT_ASSERT(t != NULL, "type missing from the reduction table");
        run(t, large[l].op, 65537);
        run(t, large[l].op, big);
    }

    free(sbuf);
    free(rbuf);
    free(ebuf);
    return mt_finish();
}
