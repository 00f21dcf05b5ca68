/* inbox.c - claiming, publishing and releasing records of the multi-producer inbox. See inbox.h
 * for the memory-ordering argument; this file adds the wrap-around rule (as in ring.c, a record
 * never straddles the end: the producer that claims across it pads with a SKIP record). */
#include "shm/inbox.h"

void shm_inbox_view(struct shm_inbox *box, struct shm_header *seg, int owner, int me)
{
    struct shm_area_layout layout;
    shm_area_layout((int)seg->nranks, seg->inbox_data_bytes, &layout);
    char *area = shm_area(seg, owner);
    box->control = (struct shm_inbox_control *)area;
    box->data = area + layout.inbox_data;
    box->bytes = seg->inbox_data_bytes;
    box->position = 0;
    box->head_cache = 0;
    box->me = me;
    box->waiters = (_Atomic uint64_t *)(area + layout.waiters);
    box->nwords = (int)shm_bitmap_words((int)seg->nranks);
}

static uint64_t record_bytes(size_t payload_bytes)
{
    return (SHM_RECORD_HEADER_BYTES + payload_bytes + SHM_CACHE_LINE - 1) &
           ~(uint64_t)(SHM_CACHE_LINE - 1);
}

static struct shm_record *record_at(struct shm_inbox *box, uint64_t position)
{
    return (struct shm_record *)(box->data + (position & (box->bytes - 1)));
}

/* True when [tail, end) lies within the space the consumer has released. */
static int has_room(struct shm_inbox *box, uint64_t end)
{
    if (end <= box->head_cache + box->bytes)
        return 1;
    /* acquire: the consumer's zeroing of the released lines happens before our writes */
    box->head_cache = atomic_load_explicit(&box->control->head, memory_order_acquire);
    return end <= box->head_cache + box->bytes;
}

/* Full: register as a waiter, then look once more (see inbox.h: the waiters handshake). */
static int room_after_registering(struct shm_inbox *box, uint64_t end)
{
    shm_waiters_register(box->waiters, box->me);
    return has_room(box, end);
}

struct shm_record *shm_inbox_try_reserve(struct shm_inbox *box, size_t payload_bytes)
{
    uint64_t bytes = record_bytes(payload_bytes);
    uint64_t tail = atomic_load_explicit(&box->control->tail, memory_order_relaxed);
    uint64_t claim;
    for (;;) {
        uint64_t to_end = box->bytes - (tail & (box->bytes - 1));
        claim = bytes > to_end ? to_end + bytes : bytes;
        if (!has_room(box, tail + claim) && !room_after_registering(box, tail + claim)) {
            /* The tail we read may be stale: only give up if it is still current. */
            uint64_t now = atomic_load_explicit(&box->control->tail, memory_order_relaxed);
            if (now == tail)
                return NULL;
            tail = now;
            continue;
        }
        /* relaxed: the CAS only arbitrates who owns the space; publication is the stamp's job */
        if (atomic_compare_exchange_weak_explicit(&box->control->tail, &tail, tail + claim,
                                                  memory_order_relaxed, memory_order_relaxed))
            break;
    }
    if (claim != bytes) {
        struct shm_record *skip = record_at(box, tail);
        skip->kind = SHM_RECORD_SKIP;
        skip->lines = (uint16_t)((claim - bytes) / SHM_CACHE_LINE);
        box->position = tail;
        shm_inbox_publish(box, skip);
        tail += claim - bytes;
    }
    box->position = tail;
    struct shm_record *rec = record_at(box, tail);
    rec->lines = (uint16_t)(bytes / SHM_CACHE_LINE);
    rec->flags = 0;
    return rec;
}

void shm_inbox_release(struct shm_inbox *box, struct shm_record *rec)
{
    /* Restore the invariant: every free line starts with a zero word (inbox.h). */
    char *line = (char *)rec;
    for (unsigned i = rec->lines; i > 0; i--, line += SHM_CACHE_LINE)
        atomic_store_explicit((_Atomic uint64_t *)line, 0, memory_order_relaxed);
    box->position += (uint64_t)rec->lines * SHM_CACHE_LINE;
    /* release: our reads and zeroing of this record complete before producers reuse it */
    atomic_store_explicit(&box->control->head, box->position, memory_order_release);
}

struct shm_record *shm_inbox_peek_slow(struct shm_inbox *box, struct shm_record *skip)
{
    shm_inbox_release(box, skip);
    return shm_inbox_peek(box);
}
