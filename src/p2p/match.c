/* match.c - posted-receive and unexpected-message queues, one pair per context id, and the MPI
 * matching rule: the first (oldest) entry whose source and tag match, wildcards allowed on the
 * receive side only. Keeping both queues in arrival/post order is what makes the non-overtaking
 * rule hold. Unexpected messages are also chained per source: a receive from one source scans
 * only that source's messages (in order), MPI_ANY_SOURCE scans them all. Contexts live in a
 * small open-addressing table that grows as communicators do. */
#include <stdlib.h>
#include <string.h>

#include "core/comm.h"
#include "core/running.h"
#include "core/tool_event.h"
#include "p2p/internal.h"

static size_t slot_of(uint32_t context, size_t capacity)
{
    return (context * 2654435761u) & (capacity - 1);
}

static void grow_table(void)
{
    size_t old_capacity = p2p.queues_capacity;
    struct p2p_match_queues *old = p2p.queues;
    size_t capacity = old_capacity ? old_capacity * 2 : 64;
    struct p2p_match_queues *table = calloc(capacity, sizeof(*table));
    if (!table)
        abort(); /* out of memory while creating a communicator's queues */
    for (size_t i = 0; i < old_capacity; i++) {
        if (!old[i].used)
            continue;
        size_t s = slot_of(old[i].context, capacity);
        while (table[s].used)
            s = (s + 1) & (capacity - 1);
        table[s] = old[i];
    }
    free(old);
    p2p.queues = table;
    p2p.queues_capacity = capacity;
    p2p.last_queues = NULL;
}

/* The queues of a context, created on first use (a message may arrive for a communicator this
 * rank has not finished creating yet). Entries are never removed: contexts are reused. */
struct p2p_match_queues *p2p_queues_lookup(uint32_t context)
{
    struct p2p_match_queues *q;
    if (!p2p.queues || (p2p.queues_used + 1) * 2 > p2p.queues_capacity)
        grow_table();
    size_t s = slot_of(context, p2p.queues_capacity);
    while (p2p.queues[s].used && p2p.queues[s].context != context)
        s = (s + 1) & (p2p.queues_capacity - 1);
    q = &p2p.queues[s];
    if (!q->used) {
        q->used = 1;
        q->context = context;
        p2p.queues_used++;
    }
    p2p.last_queues = q;
    return q;
}

void p2p_free_queues(void)
{
    for (size_t i = 0; i < p2p.queues_capacity; i++) {
        struct p2p_unexpected *u = p2p.queues[i].unexpected_head;
        while (u) {
            struct p2p_unexpected *next = u->next;
            p2p_unexpected_release(u);
            u = next;
        }
        free(p2p.queues[i].by_src);
    }
    free(p2p.queues);
    p2p.queues = NULL;
    p2p.queues_capacity = 0;
    p2p.queues_used = 0;
    p2p.last_queues = NULL;
}

static int matches(int want_src, int want_tag, int src, int tag)
{
    return (want_src == src || want_src == MPI_ANY_SOURCE) &&
           (want_tag == tag || want_tag == MPI_ANY_TAG);
}

/* The oldest posted receive that accepts (src, tag); removed from the queue. */
struct core_request *p2p_match_posted(struct p2p_match_queues *q, int src, int tag)
{
    for (struct core_request *r = q->posted_head; r; r = r->p2p.next) {
        if (matches(r->peer, r->tag, src, tag)) {
            p2p_unpost(q, r);
            return r;
        }
    }
    return NULL;
}

/* The list of one source's unexpected messages; grown on demand when create is set, else NULL
 * for a source that never sent us anything unexpected. */
static struct p2p_source_list *source_list(struct p2p_match_queues *q, int src, int create)
{
    if (src < 0)
        abort(); /* senders always carry their rank; MPI_PROC_NULL never gets here */
    if (src < q->by_src_len)
        return &q->by_src[src];
    if (!create)
        return NULL;
    int len = q->by_src_len ? q->by_src_len : 8;
    while (len <= src)
        len *= 2;
    struct p2p_source_list *lists = realloc(q->by_src, sizeof(*lists) * (size_t)len);
    if (!lists)
        abort(); /* out of memory while keeping a message */
    memset(lists + q->by_src_len, 0, sizeof(*lists) * (size_t)(len - q->by_src_len));
    q->by_src = lists;
    q->by_src_len = len;
    return &q->by_src[src];
}

