/* allreduce: MPI_Allreduce on MPI_COMM_WORLD for every predefined datatype with every
 * predefined operation valid for it (SUM, PROD, MIN, MAX, LAND, LOR, LXOR, BAND, BOR, BXOR,
 * MINLOC/MAXLOC on pair types), counts 1, 3, 1000 (65537 and 1M for a few combinations), with
 * separate buffers and with MPI_IN_PLACE; every rank compares with an exact locally computed
 * reference and checks that its send buffer is unchanged. */
#include "../common/mpitest.h"
#include "../common/mt_reduce.h"

static unsigned char *sbuf, *rbuf, *ebuf, *cbuf;

static void run(const mtr_type *t, int op, int count)
{
    size_t bytes = t->extent * (size_t)count;
    char what[160];
    t->contrib(sbuf, (size_t)count, mt_rank, mt_size, op);
    t->contrib(cbuf, (size_t)count, mt_rank, mt_size, op); /* pristine copy of the input */
    t->expect(ebuf, (size_t)count, mt_size, op);

    memset(rbuf, 0, bytes);
    MT_MPI(MPI_Allreduce(sbuf, rbuf, count, t->type, mtr_mpi_op(op), MPI_COMM_WORLD));
    snprintf(what, sizeof what, "MPI_Allreduce %s %s count %d", t->name, mtr_op_name[op], count);
    MTR_CHECK(t, op, rbuf, ebuf, (size_t)count, what);
    snprintf(what, sizeof what, "MPI_Allreduce %s %s count %d: send buffer", t->name,
             mtr_op_name[op], count);
    MTR_CHECK(t, -1, sbuf, cbuf, (size_t)count, what);

    MT_MPI(MPI_Allreduce(MPI_IN_PLACE, sbuf, count, t->type, mtr_mpi_op(op), MPI_COMM_WORLD));
    snprintf(what, sizeof what, "MPI_Allreduce(MPI_IN_PLACE) %s %s count %d", t->name,
             mtr_op_name[op], count);
    MTR_CHECK(t, op, sbuf, ebuf, (size_t)count, what);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    mt_set_errors_return(MPI_COMM_WORLD);
    mtr_type types[MTR_MAX_TYPES];
    int ntypes = mtr_get_types(types);
    const int big = 1 << 20;
    sbuf = mt_malloc(32 * (size_t)big);
    rbuf = mt_malloc(32 * (size_t)big);
    ebuf = mt_malloc(32 * (size_t)big);
    cbuf = mt_malloc(32 * (size_t)big);

    const int counts[] = {1, 3, 1000};
    for (int t = 0; t < ntypes; t++)
        for (int op = 0; op < MTR_NOPS; op++)
            if (types[t].ops & MTR_BIT(op))
                for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++)
                    run(&types[t], op, counts[c]);

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
    free(cbuf);
    return mt_finish();
}
