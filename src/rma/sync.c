/* sync.c - epochs: fence, post/start/complete/wait/test, lock/unlock, lock_all, flush, sync,
 * and the one wait loop every blocking RMA call uses. Operations complete when issued, so an
 * epoch's end only has to order memory and tell the peers; nothing here moves data.
 *
 * Waiting: a wait registers a generic request whose poll checks the condition, and waits on
 * it like any request, so it progresses the other layers, and an oversubscribed rank sleeps
 * on its futex (the engine re-polls the condition after announcing sleep, so no wake-up is
 * lost). Whoever publishes a condition others may wait for wakes them: the window counts its
 * waiters, and a release with waiters wakes the ranks of the window that sleep.
 * Memory ordering of the wake-up: waiter "RMW waiters; seq_cst fence; load condition" against
 * waker "store condition (release); seq_cst fence; load waiters": with both fences, at least
 * one side sees the other's store. */
#include <string.h>

#include "coll/coll.h"
#include "core/comm.h"
#include "core/group.h"
#include "core/progress.h"
#include "core/request.h"
#include "core/running.h"
#include "core/state.h"
#include "rma/internal.h"
#include "shm/segment.h"
#include "shm/wake.h"

/* ---- waiting and waking ------------------------------------------------------------------- */

void rma_wait_until(struct rma_win *win, int (*ready)(void *), void *arg)
{
    if (ready(arg))
        return;
    rma_wait_slow(win, ready, arg);
}

void rma_wait_slow(struct rma_win *win, int (*ready)(void *), void *arg)
{
    atomic_fetch_add_explicit(&win->header->waiters, 1, memory_order_relaxed);
    atomic_thread_fence(memory_order_seq_cst);
    core_wait_until(ready, arg);
    atomic_fetch_sub_explicit(&win->header->waiters, 1, memory_order_relaxed);
}

void rma_wake_waiters(struct rma_win *win)
{
    if (!nodempi.segment)
        return;
    atomic_thread_fence(memory_order_seq_cst);
    if (!atomic_load_explicit(&win->header->waiters, memory_order_relaxed))
        return;
    for (int r = 0; r < win->size; r++)
        if (r != win->rank)
            shm_wake_peer_after_fence(shm_rank_block(nodempi.segment, win->peers[r].world_rank));
}

void rma_wake_rank(struct rma_win *win, int rank)
{
    if (nodempi.segment && rank != win->rank)
        shm_wake_peer(shm_rank_block(nodempi.segment, win->peers[rank].world_rank));
}

/* ---- the accumulate mutex ----------------------------------------------------------------- */

struct mutex_wait {
    struct rma_mutex *mutex;
    uint32_t ticket;
};

static int mutex_ready(void *arg)
{
    struct mutex_wait *w = arg;
    return rma_mutex_ready(w->mutex, w->ticket);
}

void rma_mutex_wait(struct rma_win *win, struct rma_mutex *mutex, uint32_t ticket)
{
    struct mutex_wait w = {mutex, ticket};
    rma_wait_slow(win, mutex_ready, &w);
}

/* ---- epoch checks ------------------------------------------------------------------------- */

/* A fence opened the door to an epoch, but none has begun until an operation is issued, so
 * lock or start may still follow (MPI-4.1 12.5: a fence ends an epoch only if one began). */
static int access_free(const struct rma_win *win)
{
    return win->access == RMA_ACCESS_NONE ||
           (win->access == RMA_ACCESS_FENCE && !win->ops_since_fence);
}

/* ---- fence -------------------------------------------------------------------------------- */

int rma_fence(struct rma_win *win, int assert)
{
    if (!access_free(win) && win->access != RMA_ACCESS_FENCE)
        return MPI_ERR_RMA_SYNC;
    if (win->exposed)
        return MPI_ERR_RMA_SYNC;
    /* Our operations are complete; the barrier tells everyone, and the fences make the
     * stores before it (ours, by load/store or CMA) visible to loads after it. A fence with
     * MPI_MODE_NOPRECEDE still synchronizes: the target's own stores must precede accesses. */
    atomic_thread_fence(memory_order_seq_cst);
    int rc = coll_barrier(win->comm);
    atomic_thread_fence(memory_order_seq_cst);
    win->access = (assert & MPI_MODE_NOSUCCEED) ? RMA_ACCESS_NONE : RMA_ACCESS_FENCE;
    win->ops_since_fence = 0;
    return rc;
}

/* ---- post / start / complete / wait ------------------------------------------------------ */

