/* resource_guided: MPI-4.1 MPI_COMM_TYPE_RESOURCE_GUIDED splits by the info key
 * "mpi_hw_resource_type" ("mpi_shared_memory" must work; unknown values and missing info give
 * MPI_COMM_NULL), and MPI_Get_hw_resource_info returns an info object. (mpi4py's test_comm found
 * nodempi returning MPI_COMM_NULL for every RESOURCE_GUIDED split.) */
#include "../common/mpitest.h"

#if MPI_VERSION > 4 || (MPI_VERSION == 4 && MPI_SUBVERSION >= 1)
static int split_size(int split_type, MPI_Info info)
{
    MPI_Comm comm;
    MT_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, split_type, mt_rank, info, &comm));
    if (comm == MPI_COMM_NULL)
        return 0;
    int size = -1;
    MPI_Comm_size(comm, &size);
    MPI_Comm_free(&comm);
    return size;
}
#endif

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    mt_set_errors_return(MPI_COMM_WORLD);
#if MPI_VERSION > 4 || (MPI_VERSION == 4 && MPI_SUBVERSION >= 1)
    MPI_Info hw;
    int nkeys = -1;
    MT_MPI(MPI_Get_hw_resource_info(&hw));
    MT_MPI(MPI_Info_get_nkeys(hw, &nkeys));
    MT_CHECK(nkeys >= 0, "MPI_Get_hw_resource_info: %d keys", nkeys);
    MT_MPI(MPI_Info_free(&hw));

    MPI_Info info;
    MT_MPI(MPI_Info_create(&info));
    MT_CHECK_INT(0, split_size(MPI_COMM_TYPE_RESOURCE_GUIDED, MPI_INFO_NULL), "no info");
    MT_CHECK_INT(0, split_size(MPI_COMM_TYPE_RESOURCE_GUIDED, info), "no key");
    MT_MPI(MPI_Info_set(info, "mpi_hw_resource_type", "@no-such-resource@"));
    MT_CHECK_INT(0, split_size(MPI_COMM_TYPE_RESOURCE_GUIDED, info), "unknown resource");
    MT_MPI(MPI_Info_set(info, "mpi_hw_resource_type", "mpi_shared_memory"));
    /* every process of one node shares memory with every other */
    MT_CHECK_INT(mt_size, split_size(MPI_COMM_TYPE_RESOURCE_GUIDED, info), "mpi_shared_memory");
    for (int root = 0; root < mt_size; root++) {
        int type = mt_rank == root ? MPI_COMM_TYPE_RESOURCE_GUIDED : MPI_UNDEFINED;
        MT_CHECK_INT(mt_rank == root ? 1 : 0, split_size(type, info), "only one rank splits");
    }
    MT_MPI(MPI_Info_free(&info));
#endif
    return mt_finish();
}
