/* ring.h - single-producer/single-consumer ring of variable-length records, one per ordered
 * pair of ranks (the "standard" per-pair queue of seed 000 §4.2).
 *
 * Memory-ordering argument. A record is a 32-byte header followed by its payload, padded to whole
 * cache lines. The header's first word (stamp) is the only publication flag: the producer writes
 * header and payload with plain stores, then stores the stamp, (position / 64) + 1, with
 * memory_order_release; the consumer loads the stamp at its current position with
 * memory_order_acquire and reads the record once the stamp equals the value that position
 * expects. Positions only grow, so a header left from an earlier lap holds a smaller stamp and
 * never passes. Payload of an earlier lap could hold any value, so the consumer keeps this
 * invariant: the first word of every line that held payload (lines 2.. of a record; a SKIP
 * pad's tail was zeroed when it last held payload and not written since) is zeroed before the
 * space goes back to the producer (release store of head; the producer writes only after an
 * acquire load of a head covering the space).
 * The consumer does not write a record's header line, so a one-line message costs one line
 * transfer each way. History: the producer used to zero the next record's stamp before publishing, and the
 * publishing store then waited behind a cache miss on that line: MPI_Send/Recv 8 B one-way went
 * from 0.16 to 0.10-0.12 us (vCPUs close, floor 26 ns) and from 0.56-0.63 to 0.30-0.32 us (far,
 * floor 150 ns) without it. A bare ring ping-pong costs 75-83 ns close, 2x the 37-46 ns of a
 * fixed line per direction: moving to a fresh line per message is what is left. Tried and
 * dropped: the producer remembering which lines last held payload and zeroing the next line only
 * then (the consumer never writing the ring): 4 KiB records (65 lines) shift their boundaries
 * every lap, so the zeroing store was back on the critical path: 4 KiB one-way 0.54 -> 0.73 us,
 * 4 KiB window bandwidth 17 -> 8 GB/s; only 1 MiB pipelined copies gained (7.5 -> 8.4 GB/s).
 * Space flows back through head (consumer's position, release store after it is done with a
 * record; producer's acquire load only when its cached copy says the ring is full). The consumer
 * thus touches one cache line per small message: the latency floor is one line transfer. */
#ifndef NODEMPI_SHM_RING_H
#define NODEMPI_SHM_RING_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "shm/segment.h"

/* Record kinds; the transport does not interpret them except SHM_RECORD_SKIP. */
enum { SHM_RECORD_SKIP = 1 };

struct shm_record {
    _Atomic uint64_t stamp; /* 0: not yet published; else (position / 64) + 1 in a pair ring,
                             * SHM_INBOX_STAMP(sender, position) in an inbox (see inbox.h:
                             * sender's world rank + 1 in bits 40-63, position / 64 below) */
    uint8_t kind;
    uint8_t flags;
    uint16_t lines;         /* whole record, header included, in cache lines */
    int32_t tag;
    uint32_t context;
    int32_t src;            /* sender's rank in the communicator */
    uint64_t size;          /* message size in bytes (payload of this record may be less) */
};
#define SHM_RECORD_HEADER_BYTES 32
#define SHM_RECORD_INLINE_BYTES (SHM_CACHE_LINE - SHM_RECORD_HEADER_BYTES)

static inline void *shm_record_payload(struct shm_record *rec) { return (char *)rec + 32; }

/* The control block of a ring lives in the segment just before its data. */
struct shm_ring_control {
    _Atomic uint64_t head; /* bytes the consumer has finished with; written by the consumer */
    char pad[SHM_CACHE_LINE - 8];
};

static inline size_t shm_ring_control_bytes(void) { return sizeof(struct shm_ring_control); }

