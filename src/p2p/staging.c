/* staging.c - buffers the transport copies messages into outside the rings: data set aside on
 * the sending side (long eager data that did not fit the ring, packed non-contiguous messages)
 * and unexpected eager messages on the receiving side. They come and go by the thousand (a
 * stream against a lagging receiver; a root that receives each gather's messages before it has
 * posted for them) and, handed back to malloc, the freed top of the heap is trimmed and the next
 * copies fault every page in again: the skew benchmark's producer (16 KiB, c2 = 10-100 us) took
 * 461-491 us per round instead of 98-114, a 2-rank MPI_Gather of 8 KiB 3.0-3.7 us instead of
 * 1.1 (docs/benchmarks.md "Session 6"). Freed buffers of 256 B-256 KiB are kept here, by
 * power-of-two size class, up to 16 MiB per process: no more than the process once had in use
 * at the same time. A 4 MiB cap was too small for a 2-rank gather loop of 16 KiB, whose root
 * holds hundreds of unexpected messages (2.1 -> 3.5-4.2 us). The smallest class is 1 KiB: with
 * 4 KiB the least, a root that fell behind a 1 KiB gather loop for good touched four fresh pages
 * per four messages once its backlog outgrew the cache, and spent a quarter of its time in page
 * faults (2-rank MPI_Gather 1 KiB in that state, vCPUs far: 2.0-2.8 us per call, now 0.45-1.35;
 * in step, 0.11-0.5 either way). Since 2026-11-23 the smallest class is 256 B: payloads of up
 * to 128 B live inside their unexpected-queue entry (unexpected.c), and malloc took 165-236 ns
 * per 256-byte unexpected message of a 2000-message backlog. */
#include <stdlib.h>

#include "p2p/internal.h"

enum { STAGING_MIN_SHIFT = 8, STAGING_MAX_SHIFT = 18 };
#define STAGING_CLASSES (STAGING_MAX_SHIFT - STAGING_MIN_SHIFT + 1)
static const size_t staging_cache_cap_bytes = 16u << 20;

/* A free block's first bytes link it to the next of its class. */
struct staging_block {
    struct staging_block *next;
};

static struct staging_block *cached[STAGING_CLASSES];
static size_t cached_bytes;

/* The class whose blocks hold bytes, or -1 when not cached: above the largest class, and up to
 * P2P_UNEXPECTED_INLINE_BYTES, where a 256-byte block for each of 10,000 unexpected 8-byte
 * messages would waste 2.5 MB (unexpected ones that small are kept inside their entry). */
static int class_of(size_t bytes)
{
    if (bytes <= P2P_UNEXPECTED_INLINE_BYTES)
        return -1;
    int shift = STAGING_MIN_SHIFT;
    while (shift <= STAGING_MAX_SHIFT && ((size_t)1 << shift) < bytes)
        shift++;
    return shift <= STAGING_MAX_SHIFT ? shift - STAGING_MIN_SHIFT : -1;
}

void *p2p_staging_alloc(size_t bytes)
{
    int c = class_of(bytes);
    if (c < 0)
        return malloc(bytes ? bytes : 1);
    struct staging_block *block = cached[c];
    if (block) {
        cached[c] = block->next;
        cached_bytes -= (size_t)1 << (c + STAGING_MIN_SHIFT);
        return block;
    }
    return malloc((size_t)1 << (c + STAGING_MIN_SHIFT));
}

void p2p_staging_free(void *data, size_t bytes)
{
    int c = class_of(bytes);
    size_t block_bytes = c < 0 ? 0 : (size_t)1 << (c + STAGING_MIN_SHIFT);
    if (!data || c < 0 || cached_bytes + block_bytes > staging_cache_cap_bytes) {
        free(data);
        return;
    }
    struct staging_block *block = data;
    block->next = cached[c];
    cached[c] = block;
    cached_bytes += block_bytes;
}

void p2p_staging_release(void)
{
    for (int c = 0; c < STAGING_CLASSES; c++) {
        while (cached[c]) {
            struct staging_block *next = cached[c]->next;
            free(cached[c]);
            cached[c] = next;
        }
    }
    cached_bytes = 0;
}
