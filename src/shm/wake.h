/* wake.h - sleep/wake of a rank on the futex word in its segment block.
 *
 * Memory-ordering argument (the lost-wake-up race): a sleeper reads wake_word, stores
 * sleeping = 1, issues a seq_cst fence, then re-checks its queues and sleeps only if still
 * idle, with FUTEX_WAIT on the value it read. A waker publishes its message (release), issues a seq_cst
 * fence, then reads sleeping; if set, it claims the wake-up (exchanges sleeping to 0: one
 * waker per sleep makes the system call), bumps wake_word and calls FUTEX_WAKE. The two fences
 * order "store sleeping; load queue" against "store queue; load sleeping": at least one side
 * sees the other's store, so either the sleeper finds the message or the waker wakes it, and a
 * bump of wake_word after the sleeper read it makes FUTEX_WAIT return at once. */
#ifndef NODEMPI_SHM_WAKE_H
#define NODEMPI_SHM_WAKE_H

#include <stdint.h>

#include "shm/segment.h"

/* FUTEX_WAKE calls this process made (an MPI_T counter). */
extern _Atomic unsigned long long shm_futex_wakes;

/* Sleeper side: announce, then (after re-checking work) sleep. */
uint32_t shm_wake_prepare_sleep(struct shm_rank_block *me);
void shm_wake_sleep(struct shm_rank_block *me, uint32_t seen, long timeout_ns);
void shm_wake_end_sleep(struct shm_rank_block *me);

/* Waker side: call after publishing something the peer may be waiting for. */
static inline void shm_wake_peer(struct shm_rank_block *peer)
{
    atomic_thread_fence(memory_order_seq_cst);
    if (atomic_load_explicit(&peer->sleeping, memory_order_relaxed)) {
        void shm_wake_peer_slow(struct shm_rank_block *peer);
        shm_wake_peer_slow(peer);
    }
}

/* The same, for a waker that has just issued the seq_cst fence itself (a doorbell ring shares
 * it: see doorbell.h). */
static inline void shm_wake_peer_after_fence(struct shm_rank_block *peer)
{
    if (atomic_load_explicit(&peer->sleeping, memory_order_relaxed)) {
        void shm_wake_peer_slow(struct shm_rank_block *peer);
        shm_wake_peer_slow(peer);
    }
}

#endif
