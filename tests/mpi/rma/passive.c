/* passive.c - passive-target synchronization beyond the basics:
 *   - request-based operations (MPI_Rput, MPI_Rget, MPI_Raccumulate, MPI_Rget_accumulate)
 *     completed with MPI_Waitall / MPI_Test inside lock_all, with MPI_Win_flush_local;
 *   - lock_all epochs of some ranks concurrent with exclusive locks of others on the same
 *     window (a lock_all holder and an exclusive holder must never overlap: checked with a
 *     guard word updated by MPI_Fetch_and_op);
 *   - a dynamic window: regions attached and detached while it lives, operations on them,
 *     and MPI_ERR_RMA_RANGE for memory that is not attached;
 *   - MPI_MODE_NOCHECK on lock and lock_all;
 *   - the large-count _c variants (MPI-4 and later). */
#include "mpitest.h"

enum { N = 32 };

static void requests(void)
{
    long long *base;
    MPI_Win win;
    MT_MPI(MPI_Win_allocate(N * sizeof(long long), sizeof(long long), MPI_INFO_NULL,
                            MPI_COMM_WORLD, &base, &win));
    for (int i = 0; i < N; i++)
        base[i] = 10 * mt_rank + i;
    MPI_Barrier(MPI_COMM_WORLD);
    int right = mt_right(), left = mt_left();
    long long src[4] = {mt_rank, mt_rank + 1, mt_rank + 2, mt_rank + 3}, got[4] = {0};
    long long one = 1, old = -1, fetched[2] = {-1, -1};
    MPI_Request req[4];
    MT_MPI(MPI_Win_lock_all(0, win));
    MT_MPI(MPI_Rput(src, 4, MPI_LONG_LONG, right, 0, 4, MPI_LONG_LONG, win, &req[0]));
    MT_MPI(MPI_Rget(got, 4, MPI_LONG_LONG, right, 8, 4, MPI_LONG_LONG, win, &req[1]));
    MT_MPI(MPI_Raccumulate(&one, 1, MPI_LONG_LONG, right, 16, 1, MPI_LONG_LONG, MPI_SUM, win,
                           &req[2]));
    MT_MPI(MPI_Rget_accumulate(src, 2, MPI_LONG_LONG, fetched, 2, MPI_LONG_LONG, right, 20, 2,
                               MPI_LONG_LONG, MPI_REPLACE, win, &req[3]));
    MT_MPI(MPI_Waitall(4, req, MPI_STATUSES_IGNORE));
    MT_MPI(MPI_Win_flush_local(right, win));
    MT_MPI(MPI_Win_flush_local_all(win));
    MPI_Request r;
    int done = 0;
    MT_MPI(MPI_Rget(&old, 1, MPI_LONG_LONG, right, 31, 1, MPI_LONG_LONG, win, &r));
    while (!done)
        MT_MPI(MPI_Test(&r, &done, MPI_STATUS_IGNORE));
    MT_MPI(MPI_Win_unlock_all(win));
    MPI_Barrier(MPI_COMM_WORLD);
    for (int i = 0; i < 4; i++)
        MT_CHECK(got[i] == 10 * right + 8 + i, "Rget [%d] = %lld", i, got[i]);
    MT_CHECK(fetched[0] == 10 * right + 20 && fetched[1] == 10 * right + 21,
             "Rget_accumulate fetched %lld %lld", fetched[0], fetched[1]);
    MT_CHECK(old == 10 * right + 31, "Rget with MPI_Test: %lld", old);
    for (int i = 0; i < 4; i++)
        MT_CHECK(base[i] == left + i, "Rput landed [%d] = %lld", i, base[i]);
    MT_CHECK(base[16] == 10 * mt_rank + 16 + 1, "Raccumulate: %lld", base[16]);
    MT_CHECK(base[20] == left && base[21] == left + 1, "Rget_accumulate REPLACE: %lld %lld",
             base[20], base[21]);
    MT_MPI(MPI_Win_free(&win));
}

