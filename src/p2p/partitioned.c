/* partitioned.c - partitioned communication over the ordinary point-to-point engine. Owns the
 * channel behind each partitioned request, the matching of MPI_Psend_init with MPI_Precv_init
 * and the messages of each round. It only calls p2p_isend / p2p_irecv / p2p_cancel, never
 * core_progress: its poll callback runs inside the progress engine. */
#include "p2p/partitioned.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/comm.h"
#include "core/progress.h"
#include "datatype/datatype.h"
#include "p2p/p2p.h"

/* How it works.
 *
 * Traffic uses the communicator's collective context with tags from 2^30 up: collectives use
 * 0..2^30-1 (src/coll/sched.h) and communicator creation negative tags (src/core/comm_create.c),
 * so partitioned messages never match anything else and user messages are untouched.
 *
 * Matching: each MPI_Psend_init sends a hello (user tag, channel id, partition layout) with tag
 * PART_TAG_HELLO. One sender's hellos arrive in its initialization order (non-overtaking); the
 * receiver hands each to its earliest unmatched MPI_Precv_init with that source and tag, or
 * keeps it until one is posted: the standard's matching in posting order.
 *
 * Rounds: MPI_Pready of partitions low..high sends a header {low, high}, then their data, both
 * with the channel's data tag. The receiver keeps one header receive posted during a round; each
 * header is followed by a receive of the data straight into the user's buffer (through a
 * temporary buffer when the byte range does not fall on whole elements of the receive type).
 * It stops posting header receives once every sender partition of the round was announced, so
 * the messages of a later round wait as unexpected messages until it starts that round. */
#define PART_TAG_HELLO (1 << 30)
#define PART_TAG_DATA_FIRST (PART_TAG_HELLO + 1)
/* channel ids 0..PART_CHANNEL_MAX keep data tags within int */
#define PART_CHANNEL_MAX (INT32_MAX - PART_TAG_DATA_FIRST)

struct part_hello { /* wire format, once per MPI_Psend_init */
    int32_t tag;     /* the user's tag */
    int32_t channel; /* data tag = PART_TAG_DATA_FIRST + channel */
    int32_t partitions;
    int32_t unused;
    int64_t partition_bytes;
};

struct part_header { /* wire format: the data of partitions low..high follows */
    int32_t low, high;
};

/* A hello being sent; outlives its channel when the channel is freed before the send ends. */
struct part_hello_send {
    struct part_hello hello;
    struct core_request *request;
    struct part_hello_send *next;
};

/* A posted receive of a hello from (comm, source), on behalf of an unmatched receive channel
 * (owner; NULL once that channel was matched otherwise or freed). Once received, a hello no
 * MPI_Precv_init claims stays in the same object on the stash list (request NULL then). */
struct part_hello_recv {
    struct part_hello hello;
    struct core_request *request;
    struct core_comm *comm;
    int source;
    struct part_channel *owner;
    struct part_hello_recv *next;
};

/* A data receive in flight: sender partitions low..high, bytes [offset, offset + length). */
struct part_slot {
    struct core_request *request;
    int low, high;
    size_t offset, length;
    void *temp;
};

struct part_channel {
    int is_send;
    struct core_request *owner;
    struct core_comm *comm;
    uint32_t context;
    int peer, tag;
    void *buf;
    int partitions;
    MPI_Count count;
    struct dt_type *type;
    size_t partition_bytes;
    int data_tag;                 /* sender: chosen at init; receiver: from the hello */
    int matched;                  /* receiver: its hello arrived (or the peer is PROC_NULL) */
    int match_error;              /* receiver: layouts do not fit, or out of memory */
    int peer_partitions;          /* receiver: the sender's layout */
    size_t peer_partition_bytes;
    unsigned char *flags;         /* sender: ready; receiver: arrived, per sender partition */
    int flagged;                  /* flags set in this round */
    int announced;                /* receiver: sender partitions named by headers this round */
    int error;                    /* first error of the round */
    /* sender */
    struct part_header *headers;  /* indexed by the first partition of a message */
    struct core_request **sends;
    int nsends;
    struct part_hello_send *hello;
    /* receiver */
    struct part_header rx_header;
    struct core_request *header_request;
    struct part_slot *slots;
    int nslots;
    struct part_channel *next_unmatched;
};

