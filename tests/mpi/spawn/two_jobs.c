/* two_jobs: the program of tests/mpi/spawn/run_two_jobs.sh, which starts it twice with two
 * separate mpiexec runs: "server SERVICE" opens a port, publishes it as SERVICE and accepts;
 * "client SERVICE" looks the name up (waiting until it is published) and connects. The two
 * jobs then exchange messages rank by rank, run inter-communicator collectives, merge, and
 * disconnect; the server unpublishes and closes the port. */
#include <string.h>
#include <time.h>

#include "../common/mpitest.h"

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    MT_ASSERT(argc == 3, "usage: two_jobs server|client SERVICE");
    int server = strcmp(argv[1], "server") == 0;
    const char *service = argv[2];
    char port[MPI_MAX_PORT_NAME] = "";
    MPI_Comm inter;
    if (server) {
        if (mt_rank == 0) {
            MT_MPI(MPI_Open_port(MPI_INFO_NULL, port));
            MT_MPI(MPI_Publish_name(service, MPI_INFO_NULL, port));
        }
        MT_MPI(MPI_Comm_accept(port, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter));
    } else {
        if (mt_rank == 0) {
            MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
            int tries = 0;
            while (MPI_Lookup_name(service, MPI_INFO_NULL, port) != MPI_SUCCESS && tries++ < 1000) {
                struct timespec nap = {0, 10 * 1000 * 1000};
                nanosleep(&nap, NULL);
            }
            MT_ASSERT(tries <= 1000, "service %s never published", service);
        }
        MT_MPI(MPI_Comm_connect(port, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter));
    }
    int remote = 0;
    MPI_Comm_remote_size(inter, &remote);
    /* rank i of one job talks to rank i % remote of the other */
    int peer = mt_rank % remote, v = (server ? 500 : 700) + mt_rank;
    if (mt_rank < remote) {
        int got = -1;
        MT_MPI(MPI_Sendrecv(&v, 1, MPI_INT, peer, 1, &got, 1, MPI_INT, peer, 1, inter,
                            MPI_STATUS_IGNORE));
        MT_CHECK_INT((server ? 700 : 500) + peer, got, "value from the other job");
    }
    enum { BIG = 1 << 17 };
    double *big = mt_malloc(BIG * sizeof(double));
    for (int i = 0; i < BIG; i++)
        big[i] = server ? i : -1;
    MT_MPI(MPI_Bcast(big, BIG, MPI_DOUBLE,
                     server ? (mt_rank == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0, inter));
    if (!server) {
        int bad = 0;
        for (int i = 0; i < BIG; i++)
            bad += big[i] != i;
        MT_CHECK_INT(0, bad, "wrong values in the 1 MiB bcast");
    }
    free(big);
    MPI_Comm merged;
    MT_MPI(MPI_Intercomm_merge(inter, server ? 0 : 1, &merged));
    int size, sum = 0, mrank;
    MPI_Comm_size(merged, &size);
    MPI_Comm_rank(merged, &mrank);
    MT_MPI(MPI_Allreduce(&mrank, &sum, 1, MPI_INT, MPI_SUM, merged));
    MT_CHECK_INT(size * (size - 1) / 2, sum, "merged allreduce");
    MPI_Comm_free(&merged);
    long errors = 0;
    MT_MPI(MPI_Allreduce(&mt_errors, &errors, 1, MPI_LONG, MPI_SUM, inter));
    MT_CHECK(errors == 0, "%ld check(s) failed in the other job", errors);
    MT_MPI(MPI_Comm_disconnect(&inter));
    if (server && mt_rank == 0) {
        MT_MPI(MPI_Unpublish_name(service, MPI_INFO_NULL, port));
        MT_MPI(MPI_Close_port(port));
    }
    return mt_finish();
}
