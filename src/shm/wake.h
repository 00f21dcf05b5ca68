/* wake.h - sleep/wake of a rank on the futex word in its segment block.
 *
 * Memory-ordering argument (the lost-wake-up race): a sleeper stores sleeping = 1, issues a
 * seq_cst fence, reads wake_word, then re-checks its queues and sleeps only if still idle, with
 * FUTEX_WAIT on the value it read. A waker publishes its message (release), issues a seq_cst
 * fence, then reads sleeping; if set, it bumps wake_word and calls FUTEX_WAKE. The two fences
 * order "store sleeping; load queue" against "store queue; load sleeping": at least one side
 * sees the other's store, so either the sleeper finds the message or the waker wakes it, and a
 * bump of wake_word after the sleeper read it makes FUTEX_WAIT return at once. */
#ifndef NODEMPI_SHM_WAKE_H
#define NODEMPI_SHM_WAKE_H

#include <stdint.h>

#include "shm/segment.h"

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

/* Deferred wake-ups. A rank that is about to publish several messages in a row (a collective's
 * round: the root of a flat release or broadcast) opens a batch: the wake-ups its sends need
 * are recorded (the wake word bumped, so a sleeper that has not yet called FUTEX_WAIT returns at
 * once) and the FUTEX_WAKE calls are made when the batch closes. Without it the first woken
 * rank, favoured by the scheduler because it slept, preempts the sender on its core before the
 * other messages are out, and every later receiver waits a time slice more. A rank never waits
 * with wake-ups pending: core_progress_idle flushes them first. Process-wide; under the big
 * lock with MPI_THREAD_MULTIPLE. */
void shm_wake_batch_open(void);
void shm_wake_batch_close(void); /* issues the recorded wake-ups */
void shm_wake_flush(void);       /* the same, without closing (a rank about to wait) */

#endif
