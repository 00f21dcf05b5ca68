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

void shm_copy_streaming(void *dst, const void *src, size_t len);

/* memcpy of a large block in pieces of SHM_COPY_PIECE bytes. glibc on this machine's AMD CPU
 * stops using `rep movsb` at the L2 size (1 MiB) and copies a block of 1 MiB or more with its
 * vector loop, or non-temporal stores: 15-25% slower whenever the data then fits in the cache
 * (one process, hot, 1 / 2 / 16 / 32 MiB: 55 / 51 / 32 / 26 GB/s whole against 64 / 61 / 43 /
 * 30 in 512 KiB pieces; 4 and 8 MiB equal). MPI_Get / MPI_Put on a shared window copied 1 MiB
 * at 56 GB/s against Open MPI's 65. Below SHM_COPY_PIECE it is memcpy. Used by direct RMA
 * transfers, contiguous pack/unpack ranges and collectives' local copies; src and dst must not
 * overlap. */
enum { SHM_COPY_PIECE = 512 << 10 };
void shm_copy_large(void *dst, const void *src, size_t len);

#endif
