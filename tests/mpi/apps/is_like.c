/* is_like.c - a NAS-IS-like integer bucket sort: every rank generates keys with a bell-shaped
 * distribution, local bucket histograms are summed with MPI_Allreduce to balance bucket ranges
 * over the processes, send counts are exchanged with MPI_Alltoall and the keys (as records
 * {key, origin}, a derived MPI_Type_contiguous of two ints) with MPI_Alltoallv, then sorted
 * locally. Each iteration (keys perturbed as in NAS IS) is fully verified: every record is the
 * key its origin generated, local order, order across ranks (MPI_Exscan with MPI_MAX), key
 * count and sum conservation (MPI_Allreduce), and the global rank of sample keys against a
 * serial computation on rank 0. Works on any number of ranks. */
#include <mpi.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int errs, myrank;

static void fail(int line, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    if (errs++ >= 20)
        return;
    int n = snprintf(msg, sizeof msg, "FAIL is_like.c:%d rank %d: ", line, myrank);
    va_start(ap, fmt);
    vsnprintf(msg + n, sizeof msg - (size_t)n, fmt, ap);
    va_end(ap);
    fprintf(stderr, "%s\n", msg);
}
#define CHECK(c, ...) do { if (!(c)) fail(__LINE__, __VA_ARGS__); } while (0)

#define NK 5000       /* keys per rank */
#define MAXKEY 4096   /* keys in [0, MAXKEY) */
#define NBUCKETS 128
#define ITERS 4
#define NSAMPLES 5

struct rec { int key, origin; }; /* origin = rank * NK + index */

