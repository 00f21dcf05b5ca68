/* mcpi.c - the textbook Monte-Carlo estimate of pi: rank 0 reads the parameters (command line or
 * defaults) and broadcasts them, each rank draws its share of a single global random sequence (a
 * counter-based generator; the share sizes differ per rank and their offsets come from MPI_Exscan,
 * checked with MPI_Scan), hits are summed with MPI_Reduce (also with MPI_IN_PLACE at the root),
 * rank 0 decides whether to go on and broadcasts the decision. Because the sequence is global the
 * hit count must equal a serial count on rank 0 exactly, whatever the number of ranks. Also
 * MPI_MAXLOC/MPI_MINLOC on MPI_DOUBLE_INT, MPI_Wtime/MPI_Wtick sanity. Usage: mcpi
 * [samples-per-round [seed]]. */
#include <mpi.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static int errs, myrank;

static void fail(int line, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    if (errs++ >= 20)
        return;
    int n = snprintf(msg, sizeof msg, "FAIL mcpi.c:%d rank %d: ", line, myrank);
    va_start(ap, fmt);
    vsnprintf(msg + n, sizeof msg - (size_t)n, fmt, ap);
    va_end(ap);
    fprintf(stderr, "%s\n", msg);
}
#define CHECK(c, ...) do { if (!(c)) fail(__LINE__, __VA_ARGS__); } while (0)

#define MAX_ROUNDS 4

/* Uniform double in [0, 1) for position k of the stream `seed`. */
static double uniform(uint64_t seed, uint64_t k)
{
    uint64_t z = seed * 0x9E3779B97F4A7C15ULL + k;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    z ^= z >> 31;
    return (double)(z >> 11) * (1.0 / 9007199254740992.0);
}

static long long count_hits(uint64_t seed, long long first, long long n)
{
    long long hits = 0;
    for (long long i = first; i < first + n; i++) {
        double x = uniform(seed, 2 * (uint64_t)i), y = uniform(seed, 2 * (uint64_t)i + 1);
        hits += x * x + y * y < 1.0;
    }
    return hits;
}

int main(int argc, char **argv)
{
    int np;
    long long params[3] = {300000, 12345, 0}; /* samples per round, seed, unused */
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &myrank);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    if (myrank == 0) {
        if (argc > 1)
            params[0] = atoll(argv[1]);
        if (argc > 2)
            params[1] = atoll(argv[2]);
        params[2] = -1;
    }
    MPI_Bcast(params, 3, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
    CHECK(params[2] == -1, "broadcast parameters not received (%lld)", params[2]);
    const long long total = params[0];
    const uint64_t seed = (uint64_t)params[1];

    /* uneven shares: rank r gets a weight r+1 */
    long long wsum = (long long)np * (np + 1) / 2, mine = total * (myrank + 1) / wsum;
    long long assigned;
    MPI_Allreduce(&mine, &assigned, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    if (myrank == np - 1)
        mine += total - assigned;
    long long start = 0, end = 0;
    MPI_Exscan(&mine, &start, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    if (myrank == 0)
        start = 0; /* MPI_Exscan leaves rank 0's buffer undefined */
    MPI_Scan(&mine, &end, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    CHECK(end - start == mine, "Scan %lld - Exscan %lld != my share %lld", end, start, mine);
    if (myrank == np - 1)
        CHECK(end == total, "inclusive scan on the last rank is %lld, expected %lld", end, total);

    /* who has the largest/smallest share: known in advance */
    struct { double v; int r; } in = {(double)mine, myrank}, mx, mn;
    MPI_Allreduce(&in, &mx, 1, MPI_DOUBLE_INT, MPI_MAXLOC, MPI_COMM_WORLD);
    MPI_Allreduce(&in, &mn, 1, MPI_DOUBLE_INT, MPI_MINLOC, MPI_COMM_WORLD);
    CHECK(mx.r == np - 1 && mn.r == 0, "MAXLOC at rank %d (value %.0f), MINLOC at rank %d (value"
          " %.0f)", mx.r, mx.v, mn.r, mn.v);

    double tick = MPI_Wtick(), t0 = MPI_Wtime();
    CHECK(tick > 0.0 && tick < 1.0, "MPI_Wtick() = %g", tick);
    long long cumulative = 0, all_hits = 0;
    int round = 0, go_on = 1;
    double pi = 0.0;
    while (go_on) {
        long long hits = count_hits(seed, (long long)round * total + start, mine), sum = hits;
        if (round % 2) /* the in-place form at the root, as many codes write it */
            MPI_Reduce(myrank == 0 ? MPI_IN_PLACE : &hits, &sum, 1, MPI_LONG_LONG, MPI_SUM, 0,
                       MPI_COMM_WORLD);
        else
            MPI_Reduce(&hits, &sum, 1, MPI_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
        round++;
        if (myrank == 0) {
            all_hits += sum;
            cumulative += total;
            pi = 4.0 * (double)all_hits / (double)cumulative;
            long long want = count_hits(seed, (long long)(round - 1) * total, total);
            CHECK(sum == want, "round %d: %lld hits reduced, serial count %lld", round, sum,
                  want);
            go_on = round < MAX_ROUNDS && fabs(pi - 3.14159265358979) > 1e-4;
        }
        MPI_Bcast(&go_on, 1, MPI_INT, 0, MPI_COMM_WORLD);
    }
    MPI_Bcast(&pi, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    double t1 = MPI_Wtime();
    CHECK(t1 >= t0, "MPI_Wtime went backwards: %f -> %f", t0, t1);
    CHECK(fabs(pi - 3.14159265358979) < 8.0 / sqrt((double)total * round),
          "pi estimate %.6f after %d rounds is too far off", pi, round);
    if (myrank == 0)
        printf("pi ~ %.6f after %d rounds of %lld samples (%.3f s)\n", pi, round, total, t1 - t0);

    int tot = 0;
    MPI_Allreduce(&errs, &tot, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (myrank == 0 && tot)
        printf("FAILED: %d errors\n", tot);
    else if (myrank == 0)
        printf("No errors\n");
    MPI_Finalize();
    return tot != 0;
}