/* Even ranks take lock_all epochs, odd ranks exclusive locks on rank 0; a guard word at rank 0
 * counts lock_all holders (+1) and exclusive holders (+1000) inside their epochs. */
static void lock_all_vs_exclusive(void)
{
    long long *base;
    MPI_Win win;
    MT_MPI(MPI_Win_allocate(2 * sizeof(long long), sizeof(long long), MPI_INFO_NULL,
                            MPI_COMM_WORLD, &base, &win));
    base[0] = base[1] = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    for (int round = 0; round < 20; round++) {
        long long seen = 0, in, out;
        if (mt_rank % 2 == 0) {
            in = 1;
            out = -1;
            MT_MPI(MPI_Win_lock_all(0, win));
        } else {
            in = 1000;
            out = -1000;
            MT_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win));
        }
        MT_MPI(MPI_Fetch_and_op(&in, &seen, MPI_LONG_LONG, 0, 0, MPI_SUM, win));
        MT_MPI(MPI_Win_flush(0, win));
        if (mt_rank % 2 == 0)
            MT_CHECK(seen < 1000, "lock_all entered while an exclusive lock was held (%lld)",
                     seen);
        else
            MT_CHECK(seen == 0, "exclusive lock entered while others held locks (%lld)", seen);
        long long nothing;
        MT_MPI(MPI_Fetch_and_op(&out, &nothing, MPI_LONG_LONG, 0, 0, MPI_SUM, win));
        if (mt_rank % 2 == 0)
            MT_MPI(MPI_Win_unlock_all(win));
        else
            MT_MPI(MPI_Win_unlock(0, win));
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (mt_rank == 0)
        MT_CHECK(base[0] == 0, "guard word ends at %lld", base[0]);
    /* MPI_MODE_NOCHECK: no conflicting locks are attempted, by promise */
    MT_MPI(MPI_Win_lock(MPI_LOCK_SHARED, mt_right(), MPI_MODE_NOCHECK, win));
    long long v = mt_rank;
    MT_MPI(MPI_Put(&v, 1, MPI_LONG_LONG, mt_right(), 1, 1, MPI_LONG_LONG, win));
    MT_MPI(MPI_Win_unlock(mt_right(), win));
    MPI_Barrier(MPI_COMM_WORLD);
    MT_MPI(MPI_Win_lock_all(MPI_MODE_NOCHECK, win));
    long long got = -1;
    MT_MPI(MPI_Get(&got, 1, MPI_LONG_LONG, mt_rank, 1, 1, MPI_LONG_LONG, win));
    MT_MPI(MPI_Win_unlock_all(win));
    MT_CHECK(got == mt_left(), "NOCHECK put/get: %lld", got);
    MT_MPI(MPI_Win_free(&win));
}

