/* wake.c - futex system calls behind wake.h (see its ordering argument). */
#include "shm/wake.h"

#include <linux/futex.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

uint32_t shm_wake_prepare_sleep(struct shm_rank_block *me)
{
    /* wake_word before the flag: a waker that claims this sleep (shm_wake_peer_slow) read the
     * flag, so its bump comes after this read and FUTEX_WAIT(seen) cannot sleep through it.
     * Read after the flag, the bump of a claim made in between would be in seen, and the
     * wakers after it find the flag cleared: a lost wake-up (tests/unit/shm/test_wake.c, three
     * wakers, ~1 run in 3 before this order). release: orders this read before the flag
     * (pairs with the claim's acquire exchange). */
    uint32_t seen = atomic_load_explicit(&me->wake_word, memory_order_relaxed);
    atomic_store_explicit(&me->sleeping, 1, memory_order_release);
    atomic_thread_fence(memory_order_seq_cst);
    return seen;
}

void shm_wake_sleep(struct shm_rank_block *me, uint32_t seen, long timeout_ns)
{
    struct timespec timeout = {timeout_ns / 1000000000L, timeout_ns % 1000000000L};
    /* Shared futex (no FUTEX_PRIVATE_FLAG): waker and sleeper are different processes. */
    syscall(SYS_futex, &me->wake_word, FUTEX_WAIT, seen, &timeout, NULL, 0);
}

void shm_wake_end_sleep(struct shm_rank_block *me)
{
    atomic_store_explicit(&me->sleeping, 0, memory_order_relaxed);
}

/* relaxed: a statistic (MPI_T's nodempi_shm_futex_wakes), ordered with nothing */
_Atomic unsigned long long shm_futex_wakes;

void shm_wake_peer_slow(struct shm_rank_block *peer)
{
    /* Only the waker that turns sleeping from 1 to 0 makes the system call: the sleeper stays
     * flagged until it runs again, which with more ranks than cores can be a time slice later,
     * and every message sent to it meanwhile paid a FUTEX_WAKE of its own (8 ranks on 2
     * cores, back-to-back 4-byte MPI_Scatter: docs/benchmarks.md "Session 18"). The sleeper
     * is woken once and then looks at all its queues, the later senders' messages included:
     * they were published before those senders' fences, so a sleeper that sleeps again
     * (flag 1, its own fence, a last look) finds them. acquire: the sleeper's read of
     * wake_word (before its release of the flag) happens before our bump below. */
    if (!atomic_exchange_explicit(&peer->sleeping, 0, memory_order_acquire))
        return;
    atomic_fetch_add_explicit(&shm_futex_wakes, 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&peer->wake_word, 1, memory_order_relaxed);
    syscall(SYS_futex, &peer->wake_word, FUTEX_WAKE, 1, NULL, NULL, 0);
}