static struct {
    struct part_channel *unmatched;    /* receive channels waiting for a hello, posting order */
    struct part_hello_recv *receives;  /* posted hello receives, posting order */
    struct part_hello_recv *stash;     /* unclaimed hellos, arrival order */
    struct part_hello_send *orphans;   /* hello sends of freed channels */
    int32_t next_channel;
} part;

static struct dt_type *byte_type(void)
{
    return dt_from_handle(MPI_BYTE);
}

static void note_error(struct part_channel *ch, int rc)
{
    if (rc != MPI_SUCCESS && ch->error == MPI_SUCCESS)
        ch->error = rc;
}

static void mark_arrived(struct part_channel *ch, int low, int high)
{
    for (int p = low; p <= high; p++) {
        if (!ch->flags[p]) {
            ch->flags[p] = 1;
            ch->flagged++;
        }
    }
}

/* ---- matching ---------------------------------------------------------------------------- */

static void unmatched_remove(struct part_channel *ch)
{
    for (struct part_channel **link = &part.unmatched; *link; link = &(*link)->next_unmatched) {
        if (*link == ch) {
            *link = ch->next_unmatched;
            ch->next_unmatched = NULL;
            return;
        }
    }
}

/* Stop the hello receive posted for ch; a receive that already matched a hello stays listed
 * ownerless and its hello is handed on when it completes. */
static void disown_hello_recv(struct part_channel *ch)
{
    for (struct part_hello_recv *r = part.receives; r; r = r->next) {
        if (r->owner == ch) {
            r->owner = NULL;
            p2p_cancel(r->request);
        }
    }
}

static size_t recv_total(const struct part_channel *ch)
{
    return (size_t)ch->partitions * ch->partition_bytes;
}

static void match(struct part_channel *ch, const struct part_hello *hello)
{
    unmatched_remove(ch);
    disown_hello_recv(ch);
    ch->matched = 1;
    ch->data_tag = PART_TAG_DATA_FIRST + hello->channel;
    ch->peer_partitions = hello->partitions;
    ch->peer_partition_bytes = (size_t)hello->partition_bytes;
    size_t n = hello->partitions > 0 ? (size_t)hello->partitions : 1;
    ch->flags = calloc(n, 1);
    ch->slots = calloc(n, sizeof(*ch->slots));
    if (!ch->flags || !ch->slots) {
        ch->match_error = MPI_ERR_NO_MEM;
        ch->peer_partitions = 0;
    } else if ((size_t)hello->partitions * ch->peer_partition_bytes > recv_total(ch)) {
        ch->match_error = MPI_ERR_TRUNCATE; /* received anyway, the excess is dropped */
    }
    if (ch->owner->active)
        note_error(ch, ch->match_error);
}

/* Give a received hello to the earliest matching unmatched channel (1: r is free to go) or
 * keep r on the stash (0). */
static int dispatch(struct part_hello_recv *r)
{
    for (struct part_channel *ch = part.unmatched; ch; ch = ch->next_unmatched) {
        if (ch->comm == r->comm && ch->peer == r->source && ch->tag == r->hello.tag) {
            match(ch, &r->hello);
            return 1;
        }
    }
    struct part_hello_recv **link = &part.stash;
    while (*link)
        link = &(*link)->next;
    *link = r;
    return 0;
}

/* Post a hello receive for an unmatched channel (again after a failure: see recv_poll). */
static int post_hello_recv(struct part_channel *ch)
{
    struct part_hello_recv *r = calloc(1, sizeof(*r));
    if (!r)
        return MPI_ERR_NO_MEM;
    r->source = ch->peer;
    r->owner = ch;
    int rc = p2p_irecv(ch->comm, ch->context, ch->peer, PART_TAG_HELLO, &r->hello,
                       sizeof(r->hello), byte_type(), &r->request);
    if (rc != MPI_SUCCESS) {
        if (r->request) /* failed at once: complete */
            core_request_wait(r->request, NULL);
        free(r);
        return rc;
    }
    struct part_hello_recv **link = &part.receives;
    while (*link)
        link = &(*link)->next;
    *link = r;
    return MPI_SUCCESS;
}

