/* fastbox.h - a small box per ordered pair for the smallest records (seed 000 ch. 5's
 * "fastbox", issue 5 item 1), beside the pair's ring, and the rule that keeps the two in send
 * order (shm_pair_peek).
 * Why a box: a record in the 64 KiB ring lands on a fresh line each time (1024 lines per lap);
 * a box of a few cells reuses lines both caches already hold. Bare ping-pong, two threads on the
 * two vCPUs, 8 B records, one-way: 1024-line ring 63-64 ns, 8 cells of 128 B 39-42 ns (4-16
 * cells the same); a 64 B payload in a 128 B cell 40-53 ns, 96 B 77-82 ns, hence 64 B inline at
 * most.
 * Layout: 16 groups of four 32-byte slots (2 KiB). A record is either
 *  - a cell: a ring-format record (struct shm_record, payload after its 32-byte header) filling
 *    a whole group: what a ping-pong uses, one fresh pair of lines per message (records sharing
 *    a line cost a transfer more each in a ping-pong: 8 B one-way, vCPUs close, 0.062 us in
 *    cells, 0.076 us packed); or
 *  - a packed record: one slot (publication word, ring position, tag, context, source, up to 8
 *    payload bytes) or two (28 more bytes; p2p sends only one-slot records, send.c) for an
 *    eager message of at most 36 bytes sent while
 *    the receiver has not answered since our last message (a stream). Four (two) share a
 *    group, so a stream of them moves a quarter (half) of the lines of one per cell: the
 *    sender's stores to a line the receiver still holds queue behind that line's transfer (perf
 *    put 95% of a 1-byte Isend loop's p2p_send_start on the instruction after them); 1-byte
 *    window of 64, vCPUs far: 6.2-6.4 -> 11.0-11.5 MB/s.
 * Memory ordering: a record's first word is its only publication flag (producer: plain stores
 * of everything else, then a release store of the word; consumer: acquire load, compare).
 * A word: bit 0 clear (a head); bits 1-23 the record's slot number (count + 1); bit 24 set for
 * a cell; bits 25-31 a packed record's payload bytes; bits 32-63 the producer's ring position
 * in lines when it published. The consumer polls the slot at its count and, when that is not a
 * group's first slot, the next group's first slot too (a cell goes there, and so does a
 * two-slot record that would not fit in the group's last slot).
 * Stale words: every group's first slot is written once per lap (records never skip a group
 * start), so the consumer finds there the record it waits for or one a lap older (a number 64
 * smaller). Slots 1-3 of a group may hold a cell's payload; the consumer polls them only after a
 * packed record in slot 0 of that group in this lap, and the producer writes SHM_FASTBOX_MARK
 * (bit 0 set: never a head) into them before it publishes that record; a packed record's
 * second slot starts with the mark too.
 * Consumed slots flow back through the control line's count (consumer: release store after
 * reading a record; producer: acquire load only when its cached count says the box is full).
 * Order across box and ring: a record comes right after the ring records published before the
 * producer's ring position in its word, and before every later one. */
#ifndef NODEMPI_SHM_FASTBOX_H
#define NODEMPI_SHM_FASTBOX_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "shm/ring.h"
#include "shm/segment.h"

enum {
    SHM_FASTBOX_SLOTS = 64, /* 16 cells. 8 held the same ping-pong latency, but both
                             * directions of a 64-message window of 1-8 B fill 8 cells'
                             * worth of packed records and spill into the ring: 16 cells,
                             * bi 1-8 B far +32%, close +8%; uni 1-32 B +2-8%; the price,
                             * a stream of 64 B cells -5% (capping cells at 8 ahead of the
                             * consumer did not recover it). docs/benchmarks.md, session 10 */
    SHM_FASTBOX_SLOT_BYTES = 32,
    SHM_FASTBOX_GROUP_SLOTS = 4, /* a cell: 128 bytes, the pair of lines the adjacent-line
                                  * prefetcher moves together */
    SHM_FASTBOX_PAYLOAD = 64,    /* a cell's payload at most (measured above) */
    SHM_FASTBOX_PACKED_HEAD = 8,     /* payload bytes in a packed record's slot */
    SHM_FASTBOX_PACKED_MORE = 28,    /* ...and in its second slot, if it has one */
    SHM_FASTBOX_PACKED_PAYLOAD = 36, /* 8 + 28: one or two slots */
};

