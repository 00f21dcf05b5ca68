/* null_outputs.c - MPI_Comm_size and MPI_Comm_rank with a NULL output pointer raise MPI_ERR_ARG
 * on the communicator (they used to write through the pointer and crash). */
#include "mpitest.h"

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    MPI_Comm comm;
    MT_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &comm));
    mt_set_errors_return(comm);
    MT_CHECK_ERRCLASS(MPI_Comm_size(comm, NULL), MPI_ERR_ARG, "MPI_Comm_size(comm, NULL)");
    MT_CHECK_ERRCLASS(MPI_Comm_rank(comm, NULL), MPI_ERR_ARG, "MPI_Comm_rank(comm, NULL)");
    int size = -1, rank = -1;
    MT_MPI(MPI_Comm_size(comm, &size));
    MT_MPI(MPI_Comm_rank(comm, &rank));
    MT_CHECK_INT(mt_size, size, "MPI_Comm_size after the rejected calls");
    MT_CHECK_INT(mt_rank, rank, "MPI_Comm_rank after the rejected calls");
    MT_MPI(MPI_Comm_free(&comm));
    return mt_finish();
}
