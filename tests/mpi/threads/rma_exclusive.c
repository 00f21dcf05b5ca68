/* rma_exclusive: under MPI_THREAD_MULTIPLE, NTHREADS threads of each rank issue accumulates,
 * Fetch_and_op and Get_accumulate to the right neighbour at the same time, inside one
 * MPI_Win_lock(EXCLUSIVE) epoch their rank opened: the accumulate fast path then updates the
 * target without atomics or mutex, relying on MPI calls of one process running one at a time
 * (src/rma/accumulate.c). Every sum must be exact and every fetched value seen once. */
#include "threads_common.h"

#include <stddef.h>

enum { NTHREADS = 4, ROUNDS = 300, NBULK = 16 };

struct layout {
    int bulk[NBULK];
    int single;
    long counter;
};

struct arg {
    MPI_Win win;
    int target;
    long olds[ROUNDS];
};

static void *updates(void *p)
{
    struct arg *a = p;
    int ones[NBULK], got[8];
    long one = 1;
    for (int i = 0; i < NBULK; i++)
        ones[i] = 1;
    for (int r = 0; r < ROUNDS; r++) {
        MPI_Accumulate(ones, NBULK, MPI_INT, a->target, 0, NBULK, MPI_INT, MPI_SUM, a->win);
        MPI_Accumulate(ones, 1, MPI_INT, a->target, offsetof(struct layout, single), 1, MPI_INT,
                       MPI_SUM, a->win);
        MPI_Fetch_and_op(&one, &a->olds[r], MPI_LONG, a->target,
                         offsetof(struct layout, counter), MPI_SUM, a->win);
        MPI_Get_accumulate(ones, 8, MPI_INT, got, 8, MPI_INT, a->target, 0, 8, MPI_INT, MPI_SUM,
                           a->win);
        TC_CHECK(got[0] == got[7], "torn get_accumulate: %d vs %d", got[0], got[7]);
    }
    return NULL;
}

static int cmp_long(const void *x, const void *y)
{
    long a = *(const long *)x, b = *(const long *)y;
    return (a > b) - (a < b);
}

int main(int argc, char **argv)
{
    tc_init_multiple(&argc, &argv);
    struct layout *base;
    MPI_Win win = mt_win_allocate_zeroed(sizeof(struct layout), &base);

    static struct arg args[NTHREADS];
    for (int i = 0; i < NTHREADS; i++)
        args[i] = (struct arg){.win = win, .target = mt_right()};
    MT_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, mt_right(), 0, win));
    tc_run(NTHREADS, updates, args, sizeof(args[0]));
    MT_MPI(MPI_Win_unlock(mt_right(), win));

    static long all[NTHREADS * ROUNDS];
    for (int i = 0; i < NTHREADS; i++)
        memcpy(&all[i * ROUNDS], args[i].olds, sizeof(args[i].olds));
    qsort(all, NTHREADS * ROUNDS, sizeof(long), cmp_long);
    for (long i = 0; i < NTHREADS * ROUNDS; i++)
        if (all[i] != i) {
            MT_CHECK(0, "fetched value %ld is %ld (each of 0..%d once)", i, all[i],
                     NTHREADS * ROUNDS - 1);
            break;
        }

    MT_MPI(MPI_Barrier(MPI_COMM_WORLD));
    MT_MPI(MPI_Win_lock(MPI_LOCK_SHARED, mt_rank, 0, win));
    int n = NTHREADS * ROUNDS;
    MT_CHECK_INT(2 * n, base->bulk[0], "bulk[0] (16-int and 8-int updates)");
    MT_CHECK_INT(n, base->bulk[NBULK - 1], "bulk[15]");
    MT_CHECK_INT(n, base->single, "single");
    MT_CHECK_INT(n, base->counter, "counter");
    MT_MPI(MPI_Win_unlock(mt_rank, win));
    MT_MPI(MPI_Win_free(&win));
    return mt_finish();
}
