/* thread.c - the big lock behind MPI_THREAD_MULTIPLE (see thread.h and docs/architecture.md).
 *
 * Why one lock: every layer below the API (request free list, match queues, the pair rings,
 * which are single-producer/single-consumer per pair of processes, the object and attribute
 * tables, the progress engine's lists) was written for one thread at a time. One process-wide
 * lock taken at the API layer keeps all of them as they are; finer locks would have to be
 * threaded through each. The price is that threads of one process do not run MPI code in
 * parallel; on one node the work inside MPI is memory copies and polling, which a second
 * thread of the same process would mostly contend for anyway.
 *
 * Waiting: a thread that waits (blocking receive, MPI_Wait, a collective, RMA synchronisation,
 * probe...) must not keep the lock, or the thread that would complete its operation could
 * never run. Every wait loop calls core_progress_idle after an empty progress round; with the
 * lock on, that hands the lock to the threads queued for it (core_thread_yield) and sleeps on
 * the rank's futex with the lock dropped. Completion flags are written and read under the lock,
 * so a request completed by another thread's progress is seen by its owner on its next look.
 *
 * The lock is a test-and-set word with a count of waiters. A waiting thread that hands over
 * does not take the lock back before a waiter has had it (core_thread_yield), so the thread it
 * waits for cannot starve. It is not a FIFO (ticket) lock on purpose: with more threads than
 * cores a ticket lock passes from one descheduled waiter to the next (a convoy: MPICH's
 * threads/pt2pt probe tests, threads spinning on MPI_Iprobe, timed out); here whoever runs takes
 * it. Waiting for the lock spins briefly, then yields, then naps: holders keep it for one MPI
 * call at most, never across a sleep. */
#include "core/thread.h"

#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <time.h>

#include "core/progress.h"
#include "core/state.h"

/* The lock word and the count of threads waiting for it, on separate cache lines. */
static struct {
    _Alignas(64) _Atomic int held;
    _Alignas(64) _Atomic int waiting;
    _Atomic int starving; /* a waiter that waited long: nobody else takes the lock before it */
} big_lock;

/* initial-exec: the library's thread-locals sit in the static TLS block, one instruction away,
 * instead of behind a __tls_get_addr call per MPI call (glibc keeps spare static TLS for
 * libraries loaded later with dlopen, which these few words fit in). */
#define THREAD_LOCAL static _Thread_local __attribute__((tls_model("initial-exec")))

THREAD_LOCAL unsigned depth;         /* nested MPI calls of this thread */
THREAD_LOCAL void (*leave_hook)(void); /* core_thread_at_leave */

/* Waiting threads: one of them polls for all (the poller, until it leaves its MPI call); the
 * others park outside the lock until the epoch moves (some MPI call ended, or the poller's
 * progress did something), then look at their own request again. Without this every waiter
 * would queue for the lock to make one poll each. */
static int poller_busy;                 /* under the lock */
THREAD_LOCAL int i_am_poller;
static _Atomic uint32_t epoch;
static _Atomic int parked; /* threads in core_thread_park: nobody to tell when 0 */

/* Spin rounds before a waiter yields; yields before it naps (a holder is then probably
 * preempted or in a long callback; napping frees the core for it). */
enum { LOCK_SPINS = 64, LOCK_YIELDS = 1000 };

static int lock_try(void)
{
    /* acquire: what the previous holder wrote under the lock is visible to us */
    return !atomic_load_explicit(&big_lock.held, memory_order_relaxed) &&
           !atomic_exchange_explicit(&big_lock.held, 1, memory_order_acquire);
}

/* relaxed loads of starving: it only says who may try; exclusion is the exchange's job */
static int may_try(int mine)
{
    return mine || !atomic_load_explicit(&big_lock.starving, memory_order_relaxed);
}

/* A thread calling MPI in a loop (MPI_Test, MPI_Iprobe) takes the lock again the moment it
 * drops it; a waiter that has waited past its spin phase therefore becomes the starving one
 * (one at a time): the others leave the lock to it until it had it. */
static void lock_take(void)
{
    if (may_try(0) && lock_try())
        return;
    int mine = 0;
    /* relaxed: the count is a hint for holders deciding whether to hand over */
    atomic_fetch_add_explicit(&big_lock.waiting, 1, memory_order_relaxed);
    for (unsigned rounds = 0; !(may_try(mine) && lock_try()); rounds++) {
        if (rounds == LOCK_SPINS && !mine) {
            int none = 0;
            mine = atomic_compare_exchange_strong_explicit(
                &big_lock.starving, &none, 1, memory_order_relaxed, memory_order_relaxed);
        }
        if (rounds < LOCK_SPINS) {
            core_cpu_relax();
        } else if (rounds < LOCK_SPINS + LOCK_YIELDS) {
            sched_yield();
        } else {
            struct timespec nap = {0, 20 * 1000};
            nanosleep(&nap, NULL);
        }
    }
    if (mine)
        atomic_store_explicit(&big_lock.starving, 0, memory_order_relaxed);
    atomic_fetch_sub_explicit(&big_lock.waiting, 1, memory_order_relaxed);
}

