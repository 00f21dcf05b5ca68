/* allreduce: MPI_Allreduce on MPI_COMM_WORLD for every predefined datatype with every
 * predefined operation valid for it (SUM, PROD, MIN, MAX, LAND, LOR, LXOR, BAND, BOR, BXOR,
 * MINLOC/MAXLOC on pair types) at count 1000, plus count 1 with MPI_IN_PLACE once per type;
 * counts 3 and 65537 for a few combinations and 1M for two, with and without MPI_IN_PLACE.
 * Every rank compares with an exact locally computed reference and checks that its send
 * buffer is unchanged. */
#include "../common/mpitest.h"
#include "../common/mt_reduce.h"

static unsigned char *sbuf, *rbuf, *ebuf, *cbuf;

static void run(const mtr_type *t, int op, int count, int in_place)
{
    size_t bytes = t->extent * (size_t)count;
    char what[160];
    t->contrib(sbuf, (size_t)count, mt_rank, mt_size, op);
    t->expect(ebuf, (size_t)count, mt_size, op);
    snprintf(what, sizeof what, "MPI_Allreduce%s %s %s count %d", in_place ? "(MPI_IN_PLACE)" : "",
             t->name, mtr_op_name[op], count);
    if (in_place) {
        MT_MPI(MPI_Allreduce(MPI_IN_PLACE, sbuf, count, t->type, mtr_mpi_op(op), MPI_COMM_WORLD));
        MTR_CHECK(t, op, sbuf, ebuf, (size_t)count, what);
        return;
    }
    t->contrib(cbuf, (size_t)count, mt_rank, mt_size, op); /* pristine copy of the input */
    memset(rbuf, 0, bytes);
    MT_MPI(MPI_Allreduce(sbuf, rbuf, count, t->type, mtr_mpi_op(op), MPI_COMM_WORLD));
    MTR_CHECK(t, op, rbuf, ebuf, (size_t)count, what);
    strcat(what, ": send buffer changed");
    MTR_CHECK(t, -1, sbuf, cbuf, (size_t)count, what);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    mt_set_errors_return(MPI_COMM_WORLD);
    mtr_type types[MTR_MAX_TYPES];
    int ntypes = mtr_get_types(types);
    const int big = 1 << 20;
    sbuf = mt_malloc(16 * (size_t)big);
    rbuf = mt_malloc(16 * (size_t)big);
    ebuf = mt_malloc(16 * (size_t)big);
    cbuf = mt_malloc(16 * (size_t)big);

    for (int t = 0; t < ntypes; t++) {
        int first = 1;
        for (int op = 0; op < MTR_NOPS; op++)
            if (types[t].ops & MTR_BIT(op)) {
                run(&types[t], op, 1000, 0);
                if (first) /* in place once per type */
                    run(&types[t], op, 1, 1);
                first = 0;
            }
    }

    struct {
        MPI_Datatype type;
        int op;
    } few[] = {{MPI_INT, MTR_SUM},
               {MPI_DOUBLE, MTR_MAX},
               {MPI_DOUBLE_INT, MTR_MINLOC},
               {MPI_UNSIGNED_CHAR, MTR_BXOR},
               {MPI_C_DOUBLE_COMPLEX, MTR_PROD}};
    for (int l = 0; l < (int)(sizeof few / sizeof few[0]); l++) {
        const mtr_type *t = mtr_find(types, ntypes, few[l].type);
        MT_ASSERT(t != NULL, "type missing from the reduction table");
        run(t, few[l].op, 3, l % 2);
        run(t, few[l].op, 65537, (l + 1) % 2);
        if (l < 2) { /* 1M elements: MPI_INT/MPI_SUM and MPI_DOUBLE_INT/MPI_MINLOC */
            run(t, few[l].op, big, 0);
            run(t, few[l].op, big, 1);
        }
    }

    free(sbuf);
    free(rbuf);
    free(ebuf);
    free(cbuf);
    return mt_finish();
}
