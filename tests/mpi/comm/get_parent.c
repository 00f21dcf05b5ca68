/* get_parent: MPI_Comm_get_parent in a job mpiexec started: a process that was not spawned
 * gets MPI_COMM_NULL (MPI 4.1 11.8.2), every time it asks; a NULL output pointer is
 * MPI_ERR_ARG (Open MPI and MPICH: MPI_ERR_ARG as well). Spawned children: tests/mpi/spawn. */
#include "../common/mpitest.h"

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    mt_set_errors_return(MPI_COMM_WORLD);
    mt_set_errors_return(MPI_COMM_SELF);
    for (int i = 0; i < 2; i++) {
        MPI_Comm parent = MPI_COMM_WORLD;
        MT_MPI(MPI_Comm_get_parent(&parent));
        MT_CHECK(parent == MPI_COMM_NULL, "call %d: parent is not MPI_COMM_NULL", i);
    }
    MT_CHECK_ERRCLASS(MPI_Comm_get_parent(NULL), MPI_ERR_ARG, "MPI_Comm_get_parent(NULL)");
    return mt_finish();
}