static void reap_orphans(void)
{
    for (struct part_hello_send **link = &part.orphans; *link;) {
        struct part_hello_send *s = *link;
        if (s->request->complete) {
            *link = s->next;
            core_request_wait(s->request, NULL);
            free(s);
        } else {
            link = &s->next;
        }
    }
}

/* Hand on every hello received so far, in posting order of the receives (which is the
 * arrival order of each sender's hellos); repost for owners still unmatched. */
static void hellos_progress(void)
{
    reap_orphans();
    struct part_hello_recv **link = &part.receives;
    while (*link) {
        struct part_hello_recv *r = *link;
        if (!r->request->complete) {
            link = &r->next;
            continue;
        }
        *link = r->next;
        r->next = NULL;
        r->comm = r->request->comm;
        int cancelled = r->request->cancelled;
        int rc = core_request_wait(r->request, NULL);
        r->request = NULL;
        struct part_channel *owner = r->owner;
        r->owner = NULL;
        if (cancelled || rc != MPI_SUCCESS || dispatch(r))
            free(r);
        if (owner && !owner->matched) /* listed at the tail: this loop meets it too */
            post_hello_recv(owner);
    }
}

static int has_hello_recv(const struct part_channel *ch)
{
    for (const struct part_hello_recv *r = part.receives; r; r = r->next)
        if (r->owner == ch)
            return 1;
    return 0;
}

/* A new receive channel: claim a kept hello or post a receive for one. */
static int recv_setup(struct part_channel *ch)
{
    if (ch->peer == MPI_PROC_NULL) {
        ch->matched = 1;
        ch->flags = calloc(1, 1);
        return ch->flags ? MPI_SUCCESS : MPI_ERR_NO_MEM;
    }
    struct part_channel **tail = &part.unmatched;
    while (*tail)
        tail = &(*tail)->next_unmatched;
    *tail = ch;
    for (struct part_hello_recv **link = &part.stash; *link; link = &(*link)->next) {
        struct part_hello_recv *s = *link;
        if (s->comm == ch->comm && s->source == ch->peer && s->hello.tag == ch->tag) {
            *link = s->next;
            match(ch, &s->hello);
            free(s);
            return MPI_SUCCESS;
        }
    }
    int rc = post_hello_recv(ch);
    if (rc != MPI_SUCCESS) {
        unmatched_remove(ch);
        return rc;
    }
    hellos_progress();
    return MPI_SUCCESS;
}

static int send_setup(struct part_channel *ch)
{
    size_t n = ch->partitions > 0 ? (size_t)ch->partitions : 1;
    ch->flags = calloc(n, 1);
    ch->headers = calloc(n, sizeof(*ch->headers));
    ch->sends = calloc(2 * n, sizeof(*ch->sends));
    if (!ch->flags || !ch->headers || !ch->sends)
        return MPI_ERR_NO_MEM;
    int32_t id = part.next_channel;
    part.next_channel = id == PART_CHANNEL_MAX ? 0 : id + 1;
    ch->data_tag = PART_TAG_DATA_FIRST + id;
    if (ch->peer == MPI_PROC_NULL)
        return MPI_SUCCESS;
    struct part_hello_send *s = calloc(1, sizeof(*s));
    if (!s)
        return MPI_ERR_NO_MEM;
    s->hello.tag = ch->tag;
    s->hello.channel = id;
    s->hello.partitions = ch->partitions;
    s->hello.partition_bytes = (int64_t)ch->partition_bytes;
    ch->hello = s;
    return p2p_isend(ch->comm, ch->context, ch->peer, PART_TAG_HELLO, &s->hello,
                     sizeof(s->hello), byte_type(), CORE_SEND_STANDARD, &s->request);
}

