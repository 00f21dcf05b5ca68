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

/* The open batch: depth (batches nest: a round inside a nonblocking collective's poll) and the
 * ranks to wake when it closes. */
enum { WAKE_BATCH_MAX = 64 };
static struct {
    int depth;
    int count;
    struct shm_rank_block *peers[WAKE_BATCH_MAX];
} batch;

static void futex_wake(struct shm_rank_block *peer)
{
    syscall(SYS_futex, &peer->wake_word, FUTEX_WAKE, 1, NULL, NULL, 0);
}

void shm_wake_peer_slow(struct shm_rank_block *peer)
{
    /* relaxed: the seq_cst fence in shm_wake_peer orders the message before this bump's
     * observation by the sleeper, which re-reads its queues after reading wake_word */
    atomic_fetch_add_explicit(&peer->wake_word, 1, memory_order_relaxed);
    if (batch.depth == 0) {
        futex_wake(peer);
        return;
    }
    for (int i = 0; i < batch.count; i++)
        if (batch.peers[i] == peer)
            return;
    if (batch.count == WAKE_BATCH_MAX) {
        futex_wake(peer);
        return;
    }
    batch.peers[batch.count++] = peer;
}

void shm_wake_flush(void)
{
    for (int i = 0; i < batch.count; i++)
        futex_wake(batch.peers[i]);
    batch.count = 0;
}

void shm_wake_batch_open(void)
{
    batch.depth++;
}

void shm_wake_batch_close(void)
{
    if (--batch.depth == 0)
        shm_wake_flush();
}
