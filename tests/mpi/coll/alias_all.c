/* alias_all.c - MPI_Alltoall and MPI_Ialltoall called with one buffer as both sendbuf and
 * recvbuf (instead of MPI_IN_PLACE) get MPI_ERR_BUFFER on every rank before anything is sent
 * (the buffers must not alias; here the data would be overwritten), zero counts alias nothing;
 * the correct calls that follow run as usual and their results are checked. Allgather with
 * sendbuf == recvbuf is accepted (src/mpi/coll.c says why) and checked for its result. */
#include "mpitest.h"

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    MPI_Comm comm;
    MT_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &comm));
    mt_set_errors_return(comm);
    int *all = mt_malloc(mt_size * sizeof(int)), *out = mt_malloc(mt_size * sizeof(int));
    int *counts = mt_malloc(mt_size * sizeof(int)), *displs = mt_malloc(mt_size * sizeof(int));
    for (int i = 0; i < mt_size; i++) {
        counts[i] = 1;
        displs[i] = i;
        all[i] = 10 * mt_rank + i;
    }
    MPI_Request req;
    /* rank 0 passes its own block as sendbuf: the same address as recvbuf, same data */
    int *x = mt_malloc(mt_size * sizeof(int));
    x[mt_rank] = 100 + mt_rank;
    MT_MPI(MPI_Allgather(&x[mt_rank], 1, MPI_INT, x, 1, MPI_INT, comm));
    for (int i = 0; i < mt_size; i++)
        MT_CHECK_INT(100 + i, x[i], "allgather from one's own block");
    free(x);
    MT_CHECK_ERRCLASS(MPI_Alltoall(all, 1, MPI_INT, all, 1, MPI_INT, comm), MPI_ERR_BUFFER,
                      "Alltoall with sendbuf == recvbuf");
    MT_CHECK_ERRCLASS(MPI_Ialltoall(all, 1, MPI_INT, all, 1, MPI_INT, comm, &req),
                      MPI_ERR_BUFFER, "Ialltoall with sendbuf == recvbuf");
    /* Zero elements alias nothing: allowed. */
    MT_MPI(MPI_Alltoall(all, 0, MPI_INT, all, 0, MPI_INT, comm));
    /* The correct calls after the rejected ones. */
    int mine = 100 + mt_rank;
    MT_MPI(MPI_Allgather(&mine, 1, MPI_INT, out, 1, MPI_INT, comm));
    for (int i = 0; i < mt_size; i++)
        MT_CHECK_INT(100 + i, out[i], "allgathered value after the rejected calls");
    MT_MPI(MPI_Alltoall(all, 1, MPI_INT, out, 1, MPI_INT, comm));
    for (int i = 0; i < mt_size; i++)
        MT_CHECK_INT(10 * i + mt_rank, out[i], "alltoall value after the rejected calls");
    MT_MPI(MPI_Comm_free(&comm));
    free(all);
    free(out);
    free(counts);
    free(displs);
    return mt_finish();
}
