/* send.c - the send side: protocol choice, the eager fast path, per-peer outgoing queues (used
 * only when the ring is full or earlier messages still wait, so order is kept), and sends to
 * oneself. The blocking MPI_Send of a small message writes one record and returns: no request,
 * no allocation, no system call. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "core/comm.h"
#include "core/state.h"
#include "datatype/datatype.h"
#include "p2p/internal.h"
#include "p2p/p2p.h"
#include "p2p/policy.h"
#include "shm/copy.h"

static inline void send_complete(struct core_request *request)
{
    request->status.MPI_ERROR = MPI_SUCCESS;
    if (request->p2p.cancel || request->p2p.linked) { /* rare: cancel.c decides */
        p2p_cancel_send_finished(request);
        return;
    }
    core_request_complete(request);
}

void p2p_send_complete(struct core_request *request)
{
    send_complete(request);
}

/* Streams pack only messages that fit a packed record's first slot: the fastbox format takes
 * up to SHM_FASTBOX_PACKED_PAYLOAD bytes in two slots, but two-slot records measured slower
 * than whole cells (2 ranks, vCPUs close, 10 alternated rounds, MB/s medians: 16 B 218 -> 227,
 * 24 B 316 -> 370, 32 B 450 -> 474 one way; 1-12 B within 0.92-1.05x; OSU's osu_bw 16 B was
 * 0.60x Open MPI's). */
enum { P2P_PACK_MAX_BYTES = SHM_FASTBOX_PACKED_HEAD };

/* A message of at most P2P_PACK_MAX_BYTES bytes in a stream (no message from the peer
 * since our last one) as a packed fastbox record; 0 when the box has no room. */
static int write_packed(struct p2p_peer *peer, const void *buf, MPI_Count count,
                        struct dt_type *type, int src, int tag, uint32_t context, size_t size)
{
    const void *data = (const char *)buf + type->true_lb;
    unsigned char packed[P2P_PACK_MAX_BYTES];
    if (size && !dt_is_contiguous(type, count)) {
        dt_pack_range(type, buf, count, 0, packed, size);
        data = packed;
    }
    if (!shm_fastbox_try_send_packed(&peer->to_fb, &peer->to_peer, tag, context, src, data, size))
        return 0;
    if (p2p.wake_peers)
        shm_wake_peer(peer->block);
    p2p.sent[P2P_SENT_FASTBOX]++; /* MPI_T counters: plain increments, this process's alone */
    p2p.sent[P2P_SENT_FASTBOX_PACKED]++;
    p2p.sent_bytes += size;
    return 1;
}

/* Write the whole message into one record; 0 when the fastbox and ring have no room. Inlined
 * into the send paths with the eager decision and the copy (shm_copy_short): with the other
 * inlines of session 21, 297 -> 232 instructions per 8-byte MPI_Send (callgrind) and 8 B
 * ping-pong 0.89-0.93x at close placement (docs/benchmarks.md "Session 21"). */
static inline __attribute__((always_inline)) int
write_eager(struct p2p_peer *peer, const void *buf, MPI_Count count, struct dt_type *type, int src,
            int tag, uint32_t context, size_t size)
{
    if (size <= P2P_PACK_MAX_BYTES && peer->received_at_send == peer->messages_received &&
        peer->fastbox && p2p.fastbox_pack &&
        write_packed(peer, buf, count, type, src, tag, context, size))
        return 1;
    peer->received_at_send = peer->messages_received;
    struct shm_record *rec = p2p_reserve(peer, size);
    if (!rec)
        return 0;
    char *payload = shm_record_payload(rec);
    if (size) {
        if (!dt_is_contiguous(type, count)) {
            dt_pack_range(type, buf, count, 0, payload, size);
        } else if (size <= SHM_RECORD_INLINE_BYTES) {
            shm_copy_short(payload, (const char *)buf + type->true_lb, size);
        } else {
            /* The lines after the header's first, then the header line in one burst up to the
             * stamp: a receiver polling the stamp takes the header line away from us while we
             * wait for a later line, and we then fetch it twice. 64 B one-way, vCPUs far:
             * 0.318 us header line first, 0.271 us this way. */
            const char *data = (const char *)buf + type->true_lb;
            shm_copy(payload + SHM_RECORD_INLINE_BYTES, data + SHM_RECORD_INLINE_BYTES,
                   size - SHM_RECORD_INLINE_BYTES);
            atomic_signal_fence(memory_order_seq_cst); /* the compiler keeps the order too */
            memcpy(payload, data, SHM_RECORD_INLINE_BYTES);
        }
    }
    rec->kind = P2P_RECORD_EAGER;
    rec->tag = tag;
    rec->context = context;
    rec->src = src;
    rec->size = size;
    p2p_publish(peer, rec);
    /* MPI_T counters: plain increments, this process's alone */
    p2p.sent[shm_fastbox_owns(&peer->to_fb, rec) ? P2P_SENT_FASTBOX : P2P_SENT_EAGER]++;
    p2p.sent_bytes += size;
    return 1;
}