/* ---- rounds: the receive side ------------------------------------------------------------ */

static int post_data(struct part_channel *ch, struct part_slot *slot)
{
    const struct dt_type *type = ch->type;
    size_t size = (size_t)type->size;
    if (slot->offset + slot->length <= recv_total(ch) && slot->offset % size == 0 &&
        slot->length % size == 0) {
        char *at = (char *)ch->buf + (MPI_Aint)(slot->offset / size) * type->extent;
        return p2p_irecv(ch->comm, ch->context, ch->peer, ch->data_tag, at,
                         (MPI_Count)(slot->length / size), ch->type, &slot->request);
    }
    if (!(slot->temp = malloc(slot->length)))
        return MPI_ERR_NO_MEM;
    return p2p_irecv(ch->comm, ch->context, ch->peer, ch->data_tag, slot->temp,
                     (MPI_Count)slot->length, byte_type(), &slot->request);
}

/* The round cannot go on (a receive could not be posted): end it with an error. */
static void recv_break(struct part_channel *ch, int rc)
{
    note_error(ch, rc);
    ch->announced = ch->peer_partitions;
    if (ch->peer_partitions > 0)
        mark_arrived(ch, 0, ch->peer_partitions - 1);
}

static void header_arrived(struct part_channel *ch)
{
    int low = ch->rx_header.low, high = ch->rx_header.high;
    if (low < 0 || high < low || high >= ch->peer_partitions) {
        recv_break(ch, MPI_ERR_INTERN);
        return;
    }
    ch->announced += high - low + 1;
    struct part_slot *slot = &ch->slots[ch->nslots];
    memset(slot, 0, sizeof(*slot));
    slot->low = low;
    slot->high = high;
    slot->offset = (size_t)low * ch->peer_partition_bytes;
    slot->length = (size_t)(high - low + 1) * ch->peer_partition_bytes;
    if (slot->length == 0) {
        mark_arrived(ch, low, high);
        return;
    }
    int rc = post_data(ch, slot);
    if (rc == MPI_SUCCESS) {
        ch->nslots++;
        return;
    }
    free(slot->temp);
    if (slot->request) /* posted but failed: it is complete, release it */
        core_request_wait(slot->request, NULL);
    recv_break(ch, rc);
}

static void slot_finish(struct part_channel *ch, struct part_slot *slot)
{
    int rc = core_request_wait(slot->request, NULL);
    note_error(ch, rc);
    size_t total = recv_total(ch);
    if (rc == MPI_SUCCESS && slot->temp && slot->offset < total) {
        size_t n = slot->length < total - slot->offset ? slot->length : total - slot->offset;
        dt_unpack_range(ch->type, ch->buf, (MPI_Count)ch->partitions * ch->count, slot->offset,
                        slot->temp, n);
    }
    free(slot->temp);
    mark_arrived(ch, slot->low, slot->high);
}

static void recv_advance(struct part_channel *ch)
{
    int again = 1;
    while (again) {
        again = 0;
        for (int i = 0; i < ch->nslots;) {
            if (!ch->slots[i].request->complete) {
                i++;
                continue;
            }
            slot_finish(ch, &ch->slots[i]);
            ch->slots[i] = ch->slots[--ch->nslots];
        }
        if (ch->header_request && ch->header_request->complete) {
            int rc = core_request_wait(ch->header_request, NULL);
            ch->header_request = NULL;
            if (rc == MPI_SUCCESS)
                header_arrived(ch);
            else
                recv_break(ch, rc);
            again = 1;
        }
        if (!ch->header_request && ch->announced < ch->peer_partitions) {
            struct core_request *r = NULL;
            int rc = p2p_irecv(ch->comm, ch->context, ch->peer, ch->data_tag, &ch->rx_header,
                               sizeof(ch->rx_header), byte_type(), &r);
            ch->header_request = r;
            if (rc != MPI_SUCCESS && !r)
                recv_break(ch, rc);
            again = r && r->complete;
        }
    }
}

