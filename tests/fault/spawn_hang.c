/* spawn_hang.c - the parents spawn two children (this program, argument "child"), and every
 * process of both jobs reports ready and blocks in MPI_Recv forever: the jobs end only from
 * outside. Children also print "fault-spawned pid P" so a script can pick one to kill. */
#include <string.h>

#include "fault_report.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm parent, children;
    MPI_Comm_get_parent(&parent);
    if (parent == MPI_COMM_NULL) {
        char *args[] = {"child", NULL};
        MPI_Comm_spawn(argv[0], args, 2, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &children,
                       MPI_ERRCODES_IGNORE);
    } else {
        printf("fault-spawned pid %d\n", (int)getpid());
    }
    fault_report_ready();
    fault_block_in_recv();
    MPI_Finalize();
    return 0;
}
