/* pack.c - moving typed data: copy any byte range [position, position + len) of the packed
 * stream of (buf, count, type) to or from a contiguous buffer, or describe it as iovecs for
 * single copy. Contiguous types are one memcpy. Otherwise the start is found in O(log n):
 * element = position / size, then the run (equal blocks at a constant stride) by binary search
 * on the runs' packed positions, and the copy walks runs from there. Addresses are computed as
 * integers so MPI_BOTTOM (buf == NULL) with absolute displacements and negative offsets are
 * well defined. */
#include <string.h>

#include "datatype/internal.h"
#include "shm/copy.h"

/* Where a packed-stream position falls: the element, the run, the block within the run and
 * the byte within the block. */
struct cursor {
    uintptr_t base;   /* address of the element: buf + element * extent */
    const struct dt_run *runs;
    size_t nruns, run;
    MPI_Count block, offset;
    MPI_Aint extent;
};

static size_t find_run(const MPI_Count *position, size_t n, MPI_Count offset)
{
    size_t lo = 0, hi = n - 1;
    while (lo < hi) { /* largest i with position[i] <= offset */
        size_t mid = lo + (hi - lo + 1) / 2;
        if (position[mid] <= offset)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

/* A type of one run whose next element continues the run's stride (resized types, vectors of
 * whole rows...) is one run over all elements: no per-element loop. */
static int fold_elements(const struct dt_type *type, MPI_Count count, struct dt_run *folded)
{
    const struct dt_runs *runs = dt_runs_of(type);
    if (runs->n != 1 || count <= 1)
        return 0;
    const struct dt_run *r = &runs->run[0];
    MPI_Aint stride = r->count == 1 ? type->extent : r->stride;
    if (r->count > 1 && r->stride * (MPI_Aint)r->count != type->extent)
        return 0;
    *folded = (struct dt_run){r->offset, stride, r->length, r->count * count};
    return 1;
}

static struct cursor cursor_at(const struct dt_type *type, uintptr_t buf, MPI_Count count,
                               size_t position, struct dt_run *folded)
{
    struct cursor c = {.base = buf, .extent = type->extent};
    MPI_Count within;
    if (fold_elements(type, count, folded)) {
        c.runs = folded;
        c.nruns = 1;
        within = (MPI_Count)position;
    } else {
        const struct dt_runs *runs = dt_runs_of(type);
        MPI_Count element = (MPI_Count)position / type->size;
        within = (MPI_Count)position % type->size;
        c.runs = runs->run;
        c.nruns = runs->n;
        c.base += (uintptr_t)(element * type->extent);
        c.run = find_run(dt_run_positions(runs), runs->n, within);
        within -= dt_run_positions(runs)[c.run];
    }
    c.block = within / c.runs[c.run].length;
    c.offset = within % c.runs[c.run].length;
    return c;
}

/* After the current block or run is used up: the next run, or the next element. */
static inline void cursor_wrap(struct cursor *c)
{
    if (c->block < c->runs[c->run].count)
        return;
    c->block = 0;
    if (++c->run == c->nruns) {
        c->run = 0;
        c->base += (uintptr_t)c->extent;
    }
}

/* n blocks of `length` bytes at stride apart <-> consecutive packed bytes. */
static inline __attribute__((always_inline)) void
copy_strided(uintptr_t typed, MPI_Aint stride, size_t length, MPI_Count n,
             unsigned char *packed, int to_packed)
{
    if (to_packed) {
        for (MPI_Count k = 0; k < n; k++, typed += (uintptr_t)stride, packed += length)
            shm_copy(packed, (const void *)typed, length);
    } else {
        for (MPI_Count k = 0; k < n; k++, typed += (uintptr_t)stride, packed += length)
            shm_copy((void *)typed, packed, length);
    }
}

/* The common small lengths get their own loops, where memcpy of a constant size is a move. */
static void copy_blocks(uintptr_t typed, MPI_Aint stride, size_t length, MPI_Count n,
                        unsigned char *packed, int to_packed)
{
    switch (length) {
    case 2: copy_strided(typed, stride, 2, n, packed, to_packed); break;
    case 4: copy_strided(typed, stride, 4, n, packed, to_packed); break;
    case 8: copy_strided(typed, stride, 8, n, packed, to_packed); break;
    case 16: copy_strided(typed, stride, 16, n, packed, to_packed); break;
    case 32: copy_strided(typed, stride, 32, n, packed, to_packed); break;
    default: copy_strided(typed, stride, length, n, packed, to_packed); break;
    }
}

/* to_packed: typed buffer -> packed; else packed -> typed buffer. */
static void copy_range(const struct dt_type *type, uintptr_t buf, MPI_Count count,
                       size_t position, unsigned char *packed, size_t len, int to_packed)
{
    struct dt_run folded;
    struct cursor c = cursor_at(type, buf, count, position, &folded);
    while (len > 0) {
        const struct dt_run *r = &c.runs[c.run];
        size_t length = (size_t)r->length;
        uintptr_t typed = c.base + (uintptr_t)r->offset + (uintptr_t)(c.block * r->stride);
        if (c.offset == 0 && len >= length) { /* whole blocks */
            MPI_Count n = r->count - c.block;
            if ((size_t)n > len / length)
                n = (MPI_Count)(len / length);
            copy_blocks(typed, r->stride, length, n, packed, to_packed);
            packed += (size_t)n * length;
            len -= (size_t)n * length;
            c.block += n;
        } else { /* the start or the end of a block */
            size_t n = length - (size_t)c.offset;
            if (n > len)
                n = len;
            void *at = (void *)(typed + (uintptr_t)c.offset);
            if (to_packed)
                shm_copy(packed, at, n);
            else
                shm_copy(at, packed, n);
            packed += n;
            len -= n;
            c.offset += (MPI_Count)n;
            if (c.offset < (MPI_Count)length)
                break; /* len is used up */
            c.offset = 0;
            c.block++;
        }
        cursor_wrap(&c);
    }
}

size_t dt_pack_range(const struct dt_type *type, const void *buf, MPI_Count count,
                     size_t position, void *dst, size_t len)
{
    if (len == 0)
        return 0;
    if (type->contiguous) {
        shm_copy(dst, (const void *)((uintptr_t)buf + (uintptr_t)type->true_lb + position),
                       len);
        return len;
    }
    copy_range(type, (uintptr_t)buf, count, position, dst, len, 1);
    return len;
}

size_t dt_unpack_range(const struct dt_type *type, void *buf, MPI_Count count, size_t position,
                       const void *src, size_t len)
{
    if (len == 0)
        return 0;
    if (type->contiguous) {
        shm_copy((void *)((uintptr_t)buf + (uintptr_t)type->true_lb + position), src, len);
        return len;
    }
    copy_range(type, (uintptr_t)buf, count, position, (unsigned char *)(uintptr_t)src, len, 0);
    return len;
}

int dt_iovec_range(const struct dt_type *type, const void *buf, MPI_Count count,
                   size_t position, struct iovec *iov, int max_iov, size_t *covered)
{
    size_t total = dt_packed_size(type, count);
    size_t left = position < total ? total - position : 0;
    int n = 0;
    *covered = 0;
    if (left == 0 || max_iov <= 0)
        return 0;
    if (type->contiguous) {
        iov[0].iov_base = (void *)((uintptr_t)buf + (uintptr_t)type->true_lb + position);
        iov[0].iov_len = left;
        *covered = left;
        return 1;
    }
    struct dt_run folded;
    struct cursor c = cursor_at(type, (uintptr_t)buf, count, position, &folded);
    while (left > 0) {
        const struct dt_run *r = &c.runs[c.run];
        size_t len = (size_t)(r->length - c.offset);
        uintptr_t addr = c.base + (uintptr_t)r->offset + (uintptr_t)(c.block * r->stride) +
                         (uintptr_t)c.offset;
        if (len > left)
            len = left;
        if (n > 0 && (uintptr_t)iov[n - 1].iov_base + iov[n - 1].iov_len == addr) {
            iov[n - 1].iov_len += len; /* adjacent across blocks or elements */
        } else {
            if (n == max_iov)
                break;
            iov[n].iov_base = (void *)addr;
            iov[n].iov_len = len;
            n++;
        }
        *covered += len;
        left -= len;
        c.offset = 0;
        c.block++;
        cursor_wrap(&c);
    }
    return n;
}

int dt_for_each_block(const struct dt_type *type, MPI_Count count, dt_block_fn *fn, void *ctx)
{
    const struct dt_runs *runs = dt_runs_of(type);
    for (MPI_Count e = 0; e < count; e++) {
        MPI_Aint base = (MPI_Aint)e * type->extent;
        for (size_t i = 0; i < runs->n; i++) {
            const struct dt_run *r = &runs->run[i];
            for (MPI_Count k = 0; k < r->count; k++) {
                int stop = fn(ctx, base + r->offset + (MPI_Aint)k * r->stride, r->length);
                if (stop)
                    return stop;
            }
        }
    }
    return 0;
}