#define SHM_FASTBOX_MARK UINT32_C(1)
#define SHM_FASTBOX_NUMBER_MASK ((UINT64_C(1) << 24) - 1) /* bits 0-23 of a word */
#define SHM_FASTBOX_CELL (UINT64_C(1) << 24)

/* A packed record's first slot... */
struct shm_fastbox_packed {
    _Atomic uint64_t word;
    int32_t tag;
    uint32_t context;
    int32_t src;
    uint32_t pad;
    unsigned char payload[SHM_FASTBOX_PACKED_HEAD];
};

/* ...and its second, for more than SHM_FASTBOX_PACKED_HEAD bytes. */
struct shm_fastbox_more {
    uint32_t mark; /* SHM_FASTBOX_MARK */
    unsigned char payload[SHM_FASTBOX_PACKED_MORE];
};

_Static_assert(sizeof(struct shm_fastbox_packed) == SHM_FASTBOX_SLOT_BYTES, "packed slot");
_Static_assert(sizeof(struct shm_fastbox_more) == SHM_FASTBOX_SLOT_BYTES, "second slot");
_Static_assert(sizeof(struct shm_record) == SHM_FASTBOX_SLOT_BYTES, "a cell's header is a slot");

/* The consumer's count, alone on its line (the producer reads it only when the box looks
 * full); after the ring's control line it puts the slots on a 128-byte boundary (segment.c
 * aligns each pair's start). */
struct shm_fastbox_control {
    _Atomic uint64_t consumed; /* slots the consumer is done with; written by the consumer */
    char pad[SHM_CACHE_LINE - 8];
};

/* Bytes of one pair's fastbox in the segment (control line, then the slots). */
static inline size_t shm_fastbox_bytes(void)
{
    return sizeof(struct shm_fastbox_control) + SHM_FASTBOX_SLOTS * SHM_FASTBOX_SLOT_BYTES;
}

/* A process-local view of one pair's fastbox. */
struct shm_fastbox {
    struct shm_fastbox_control *control;
    char *slots;
    uint64_t count;          /* producer: slots used; consumer: slots done with */
    uint64_t consumed_cache; /* producer only: last count read from control */
    unsigned taken_slots;    /* consumer only: slots of the record being handled */
    /* consumer only: a packed record handed on as a ring-format one */
    _Alignas(16) unsigned char out[SHM_RECORD_HEADER_BYTES + SHM_FASTBOX_PACKED_PAYLOAD];
};

/* The fastbox from src to dst (it sits between the ring's control line and its data). */
void shm_fastbox_view(struct shm_fastbox *fb, struct shm_header *seg, int src, int dst);

static inline void *shm_fastbox_slot(const struct shm_fastbox *fb, uint64_t n)
{
    return fb->slots + (n % SHM_FASTBOX_SLOTS) * SHM_FASTBOX_SLOT_BYTES;
}

static inline uint64_t shm_fastbox_group_start(uint64_t n)
{
    return (n + SHM_FASTBOX_GROUP_SLOTS - 1) & ~(uint64_t)(SHM_FASTBOX_GROUP_SLOTS - 1);
}

static inline uint64_t shm_fastbox_word(uint64_t n, const struct shm_ring *ring)
{
    uint64_t line = (uint32_t)(ring->position / SHM_CACHE_LINE);
    return (((n + 1) << 1) & SHM_FASTBOX_NUMBER_MASK) | line << 32;
}

