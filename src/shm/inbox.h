/* inbox.h - one multi-producer/single-consumer queue of records per receiving rank: the "one
 * receiving queue" of seed 000 §6.1.1 (queue designs orq and hybrid). Records are the pair
 * ring's (struct shm_record, line-aligned, SKIP pads the wrap) so p2p handles both alike.
 *
 * Reservation. Producers claim [tail, tail + bytes) with a compare-and-swap on the shared tail,
 * after checking against the consumer's head (acquire load, or a private cached copy of an
 * earlier one: head only grows). Claims are ordered by the CAS, so records leave in claim order;
 * a claimed but unpublished record holds back the ones behind it until its producer publishes.
 *
 * Memory-ordering argument. The pair ring's trick (the producer zeroes the next stamp) is wrong
 * with several producers: a slow producer would zero a header a faster one already published.
 * Here the consumer keeps the invariant instead: every cache line of the free space has a zero
 * first word. It zeroes the first word of every line of a record it consumed (record starts are
 * always line starts, payload lines included: a later record may start there) and only then
 * stores head with release. A producer writes into claimed space only after an acquire load of
 * a head that covers it, so those zeroes happen before its writes: the stamp word it is about
 * to publish reads 0 to everyone until its release store of a non-zero stamp (the sender's rank
 * + 1 sits in bits 40-63, so it is never 0). The consumer acquires the stamp at its position,
 * and sees the record once it is non-zero. Zeroing costs the consumer one store per line it has
 * just read, in lines it already owns.
 *
 * Waiting for room. The receiving area's waiters bitmap names producers waiting for room in any
 * queue to this rank (its inbox, or their pair ring to it). A producer that finds its queue full
 * sets its bit (seq_cst RMW), fences, and looks at head once more; the consumer stores head,
 * fences, and reads the bitmap. At least one of them sees the other's store (the argument of
 * wake.h), so a producer either finds the room or is named in the bitmap, and the consumer wakes
 * it -- and only it: a sender asleep for another reason is not disturbed. */
#ifndef NODEMPI_SHM_INBOX_H
#define NODEMPI_SHM_INBOX_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "shm/ring.h"
#include "shm/segment.h"

/* The stamp of an inbox record: bits 40-63 the sender's world rank + 1 (up to 2^24 - 1 ranks),
 * bits 0-39 the record's position / 64 (wraps after 64 TiB; only a debugging aid, readers test
 * the stamp for non-zero). */
#define SHM_INBOX_POSITION_BITS 40
#define SHM_INBOX_STAMP(sender, position)                                                        \
    (((uint64_t)(sender) + 1) << SHM_INBOX_POSITION_BITS |                                       \
     (((position) / SHM_CACHE_LINE) & ((1ull << SHM_INBOX_POSITION_BITS) - 1)))

static inline int shm_inbox_sender(const struct shm_record *rec)
{
    uint64_t stamp = atomic_load_explicit(&rec->stamp, memory_order_relaxed);
    return (int)(stamp >> SHM_INBOX_POSITION_BITS) - 1;
}

struct shm_inbox_control {
    _Atomic uint64_t tail; /* bytes claimed by producers (CAS) */
    char pad0[SHM_CACHE_LINE - 8];
    _Atomic uint64_t head; /* bytes the consumer has finished with (release store) */
    char pad1[SHM_CACHE_LINE - 8];
};

/* A process-local view of one inbox, as producer (one per receiver) or as consumer (its own). */
struct shm_inbox {
    struct shm_inbox_control *control;
    char *data;
    uint64_t bytes;               /* power of two */
    uint64_t position;            /* producer: the claim being filled; consumer: private head */
    uint64_t head_cache;          /* producer: last head read */
    int me;                       /* producer: its world rank (stamp, waiter bit) */
    _Atomic uint64_t *waiters;    /* bitmap of producers waiting for room */
    int nwords;                   /* words in the waiters bitmap */
};

/* The inbox of rank owner, viewed by rank me (me == owner: the consumer view). */
void shm_inbox_view(struct shm_inbox *box, struct shm_header *seg, int owner, int me);

static inline size_t shm_inbox_max_payload(const struct shm_inbox *box)
{
    return box->bytes / 4 - SHM_RECORD_HEADER_BYTES;
}

/* Producer: a record with room for payload_bytes, or NULL when the inbox is full (the producer
 * is then registered as a waiter and woken when room is freed). The caller fills header fields
 * (not stamp) and payload, then calls shm_inbox_publish before reserving again. */
struct shm_record *shm_inbox_try_reserve(struct shm_inbox *box, size_t payload_bytes);

static inline void shm_inbox_publish(struct shm_inbox *box, struct shm_record *rec)
{
    atomic_store_explicit(&rec->stamp, SHM_INBOX_STAMP(box->me, box->position),
                          memory_order_release);
}

/* Consumer: the oldest record if published, else NULL; valid until shm_inbox_release. */
struct shm_record *shm_inbox_peek_slow(struct shm_inbox *box, struct shm_record *skip);

static inline struct shm_record *shm_inbox_peek(struct shm_inbox *box)
{
    struct shm_record *rec =
        (struct shm_record *)(box->data + (box->position & (box->bytes - 1)));
    if (atomic_load_explicit(&rec->stamp, memory_order_acquire) == 0)
        return NULL;
    if (rec->kind == SHM_RECORD_SKIP)
        return shm_inbox_peek_slow(box, rec);
    return rec;
}

void shm_inbox_release(struct shm_inbox *box, struct shm_record *rec);

/* Producer: name rank in the waiters bitmap (then look at the queue's head once more). */
static inline void shm_waiters_register(_Atomic uint64_t *waiters, int rank)
{
    atomic_fetch_or_explicit(&waiters[rank / 64], 1ull << (rank % 64), memory_order_seq_cst);
    atomic_thread_fence(memory_order_seq_cst);
}

/* Consumer, after releasing records: take (and clear) word i of the waiters bitmap; the caller
 * wakes the ranks named in it. The first call after releases must be preceded by
 * shm_inbox_fence_before_waiters (one fence for the whole bitmap). */
static inline void shm_inbox_fence_before_waiters(void)
{
    atomic_thread_fence(memory_order_seq_cst);
}

static inline uint64_t shm_inbox_take_waiters(struct shm_inbox *box, int i)
{
    if (!atomic_load_explicit(&box->waiters[i], memory_order_relaxed))
        return 0;
    return atomic_exchange_explicit(&box->waiters[i], 0, memory_order_relaxed);
}

#endif