int rma_group_ranks(struct rma_win *win, struct core_group *group, int *ranks)
{
    for (int i = 0; i < group->size; i++) {
        int w = group->world_ranks[i];
        int r = w >= 0 && w < nodempi.world_size ? win->rank_of_world[w] : -1;
        if (r < 0)
            return MPI_ERR_GROUP;
        ranks[i] = r;
    }
    return MPI_SUCCESS;
}

int rma_post(struct rma_win *win, struct core_group *group, int assert)
{
    if (win->exposed || (win->access == RMA_ACCESS_FENCE && win->ops_since_fence))
        return MPI_ERR_RMA_SYNC;
    int rc = rma_group_ranks(win, group, win->exposure_group);
    if (rc != MPI_SUCCESS)
        return rc;
    win->exposure_group_size = group->size;
    int p = win->size;
    /* release: our stores to the window before the post are visible to the origins'
     * accesses after their start (which loads the count with acquire) */
    atomic_thread_fence(memory_order_release);
    for (int i = 0; i < group->size; i++) {
        int origin = win->exposure_group[i];
        win->completes_expected[origin]++;
        if (assert & MPI_MODE_NOCHECK)
            continue;
        atomic_fetch_add_explicit(&win->posts[(size_t)origin * p + win->rank], 1,
                                  memory_order_release);
        rma_wake_rank(win, origin);
    }
    win->exposed = 1;
    return MPI_SUCCESS;
}

/* Counters are compared modulo 2^32, so they may wrap. */
static int reached(uint32_t count, uint32_t goal)
{
    return (int32_t)(count - goal) >= 0;
}

struct posts_wait {
    struct rma_win *win;
};

static int posts_arrived(void *arg)
{
    struct rma_win *win = ((struct posts_wait *)arg)->win;
    for (int i = 0; i < win->access_group_size; i++) {
        int t = win->access_group[i];
        uint32_t got = atomic_load_explicit(&win->posts[(size_t)win->rank * win->size + t],
                                            memory_order_acquire);
        if (!reached(got, win->posts_consumed[t]))
            return 0;
    }
    return 1;
}

int rma_start(struct rma_win *win, struct core_group *group, int assert)
{
    if (!access_free(win))
        return MPI_ERR_RMA_SYNC;
    int rc = rma_group_ranks(win, group, win->access_group);
    if (rc != MPI_SUCCESS)
        return rc;
    win->access_group_size = group->size;
    for (int i = 0; i < group->size; i++) {
        int t = win->access_group[i];
        win->in_access_group[t] = 1;
        if (!(assert & MPI_MODE_NOCHECK))
            win->posts_consumed[t]++;
    }
    /* Start may block until the targets posted (MPI-4.1 12.5.2 allows it). */
    if (!(assert & MPI_MODE_NOCHECK)) {
        struct posts_wait w = {win};
        rma_wait_until(win, posts_arrived, &w);
    }
    win->access = RMA_ACCESS_PSCW;
    return MPI_SUCCESS;
}

int rma_complete(struct rma_win *win)
{
    if (win->access != RMA_ACCESS_PSCW)
        return MPI_ERR_RMA_SYNC;
    int p = win->size;
    for (int i = 0; i < win->access_group_size; i++) {
        int t = win->access_group[i];
        win->in_access_group[t] = 0;
        /* release: our puts and accumulates are visible to the target after its wait */
        atomic_fetch_add_explicit(&win->completes[(size_t)t * p + win->rank], 1,
                                  memory_order_release);
        rma_wake_rank(win, t);
    }
    win->access_group_size = 0;
    win->access = RMA_ACCESS_NONE;
    return MPI_SUCCESS;
}

static int completes_arrived(void *arg)
{
    struct rma_win *win = arg;
    for (int i = 0; i < win->exposure_group_size; i++) {
        int o = win->exposure_group[i];
        uint32_t got = atomic_load_explicit(&win->completes[(size_t)win->rank * win->size + o],
                                            memory_order_acquire);
        if (!reached(got, win->completes_expected[o]))
            return 0;
    }
    return 1;
}

int rma_wait(struct rma_win *win)
{
    if (!win->exposed)
        return MPI_ERR_RMA_SYNC;
    rma_wait_until(win, completes_arrived, win);
    win->exposed = 0;
    return MPI_SUCCESS;
}

int rma_test(struct rma_win *win, int *flag)
{
    if (!win->exposed)
        return MPI_ERR_RMA_SYNC;
    *flag = completes_arrived(win);
    if (!*flag)
        core_progress();
    else
        win->exposed = 0;
    return MPI_SUCCESS;
}

