/* errors.c - argument errors of collectives return the right error class under
 * MPI_ERRORS_RETURN (every rank passes the same bad argument, so none blocks): invalid root,
 * negative counts, MPI_DATATYPE_NULL, MPI_OP_NULL, an operator not defined for the type,
 * MPI_IN_PLACE where it is not allowed, MPI_COMM_NULL, freeing a predefined operator; and
 * the communicator still works afterwards. */
#include "mpitest.h"

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    mt_set_errors_return(MPI_COMM_WORLD);
    mt_set_errors_return(MPI_COMM_SELF);
    int a[8] = {0}, b[8] = {0}, counts[64], displs[64];
    double d[4] = {0}, e[4] = {0};
    for (int i = 0; i < 64; i++) {
        counts[i] = 1;
        displs[i] = i;
    }
    int *big = mt_malloc(sizeof(int) * 64), *big2 = mt_malloc(sizeof(int) * 64);

    MT_CHECK_ERRCLASS(MPI_Bcast(a, 1, MPI_INT, mt_size, MPI_COMM_WORLD), MPI_ERR_ROOT,
                      "Bcast root = size");
    MT_CHECK_ERRCLASS(MPI_Bcast(a, 1, MPI_INT, -1, MPI_COMM_WORLD), MPI_ERR_ROOT,
                      "Bcast root = -1");
    MT_CHECK_ERRCLASS(MPI_Reduce(a, b, 1, MPI_INT, MPI_SUM, mt_size + 3, MPI_COMM_WORLD),
                      MPI_ERR_ROOT, "Reduce root out of range");
    MT_CHECK_ERRCLASS(MPI_Gather(a, 1, MPI_INT, big, 1, MPI_INT, -5, MPI_COMM_WORLD),
                      MPI_ERR_ROOT, "Gather root = -5");
    MT_CHECK_ERRCLASS(MPI_Scatterv(big, counts, displs, MPI_INT, a, 1, MPI_INT, mt_size,
                                   MPI_COMM_WORLD),
                      MPI_ERR_ROOT, "Scatterv root = size");

    MT_CHECK_ERRCLASS(MPI_Bcast(a, -1, MPI_INT, 0, MPI_COMM_WORLD), MPI_ERR_COUNT,
                      "Bcast count -1");
    MT_CHECK_ERRCLASS(MPI_Allreduce(a, b, -2, MPI_INT, MPI_SUM, MPI_COMM_WORLD), MPI_ERR_COUNT,
                      "Allreduce count -2");
    MT_CHECK_ERRCLASS(MPI_Allgather(a, -1, MPI_INT, big, 1, MPI_INT, MPI_COMM_WORLD),
                      MPI_ERR_COUNT, "Allgather sendcount -1");
    counts[mt_size - 1] = -1;
    MT_CHECK_ERRCLASS(MPI_Alltoallv(big, counts, displs, MPI_INT, big2, counts, displs, MPI_INT,
                                    MPI_COMM_WORLD),
                      MPI_ERR_COUNT, "Alltoallv count -1");
    counts[mt_size - 1] = 1;

    MT_CHECK_ERRCLASS(MPI_Bcast(a, 1, MPI_DATATYPE_NULL, 0, MPI_COMM_WORLD), MPI_ERR_TYPE,
                      "Bcast MPI_DATATYPE_NULL");
    /* Open MPI checks the (op, type) pair first: either class names the problem */
    int cls = mt_errclass(MPI_Allreduce(a, b, 1, MPI_DATATYPE_NULL, MPI_SUM, MPI_COMM_WORLD));
    MT_CHECK(cls == MPI_ERR_TYPE || cls == MPI_ERR_OP, "Allreduce MPI_DATATYPE_NULL: class %s",
             mt_errclass_name(cls));

    MT_CHECK_ERRCLASS(MPI_Allreduce(a, b, 1, MPI_INT, MPI_OP_NULL, MPI_COMM_WORLD), MPI_ERR_OP,
                      "Allreduce MPI_OP_NULL");
    MT_CHECK_ERRCLASS(MPI_Reduce(a, b, 1, MPI_INT, MPI_OP_NULL, 0, MPI_COMM_WORLD), MPI_ERR_OP,
                      "Reduce MPI_OP_NULL");
    MT_CHECK_ERRCLASS(MPI_Allreduce(d, e, 2, MPI_DOUBLE, MPI_BAND, MPI_COMM_WORLD), MPI_ERR_OP,
                      "Allreduce MPI_BAND on MPI_DOUBLE");
    MT_CHECK_ERRCLASS(MPI_Allreduce(d, e, 2, MPI_DOUBLE, MPI_LXOR, MPI_COMM_WORLD), MPI_ERR_OP,
                      "Allreduce MPI_LXOR on MPI_DOUBLE");
    MT_CHECK_ERRCLASS(MPI_Reduce(a, b, 2, MPI_INT, MPI_MAXLOC, 0, MPI_COMM_WORLD), MPI_ERR_OP,
                      "Reduce MPI_MAXLOC on MPI_INT");
    MT_CHECK_ERRCLASS(MPI_Scan(a, b, 1, MPI_INT, MPI_OP_NULL, MPI_COMM_WORLD), MPI_ERR_OP,
                      "Scan MPI_OP_NULL");
    MT_CHECK_ERRCLASS(MPI_Reduce_local(a, b, 1, MPI_INT, MPI_OP_NULL), MPI_ERR_OP,
                      "Reduce_local MPI_OP_NULL");
    /* an op not defined for the type, MPI_REPLACE, and either with nothing to reduce: refused,
     * inoutbuf untouched (MPI_Reduce_local lets the apply step do the check) */
    d[0] = 5.0;
    e[0] = 3.0;
    MT_CHECK_ERRCLASS(MPI_Reduce_local(d, e, 2, MPI_DOUBLE, MPI_BOR), MPI_ERR_OP,
                      "Reduce_local MPI_BOR on MPI_DOUBLE");
    MT_CHECK(e[0] == 3.0, "Reduce_local MPI_BOR on MPI_DOUBLE wrote inoutbuf");
    d[0] = e[0] = 0.0;
    MT_CHECK_ERRCLASS(MPI_Reduce_local(a, b, 1, MPI_INT, MPI_REPLACE), MPI_ERR_OP,
                      "Reduce_local MPI_REPLACE");
    MT_CHECK_ERRCLASS(MPI_Reduce_local(a, b, 0, MPI_INT, MPI_MINLOC), MPI_ERR_OP,
                      "Reduce_local MPI_MINLOC on MPI_INT, count 0");
    MT_CHECK_ERRCLASS(MPI_Reduce_local(a, b, 0, MPI_INT, MPI_NO_OP), MPI_ERR_OP,
                      "Reduce_local MPI_NO_OP, count 0");
    MT_CHECK_ERRCLASS(MPI_Reduce_local(MPI_IN_PLACE, b, 1, MPI_INT, MPI_SUM), MPI_ERR_BUFFER,
                      "Reduce_local MPI_IN_PLACE");
    b[0] = 7;
    MT_CHECK_ERRCLASS(MPI_Reduce_local(b, b, 1, MPI_INT, MPI_SUM), MPI_ERR_BUFFER,
                      "Reduce_local with inbuf == inoutbuf");
    MT_CHECK(b[0] == 7, "Reduce_local with inbuf == inoutbuf wrote inoutbuf");
    MPI_Op sum = MPI_SUM;
    MT_CHECK_ERRCLASS(MPI_Op_free(&sum), MPI_ERR_OP, "Op_free(MPI_SUM)");

    int rc = MPI_Allreduce(a, MPI_IN_PLACE, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    cls = mt_errclass(rc);
    MT_CHECK(cls == MPI_ERR_BUFFER || cls == MPI_ERR_ARG,
             "Allreduce recvbuf = MPI_IN_PLACE gave class %d (%s)", cls, mt_errclass_name(cls));

    MT_CHECK_ERRCLASS(MPI_Barrier(MPI_COMM_NULL), MPI_ERR_COMM, "Barrier MPI_COMM_NULL");
    MT_CHECK_ERRCLASS(MPI_Allreduce(a, b, 1, MPI_INT, MPI_SUM, MPI_COMM_NULL), MPI_ERR_COMM,
                      "Allreduce MPI_COMM_NULL");

    /* still usable */
    a[0] = 1;
    MT_MPI(MPI_Allreduce(a, b, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    MT_CHECK_INT(mt_size, b[0], "Allreduce after the errors");
    free(big);
    free(big2);
    return mt_finish();
}
