/* copy.h - copying message data into the shared rings, and large copies in pieces.
 * shm_copy_streaming writes with non-temporal (streaming) stores: whole cache lines go out
 * without first being fetched, and they do not sit dirty in the sender's cache for the receiver
 * to pull across. nodempi-probe measured it 7-8x faster than memcpy for cross-core pipelining on
 * this machine's VM when the host places the vCPUs far apart, and never slower there; on one CPU
 * it halves bandwidth (the receiver would have hit its own cache), so callers choose per pair.
 * Streaming stores are weakly ordered: shm_copy_streaming ends with sfence, so the release
 * store that publishes the record cannot pass them. */
#ifndef NODEMPI_SHM_COPY_H
#define NODEMPI_SHM_COPY_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

void shm_copy_streaming(void *dst, const void *src, size_t len);

/* shm_copy: memcpy for message data, working around two ways glibc's memcpy is slow on this
 * machine's AMD CPU (EPYC family 25 under KVM; glibc 2.36):
 * - Short page distance. From 4 KiB (glibc's rep_movsb_threshold with AVX2) up to the L2 size
 *   (512 KiB here) glibc copies with `rep movsb`, which moves 1.6-2.8 GB/s instead of 20-80 when
 *   the destination lies 1-31 bytes past the source modulo 4 KiB ((dst - src) mod 4096 in
 *   [1, 31]; 0 and 32-4095 are fast; `bench/hwlimit -c shortdist` shows it). A receive buffer
 *   from malloc (16 bytes past a page) filled from a page-aligned block hits exactly that. Such
 *   copies run a loop of unaligned AVX2 (else SSE2) loads and stores instead: 20-35 GB/s on
 *   data another core just wrote, as fast as an aligned `rep movsb` (copy.c has the figures).
 *   The window checked is [1, 63], as glibc's own fix for Intel's variant of the problem does.
 * - Large blocks. glibc stops using `rep movsb` at the L2 size and copies a block of 1 MiB or
 *   more with its vector loop or non-temporal stores: 15-25% slower whenever the data then fits
 *   in the cache (one process, hot, 1 / 2 / 16 / 32 MiB: 55 / 51 / 32 / 26 GB/s whole against
 *   64 / 61 / 43 / 30 in 512 KiB pieces; 4 and 8 MiB equal). MPI_Get / MPI_Put on a shared window
 *   copied 1 MiB at 56 GB/s against Open MPI's 65. So blocks above SHM_COPY_PIECE go in pieces.
 * Everything else is one memcpy (SHM_COPY_SHORT_PIECE: the pieces of the short-distance copy
 * where there is no x86 vector loop). Used by every path that copies message payload of unbounded
 * size: eager cells, rendezvous and heap single copy, RMA, pack/unpack ranges, collectives'
 * local copies. src and dst must not overlap. */
enum { SHM_COPY_PIECE = 512 << 10, SHM_COPY_SHORT_PIECE = 2 << 10 };
/* 0: one memcpy per block (NODEMPI_COPY_PIECES=off, to measure the pieces' effect). Set once at
 * MPI_Init before any transfer; default 1. */
extern int shm_copy_pieces;
/* 1 when (dst - src) mod 4096 is in [1, 63], where `rep movsb` is slow (also the kernel's, in
 * process_vm_readv/writev). Unsigned wrap-around makes it right for dst below src too. */
static inline int shm_short_page_distance(uintptr_t dst, uintptr_t src)
{
    uintptr_t distance = (dst - src) & 4095;
    return distance >= 1 && distance <= 63;
}
void shm_copy_in_pieces(void *dst, const void *src, size_t len);

/* shm_copy_short's step: width bytes from each end of [s, s + len) (they overlap unless
 * len == 2 * width), both loaded before either is stored. */
static inline void shm_copy_ends(unsigned char *d, const unsigned char *s, size_t len,
                                 size_t width)
{
    unsigned char head[16], tail[16];
    memcpy(head, s, width);
    memcpy(tail, s + len - width, width);
    memcpy(d, head, width);
    memcpy(d + len - width, tail, width);
}

/* Copy len <= 32 bytes inline (a small message's payload into a cell or out of it): two
 * possibly overlapping moves of the largest power of two not above len, one from each end, so
 * nothing outside [src, src + len) is read (a message may end at a page's end). A call to
 * glibc's memcpy for a variable length this short costs ~20 instructions before the first
 * byte moves. */
static inline void shm_copy_short(void *dst, const void *src, size_t len)
{
    unsigned char *d = dst;
    const unsigned char *s = src;
    if (len >= 16)
        shm_copy_ends(d, s, len, 16);
    else if (len >= 8)
        shm_copy_ends(d, s, len, 8);
    else if (len >= 4)
        shm_copy_ends(d, s, len, 4);
    else if (len) {
        d[0] = s[0];
        d[len / 2] = s[len / 2];
        d[len - 1] = s[len - 1];
    }
}

static inline void shm_copy(void *dst, const void *src, size_t len)
{
    if (len < 2 * SHM_COPY_SHORT_PIECE || !shm_copy_pieces) /* below: glibc's vector loop */
        memcpy(dst, src, len);
    else
        shm_copy_in_pieces(dst, src, len);
}

#endif