int p2p_try_eager(struct p2p_peer *peer, struct core_request *request)
{
    size_t size = dt_packed_size(request->type, request->count);
    return write_eager(peer, request->buf, request->count, request->type, request->comm->rank,
                       request->tag, request->context, size);
}

static struct p2p_outgoing *outgoing_alloc(void)
{
    struct p2p_outgoing *o = p2p.free_outgoing;
    if (o)
        p2p.free_outgoing = o->next;
    else if (!(o = malloc(sizeof(*o))))
        abort();
    memset(o, 0, sizeof(*o));
    return o;
}

static void outgoing_append(int world_peer, struct p2p_outgoing *o)
{
    struct p2p_peer *peer = &p2p.peers[world_peer];
    if (!peer->out_head) {
        peer->out_head = o;
        p2p.pending_peers++;
    } else {
        peer->out_tail->next = o;
    }
    peer->out_tail = o;
}

void p2p_queue_outgoing(int world_peer, enum p2p_outgoing_kind kind,
                        struct core_request *request)
{
    struct p2p_outgoing *o = outgoing_alloc();
    o->kind = kind;
    o->request = request;
    outgoing_append(world_peer, o);
}

void p2p_queue_control(int world_peer, int control_kind, const struct p2p_cookies *cookies)
{
    struct p2p_peer *peer = &p2p.peers[world_peer];
    if (!peer->out_head) {
        struct shm_record *rec = p2p_reserve(peer, sizeof(*cookies));
        if (rec) {
            rec->kind = (uint8_t)control_kind;
            rec->size = 0;
            memcpy(shm_record_payload(rec), cookies, sizeof(*cookies));
            p2p_publish(peer, rec);
            return;
        }
    }
    struct p2p_outgoing *o = outgoing_alloc();
    o->kind = P2P_OUT_CONTROL;
    o->control_kind = control_kind;
    o->cookies = *cookies;
    outgoing_append(world_peer, o);
}

/* Try the head of one item; 1 when it is done and can leave the queue. */
static int push_one(struct p2p_peer *peer, struct p2p_outgoing *o)
{
    switch (o->kind) {
    case P2P_OUT_EAGER:
        if (!p2p_try_eager(peer, o->request))
            return 0;
        p2p_send_complete(o->request);
        return 1;
    case P2P_OUT_RTS:
        return p2p_rndv_try_rts(peer, o->request);
    case P2P_OUT_FRAGS:
        return p2p_rndv_push_frags(peer, o->request);
    case P2P_OUT_EAGER_LONG:
        return p2p_eager_long_push(peer, &o->long_send);
    case P2P_OUT_CONTROL: {
        struct shm_record *rec = p2p_reserve(peer, sizeof(o->cookies));
        if (!rec)
            return 0;
        rec->kind = (uint8_t)o->control_kind;
        rec->size = 0;
        memcpy(shm_record_payload(rec), &o->cookies, sizeof(o->cookies));
        p2p_publish(peer, rec);
        return 1;
    }
    }
    return 1;
}

/* The VOID record that replaces a cancelled message: the receiver only counts it. */
static void make_void(struct p2p_outgoing *o)
{
    struct p2p_outgoing *next = o->next;
    memset(o, 0, sizeof(*o));
    o->next = next;
    o->kind = P2P_OUT_CONTROL;
    o->control_kind = P2P_RECORD_VOID;
}

int p2p_withdraw_outgoing(int world_peer, struct core_request *request)
{
    for (struct p2p_outgoing *o = p2p.peers[world_peer].out_head; o; o = o->next) {
        if ((o->kind == P2P_OUT_EAGER || o->kind == P2P_OUT_RTS) && o->request == request) {
            make_void(o);
            return 1;
        }
        /* (a long eager message whose rest was staged has no request any more: its number
         * names it; the request completed, but the envelope has not left) */
        if (o->kind == P2P_OUT_EAGER_LONG && o->long_send.seq == request->p2p.seq &&
            !o->long_send.header_sent) {
            struct p2p_long_send *send = &o->long_send;
            if (send->owns_data) {
                p2p.staged_bytes -= send->total - send->data_offset;
                p2p_staging_free((void *)send->data, send->total - send->data_offset);
            }
            make_void(o);
            return 1;
        }
    }
    return 0;
}