static void lock_drop(void)
{
    /* release: everything written under the lock is visible to the next holder */
    atomic_store_explicit(&big_lock.held, 0, memory_order_release);
}

void core_thread_enter(void)
{
    if (depth++ == 0)
        lock_take();
}

void core_thread_leave(void)
{
    if (depth == 0)
        return;
    if (--depth > 0)
        return;
    if (leave_hook) {
        void (*hook)(void) = leave_hook;
        leave_hook = NULL;
        hook();
    }
    if (i_am_poller) {
        i_am_poller = 0;
        poller_busy = 0;
    }
    core_thread_note_progress(); /* parked waiters look again: this call may have completed
                                    their requests, or left the polling to them */
    lock_drop();
    /* relaxed: a hint; the deliverer looks at the queue under the lock. A thread that records
     * an event later and leaves sees the flag itself (mpi/mpit_event.c). */
    if (__builtin_expect(atomic_load_explicit(&core_thread_leave_pending, memory_order_relaxed),
                         0))
        core_thread_leave_work();
}

_Atomic int core_thread_leave_pending;

void core_thread_note_progress(void)
{
    /* relaxed: parked threads only use it as a hint to take the lock and look; what they
     * look at is ordered by the lock. A thread that parks after our check reads the epoch
     * after it registered, and looks at its request under the lock first anyway. */
    if (atomic_load_explicit(&parked, memory_order_relaxed))
        atomic_fetch_add_explicit(&epoch, 1, memory_order_relaxed);
}

int core_thread_poll_turn(void)
{
    if (i_am_poller)
        return 1;
    if (poller_busy)
        return 0;
    poller_busy = 1;
    i_am_poller = 1;
    return 1;
}

/* Spin, yield, then nap until the epoch moves; back after about a millisecond anyway (a
 * completion that moved no epoch, e.g. one made inside a call that has not ended yet). */
void core_thread_park(void)
{
    atomic_fetch_add_explicit(&parked, 1, memory_order_relaxed); /* a hint, see above */
    uint32_t seen = atomic_load_explicit(&epoch, memory_order_relaxed);
    unsigned held = core_thread_suspend();
    for (unsigned round = 0; round < LOCK_SPINS + 64 + 40; round++) {
        if (atomic_load_explicit(&epoch, memory_order_relaxed) != seen)
            break;
        if (round < LOCK_SPINS) {
            core_cpu_relax();
        } else if (round < LOCK_SPINS + 64) {
            sched_yield();
        } else {
            struct timespec nap = {0, 25 * 1000};
            nanosleep(&nap, NULL);
        }
    }
    core_thread_resume(held);
    atomic_fetch_sub_explicit(&parked, 1, memory_order_relaxed);
}

void core_thread_enable(void)
{
    nodempi.thread_multiple = 1;
    nodempi.api_track = 1;
}

void core_thread_track_calls(void)
{
    /* written once: other threads read it outside the lock (mpi_enter); with MULTIPLE it is 1
     * from the start and never written again */
    if (!nodempi.api_track)
        nodempi.api_track = 1;
}

int core_thread_contended(void)
{
    /* relaxed: a stale answer costs one more poll round or one needless hand-over */
    return atomic_load_explicit(&big_lock.waiting, memory_order_relaxed) > 0;
}

/* Hand over: drop the lock and do not take it back before a waiting thread has had it (or a
 * bound passed), so that a waiter that is napping is not starved by our next poll. */
void core_thread_yield(void)
{
    if (depth == 0 || !core_thread_contended())
        return;
    lock_drop();
    for (unsigned round = 0; round < LOCK_SPINS + 64; round++) {
        if (!core_thread_contended() || atomic_load_explicit(&big_lock.held,
                                                             memory_order_relaxed))
            break;
        if (round < LOCK_SPINS)
            core_cpu_relax();
        else
            sched_yield();
    }
    lock_take();
}

unsigned core_thread_suspend(void)
{
    unsigned held = depth;
    if (held) {
        depth = 0;
        lock_drop();
    }
    return held;
}

void core_thread_resume(unsigned held)
{
    if (held) {
        lock_take();
        depth = held;
    }
}

void core_thread_at_leave(void (*fn)(void))
{
    leave_hook = fn;
}
