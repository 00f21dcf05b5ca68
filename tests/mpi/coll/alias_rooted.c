/* alias_rooted.c - the root of Gather(v)/Scatter(v) (blocking and nonblocking) that passes one
 * buffer as both sendbuf and recvbuf (instead of MPI_IN_PLACE) gets MPI_ERR_BUFFER before
 * anything is sent; it then makes the correct call, which the other ranks' one call matches. */
#include "mpitest.h"

enum { ROOT = 0 };

static void check_gather(MPI_Comm comm, int *buf, int *all, int *counts, int *displs, int v,
                         int nonblocking)
{
    MPI_Request req;
    int rc;
    const char *what = v ? "Gatherv with sendbuf == recvbuf" : "Gather with sendbuf == recvbuf";
    if (mt_rank == ROOT) {
        if (v)
            rc = MPI_Gatherv(all, 1, MPI_INT, all, counts, displs, MPI_INT, ROOT, comm);
        else if (nonblocking)
            rc = MPI_Igather(all, 1, MPI_INT, all, 1, MPI_INT, ROOT, comm, &req);
        else
            rc = MPI_Gather(all, 1, MPI_INT, all, 1, MPI_INT, ROOT, comm);
        MT_CHECK_ERRCLASS(rc, MPI_ERR_BUFFER, what);
    }
    *buf = 100 + mt_rank;
    for (int i = 0; i < mt_size; i++)
        all[i] = -1;
    if (v)
        MT_MPI(MPI_Gatherv(buf, 1, MPI_INT, all, counts, displs, MPI_INT, ROOT, comm));
    else
        MT_MPI(MPI_Gather(buf, 1, MPI_INT, all, 1, MPI_INT, ROOT, comm));
    for (int i = 0; mt_rank == ROOT && i < mt_size; i++)
        MT_CHECK_INT(100 + i, all[i], "gathered value after the rejected call");
}

static void check_scatter(MPI_Comm comm, int *buf, int *all, int *counts, int *displs, int v)
{
    int rc;
    const char *what = v ? "Scatterv with sendbuf == recvbuf" : "Scatter with sendbuf == recvbuf";
    for (int i = 0; i < mt_size; i++)
        all[i] = 200 + i;
    if (mt_rank == ROOT) {
        if (v)
            rc = MPI_Scatterv(all, counts, displs, MPI_INT, all, 1, MPI_INT, ROOT, comm);
        else
            rc = MPI_Scatter(all, 1, MPI_INT, all, 1, MPI_INT, ROOT, comm);
        MT_CHECK_ERRCLASS(rc, MPI_ERR_BUFFER, what);
    }
    *buf = -1;
    if (v)
        MT_MPI(MPI_Scatterv(all, counts, displs, MPI_INT, buf, 1, MPI_INT, ROOT, comm));
    else
        MT_MPI(MPI_Scatter(all, 1, MPI_INT, buf, 1, MPI_INT, ROOT, comm));
    MT_CHECK_INT(200 + mt_rank, *buf, "scattered value after the rejected call");
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    MPI_Comm comm;
    MT_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &comm));
    mt_set_errors_return(comm);
    int buf, *all = mt_malloc(mt_size * sizeof(int));
    int *counts = mt_malloc(mt_size * sizeof(int)), *displs = mt_malloc(mt_size * sizeof(int));
    for (int i = 0; i < mt_size; i++) {
        counts[i] = 1;
        displs[i] = i;
    }
    check_gather(comm, &buf, all, counts, displs, 0, 0);
    check_gather(comm, &buf, all, counts, displs, 0, 1);
    check_gather(comm, &buf, all, counts, displs, 1, 0);
    check_scatter(comm, &buf, all, counts, displs, 0);
    check_scatter(comm, &buf, all, counts, displs, 1);
    MT_MPI(MPI_Comm_free(&comm));
    free(all);
    free(counts);
    free(displs);
    return mt_finish();
}
