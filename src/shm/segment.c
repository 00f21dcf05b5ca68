/* segment.c - create, format and attach the job's shared-memory segment.
 * The launcher creates and formats it before any rank starts; ranks only map and verify it.
 * Ring memory is sized from the rank count so that 2-8 ranks get deep rings and 128 ranks
 * still fit a modest budget (tmpfs pages are only allocated when first touched). */
#include "shm/segment.h"
#include "shm/fastbox.h"
#include "shm/ring.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* 64 KiB per pair ring lets 8+ eager messages of the 4 KiB eager limit (seed 000 §4.2) or four
 * 16 KiB pipeline fragments be in flight. Large jobs shrink rings to keep the whole segment near
 * 512 MiB; 8 KiB is the smallest that still holds two maximal eager records. */
enum { RING_BYTES_MAX = 64 * 1024, RING_BYTES_MIN = 8 * 1024 };
static const size_t ring_budget_bytes = 512u << 20;

/* An inbox receives from every other rank: 16 KiB per sender (four maximal eager records each),
 * at least 128 KiB (never smaller than a pair ring, so a record that fits a ring fits an inbox)
 * and at most 1 MiB (128 ranks: 128 MiB of inboxes, touched only by orq and hybrid jobs). */
enum { INBOX_BYTES_PER_RANK = 16 * 1024, INBOX_BYTES_MIN = 128 * 1024,
       INBOX_BYTES_MAX = 1024 * 1024 };

static size_t align_up(size_t v, size_t a) { return (v + a - 1) & ~(a - 1); }

static size_t inbox_bytes_for(int nranks)
{
    size_t bytes = INBOX_BYTES_MIN;
    while (bytes < INBOX_BYTES_MAX && bytes < (size_t)nranks * INBOX_BYTES_PER_RANK)
        bytes *= 2;
    return bytes;
}

void shm_area_layout(int nranks, size_t inbox_data_bytes, struct shm_area_layout *out)
{
    size_t bitmap = align_up(shm_bitmap_words(nranks) * 8, SHM_CACHE_LINE);
    out->waiters = 2 * SHM_CACHE_LINE;
    out->doorbells = out->waiters + bitmap;
    out->opened = out->doorbells + bitmap;
    out->inbox_data = align_up(out->opened + (size_t)nranks * 8, 4096);
    out->stride = out->inbox_data + inbox_data_bytes;
}

/* One ordered pair: its ring's control line, its fastbox, its ring's data. */
static size_t pair_stride(size_t ring)
{
    return shm_ring_control_bytes() + shm_fastbox_bytes() + ring;
}

/* Pairs start page-aligned, so every fastbox cell is 128-byte aligned: the adjacent-line
 * prefetcher then pairs a cell's two lines with each other, not with a neighbour's line (cells
 * at 64 mod 128 made a 64 B message 0.315 us one-way where the ring took 0.278, vCPUs far). */
static size_t rings_offset(int nranks)
{
    size_t bytes = align_up(sizeof(struct shm_header), SHM_CACHE_LINE);
    bytes += (size_t)nranks * sizeof(struct shm_rank_block);
    return align_up(bytes, 4096);
}

static size_t areas_offset(int nranks, size_t ring)
{
    size_t bytes = rings_offset(nranks) + (size_t)nranks * (size_t)nranks * pair_stride(ring);
    return align_up(bytes, 4096);
}

size_t shm_slot_cell_bytes(int nranks)
{
    if (nranks < 3)
        return SHM_SLOT_CELL_MIN; /* the slot paths need 3+ ranks (coll/shm_call.c) */
    size_t cells = (size_t)SHM_BARRIER_SLOTS * 2 * ((size_t)nranks + 1);
    size_t bytes = SHM_SLOT_CELL_MAX;
    while (bytes > SHM_SLOT_CELL_MIN && cells * bytes > SHM_SLOT_CELLS_BUDGET)
        bytes /= 2;
    return bytes;
}

static size_t slot_cells_stride(int nranks)
{
    return 2 * ((size_t)nranks + 1) * shm_slot_cell_bytes(nranks);
}

size_t shm_segment_bytes(int nranks, size_t *ring_data_bytes)
{
    size_t pairs = (size_t)nranks * (size_t)nranks;
    size_t ring = RING_BYTES_MAX;
    while (ring > RING_BYTES_MIN && pairs * ring > ring_budget_bytes)
        ring /= 2;
    if (ring_data_bytes)
        *ring_data_bytes = ring;
    struct shm_area_layout area;
    shm_area_layout(nranks, inbox_bytes_for(nranks), &area);
    return areas_offset(nranks, ring) + (size_t)nranks * area.stride +
           (size_t)nranks * SHM_COPY_SLOTS * sizeof(struct shm_copy_slot) +
           SHM_BARRIER_SLOTS * slot_cells_stride(nranks);
}

