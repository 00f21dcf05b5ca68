/* transfer.c - put and get, and the typed copies the accumulate code shares: where a target's
 * bytes are (rma_target_mem), range checks, load/store copies between two typed buffers, and
 * CMA transfers that hand both datatypes' iovecs straight to process_vm_readv/writev (seed
 * 004 ch. 8: non-contiguous one-sided transfers without packing). The target datatype is
 * interpreted here at the origin: one program image, one type map. Must not synchronize. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "datatype/datatype.h"
#include "rma/internal.h"
#include "shm/copy.h"
#include "shm/cma.h"
#include "shm/heap.h"

enum { IOV_BATCH = 64 };

/* ---- where the target's bytes are --------------------------------------------------------- */

/* [lo, hi) of the bytes count elements of type touch, relative to the buffer pointer. */
static int type_span(const struct dt_type *type, MPI_Count count, MPI_Aint *lo, MPI_Aint *hi)
{
    MPI_Aint last;
    if (__builtin_mul_overflow((MPI_Aint)(count - 1), type->extent, &last))
        return 0;
    MPI_Aint first = last < 0 ? last : 0;
    MPI_Aint end = last < 0 ? 0 : last;
    *lo = first + type->true_lb;
    return !__builtin_add_overflow(end + type->true_lb, type->true_extent, hi);
}

/* The end of the attached region holding byte lo, or 0 when none holds it. */
static uint64_t attached_end(const struct rma_region *regions, uint32_t n, uint64_t lo)
{
    for (uint32_t i = 0; i < n; i++) {
        uint64_t base = atomic_load_explicit(&regions[i].base, memory_order_relaxed);
        uint64_t size = atomic_load_explicit(&regions[i].size, memory_order_relaxed);
        if (lo >= base && lo < base + size)
            return base + size;
    }
    return 0;
}

/* [lo, hi) may span several adjacent attached regions (two halves of one array attached
 * separately are one contiguous target, as in MPICH and Open MPI); walk region by region. */
static int in_attached_region(struct rma_win *win, int target, uint64_t lo, uint64_t hi)
{
    uint32_t n = atomic_load_explicit(&win->targets[target].regions, memory_order_acquire);
    const struct rma_region *regions = &win->regions[(size_t)target * RMA_MAX_REGIONS];
    if (n > RMA_MAX_REGIONS)
        n = RMA_MAX_REGIONS;
    while (lo < hi) {
        uint64_t end = attached_end(regions, n, lo);
        if (end == 0)
            return 0;
        lo = end;
    }
    return 1;
}

int rma_check_range(struct rma_win *win, int target, MPI_Aint disp, MPI_Count count,
                    const struct dt_type *type)
{
    if (count == 0 || type->size == 0)
        return MPI_SUCCESS;
    MPI_Aint lo, hi, offset;
    if (!type_span(type, count, &lo, &hi))
        return MPI_ERR_RMA_RANGE;
    if (win->flavor == MPI_WIN_FLAVOR_DYNAMIC) {
        MPI_Aint a, b;
        if (__builtin_add_overflow(disp, lo, &a) || __builtin_add_overflow(disp, hi, &b) || a < 0)
            return MPI_ERR_RMA_RANGE;
        return in_attached_region(win, target, (uint64_t)a, (uint64_t)b) ? MPI_SUCCESS
                                                                           : MPI_ERR_RMA_RANGE;
    }
    const struct rma_peer *peer = &win->peers[target];
    if (disp < 0 || __builtin_mul_overflow(disp, peer->disp_unit, &offset))
        return MPI_ERR_RMA_RANGE;
    MPI_Aint a, b;
    if (__builtin_add_overflow(offset, lo, &a) || __builtin_add_overflow(offset, hi, &b))
        return MPI_ERR_RMA_RANGE;
    return a >= 0 && b <= peer->size ? MPI_SUCCESS : MPI_ERR_RMA_RANGE;
}

