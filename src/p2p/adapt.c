/* adapt.c - which copy a rendezvous message takes, learnt per pair and size class from the
 * pair's own transfers. Why: on this machine the two protocols swap places at run time. The
 * kernel's single copy (process_vm_readv) moves 13.4 GB/s at most (4 MiB, hot buffers,
 * huge pages or not) against 49 GB/s for memcpy, so the two-copy pipeline, whose two
 * memcpys run on both cores at once, wins whenever the cores hand lines over quickly, and
 * loses when the host puts the vCPUs far apart (one-way line transfer 25 ns vs 155-165 ns,
 * flipping over seconds to minutes). Measured 2026-11-22, 2 ranks, `chrt -f 10`, ping-pong
 * 64 KiB: single copy 5.5 us in both placements, pipeline 3.1 us close and 8.3 us far (Open
 * MPI 6.3-7.0). No fixed threshold is right, so the receiver learns it (bench/effects
 * copy_adapt: close 64-256 KiB 1.24-1.28x faster than the fixed 64 KiB threshold, far
 * 16-32 KiB 1.13x).
 *
 * The receiver chooses: a sender that lets adaptation run always describes its buffer in the
 * RTS, and at match time the receiver either pulls it (single copy) or answers CTS (pipeline).
 * It times each such receive from the match to completion and keeps, per protocol, the best
 * cost per KiB since that estimate was last refreshed; a new sample replaces the estimate when
 * it is lower or when the estimate is older than ESTIMATE_AGE_NS (so a slower placement is
 * noticed). The cheaper protocol is used; the other is tried again (a burst of EXPLORE_BURST
 * messages: the first ones after a while meet cold lines and ring slots) once explore_at has
 * passed, and explore_at is set so that trying costs ~1% of the time (a loser that costs much
 * more is tried more rarely). Timing at the receiver covers the whole transfer for both
 * protocols (a sender's view ends before the receiver's last copy-out). A sender that is late
 * to answer CTS inflates the pipeline's samples, rightly: the single copy does not need it.
 * Keeping the minimum makes the estimate the transfer itself. Everything here is per process
 * and touched only by the receiving rank: no atomics. */
#include "p2p/adapt.h"

#include <time.h>

/* Estimates live 20 ms: the placement moves over seconds, a benchmark point lasts 0.1 s. */
static const uint64_t ESTIMATE_AGE_NS = 20000000;
/* The loser is tried again after at least 50 ms, and after 100x the time its last try lost. */
static const uint64_t EXPLORE_MIN_NS = 50000000;
enum { EXPLORE_COST_FACTOR = 100, EXPLORE_BURST = 8, TIME_EVERY = 4 };
/* The first transfers of a size meet page faults and cold caches (a first 1 MiB
 * MPI_Allgather took 1.2 ms, the next ones 0.1-0.2 ms; the first four 16 KiB pipelined
 * receives 20-29 us, the next 1.4-3.3 us): each protocol's first samples are dropped. */
enum { WARM_SAMPLES = 4 };

uint64_t p2p_adapt_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static struct p2p_adapt_class *class_of(struct p2p_adapt *a, size_t size)
{
    int c = 0;
    for (size_t s = size >> P2P_ADAPT_MIN_SHIFT; s > 1 && c < P2P_ADAPT_CLASSES - 1; s >>= 1)
        c++;
    return &a->cls[c];
}

static int slot(enum p2p_protocol p)
{
    return p == P2P_PROTOCOL_RNDV_CMA ? 0 : 1;
}

static enum p2p_protocol protocol_of(int s)
{
    return s == 0 ? P2P_PROTOCOL_RNDV_CMA : P2P_PROTOCOL_RNDV_PIPELINE;
}

/* Tries start on multiples of EXPLORE_MIN_NS of the node-wide monotonic clock, so that ranks
 * receiving from each other try the other copy at the same time: one rank's receive time also
 * depends on what the other is doing meanwhile. */
static uint64_t aligned(uint64_t t)
{
    return (t / EXPLORE_MIN_NS + 1) * EXPLORE_MIN_NS;
}

/* The cheaper protocol; the current leader keeps its place unless the other is 5% cheaper
 * (noise in two samples must not flip the choice back and forth). */
static int cheaper(const struct p2p_adapt_class *c, int leader)
{
    uint64_t mine = c->cost[leader], other = c->cost[1 - leader];
    return other * 20 < mine * 19 ? 1 - leader : leader;
}

enum p2p_protocol p2p_adapt_choose(struct p2p_adapt *a, size_t size, enum p2p_protocol planned,
                                   uint64_t *started)
{
    *started = 0;
    if (!p2p_adapt_applies(size))
        return planned;
    struct p2p_adapt_class *c = class_of(a, size);
    int mine = slot(planned);
    if (c->samples[mine] <= WARM_SAMPLES) { /* the static choice is measured first, warm */
        *started = p2p_adapt_now_ns();
        return planned;
    }
    int best = c->cost[1 - mine] ? c->leader : mine;
    if (c->explore_left > 0) {
        c->explore_left--;
        *started = p2p_adapt_now_ns();
        return protocol_of(1 - best);
    }
    /* The leader is timed (and the clock read) one message in TIME_EVERY: two clock reads per
     * message cost 16-32 KiB ping-pongs 5-7% with the vCPUs close. */
    if (c->uses++ % TIME_EVERY != 0)
        return protocol_of(best);
    uint64_t now = p2p_adapt_now_ns();
    *started = now;
    if (now >= c->explore_at) {
        /* A few messages try the other protocol (not a whole window of them), since the
         * first one after a while meets cold lines; their samples reschedule the next try
         * in p2p_adapt_record. */
        c->explore_at = aligned(now + EXPLORE_MIN_NS);
        c->explore_left = EXPLORE_BURST - 1;
        return protocol_of(1 - best);
    }
    return protocol_of(best);
}

void p2p_adapt_record(struct p2p_adapt *a, size_t size, enum p2p_protocol used,
                      uint64_t elapsed_ns)
{
    if (!p2p_adapt_applies(size))
        return;
    struct p2p_adapt_class *c = class_of(a, size);
    int s = slot(used);
    uint64_t now = p2p_adapt_now_ns();
    uint64_t cost = elapsed_ns * 1024 / size + 1; /* + 1: 0 means "never measured" */
    if (c->samples[s] <= WARM_SAMPLES) { /* a cold transfer says nothing of the next ones */
        c->samples[s]++;
        return;
    }
    if (!c->cost[s] || cost < c->cost[s] || now - c->refreshed_at[s] > ESTIMATE_AGE_NS) {
        c->cost[s] = cost;
        c->refreshed_at[s] = now;
    }
    if (!c->cost[1 - s]) { /* the first protocol measured leads until the other is */
        c->leader = s;
        return;
    }
    int best_before = c->leader;
    int best = c->leader = cheaper(c, c->leader);
    /* A sample of the losing protocol (an exploration) or a new leader: the next try of the
     * loser comes when it costs ~1% of the time spent meanwhile. */
    if (best != best_before)
        c->explore_left = 0; /* the rest of a try would now go to the old leader */
    if (s != best || best != best_before) {
        uint64_t loser = c->cost[1 - best], winner = c->cost[best];
        uint64_t lost_by = loser > winner ? (loser - winner) * size / 1024 : 0;
        uint64_t wait = lost_by * EXPLORE_BURST * EXPLORE_COST_FACTOR;
        c->explore_at = aligned(now + (wait > EXPLORE_MIN_NS ? wait : EXPLORE_MIN_NS));
    }
}
