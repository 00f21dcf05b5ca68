/* have_rma.c - feature test, never run for numbers: the Makefile builds rma only if this
 * compiles and links, i.e. the MPI has the MPI-3 one-sided calls rma.c uses. */
#include <mpi.h>

int main(int argc, char **argv)
{
    MPI_Win win;
    long *base, one = 1, old = 0, cmp = 0;
    MPI_Init(&argc, &argv);
    MPI_Win_allocate(sizeof(long), sizeof(long), MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
    MPI_Put(&one, 1, MPI_LONG, 0, 0, 1, MPI_LONG, win);
    MPI_Get(&old, 1, MPI_LONG, 0, 0, 1, MPI_LONG, win);
    MPI_Accumulate(&one, 1, MPI_LONG, 0, 0, 1, MPI_LONG, MPI_SUM, win);
    MPI_Fetch_and_op(&one, &old, MPI_LONG, 0, 0, MPI_SUM, win);
    MPI_Compare_and_swap(&one, &cmp, &old, MPI_LONG, 0, 0, win);
    MPI_Win_flush(0, win);
    MPI_Win_unlock(0, win);
    MPI_Win_fence(0, win);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