static uint64_t mix(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* Key `idx` of rank `r` in iteration `it` (sum of four uniforms, as NAS IS does). */
static int gen_key(int r, int idx, int it)
{
    if (r == 0 && idx == it)
        return it; /* NAS IS: key_array[iteration] = iteration */
    if (r == 0 && idx == it + ITERS)
        return MAXKEY - 1 - it;
    uint64_t h = mix(((uint64_t)r << 40) ^ ((uint64_t)idx << 8) ^ 0x1234567ULL);
    int s = 0;
    for (int k = 0; k < 4; k++)
        s += (int)((h >> (16 * k)) & 0xffff) % (MAXKEY / 4 + 1);
    return s < MAXKEY ? s : MAXKEY - 1;
}

static int one_iteration(int it, int np, MPI_Datatype rectype)
{
    static struct rec send[NK];
    int bucket_of_shift = 0;
    while ((MAXKEY >> bucket_of_shift) > NBUCKETS)
        bucket_of_shift++;

    /* generate, histogram by bucket */
    int lbucket[NBUCKETS] = {0}, gbucket[NBUCKETS];
    long long lsum = 0;
    int keys[NK];
    for (int i = 0; i < NK; i++) {
        keys[i] = gen_key(myrank, i, it);
        lbucket[keys[i] >> bucket_of_shift]++;
        lsum += keys[i];
    }
    MPI_Allreduce(lbucket, gbucket, NBUCKETS, MPI_INT, MPI_SUM, MPI_COMM_WORLD);

    /* assign consecutive buckets to processes, about total/np keys each */
    int owner[NBUCKETS];
    long long total = (long long)NK * np, acc = 0;
    for (int b = 0, p = 0; b < NBUCKETS; b++) {
        owner[b] = p;
        acc += gbucket[b];
        while (p < np - 1 && acc >= total * (p + 1) / np)
            p++;
    }

    /* pack records by destination */
    int *scount = calloc((size_t)np, sizeof(int)), *rcount = malloc(sizeof(int) * (size_t)np);
    int *sdisp = malloc(sizeof(int) * (size_t)np), *rdisp = malloc(sizeof(int) * (size_t)np);
    for (int i = 0; i < NK; i++)
        scount[owner[keys[i] >> bucket_of_shift]]++;
    for (int p = 0, off = 0; p < np; p++) {
        sdisp[p] = off;
        off += scount[p];
    }
    int *fillp = malloc(sizeof(int) * (size_t)np);
    memcpy(fillp, sdisp, sizeof(int) * (size_t)np);
    for (int i = 0; i < NK; i++) {
        int d = owner[keys[i] >> bucket_of_shift];
        send[fillp[d]].key = keys[i];
        send[fillp[d]++].origin = myrank * NK + i;
    }
    MPI_Alltoall(scount, 1, MPI_INT, rcount, 1, MPI_INT, MPI_COMM_WORLD);
    int nrecv = 0;
    for (int p = 0; p < np; p++) {
        rdisp[p] = nrecv;
        nrecv += rcount[p];
    }
    struct rec *recv = malloc(sizeof(struct rec) * (size_t)(nrecv ? nrecv : 1));
    MPI_Alltoallv(send, scount, sdisp, rectype, recv, rcount, rdisp, rectype, MPI_COMM_WORLD);

    /* every record must be what its origin generated, from the rank it came from, for me */
    int bad = 0;
    for (int p = 0; p < np; p++)
        for (int k = rdisp[p]; k < rdisp[p] + rcount[p]; k++) {
            int o = recv[k].origin, r = o / NK;
            if ((o < 0 || r != p || recv[k].key != gen_key(r, o % NK, it) ||
                 owner[recv[k].key >> bucket_of_shift] != myrank) && bad++ < 3)
                fail(__LINE__, "iteration %d: record %d from rank %d is {%d, %d}", it, k, p,
                     recv[k].key, o);
        }

    /* local counting sort of my key range */
    int *cnt = calloc(MAXKEY, sizeof(int)), *sorted = malloc(sizeof(int) * (size_t)(nrecv + 1));
    for (int k = 0; k < nrecv; k++)
        cnt[recv[k].key]++;
    for (int v = 0, pos = 0; v < MAXKEY; v++)
        for (int c = 0; c < cnt[v]; c++)
            sorted[pos++] = v;

    /* full verification */
    long long rsum = 0, sums[2], gsums[2];
    for (int k = 0; k < nrecv; k++) {
        rsum += sorted[k];
        if (k && sorted[k - 1] > sorted[k] && bad++ < 3)
            fail(__LINE__, "iteration %d: local order broken at %d", it, k);
    }
    int mymax = nrecv ? sorted[nrecv - 1] : -1, prevmax = -1;
    MPI_Exscan(&mymax, &prevmax, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (myrank == 0)
        prevmax = -1; /* undefined on rank 0 */
    CHECK(nrecv == 0 || prevmax <= sorted[0], "iteration %d: my smallest key %d is below key %d"
          " of a lower rank", it, nrecv ? sorted[0] : -1, prevmax);
    sums[0] = lsum;
    sums[1] = rsum;
    long long lcount[2] = {NK, nrecv}, gcount[2];
    MPI_Allreduce(sums, gsums, 2, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(lcount, gcount, 2, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    CHECK(gsums[0] == gsums[1] && gcount[0] == gcount[1] && gcount[0] == total,
          "iteration %d: key sum %lld -> %lld, count %lld -> %lld", it, gsums[0], gsums[1],
          gcount[0], gcount[1]);

    /* partial verification: global rank (number of smaller keys) of sample values */
    int samples[NSAMPLES] = {it, 17 + it, MAXKEY / 2, MAXKEY / 2 + 301, MAXKEY - 1 - it};
    long long lless[NSAMPLES], gless[NSAMPLES];
    for (int s = 0; s < NSAMPLES; s++) {
        lless[s] = 0;
        for (int k = 0; k < nrecv && sorted[k] < samples[s]; k++)
            lless[s]++;
    }
    MPI_Reduce(lless, gless, NSAMPLES, MPI_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    if (myrank == 0) {
        for (int s = 0; s < NSAMPLES; s++) {
            long long want = 0;
            for (int r = 0; r < np; r++)
                for (int i = 0; i < NK; i++)
                    want += gen_key(r, i, it) < samples[s];
            CHECK(gless[s] == want, "iteration %d: rank of key %d is %lld, serial %lld", it,
                  samples[s], gless[s], want);
        }
    }
    free(scount);
    free(rcount);
    free(sdisp);
    free(rdisp);
    free(fillp);
    free(recv);
    free(cnt);
    free(sorted);
    return nrecv;
}

int main(int argc, char **argv)
{
    int np;
    MPI_Datatype rectype;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &myrank);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    MPI_Type_contiguous(2, MPI_INT, &rectype);
    MPI_Type_commit(&rectype);
    double t = MPI_Wtime();
    int n = 0;
    for (int it = 0; it < ITERS; it++)
        n = one_iteration(it, np, rectype);
    t = MPI_Wtime() - t;
    int nmin, nmax;
    MPI_Reduce(&n, &nmin, 1, MPI_INT, MPI_MIN, 0, MPI_COMM_WORLD);
    MPI_Reduce(&n, &nmax, 1, MPI_INT, MPI_MAX, 0, MPI_COMM_WORLD);
    MPI_Type_free(&rectype);
    int total = 0;
    MPI_Allreduce(&errs, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (myrank == 0 && total)
        printf("FAILED: %d errors\n", total);
    else if (myrank == 0)
        printf("No errors (%d keys, %d..%d per rank after the exchange, %.3f s)\n", NK * np,
               nmin, nmax, t);
    MPI_Finalize();
    return total != 0;
}
