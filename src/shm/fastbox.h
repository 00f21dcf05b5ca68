/* fastbox.h - a few fixed cells per ordered pair for the smallest records (seed 000 ch. 5's
 * "fastbox", issue 5 item 1), beside the pair's ring, and the rule that keeps the two in send
 * order (shm_pair_peek).
 * Why: a record in the 64 KiB ring lands on a fresh line each time (1024 lines per lap); a ring
 * of a few cells reuses lines both caches already hold. Bare ping-pong, two threads on the two
 * vCPUs, 8 B records, one-way: 1024-line ring 63-64 ns, 8 cells of 128 B 39-42 ns (4-16 cells the
 * same); a 64 B payload in a 128 B cell 40-53 ns, 96 B 77-82 ns, hence 64 B inline at most.
 * Memory ordering: as in ring.h, the cell's stamp is its only publication flag (producer: plain
 * stores, then a release store of the stamp; consumer: acquire load, compare). Consumed cells
 * flow back through the control line's count (consumer: release store after reading a cell;
 * producer: acquire load only when its cached count says all cells are in use).
 * Order across fastbox and ring: a stamp holds the cell sequence number (low 24 bits: a cell's
 * previous stamp is exactly FASTBOX_CELLS numbers older, so 24 bits never alias) and the
 * producer's ring position (in lines, 40 bits) when the cell was published. The cell comes
 * right after the ring records before that position and before every later one. */
#ifndef NODEMPI_SHM_FASTBOX_H
#define NODEMPI_SHM_FASTBOX_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "shm/ring.h"
#include "shm/segment.h"

enum {
    SHM_FASTBOX_CELLS = 8,
    SHM_FASTBOX_CELL_BYTES = 128,
    SHM_FASTBOX_PAYLOAD = 64, /* measured above: more spills the copy past the first lines */
};

#define SHM_FASTBOX_SEQ_MASK ((UINT64_C(1) << 24) - 1)
#define SHM_FASTBOX_LINE_MASK ((UINT64_C(1) << 40) - 1)

/* The consumer's count, alone on its line (the producer reads it only when the cells look
 * full); after the ring's control line it puts the cells on a 128-byte boundary (segment.c
 * aligns each pair's start). */
struct shm_fastbox_control {
    _Atomic uint64_t consumed; /* cells the consumer is done with; written by the consumer */
    char pad[SHM_CACHE_LINE - 8];
};

/* Bytes of one pair's fastbox in the segment (control line, then the cells). */
static inline size_t shm_fastbox_bytes(void)
{
    return sizeof(struct shm_fastbox_control) + SHM_FASTBOX_CELLS * SHM_FASTBOX_CELL_BYTES;
}

/* A process-local view of one pair's fastbox. */
struct shm_fastbox {
    struct shm_fastbox_control *control;
    char *cells;
    uint64_t count;          /* producer: cells published; consumer: cells consumed */
    uint64_t consumed_cache; /* producer only: last count read from control */
};

/* The fastbox from src to dst (it sits between the ring's control line and its data). */
void shm_fastbox_view(struct shm_fastbox *fb, struct shm_header *seg, int src, int dst);

static inline struct shm_record *shm_fastbox_cell(const struct shm_fastbox *fb, uint64_t n)
{
    return (struct shm_record *)(fb->cells + (n % SHM_FASTBOX_CELLS) * SHM_FASTBOX_CELL_BYTES);
}

/* Producer: a free cell (fill header fields but the stamp, and at most SHM_FASTBOX_PAYLOAD
 * bytes of payload), or NULL when every cell is still unread. */
static inline struct shm_record *shm_fastbox_try_reserve(struct shm_fastbox *fb)
{
    if (fb->count - fb->consumed_cache >= SHM_FASTBOX_CELLS) {
        /* acquire: the consumer's reads of a cell happen before we overwrite it */
        fb->consumed_cache = atomic_load_explicit(&fb->control->consumed, memory_order_acquire);
        if (fb->count - fb->consumed_cache >= SHM_FASTBOX_CELLS)
            return NULL;
    }
    return shm_fastbox_cell(fb, fb->count);
}

