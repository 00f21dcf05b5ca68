/* lock.h - the lock words of a window, as pure algorithms on atomics in shared memory (no
 * waiting here: callers poll the *_ready functions from their own wait loop, so the same code
 * runs under the progress engine and in the unit stress test).
 *
 * Per target, one 64-bit ticket reader/writer lock (fair, FIFO, and needs no target progress:
 * seed 004 ch. 4 does exclusive locks with one remote compare-and-swap; a ticket lock gives
 * shared mode the same one-sided property). Fields of the word:
 *   bits  0-15  write    tickets allowed to write: +1 by every release (reader or writer)
 *   bits 16-31  read     tickets allowed to read:  +1 by every admitted reader and writer release
 *   bits 32-47  writers  exclusive lockers that took a ticket and have not released
 *   bits 48-63  users    next ticket: fetch_add at the top of the word, so its carry falls off
 * A writer with ticket t owns the lock when write == t (every earlier ticket released); a
 * reader when read == t (every earlier writer released), and then lets the next reader in.
 * read and write change by CAS so a wrap at 2^16 never carries into a neighbour; up to 65535
 * lockers may wait on one target at once.
 *
 * Per window, one lock_all word counting lock_all epochs (shared on every target). lock_all is
 * one epoch, not p locks: a lock_all holder only conflicts with exclusive locks, so they meet
 * Dekker-style: an exclusive locker announces itself in its target's word with the same RMW
 * that takes its ticket (the writers field), and once its turn has come waits until the
 * lock_all count is zero; a lock_all arrival adds itself to the count and then reads every
 * target's word, backing off (and waiting until no target has writers) if one has any. Both
 * RMWs and the loads after them are seq_cst, so at least one side sees the other. No cycle:
 * an announced exclusive locker waits only for its ticket and for lock_all holders, which
 * wait for nothing. An exclusive lock/unlock thus touches only its target's word, one RMW
 * each way; lock_all pays p loads instead.
 *
 * Memory ordering: reader arrivals are relaxed (they only reserve a place), a writer's is
 * seq_cst (it is also the announcement above); the loads that see "my turn" are acquire and
 * every release is a release RMW, so the critical sections of consecutive holders are ordered. Readers admitting the next reader use a relaxed RMW: all
 * updates of the word are RMWs, so they continue the release sequence of the last writer's
 * release and the next reader's acquire load still synchronizes with that writer. */
#ifndef NODEMPI_RMA_LOCK_H
#define NODEMPI_RMA_LOCK_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

/* ---- the word's fields, and the exclusive locker's side (inline: every exclusive lock and
 * unlock runs them) --------------------------------------------------------------------- */

enum { RMA_RW_WRITE = 0, RMA_RW_READ = 16, RMA_RW_WRITERS = 32, RMA_RW_USERS = 48 };

static inline uint16_t rma_rwlock_field(uint64_t word, int shift)
{
    return (uint16_t)(word >> shift);
}

/* The word with read and/or write incremented (mod 2^16), and for a writer's release one
 * writer less (the field counts holders and waiters, so it is >= 1 here and cannot borrow). */
static inline uint64_t rma_rwlock_bump(uint64_t word, int bump_read, int bump_write,
                                       int writer_leaves)
{
    if (writer_leaves)
        word -= 1ull << RMA_RW_WRITERS;
    if (bump_read) {
        uint64_t r = (uint64_t)(uint16_t)(rma_rwlock_field(word, RMA_RW_READ) + 1);
        word = (word & ~(0xffffull << RMA_RW_READ)) | (r << RMA_RW_READ);
    }
    if (bump_write) {
        uint64_t w = (uint64_t)(uint16_t)(rma_rwlock_field(word, RMA_RW_WRITE) + 1);
        word = (word & ~(0xffffull << RMA_RW_WRITE)) | (w << RMA_RW_WRITE);
    }
    return word;
}

static inline void rma_rwlock_bump_fields(_Atomic uint64_t *word, int bump_read,
                                          int bump_write, int writer_leaves,
                                          memory_order order)
{
    uint64_t old = atomic_load_explicit(word, memory_order_relaxed);
    while (!atomic_compare_exchange_weak_explicit(
        word, &old, rma_rwlock_bump(old, bump_read, bump_write, writer_leaves), order,
        memory_order_relaxed)) {
    }
}

