/* segv_while_recv.c - rank 1 dereferences NULL while every other rank blocks in MPI_Recv.
 * Expected: mpiexec names rank 1 and the signal, exits 139, and nothing is left. */
#include "fault_report.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    fault_report_ready();
    if (fault_world_rank() == 1) {
        fault_let_others_block();
        fault_report_failing("segv");
        volatile int *nowhere = NULL;
        *nowhere = 1;
    }
    fault_block_in_recv();
    MPI_Finalize();
    return 0;
}
