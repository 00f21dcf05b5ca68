/* progress.c - the progress engine and the waiting policy.
 * core_progress runs one round of every layer; waiters call core_progress_idle after empty
 * rounds, which spins (ranks <= cores: the peer runs on another core and answers within
 * nanoseconds), yields, and when oversubscribed sleeps on the rank's futex until a peer wakes
 * it (a spinning rank would steal the core the peer it waits for needs).
 * With MPI_THREAD_MULTIPLE (core/thread.c) the waiter holds the big lock: one waiting thread
 * polls for all (the others park outside the lock until something happened), its idle rounds
 * hand the lock to threads queued for it, and its futex sleep drops it. */
#include "core/progress.h"

#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "core/config.h"
#include "core/request.h"
#include "core/running.h"
#include "core/state.h"
#include "core/thread.h"
#include "p2p/p2p.h"
#include "shm/wake.h"

/* Generic requests polled every round (nonblocking collectives, RMA). */
static struct core_request *generic_head;

void core_progress_add_generic(struct core_request *request)
{
    request->free_next = generic_head; /* reuses the free-list link while active */
    generic_head = request;
}

static int poll_generic(void)
{
    int did = 0;
    struct core_request **link = &generic_head;
    while (*link) {
        struct core_request *request = *link;
        if (!request->complete && request->poll) {
            int rc = request->poll(request);
            if (rc != MPI_SUCCESS) {
                request->status.MPI_ERROR = rc;
                request->complete = 1;
            }
        }
        if (request->complete) {
            *link = request->free_next;
            request->free_next = NULL;
            if (request->freed_by_user)
                core_request_free(request);
            did = 1;
        } else {
            link = &request->free_next;
        }
    }
    return did;
}

/* Oversubscribed and NODEMPI_SPIN_WHILE_RUNNING not off (auto: with NODEMPI_WAIT=auto):
 * progress rounds stamp the rank's running clock and waiters look at their peer's. */
static int spin_while_running(void)
{
    enum core_switch sw = core_config.spin_while_running;
    return nodempi.oversubscribed &&
           (sw == CORE_SWITCH_ON || (sw == CORE_SWITCH_AUTO && core_config.wait == CORE_WAIT_AUTO));
}

/* core_progress_idle's last look (every 16th idle round, NODEMPI_WAIT=auto): do the awake
 * ranks fit the cores? Then every waiter spins anyway and nobody needs our running stamps. */
static int awake_fit;

int core_progress(void)
{
    if (!awake_fit && spin_while_running()) /* (false at once unless oversubscribed) */
        core_running_beat(); /* (4 ranks, two ping-ponging, two asleep: 8 B 0.106 -> 0.095 us) */
    int did = p2p_progress();
    if (generic_head)
        did |= poll_generic();
    if (did && nodempi.thread_multiple)
        core_thread_note_progress(); /* parked waiters look at their requests */
    return did;
}

void core_progress_wait_flag(const int *flag)
{
    unsigned idle = 0;
    while (!*flag) {
        if (core_progress())
            idle = 0;
        else if (!*flag)
            core_progress_idle(++idle);
    }
}

static int should_sleep(void)
{
    if (!nodempi.segment || nodempi.world_size + nodempi.foreign_peers < 2)
        return 0;
    return core_config.wait == CORE_WAIT_BLOCK ||
           (core_config.wait == CORE_WAIT_AUTO && nodempi.oversubscribed);
}

/* MPI_THREAD_MULTIPLE: a thread of this process is sleeping on the rank's futex (the rank
 * block's sleeping flag is one per rank, so only one thread may use it). Under the big lock. */
static int futex_taken;

/* Sleep until woken (or 50 ms: a safety net that bounds the cost of any missed wake-up path,
 * e.g. a peer that died; correctness never depends on it). With MPI_THREAD_MULTIPLE the lock is
 * dropped while asleep, and the sleep lasts 1 ms at most: what this thread waits for may be
 * completed by another thread of the process, which does not wake the futex. */
static void sleep_on_futex(void)
{
    if (nodempi.thread_multiple && futex_taken) {
        unsigned held = core_thread_suspend();
        struct timespec nap = {0, 100 * 1000};
        nanosleep(&nap, NULL);
        core_thread_resume(held);
        return;
    }
    futex_taken = 1;
    struct shm_rank_block *me = shm_rank_block(nodempi.segment, nodempi.world_rank);
    /* relaxed: a hint for spinners (awake_ranks_fit), and a promise to coll/shm_barrier.c's
     * waker: made before the seq_cst fence of shm_wake_prepare_sleep, so a waker that fences
     * after moving what we wait for and reads 0 here knows we will see that move */
    atomic_fetch_add_explicit(&nodempi.segment->sleepers, 1, memory_order_relaxed);
    nodempi.futex_sleeps++;
    uint32_t seen = shm_wake_prepare_sleep(me);
    if (!core_progress()) {
        unsigned held = core_thread_suspend();
        shm_wake_sleep(me, seen, (held ? 1L : 50L) * 1000 * 1000);
        core_thread_resume(held);
    }
    shm_wake_end_sleep(me);
    atomic_fetch_sub_explicit(&nodempi.segment->sleepers, 1, memory_order_relaxed);
    futex_taken = 0;
}