static void recv_poll(struct core_request *request, struct part_channel *ch)
{
    if (!ch->matched) {
        if (!has_hello_recv(ch)) /* reposting failed for want of memory: try again */
            post_hello_recv(ch);
        return;
    }
    recv_advance(ch);
    if (ch->flagged < ch->peer_partitions || ch->nslots || ch->header_request)
        return;
    size_t sent = (size_t)ch->peer_partitions * ch->peer_partition_bytes;
    size_t total = recv_total(ch);
    request->status.MPI_SOURCE = ch->peer;
    request->status.MPI_TAG = ch->tag;
    request->status.MPI_ERROR = ch->error;
    core_status_set_count(&request->status, (MPI_Count)(sent < total ? sent : total));
    request->complete = 1;
}

/* ---- rounds: the send side --------------------------------------------------------------- */

static void send_poll(struct core_request *request, struct part_channel *ch)
{
    for (int i = 0; i < ch->nsends;) {
        if (!ch->sends[i]->complete) {
            i++;
            continue;
        }
        note_error(ch, core_request_wait(ch->sends[i], NULL));
        ch->sends[i] = ch->sends[--ch->nsends];
    }
    if (ch->flagged == ch->partitions && ch->nsends == 0) {
        request->status.MPI_ERROR = ch->error;
        request->complete = 1;
    }
}

static void send_push(struct part_channel *ch, int rc, struct core_request *sent)
{
    note_error(ch, rc);
    if (sent)
        ch->sends[ch->nsends++] = sent;
}

int p2p_part_ready(struct core_request *request, int low, int high)
{
    struct part_channel *ch = request->state;
    for (int p = low; p <= high; p++)
        if (ch->flags[p])
            return MPI_ERR_ARG;
    for (int p = low; p <= high; p++)
        ch->flags[p] = 1;
    ch->flagged += high - low + 1;
    if (ch->peer == MPI_PROC_NULL)
        return MPI_SUCCESS;
    struct part_header *header = &ch->headers[low];
    header->low = low;
    header->high = high;
    struct core_request *sent = NULL;
    int rc = p2p_isend(ch->comm, ch->context, ch->peer, ch->data_tag, header, sizeof(*header),
                       byte_type(), CORE_SEND_STANDARD, &sent);
    send_push(ch, rc, sent);
    if (rc != MPI_SUCCESS || ch->partition_bytes == 0)
        return rc;
    const char *at = (const char *)ch->buf + (MPI_Aint)low * ch->count * ch->type->extent;
    sent = NULL;
    rc = p2p_isend(ch->comm, ch->context, ch->peer, ch->data_tag, at,
                   (MPI_Count)(high - low + 1) * ch->count, ch->type, CORE_SEND_STANDARD, &sent);
    send_push(ch, rc, sent);
    return rc;
}

/* ---- the request ------------------------------------------------------------------------- */

static int part_poll(struct core_request *request)
{
    struct part_channel *ch = request->state;
    hellos_progress();
    if (ch->is_send)
        send_poll(request, ch);
    else
        recv_poll(request, ch);
    return MPI_SUCCESS;
}

static int part_start(struct core_request *request)
{
    struct part_channel *ch = request->state;
    core_status_set_empty(&request->status);
    size_t n = ch->is_send ? (size_t)ch->partitions : (size_t)ch->peer_partitions;
    if (ch->flags)
        memset(ch->flags, 0, n ? n : 1);
    ch->flagged = 0;
    ch->announced = 0;
    ch->error = ch->match_error;
    if (ch->peer == MPI_PROC_NULL) {
        request->status.MPI_SOURCE = MPI_PROC_NULL;
        if (!ch->is_send)
            request->complete = 1;
        return MPI_SUCCESS; /* a send to PROC_NULL ends when all its partitions are ready */
    }
    return part_poll(request);
}

/* An incomplete internal request whose buffer is about to go: release it when it ends. */
static void drop_request(struct core_request *request)
{
    if (!request)
        return;
    if (request->kind == CORE_REQUEST_RECV)
        p2p_cancel(request);
    if (request->complete)
        core_request_wait(request, NULL);
    else
        request->freed_by_user = 1;
}

