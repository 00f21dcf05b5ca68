/* hang_recv.c - every rank blocks in MPI_Recv forever: the job only ends from outside (timeout,
 * a signal to mpiexec, a rank killed). With argument "fork", rank 0 first forks a child that
 * sleeps in the rank's process group: it must not survive the job either. */
#include <string.h>

#include "fault_report.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    if (argc > 1 && strcmp(argv[1], "fork") == 0 && fault_world_rank() == 0) {
        pid_t child = fork();
        if (child == 0) {
            for (;;)
                pause();
        }
        printf("fault-grandchild pid %d\n", (int)child);
    }
    fault_report_ready();
    fault_block_in_recv();
    MPI_Finalize();
    return 0;
}