static void dynamic(void)
{
    MPI_Win win;
    MT_MPI(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    int *a = mt_malloc(N * sizeof(int)), *b = mt_malloc(N * sizeof(int));
    for (int i = 0; i < N; i++)
        a[i] = b[i] = -1;
    MT_MPI(MPI_Win_attach(win, a, N * sizeof(int)));
    MT_MPI(MPI_Win_attach(win, b, N * sizeof(int)));
    MPI_Aint mine[2], *all = mt_malloc(2 * mt_size * sizeof(MPI_Aint));
    MPI_Get_address(a, &mine[0]);
    MPI_Get_address(b, &mine[1]);
    MPI_Allgather(mine, 2, MPI_AINT, all, 2, MPI_AINT, MPI_COMM_WORLD);
    int right = mt_right(), v[N];
    for (int i = 0; i < N; i++)
        v[i] = 100 * mt_rank + i;
    MT_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, right, 0, win));
    MT_MPI(MPI_Put(v, N, MPI_INT, right, all[2 * right], N, MPI_INT, win));
    MT_MPI(MPI_Put(v, 4, MPI_INT, right, MPI_Aint_add(all[2 * right + 1], 8), 4, MPI_INT, win));
    MT_MPI(MPI_Accumulate(v, 1, MPI_INT, right, all[2 * right + 1], 1, MPI_INT, MPI_SUM, win));
    /* one element past region a (not attached unless b happens to follow it directly) */
    MPI_Aint past = MPI_Aint_add(all[2 * right], (MPI_Aint)(N * sizeof(int)));
    if (past != all[2 * right + 1]) {
        int rc = MPI_Put(v, 1, MPI_INT, right, past, 1, MPI_INT, win);
        /* detection is optional in the standard; Open MPI 4.1 does not detect it */
        if (!(rc == MPI_SUCCESS && mt_library_is("Open MPI")))
            MT_CHECK_ERRCLASS(rc, MPI_ERR_RMA_RANGE, "put beyond an attached region");
    }
    MT_MPI(MPI_Win_unlock(right, win));
    MPI_Barrier(MPI_COMM_WORLD);
    int left = mt_left();
    for (int i = 0; i < N; i++)
        MT_CHECK(a[i] == 100 * left + i, "dynamic region a [%d] = %d", i, a[i]);
    MT_CHECK(b[0] == -1 + 100 * left, "dynamic region b accumulate: %d", b[0]);
    for (int i = 0; i < 4; i++)
        MT_CHECK(b[2 + i] == 100 * left + i, "dynamic region b [%d] = %d", 2 + i, b[2 + i]);
    MPI_Barrier(MPI_COMM_WORLD);
    MT_MPI(MPI_Win_detach(win, a));
    MT_MPI(MPI_Win_detach(win, b));
    MT_MPI(MPI_Win_free(&win));
    free(a);
    free(b);
    free(all);
}

#if MPI_VERSION >= 4
static void large_count(void)
{
    int *base;
    MPI_Win win;
    MT_MPI(MPI_Win_allocate_c(N * sizeof(int), (MPI_Aint)sizeof(int), MPI_INFO_NULL,
                              MPI_COMM_WORLD, &base, &win));
    MPI_Aint size, unit;
    int *q;
    for (int i = 0; i < N; i++)
        base[i] = 0;
    MT_MPI(MPI_Win_fence(0, win));
    int v[4] = {mt_rank, 1, 2, 3}, got[4] = {0}, res = -1, one = 1;
    MPI_Count n = 4;
    MT_MPI(MPI_Put_c(v, n, MPI_INT, mt_right(), 0, n, MPI_INT, win));
    MT_MPI(MPI_Win_fence(0, win));
    MT_MPI(MPI_Get_c(got, n, MPI_INT, mt_left(), 0, n, MPI_INT, win));
    MT_MPI(MPI_Accumulate_c(&one, 1, MPI_INT, mt_right(), 8, 1, MPI_INT, MPI_SUM, win));
    MT_MPI(MPI_Win_fence(0, win));
    MT_MPI(MPI_Get_accumulate_c(&one, 1, MPI_INT, &res, 1, MPI_INT, mt_rank, 8, 1, MPI_INT,
                                MPI_NO_OP, win));
    MT_MPI(MPI_Win_fence(0, win));
    int left_left = (mt_rank - 2 + 2 * mt_size) % mt_size;
    MT_CHECK(got[0] == left_left && got[3] == 3, "MPI_Get_c got %d (put by my left's left)",
             got[0]);
    MT_CHECK(res == 1, "MPI_Get_accumulate_c NO_OP read %d", res);
    (void)q;
    (void)size;
    (void)unit;
    MT_MPI(MPI_Win_free(&win));
    MT_MPI(MPI_Win_allocate_shared_c(16, 8, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win));
    MT_MPI(MPI_Win_shared_query_c(win, mt_rank, &size, &unit, &q));
    MT_CHECK(size == 16 && unit == 8 && q == base, "MPI_Win_shared_query_c");
    MT_MPI(MPI_Win_free(&win));
}
#endif

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    requests();
    lock_all_vs_exclusive();
    dynamic();
#if MPI_VERSION >= 4
    large_count();
#endif
    return mt_finish();
}
