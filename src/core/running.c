/* running.c - waiters of an oversubscribed job spin while the rank they wait for is running.
 * With more ranks than cores a waiter yields (or sleeps) so that the rank it waits for can
 * have its core. But that rank is often on the other core already: two ranks ping-ponging, a
 * collective's partner sending its part. Yielding then buys a context switch per message, and
 * spinning every time instead (MPICH's busy-wait) makes a waiter hold a core for a whole time
 * slice while the rank it waits for is not running: barriers of 4-8 ms (docs/benchmarks.md,
 * session 7: spin-before-yield dropped). Each rank therefore stamps the time into its own line
 * of the segment as it makes progress rounds; a waiter spins only while the rank it waits for
 * stamped within the last RUNNING_FRESH_NS, so it spins when the other is on a core and in MPI,
 * and yields when the other was preempted, sleeps, or computes. A chain of waiters unwinds by
 * itself: one whose own awaited rank stops stamping yields, stops stamping, and the waiter
 * behind it yields next.
 * The clock is x86-64's time-stamp counter (9.5 ns a read here, clock_gettime 26 ns, and every
 * progress round of an oversubscribed job reads it), converted with a rate measured once per
 * process; elsewhere CLOCK_MONOTONIC. The counters of all CPUs agree on today's x86 (this
 * kernel uses the TSC as its clocksource); were they skewed, stamps would look stale or from
 * the future and waiters would yield as they did before, never spin wrongly for long. */
#include "core/running.h"

#include <stdint.h>
#include <time.h>

#include "core/state.h"
#include "shm/segment.h"

/* A rank in an MPI wait loop stamps every RUNNING_STAMP_EVERY_NS; a rank that sends without
 * waiting (a broadcast root) at each call. RUNNING_FRESH_NS without a stamp: preempted, asleep
 * or outside MPI. (700 ns and 2 us measured alike on the whole; 5 us made a waiter spin through
 * its partner's preemption: 4-rank barrier 4.1 -> 13.9 us.) */
enum { RUNNING_FRESH_NS = 1000, RUNNING_STAMP_EVERY_NS = 200 };

static int awaited = -1;
static uint64_t last_stamp, fresh_ticks, stamp_every_ticks;

static uint64_t clock_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

#if defined(__x86_64__)
static uint64_t ticks(void)
{
    return __builtin_ia32_rdtsc();
}

/* Counter ticks per microsecond, from 100 us of both clocks (once per process). */
static double ticks_per_us(void)
{
    uint64_t t0 = ticks(), n0 = clock_ns(), n1;
    while ((n1 = clock_ns()) - n0 < 100000)
        ;
    return (double)(ticks() - t0) / ((double)(n1 - n0) / 1000.0);
}
#else
static uint64_t ticks(void)
{
    return clock_ns();
}

static double ticks_per_us(void)
{
    return 1000.0;
}
#endif

static void calibrate(void)
{
    double rate = ticks_per_us();
    fresh_ticks = (uint64_t)(rate * RUNNING_FRESH_NS / 1000.0);
    stamp_every_ticks = (uint64_t)(rate * RUNNING_STAMP_EVERY_NS / 1000.0);
    if (!fresh_ticks)
        fresh_ticks = 1;
}

void core_running_beat(void)
{
    if (!nodempi.segment)
        return;
    if (!fresh_ticks)
        calibrate();
    uint64_t now = ticks();
    if (now - last_stamp < stamp_every_ticks)
        return; /* fewer stores to a line other cores read */
    last_stamp = now;
    struct shm_rank_block *me = shm_rank_block(nodempi.segment, nodempi.world_rank);
    /* relaxed: a hint; a stale or early value costs a few spin rounds or one yield */
    atomic_store_explicit(&me->running_ticks, now, memory_order_relaxed);
}

void core_running_await(int world_rank)
{
    awaited = world_rank;
}

int core_running_awaited_runs(void)
{
    if (awaited < 0 || awaited >= nodempi.world_size || awaited == nodempi.world_rank ||
        !nodempi.segment || !fresh_ticks)
        return 0;
    struct shm_rank_block *other = shm_rank_block(nodempi.segment, awaited);
    /* relaxed: see core_running_beat */
    uint64_t stamp = atomic_load_explicit(&other->running_ticks, memory_order_relaxed);
    return ticks() - stamp < fresh_ticks; /* (a stamp from the future wraps: not running) */
}
