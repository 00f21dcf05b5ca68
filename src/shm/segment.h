/* segment.h - the job's shared-memory segment: layout, creation (by mpiexec), attach (by ranks).
 * Owns the byte layout of /dev/shm/nodempi-<uid>-<jobid>: a header, one block per rank, one
 * ring per ordered pair and one receiving area per rank (inbox, bitmaps: the orq and hybrid
 * queue designs), all at cache-line-aligned offsets (never pointers: every process maps the
 * segment at its own address). Must not know about messages, matching or MPI objects. */
#ifndef NODEMPI_SHM_SEGMENT_H
#define NODEMPI_SHM_SEGMENT_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define SHM_CACHE_LINE 64
#define SHM_SEGMENT_MAGIC 0x6e6f64656d706921ull /* "nodempi!" */
#define SHM_SEGMENT_VERSION 10u /* 2: receiving areas (inbox, doorbells); 3: copy slots;
                                * 4: a fastbox per pair; 5: packed fastbox records;
                                * 6: two-slot packed records; 7: 16 fastbox cells;
                                * 8: barrier slots and their cells; 9: shared heaps;
                                * 10: slot cells sized by the rank count */

/* Lifecycle of a rank as the launcher sees it (shm_rank_block.state). */
enum shm_rank_state {
    SHM_RANK_STARTED = 0,   /* process exists, MPI_Init not called yet */
    SHM_RANK_INITIALIZED,   /* inside MPI: exiting now is a failure */
    SHM_RANK_FINALIZED,     /* MPI_Finalize done: exit is normal */
    SHM_RANK_ABORTING,      /* MPI_Abort called; abort_code holds the code */
};

/* One per rank, three cache lines: the first is written by the rank itself (state, pid), the
 * second is the wake-up word other ranks write, kept apart so polling the state does not
 * bounce the line senders touch; the third is the rank's "running" clock (core/running.c),
 * written often by the rank while it is in MPI and read by waiters deciding to spin. */
struct shm_rank_block {
    _Atomic int32_t pid;
    _Atomic int32_t state;      /* enum shm_rank_state */
    _Atomic int32_t abort_code;
    int32_t core;               /* core the launcher bound the rank to, -1 if unbound */
    /* The rank's shared heap (shm/heap.h): its memfd's descriptor number in the rank and the
     * reservation's address and size there; valid once heap_published is 1. */
    int32_t heap_fd;
    _Atomic uint32_t heap_published;
    uint64_t heap_base;
    uint64_t heap_bytes;
    char pad0[SHM_CACHE_LINE - 40];
    _Atomic uint32_t wake_word; /* futex: bumped by a sender that wants this rank awake */
    _Atomic uint32_t sleeping;  /* 1 while the rank is (about to be) asleep on wake_word */
    char pad1[SHM_CACHE_LINE - 8];
    _Atomic uint64_t running_ticks; /* clock (core/running.c) of its last progress round */
    char pad2[SHM_CACHE_LINE - 8];
};

/* A barrier counter a communicator of this job has claimed (coll/shm_barrier.c): one line, so
 * arrivals and the release touch nothing else. owner is the communicator's context id + 1
 * (0: free), set by the claimer's CAS and cleared when that communicator is freed. */
enum { SHM_BARRIER_SLOTS = 256 };
struct shm_barrier_slot {
    _Atomic uint32_t owner;
    _Atomic uint32_t arrived;    /* ranks in the current barrier so far */
    _Atomic uint32_t generation; /* barriers completed: bumped by the releasing rank */
    _Atomic uint32_t all_arrived; /* the barrier everyone reached, for rank 0 to release */
    char pad[SHM_CACHE_LINE - 16];
};

struct shm_header {
    _Atomic uint64_t magic;      /* stored last (release) by the launcher */
    uint32_t version;
    uint32_t nranks;
    uint64_t total_bytes;
    uint64_t ranks_offset;       /* nranks x struct shm_rank_block */
    uint64_t rings_offset;       /* nranks x nranks rings, index [src * nranks + dst] */
    uint64_t ring_stride;        /* bytes per pair: ring control, fastbox, ring data */
    uint64_t ring_data_bytes;    /* power of two */
    _Atomic int32_t job_state;   /* 0 running, 1 aborting */
    _Atomic int32_t abort_code;
    _Atomic int32_t abort_rank;
    _Atomic uint32_t init_count; /* ranks that attached: the launcher's barrier for startup */
    uint64_t areas_offset;       /* nranks x receiving area, see struct shm_area_layout */
    uint64_t area_stride;
    uint64_t inbox_data_bytes;   /* power of two */
    uint64_t slots_offset;       /* nranks x SHM_COPY_SLOTS struct shm_copy_slot */
    /* Ranks asleep on their futex right now (a hint for spinners), on its own line. */
    _Alignas(SHM_CACHE_LINE) _Atomic int32_t sleepers;
    _Alignas(SHM_CACHE_LINE) struct shm_barrier_slot barrier_slots[SHM_BARRIER_SLOTS];
    uint64_t slot_cells_offset;  /* SHM_BARRIER_SLOTS x slot_cells_stride bytes */
    uint64_t slot_cells_stride;  /* 2 sets x (nranks + 1) cells of slot_cell_bytes */
    uint64_t slot_cell_bytes;    /* shm_slot_cell_bytes(nranks) */
};

