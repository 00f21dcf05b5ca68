/* pack.c - moving typed data: copy any byte range [position, position + len) of the packed
 * stream of (buf, count, type) to or from a contiguous buffer, or describe it as iovecs for
 * single copy. Contiguous types are one memcpy. Otherwise the start is found in O(log nblocks):
 * element = position / size, then the block by binary search on the packed positions of the
 * compiled block list, and the copy walks blocks from there. Addresses are computed as integers
 * so MPI_BOTTOM (buf == NULL) with absolute displacements and negative offsets are well defined. */
#include <string.h>

#include "datatype/internal.h"

/* Where a packed-stream position falls: element index, block index, offset within the block. */
struct cursor {
    uintptr_t base;   /* address of the element: buf + element * extent */
    size_t block;
    MPI_Count offset;
};

static size_t find_block(const MPI_Count *position, size_t nblocks, MPI_Count offset)
{
    size_t lo = 0, hi = nblocks - 1;
    while (lo < hi) { /* largest i with position[i] <= offset */
        size_t mid = lo + (hi - lo + 1) / 2;
        if (position[mid] <= offset)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

static struct cursor cursor_at(const struct dt_type *type, const void *buf, size_t position)
{
    MPI_Count element = (MPI_Count)position / type->size;
    MPI_Count within = (MPI_Count)position % type->size;
    const MPI_Count *positions = dt_block_positions(type);
    struct cursor c;
    c.base = (uintptr_t)buf + (uintptr_t)(element * type->extent);
    c.block = find_block(positions, type->nblocks, within);
    c.offset = within - positions[c.block];
    return c;
}

/* memcpy with the common small element sizes inlined (a vector of doubles copies 8 bytes per
 * block: a library call each would dominate). */
static inline void copy_bytes(void *dst, const void *src, size_t n)
{
    switch (n) {
    case 4: memcpy(dst, src, 4); break;
    case 8: memcpy(dst, src, 8); break;
    case 16: memcpy(dst, src, 16); break;
    default: memcpy(dst, src, n); break;
    }
}

/* to_packed: typed buffer -> packed; else packed -> typed buffer. */
static void copy_range(const struct dt_type *type, uintptr_t buf, size_t position,
                       unsigned char *packed, size_t len, int to_packed)
{
    struct cursor c = cursor_at(type, (const void *)buf, position);
    const struct dt_block *blocks = type->blocks;
    size_t nblocks = type->nblocks;
    while (len > 0) {
        size_t n = (size_t)(blocks[c.block].length - c.offset);
        if (n > len)
            n = len;
        void *typed = (void *)(c.base + (uintptr_t)blocks[c.block].offset + (uintptr_t)c.offset);
        if (to_packed)
            copy_bytes(packed, typed, n);
        else
            copy_bytes(typed, packed, n);
        packed += n;
        len -= n;
        c.offset = 0;
        if (++c.block == nblocks) {
            c.block = 0;
            c.base += (uintptr_t)type->extent;
        }
    }
}

size_t dt_pack_range(const struct dt_type *type, const void *buf, MPI_Count count,
                     size_t position, void *dst, size_t len)
{
    (void)count;
    if (len == 0)
        return 0;
    if (type->contiguous) {
        memcpy(dst, (const void *)((uintptr_t)buf + (uintptr_t)type->true_lb + position), len);
        return len;
    }
    copy_range(type, (uintptr_t)buf, position, dst, len, 1);
    return len;
}

size_t dt_unpack_range(const struct dt_type *type, void *buf, MPI_Count count, size_t position,
                       const void *src, size_t len)
{
    (void)count;
    if (len == 0)
        return 0;
    if (type->contiguous) {
        memcpy((void *)((uintptr_t)buf + (uintptr_t)type->true_lb + position), src, len);
        return len;
    }
    copy_range(type, (uintptr_t)buf, position, (unsigned char *)(uintptr_t)src, len, 0);
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
    struct cursor c = cursor_at(type, buf, position);
    const struct dt_block *blocks = type->blocks;
    while (left > 0) {
        size_t len = (size_t)(blocks[c.block].length - c.offset);
        uintptr_t addr = c.base + (uintptr_t)blocks[c.block].offset + (uintptr_t)c.offset;
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
        if (++c.block == type->nblocks) {
            c.block = 0;
            c.base += (uintptr_t)type->extent;
        }
    }
    return n;
}
