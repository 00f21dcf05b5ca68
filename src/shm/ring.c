/* ring.c - producer reservation/publication and consumer release for the pair ring.
 * See ring.h for the memory-ordering argument; this file only adds the wrap-around rule: a
 * record never straddles the end of the ring, the producer pads with a SKIP record instead. */
#include "shm/ring.h"
#include "shm/fastbox.h"

void shm_ring_view(struct shm_ring *ring, struct shm_header *seg, int src, int dst)
{
    char *base = (char *)seg + seg->rings_offset +
                 ((size_t)src * seg->nranks + (size_t)dst) * seg->ring_stride;
    ring->control = (struct shm_ring_control *)base;
    ring->data = base + shm_ring_control_bytes() + shm_fastbox_bytes(); /* fastbox.c */
    ring->bytes = seg->ring_data_bytes;
    ring->position = 0;
    ring->head_cache = 0;
    ring->lap_declined = UINT64_MAX;
    ring->soft_lap = SHM_RING_SOFT_LAP;
}

static uint64_t record_bytes(size_t payload_bytes)
{
    return (SHM_RECORD_HEADER_BYTES + payload_bytes + SHM_CACHE_LINE - 1) &
           ~(uint64_t)(SHM_CACHE_LINE - 1);
}

/* True when bytes more fit before the consumer's head. */
static int has_room(struct shm_ring *ring, uint64_t bytes)
{
    uint64_t needed = ring->position + bytes;
    if (needed <= ring->head_cache + ring->bytes)
        return 1;
    /* acquire: the consumer's reads and zeroing of the records before head happen before we
     * overwrite them */
    ring->head_cache = atomic_load_explicit(&ring->control->head, memory_order_acquire);
    return needed <= ring->head_cache + ring->bytes;
}

static struct shm_record *record_at(struct shm_ring *ring, uint64_t position)
{
    return (struct shm_record *)(ring->data + (position & (ring->bytes - 1)));
}

/* Should the record go back to the ring's start although it would fit here? When the consumer
 * has taken everything (checked only once the record would cross the soft lap: one load of
 * head per SHM_RING_SOFT_LAP bytes), so a light stream cycles through lines both caches still
 * hold instead of the whole ring. */
static int wrap_early(struct shm_ring *ring, uint64_t bytes)
{
    uint64_t offset = ring->position & (ring->bytes - 1);
    uint64_t lap = ring->position / ring->bytes;
    uint64_t soft = ring->soft_lap;
    if (offset + bytes <= soft || offset < bytes || bytes > soft || ring->bytes <= soft ||
        bytes < SHM_RING_SOFT_LAP_MIN_RECORD || lap == ring->lap_declined)
        return 0;
    if (shm_ring_consumed_all(ring))
        return 1;
    ring->lap_declined = lap; /* a stream: use the whole ring this lap, ask again next lap */
    return 0;
}

struct shm_record *shm_ring_try_reserve(struct shm_ring *ring, size_t payload_bytes)
{
    uint64_t bytes = record_bytes(payload_bytes);
    uint64_t to_end = ring->bytes - (ring->position & (ring->bytes - 1));
    if (bytes > to_end || wrap_early(ring, bytes)) {
        /* Pad to the end with a SKIP record, then place the record at offset 0. */
        if (!has_room(ring, to_end + bytes))
            return NULL;
        struct shm_record *skip = record_at(ring, ring->position);
        skip->kind = SHM_RECORD_SKIP;
        skip->lines = (uint16_t)(to_end / SHM_CACHE_LINE);
        shm_ring_publish(ring, skip);
    } else if (!has_room(ring, bytes)) {
        return NULL;
    }
    struct shm_record *rec = record_at(ring, ring->position);
    rec->lines = (uint16_t)(bytes / SHM_CACHE_LINE);
    rec->flags = 0;
    return rec;
}

void shm_ring_publish(struct shm_ring *ring, struct shm_record *rec)
{
    uint64_t position = ring->position;
    /* release: header and payload stores become visible no later than the stamp */
    atomic_store_explicit(&rec->stamp, position / SHM_CACHE_LINE + 1, memory_order_release);
    ring->position = position + (uint64_t)rec->lines * SHM_CACHE_LINE;
}

void shm_ring_release(struct shm_ring *ring, struct shm_record *rec)
{
    /* Restore the invariant: no line past a header holds a word that could pass for a stamp
     * (ring.h). The header line keeps its stamp, which no later position expects. Relaxed: the
     * release store of head below orders these before the producer's reuse of the space. A SKIP
     * pad's lines past its header were not written since they were last zeroed: nothing to do
     * (an early wrap pads most of the ring). */
    unsigned lines = rec->kind == SHM_RECORD_SKIP ? 1 : rec->lines;
    char *line = (char *)rec + SHM_CACHE_LINE;
    for (unsigned i = 1; i < lines; i++, line += SHM_CACHE_LINE)
        atomic_store_explicit((_Atomic uint64_t *)line, 0, memory_order_relaxed);
    ring->position += (uint64_t)rec->lines * SHM_CACHE_LINE;
    /* release: our reads and zeroing of this record complete before the producer reuses it */
    atomic_store_explicit(&ring->control->head, ring->position, memory_order_release);
}

struct shm_record *shm_ring_peek_slow(struct shm_ring *ring, struct shm_record *skip)
{
    shm_ring_release(ring, skip);
    return shm_ring_peek(ring);
}