/* ---- passive target ----------------------------------------------------------------------- */

struct ticket_wait {
    _Atomic uint64_t *word;
    uint16_t ticket;
};

static int writer_ready(void *arg)
{
    struct ticket_wait *w = arg;
    return rma_rwlock_writer_ready(w->word, w->ticket);
}

static int reader_enter(void *arg)
{
    struct ticket_wait *w = arg;
    return rma_rwlock_reader_try_enter(w->word, w->ticket);
}

static int no_lock_all(void *arg)
{
    return rma_exclusive_ready(arg);
}

static int no_exclusive(void *arg)
{
    return rma_lockall_may_retry(arg);
}

static struct rma_lock_words target_words(struct rma_win *win)
{
    struct rma_lock_words words = {&win->targets[0].lock, sizeof(struct rma_target_ctrl),
                                    win->size};
    return words;
}

int rma_lock(struct rma_win *win, int lock_type, int target, int assert)
{
    if (!(access_free(win) || win->access == RMA_ACCESS_LOCK) || win->lock_kind[target])
        return MPI_ERR_RMA_SYNC;
    int kind = lock_type == MPI_LOCK_EXCLUSIVE ? RMA_LOCKED_EXCLUSIVE : RMA_LOCKED_SHARED;
    if (assert & MPI_MODE_NOCHECK) {
        kind |= RMA_LOCKED_NOCHECK;
    } else {
        struct ticket_wait w = {&win->targets[target].lock, 0};
        if (kind == RMA_LOCKED_EXCLUSIVE) {
            w.ticket = rma_rwlock_writer_arrive(w.word);
            if (!rma_rwlock_writer_ready(w.word, w.ticket))
                rma_wait_slow(win, writer_ready, &w);
            if (!rma_exclusive_ready(&win->header->lock_all))
                rma_wait_slow(win, no_lock_all, &win->header->lock_all);
        } else {
            w.ticket = rma_rwlock_arrive(w.word);
            rma_wait_until(win, reader_enter, &w);
        }
    }
    win->lock_kind[target] = (unsigned char)kind;
    win->locked_targets++;
    win->access = RMA_ACCESS_LOCK;
    return MPI_SUCCESS;
}

int rma_unlock(struct rma_win *win, int target)
{
    if (win->access != RMA_ACCESS_LOCK || !win->lock_kind[target])
        return MPI_ERR_RMA_SYNC;
    int kind = win->lock_kind[target];
    if (!(kind & RMA_LOCKED_NOCHECK)) {
        if (kind == RMA_LOCKED_EXCLUSIVE) {
            rma_rwlock_writer_release(&win->targets[target].lock);
        } else {
            rma_rwlock_reader_release(&win->targets[target].lock);
        }
        rma_wake_waiters(win);
    } else {
        atomic_thread_fence(memory_order_seq_cst);
    }
    win->lock_kind[target] = RMA_UNLOCKED;
    if (--win->locked_targets == 0)
        win->access = RMA_ACCESS_NONE;
    return MPI_SUCCESS;
}

int rma_lock_all(struct rma_win *win, int assert)
{
    if (!access_free(win))
        return MPI_ERR_RMA_SYNC;
    win->lock_all_nocheck = (assert & MPI_MODE_NOCHECK) != 0;
    struct rma_lock_words words = target_words(win);
    while (!win->lock_all_nocheck && !rma_lockall_try(&win->header->lock_all, &words)) {
        /* Our count was up for a moment: an exclusive locker may have seen it and gone to
         * sleep waiting for it to drop, so wake it. */
        rma_wake_waiters(win);
        rma_wait_until(win, no_exclusive, &words);
    }
    win->access = RMA_ACCESS_LOCK_ALL;
    return MPI_SUCCESS;
}

int rma_unlock_all(struct rma_win *win)
{
    if (win->access != RMA_ACCESS_LOCK_ALL)
        return MPI_ERR_RMA_SYNC;
    if (!win->lock_all_nocheck) {
        rma_lockall_release(&win->header->lock_all);
        rma_wake_waiters(win);
    } else {
        atomic_thread_fence(memory_order_seq_cst);
    }
    win->access = RMA_ACCESS_NONE;
    return MPI_SUCCESS;
}

int rma_sync(struct rma_win *win)
{
    (void)win;
    atomic_thread_fence(memory_order_seq_cst);
    return MPI_SUCCESS;
}
