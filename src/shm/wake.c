/* wake.c - futex system calls behind wake.h (see its ordering argument). */
#include "shm/wake.h"

#include <linux/futex.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

uint32_t shm_wake_prepare_sleep(struct shm_rank_block *me)
{
    atomic_store_explicit(&me->sleeping, 1, memory_order_relaxed);
    atomic_thread_fence(memory_order_seq_cst);
    return atomic_load_explicit(&me->wake_word, memory_order_relaxed);
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

void shm_wake_peer_slow(struct shm_rank_block *peer)
{
    atomic_fetch_add_explicit(&peer->wake_word, 1, memory_order_relaxed);
    syscall(SYS_futex, &peer->wake_word, FUTEX_WAKE, 1, NULL, NULL, 0);
}
