/* bcast: MPI_Bcast on MPI_COMM_WORLD of basic and pair types (padded pairs compared field by
 * field) for counts 0..65537 with the root rotating, every root for MPI_INT (1, 1000, 65537
 * and 1M elements) and MPI_DOUBLE_INT, 1M elements of MPI_BYTE and MPI_DOUBLE; receivers get the
 * root's data, bytes after the message stay untouched, the root's buffer is unchanged. */
#include "../common/mpitest.h"
#include "../common/mt_reduce.h" /* typed value generators / comparison */

#define GUARD 64

static unsigned char *buf, *ref;

/* value pattern of the root: integer types get random bits (the BXOR contribution), others
 * their usual values; all depend on the root and the call number */
static int pattern_op(const mtr_type *t)
{
    if (t->ops & MTR_BIT(MTR_BXOR))
        return MTR_BXOR;
    return (t->ops & MTR_BIT(MTR_SUM)) ? MTR_SUM : MTR_MINLOC;
}

static void run(const mtr_type *t, int count, int root, int call)
{
    size_t bytes = t->extent * (size_t)count;
    char what[128];
    /* the root's data: contribution of "rank" root+call so that calls differ */
    t->contrib(ref, (size_t)count, root + call, mt_size + call + 1, pattern_op(t));
    if (mt_rank == root)
        memcpy(buf, ref, bytes);
    else
        memset(buf, 0xEE, bytes);
    memset(buf + bytes, 0xEE, GUARD);
    MT_MPI(MPI_Bcast(buf, count, t->type, root, MPI_COMM_WORLD));
    snprintf(what, sizeof what, "MPI_Bcast %d x %s root %d%s", count, t->name, root,
             mt_rank == root ? " (root buffer)" : "");
    MTR_CHECK(t, -1, buf, ref, (size_t)count, what);
    MT_VERIFY_CONST(buf + bytes, GUARD, 0xEE, what);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    mt_set_errors_return(MPI_COMM_WORLD);
    mtr_type types[MTR_MAX_TYPES];
    int ntypes = mtr_get_types(types), call = 0;
    const int big = 1 << 20;
    buf = mt_malloc(8 * (size_t)big + GUARD);
    ref = mt_malloc(8 * (size_t)big);

    MPI_Datatype sel[] = {MPI_BYTE,        MPI_SHORT,  MPI_INT,        MPI_DOUBLE,
                          MPI_LONG_DOUBLE, MPI_C_DOUBLE_COMPLEX,       MPI_2INT,
                          MPI_DOUBLE_INT,  MPI_SHORT_INT};
    const int counts[] = {0, 1, 2, 3, 17, 1000, 4096, 65537};
    const int nsel = (int)(sizeof sel / sizeof sel[0]);
    const int ncounts = (int)(sizeof counts / sizeof counts[0]);
    for (int s = 0; s < nsel; s++) {
        const mtr_type *t = mtr_find(types, ntypes, sel[s]);
        MT_ASSERT(t != NULL, "type missing from the table");
        for (int c = 0; c < ncounts; c++)
            run(t, counts[c], (s + c) % mt_size, call++);
    }

    const mtr_type *t_int = mtr_find(types, ntypes, MPI_INT);
    const mtr_type *t_dint = mtr_find(types, ntypes, MPI_DOUBLE_INT);
    const mtr_type *t_byte = mtr_find(types, ntypes, MPI_BYTE);
    const mtr_type *t_dbl = mtr_find(types, ntypes, MPI_DOUBLE);
    for (int root = 0; root < mt_size; root++) {
        run(t_int, 1, root, call++);
        run(t_int, 1000, root, call++);
        run(t_int, 65537, root, call++);
        run(t_int, big, root, call++);
        run(t_dint, 17, root, call++);
    }
    run(t_byte, big, mt_size - 1, call++);
    run(t_dbl, big, 0, call++);

    free(buf);
    free(ref);
    return mt_finish();
}
