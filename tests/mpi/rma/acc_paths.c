/* acc_paths.c - the accumulate fast path (one predefined contiguous type on both sides) and
 * its two update paths, element atomics and the bulk update under the target's mutex, hit
 * the same memory from all ranks at once; every final value must be exact:
 *   - ints at rank 0: 1-element and 4-element SUMs (atomic path), 8- and 64-element SUMs
 *     (bulk path) and Fetch_and_op on overlapping elements, inside lock_all;
 *   - floats (integer values, so sums are exact): 1 float (atomic) and 4, 16 floats (bulk);
 *   - Get_accumulate (+1) on 2 ints (atomic) and 8 ints (bulk): the fetched old values of
 *     element 0 over all ranks are exactly 0 .. total-1;
 *   - every origin alternates exclusive and shared lock epochs on the last rank (exclusive:
 *     the direct path without flag or mutex; shared: atomic and bulk paths), adding to the
 *     same 4 and 16 ints and to a Fetch_and_op counter, and swapping a Compare_and_swap
 *     counter forward; sums exact, fetched values each seen once; REPLACE and NO_OP;
 *   - accumulates in fence and post/start epochs;
 *   - calls the fast path must hand back to the checked path: a derived origin type, an
 *     out-of-range displacement (MPI_ERR_RMA_RANGE), no epoch (MPI_ERR_RMA_SYNC), SUM on
 *     MPI_BYTE (MPI_ERR_OP). */
#include "mpitest.h"

#include <stddef.h>
#include <stdlib.h>

enum { ITER = 200, NI = 64, NF = 16, TURNS = 40 };

struct layout {
    int ints[NI];
    float floats[NF];
    int fetch_small[2];
    int fetch_bulk[8];
    int turns[4];
    int turns_bulk[16];
    long counter;
    long cas;
};

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* The fetched old values of one counter (n per rank), gathered at rank 0, must be each of
 * 0 .. p*n-1 once. */
static void check_fetched_n(int *olds, int n, const char *what)
{
    int total = mt_size * n;
    int *all = mt_rank == 0 ? mt_malloc(sizeof(int) * (size_t)total) : NULL;
    MT_MPI(MPI_Gather(olds, n, MPI_INT, all, n, MPI_INT, 0, MPI_COMM_WORLD));
    if (mt_rank == 0) {
        qsort(all, (size_t)total, sizeof(int), cmp_int);
        for (int i = 0; i < total; i++)
            if (all[i] != i) {
                MT_CHECK(0, "%s: fetched value %d is %d (each of 0..%d once)", what, i, all[i],
                         total - 1);
                break;
            }
        free(all);
    }
}

static void check_fetched(int *olds, const char *what)
{
    check_fetched_n(olds, ITER, what);
}

static void concurrent(MPI_Win win, struct layout *base)
{
    int ones[NI];
    float fones[NF];
    for (int i = 0; i < NI; i++)
        ones[i] = 1;
    for (int i = 0; i < NF; i++)
        fones[i] = 1.0f;
    int old_small[ITER], old_bulk[ITER], pair[2], eight[8], fetched;
    MT_MPI(MPI_Win_lock_all(0, win));
    for (int i = 0; i < ITER; i++) {
        /* element 0 gets 1 + 1 + 1 + 1 + 1 per iteration, from both paths */
        MT_MPI(MPI_Accumulate(ones, 1, MPI_INT, 0, 0, 1, MPI_INT, MPI_SUM, win));
        MT_MPI(MPI_Accumulate(ones, 4, MPI_INT, 0, 0, 4, MPI_INT, MPI_SUM, win));
        MT_MPI(MPI_Accumulate(ones, 8, MPI_INT, 0, 0, 8, MPI_INT, MPI_SUM, win));
        MT_MPI(MPI_Accumulate(ones, NI, MPI_INT, 0, 0, NI, MPI_INT, MPI_SUM, win));
        MT_MPI(MPI_Fetch_and_op(&ones[0], &fetched, MPI_INT, 0, 0, MPI_SUM, win));
        MT_MPI(MPI_Accumulate(fones, 1, MPI_FLOAT, 0, offsetof(struct layout, floats), 1,
                              MPI_FLOAT, MPI_SUM, win));
        MT_MPI(MPI_Accumulate(fones, 4, MPI_FLOAT, 0, offsetof(struct layout, floats), 4,
                              MPI_FLOAT, MPI_SUM, win));
        MT_MPI(MPI_Accumulate(fones, NF, MPI_FLOAT, 0, offsetof(struct layout, floats), NF,
                              MPI_FLOAT, MPI_SUM, win));
        MT_MPI(MPI_Get_accumulate(ones, 2, MPI_INT, pair, 2, MPI_INT, 0,
                                  offsetof(struct layout, fetch_small), 2, MPI_INT, MPI_SUM,
                                  win));
        old_small[i] = pair[0];
        MT_MPI(MPI_Get_accumulate(ones, 8, MPI_INT, eight, 8, MPI_INT, 0,
                                  offsetof(struct layout, fetch_bulk), 8, MPI_INT, MPI_SUM,
                                  win));
        old_bulk[i] = eight[0];
        MT_CHECK(eight[7] == eight[0], "8-int get_accumulate saw a torn update: %d vs %d",
                 eight[0], eight[7]);
        MT_MPI(MPI_Win_flush(0, win));
    }
    MT_MPI(MPI_Win_unlock_all(win));
    MT_MPI(MPI_Barrier(MPI_COMM_WORLD));
    check_fetched(old_small, "get_accumulate 2 ints");
    check_fetched(old_bulk, "get_accumulate 8 ints");
    if (mt_rank == 0) {
        MT_MPI(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win));
        int n = mt_size * ITER;
        MT_CHECK_INT(5 * n, base->ints[0], "ints[0] (5 updates per iteration)");
        MT_CHECK_INT(3 * n, base->ints[3], "ints[3]");
        MT_CHECK_INT(2 * n, base->ints[7], "ints[7]");
        MT_CHECK_INT(n, base->ints[NI - 1], "ints[NI-1]");
        MT_CHECK_INT(3 * n, (long long)base->floats[0], "floats[0]");
        MT_CHECK_INT(2 * n, (long long)base->floats[3], "floats[3]");
        MT_CHECK_INT(n, (long long)base->floats[NF - 1], "floats[NF-1]");
        MT_CHECK_INT(n, base->fetch_small[1], "fetch_small[1]");
        MT_CHECK_INT(n, base->fetch_bulk[7], "fetch_bulk[7]");
        MT_MPI(MPI_Win_unlock(0, win));
    }
}

