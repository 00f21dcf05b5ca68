/* large_oversubscribed: the algorithms oversubscribed jobs choose for large blocks (select.c:
 * allreduce's ring above 2 MiB, allgather's and alltoall's linear round), with counts that do
 * not divide by the ranks: MPI_Allreduce SUM and MAX (in place) of just over 2 MiB of ints,
 * MPI_Allgather of 5 KiB + 1 int blocks, MPI_Alltoall of 40 KiB + 1 int blocks, every element
 * checked. Run at 1-8 ranks on 2 cores, so 3+ ranks are oversubscribed. */
#include "mpitest.h"

#include <stdlib.h>

static int value(int rank, int i) { return (i % 1009) * 3 + rank; }

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    int n = mt_size, me = mt_rank;

    int count = (2 << 20) / (int)sizeof(int) + 3 * n + 1; /* above 2 MiB: the ring */
    int *a = malloc(sizeof(int) * (size_t)count), *b = malloc(sizeof(int) * (size_t)count);
    MT_ASSERT(a && b, "malloc");
    for (int i = 0; i < count; i++)
        a[i] = value(me, i);
    MT_CHECK_INT(MPI_SUCCESS, MPI_Allreduce(a, b, count, MPI_INT, MPI_SUM, MPI_COMM_WORLD),
                 "MPI_Allreduce SUM");
    int wrong = 0;
    for (int i = 0; i < count; i++)
        wrong += b[i] != (i % 1009) * 3 * n + n * (n - 1) / 2;
    MT_CHECK_INT(0, wrong, "allreduce SUM elements wrong");
    MT_CHECK_INT(MPI_SUCCESS,
                 MPI_Allreduce(MPI_IN_PLACE, a, count, MPI_INT, MPI_MAX, MPI_COMM_WORLD),
                 "MPI_Allreduce MAX in place");
    wrong = 0;
    for (int i = 0; i < count; i++)
        wrong += a[i] != value(n - 1, i);
    MT_CHECK_INT(0, wrong, "allreduce MAX elements wrong");
    free(a);
    free(b);

    int block = 5 * 1024 / (int)sizeof(int) * 4 + 1; /* above 4 KiB: linear when oversubscribed */
    int *mine = malloc(sizeof(int) * (size_t)block);
    int *all = malloc(sizeof(int) * (size_t)block * (size_t)n);
    MT_ASSERT(mine && all, "malloc");
    for (int i = 0; i < block; i++)
        mine[i] = value(me, i);
    MT_CHECK_INT(MPI_SUCCESS,
                 MPI_Allgather(mine, block, MPI_INT, all, block, MPI_INT, MPI_COMM_WORLD),
                 "MPI_Allgather");
    wrong = 0;
    for (int r = 0; r < n; r++)
        for (int i = 0; i < block; i++)
            wrong += all[(size_t)r * (size_t)block + (size_t)i] != value(r, i);
    MT_CHECK_INT(0, wrong, "allgather elements wrong");
    free(mine);
    free(all);

    block = 40 * 1024 / (int)sizeof(int) + 1;
    int *out = malloc(sizeof(int) * (size_t)block * (size_t)n);
    int *in = malloc(sizeof(int) * (size_t)block * (size_t)n);
    MT_ASSERT(out && in, "malloc");
    for (int r = 0; r < n; r++) /* block r goes to rank r: tagged with both ranks */
        for (int i = 0; i < block; i++)
            out[(size_t)r * (size_t)block + (size_t)i] = value(me * 16 + r, i);
    MT_CHECK_INT(MPI_SUCCESS,
                 MPI_Alltoall(out, block, MPI_INT, in, block, MPI_INT, MPI_COMM_WORLD),
                 "MPI_Alltoall");
    wrong = 0;
    for (int r = 0; r < n; r++)
        for (int i = 0; i < block; i++)
            wrong += in[(size_t)r * (size_t)block + (size_t)i] != value(r * 16 + me, i);
    MT_CHECK_INT(0, wrong, "alltoall elements wrong");
    free(out);
    free(in);
    return mt_finish();
}
