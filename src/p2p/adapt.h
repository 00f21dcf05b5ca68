/* adapt.h - the single-copy / pipelined-copy choice learnt from the pair's own transfers
 * (issue 5 item 3: thresholds calibrated by measuring). See adapt.c. */
#ifndef NODEMPI_P2P_ADAPT_H
#define NODEMPI_P2P_ADAPT_H

#include <stddef.h>
#include <stdint.h>

#include "p2p/policy.h"

/* Size classes by power of two from 8 KiB (P2P_ADAPT_MIN_BYTES, the smallest rendezvous size
 * where both copies are worth comparing) to 512 KiB-1 MiB. Larger messages keep the single
 * copy: measured, learning there cost windowed 4 MiB bandwidth 0.52-0.70x (bench/effects
 * copy_adapt_bw) and never won. */
enum {
    P2P_ADAPT_MIN_SHIFT = 13,
    P2P_ADAPT_CLASSES = 7,
    P2P_ADAPT_MIN_BYTES = 1 << P2P_ADAPT_MIN_SHIFT,
    P2P_ADAPT_MAX_BYTES = P2P_ADAPT_MIN_BYTES << P2P_ADAPT_CLASSES, /* exclusive */
};

/* What a receiver knows about one size class of one sending peer, per rendezvous protocol. */
struct p2p_adapt_class {
    uint64_t cost[2];        /* best ns per KiB seen since refreshed_at (0 = never measured) */
    uint64_t refreshed_at[2]; /* when cost[] was last replaced by a new sample */
    uint64_t explore_at;     /* not before this time is the losing protocol tried again */
    int explore_left;        /* messages of the current try still to send with the loser */
    int leader;              /* slot of the protocol in use (0 = CMA, 1 = pipeline) */
    int samples[2];          /* samples taken, counted up to adapt.c's WARM_SAMPLES + 1 */
    unsigned uses;           /* choices made for the leader (one in TIME_EVERY is timed) */
};

struct p2p_adapt {
    struct p2p_adapt_class cls[P2P_ADAPT_CLASSES];
};

uint64_t p2p_adapt_now_ns(void);

static inline int p2p_adapt_applies(size_t size)
{
    return size >= P2P_ADAPT_MIN_BYTES && size < P2P_ADAPT_MAX_BYTES;
}

/* The copy to use for a matched rendezvous message of size bytes that the static threshold
 * would move with planned (CMA or pipeline); *started is the time to record it from, or 0
 * when this transfer is not timed. */
enum p2p_protocol p2p_adapt_choose(struct p2p_adapt *a, size_t size, enum p2p_protocol planned,
                                   uint64_t *started);

/* A rendezvous receive of size bytes by protocol used took elapsed_ns from match to completion. */
void p2p_adapt_record(struct p2p_adapt *a, size_t size, enum p2p_protocol used,
                      uint64_t elapsed_ns);

#endif
