/* cma.c - process_vm_readv with the loops it needs: at most IOV_MAX vectors per call and partial
 * transfers (the kernel may stop early), resumed from the exact byte where it stopped. */
#include "shm/cma.h"

#include <stdint.h>

#include <errno.h>
#include <limits.h>
#include <string.h>
#include <unistd.h>

#include "shm/copy.h"
#include "shm/heap.h"

#ifndef IOV_MAX
#define IOV_MAX 1024
#endif

int shm_cma_probe(void)
{
    char from[16] = "nodempi-cma", to[16] = {0};
    struct iovec local = {to, sizeof(to)}, remote = {from, sizeof(from)};
    ssize_t n = process_vm_readv(getpid(), &local, 1, &remote, 1, 0);
    return n == (ssize_t)sizeof(from) && memcmp(from, to, sizeof(from)) == 0;
}

/* A cursor into an iovec stream: vector index and offset inside it. */
struct iov_cursor {
    const struct iovec *iov;
    int count;
    int index;
    size_t offset;
};

/* Up to max vectors starting at the cursor, totalling at most limit bytes. */
static int cursor_take(const struct iov_cursor *c, struct iovec *out, int max, size_t limit,
                       size_t *taken)
{
    int n = 0;
    size_t total = 0;
    for (int i = c->index; i < c->count && n < max && total < limit; i++) {
        size_t skip = i == c->index ? c->offset : 0;
        size_t len = c->iov[i].iov_len - skip;
        if (len == 0)
            continue;
        if (len > limit - total)
            len = limit - total;
        out[n].iov_base = (char *)c->iov[i].iov_base + skip;
        out[n].iov_len = len;
        total += len;
        n++;
    }
    *taken = total;
    return n;
}

static void cursor_advance(struct iov_cursor *c, size_t bytes)
{
    while (bytes > 0 && c->index < c->count) {
        size_t left = c->iov[c->index].iov_len - c->offset;
        if (bytes < left) {
            c->offset += bytes;
            return;
        }
        bytes -= left;
        c->index++;
        c->offset = 0;
    }
}

/* When every remote vector lies in pid's shared heap (shm/heap.h), copy the streams with
 * memcpy through this process's mapping of that heap: no system call, no page pinning. Returns
 * 0 when it did the whole copy, -1 when the caller must go through the kernel. */
static int heap_copy(pid_t pid, const struct iovec *local, int nlocal, const struct iovec *remote,
                     int nremote, size_t bytes, int write)
{
    if (!shm_heap_active)
        return -1;
    struct iovec mapped[64];
    if (nremote > 64)
        return -1;
    for (int i = 0; i < nremote; i++) {
        void *at = shm_heap_peer_address(pid, (uint64_t)(uintptr_t)remote[i].iov_base,
                                         remote[i].iov_len);
        if (!at && remote[i].iov_len)
            return -1;
        mapped[i] = (struct iovec){at, remote[i].iov_len};
    }
    struct iov_cursor lc = {local, nlocal, 0, 0}, rc = {mapped, nremote, 0, 0};
    size_t done = 0;
    while (done < bytes) {
        struct iovec l, r;
        size_t lt, rt;
        if (cursor_take(&lc, &l, 1, bytes - done, &lt) != 1 ||
            cursor_take(&rc, &r, 1, lt, &rt) != 1)
            return done ? EFAULT : -1;
        if (write)
            shm_copy(r.iov_base, l.iov_base, rt);
        else
            shm_copy(l.iov_base, r.iov_base, rt);
        cursor_advance(&lc, rt);
        cursor_advance(&rc, rt);
        done += rt;
    }
    return 0;
}

static int cma_copy(pid_t pid, const struct iovec *local, int nlocal, const struct iovec *remote,
                    int nremote, size_t bytes, int write)
{
    int direct = heap_copy(pid, local, nlocal, remote, nremote, bytes, write);
    if (direct >= 0)
        return direct;
    struct iov_cursor lc = {local, nlocal, 0, 0}, rc = {remote, nremote, 0, 0};
    struct iovec lv[64], rv[64];
    size_t done = 0;
    while (done < bytes) {
        /* Cap one call at 1 GiB: the kernel's own per-call limit is below SSIZE_MAX anyway. */
        size_t limit = bytes - done < (1u << 30) ? bytes - done : (1u << 30);
        size_t ltaken, rtaken;
        int ln = cursor_take(&lc, lv, 64, limit, &ltaken);
        int rn = cursor_take(&rc, rv, 64, ltaken, &rtaken);
        if (rtaken < ltaken)
            ln = cursor_take(&lc, lv, 64, rtaken, &ltaken);
        unsigned long nl = (unsigned long)ln, nr = (unsigned long)rn;
        ssize_t n = write ? process_vm_writev(pid, lv, nl, rv, nr, 0)
                          : process_vm_readv(pid, lv, nl, rv, nr, 0);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return errno;
        }
        if (n == 0)
            return EFAULT;
        cursor_advance(&lc, (size_t)n);
        cursor_advance(&rc, (size_t)n);
        done += (size_t)n;
    }
    return 0;
}

int shm_cma_read(pid_t pid, const struct iovec *local, int nlocal, const struct iovec *remote,
                 int nremote, size_t bytes)
{
    return cma_copy(pid, local, nlocal, remote, nremote, bytes, 0);
}

int shm_cma_write(pid_t pid, const struct iovec *local, int nlocal, const struct iovec *remote,
                  int nremote, size_t bytes)
{
    return cma_copy(pid, local, nlocal, remote, nremote, bytes, 1);
}
