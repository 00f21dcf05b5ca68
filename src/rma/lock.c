/* lock.c - the ticket reader/writer lock and the lock_all word of lock.h (the accumulate
 * mutex is inline there). Pure atomics on shared memory: no waiting, no MPI objects; the
 * memory-ordering argument is in lock.h. */
#include "rma/lock.h"

#define FIELD_WRITE 0
#define FIELD_READ 16
#define FIELD_WRITERS 32
#define FIELD_USERS 48

static uint16_t field(uint64_t word, int shift)
{
    return (uint16_t)(word >> shift);
}

/* The word with read and/or write incremented (mod 2^16), and for a writer's release one
 * writer less (the field counts holders and waiters, so it is >= 1 here and cannot borrow). */
static uint64_t bump(uint64_t word, int bump_read, int bump_write, int writer_leaves)
{
    if (writer_leaves)
        word -= 1ull << FIELD_WRITERS;
    if (bump_read) {
        uint64_t r = (uint64_t)(uint16_t)(field(word, FIELD_READ) + 1);
        word = (word & ~(0xffffull << FIELD_READ)) | (r << FIELD_READ);
    }
    if (bump_write) {
        uint64_t w = (uint64_t)(uint16_t)(field(word, FIELD_WRITE) + 1);
        word = (word & ~(0xffffull << FIELD_WRITE)) | (w << FIELD_WRITE);
    }
    return word;
}

static void bump_fields(_Atomic uint64_t *word, int bump_read, int bump_write,
                        int writer_leaves, memory_order order)
{
    uint64_t old = atomic_load_explicit(word, memory_order_relaxed);
    while (!atomic_compare_exchange_weak_explicit(
        word, &old, bump(old, bump_read, bump_write, writer_leaves), order,
        memory_order_relaxed)) {
    }
}

uint16_t rma_rwlock_arrive(_Atomic uint64_t *word)
{
    uint64_t old = atomic_fetch_add_explicit(word, 1ull << FIELD_USERS, memory_order_relaxed);
    return field(old, FIELD_USERS);
}

uint16_t rma_rwlock_writer_arrive(_Atomic uint64_t *word)
{
    /* seq_cst: this RMW is the exclusive locker's announcement in the Dekker exchange with
     * lock_all arrivals (lock.h); lock xadd on x86-64 whatever the order */
    uint64_t old = atomic_fetch_add_explicit(
        word, (1ull << FIELD_USERS) | (1ull << FIELD_WRITERS), memory_order_seq_cst);
    return field(old, FIELD_USERS);
}

int rma_rwlock_writer_ready(_Atomic uint64_t *word, uint16_t ticket)
{
    return field(atomic_load_explicit(word, memory_order_acquire), FIELD_WRITE) == ticket;
}

int rma_rwlock_reader_try_enter(_Atomic uint64_t *word, uint16_t ticket)
{
    if (field(atomic_load_explicit(word, memory_order_acquire), FIELD_READ) != ticket)
        return 0;
    /* Only the reader whose turn it is changes `read` now (writers bump it on release only,
     * and the writer before us has released): let the next ticket read too. */
    bump_fields(word, 1, 0, 0, memory_order_relaxed);
    return 1;
}

void rma_rwlock_reader_release(_Atomic uint64_t *word)
{
    bump_fields(word, 0, 1, 0, memory_order_release);
}

void rma_rwlock_writer_release(_Atomic uint64_t *word)
{
    bump_fields(word, 1, 1, 1, memory_order_release);
}

int rma_rwlock_idle(_Atomic uint64_t *word)
{
    uint64_t w = atomic_load_explicit(word, memory_order_acquire);
    return field(w, FIELD_WRITE) == field(w, FIELD_USERS) &&
           field(w, FIELD_READ) == field(w, FIELD_USERS) && field(w, FIELD_WRITERS) == 0;
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
        if (field(atomic_load_explicit(word_at(words, i), memory_order_seq_cst), FIELD_WRITERS))
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

int rma_exclusive_ready(_Atomic uint64_t *all)
{
    /* seq_cst: the Dekker load after rma_rwlock_writer_arrive's RMW; also acquire, pairing
     * with the release of the last lock_all holder */
    return atomic_load_explicit(all, memory_order_seq_cst) == 0;
}