int rma_target_mem(struct rma_win *win, int target, MPI_Aint disp, MPI_Count count,
                   struct dt_type *type, struct rma_target_mem *mem)
{
    const struct rma_peer *peer = &win->peers[target];
    int dynamic = win->flavor == MPI_WIN_FLAVOR_DYNAMIC;
    MPI_Aint offset = dynamic ? disp : disp * peer->disp_unit;
    mem->count = count;
    mem->type = type;
    mem->direct = peer->direct;
    mem->pid = peer->pid;
    if (peer->direct) {
        mem->local = dynamic ? (char *)(uintptr_t)disp : peer->local + offset;
        mem->remote = 0;
        return MPI_SUCCESS;
    }
    mem->local = NULL;
    mem->remote = dynamic ? (uintptr_t)disp : peer->remote + (uintptr_t)offset;
    /* memory in another process that is not shared with us: only CMA reaches it */
    return win->cma_ok ? MPI_SUCCESS : MPI_ERR_UNSUPPORTED_OPERATION;
}

static int cma_error(int err)
{
    return err == EFAULT ? MPI_ERR_RMA_RANGE : MPI_ERR_OTHER;
}

/* ---- typed copies in this address space --------------------------------------------------- */

/* A position in the iovec stream of a typed buffer, refilled IOV_BATCH vectors at a time. */
struct iov_walk {
    const struct dt_type *type;
    const void *buf;
    MPI_Count count;
    size_t position;         /* packed-stream bytes before iov[index] + offset */
    struct iovec iov[IOV_BATCH];
    int n, index;
    size_t offset;
};

static void walk_init(struct iov_walk *w, const struct dt_type *type, const void *buf,
                      MPI_Count count)
{
    w->type = type;
    w->buf = buf;
    w->count = count;
    w->position = 0;
    w->n = w->index = 0;
    w->offset = 0;
}

/* The next contiguous piece (at most max bytes); advances past it. */
static char *walk_next(struct iov_walk *w, size_t max, size_t *len)
{
    if (w->index == w->n) {
        size_t covered;
        w->n = dt_iovec_range(w->type, w->buf, w->count, w->position, w->iov, IOV_BATCH,
                              &covered);
        w->index = 0;
        w->offset = 0;
        if (w->n <= 0) {
            *len = 0;
            return NULL;
        }
    }
    struct iovec *v = &w->iov[w->index];
    size_t left = v->iov_len - w->offset;
    char *p = (char *)v->iov_base + w->offset;
    *len = left < max ? left : max;
    w->offset += *len;
    w->position += *len;
    if (w->offset == v->iov_len) {
        w->index++;
        w->offset = 0;
    }
    return p;
}

void rma_copy_typed(void *dst, MPI_Count dcount, struct dt_type *dtype, const void *src,
                    MPI_Count scount, struct dt_type *stype, size_t bytes)
{
    int dcontig = dt_is_contiguous(dtype, dcount), scontig = dt_is_contiguous(stype, scount);
    if (dcontig && scontig) {
        memmove((char *)dst + dtype->true_lb, (const char *)src + stype->true_lb, bytes);
    } else if (dcontig) {
        dt_pack_range(stype, src, scount, 0, (char *)dst + dtype->true_lb, bytes);
    } else if (scontig) {
        dt_unpack_range(dtype, dst, dcount, 0, (const char *)src + stype->true_lb, bytes);
    } else {
        struct iov_walk d, s;
        walk_init(&d, dtype, dst, dcount);
        walk_init(&s, stype, src, scount);
        size_t done = 0;
        while (done < bytes) {
            size_t dl, sl;
            char *dp = walk_next(&d, bytes - done, &dl);
            if (!dp)
                return; /* the sizes were checked: not reached */
            /* take from the source exactly what fits this destination piece */
            while (dl > 0) {
                const char *sp = walk_next(&s, dl, &sl);
                if (!sp)
                    return;
                memmove(dp, sp, sl);
                dp += sl;
                dl -= sl;
                done += sl;
            }
        }
    }
}

/* ---- CMA ---------------------------------------------------------------------------------- */

/* The kernel's copy in process_vm_readv/writev is `rep movsb`, ~5x slower when the
 * destination lies 1-63 bytes past the source modulo 4 KiB (shm/copy.h): MPI_Get of 64 KiB /
 * 1 MiB from an MPI_Win_create window in a static array into a buffer 16 bytes further took
 * 47.5 / 818 us against 15.5 / 135 at distance 0. There one contiguous range goes through a
 * bounce buffer that lies at distance 0 from the remote bytes (the kernel's copy at full
 * speed) and shm_copy moves it on (its vector loop at the short distance), in pieces that stay
 * in the L2 cache. Ranges in the peer's shared heap are memcpy'd by shm_cma_* anyway. */
