/* lock.c - the ticket reader/writer lock and the lock_all word of lock.h (the accumulate
 * mutex is inline there). Pure atomics on shared memory: no waiting, no MPI objects; the
 * memory-ordering argument is in lock.h. */
#include "rma/lock.h"

uint16_t rma_rwlock_arrive(_Atomic uint64_t *word)
{
    uint64_t old = atomic_fetch_add_explicit(word, 1ull << RMA_RW_USERS, memory_order_relaxed);
    return rma_rwlock_field(old, RMA_RW_USERS);
}



int rma_rwlock_reader_try_enter(_Atomic uint64_t *word, uint16_t ticket)
{
    if (rma_rwlock_field(atomic_load_explicit(word, memory_order_acquire), RMA_RW_READ) != ticket)
        return 0;
    /* Only the reader whose turn it is changes `read` now (writers bump it on release only,
     * and the writer before us has released): let the next ticket read too. */
    rma_rwlock_bump_fields(word, 1, 0, 0, memory_order_relaxed);
    return 1;
}

void rma_rwlock_reader_release(_Atomic uint64_t *word)
{
    rma_rwlock_bump_fields(word, 0, 1, 0, memory_order_release);
}


int rma_rwlock_idle(_Atomic uint64_t *word)
{
    uint64_t w = atomic_load_explicit(word, memory_order_acquire);
    return rma_rwlock_field(w, RMA_RW_WRITE) == rma_rwlock_field(w, RMA_RW_USERS) &&
           rma_rwlock_field(w, RMA_RW_READ) == rma_rwlock_field(w, RMA_RW_USERS) && rma_rwlock_field(w, RMA_RW_WRITERS) == 0;
}

/* ---- lock_all ----------------------------------------------------------------------------- */

static _Atomic uint64_t *word_at(const struct rma_lock_words *words, int i)
{
    return (_Atomic uint64_t *)((char *)words->first + (size_t)i * words->stride);
}

int rma_lockall_may_retry(const struct rma_lock_words *words)
{
    /* seq_cst loads: after rma_lockall_try's RMW they are the Dekker loads (lock.h) */
    for (int i = 0; i < words->n; i++)
        if (rma_rwlock_field(atomic_load_explicit(word_at(words, i), memory_order_seq_cst), RMA_RW_WRITERS))
            return 0;
    return 1;
}

int rma_lockall_try(_Atomic uint64_t *all, const struct rma_lock_words *words)
{
    /* seq_cst: our announcement (lock.h). The loads of the words that follow are seq_cst,
     * so acquire: seeing the last exclusive holder's release orders its epoch before ours. */
    atomic_fetch_add_explicit(all, 1, memory_order_seq_cst);
    if (rma_lockall_may_retry(words))
        return 1;
    atomic_fetch_sub_explicit(all, 1, memory_order_relaxed);
    return 0;
}

void rma_lockall_release(_Atomic uint64_t *all)
{
    atomic_fetch_sub_explicit(all, 1, memory_order_release);
}

