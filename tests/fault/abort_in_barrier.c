/* abort_in_barrier.c - rank 1 calls MPI_Abort(MPI_COMM_WORLD, 7) while the others wait in
 * MPI_Barrier. Expected: the job ends with status 7 and nothing is left. */
#include "fault_report.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    fault_report_ready();
    if (fault_world_rank() == 1) {
        fault_let_others_block();
        fault_report_failing("abort");
        MPI_Abort(MPI_COMM_WORLD, 7);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    printf("fault-unexpected: MPI_Barrier returned on rank %d\n", fault_world_rank());
    MPI_Finalize();
    return 0;
}
