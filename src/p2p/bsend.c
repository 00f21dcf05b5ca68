/* bsend.c - buffered sends (MPI_Bsend/Ibsend/Bsend_init) over the user's attached buffer.
 * Each message is packed into a region of the buffer (its packed size plus MPI_BSEND_OVERHEAD,
 * the accounting the standard tells users to provide) and sent from there as bytes; the region
 * is reclaimed when that internal send completes. Regions are kept sorted by offset and placed
 * first-fit. With MPI_BUFFER_AUTOMATIC (MPI-4.1) each region is its own heap block instead. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/comm.h"
#include "core/progress.h"
#include "core/state.h"
#include "datatype/datatype.h"
#include "p2p/internal.h"
#include "p2p/p2p.h"

struct bsend_region {
    struct bsend_region *next;
    size_t offset;
    size_t length;
    struct core_request *send;
    char *heap; /* MPI_BUFFER_AUTOMATIC: the region's own memory */
};

static struct {
    char *buffer;
    size_t size;
    struct bsend_region *regions; /* sorted by offset */
} bsend;

int p2p_bsend_attach(void *buffer, size_t size)
{
    if (bsend.buffer)
        return MPI_ERR_BUFFER; /* one buffer at a time */
    bsend.buffer = buffer;
    bsend.size = size;
    return MPI_SUCCESS;
}

/* Free the regions whose sends have completed. */
static void reclaim(void)
{
    struct bsend_region **link = &bsend.regions;
    while (*link) {
        struct bsend_region *r = *link;
        if (r->send->complete) {
            *link = r->next;
            core_request_free(r->send);
            free(r->heap);
            free(r);
        } else {
            link = &r->next;
        }
    }
}

void p2p_bsend_flush(void)
{
    while (bsend.regions) {
        core_request_wait_complete(bsend.regions->send);
        reclaim();
    }
}

int p2p_bsend_flushed(void)
{
    reclaim();
    return bsend.regions == NULL;
}

int p2p_bsend_detach(void **buffer, size_t *size)
{
    p2p_bsend_flush();
    *buffer = bsend.buffer;
    *size = bsend.size;
    bsend.buffer = NULL;
    bsend.size = 0;
    return MPI_SUCCESS;
}

/* First-fit placement; NULL when the buffer has no gap that large. */
static int automatic(void)
{
    return bsend.buffer == (char *)MPI_BUFFER_AUTOMATIC;
}

/* MPI_BUFFER_AUTOMATIC: the region gets its own block, listed first (offsets mean nothing). */
static struct bsend_region *place_automatic(size_t length)
{
    struct bsend_region *r = calloc(1, sizeof(*r));
    if (r && !(r->heap = malloc(length))) {
        free(r);
        return NULL;
    }
    if (r) {
        r->length = length;
        r->next = bsend.regions;
        bsend.regions = r;
    }
    return r;
}

static struct bsend_region *place(size_t length)
{
    if (automatic())
        return place_automatic(length);
    size_t offset = 0;
    struct bsend_region **link = &bsend.regions;
    for (; *link; link = &(*link)->next) {
        if ((*link)->offset - offset >= length)
            break;
        offset = (*link)->offset + (*link)->length;
    }
    if (offset + length > bsend.size)
        return NULL;
    struct bsend_region *r = calloc(1, sizeof(*r));
    if (!r)
        return NULL;
    r->offset = offset;
    r->length = length;
    r->next = *link;
    *link = r;
    return r;
}

static void unplace(struct bsend_region *victim)
{
    for (struct bsend_region **link = &bsend.regions; *link; link = &(*link)->next)
        if (*link == victim) {
            *link = victim->next;
            free(victim->heap);
            free(victim);
            return;
        }
}

int p2p_bsend(struct core_comm *comm, uint32_t context, int dest, int tag, const void *buf,
              MPI_Count count, struct dt_type *type)
{
    if (dest == MPI_PROC_NULL)
        return MPI_SUCCESS;
    size_t bytes = dt_packed_size(type, count);
    /* The standard's accounting: a message needs its packed size plus MPI_BSEND_OVERHEAD, no
     * more (a buffer of exactly that size must do). The copy starts 8-byte aligned inside the
     * region; the padding (< 8) comes out of the overhead, which no header here uses. */
    size_t length = bytes + MPI_BSEND_OVERHEAD;
    core_progress();
    reclaim();
    struct bsend_region *r = bsend.buffer ? place(length) : NULL;
    if (!r)
        return MPI_ERR_BUFFER;
    char *copy = r->heap ? r->heap : bsend.buffer + r->offset;
    copy += (8 - (uintptr_t)copy % 8) % 8;
    dt_pack_range(type, buf, count, 0, copy, bytes);
    int rc = p2p_isend(comm, context, dest, tag, copy, (MPI_Count)bytes,
                       dt_from_handle(MPI_BYTE), CORE_SEND_STANDARD, &r->send);
    if (rc != MPI_SUCCESS)
        unplace(r);
    return rc;
}
