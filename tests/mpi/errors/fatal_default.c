/* fatal_default: with the default error handler (MPI_ERRORS_ARE_FATAL) an invalid MPI_Send
 * (rank 7 in a 2-rank job) must abort the whole job, including the rank blocked in a barrier.
 * Not in the testlist: run by run_fatal_default.sh, which expects a non-zero exit. */
#include "../common/mpitest.h"

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    if (mt_rank == 0) {
        char lib[MPI_MAX_LIBRARY_VERSION_STRING];
        int len = 0, x = 42;
        MPI_Get_library_version(lib, &len);
        lib[strcspn(lib, "\n")] = '\0';
        printf("LIBRARY: %s\n", lib);
        fflush(stdout);
        MPI_Send(&x, 1, MPI_INT, 7, 0, MPI_COMM_WORLD); /* must not return */
        printf("UNREACHABLE: MPI_Send with an invalid rank returned\n");
        fflush(stdout);
    } else {
        MPI_Barrier(MPI_COMM_WORLD); /* never completes: rank 0 never enters */
        printf("UNREACHABLE: barrier completed\n");
        fflush(stdout);
    }
    MPI_Finalize();
    return 0;
}
