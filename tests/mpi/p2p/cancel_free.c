/* cancel_free: sends cancelled and then freed with MPI_Request_free right before MPI_Finalize
 * (8 B eager, 100000 B rendezvous and MPI_Issend to the right, which never receives): MPI_Finalize
 * waits for the receiver's answers, so nothing is leaked or left behind (the sanitizer build
 * checks the leak), and the job ends. */
#include "../common/mpitest.h"

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    enum { BIG = 100000 };
    unsigned char *buf = mt_malloc(BIG);
    memset(buf, 1, BIG);
    MPI_Request req[3];
    MPI_Barrier(MPI_COMM_WORLD); /* from here on, the last MPI calls are Cancel, Free, Finalize */
    MPI_Isend(buf, 8, MPI_BYTE, mt_right(), 1, MPI_COMM_WORLD, &req[0]);
    MPI_Isend(buf, BIG, MPI_BYTE, mt_right(), 2, MPI_COMM_WORLD, &req[1]);
    MPI_Issend(buf, 8, MPI_BYTE, mt_right(), 3, MPI_COMM_WORLD, &req[2]);
    int bad = 0;
    for (int k = 0; k < 3; k++) {
        MPI_Cancel(&req[k]);
        MPI_Request_free(&req[k]);
        bad |= req[k] != MPI_REQUEST_NULL;
    }
    if (bad)
        fprintf(stderr, "FAIL rank %d: MPI_Request_free left the handle\n", mt_rank);
    else if (mt_rank == 0)
        printf("No errors\n");
    fflush(stdout);
    MPI_Finalize(); /* the buffer must stay until the sends are done */
    free(buf);
    return bad;
}
