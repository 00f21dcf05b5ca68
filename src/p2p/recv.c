/* recv.c - the receive side: posting receives (matching the unexpected queue first), handling
 * each record drained from a ring, and delivering data into typed receive buffers.
 * A receive never waits here; waiting is core_request_wait's job. */
#include <stdlib.h>
#include <string.h>

#include "core/comm.h"
#include "core/progress.h"
#include "core/state.h"
#include "datatype/datatype.h"
#include "p2p/internal.h"
#include "p2p/p2p.h"
#include "shm/copy.h"

static size_t recv_capacity(const struct core_request *request)
{
    return dt_packed_size(request->type, request->count);
}

/* Everything of a receive's status but MPI_ERROR (which single-completion calls leave alone). */
static void set_recv_status(MPI_Status *status, int src, int tag, size_t copied)
{
    status->MPI_SOURCE = src;
    status->MPI_TAG = tag;
    core_status_set_count(status, (MPI_Count)copied);
    core_status_set_cancelled(status, 0);
}

void p2p_complete_recv(struct core_request *request, int src, int tag, size_t size,
                       size_t copied)
{
    set_recv_status(&request->status, src, tag, copied);
    request->status.MPI_ERROR = size > copied ? MPI_ERR_TRUNCATE : MPI_SUCCESS;
    if (request->p2p.matched_at) { /* a rendezvous whose copy p2p/adapt.c chose */
        p2p_adapt_record(&p2p.peers[request->p2p.world_peer].adapt, copied, request->p2p.state,
                         p2p_adapt_now_ns() - request->p2p.matched_at);
        request->p2p.matched_at = 0;
    }
    core_request_complete(request);
}

/* Copy a whole message (packed bytes) into the receive buffer, truncating to its capacity. */
void p2p_deliver_eager(struct core_request *request, int src, int tag, const void *data,
                       size_t size)
{
    size_t capacity = recv_capacity(request);
    size_t copied = size < capacity ? size : capacity;
    struct dt_type *type = request->type;
    if (copied) {
        if (copied <= SHM_RECORD_INLINE_BYTES && dt_is_contiguous(type, request->count))
            shm_copy_short((char *)request->buf + type->true_lb, data, copied);
        else if (dt_is_contiguous(type, request->count))
            shm_copy((char *)request->buf + type->true_lb, data, copied);
        else
            dt_unpack_range(type, request->buf, request->count, 0, data, copied);
    }
    p2p_complete_recv(request, src, tag, size, copied);
}

void p2p_recv_matched_unexpected(struct core_request *request, struct p2p_unexpected *u)
{
    switch (u->kind) {
    case P2P_UNEXPECTED_EAGER:
        if (u->assembling) { /* still arriving: eager.c delivers it when complete */
            p2p_eager_long_matched(request, u);
            return;
        }
        p2p_deliver_eager(request, u->src, u->tag, u->data, u->size);
        break;
    case P2P_UNEXPECTED_RTS:
        p2p_rndv_receive(request, u->src, u->tag, u->world_src, u->size, &u->rts);
        break;
    case P2P_UNEXPECTED_SELF: {
        struct core_request *send = u->self_send;
        /* Same process: copy from the sender's layout straight into the receiver's. */
        if (dt_is_contiguous(send->type, send->count)) {
            p2p_deliver_eager(request, u->src, u->tag,
                              (char *)send->buf + send->type->true_lb, u->size);
        } else {
            void *tmp = malloc(u->size ? u->size : 1);
            if (!tmp)
                abort();
            dt_pack_range(send->type, send->buf, send->count, 0, tmp, u->size);
            p2p_deliver_eager(request, u->src, u->tag, tmp, u->size);
            free(tmp);
        }
        p2p_send_complete(send);
        break;
    }
    }
    p2p_unexpected_release(u);
}

/* Start a receive whose p2p fields are set (also the restart of a persistent one). */
int p2p_recv_start(struct core_request *request)
{
    request->complete = 0;
    request->completion_order = 0; /* a persistent restart: no stamp of the last completion */
    request->cancelled = 0;
    request->status.MPI_ERROR = MPI_SUCCESS;
    if (request->peer == MPI_PROC_NULL) {
        p2p_complete_recv(request, MPI_PROC_NULL, MPI_ANY_TAG, 0, 0);
        return MPI_SUCCESS;
    }
    struct p2p_match_queues *q = p2p_queues(request->context);
    struct p2p_unexpected *u = p2p_match_unexpected(q, request->peer, request->tag);
    if (u) {
        p2p_unexpected_remove(q, u);
        p2p_recv_matched_unexpected(request, u);
        return MPI_SUCCESS;
    }
    p2p_post(q, request);
    return MPI_SUCCESS;
}