enum { BOUNCE_BYTES = 256 << 10 }; /* a multiple of 4 KiB: every piece keeps distance 0 */
static char *bounce; /* allocated on first need, kept for the process (under the big lock) */

static int cma_contiguous(pid_t pid, char *local, uint64_t remote, size_t n, int write)
{
    struct iovec liov = {local, n}, riov = {(void *)(uintptr_t)remote, n};
    uintptr_t dst = write ? (uintptr_t)remote : (uintptr_t)local;
    uintptr_t src = write ? (uintptr_t)local : (uintptr_t)remote;
    if (!shm_copy_pieces || n < 2 * SHM_COPY_SHORT_PIECE || !shm_short_page_distance(dst, src) ||
        shm_heap_peer_address(pid, remote, n) ||
        (!bounce && posix_memalign((void **)&bounce, 4096, BOUNCE_BYTES + 4096)))
        return write ? shm_cma_write(pid, &liov, 1, &riov, 1, n)
                     : shm_cma_read(pid, &liov, 1, &riov, 1, n);
    char *b = bounce + (remote & 4095);
    for (size_t x = 0; x < n; x += BOUNCE_BYTES) {
        size_t k = n - x < BOUNCE_BYTES ? n - x : BOUNCE_BYTES;
        struct iovec biov = {b, k}, piece = {(void *)(uintptr_t)(remote + x), k};
        int err;
        if (write) {
            shm_copy(b, local + x, k);
            err = shm_cma_write(pid, &biov, 1, &piece, 1, k);
        } else {
            err = shm_cma_read(pid, &biov, 1, &piece, 1, k);
            if (!err)
                shm_copy(local + x, b, k);
        }
        if (err)
            return err;
    }
    return 0;
}

/* Move `bytes` between a local typed buffer and the target's typed memory: batches of both
 * iovec lists, each call moving what both batches cover. */
static int cma_typed(const struct rma_target_mem *mem, const void *local, MPI_Count lcount,
                     const struct dt_type *ltype, size_t bytes, int write)
{
    struct iovec liov[IOV_BATCH], riov[IOV_BATCH];
    size_t position = 0;
    while (position < bytes) {
        size_t lcov, rcov;
        int nl = dt_iovec_range(ltype, local, lcount, position, liov, IOV_BATCH, &lcov);
        int nr = dt_iovec_range(mem->type, (const void *)mem->remote, mem->count, position, riov,
                                IOV_BATCH, &rcov);
        size_t n = lcov < rcov ? lcov : rcov;
        if (n > bytes - position)
            n = bytes - position;
        if (n == 0)
            return MPI_ERR_INTERN;
        int err = nl == 1 && nr == 1
                      ? cma_contiguous(mem->pid, liov[0].iov_base,
                                       (uint64_t)(uintptr_t)riov[0].iov_base, n, write)
                  : write ? shm_cma_write(mem->pid, liov, nl, riov, nr, n)
                          : shm_cma_read(mem->pid, liov, nl, riov, nr, n);
        if (err)
            return cma_error(err);
        position += n;
    }
    return MPI_SUCCESS;
}

/* Packed bytes [position, position + len) of the target <-> a contiguous local buffer. */
static int cma_range(const struct rma_target_mem *mem, size_t position, void *buf, size_t len,
                     int write)
{
    struct iovec riov[IOV_BATCH];
    size_t done = 0;
    while (done < len) {
        size_t rcov;
        int nr = dt_iovec_range(mem->type, (const void *)mem->remote, mem->count,
                                position + done, riov, IOV_BATCH, &rcov);
        size_t n = rcov < len - done ? rcov : len - done;
        if (n == 0)
            return MPI_ERR_INTERN;
        struct iovec liov = {(char *)buf + done, n};
        int err = nr == 1 ? cma_contiguous(mem->pid, (char *)buf + done,
                                           (uint64_t)(uintptr_t)riov[0].iov_base, n, write)
                  : write ? shm_cma_write(mem->pid, &liov, 1, riov, nr, n)
                          : shm_cma_read(mem->pid, &liov, 1, riov, nr, n);
        if (err)
            return cma_error(err);
        done += n;
    }
    return MPI_SUCCESS;
}

