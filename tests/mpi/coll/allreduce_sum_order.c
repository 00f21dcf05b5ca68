/* allreduce_sum_order.c - MPI_Allreduce(MPI_SUM) of doubles must round the same whichever of
 * nodempi's small-allreduce paths runs: the shared cells of an oversubscribed job
 * (src/coll/shm_allreduce.c) and recursive doubling both add in recursive doubling's tree,
 * ((c0 + c1) + (c2 + c3)) at 4 ranks, the non-power-of-two ranks folded in pairs first. The
 * cells used to add c0 + (c1 + (c2 + c3)), valid for MPI but different in the last bits from
 * the job run without oversubscription and from Open MPI and MPICH; hypre's TEST_ij/fsai
 * turned that into final residuals 3% off its reference at 4 ranks. The values mix
 * magnitudes 1 and 1e8 so that different association orders round differently. Portable MPI,
 * but the expected tree is nodempi's: MPICH 4.0 adds so at 3-5 ranks, Open MPI 4.1 at 4 and 5
 * (at 3 ranks its 1000-double allreduce associates otherwise, as MPI allows). */
#include "mpitest.h"

enum { MAX_RANKS = 64, MAX_COUNT = 1000 };

static double value(int rank, int count, int i)
{
    double unit = (double)(mt_mix((uint64_t)count * 1009 + (uint64_t)i, (uint64_t)rank) >> 11) /
                  (double)(1ULL << 53);
    return (unit - 0.5) * (rank % 2 ? 1e8 : 1.0);
}

/* Recursive doubling's tree over p values: the first 2*rem fold in pairs, then blocks of 1, 2,
 * 4, ... leaves combine, lower + higher. */
static double tree_sum(const double *v, int p)
{
    int pof2 = 1;
    while (pof2 * 2 <= p)
        pof2 *= 2;
    int rem = p - pof2;
    double leaf[MAX_RANKS];
    for (int j = 0; j < pof2; j++)
        leaf[j] = j < rem ? v[2 * j] + v[2 * j + 1] : v[j + rem];
    for (int width = 1; width < pof2; width *= 2)
        for (int j = 0; j < pof2; j += 2 * width)
            leaf[j] = leaf[j] + leaf[j + width];
    return leaf[0];
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    MT_ASSERT(mt_size <= MAX_RANKS, "at most %d ranks", MAX_RANKS);
    static double mine[MAX_COUNT], sum[MAX_COUNT], all[MAX_RANKS * MAX_COUNT];
    int counts[] = {1, 2, 3, 7, 16, 17, MAX_COUNT}; /* 16 doubles fill a 128-byte cell */
    for (unsigned c = 0; c < sizeof counts / sizeof *counts; c++) {
        int count = counts[c];
        for (int i = 0; i < count; i++)
            mine[i] = value(mt_rank, count, i);
        MT_MPI(MPI_Allreduce(mine, sum, count, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD));
        MT_MPI(MPI_Allgather(mine, count, MPI_DOUBLE, all, count, MPI_DOUBLE, MPI_COMM_WORLD));
        int wrong = 0;
        for (int i = 0; i < count; i++) {
            double column[MAX_RANKS];
            for (int r = 0; r < mt_size; r++)
                column[r] = all[r * count + i];
            double expected = tree_sum(column, mt_size);
            if (memcmp(&expected, &sum[i], sizeof expected) != 0 && wrong++ == 0)
                MT_CHECK(0, "count %d element %d: %.17g, recursive doubling's tree gives %.17g",
                         count, i, sum[i], expected);
        }
    }
    return mt_finish();
}