/* Is rec one of this fastbox's cells (rather than a ring record)? */
static inline int shm_fastbox_owns(const struct shm_fastbox *fb, const struct shm_record *rec)
{
    return (uintptr_t)((const char *)rec - fb->cells) <
           (uintptr_t)SHM_FASTBOX_CELLS * SHM_FASTBOX_CELL_BYTES;
}

static inline uint64_t shm_ring_line(const struct shm_ring *ring)
{
    return (ring->position / SHM_CACHE_LINE) & SHM_FASTBOX_LINE_MASK;
}

/* Producer: publish the reserved cell; ring is the pair's ring in the same direction, whose
 * current position orders the cell among ring records. */
static inline void shm_fastbox_publish(struct shm_fastbox *fb, struct shm_record *cell,
                                       const struct shm_ring *ring)
{
    fb->count++;
    uint64_t stamp = shm_ring_line(ring) << 24 | (fb->count & SHM_FASTBOX_SEQ_MASK);
    /* release: header and payload stores become visible no later than the stamp */
    atomic_store_explicit(&cell->stamp, stamp, memory_order_release);
}

/* Consumer: the next unread cell, or NULL. */
static inline struct shm_record *shm_fastbox_peek(const struct shm_fastbox *fb)
{
    struct shm_record *cell = shm_fastbox_cell(fb, fb->count);
    /* acquire pairs with the release in shm_fastbox_publish */
    uint64_t stamp = atomic_load_explicit(&cell->stamp, memory_order_acquire);
    return (stamp & SHM_FASTBOX_SEQ_MASK) == ((fb->count + 1) & SHM_FASTBOX_SEQ_MASK) ? cell
                                                                                    : NULL;
}

/* Consumer, while handling the current cell: start fetching the next two, so that a stream of
 * small messages waits for one line transfer per few messages, not per message (the stamp
 * load of the next cell was where a 64-message window of 8 B spent its time). In a ping-pong
 * the next cell is not written yet and the line comes back unchanged; the producer's later
 * write takes it from us as it would have anyway. */
static inline void shm_fastbox_prefetch_next(const struct shm_fastbox *fb)
{
    __builtin_prefetch(shm_fastbox_cell(fb, fb->count + 1), 0, 3);
    __builtin_prefetch(shm_fastbox_cell(fb, fb->count + 2), 0, 3);
}

static inline void shm_fastbox_release(struct shm_fastbox *fb)
{
    fb->count++;
    /* release: our reads of the cell complete before the producer reuses it */
    atomic_store_explicit(&fb->control->consumed, fb->count, memory_order_release);
}

/* May the cell be handled now, i.e. have all ring records published before it been consumed? */
static inline int shm_fastbox_cell_is_next(const struct shm_record *cell,
                                           const struct shm_ring *ring)
{
    uint64_t stamp = atomic_load_explicit(&cell->stamp, memory_order_relaxed);
    return (stamp >> 24) == shm_ring_line(ring);
}

/* Consumer: the pair's next record in send order, from the fastbox (*in_fastbox = 1) or the
 * ring, or NULL. A cell is taken first when the ring has nothing older: its ring position is
 * the consumer's. Otherwise the ring record is older (and a cell published before it is
 * visible once its stamp is: look again). A SKIP pad is stepped over only after that second
 * look: a cell published right before the pad carries the pad's position, and stepping over
 * the pad first would leave that cell behind for good (a hang seen 1 in ~30 runs of
 * tests/mpi/coll/reduce_ops at 2 ranks before this rule). */
static inline struct shm_record *shm_pair_peek(struct shm_ring *ring, struct shm_fastbox *fb,
                                               int *in_fastbox)
{
    for (;;) {
        struct shm_record *cell = shm_fastbox_peek(fb);
        *in_fastbox = 1;
        if (cell && shm_fastbox_cell_is_next(cell, ring))
            return cell;
        struct shm_record *rec = shm_ring_peek_any(ring);
        if (!rec)
            return NULL;
        if (!cell && (cell = shm_fastbox_peek(fb)) && shm_fastbox_cell_is_next(cell, ring))
            return cell;
        *in_fastbox = 0;
        if (rec->kind != SHM_RECORD_SKIP)
            return rec;
        shm_ring_release(ring, rec); /* the pad: look at the cell again at the new position */
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
