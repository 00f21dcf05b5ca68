/* dims.c - MPI_Dims_create for many (nnodes, ndims) with and without fixed entries: the
 * product is right, fixed entries are kept, free entries are non-increasing and as balanced as
 * possible (smallest max - min over all factorisations, computed here exhaustively), among
 * equally balanced ones MPICH's choice (the largest smallest factor, then the largest
 * second-smallest, ...: checked exhaustively here and on cases from MPICH's topo/dims5), and
 * incompatible or negative inputs give MPI_ERR_DIMS. Local: every rank does the same. */
#include "mpitest.h"

/* Smallest max - min of k non-increasing factors of m (exhaustive). */
static int best_spread(int m, int k, int max, int first, int depth)
{
    if (depth == k - 1)
        return m <= max ? (depth ? first : m) - m : -1;
    int best = -1;
    for (int f = max; f >= 1; f--) {
        if (m % f)
            continue;
        int s = best_spread(m / f, k, f, depth ? first : f, depth + 1);
        if (s >= 0 && (best < 0 || s < best))
            best = s;
    }
    return best;
}

/* The expected free entries: over all non-increasing factorisations of m into k factors, the
 * smallest max - min, then the lexicographically largest read from the smallest factor up. */
static void best_dims(int m, int k, int max, int depth, int *current, int *best, int *found)
{
    if (depth == k - 1) {
        if (m > max)
            return;
        current[depth] = m;
        int better = !*found;
        if (*found) {
            int spread = current[0] - m, best_spread = best[0] - best[k - 1];
            better = spread < best_spread;
            for (int i = k - 1; spread == best_spread && i >= 0; i--)
                if (current[i] != best[i]) {
                    better = current[i] > best[i];
                    break;
                }
        }
        if (better)
            memcpy(best, current, sizeof(int) * (size_t)k);
        *found = 1;
        return;
    }
    for (int f = max; f >= 1; f--)
        if (m % f == 0) {
            current[depth] = f;
            best_dims(m / f, k, f, depth + 1, current, best, found);
        }
}

/* Cases where equally balanced choices exist, with MPICH's answer (from its topo/dims5). */
static void test_mpich_choices(void)
{
    static const struct {
        int nnodes, ndims, dims[5];
    } cases[] = {
        {5040, 3, {21, 16, 15}},         {807840, 3, {102, 90, 88}},
        {80640, 4, {21, 16, 16, 15}},    {711900, 4, {113, 21, 20, 15}},
        {722304, 4, {38, 33, 24, 24}},   {125580, 4, {23, 21, 20, 13}},
        {218736, 5, {31, 14, 9, 8, 7}},  {170352, 5, {14, 13, 13, 9, 8}},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        int dims[5] = {0, 0, 0, 0, 0};
        MT_MPI(MPI_Dims_create(cases[c].nnodes, cases[c].ndims, dims));
        for (int d = 0; d < cases[c].ndims; d++)
            MT_CHECK(dims[d] == cases[c].dims[d], "%d in %d: entry %d is %d, MPICH gives %d",
                     cases[c].nnodes, cases[c].ndims, d, dims[d], cases[c].dims[d]);
    }
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    int checked = 0;
    for (int nnodes = 1; nnodes <= 128; nnodes++) {
        for (int ndims = 1; ndims <= 4; ndims++) {
            for (int fixed = -1; fixed < ndims; fixed++) {
                int dims[4] = {0, 0, 0, 0}, fixed_value = 0;
                if (fixed >= 0 && ndims == 1)
                    continue; /* nothing free: covered by the all-fixed cases below */
                if (fixed >= 0) { /* fix one entry to the smallest divisor > 1, if any */
                    for (int f = 2; f <= nnodes && !fixed_value; f++)
                        if (nnodes % f == 0)
                            fixed_value = f;
                    if (!fixed_value)
                        continue;
                    dims[fixed] = fixed_value;
                }
                if (MT_MPI(MPI_Dims_create(nnodes, ndims, dims)) != MPI_SUCCESS) {
                    MT_CHECK(0, "(%d,%d,fixed %d) failed", nnodes, ndims, fixed);
                    continue;
                }
                long long product = 1;
                int prev = -1, lo = 1 << 30, hi = 0, nfree = 0;
                for (int d = 0; d < ndims; d++) {
                    product *= dims[d];
                    if (d == fixed) {
                        MT_CHECK_INT(fixed_value, dims[d], "fixed entry kept");
                        continue;
                    }
                    if (prev >= 0)
                        MT_CHECK(dims[d] <= prev, "(%d,%d) free entries not non-increasing",
                                 nnodes, ndims);
                    prev = dims[d];
                    lo = dims[d] < lo ? dims[d] : lo;
                    hi = dims[d] > hi ? dims[d] : hi;
                    nfree++;
                }
                MT_CHECK(product == nnodes, "(%d,%d,fixed %d) product %lld", nnodes, ndims, fixed,
                         product);
#ifndef OPEN_MPI /* Open MPI's greedy split is not always balanced: 72 in 2 gives 12 x 6 */
                if (nfree > 0) {
                    int m = fixed >= 0 ? nnodes / fixed_value : nnodes;
                    int best = best_spread(m, nfree, m, 0, 0);
                    MT_CHECK(hi - lo == best, "(%d,%d,fixed %d): spread %d, best %d", nnodes,
                             ndims, fixed, hi - lo, best);
                    int current[4], expect[4], found = 0;
                    best_dims(m, nfree, m, 0, current, expect, &found);
                    for (int d = 0, j = 0; d < ndims; d++)
                        if (d != fixed && dims[d] != expect[j++])
                            MT_CHECK(0, "(%d,%d,fixed %d): entry %d is %d, expected %d", nnodes,
                                     ndims, fixed, d, dims[d], expect[j - 1]);
                }
#endif
                checked++;
            }
        }
    }
    MT_CHECK(checked > 1000, "only %d cases", checked);
#ifndef OPEN_MPI
    test_mpich_choices();
#endif
    int all_fixed[2] = {3, 4};
    MT_MPI(MPI_Dims_create(12, 2, all_fixed));
    MT_CHECK(all_fixed[0] == 3 && all_fixed[1] == 4, "all entries fixed");
    int bad[2] = {5, 0};
    MT_CHECK_ERRCLASS(MPI_Dims_create(12, 2, bad), MPI_ERR_DIMS,
                      "12 nodes with a fixed 5");
    int wrong[2] = {3, 5};
    MT_CHECK_ERRCLASS(MPI_Dims_create(12, 2, wrong), MPI_ERR_DIMS, "all fixed, wrong product");
    int negative[2] = {-2, 0};
    MT_CHECK_ERRCLASS(MPI_Dims_create(12, 2, negative), MPI_ERR_DIMS, "negative entry");
    int one[1] = {0};
    MT_CHECK_ERRCLASS(MPI_Dims_create(12, -1, one), MPI_ERR_DIMS, "negative ndims");
    return mt_finish();
}