static int receiver_draining(struct p2p_peer *peer);
static enum p2p_protocol protocol_for(const struct core_request *request, int world_peer,
                                      int with_idle_eager);

/* The receiver stopped taking records while stream messages wait for room: they go by
 * rendezvous instead (see receiver_draining), in their places in the queue. */
static void streams_to_rendezvous(struct p2p_peer *peer, int world_peer)
{
    for (struct p2p_outgoing *o = peer->out_head; o; o = o->next) {
        if (o->kind != P2P_OUT_EAGER ||
            dt_packed_size(o->request->type, o->request->count) <= peer->eager_limit)
            continue;
        o->request->p2p.state = protocol_for(o->request, world_peer, 0);
        if (o->request->p2p.state != P2P_PROTOCOL_EAGER)
            o->kind = P2P_OUT_RTS;
    }
}

/* Push queued items to one peer in order until the ring is full; nonzero if any left. */
int p2p_push_outgoing(int world_peer)
{
    struct p2p_peer *peer = &p2p.peers[world_peer];
    int did = 0;
    while (peer->out_head) {
        struct p2p_outgoing *o = peer->out_head;
        if (!push_one(peer, o)) {
            if (o->kind == P2P_OUT_EAGER && p2p.stream_eager && !receiver_draining(peer))
                streams_to_rendezvous(peer, world_peer);
            break;
        }
        did = 1;
        peer->out_head = o->next;
        if (!peer->out_head) {
            peer->out_tail = NULL;
            p2p.pending_peers--;
        }
        o->next = p2p.free_outgoing;
        p2p.free_outgoing = o;
    }
    return did;
}

/* Sends to oneself never touch a ring: match directly, or park as unexpected. A small
 * standard send is copied so that it completes at once (as eager sends to others do). */
void p2p_self_send(struct core_request *request)
{
    struct p2p_match_queues *q = p2p_queues(request->context);
    size_t size = dt_packed_size(request->type, request->count);
    int src = request->comm->rank;
    struct core_request *recv = p2p_match_posted(q, src, request->tag);
    struct p2p_unexpected *u = p2p_unexpected_new();
    if (!u)
        abort();
    u->kind = P2P_UNEXPECTED_SELF;
    u->src = src;
    u->world_src = p2p.me;
    u->tag = request->tag;
    u->context = request->context;
    u->size = size;
    u->self_send = request;
    p2p.sent[P2P_SENT_SELF]++;
    p2p.sent_bytes += size;
    u->seq = request->p2p.seq;
    if (recv) {
        p2p_recv_matched_unexpected(recv, u);
        return;
    }
    if (request->mode != CORE_SEND_SYNCHRONOUS && size <= p2p.eager_limit) {
        u->kind = P2P_UNEXPECTED_EAGER;
        u->self_send = NULL;
        if (!p2p_unexpected_hold(u, size))
            abort();
        dt_pack_range(request->type, request->buf, request->count, 0, u->data, size);
        p2p_send_complete(request);
    }
    p2p_unexpected_append(q, u);
}

/* No receive is posted that this peer's messages could match: what we send it is not part of
 * an exchange with what it sends us (p2p.posted_* are kept by match.c). */
static int one_way_stream(const struct p2p_peer *peer)
{
    return peer->posted_from == 0 && p2p.posted_any_source == 0;
}

/* A message above the eager limit that fits one ring record goes eagerly when the pair's ring
 * is idle (the receiver has taken everything, nothing waits to be sent): then no copy is set
 * aside and one record replaces RTS, pull and FIN. Ping-pong 8 KiB one-way: close 0.91-1.03 ->
 * 0.66 us, far 2.9-3.2 -> 2.1-2.3 (docs/benchmarks.md "Session 5").
 * A one-way stream goes eagerly too, waiting in the queue for room if need be: the sender's copy
 * in and the receiver's copy out run on two cores (8 KiB window far 3.9 -> 8.8-10.0 GB/s). An
 * exchange that finds the ring busy keeps the rendezvous, whose single copy per side wins when
 * both cores copy anyway (docs/benchmarks.md "Session 6").
 * Oversubscribed, the rendezvous costs more than a copy: the send completes only after the
 * receiver was scheduled, pulled, and the sender was scheduled again to see the FIN; a send
 * that finds room in the ring completes at once (p2p_send_start tries the ring and falls back
 * to a rendezvous). hpcc's MPIRandomAccess pattern, 4 ranks on 2 cores: same section. */
