/* is_like.c - the communication of NAS IS (seed 000 Table 6.1, "IS"): integer sort by buckets.
 * One iteration = rank keys into 1024 buckets, MPI_Allreduce of the bucket sizes, MPI_Alltoall
 * of the per-rank send counts, MPI_Alltoallv of the keys (each rank owns a contiguous range of
 * buckets), then a local count of the received keys. Keys are pseudo-random, so every pair
 * exchanges about total_keys / np^2 keys. Checked: every received key belongs to this rank,
 * and no key is lost. Usage: is_like [iters] [log2 total keys] (NAS class W = 20). */
#include "nas_like.h"

#include <stdint.h>

enum { BUCKETS = 1024, MAX_KEY_LOG2 = 19 };

static uint32_t next_key(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(*s >> 33) & ((1u << MAX_KEY_LOG2) - 1);
}

static int bucket_of(uint32_t key) { return (int)(key >> (MAX_KEY_LOG2 - 10)); }

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int iters = nl_arg(argc, argv, 1, 10);
    int log2_keys = nl_arg(argc, argv, 2, 20);
    long total = 1L << log2_keys;
    int nkeys = (int)(total / size);
    uint32_t *keys = nl_malloc(sizeof(uint32_t) * (size_t)nkeys);
    uint32_t *sorted = nl_malloc(sizeof(uint32_t) * (size_t)nkeys);
    uint32_t *received = nl_malloc(sizeof(uint32_t) * (size_t)(nkeys * 4 + 1024));
    int *bucket_size = nl_malloc(sizeof(int) * BUCKETS);
    int *bucket_total = nl_malloc(sizeof(int) * BUCKETS);
    int *bucket_ptr = nl_malloc(sizeof(int) * BUCKETS);
    size_t per_rank = sizeof(int) * (size_t)size;
    int *scount = nl_malloc(per_rank), *rcount = nl_malloc(per_rank);
    int *sdispl = nl_malloc(per_rank), *rdispl = nl_malloc(per_rank);
    long errors = 0;
    double seconds = 0;
    for (int it = -2; it < iters; it++) { /* two warm-up iterations */
        if (it == 0) {
            MPI_Barrier(MPI_COMM_WORLD);
            seconds = MPI_Wtime();
        }
        uint64_t s = 0x5eed + (uint64_t)rank * 7919 + (uint64_t)(it + 2) * 104729;
        memset(bucket_size, 0, sizeof(int) * BUCKETS);
        for (int k = 0; k < nkeys; k++) {
            keys[k] = next_key(&s);
            bucket_size[bucket_of(keys[k])]++;
        }
        bucket_ptr[0] = 0;
        for (int b = 1; b < BUCKETS; b++)
            bucket_ptr[b] = bucket_ptr[b - 1] + bucket_size[b - 1];
        for (int k = 0; k < nkeys; k++)
            sorted[bucket_ptr[bucket_of(keys[k])]++] = keys[k];
        MPI_Allreduce(bucket_size, bucket_total, BUCKETS, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        /* rank r owns buckets [r * BUCKETS / size, (r + 1) * BUCKETS / size) */
        memset(scount, 0, sizeof(int) * (size_t)size);
        for (int b = 0; b < BUCKETS; b++)
            scount[(long)b * size / BUCKETS] += bucket_size[b];
        sdispl[0] = 0;
        for (int r = 1; r < size; r++)
            sdispl[r] = sdispl[r - 1] + scount[r - 1];
        MPI_Alltoall(scount, 1, MPI_INT, rcount, 1, MPI_INT, MPI_COMM_WORLD);
        rdispl[0] = 0;
        for (int r = 1; r < size; r++)
            rdispl[r] = rdispl[r - 1] + rcount[r - 1];
        int nrecv = rdispl[size - 1] + rcount[size - 1];
        if (nrecv > nkeys * 4 + 1024) {
            fprintf(stderr, "is_like: rank %d would receive %d keys\n", rank, nrecv);
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
        MPI_Alltoallv(sorted, scount, sdispl, MPI_UINT32_T, received, rcount, rdispl,
                      MPI_UINT32_T, MPI_COMM_WORLD);
        /* local ranking of what arrived, and the check */
        int expected = 0;
        for (int b = 0; b < BUCKETS; b++)
            if ((long)b * size / BUCKETS == rank)
                expected += bucket_total[b];
        errors += nrecv != expected;
        for (int k = 0; k < nrecv; k++)
            errors += (long)bucket_of(received[k]) * size / BUCKETS != rank;
    }
    seconds = MPI_Wtime() - seconds;
    int rc = nl_report("is", iters, seconds, errors);
    free(keys);
    free(sorted);
    free(received);
    free(bucket_size);
    free(bucket_total);
    free(bucket_ptr);
    free(scount);
    free(rcount);
    free(sdispl);
    free(rdispl);
    MPI_Finalize();
    return rc;
}
