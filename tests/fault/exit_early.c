/* exit_early.c - rank 1 calls exit(argv[1]) after MPI_Init, without MPI_Finalize, while every
 * other rank blocks in MPI_Recv. Expected: the job ends with that status (1 if it is 0). */
#include "fault_report.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    fault_report_ready();
    if (fault_world_rank() == 1) {
        int status = argc > 1 ? atoi(argv[1]) : 3;
        fault_let_others_block();
        fault_report_failing("exit");
        exit(status);
    }
    fault_block_in_recv();
    MPI_Finalize();
    return 0;
}