int p2p_irecv(struct core_comm *comm, uint32_t context, int source, int tag, void *buf,
              MPI_Count count, struct dt_type *type, struct core_request **out)
{
    struct core_request *request = core_request_alloc(CORE_REQUEST_RECV);
    if (!request)
        return MPI_ERR_NO_MEM;
    request->buf = buf;
    request->count = count;
    request->type = type;
    dt_retain(type);
    request->peer = source;
    request->tag = tag;
    request->context = context;
    request->comm = comm;
    core_comm_retain(comm);
    *out = request;
    return p2p_recv_start(request);
}

/* How long recv_in_place watches one peer before it hands over to the general wait: ~5-20 us
 * of pause steps, many times a message's one-way time, short enough that work the general path
 * would progress meanwhile (other peers' queues, nonblocking collectives) waits no longer. */
enum { IN_PLACE_POLLS = 256 };

/* The conditions under which a receive may watch one peer alone: nothing of ours queued or
 * split, no rank that may sleep (its sender must wake it through the general path), and a
 * queue design whose records from a peer come only through that pair's fastbox and ring. */
static int in_place_allowed(void)
{
    return p2p.recv_in_place && !p2p.pending_peers && !p2p.split_pending && !p2p.wake_peers &&
           (p2p.queue == P2P_QUEUE_PAIR || p2p.queue == P2P_QUEUE_COR);
}

/* Watch one peer's fastbox and ring alone for up to IN_PLACE_POLLS steps: its next record, or
 * NULL. (No fetch of the next cells after it, as a drain does: in a ping-pong they are not
 * written yet, and asking for them cost the blocking 8-64 B ping-pong 3-6%.) */
static inline __attribute__((always_inline)) struct shm_record *
watch_peer(struct p2p_peer *peer, int *in_fastbox)
{
    struct shm_record *rec;
    for (unsigned polls = 0; !(rec = p2p_pair_peek(peer, in_fastbox)); polls++) {
        if (polls == IN_PLACE_POLLS)
            return NULL;
        p2p_fastbox_tail_wait(peer);
        core_cpu_relax();
    }
    return rec;
}

/* Is rec a whole eager message of context from source that tag accepts and capacity holds? */
static int takes_in_place(const struct shm_record *rec, uint32_t context, int source, int tag,
                          size_t capacity)
{
    return rec->kind == P2P_RECORD_EAGER && rec->context == context && rec->src == source &&
           (tag == MPI_ANY_TAG || rec->tag == tag) && (size_t)rec->size <= capacity;
}

/* Done with a record taken in place (after its payload was copied out); then, while a raise
 * stands, the skew watch may lower it as after a drain (with every receive in place it would
 * not look again). Only then: the look reads a line of the peer's state this path does not
 * otherwise touch, which cost the blocking 8-64 B ping-pong 2-6%. Inlined: a call here
 * measured too. */
static inline __attribute__((always_inline)) void
release_in_place(int world_src, struct p2p_peer *peer, struct shm_record *rec, int in_fastbox)
{
    p2p_fastbox_tail_note(peer, rec, in_fastbox); /* 64 B far: 0.41-0.49 -> 0.33-0.41 us */
    shm_pair_release(&peer->from_peer, &peer->from_fb, rec, in_fastbox);
    peer->messages_received++;
    if (p2p.raised_peers)
        p2p_after_drain(world_src);
}

/* MPI_Recv from one source while nothing is posted or unexpected in the communicator: watch
 * that peer's fastbox and ring alone and copy a matching eager message from the cell or record
 * straight into the buffer: no request, no queue, no poll of other peers (issue 5: "the
 * receiver completes in place"). Anything else (another record first, truncation, a backlog,
 * wildcards, queued sends, ranks that may sleep) returns 0 untouched for the general path. */