/* A writer's ticket; the seq_cst RMW also announces it to lock_all arrivals (above). */
static inline uint16_t rma_rwlock_writer_arrive(_Atomic uint64_t *word)
{
    uint64_t old = atomic_fetch_add_explicit(
        word, (1ull << RMA_RW_USERS) | (1ull << RMA_RW_WRITERS), memory_order_seq_cst);
    return rma_rwlock_field(old, RMA_RW_USERS);
}

static inline int rma_rwlock_writer_ready(_Atomic uint64_t *word, uint16_t ticket)
{
    return rma_rwlock_field(atomic_load_explicit(word, memory_order_acquire), RMA_RW_WRITE) ==
           ticket;
}

static inline void rma_rwlock_writer_release(_Atomic uint64_t *word)
{
    rma_rwlock_bump_fields(word, 1, 1, 1, memory_order_release);
}

/* Exclusive lockers, once writer_ready: wait until this holds (no lock_all epoch). seq_cst:
 * the Dekker load after writer_arrive's RMW; also acquire, pairing with the release of the
 * last lock_all holder. */
static inline int rma_exclusive_ready(_Atomic uint64_t *all)
{
    return atomic_load_explicit(all, memory_order_seq_cst) == 0;
}

/* ---- per-target reader/writer ticket lock ------------------------------------------------ */

/* Readers take a ticket with rma_rwlock_arrive, writers (exclusive lockers) with
 * rma_rwlock_writer_arrive, which also counts them in the writers field. */
uint16_t rma_rwlock_arrive(_Atomic uint64_t *word);
/* A reader whose turn it is (returns 1) has been admitted and has let the next reader in. */
int rma_rwlock_reader_try_enter(_Atomic uint64_t *word, uint16_t ticket);
void rma_rwlock_reader_release(_Atomic uint64_t *word);
/* Nobody holds or waits for the lock (a test and debugging aid). */
int rma_rwlock_idle(_Atomic uint64_t *word);

/* ---- lock_all word ------------------------------------------------------------------------ */

/* The targets' lock words as lock_all sees them: n words, `stride` bytes apart. */
struct rma_lock_words {
    _Atomic uint64_t *first;
    size_t stride;
    int n;
};

/* lock_all: 1 when the epoch is open; 0 means an exclusive locker is announced on some
 * target, wait for rma_lockall_may_retry and try again. */
int rma_lockall_try(_Atomic uint64_t *all, const struct rma_lock_words *words);
int rma_lockall_may_retry(const struct rma_lock_words *words);
void rma_lockall_release(_Atomic uint64_t *all);

/* ---- per-target mutex (accumulates that are not single hardware atomics) ---------------- */

struct rma_mutex {
    _Atomic uint32_t next;     /* ticket dispenser */
    _Atomic uint32_t serving;  /* ticket that owns the mutex */
};

/* The mutex functions are inline: every bulk accumulate and every element atomic (the idle
 * check) runs them, and each is one or two instructions. */

/* Arrival: seq_cst, not relaxed: besides reserving a place, this RMW is the bulk updater's
 * "store" in the Dekker exchange with element-atomic updaters (accumulate.c), which needs
 * both sides' store and following load in the single total order (x86-64: lock xadd either
 * way). */
static inline uint32_t rma_mutex_arrive(struct rma_mutex *mutex)
{
    return atomic_fetch_add_explicit(&mutex->next, 1, memory_order_seq_cst);
}

static inline int rma_mutex_ready(struct rma_mutex *mutex, uint32_t ticket)
{
    return atomic_load_explicit(&mutex->serving, memory_order_acquire) == ticket;
}

/* Nobody holds or waits for the mutex. `serving` first: both counters only grow and
 * serving <= next, so if next read later equals the serving read earlier, they were equal
 * at the moment next was read (reading next first could pair an old next with a newer
 * serving and see a held mutex idle). The load of `next` is seq_cst: the Dekker load;
 * acquire on serving: a holder's updates are visible once its release is seen. */
static inline int rma_mutex_idle(struct rma_mutex *mutex)
{
    uint32_t serving = atomic_load_explicit(&mutex->serving, memory_order_acquire);
    return atomic_load_explicit(&mutex->next, memory_order_seq_cst) == serving;
}

/* Only the holder writes `serving`: a plain increment published with release. */
static inline void rma_mutex_release(struct rma_mutex *mutex)
{
    uint32_t now = atomic_load_explicit(&mutex->serving, memory_order_relaxed);
    atomic_store_explicit(&mutex->serving, now + 1, memory_order_release);
}

#endif