/* Producer: room for slots more from slot n on? */
static inline int shm_fastbox_has_room(struct shm_fastbox *fb, uint64_t n, unsigned slots)
{
    if (n + slots - fb->consumed_cache <= SHM_FASTBOX_SLOTS)
        return 1;
    /* acquire: the consumer's reads of those slots happen before we overwrite them */
    fb->consumed_cache = atomic_load_explicit(&fb->control->consumed, memory_order_acquire);
    return n + slots - fb->consumed_cache <= SHM_FASTBOX_SLOTS;
}

/* Producer: a free cell (fill header fields but the stamp, and at most SHM_FASTBOX_PAYLOAD
 * bytes of payload), or NULL when the box is full. */
static inline struct shm_record *shm_fastbox_try_reserve(struct shm_fastbox *fb)
{
    uint64_t at = shm_fastbox_group_start(fb->count);
    if (!shm_fastbox_has_room(fb, at, SHM_FASTBOX_GROUP_SLOTS))
        return NULL;
    return shm_fastbox_slot(fb, at);
}

/* Is rec one of this fastbox's cells (rather than a ring record)? */
static inline int shm_fastbox_owns(const struct shm_fastbox *fb, const struct shm_record *rec)
{
    return (uintptr_t)((const char *)rec - fb->slots) <
           (uintptr_t)SHM_FASTBOX_SLOTS * SHM_FASTBOX_SLOT_BYTES;
}

/* Producer: publish the reserved cell; ring is the pair's ring in the same direction, whose
 * current position orders the cell among ring records. */
static inline void shm_fastbox_publish(struct shm_fastbox *fb, struct shm_record *cell,
                                       const struct shm_ring *ring)
{
    uint64_t at = shm_fastbox_group_start(fb->count);
    fb->count = at + SHM_FASTBOX_GROUP_SLOTS;
    /* release: header and payload stores become visible no later than the stamp */
    atomic_store_explicit(&cell->stamp, shm_fastbox_word(at, ring) | SHM_FASTBOX_CELL,
                          memory_order_release);
}

/* Producer: an eager message of at most SHM_FASTBOX_PACKED_PAYLOAD contiguous bytes as a
 * packed record of one or two slots (never across a group's end: a two-slot one skips a
 * group's last slot, which the group's first record marked); 0 when the box has no room. */
static inline int shm_fastbox_try_send_packed(struct shm_fastbox *fb, const struct shm_ring *ring,
                                              int32_t tag, uint32_t context, int32_t src,
                                              const void *data, size_t size)
{
    unsigned slots = size > SHM_FASTBOX_PACKED_HEAD ? 2 : 1;
    uint64_t at = fb->count;
    if (slots == 2 && at % SHM_FASTBOX_GROUP_SLOTS == SHM_FASTBOX_GROUP_SLOTS - 1)
        at++;
    int group_start = at % SHM_FASTBOX_GROUP_SLOTS == 0;
    /* room for the whole group when starting one: its marks go in before the record */
    if (!shm_fastbox_has_room(fb, at, group_start ? SHM_FASTBOX_GROUP_SLOTS : slots))
        return 0;
    struct shm_fastbox_packed *rec = shm_fastbox_slot(fb, at);
    if (group_start) /* the rest of the group may hold a cell's payload */
        for (unsigned k = 1; k < SHM_FASTBOX_GROUP_SLOTS; k++)
            *(uint32_t *)shm_fastbox_slot(fb, at + k) = SHM_FASTBOX_MARK;
    size_t head = size < SHM_FASTBOX_PACKED_HEAD ? size : SHM_FASTBOX_PACKED_HEAD;
    if (slots == 2) { /* the second slot first: it may be on the next line (ring.h's reason) */
        struct shm_fastbox_more *more = shm_fastbox_slot(fb, at + 1);
        more->mark = SHM_FASTBOX_MARK; /* there already (the group's first record), kept plain */
        memcpy(more->payload, (const unsigned char *)data + head, size - head);
    }
    rec->tag = tag;
    rec->context = context;
    rec->src = src;
    if (head == SHM_FASTBOX_PACKED_HEAD)
        memcpy(rec->payload, data, SHM_FASTBOX_PACKED_HEAD); /* one move */
    else if (head)
        memcpy(rec->payload, data, head);
    fb->count = at + slots;
    /* release: the record's other stores (and the marks) become visible no later than it */
    atomic_store_explicit(&rec->word, shm_fastbox_word(at, ring) | (uint64_t)size << 25,
                          memory_order_release);
    return 1;
}