static int recv_in_place(struct core_comm *comm, uint32_t context, int source, int tag,
                         void *buf, MPI_Count count, struct dt_type *type, MPI_Status *status)
{
    if (source < 0 || !in_place_allowed())
        return 0;
    int world_src = core_comm_peer_world_rank(comm, source);
    struct p2p_match_queues *q = p2p_queues(context);
    if (world_src == p2p.me || q->posted_head || q->unexpected_head)
        return 0;
    struct p2p_peer *peer = &p2p.peers[world_src];
    int in_fastbox;
    struct shm_record *rec = watch_peer(peer, &in_fastbox);
    if (!rec || !takes_in_place(rec, context, source, tag, dt_packed_size(type, count)))
        return 0;
    size_t size = (size_t)rec->size;
    if (size) {
        if (size <= SHM_RECORD_INLINE_BYTES && dt_is_contiguous(type, count))
            shm_copy_short((char *)buf + type->true_lb, shm_record_payload(rec), size);
        else if (dt_is_contiguous(type, count))
            shm_copy((char *)buf + type->true_lb, shm_record_payload(rec), size);
        else
            dt_unpack_range(type, buf, count, 0, shm_record_payload(rec), size);
    }
    if (status)
        set_recv_status(status, source, rec->tag, size);
    release_in_place(world_src, peer, rec, in_fastbox);
    return 1;
}

/* The oldest posted receive of its communicator, from one source in this process's reach: the
 * request the general path would match that source's next record with. Its peer, or NULL.
 * (Inlined, as the delivery below: MPI_Waitall of a 64-message window passes here for every
 * request; as calls, 1 KiB windows lost 3-5% in an A/B.) */
static inline __attribute__((always_inline)) struct p2p_peer *
oldest_posted_peer(struct core_request *request, int *world_src)
{
    if (request->kind != CORE_REQUEST_RECV || request->peer < 0 || request == p2p.drain_stop ||
        nodempi.thread_multiple || !in_place_allowed())
        return NULL;
    if (p2p_queues(request->context)->posted_head != request)
        return NULL;
    *world_src = core_comm_peer_world_rank(request->comm, request->peer);
    return *world_src == p2p.me ? NULL : &p2p.peers[*world_src];
}

/* Deliver rec into request if it is a whole eager message for it; 1 when it did. */
static inline __attribute__((always_inline)) int
deliver_in_place(struct core_request *request, int world_src, struct p2p_peer *peer,
                 struct shm_record *rec, int in_fastbox)
{
    if (!takes_in_place(rec, request->context, request->peer, request->tag,
                        recv_capacity(request)))
        return 0;
    p2p_unpost(p2p_queues(request->context), request);
    p2p_deliver_eager(request, rec->src, rec->tag, shm_record_payload(rec), (size_t)rec->size);
    release_in_place(world_src, peer, rec, in_fastbox);
    return 1;
}

/* MPI_Wait (and Waitall, one request at a time; Waitany and Waitsome with one request left) on
 * a posted receive from one source that is the oldest receive posted in its communicator:
 * watch that peer alone, as recv_in_place does, and deliver a matching eager record straight
 * into the request, without a progress round, the context's queue lookup or a walk of the
 * posted queue (Irecv + Send + Wait ping-pong, 8 B: docs/benchmarks.md "Session 17"). Being the
 * oldest posted receive, the request is the one the general path would match the record with.
 * 0 leaves everything to the general wait. */
int p2p_wait_recv_in_place(struct core_request *request)
{
    int world_src, in_fastbox;
    struct p2p_peer *peer = oldest_posted_peer(request, &world_src);
    if (!peer)
        return 0;
    /* A record there already (a stream or backlog): a progress round takes it together with
     * those behind it, matching the next waits' requests in one pass (64-message windows of
     * 8-64 B: 3-6% more messages per second than taking them here one wait at a time). */
    if (p2p_pair_peek(peer, &in_fastbox))
        return 0;
    struct shm_record *rec = watch_peer(peer, &in_fastbox);
    return rec && deliver_in_place(request, world_src, peer, rec, in_fastbox);
}

/* MPI_Test on such a receive: one look at that peer, and a matching eager record at the head of
 * its queues goes straight into the request; 0 (nothing there, or something else first) leaves
 * the call to its progress round. A loop of MPI_Test calls sees the message in the call after
 * it lands, and that call then does no round at all. */
