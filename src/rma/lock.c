/* lock.c - the ticket reader/writer lock, the lock_all word and the accumulate mutex of lock.h.
 * Pure atomics on shared memory: no waiting, no MPI objects; the memory-ordering argument is
 * in lock.h. */
#include "rma/lock.h"

#define FIELD_WRITE 0
#define FIELD_READ 16
#define FIELD_USERS 48

static uint16_t field(uint64_t word, int shift)
{
    return (uint16_t)(word >> shift);
}

/* The word with the 16-bit fields at the given shifts each incremented (mod 2^16). */
static uint64_t bump(uint64_t word, int bump_read, int bump_write)
{
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
                        memory_order order)
{
    uint64_t old = atomic_load_explicit(word, memory_order_relaxed);
    while (!atomic_compare_exchange_weak_explicit(word, &old, bump(old, bump_read, bump_write),
                                                  order, memory_order_relaxed)) {
    }
}

uint16_t rma_rwlock_arrive(_Atomic uint64_t *word)
{
    uint64_t old = atomic_fetch_add_explicit(word, 1ull << FIELD_USERS, memory_order_relaxed);
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
    bump_fields(word, 1, 0, memory_order_relaxed);
    return 1;
}

void rma_rwlock_reader_release(_Atomic uint64_t *word)
{
    bump_fields(word, 0, 1, memory_order_release);
}

void rma_rwlock_writer_release(_Atomic uint64_t *word)
{
    bump_fields(word, 1, 1, memory_order_release);
}

int rma_rwlock_idle(_Atomic uint64_t *word)
{
    uint64_t w = atomic_load_explicit(word, memory_order_acquire);
    return field(w, FIELD_WRITE) == field(w, FIELD_USERS) &&
           field(w, FIELD_READ) == field(w, FIELD_USERS);
}

/* ---- lock_all ----------------------------------------------------------------------------- */

static uint32_t exclusive_count(uint64_t word)
{
    return (uint32_t)(word >> 32);
}

static uint32_t all_count(uint64_t word)
{
    return (uint32_t)word;
}

int rma_lockall_try(_Atomic uint64_t *word)
{
    /* acquire: pairs with the release of the last exclusive holder's leave */
    uint64_t old = atomic_fetch_add_explicit(word, RMA_ALL_ONE, memory_order_acquire);
    if (exclusive_count(old) == 0)
        return 1;
    atomic_fetch_sub_explicit(word, RMA_ALL_ONE, memory_order_relaxed);
    return 0;
}

int rma_lockall_may_retry(_Atomic uint64_t *word)
{
    return exclusive_count(atomic_load_explicit(word, memory_order_relaxed)) == 0;
}

void rma_lockall_release(_Atomic uint64_t *word)
{
    atomic_fetch_sub_explicit(word, RMA_ALL_ONE, memory_order_release);
}

void rma_exclusive_announce(_Atomic uint64_t *word)
{
    /* relaxed: this and rma_lockall_try's fetch_add are RMWs on one word, so one of them
     * comes second and sees the other's count (the lock_all arrival backs off, or our
     * rma_exclusive_ready waits); the acquire loads that follow order the data. */
    atomic_fetch_add_explicit(word, RMA_EXCL_ONE, memory_order_relaxed);
}

int rma_exclusive_ready(_Atomic uint64_t *word)
{
    /* acquire: pairs with the release of the last lock_all holder */
    return all_count(atomic_load_explicit(word, memory_order_acquire)) == 0;
}

void rma_exclusive_leave(_Atomic uint64_t *word)
{
    atomic_fetch_sub_explicit(word, RMA_EXCL_ONE, memory_order_release);
}

/* ---- mutex -------------------------------------------------------------------------------- */

uint32_t rma_mutex_arrive(struct rma_mutex *mutex)
{
    /* seq_cst, not relaxed: this RMW is the bulk updater's "store" in the Dekker exchange
     * with element-atomic updaters (accumulate.c), which needs both sides' store and
     * following load in the single total order (x86-64: lock xadd either way). */
    return atomic_fetch_add_explicit(&mutex->next, 1, memory_order_seq_cst);
}

int rma_mutex_ready(struct rma_mutex *mutex, uint32_t ticket)
{
    return atomic_load_explicit(&mutex->serving, memory_order_acquire) == ticket;
}

int rma_mutex_idle(struct rma_mutex *mutex)
{
    /* `serving` first: both counters only grow and serving <= next, so if next read later
     * equals the serving read earlier, they were equal at the moment next was read (reading
     * next first could pair an old next with a newer serving and see a held mutex idle).
     * acquire on serving: a holder's updates are visible once its release is seen. */
    uint32_t serving = atomic_load_explicit(&mutex->serving, memory_order_acquire);
    return atomic_load_explicit(&mutex->next, memory_order_seq_cst) == serving;
}

void rma_mutex_release(struct rma_mutex *mutex)
{
    /* only the holder writes `serving`: a plain increment published with release */
    uint32_t now = atomic_load_explicit(&mutex->serving, memory_order_relaxed);
    atomic_store_explicit(&mutex->serving, now + 1, memory_order_release);
}
