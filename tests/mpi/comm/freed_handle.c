/* freed_handle: a communicator handle used after MPI_Comm_free (a copy of it), freed twice,
 * or a datatype handle passed as a communicator is MPI_ERR_COMM, returned under
 * MPI_ERRORS_RETURN, not a crash; the communicators made afterwards work, also when the
 * library reuses the freed object for them. MPICH detects this too (its errors/comm/cfree). */
#include "../common/mpitest.h"

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    /* Open MPI 4.1 reads the freed object (a crash or wrong answers): the checks are for the
     * libraries that detect it. */
    int detects = mt_library_is("nodempi") || mt_library_is("MPICH");
    for (int round = 0; round < 3 && detects; round++) {
        MPI_Comm dup, copy;
        MT_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
        MPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN);
        copy = dup;
        MT_MPI(MPI_Comm_free(&dup));
        MT_CHECK(dup == MPI_COMM_NULL, "MPI_Comm_free left the handle set");
        MT_CHECK_ERRCLASS(MPI_Barrier(copy), MPI_ERR_COMM, "MPI_Barrier on a freed communicator");
        int rank = -1, in = mt_rank, out[64];
        MT_CHECK_ERRCLASS(MPI_Comm_rank(copy, &rank), MPI_ERR_COMM,
                          "MPI_Comm_rank on a freed communicator");
        MT_CHECK_ERRCLASS(MPI_Allgather(&in, 1, MPI_INT, out, 1, MPI_INT, copy), MPI_ERR_COMM,
                          "MPI_Allgather on a freed communicator");
        MT_CHECK_ERRCLASS(MPI_Send(&in, 1, MPI_INT, 0, 0, copy), MPI_ERR_COMM,
                          "MPI_Send on a freed communicator");
        MT_CHECK_ERRCLASS(MPI_Comm_free(&copy), MPI_ERR_COMM, "MPI_Comm_free a second time");

        /* A new communicator (possibly at the same address) works. */
        MPI_Comm again;
        MT_MPI(MPI_Comm_split(MPI_COMM_WORLD, 0, mt_size - mt_rank, &again));
        int size = 0;
        MT_MPI(MPI_Comm_size(again, &size));
        MT_CHECK_INT(mt_size, size, "size of the communicator made after the free");
        MT_MPI(MPI_Comm_rank(again, &rank));
        MT_CHECK_INT(mt_size - 1 - mt_rank, rank, "rank in the reversed split");
        int sum = 0;
        MT_MPI(MPI_Allreduce(&in, &sum, 1, MPI_INT, MPI_SUM, again));
        MT_CHECK_INT(mt_size * (mt_size - 1) / 2, sum, "allreduce on the new communicator");
        MT_MPI(MPI_Comm_free(&again));
    }

    /* A derived datatype's handle where a communicator belongs (nodempi's handles are
     * pointers to objects that say what they are; MPICH's are integers). */
#if !defined(MPICH_VERSION) && !defined(OMPI_MAJOR_VERSION)
    MPI_Datatype pair;
    MT_MPI(MPI_Type_contiguous(2, MPI_INT, &pair));
    int size = 0;
    MT_CHECK_ERRCLASS(MPI_Comm_size((MPI_Comm)(void *)pair, &size), MPI_ERR_COMM,
                      "MPI_Comm_size on a datatype handle");
    MPI_Type_free(&pair);
#endif
    return mt_finish();
}
