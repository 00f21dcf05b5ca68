/* atomics.c - counters under contention from all ranks at once, on Win_create, Win_allocate
 * and Win_allocate_shared windows; every final count must be exact:
 *   - MPI_Fetch_and_op(SUM, 1) on a long long counter at rank 0 inside lock_all: the fetched
 *     values over all ranks must be exactly 0 .. p*ITER-1 (each seen once);
 *   - a compare-and-swap loop (read with Fetch_and_op NO_OP, then MPI_Compare_and_swap) on an
 *     int counter at the last rank;
 *   - get / flush / put increments of a plain counter at rank 0, serialized only by
 *     MPI_Win_lock(MPI_LOCK_EXCLUSIVE) (tests mutual exclusion of the lock itself);
 *   - Fetch_and_op MAX and REPLACE (the final MAX is the largest value offered). */
#include "mpitest.h"

enum { ITER = 100, LOCK_ITER = 25 };

struct layout {           /* the window: three counters and a scratch word */
    long long fop;
    int cas;
    int pad;
    long long locked;
    long long max;
    long long token;
};

static int cmp_ll(const void *a, const void *b)
{
    long long x = *(const long long *)a, y = *(const long long *)b;
    return (x > y) - (x < y);
}

static void run(int flavor)
{
    const char *fname = flavor == 0 ? "create" : flavor == 1 ? "allocate" : "allocate_shared";
    MPI_Win win;
    struct layout *base = NULL, *owned = NULL;
    MPI_Aint bytes = sizeof(struct layout);
    if (flavor == 0) {
        owned = base = mt_malloc(sizeof(*base));
        MT_MPI(MPI_Win_create(base, bytes, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    } else if (flavor == 1) {
        MT_MPI(MPI_Win_allocate(bytes, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win));
    } else {
        MT_MPI(MPI_Win_allocate_shared(bytes, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win));
    }
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, mt_rank, 0, win);
    memset(base, 0, sizeof(*base));
    base->max = -1;
    base->token = -1;
    MPI_Win_unlock(mt_rank, win);
    MPI_Barrier(MPI_COMM_WORLD);

    int last = mt_size - 1;
    MPI_Aint fop_at = offsetof(struct layout, fop), cas_at = offsetof(struct layout, cas);
    MPI_Aint locked_at = offsetof(struct layout, locked), max_at = offsetof(struct layout, max);
    long long *fetched = mt_malloc(ITER * sizeof(long long));
    MT_MPI(MPI_Win_lock_all(0, win));
    for (int i = 0; i < ITER; i++) {
        long long one = 1;
        MT_MPI(MPI_Fetch_and_op(&one, &fetched[i], MPI_LONG_LONG, 0, fop_at, MPI_SUM, win));
        MT_MPI(MPI_Win_flush(0, win));
        for (;;) {
            int seen, next, got, dummy = 0;
            MT_MPI(MPI_Fetch_and_op(&dummy, &seen, MPI_INT, last, cas_at, MPI_NO_OP, win));
            MT_MPI(MPI_Win_flush(last, win));
            next = seen + 1;
            MT_MPI(MPI_Compare_and_swap(&next, &seen, &got, MPI_INT, last, cas_at, win));
            MT_MPI(MPI_Win_flush(last, win));
            if (got == seen)
                break;
        }
        long long offer = (long long)mt_rank * ITER + i, old;
        MT_MPI(MPI_Fetch_and_op(&offer, &old, MPI_LONG_LONG, last, max_at, MPI_MAX, win));
        MT_MPI(MPI_Win_flush(last, win));
        MT_CHECK(old < (long long)mt_size * ITER, "%s: MAX fetched %lld", fname, old);
    }
    MT_MPI(MPI_Win_unlock_all(win));

    for (int i = 0; i < LOCK_ITER; i++) {
        long long value = -1;
        MT_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win));
        MT_MPI(MPI_Get(&value, 1, MPI_LONG_LONG, 0, locked_at, 1, MPI_LONG_LONG, win));
        MT_MPI(MPI_Win_flush(0, win));
        value++;
        MT_MPI(MPI_Put(&value, 1, MPI_LONG_LONG, 0, locked_at, 1, MPI_LONG_LONG, win));
        MT_MPI(MPI_Win_unlock(0, win));
    }
    MPI_Barrier(MPI_COMM_WORLD);

    /* every fetched value once: gather them at rank 0 and sort */
    long long *all = mt_rank == 0 ? mt_malloc((size_t)mt_size * ITER * sizeof(long long)) : NULL;
    MPI_Gather(fetched, ITER, MPI_LONG_LONG, all, ITER, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
    if (mt_rank == 0) {
        qsort(all, (size_t)mt_size * ITER, sizeof(long long), cmp_ll);
        for (long long k = 0; k < (long long)mt_size * ITER; k++)
            if (all[k] != k) {
                MT_CHECK(0, "%s: fetch_and_op values: position %lld holds %lld", fname, k,
                         all[k]);
                break;
            }
        free(all);
    }
    MPI_Win_lock(MPI_LOCK_SHARED, mt_rank, 0, win);
    if (mt_rank == 0) {
        MT_CHECK_INT((long long)mt_size * ITER, base->fop, "fetch_and_op counter");
        MT_CHECK_INT((long long)mt_size * LOCK_ITER, base->locked, "exclusive-lock counter");
    }
    if (mt_rank == last) {
        MT_CHECK_INT(mt_size * ITER, base->cas, "compare_and_swap counter");
        MT_CHECK_INT((long long)mt_size * ITER - 1, base->max, "MAX");
    }
    MPI_Win_unlock(mt_rank, win);
    MPI_Barrier(MPI_COMM_WORLD);

    /* REPLACE through Fetch_and_op: a token passed around; each rank sees someone's value */
    MT_MPI(MPI_Win_fence(0, win));
    long long token = 1000 + mt_rank, previous = -5;
    MPI_Aint token_at = offsetof(struct layout, token);
    MT_MPI(MPI_Fetch_and_op(&token, &previous, MPI_LONG_LONG, 0, token_at, MPI_REPLACE, win));
    MT_MPI(MPI_Win_fence(0, win));
    /* rank 0's token slot holds its initial -1: exactly one rank fetches it, the others
     * fetch tokens, and the slot ends with the token nobody fetched */
    MT_CHECK(previous == -1 || (previous >= 1000 && previous < 1000 + mt_size),
             "%s: REPLACE fetched %lld", fname, previous);
    int initial_seen = previous == -1, seen_total = 0;
    long long token_sum = previous == -1 ? 0 : previous, fetched_sum = 0;
    MPI_Allreduce(&initial_seen, &seen_total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(&token_sum, &fetched_sum, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    MT_CHECK_INT(1, seen_total, "ranks that fetched the initial value with REPLACE");
    if (mt_rank == 0) {
        long long all_tokens = 1000LL * mt_size + (long long)mt_size * (mt_size - 1) / 2;
        MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
        MT_CHECK_INT(all_tokens - fetched_sum, base->token, "token left by REPLACE");
        MPI_Win_unlock(0, win);
    }
    MT_MPI(MPI_Win_free(&win));
    free(fetched);
    free(owned);
}

/* Whole-array accumulates and single-element fetch-and-ops on the same elements at once
 * (implementations may update them by different means: they must still be atomic with
 * respect to each other). Even ranks add 1 to all M elements of rank 0 with one
 * MPI_Accumulate, odd ranks add 1 to each element with MPI_Fetch_and_op. */
static void mixed(int flavor)
{
    enum { M = 64, ROUNDS = 100 };
    MPI_Win win;
    int *base = NULL, *owned = NULL;
    if (flavor == 0) {
        owned = base = mt_malloc(M * sizeof(int));
        MT_MPI(MPI_Win_create(base, M * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD,
                              &win));
    } else {
        MT_MPI(MPI_Win_allocate(M * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD,
                                &base, &win));
    }
    for (int i = 0; i < M; i++)
        base[i] = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    int ones[M], old;
    for (int i = 0; i < M; i++)
        ones[i] = 1;
    MT_MPI(MPI_Win_lock_all(0, win));
    for (int r = 0; r < ROUNDS; r++) {
        if (mt_rank % 2 == 0) {
            MT_MPI(MPI_Accumulate(ones, M, MPI_INT, 0, 0, M, MPI_INT, MPI_SUM, win));
        } else {
            for (int i = 0; i < M; i++)
                MT_MPI(MPI_Fetch_and_op(&ones[i], &old, MPI_INT, 0, i, MPI_SUM, win));
        }
        MT_MPI(MPI_Win_flush(0, win));
    }
    MT_MPI(MPI_Win_unlock_all(win));
    MPI_Barrier(MPI_COMM_WORLD);
    if (mt_rank == 0)
        for (int i = 0; i < M; i++)
            if (base[i] != ROUNDS * mt_size) {
                MT_CHECK(0, "flavor %d: mixed accumulate/fetch_and_op [%d] = %d, expected %d",
                         flavor, i, base[i], ROUNDS * mt_size);
                break;
            }
    MT_MPI(MPI_Win_free(&win));
    free(owned);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    for (int flavor = 0; flavor < 3; flavor++)
        run(flavor);
    for (int flavor = 0; flavor < 2; flavor++)
        mixed(flavor);
    return mt_finish();
}