int rma_target_read(const struct rma_target_mem *mem, size_t position, void *dst, size_t len)
{
    if (!mem->direct)
        return cma_range(mem, position, dst, len, 0);
    if (dt_is_contiguous(mem->type, mem->count))
        shm_copy(dst, mem->local + mem->type->true_lb + position, len);
    else
        dt_pack_range(mem->type, mem->local, mem->count, position, dst, len);
    return MPI_SUCCESS;
}

int rma_target_write(const struct rma_target_mem *mem, size_t position, const void *src,
                     size_t len)
{
    if (!mem->direct)
        return cma_range(mem, position, (void *)src, len, 1);
    if (dt_is_contiguous(mem->type, mem->count))
        shm_copy(mem->local + mem->type->true_lb + position, src, len);
    else
        dt_unpack_range(mem->type, mem->local, mem->count, position, src, len);
    return MPI_SUCCESS;
}

/* ---- put / get ---------------------------------------------------------------------------- */

char *rma_direct_address(struct rma_win *win, int target, MPI_Aint disp, size_t bytes)
{
    const struct rma_peer *peer = &win->peers[target];
    MPI_Aint offset;
    if (!peer->direct || win->flavor == MPI_WIN_FLAVOR_DYNAMIC || disp < 0 ||
        __builtin_mul_overflow(disp, peer->disp_unit, &offset) || offset > peer->size ||
        (size_t)(peer->size - offset) < bytes)
        return NULL;
    return peer->local + offset;
}

int rma_put_fast(struct rma_win *win, const void *origin, size_t bytes, int target,
                 MPI_Aint disp)
{
    char *t = rma_direct_address(win, target, disp, bytes);
    if (!t || rma_check_epoch(win, target) != MPI_SUCCESS)
        return 0;
    shm_copy(t, origin, bytes);
    return 1;
}

int rma_get_fast(struct rma_win *win, void *origin, size_t bytes, int target, MPI_Aint disp)
{
    char *t = rma_direct_address(win, target, disp, bytes);
    if (!t || rma_check_epoch(win, target) != MPI_SUCCESS)
        return 0;
    shm_copy(origin, t, bytes);
    return 1;
}

int rma_put(struct rma_win *win, const void *origin, MPI_Count origin_count,
            struct dt_type *origin_type, int target, MPI_Aint disp, MPI_Count target_count,
            struct dt_type *target_type)
{
    size_t bytes = dt_packed_size(origin_type, origin_count);
    if (bytes > dt_packed_size(target_type, target_count))
        return MPI_ERR_TRUNCATE;
    if (bytes == 0)
        return MPI_SUCCESS;
    struct rma_target_mem mem;
    int rc = rma_target_mem(win, target, disp, target_count, target_type, &mem);
    if (rc != MPI_SUCCESS)
        return rc;
    if (mem.direct) {
        rma_copy_typed(mem.local, target_count, target_type, origin, origin_count, origin_type,
                       bytes);
        return MPI_SUCCESS;
    }
    return cma_typed(&mem, origin, origin_count, origin_type, bytes, 1);
}

int rma_get(struct rma_win *win, void *origin, MPI_Count origin_count,
            struct dt_type *origin_type, int target, MPI_Aint disp, MPI_Count target_count,
            struct dt_type *target_type)
{
    size_t bytes = dt_packed_size(target_type, target_count);
    if (bytes > dt_packed_size(origin_type, origin_count))
        return MPI_ERR_TRUNCATE;
    if (bytes == 0)
        return MPI_SUCCESS;
    struct rma_target_mem mem;
    int rc = rma_target_mem(win, target, disp, target_count, target_type, &mem);
    if (rc != MPI_SUCCESS)
        return rc;
    if (mem.direct) {
        rma_copy_typed(origin, origin_count, origin_type, mem.local, target_count, target_type,
                       bytes);
        return MPI_SUCCESS;
    }
    return cma_typed(&mem, origin, origin_count, origin_type, bytes, 0);
}
