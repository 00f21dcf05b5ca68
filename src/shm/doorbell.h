/* doorbell.h - the doorbell bitmap of the hybrid queue design: one bit per sender in each rank's
 * receiving area meaning "my pair ring to you may hold records", so the receiver serves only
 * rings whose bit is set instead of polling p - 1 rings (seed 000 ch. 6: polling cost).
 *
 * Memory-ordering argument (no lost doorbell). Sender: publish the record (release store of its
 * stamp), seq_cst fence, load its bit, and set it (RMW) only if clear. Receiver: exchange a word
 * to 0, seq_cst fence, then drain the rings named in it until each looks empty. If the sender's
 * fence comes first in the fences' total order, the receiver's drain (after its own fence) sees
 * the record; otherwise the sender's load (after its fence) sees the cleared bit and sets it
 * again, and the receiver finds it on its next poll. The sender's fence also serves the wake-up
 * check of wake.h (shm_wake_peer_after_fence), so ringing costs a load, rarely an RMW. */
#ifndef NODEMPI_SHM_DOORBELL_H
#define NODEMPI_SHM_DOORBELL_H

#include <stdatomic.h>
#include <stdint.h>

#include "shm/segment.h"

/* The doorbell words of rank owner, and its table of "inbox records before the ring opened". */
static inline _Atomic uint64_t *shm_doorbells(struct shm_header *seg, int owner)
{
    struct shm_area_layout layout;
    shm_area_layout((int)seg->nranks, seg->inbox_data_bytes, &layout);
    return (_Atomic uint64_t *)(shm_area(seg, owner) + layout.doorbells);
}

static inline _Atomic uint64_t *shm_opened_table(struct shm_header *seg, int owner)
{
    struct shm_area_layout layout;
    shm_area_layout((int)seg->nranks, seg->inbox_data_bytes, &layout);
    return (_Atomic uint64_t *)(shm_area(seg, owner) + layout.opened);
}

/* Sender side: call after the publishing store and a seq_cst fence. */
static inline void shm_doorbell_ring(_Atomic uint64_t *doorbells, int sender)
{
    _Atomic uint64_t *word = &doorbells[sender / 64];
    uint64_t bit = 1ull << (sender % 64);
    if (!(atomic_load_explicit(word, memory_order_relaxed) & bit))
        atomic_fetch_or_explicit(word, bit, memory_order_relaxed);
}

/* Receiver side: the bits of word i, cleared; the fence orders the clearing before the caller's
 * reads of the rings. Returns 0 without an RMW when no bit is set. */
static inline uint64_t shm_doorbell_take(_Atomic uint64_t *doorbells, int i)
{
    if (!atomic_load_explicit(&doorbells[i], memory_order_relaxed))
        return 0;
    uint64_t bits = atomic_exchange_explicit(&doorbells[i], 0, memory_order_relaxed);
    atomic_thread_fence(memory_order_seq_cst);
    return bits;
}

#endif