/* A slot's data cells (coll/shm_allreduce.c, shm_allgather.c, ...): two sets, each one cell
 * per rank of the communicator and one more (index = the communicator's size) for a result.
 * A cell is the largest power of two from SHM_SLOT_CELL_MIN to SHM_SLOT_CELL_MAX bytes that
 * keeps all slots' cells within SHM_SLOT_CELLS_BUDGET (shm_slot_cell_bytes): 8 KiB up to 8
 * ranks, 4 KiB at 16, halving with each doubling, 256 B at 256. tmpfs allocates a page on its
 * first touch, so only the slots communicators use cost memory (8 ranks: 144 KiB each).
 * Why these sizes (8 ranks on 2 cores, docs/benchmarks.md "Session 19"): against the message
 * schedules, cells took 0.35-0.53x the time of allreduce/allgather/alltoall/reduce_scatter up
 * to 4 KiB vectors, 0.60-0.66x at 8 KiB, 0.87x at 16 KiB (alltoall). */
enum { SHM_SLOT_CELL_MIN = 128, SHM_SLOT_CELL_MAX = 8192 };
#define SHM_SLOT_CELLS_BUDGET (64u << 20)
size_t shm_slot_cell_bytes(int nranks);
static inline char *shm_slot_cell(struct shm_header *seg, int slot, unsigned set, int index)
{
    return (char *)seg + seg->slot_cells_offset + (size_t)slot * seg->slot_cells_stride +
           ((size_t)set * (seg->nranks + 1) + (size_t)index) * seg->slot_cell_bytes;
}

/* A copy slot: the work counters of one large message that sender and receiver copy together
 * (p2p/split.c). Owned by the sending rank, which hands it out with an RTS and takes it back at
 * the FIN; both sides claim chunks with next_chunk and count finished bytes in done_bytes. */
enum { SHM_COPY_SLOTS = 64 };
struct shm_copy_slot {
    _Atomic uint64_t next_chunk; /* next chunk index to claim (fetch_add by either side) */
    _Atomic uint64_t done_bytes; /* bytes copied, either side (release after each copy) */
    _Atomic uint64_t bytes;      /* the receiver's byte count, stored before it asks for help */
    _Atomic uint32_t failed;     /* the sender's copy failed: the receiver redoes everything */
    char pad[SHM_CACHE_LINE - 28];
};

static inline struct shm_copy_slot *shm_copy_slot(struct shm_header *seg, int rank, int slot)
{
    return (struct shm_copy_slot *)((char *)seg + seg->slots_offset) +
           (size_t)rank * SHM_COPY_SLOTS + slot;
}

/* Where the parts of one rank's receiving area lie, in bytes from the area's start. Only the
 * orq and hybrid queue designs touch it (tmpfs allocates pages on first touch, so pair and cor
 * jobs pay address space, not memory). Every part starts on its own cache line:
 *   inbox control  2 lines: tail (producers' CAS word), head (the consumer's)
 *   waiters        bitmap, one bit per rank: producers waiting for room (inbox, pair ring)
 *   doorbells      bitmap, one bit per rank: "my pair ring to you has records" (hybrid)
 *   opened         one uint64 per sender: inbox records it sent before its pair ring (hybrid)
 *   inbox data     inbox_data_bytes, page-aligned */
struct shm_area_layout {
    size_t waiters;
    size_t doorbells;
    size_t opened;
    size_t inbox_data;
    size_t stride;
};
void shm_area_layout(int nranks, size_t inbox_data_bytes, struct shm_area_layout *out);

static inline size_t shm_bitmap_words(int nranks) { return ((size_t)nranks + 63) / 64; }

static inline char *shm_area(struct shm_header *seg, int rank)
{
    return (char *)seg + seg->areas_offset + (size_t)rank * seg->area_stride;
}

/* Bytes a segment for nranks needs, and the ring data size it will use. */
size_t shm_segment_bytes(int nranks, size_t *ring_data_bytes);

/* Launcher side: create /dev/shm/<name> (O_EXCL, 0600), size it and format header and rank
 * blocks. Returns the mapping or NULL with errno set. */
struct shm_header *shm_segment_create(const char *name, int nranks);

/* Rank side: map an existing segment and verify magic, version, size and rank count. On
 * failure returns NULL and writes a one-line reason into why. */
struct shm_header *shm_segment_attach(const char *name, int expected_nranks, char *why,
                                      size_t why_len);

/* Fault in, in this process, the pages of the pair (src, dst): its ring's control line, fastbox
 * and data (best effort; see segment.c). */
void shm_segment_prefault_pair(struct shm_header *seg, int src, int dst);
void shm_segment_detach(struct shm_header *seg);

static inline struct shm_rank_block *shm_rank_block(struct shm_header *seg, int rank)
{
    return (struct shm_rank_block *)((char *)seg + seg->ranks_offset) + rank;
}

/* Name of the job's segment for the given job id, as the launcher creates it. */
void shm_segment_name(char *out, size_t out_len, unsigned long long jobid);

#endif
