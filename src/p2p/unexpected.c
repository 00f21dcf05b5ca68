/* unexpected.c - the entries of the unexpected queues. A root that falls behind a loop of small
 * rooted collectives (or any receiver behind a stream of small sends) holds thousands of them,
 * and each used to cost a calloc for the entry and a malloc for its payload: in a 4-rank
 * MPI_Gather loop of 8 bytes, _int_malloc took 25-33% of the root's samples and copying the
 * payload into its freshly allocated, cold block another 16-24%. Entries now come from a free
 * list (last freed, first reused: still in cache), and a payload of up to
 * P2P_UNEXPECTED_INLINE_BYTES lives inside its entry; larger ones go to staging.c. The list
 * keeps at most UNEXPECTED_KEEP entries, no more than the process once held at the same time. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "p2p/internal.h"

enum { UNEXPECTED_KEEP = 4096 };

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
