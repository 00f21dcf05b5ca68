/* abi_program.c - an MPI program as the MPI-5.0 standard ABI sees it: compiled against the
 * standard's mpi.h and linked against a library named libmpi_abi.so.0 that is not nodempi
 * (foreign_abi.sh builds that stand-in), then run by nodempi's mpiexec, which must make it load
 * nodempi. Checks what only a working MPI gives: the ABI version, nodempi's library version
 * string, a ring of messages, a reduction and a status; prints "No errors" on rank 0. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    int errors = 0;
    if (MPI_Init(&argc, &argv) != MPI_SUCCESS) {
        printf("MPI_Init failed: not an MPI library\n");
        return 1;
    }
    int rank = -1, size = -1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank < 0 || size < 1) {
        printf("rank %d of %d\n", rank, size);
        return 1;
    }
    int major = -1, minor = -1;
    MPI_Abi_get_version(&major, &minor);
    if (major != MPI_ABI_VERSION || minor != MPI_ABI_SUBVERSION) {
        printf("rank %d: ABI version %d.%d, header says %d.%d\n", rank, major, minor,
               MPI_ABI_VERSION, MPI_ABI_SUBVERSION);
        errors++;
    }
    char version[MPI_MAX_LIBRARY_VERSION_STRING];
    int len = 0;
    MPI_Get_library_version(version, &len);
    if (!strstr(version, "nodempi")) {
        printf("rank %d: the library is not nodempi: %s\n", rank, version);
        errors++;
    }
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int out = 100 + rank, in = -1;
    MPI_Status status;
    MPI_Sendrecv(&out, 1, MPI_INT, right, 7, &in, 1, MPI_INT, left, 7, MPI_COMM_WORLD, &status);
    int count = -1;
    MPI_Get_count(&status, MPI_INT, &count);
    if (in != 100 + left || status.MPI_SOURCE != left || status.MPI_TAG != 7 || count != 1) {
        printf("rank %d: ring got %d from %d tag %d count %d\n", rank, in, status.MPI_SOURCE,
               status.MPI_TAG, count);
        errors++;
    }
    long sum = 0, mine = rank + 1;
    MPI_Allreduce(&mine, &sum, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    if (sum != (long)size * (size + 1) / 2) {
        printf("rank %d: sum %ld\n", rank, sum);
        errors++;
    }
    int total = -1; /* stays -1 unless a real reduction writes it */
    MPI_Reduce(&errors, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0 && total == 0)
        printf("No errors\n");
    MPI_Finalize();
    return rank == 0 ? total != 0 : errors != 0;
}
