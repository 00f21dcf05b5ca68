/* reduce_scatter_order.c - small MPI_Reduce_scatter_block and MPI_Reduce_scatter (uneven
 * counts, sometimes in place) of doubles with MPI_SUM, back to back with small allgathers on
 * the same communicator, 300 rounds (some with an empty block whose rank passes no buffer).
 * On 2^k ranks the result must be bitwise recursive
 * halving's (highest partner bit first: at 4 ranks block b is (v[b^2] + v[b^2^1]) + (v[b] +
 * v[b^1]) in the pairing the exchanges give) whichever path runs: an oversubscribed job passes
 * vectors that fit a cell (128 B-8 KiB by the rank count; every fifth round's blocks of 40-160
 * doubles cross it) through the barrier slot's cells (src/coll/shm_reduce_scatter.c)
 * and must add in the same tree as the schedule (reduce_scatter.c); the values mix magnitudes
 * 1 and 1e8 so that another association rounds differently. On other rank counts the
 * integer sums and maxima of a second call are checked exactly. Portable MPI, but the tree is
 * nodempi's choice (MPI allows any for a commutative op). */
#include "mpitest.h"

enum { ROUNDS = 300, MAX_RANKS = 64, MAX_BLOCK = 162 }; /* elements per rank, v form too */

static double value(int rank, int round, int i)
{
    double unit = (double)(mt_mix((uint64_t)round * 1009 + (uint64_t)i, (uint64_t)rank) >> 11) /
                  (double)(1ULL << 53);
    return (unit - 0.5) * (rank % 2 ? 1e8 : 1.0);
}

/* What rank x holds of an element after the rounds of masks size/2 .. m (m = size: its own
 * value): the partner's partial plus its own, as each halving exchange leaves it. */
static double halving(const double *column, int x, int m, int size)
{
    if (m == size)
        return column[x];
    return halving(column, x ^ m, 2 * m, size) + halving(column, x, 2 * m, size);
}

static int is_pof2(int n) { return n > 0 && (n & (n - 1)) == 0; }

static void check_round(int round, int *counts, int *displs)
{
    int large = round % 5 == 4;
    int size = mt_size, rank = mt_rank, block = large ? 40 + round % 121 : 1 + round % 6, total = 0;
    int v_form = round % 2, in_place = round % 3 == 2;
    for (int r = 0; r < size; r++) /* uneven for the v form */
        counts[r] = v_form ? (large ? block : 0) + 1 + (r + round) % 2 : block;
    if (v_form && round % 4 == 1 && size > 1) { /* an empty block: rank 1 passes no buffer */
        counts[0] += counts[1];
        counts[1] = 0;
    }
    for (int r = 0; r < size; r++) {
        displs[r] = total;
        total += counts[r];
    }
    double in[MAX_RANKS * 2 * MAX_BLOCK], out[MAX_RANKS * 2 * MAX_BLOCK]; /* v: empty + 2 */
    for (int i = 0; i < total; i++)
        in[i] = out[i] = value(rank, round, i);
    const void *send = in_place ? MPI_IN_PLACE : (const void *)in;
    double *recv = counts[rank] == 0 && !in_place ? NULL : out;
    if (v_form)
        MT_MPI(MPI_Reduce_scatter(send, recv, counts, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD));
    else
        MT_MPI(MPI_Reduce_scatter_block(send, out, block, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD));
    if (is_pof2(size)) {
        for (int k = 0; k < counts[rank]; k++) {
            double column[MAX_RANKS];
            for (int r = 0; r < size; r++)
                column[r] = value(r, round, displs[rank] + k);
            double want = halving(column, rank, 1, size);
            if (memcmp(&want, &out[k], sizeof want) != 0) {
                MT_CHECK(0, "round %d (%s%s) element %d: %.17g, recursive halving gives %.17g",
                         round, v_form ? "reduce_scatter" : "reduce_scatter_block",
                         in_place ? ", in place" : "", k, out[k], want);
                break;
            }
        }
    }
    /* exact integers: sums and maxima, every rank count */
    int ints[MAX_RANKS * 2 * MAX_BLOCK], got[2 * MAX_BLOCK];
    for (int i = 0; i < total; i++)
        ints[i] = (int)(mt_mix((uint64_t)round * 31 + (uint64_t)i, (uint64_t)rank) % 1000);
    MPI_Op op = round % 4 < 2 ? MPI_SUM : MPI_MAX;
    MT_MPI(MPI_Reduce_scatter(ints, got, counts, MPI_INT, op, MPI_COMM_WORLD));
    for (int k = 0; k < counts[rank]; k++) {
        int want = op == MPI_SUM ? 0 : -1;
        for (int r = 0; r < size; r++) {
            int x = (int)(mt_mix((uint64_t)round * 31 + (uint64_t)(displs[rank] + k), (uint64_t)r) %
                          1000);
            want = op == MPI_SUM ? want + x : (x > want ? x : want);
        }
        if (got[k] != want) {
            MT_CHECK(0, "round %d integer %s element %d: %d, want %d", round,
                     op == MPI_SUM ? "sum" : "max", k, got[k], want);
            break;
        }
    }
    /* an allgather right after, through the same slot's cells when oversubscribed */
    int mine = rank * 1000 + round, all[MAX_RANKS];
    MT_MPI(MPI_Allgather(&mine, 1, MPI_INT, all, 1, MPI_INT, MPI_COMM_WORLD));
    for (int r = 0; r < size; r++)
        if (all[r] != r * 1000 + round) {
            MT_CHECK(0, "round %d allgather block %d: %d", round, r, all[r]);
            break;
        }
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    MT_ASSERT(mt_size <= MAX_RANKS, "at most %d ranks", MAX_RANKS);
    int counts[MAX_RANKS], displs[MAX_RANKS];
    for (int round = 0; round < ROUNDS && !mt_errors; round++)
        check_round(round, counts, displs);
    return mt_finish();
}