/* A process-local view of one ring. */
struct shm_ring {
    struct shm_ring_control *control;
    char *data;
    uint64_t bytes;      /* power of two */
    uint64_t position;   /* producer: tail; consumer: head (private copy) */
    uint64_t head_cache; /* producer only: last head read from control */
    uint64_t lap_declined; /* producer only: lap in which an early wrap found the ring busy */
    uint64_t soft_lap;     /* producer only: SHM_RING_SOFT_LAP unless set (0: no early wrap) */
};

/* A record that would end past this many bytes into the ring goes back to the start instead
 * when the consumer has taken everything (ring.c, wrap_early; NODEMPI_RING_LAP sets it).
 * Ping-pong one-way, vCPUs close, a whole 64 KiB lap vs an 8 KiB one: 512 B 0.169 vs 0.113 us,
 * 1 KiB 0.233 vs 0.149, 2 KiB 0.304 vs 0.252 (docs/benchmarks.md "Session 5"). */
enum { SHM_RING_SOFT_LAP = 8192 };
/* Smaller records do not wrap early: the pad and the load of head cost more than the reuse
 * gains (256 B one-way close: 0.0985 us whole ring, 0.103 with the lap; 512 B 0.166 vs 0.112). */
enum { SHM_RING_SOFT_LAP_MIN_RECORD = 9 * SHM_CACHE_LINE };

/* The ring from src to dst inside the segment. */
void shm_ring_view(struct shm_ring *ring, struct shm_header *seg, int src, int dst);

/* Largest payload one record can carry in this ring: a quarter of it (so that a full-size record
 * never waits for more than three others to drain), and the header on top, so that messages of
 * the power-of-two sizes programs use (16 KiB in a 64 KiB ring) fit one record: 16 KiB one-way
 * stream, window of 64: see docs/benchmarks.md "Session 6". */
static inline size_t shm_ring_max_payload(const struct shm_ring *ring)
{
    return ring->bytes / 4;
}

/* Producer: has the consumer taken every record published so far? (one acquire load of head) */
static inline int shm_ring_consumed_all(struct shm_ring *ring)
{
    /* acquire: as before any reuse of the space (ring.c, has_room) */
    ring->head_cache = atomic_load_explicit(&ring->control->head, memory_order_acquire);
    return ring->head_cache == ring->position;
}

/* Producer: how far the consumer has got (a hint: relaxed, nothing is read through it). */
static inline uint64_t shm_ring_consumer_head(const struct shm_ring *ring)
{
    return atomic_load_explicit(&ring->control->head, memory_order_relaxed);
}

/* Producer: a record with room for payload_bytes, or NULL when the ring is full. The caller
 * fills header fields (not stamp) and payload, then calls shm_ring_publish. */
struct shm_record *shm_ring_try_reserve(struct shm_ring *ring, size_t payload_bytes);
void shm_ring_publish(struct shm_ring *ring, struct shm_record *rec);

/* Consumer: the oldest published record, or NULL. It stays valid until shm_ring_release. */
static inline struct shm_record *shm_ring_peek(struct shm_ring *ring);
void shm_ring_release(struct shm_ring *ring, struct shm_record *rec);

/* Consumer skips SKIP records here so callers only see real ones. */
struct shm_record *shm_ring_peek_slow(struct shm_ring *ring, struct shm_record *rec);

/* Consumer: the oldest published record, SKIP pads included, or NULL. */
static inline struct shm_record *shm_ring_peek_any(const struct shm_ring *ring)
{
    struct shm_record *rec =
        (struct shm_record *)(ring->data + (ring->position & (ring->bytes - 1)));
    /* acquire pairs with the release in shm_ring_publish (a plain load on x86) */
    if (atomic_load_explicit(&rec->stamp, memory_order_acquire) !=
        ring->position / SHM_CACHE_LINE + 1)
        return NULL;
    return rec;
}

static inline struct shm_record *shm_ring_peek(struct shm_ring *ring)
{
    struct shm_record *rec = shm_ring_peek_any(ring);
    if (rec && rec->kind == SHM_RECORD_SKIP)
        return shm_ring_peek_slow(ring, rec);
    return rec;
}

#endif