/* Is the receiver taking records from our ring? Its head moved within RECEIVER_DRAINING_NS
 * (looked at only when a stream finds the ring full). A one-way stream then waits in the queue
 * for room (both cores copying: 16 KiB window 22.5 GB/s close), else it goes by rendezvous: a
 * receiver that is not there (computing, or behind in a loop of broadcasts) would otherwise
 * hold the sender up, and the RTS records it finds later let its skew watch react
 * (docs/benchmarks.md "Session 6"). */
enum { RECEIVER_DRAINING_NS = 5000 };

static int receiver_draining(struct p2p_peer *peer)
{
    uint64_t head = shm_ring_consumer_head(&peer->to_peer), now = p2p_adapt_now_ns();
    if (head != peer->head_seen) {
        peer->head_seen = head;
        peer->head_seen_ns = now;
        return 1;
    }
    return now - peer->head_seen_ns < RECEIVER_DRAINING_NS;
}

static int idle_eager(int world_peer)
{
    struct p2p_peer *peer = &p2p.peers[world_peer];
    if (peer->channel != P2P_CHANNEL_RING)
        return 0;
    if (p2p.stream_eager && one_way_stream(peer))
        return 1;
    if (!p2p.idle_eager || peer->out_head)
        return 0;
    return p2p.eager_when_room || shm_ring_consumed_all(&peer->to_peer);
}

/* The switch policy's first case, before anything costlier: within the pair's eager limit and
 * not synchronous. */
static inline int eager_by_limit(const struct core_request *request, const struct p2p_peer *peer,
                                 size_t size)
{
    return size <= peer->eager_limit && request->mode != CORE_SEND_SYNCHRONOUS;
}

/* Ask the switch policy how to send this request's message to world_peer; with_idle_eager = 0
 * asks for the protocol the message has when the ring is not idle. */
static enum p2p_protocol protocol_for(const struct core_request *request, int world_peer,
                                      int with_idle_eager)
{
    const struct p2p_peer *peer = &p2p.peers[world_peer];
    size_t size = dt_packed_size(request->type, request->count);
    /* p2p_choose_protocol's first case, before the layout walk cma_usable needs (a message
     * rate of one-byte sends spent 5% of its time choosing) */
    if (eager_by_limit(request, peer, size))
        return P2P_PROTOCOL_EAGER;
    struct p2p_policy_input in = {
        .size = size,
        .mode = request->mode,
        .cma_usable = p2p.cma && !peer->foreign &&
                      p2p_layout_iovecs(request->type, request->count) > 0,
        .eager_limit = peer->eager_limit,
        .cma_threshold = peer->cma_threshold,
    };
    enum p2p_protocol protocol = p2p_choose_protocol(&in);
    if (with_idle_eager && protocol != P2P_PROTOCOL_EAGER &&
        in.mode != CORE_SEND_SYNCHRONOUS && in.size <= p2p_record_max_payload(peer) &&
        idle_eager(world_peer))
        return P2P_PROTOCOL_EAGER;
    /* The receiver picks the copy (p2p/adapt.c): the RTS must let it pull. */
    if (protocol != P2P_PROTOCOL_EAGER && in.cma_usable && p2p.copy_adapt &&
        p2p_adapt_applies(in.size))
        protocol = P2P_PROTOCOL_RNDV_CMA;
    return protocol;
}

enum p2p_protocol p2p_choose_protocol_for(const struct core_request *request, int world_peer)
{
    return protocol_for(request, world_peer, 1);
}