/* Every origin alternates exclusive and shared lock epochs on the last rank and adds its
 * rank + 1 to 4 ints (atomic path when shared) and 16 ints (bulk path when shared), 1 to a
 * Fetch_and_op counter, and moves a Compare_and_swap counter forward by one. */
static void lock_turns(MPI_Win win, struct layout *base)
{
    int target = mt_size - 1, mine = mt_rank + 1, got[16], olds[TURNS], swaps[TURNS];
    int disp = (int)offsetof(struct layout, turns);
    int disp_bulk = (int)offsetof(struct layout, turns_bulk);
    int add[16];
    long one = 1, old = 0;
    for (int i = 0; i < 16; i++)
        add[i] = mine;
    for (int t = 0; t < TURNS; t++) {
        int type = (t + mt_rank) % 2 ? MPI_LOCK_EXCLUSIVE : MPI_LOCK_SHARED;
        MT_MPI(MPI_Win_lock(type, target, 0, win));
        MT_MPI(MPI_Accumulate(add, 4, MPI_INT, target, disp, 4, MPI_INT, MPI_SUM, win));
        MT_MPI(MPI_Accumulate(add, 16, MPI_INT, target, disp_bulk, 16, MPI_INT, MPI_SUM, win));
        MT_MPI(MPI_Fetch_and_op(&one, &old, MPI_LONG, target, offsetof(struct layout, counter),
                                MPI_SUM, win));
        olds[t] = (int)old;
        /* move the CAS counter from c to c + 1, retrying when another origin got there first */
        long seen = 0, next;
        MT_MPI(MPI_Fetch_and_op(NULL, &seen, MPI_LONG, target, offsetof(struct layout, cas),
                                MPI_NO_OP, win));
        for (;;) {
            long previous;
            next = seen + 1;
            MT_MPI(MPI_Compare_and_swap(&next, &seen, &previous, MPI_LONG, target,
                                        offsetof(struct layout, cas), win));
            if (previous == seen)
                break;
            seen = previous;
        }
        swaps[t] = (int)seen;
        MT_MPI(MPI_Win_unlock(target, win));
    }
    check_fetched_n(olds, TURNS, "fetch_and_op under alternating locks");
    check_fetched_n(swaps, TURNS, "compare_and_swap under alternating locks");
    MT_MPI(MPI_Barrier(MPI_COMM_WORLD));
    int expected = TURNS * mt_size * (mt_size + 1) / 2;
    MT_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, target, 0, win));
    MT_MPI(MPI_Get_accumulate(NULL, 0, MPI_INT, got, 4, MPI_INT, target, disp, 4, MPI_INT,
                              MPI_NO_OP, win));
    for (int i = 0; i < 4; i++)
        MT_CHECK_INT(expected, got[i], "4 ints under alternating locks");
    MT_MPI(MPI_Get_accumulate(NULL, 0, MPI_INT, got, 16, MPI_INT, target, disp_bulk, 16,
                              MPI_INT, MPI_NO_OP, win));
    for (int i = 0; i < 16; i++)
        MT_CHECK_INT(expected, got[i], "16 ints under alternating locks");
    MT_MPI(MPI_Win_unlock(target, win));
    MT_MPI(MPI_Barrier(MPI_COMM_WORLD));
    if (mt_rank == 0) {
        int seven[4] = {7, 7, 7, 7};
        MT_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, target, 0, win));
        MT_MPI(MPI_Get_accumulate(seven, 4, MPI_INT, got, 4, MPI_INT, target, disp, 4, MPI_INT,
                                  MPI_REPLACE, win));
        MT_MPI(MPI_Win_unlock(target, win));
        MT_CHECK_INT(expected, got[3], "REPLACE returned the old value");
    }
    MT_MPI(MPI_Barrier(MPI_COMM_WORLD));
    if (mt_rank == target) {
        MT_MPI(MPI_Win_lock(MPI_LOCK_SHARED, target, 0, win));
        MT_CHECK_INT(7, base->turns[2], "REPLACE stored");
        MT_CHECK_INT(TURNS * mt_size, base->counter, "fetch_and_op counter");
        MT_CHECK_INT(TURNS * mt_size, base->cas, "compare_and_swap counter");
        MT_MPI(MPI_Win_unlock(target, win));
    }
}