/* The oldest unexpected message a receive for (source, tag) accepts; left in the queue. */
struct p2p_unexpected *p2p_match_unexpected(struct p2p_match_queues *q, int source, int tag)
{
    if (source == MPI_ANY_SOURCE) {
        for (struct p2p_unexpected *u = q->unexpected_head; u; u = u->next)
            if (tag == MPI_ANY_TAG || tag == u->tag)
                return u;
        return NULL;
    }
    struct p2p_source_list *list = source < 0 ? NULL : source_list(q, source, 0);
    for (struct p2p_unexpected *u = list ? list->head : NULL; u; u = u->src_next)
        if (tag == MPI_ANY_TAG || tag == u->tag)
            return u;
    return NULL;
}

/* Posted receives per source: send.c asks whether a stream is one-way, cor polls the sources
 * of posted receives (and every peer while an MPI_ANY_SOURCE one is posted). */
static void note_posted(const struct core_request *request, int delta)
{
    if (request->peer == MPI_ANY_SOURCE) {
        p2p.posted_any_source += delta;
        if (delta > 0)
            core_running_await(-1);
    } else if (request->peer >= 0 && p2p.peers) { /* (tests/unit/p2p match without peers) */
        int world_src = core_comm_peer_world_rank(request->comm, request->peer);
        p2p.peers[world_src].posted_from += delta;
        p2p_queue_note_posted(world_src, delta);
        if (delta > 0) /* the next wait is likely for this one (core/running.c) */
            core_running_await(world_src);
    }
}

void p2p_post(struct p2p_match_queues *q, struct core_request *request)
{
    request->p2p.next = NULL;
    request->p2p.prev = q->posted_tail;
    if (q->posted_tail)
        q->posted_tail->p2p.next = request;
    else
        q->posted_head = request;
    q->posted_tail = request;
    note_posted(request, 1);
}

/* Remove a posted receive; 0 if it was not in the queue (already matched). */
int p2p_unpost(struct p2p_match_queues *q, struct core_request *request)
{
    int in_queue = request->p2p.prev || q->posted_head == request;
    if (!in_queue)
        return 0;
    if (request->p2p.prev)
        request->p2p.prev->p2p.next = request->p2p.next;
    else
        q->posted_head = request->p2p.next;
    if (request->p2p.next)
        request->p2p.next->p2p.prev = request->p2p.prev;
    else
        q->posted_tail = request->p2p.prev;
    request->p2p.next = request->p2p.prev = NULL;
    note_posted(request, -1);
    return 1;
}

/* MPI_T event nodempi_p2p_unexpected (a tool registered for it): out of line, off the path. */
static __attribute__((noinline, cold)) void raise_unexpected(const struct p2p_unexpected *u)
{
    struct core_event_unexpected e = {
        .source = u->src,
        .tag = u->tag,
        .bytes = (MPI_Count)u->size,
        .context = u->context,
        .world_source = u->world_src,
        .protocol = (int)u->kind, /* eager 0, rendezvous 1, self 2: the kinds' order */
    };
    core_event_raise(CORE_EVENT_P2P_UNEXPECTED, u->context, &e);
}

void p2p_unexpected_append(struct p2p_match_queues *q, struct p2p_unexpected *u)
{
    u->next = NULL;
    u->prev = q->unexpected_tail;
    if (q->unexpected_tail)
        q->unexpected_tail->next = u;
    else
        q->unexpected_head = u;
    q->unexpected_tail = u;
    struct p2p_source_list *list = source_list(q, u->src, 1);
    u->src_next = NULL;
    u->src_prev = list->tail;
    if (list->tail)
        list->tail->src_next = u;
    else
        list->head = u;
    list->tail = u;
    p2p_skew_note_unexpected(u);
    if (core_event_wanted(CORE_EVENT_P2P_UNEXPECTED)) /* one relaxed load when nobody listens */
        raise_unexpected(u);
}

void p2p_unexpected_remove(struct p2p_match_queues *q, struct p2p_unexpected *u)
{
    if (u->prev)
        u->prev->next = u->next;
    else
        q->unexpected_head = u->next;
    if (u->next)
        u->next->prev = u->prev;
    else
        q->unexpected_tail = u->prev;
    u->next = u->prev = NULL;
    struct p2p_source_list *list = source_list(q, u->src, 0);
    if (u->src_prev)
        u->src_prev->src_next = u->src_next;
    else
        list->head = u->src_next;
    if (u->src_next)
        u->src_next->src_prev = u->src_prev;
    else
        list->tail = u->src_prev;
    u->src_next = u->src_prev = NULL;
    p2p_skew_note_matched(u);
}