/* Oversubscribed, but do the ranks that are awake fit on the cores? Ranks that wait sleep on
 * their futex and are counted in the segment's sleepers word; when the rest fit, spinning costs
 * nobody anything and saves the ~0.3 us of a sched_yield per poll (two ranks ping-ponging while
 * six others wait in a collective, 8 ranks on 2 cores: see docs/benchmarks.md). A sleeper woken
 * meanwhile preempts a spinner (the scheduler favours a task that slept), leaves the count, and
 * the spinners yield from their next look on. */
static int awake_ranks_fit(void)
{
    if (!nodempi.segment)
        return 0;
    /* relaxed: a stale count costs a few spin rounds or one yield, never correctness */
    int sleepers = atomic_load_explicit(&nodempi.segment->sleepers, memory_order_relaxed);
    return nodempi.world_size - sleepers <= nodempi.cores;
}

/* Do processes other than this job's awake ranks want the cores? The kernel's count of
 * runnable tasks (/proc/loadavg, 4th field) above the machine's CPUs says so. Looked at every
 * 2 ms at most (a read of a few dozen bytes, ~2 us). Why it matters: spinning ranks that "fit" the
 * cores lose them to other tenants' processes for whole time slices, and a rank that sleeps
 * is woken ahead of them (the scheduler favours a task that slept): 4 ranks on 2 cores, two
 * ping-ponging, load average 20-38 from other jobs, 8 B: spin then yield 185-270 us, sleeping
 * (NODEMPI_WAIT=block) 1.8-16 us, Open MPI 9-14 us (2026-11-22). */
static int cores_contended(void)
{
    static int fd = -2, contended;
    static struct timespec last;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC_COARSE, &now);
    long elapsed_ns = (now.tv_sec - last.tv_sec) * 1000000000L + (now.tv_nsec - last.tv_nsec);
    if (fd == -1 || (fd >= 0 && elapsed_ns < 2000000))
        return contended;
    last = now;
    if (fd == -2 && (fd = open("/proc/loadavg", O_RDONLY | O_CLOEXEC)) < 0)
        return contended = 0; /* no /proc: trust our own count */
    char text[128];
    ssize_t n = pread(fd, text, sizeof text - 1, 0);
    if (n <= 0)
        return contended;
    text[n] = '\0';
    int running = 0;
    /* The count is machine-wide: compare with the machine's CPUs, not only ours. */
    static long cpus;
    if (!cpus && (cpus = sysconf(_SC_NPROCESSORS_ONLN)) < 1)
        cpus = 1;
    if (sscanf(text, "%*s %*s %*s %d/", &running) == 1)
        contended = running > (nodempi.cores > cpus ? nodempi.cores : cpus);
    return contended;
}

/* A nonblocking call (MPI_Test & co., MPI_Iprobe) found nothing: programs that poll in a loop
 * wait there as much as in MPI_Wait, but the call must return at once. When oversubscribed, and
 * the awake ranks do not fit the cores, every NONBLOCKING_POLLS_BEFORE_YIELD consecutive empty
 * polls of this process give the core away once: the rank whose message the poller waits for
 * may need it. hpcc's MPIRandomAccess pattern (tests of an 8 KiB Isend and of one
 * MPI_ANY_SOURCE receive), 4 ranks on 2 cores: see docs/benchmarks.md "Session 6". */
enum { NONBLOCKING_POLLS_BEFORE_YIELD = 256 };

int core_progress_poll(void)
{
    static unsigned empty_polls;
    if (core_progress()) {
        empty_polls = 0;
        return 1;
    }
    if (!nodempi.oversubscribed || core_config.wait == CORE_WAIT_SPIN ||
        ++empty_polls < NONBLOCKING_POLLS_BEFORE_YIELD)
        return 0;
    empty_polls = 0;
    if (core_config.wait == CORE_WAIT_AUTO && awake_ranks_fit() && !cores_contended())
        return 0;
    nodempi.poll_yields++;
    if (nodempi.thread_multiple && core_thread_contended())
        core_thread_yield(); /* threads of this process queued for the lock go first */
    else
        sched_yield();
    return 0;
}

void core_progress_idle(unsigned idle_rounds)
{
    if (nodempi.thread_multiple) {
        if (!core_thread_poll_turn()) {
            core_thread_park(); /* another waiting thread polls for this one */
            return;
        }
        if (core_thread_contended()) {
            core_thread_yield(); /* the threads queued for the lock run one call each first */
            return;
        }
    }
    enum core_wait_policy policy = core_config.wait;
    if (policy == CORE_WAIT_SPIN) {
        core_cpu_relax();
        return;
    }
    if (policy == CORE_WAIT_AUTO && !nodempi.oversubscribed) {
        if (idle_rounds < core_config.spin_rounds) {
            core_cpu_relax();
            return;
        }
        sched_yield();
        return;
    }
    /* The rank we wait for is on a core and in MPI: its answer comes within microseconds,
     * sooner than a yield and the switches back (core/running.c). */
    if (idle_rounds < core_config.spin_rounds && spin_while_running() &&
        core_running_awaited_runs()) {
        core_cpu_relax();
        return;
    }
    if (policy == CORE_WAIT_AUTO) {
        if (idle_rounds % 16 == 1)
            awake_fit = awake_ranks_fit() && !cores_contended();
        if (awake_fit) {
            if (idle_rounds < core_config.spin_rounds)
                core_cpu_relax();
            else
                sched_yield();
            return;
        }
    }
    if (idle_rounds < core_config.yield_rounds || !should_sleep()) {
        sched_yield();
        return;
    }
    sleep_on_futex();
}