/* The word at slot if it publishes slot number n, else 0 (never a published word: bit 0 of the
 * number field is clear, but the number is n + 1 > 0). */
static inline uint64_t shm_fastbox_published(const void *slot, uint64_t n)
{
    /* acquire pairs with the release in shm_fastbox_publish / shm_fastbox_try_send_packed */
    uint64_t word = atomic_load_explicit((_Atomic uint64_t *)slot, memory_order_acquire);
    uint64_t number = ((n + 1) << 1) & SHM_FASTBOX_NUMBER_MASK;
    return (word & SHM_FASTBOX_NUMBER_MASK) == number ? word : 0;
}

/* Consumer: the next unread record's first slot (its word in *word), or NULL; at the count or,
 * when a cell went to the next group, there (the count moves to it: the slots left out are
 * done with). */
static inline void *shm_fastbox_peek(struct shm_fastbox *fb, uint64_t *word)
{
    void *slot = shm_fastbox_slot(fb, fb->count);
    if ((*word = shm_fastbox_published(slot, fb->count)))
        return slot;
    uint64_t next = shm_fastbox_group_start(fb->count);
    if (next == fb->count)
        return NULL;
    void *cell = shm_fastbox_slot(fb, next);
    if (!(*word = shm_fastbox_published(cell, next)))
        return NULL;
    /* A packed record at the count published before that cell is visible now (the acquire
     * above): it comes first. */
    uint64_t first = shm_fastbox_published(slot, fb->count);
    if (first) {
        *word = first;
        return slot;
    }
    fb->count = next;
    return cell;
}

/* May the record with this word be handled now, i.e. have all ring records published before
 * it been consumed? */
static inline int shm_fastbox_is_next(uint64_t word, const struct shm_ring *ring)
{
    return (uint32_t)(word >> 32) == (uint32_t)(ring->position / SHM_CACHE_LINE);
}

/* Consumer: the record at slot (with this word) as a ring-format one: a cell as it is, a
 * packed record copied to fb->out as an eager record of kind eager_kind. */
static inline struct shm_record *shm_fastbox_take(struct shm_fastbox *fb, void *slot,
                                                  uint64_t word, uint8_t eager_kind)
{
    if (word & SHM_FASTBOX_CELL) {
        fb->taken_slots = SHM_FASTBOX_GROUP_SLOTS;
        return slot;
    }
    const struct shm_fastbox_packed *packed = slot;
    struct shm_record *rec = (struct shm_record *)fb->out;
    size_t size = word >> 25 & 0x7f;
    rec->kind = eager_kind;
    rec->flags = 0;
    rec->lines = 0;
    rec->tag = packed->tag;
    rec->context = packed->context;
    rec->src = packed->src;
    rec->size = size;
    unsigned char *payload = shm_record_payload(rec);
    memcpy(payload, packed->payload, SHM_FASTBOX_PACKED_HEAD); /* one move; out has room */
    fb->taken_slots = 1;
    if (size > SHM_FASTBOX_PACKED_HEAD) { /* the record is at the count: its second slot next */
        const struct shm_fastbox_more *more = shm_fastbox_slot(fb, fb->count + 1);
        memcpy(payload + SHM_FASTBOX_PACKED_HEAD, more->payload, size - SHM_FASTBOX_PACKED_HEAD);
        fb->taken_slots = 2;
    }
    return rec;
}