/* Active-target epochs take the fast path too: each rank adds 1 to ints[1] of its right
 * neighbour in a fence epoch, then 1 to ints[2] of it in a post/start epoch. */
static void active_epochs(MPI_Win win, struct layout *base)
{
    int one = 1;
    MT_MPI(MPI_Win_fence(0, win));
    MT_MPI(MPI_Accumulate(&one, 1, MPI_INT, mt_right(), sizeof(int), 1, MPI_INT, MPI_SUM, win));
    MT_MPI(MPI_Win_fence(0, win));
    MPI_Group world, left, right;
    MT_MPI(MPI_Comm_group(MPI_COMM_WORLD, &world));
    int l = mt_left(), r = mt_right();
    MT_MPI(MPI_Group_incl(world, 1, &l, &left));
    MT_MPI(MPI_Group_incl(world, 1, &r, &right));
    int before = base->ints[2];
    MT_MPI(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));
    MT_MPI(MPI_Win_post(left, 0, win));
    MT_MPI(MPI_Win_start(right, 0, win));
    MT_MPI(MPI_Accumulate(&one, 1, MPI_INT, r, 2 * sizeof(int), 1, MPI_INT, MPI_SUM, win));
    MT_MPI(MPI_Win_complete(win));
    MT_MPI(MPI_Win_wait(win));
    MT_CHECK_INT(before + 1, base->ints[2], "post/start accumulate");
    MPI_Group_free(&world);
    MPI_Group_free(&left);
    MPI_Group_free(&right);
}

/* What the fast path declines: the checked path still gets the result or the error right. */
static void declined(MPI_Win win, struct layout *base)
{
    MT_MPI(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
    int three[3] = {3, 3, 3}, one = 1;
    MPI_Datatype three_ints;
    MT_MPI(MPI_Type_contiguous(3, MPI_INT, &three_ints));
    MT_MPI(MPI_Type_commit(&three_ints));
    MT_MPI(MPI_Barrier(MPI_COMM_WORLD));
    int before = mt_rank == 0 ? base->ints[NI - 2] : 0;
    MT_MPI(MPI_Barrier(MPI_COMM_WORLD));
    MT_MPI(MPI_Win_lock_all(0, win));
    MT_MPI(MPI_Accumulate(three, 1, three_ints, 0, (NI - 3) * sizeof(int), 3, MPI_INT,
                          MPI_SUM, win));
    MT_CHECK_ERRCLASS(MPI_Accumulate(&one, 1, MPI_INT, 0, sizeof(struct layout), 1, MPI_INT,
                                     MPI_SUM, win),
                      MPI_ERR_RMA_RANGE, "accumulate beyond the window");
    MT_CHECK_ERRCLASS(MPI_Accumulate(three, 4, MPI_BYTE, 0, 0, 4, MPI_BYTE, MPI_SUM, win),
                      MPI_ERR_OP, "MPI_SUM on MPI_BYTE");
    MT_MPI(MPI_Win_unlock_all(win));
    MT_CHECK_ERRCLASS(MPI_Accumulate(&one, 1, MPI_INT, 0, 0, 1, MPI_INT, MPI_SUM, win),
                      MPI_ERR_RMA_SYNC, "accumulate outside an epoch");
    MT_MPI(MPI_Barrier(MPI_COMM_WORLD));
    if (mt_rank == 0) {
        MT_MPI(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win));
        MT_CHECK_INT(before + 3 * mt_size, base->ints[NI - 2], "derived origin type");
        MT_MPI(MPI_Win_unlock(0, win));
    }
    MT_MPI(MPI_Type_free(&three_ints));
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    struct layout *base;
    MPI_Win win = mt_win_allocate_zeroed(sizeof(struct layout), &base);
    concurrent(win, base);
    lock_turns(win, base);
    active_epochs(win, base);
    declined(win, base);
    MT_MPI(MPI_Win_free(&win));
    return mt_finish();
}