int p2p_test_recv_in_place(struct core_request *request)
{
    int world_src, in_fastbox;
    struct p2p_peer *peer = oldest_posted_peer(request, &world_src);
    if (!peer)
        return 0;
    struct shm_record *rec = p2p_pair_peek(peer, &in_fastbox);
    return rec && deliver_in_place(request, world_src, peer, rec, in_fastbox);
}

/* A blocking receive keeps its request on the stack: no allocation, no reference counting (the
 * caller holds comm and type for the whole call), and it completes in place. */
int p2p_recv(struct core_comm *comm, uint32_t context, int source, int tag, void *buf,
             MPI_Count count, struct dt_type *type, MPI_Status *status)
{
    if (recv_in_place(comm, context, source, tag, buf, count, type, status))
        return MPI_SUCCESS;
    struct core_request request;
    memset(&request, 0, sizeof(request));
    request.kind = CORE_REQUEST_RECV;
    request.buf = buf;
    request.count = count;
    request.type = type;
    request.peer = source;
    request.tag = tag;
    request.context = context;
    request.comm = comm;
    p2p_recv_start(&request);
    if (!request.complete) {
        if (p2p.recv_partial_drain)
            p2p.drain_stop = &request;
        core_request_wait_complete(&request);
        p2p.drain_stop = NULL;
    }
    if (status) {
        int keep_error = status->MPI_ERROR;
        *status = request.status;
        status->MPI_ERROR = keep_error;
    }
    return request.status.MPI_ERROR;
}

/* An EAGER or RTS record from the ring: match it or keep it as unexpected. */
static void handle_message(int world_src, struct shm_record *rec)
{
    uint32_t seq = p2p.peers[world_src].messages_received++;
    struct p2p_match_queues *q = p2p_queues(rec->context);
    struct core_request *request = p2p_match_posted(q, rec->src, rec->tag);
    void *payload = shm_record_payload(rec);
    if (request) {
        if (rec->kind == P2P_RECORD_EAGER)
            p2p_deliver_eager(request, rec->src, rec->tag, payload, rec->size);
        else
            p2p_rndv_receive(request, rec->src, rec->tag, world_src, rec->size, payload);
        return;
    }
    /* Unexpected: copy out of the ring now so the sender's ring never fills with messages
     * nobody has asked for yet (flow control without deadlock). */
    struct p2p_unexpected *u = p2p_unexpected_new();
    if (!u)
        abort();
    u->src = rec->src;
    u->world_src = world_src;
    u->tag = rec->tag;
    u->context = rec->context;
    u->size = rec->size;
    u->seq = seq;
    if (rec->kind == P2P_RECORD_EAGER) {
        u->kind = P2P_UNEXPECTED_EAGER;
        if (!p2p_unexpected_hold(u, rec->size))
            abort();
        shm_copy(u->data, payload, rec->size);
    } else {
        u->kind = P2P_UNEXPECTED_RTS;
        memcpy(&u->rts, payload, sizeof(u->rts));
    }
    p2p_unexpected_append(q, u);
}

void p2p_handle_record(int world_src, struct shm_record *rec)
{
    void *payload = shm_record_payload(rec);
    switch (rec->kind) {
    case P2P_RECORD_EAGER:
    case P2P_RECORD_RTS:
        handle_message(world_src, rec);
        break;
    case P2P_RECORD_FIN:
        p2p_rndv_on_fin(payload);
        break;
    case P2P_RECORD_CTS:
        p2p_rndv_on_cts(world_src, payload);
        break;
    case P2P_RECORD_EAGER_LONG:
        p2p_eager_long_on_envelope(world_src, rec);
        break;
    case P2P_RECORD_DATA:
        p2p_eager_long_on_data(world_src, payload, (size_t)rec->size);
        break;
    case P2P_RECORD_SKEW:
        p2p_skew_on_control(world_src, payload);
        break;
    case P2P_RECORD_HELP:
        p2p_split_on_help(world_src, payload);
        break;
    case P2P_RECORD_CANCEL:
        p2p_cancel_on_request(world_src, payload);
        break;
    case P2P_RECORD_CANCEL_ANSWER:
        p2p_cancel_on_answer(world_src, payload);
        break;
    case P2P_RECORD_VOID:
        p2p.peers[world_src].messages_received++;
        break;
    case P2P_RECORD_FRAG: {
        size_t len = (size_t)rec->size;
        p2p_rndv_on_frag(payload, (char *)payload + sizeof(struct p2p_frag), len);
        break;
    }
    default:
        break;
    }
}