static void format_header(struct shm_header *seg, int nranks, size_t total, size_t ring)
{
    seg->version = SHM_SEGMENT_VERSION;
    seg->nranks = (uint32_t)nranks;
    seg->total_bytes = total;
    seg->ranks_offset = align_up(sizeof(struct shm_header), SHM_CACHE_LINE);
    seg->rings_offset = rings_offset(nranks);
    seg->ring_stride = pair_stride(ring);
    seg->ring_data_bytes = ring;
    struct shm_area_layout area;
    seg->inbox_data_bytes = inbox_bytes_for(nranks);
    shm_area_layout(nranks, seg->inbox_data_bytes, &area);
    seg->areas_offset = areas_offset(nranks, ring);
    seg->area_stride = area.stride;
    seg->slots_offset = seg->areas_offset + (size_t)nranks * area.stride;
    seg->slot_cells_offset =
        seg->slots_offset + (size_t)nranks * SHM_COPY_SLOTS * sizeof(struct shm_copy_slot);
    seg->slot_cells_stride = slot_cells_stride(nranks);
    seg->slot_cell_bytes = shm_slot_cell_bytes(nranks);
    for (int r = 0; r < nranks; r++) {
        struct shm_rank_block *blk = shm_rank_block(seg, r);
        atomic_store_explicit(&blk->state, SHM_RANK_STARTED, memory_order_relaxed);
        blk->core = -1;
    }
    /* Magic last, with release: an attacher that sees the magic sees a formatted segment. */
    atomic_store_explicit(&seg->magic, SHM_SEGMENT_MAGIC, memory_order_release);
}

struct shm_header *shm_segment_create(const char *name, int nranks)
{
    size_t ring = 0;
    size_t total = shm_segment_bytes(nranks, &ring);
    int fd = shm_open(name, O_RDWR | O_CREAT | O_EXCL, 0600);
    if (fd < 0)
        return NULL;
    if (ftruncate(fd, (off_t)total) != 0) {
        int err = errno;
        close(fd);
        shm_unlink(name);
        errno = err;
        return NULL;
    }
    void *base = mmap(NULL, total, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    int err = errno;
    close(fd);
    if (base == MAP_FAILED) {
        shm_unlink(name);
        errno = err;
        return NULL;
    }
    /* ftruncate gave zeroed pages: every ring starts empty, every flag clear. */
    format_header(base, nranks, total, ring);
    return base;
}

struct shm_header *shm_segment_attach(const char *name, int expected_nranks, char *why,
                                      size_t why_len)
{
    int fd = shm_open(name, O_RDWR, 0);
    if (fd < 0) {
        snprintf(why, why_len, "cannot open job segment %s: %s", name, strerror(errno));
        return NULL;
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || (size_t)st.st_size < sizeof(struct shm_header)) {
        snprintf(why, why_len, "job segment %s is too small", name);
        close(fd);
        return NULL;
    }
    void *base = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (base == MAP_FAILED) {
        snprintf(why, why_len, "cannot map job segment %s: %s", name, strerror(errno));
        return NULL;
    }
    struct shm_header *seg = base;
    size_t expected = shm_segment_bytes(expected_nranks, NULL);
    const char *bad = NULL;
    if (atomic_load_explicit(&seg->magic, memory_order_acquire) != SHM_SEGMENT_MAGIC)
        bad = "bad magic (not a nodempi segment)";
    else if (seg->version != SHM_SEGMENT_VERSION)
        bad = "version mismatch between mpiexec and libnodempi";
    else if ((int)seg->nranks != expected_nranks)
        bad = "rank count differs from NODEMPI_SIZE";
    else if (seg->total_bytes != expected || (size_t)st.st_size != expected)
        bad = "size differs from what this libnodempi expects";
    if (bad) {
        snprintf(why, why_len, "job segment %s: %s", name, bad);
        munmap(base, (size_t)st.st_size);
        return NULL;
    }
    return seg;
}

/* A tmpfs page is allocated, and mapped into each process, on its first touch: a pair's ring
 * first used mid-run paid ~15 page faults per direction over its first lap (~5 us each on this
 * VM), which OSU's collectives at 2 ranks showed as the first size above the fastbox's 64 B
 * taking 1.2-1.7x the time of the sizes around it (128 B, 1000 iterations: +0.1 us each).
 * MADV_POPULATE_WRITE (Linux 5.14) maps them in one call at MPI_Init; on older kernels it fails
 * with EINVAL and the pages fault in on use as before. */
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif
void shm_segment_prefault_pair(struct shm_header *seg, int src, int dst)
{
    size_t start = seg->rings_offset + ((size_t)src * seg->nranks + (size_t)dst) * seg->ring_stride;
    size_t end = start + seg->ring_stride;
    start &= ~(size_t)4095; /* madvise takes whole pages; a neighbour's page too does no harm */
    end = align_up(end, 4096);
    (void)madvise((char *)seg + start, end - start, MADV_POPULATE_WRITE);
}

void shm_segment_detach(struct shm_header *seg)
{
    if (seg)
        munmap(seg, seg->total_bytes);
}

void shm_segment_name(char *out, size_t out_len, unsigned long long jobid)
{
    snprintf(out, out_len, "/nodempi-%u-%llx", (unsigned)getuid(), jobid);
}