/* Consumer, while handling the current record: start fetching the next two lines, so that a
 * stream of small messages waits for one line transfer per few messages, not per message (the
 * stamp load of the next cell was where a 64-message window of 8 B spent its time). In a
 * ping-pong the next slots are not written yet and the lines come back unchanged; the
 * producer's later write takes them from us as it would have anyway. */
static inline void shm_fastbox_prefetch_next(const struct shm_fastbox *fb)
{
    uint64_t next = fb->count + fb->taken_slots;
    __builtin_prefetch(shm_fastbox_slot(fb, next), 0, 3);
    __builtin_prefetch(shm_fastbox_slot(fb, next + SHM_FASTBOX_GROUP_SLOTS), 0, 3);
}

/* Consumer, while it waits for the next record: keep asking for the second line of the cell it
 * expects. A payload of more than 32 bytes ends there, and the producer writes that line first:
 * fetched only after the header line's word was seen, it cost a second transfer in a row. */
static inline void shm_fastbox_prefetch_tail(const struct shm_fastbox *fb)
{
    const char *cell = shm_fastbox_slot(fb, shm_fastbox_group_start(fb->count));
    __builtin_prefetch(cell + SHM_CACHE_LINE, 0, 3); /* a hint: never faults */
}

static inline void shm_fastbox_release(struct shm_fastbox *fb)
{
    fb->count += fb->taken_slots;
    /* release: our reads of the record complete before the producer reuses its slots */
    atomic_store_explicit(&fb->control->consumed, fb->count, memory_order_release);
}

/* Consumer: the pair's next record in send order, from the fastbox (*in_fastbox = 1) or the
 * ring, or NULL; a packed record comes as an eager record of kind eager_kind (a copy). A box
 * record is taken first when the ring has nothing older: its ring position is the consumer's.
 * Otherwise the ring record is older (and a box record published before it is visible once its
 * word is: look again). A SKIP pad is stepped over only after that second look: a box record
 * published right before the pad carries the pad's position, and stepping over the pad first
 * would leave that record behind for good (a hang seen 1 in ~30 runs of
 * tests/mpi/coll/reduce_ops at 2 ranks before this rule). */
static inline struct shm_record *shm_pair_peek(struct shm_ring *ring, struct shm_fastbox *fb,
                                               uint8_t eager_kind, int *in_fastbox)
{
    for (;;) {
        uint64_t word;
        void *slot = shm_fastbox_peek(fb, &word);
        *in_fastbox = 1;
        if (slot && shm_fastbox_is_next(word, ring))
            return shm_fastbox_take(fb, slot, word, eager_kind);
        struct shm_record *rec = shm_ring_peek_any(ring);
        if (!rec)
            return NULL;
        if (!slot && (slot = shm_fastbox_peek(fb, &word)) && shm_fastbox_is_next(word, ring))
            return shm_fastbox_take(fb, slot, word, eager_kind);
        *in_fastbox = 0;
        if (rec->kind != SHM_RECORD_SKIP)
            return rec;
        shm_ring_release(ring, rec); /* the pad: look at the box again at the new position */
    }
}

static inline void shm_pair_release(struct shm_ring *ring, struct shm_fastbox *fb,
                                    struct shm_record *rec, int in_fastbox)
{
    if (in_fastbox)
        shm_fastbox_release(fb);
    else
        shm_ring_release(ring, rec);
}

/* Producer: publish a record reserved from either queue of the pair. */
static inline void shm_pair_publish(struct shm_ring *ring, struct shm_fastbox *fb,
                                    struct shm_record *rec)
{
    if (shm_fastbox_owns(fb, rec))
        shm_fastbox_publish(fb, rec, ring);
    else
        shm_ring_publish(ring, rec);
}

#endif
