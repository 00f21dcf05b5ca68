/* unexpected.c - the entries of the unexpected queues. A root that falls behind a loop of small
 * rooted collectives (or any receiver behind a stream of small sends) holds thousands of them,
 * and each used to cost a calloc for the entry and a malloc for its payload: in a 4-rank
 * MPI_Gather loop of 8 bytes, _int_malloc took 25-33% of the root's samples and copying the
 * payload into its freshly allocated, cold block another 16-24%. Entries now come from a free
 * list (last freed, first reused: still in cache), and a payload of up to
 * P2P_UNEXPECTED_INLINE_BYTES lives inside its entry; larger ones go to staging.c. The list
 * keeps up to 16 MiB of entries (as staging.c keeps buffers), no more than the process once
 * held at the same time: a root that fell behind for good holds tens of thousands, and with a
 * 4096-entry list free() and malloc() were back at 15% of its samples. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "p2p/internal.h"

#define UNEXPECTED_KEEP ((int)((16u << 20) / sizeof(struct p2p_unexpected)))

static struct p2p_unexpected *free_entries; /* linked through next */
static int free_count;

struct p2p_unexpected *p2p_unexpected_new(void)
{
    struct p2p_unexpected *u = free_entries;
    if (u) {
        free_entries = u->next;
        free_count--;
    } else if (!(u = malloc(sizeof(*u)))) {
        return NULL;
    }
    /* the inline payload is written before it is read: clear only the fields */
    memset(u, 0, offsetof(struct p2p_unexpected, inline_data));
    return u;
}

void *p2p_unexpected_hold(struct p2p_unexpected *u, size_t bytes)
{
    u->data = bytes <= P2P_UNEXPECTED_INLINE_BYTES ? (void *)u->inline_data
                                                   : p2p_staging_alloc(bytes);
    return u->data;
}

void p2p_unexpected_release(struct p2p_unexpected *u)
{
    if (u->data && u->data != (void *)u->inline_data)
        p2p_staging_free(u->data, u->size);
    if (free_count >= UNEXPECTED_KEEP) {
        free(u);
        return;
    }
    u->next = free_entries;
    free_entries = u;
    free_count++;
}

void p2p_unexpected_pool_release(void)
{
    while (free_entries) {
        struct p2p_unexpected *next = free_entries->next;
        free(free_entries);
        free_entries = next;
    }
    free_count = 0;
}