static void part_free(struct core_request *request)
{
    struct part_channel *ch = request->state;
    if (!ch)
        return;
    if (ch->hello) {
        if (ch->hello->request && !ch->hello->request->complete) {
            ch->hello->next = part.orphans;
            part.orphans = ch->hello;
        } else {
            if (ch->hello->request)
                core_request_wait(ch->hello->request, NULL);
            free(ch->hello);
        }
    }
    if (!ch->is_send && !ch->matched) {
        unmatched_remove(ch);
        disown_hello_recv(ch);
    }
    for (int i = 0; i < ch->nsends; i++)
        drop_request(ch->sends[i]);
    drop_request(ch->header_request);
    for (int i = 0; i < ch->nslots; i++)
        drop_request(ch->slots[i].request); /* only after an error: the round did not end */
    free(ch->flags);
    free(ch->headers);
    free(ch->sends);
    free(ch->slots);
    free(ch);
    request->state = NULL;
    hellos_progress(); /* release a hello receive cancelled above */
}

int p2p_part_init(struct core_comm *comm, int is_send, void *buf, int partitions,
                  MPI_Count count, struct dt_type *type, int peer, int tag,
                  struct core_request **out)
{
    struct core_request *request = core_request_alloc(CORE_REQUEST_GENERIC);
    struct part_channel *ch = calloc(1, sizeof(*ch));
    if (!request || !ch) {
        free(ch);
        if (request)
            core_request_free(request);
        return MPI_ERR_NO_MEM;
    }
    ch->is_send = is_send;
    ch->owner = request;
    ch->comm = comm;
    ch->context = comm->context + CORE_CONTEXT_COLL_OFFSET;
    ch->peer = peer;
    ch->tag = tag;
    ch->buf = buf;
    ch->partitions = partitions;
    ch->count = count;
    ch->type = type;
    ch->partition_bytes = dt_packed_size(type, count);
    request->persistent = 1;
    request->comm = comm;
    core_comm_retain(comm);
    request->type = type;
    dt_retain(type);
    request->buf = buf;
    request->count = count;
    request->peer = peer;
    request->tag = tag;
    request->poll = part_poll;
    request->start = part_start;
    request->free_state = part_free;
    request->state = ch;
    int rc = is_send ? send_setup(ch) : recv_setup(ch);
    if (rc != MPI_SUCCESS) {
        core_request_free(request);
        return rc;
    }
    *out = request;
    return MPI_SUCCESS;
}

int p2p_part_is(const struct core_request *request, int is_send)
{
    if (!request || request->start != part_start || !request->state)
        return 0;
    return ((const struct part_channel *)request->state)->is_send == is_send;
}

int p2p_part_partitions(const struct core_request *request)
{
    return ((const struct part_channel *)request->state)->partitions;
}

/* Has every sender partition overlapping receive partition r's bytes arrived? */
static int partition_arrived(const struct part_channel *ch, int r)
{
    size_t mine = ch->partition_bytes, theirs = ch->peer_partition_bytes;
    int all = ch->flagged == ch->peer_partitions;
    if (ch->peer_partitions == 0 || mine == 0 || theirs == 0)
        return all;
    size_t first = (size_t)r * mine / theirs, last = ((size_t)r * mine + mine - 1) / theirs;
    if (first >= (size_t)ch->peer_partitions) /* beyond a shorter message */
        return all;
    if (last >= (size_t)ch->peer_partitions)
        last = (size_t)ch->peer_partitions - 1;
    for (size_t p = first; p <= last; p++)
        if (!ch->flags[p])
            return 0;
    return 1;
}

int p2p_part_arrived(struct core_request *request, int partition, int *flag)
{
    if (!request->active || request->complete) {
        *flag = 1;
        return MPI_SUCCESS;
    }
    core_progress();
    if (request->complete) {
        *flag = 1;
        return MPI_SUCCESS;
    }
    struct part_channel *ch = request->state;
    *flag = ch->matched && partition_arrived(ch, partition);
    return MPI_SUCCESS;
}