/* Start a send whose fields are set (also the restart of a persistent one). */
int p2p_send_start(struct core_request *request)
{
    request->complete = 0;
    request->completion_order = 0; /* a persistent restart: no stamp of the last completion */
    request->cancelled = 0;
    request->status.MPI_ERROR = MPI_SUCCESS;
    core_status_set_empty(&request->status);
    if (request->peer == MPI_PROC_NULL) {
        request->status.MPI_SOURCE = MPI_PROC_NULL;
        request->complete = 1;
        return MPI_SUCCESS;
    }
    int world_peer = core_comm_peer_world_rank(request->comm, request->peer);
    request->p2p.world_peer = world_peer;
    request->p2p.cancel = 0;
    /* Messages leave in start order (later ones queue behind earlier ones): number them now. */
    request->p2p.seq = p2p.peers[world_peer].messages_sent++;
    if (world_peer == p2p.me) {
        p2p_self_send(request);
        return MPI_SUCCESS;
    }
    struct p2p_peer *peer = &p2p.peers[world_peer];
    size_t size = dt_packed_size(request->type, request->count);
    /* protocol_for's first case without the call (every small Isend) */
    request->p2p.state = eager_by_limit(request, peer, size)
                             ? P2P_PROTOCOL_EAGER
                             : p2p_choose_protocol_for(request, world_peer);
    if (request->p2p.state == P2P_PROTOCOL_EAGER) {
        if (size > p2p_record_max_payload(peer))
            return p2p_eager_long_start(world_peer, request);
        if (!peer->out_head && write_eager(peer, request->buf, request->count, request->type,
                                           request->comm->rank, request->tag,
                                           request->context, size)) {
            send_complete(request);
            return MPI_SUCCESS;
        }
        /* Eager only because the lagging receiver asked for a raised limit (skew.c): the long
         * eager path sets what does not fit aside, so that the send completes now (a receiver
         * that lags must not hold the sender up, seed 001 §3.4). */
        if (size > p2p.eager_limit && size <= peer->eager_limit)
            return p2p_eager_long_start(world_peer, request);
        /* A one-way stream waits for room while the receiver takes records; else a message
         * above the limit (idle or oversubscribed eager that found no room) goes rendezvous. */
        if (!(p2p.stream_eager && one_way_stream(peer) && receiver_draining(peer)))
            request->p2p.state = protocol_for(request, world_peer, 0);
        if (request->p2p.state == P2P_PROTOCOL_EAGER) {
            p2p_queue_outgoing(world_peer, P2P_OUT_EAGER, request);
            return MPI_SUCCESS;
        }
    }
    if (!peer->out_head && p2p_rndv_try_rts(peer, request))
        return MPI_SUCCESS;
    p2p_queue_outgoing(world_peer, P2P_OUT_RTS, request);
    return MPI_SUCCESS;
}

int p2p_isend(struct core_comm *comm, uint32_t context, int dest, int tag, const void *buf,
              MPI_Count count, struct dt_type *type, enum core_send_mode mode,
              struct core_request **out)
{
    struct core_request *request = core_request_alloc(CORE_REQUEST_SEND);
    if (!request)
        return MPI_ERR_NO_MEM;
    request->buf = (void *)buf;
    request->count = count;
    request->type = type;
    dt_retain(type);
    request->peer = dest;
    request->tag = tag;
    request->context = context;
    request->mode = mode;
    request->comm = comm;
    core_comm_retain(comm);
    *out = request;
    return p2p_send_start(request);
}

static inline __attribute__((always_inline)) int
send_eager_now(struct core_comm *comm, uint32_t context, int dest, int tag, const void *buf,
               MPI_Count count, struct dt_type *type)
{
    if (dest == MPI_PROC_NULL)
        return 0;
    size_t size = dt_packed_size(type, count);
    int world_peer = core_comm_peer_world_rank(comm, dest);
    struct p2p_peer *peer = &p2p.peers[world_peer];
    /* The policy's eager case in one record: the queue has room and nothing waits ahead. */
    if (world_peer == p2p.me || size > peer->eager_limit || size > p2p_record_max_payload(peer) ||
        peer->out_head || !write_eager(peer, buf, count, type, comm->rank, tag, context, size))
        return 0;
    peer->messages_sent++;
    return 1;
}

int p2p_send_eager_now(struct core_comm *comm, uint32_t context, int dest, int tag,
                       const void *buf, MPI_Count count, struct dt_type *type)
{
    return send_eager_now(comm, context, dest, tag, buf, count, type);
}

int p2p_send(struct core_comm *comm, uint32_t context, int dest, int tag, const void *buf,
             MPI_Count count, struct dt_type *type, enum core_send_mode mode)
{
    if (mode != CORE_SEND_SYNCHRONOUS && send_eager_now(comm, context, dest, tag, buf, count, type))
        return MPI_SUCCESS;
    struct core_request *request;
    int rc = p2p_isend(comm, context, dest, tag, buf, count, type, mode, &request);
    if (rc != MPI_SUCCESS)
        return rc;
    return core_request_wait(request, NULL);
}
