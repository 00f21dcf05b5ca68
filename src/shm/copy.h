/* copy.h - copying message data into the shared rings.
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

#endif
