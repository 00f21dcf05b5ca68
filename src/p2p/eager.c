/* eager.c - long eager messages: bigger than one ring record but under the pair's eager limit
 * (raised when the receiver is skewed, see skew.c). The sender writes an EAGER_LONG envelope and
 * then DATA records, without waiting for the receiver; if the ring fills it copies the rest
 * aside and completes the send anyway, so a late receiver never holds the sender back. The
 * receiver assembles the pieces straight into a matched receive, or into an unexpected copy. */
#include <stdlib.h>
#include <string.h>

#include "core/comm.h"
#include "datatype/datatype.h"
#include "p2p/internal.h"
#include "shm/copy.h"

/* Staged (copied-aside) long eager data is capped per process; above it a send waits for ring
 * space like a rendezvous would, so memory cannot grow without bound. */
static const size_t staging_cap_bytes = 256u << 20;

size_t p2p_record_max_payload(const struct p2p_peer *peer)
{
    return shm_ring_max_payload(&peer->to_peer);
}

/* Write what fits; 1 when the whole message is in the ring. */
int p2p_eager_long_push(struct p2p_peer *peer, struct p2p_long_send *send)
{
    if (!send->header_sent) {
        struct shm_record *rec = p2p_reserve(peer, 0);
        if (!rec)
            return 0;
        rec->kind = P2P_RECORD_EAGER_LONG;
        rec->tag = send->tag;
        rec->context = send->context;
        rec->src = send->src;
        rec->size = send->total;
        p2p_publish(peer, rec);
        send->header_sent = 1;
    }
    size_t piece_max = p2p_record_max_payload(peer);
    while (send->offset < send->total) {
        size_t len = send->total - send->offset;
        if (len > piece_max)
            len = piece_max;
        struct shm_record *rec = p2p_reserve(peer, len);
        if (!rec)
            return 0;
        rec->kind = P2P_RECORD_DATA;
        rec->size = len;
        p2p_copy_to_ring(peer, shm_record_payload(rec),
                         send->data + (send->offset - send->data_offset), len);
        p2p_publish(peer, rec);
        send->offset += len;
    }
    if (send->request)
        p2p_send_complete(send->request);
    if (send->owns_data) {
        p2p.staged_bytes -= send->total - send->data_offset;
        p2p_staging_free((void *)send->data, send->total - send->data_offset);
    }
    return 1;
}

/* Copy the unsent rest aside so the request can complete now. */
static int stage_rest(struct p2p_long_send *send)
{
    size_t rest = send->total - send->offset;
    if (send->owns_data || p2p.staged_bytes + rest > staging_cap_bytes)
        return send->owns_data;
    char *copy = p2p_staging_alloc(rest);
    if (!copy)
        return 0;
    shm_copy(copy, send->data + (send->offset - send->data_offset), rest);
    send->data = copy;
    send->data_offset = send->offset;
    send->owns_data = 1;
    p2p.staged_bytes += rest;
    return 1;
}

/* Describe request's message as a long eager send (packed aside when not contiguous). */
static int long_send_init(struct p2p_long_send *send, struct core_request *request)
{
    *send = (struct p2p_long_send){
        .total = dt_packed_size(request->type, request->count),
        .tag = request->tag,
        .context = request->context,
        .src = request->comm->rank,
        .seq = request->p2p.seq,
        .request = request,
    };
    if (dt_is_contiguous(request->type, request->count)) {
        send->data = (const char *)request->buf + request->type->true_lb;
    } else {
        char *packed = p2p_staging_alloc(send->total);
        if (!packed)
            return MPI_ERR_NO_MEM;
        dt_pack_range(request->type, request->buf, request->count, 0, packed, send->total);
        send->data = packed;
        send->owns_data = 1;
        p2p.staged_bytes += send->total;
    }
    p2p.sent[P2P_SENT_EAGER_LONG]++;
    p2p.sent_bytes += send->total;
    return MPI_SUCCESS;
}

int p2p_eager_long_start(int world_peer, struct core_request *request)
{
    struct p2p_peer *peer = &p2p.peers[world_peer];
    struct p2p_long_send send;
    int rc = long_send_init(&send, request);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!peer->out_head && p2p_eager_long_push(peer, &send))
        return MPI_SUCCESS;
    if (stage_rest(&send)) {
        p2p_send_complete(request);
        send.request = NULL;
    }
    p2p_queue_outgoing(world_peer, P2P_OUT_EAGER_LONG, NULL);
    peer->out_tail->long_send = send;
    return MPI_SUCCESS;
}

/* ---- receiver ----------------------------------------------------------------------------- */

void p2p_eager_long_on_envelope(int world_src, struct shm_record *rec)
{
    struct p2p_assembly *a = &p2p.peers[world_src].assembly;
    uint32_t seq = p2p.peers[world_src].messages_received++;
    memset(a, 0, sizeof(*a));
    a->total = (size_t)rec->size;
    a->src = rec->src;
    a->tag = rec->tag;
    struct p2p_match_queues *q = p2p_queues(rec->context);
    a->request = p2p_match_posted(q, rec->src, rec->tag);
    if (a->request)
        return;
    struct p2p_unexpected *u = p2p_unexpected_new();
    if (!u || !p2p_unexpected_hold(u, a->total))
        abort(); /* out of memory for an unexpected message */
    u->kind = P2P_UNEXPECTED_EAGER;
    u->assembling = 1;
    u->src = rec->src;
    u->world_src = world_src;
    u->tag = rec->tag;
    u->context = rec->context;
    u->size = a->total;
    u->seq = seq;
    p2p_unexpected_append(q, u);
    a->unexpected = u;
}

/* Piece into a matched receive's typed buffer, truncating at its capacity. */
static void unpack_piece(struct core_request *request, size_t offset, const void *data,
                         size_t len)
{
    size_t capacity = dt_packed_size(request->type, request->count);
    if (offset >= capacity)
        return;
    if (len > capacity - offset)
        len = capacity - offset;
    if (dt_is_contiguous(request->type, request->count))
        shm_copy((char *)request->buf + request->type->true_lb + offset, data, len);
    else
        dt_unpack_range(request->type, request->buf, request->count, offset, data, len);
}

void p2p_eager_long_on_data(int world_src, const void *data, size_t len)
{
    struct p2p_assembly *a = &p2p.peers[world_src].assembly;
    if (a->request)
        unpack_piece(a->request, a->offset, data, len);
    else
        shm_copy((char *)a->unexpected->data + a->offset, data, len);
    a->offset += len;
    if (a->offset < a->total)
        return;
    if (a->request) {
        size_t capacity = dt_packed_size(a->request->type, a->request->count);
        p2p_complete_recv(a->request, a->src, a->tag, a->total,
                          a->total < capacity ? a->total : capacity);
    } else {
        struct p2p_unexpected *u = a->unexpected;
        u->assembling = 0;
        if (u->waiting) { /* a receive took it while it was still arriving */
            p2p_deliver_eager(u->waiting, u->src, u->tag, u->data, u->size);
            p2p_unexpected_release(u);
        }
    }
    memset(a, 0, sizeof(*a));
}

/* A receive matched an unexpected long message that is still arriving: finish it later. */
void p2p_eager_long_matched(struct core_request *request, struct p2p_unexpected *u)
{
    u->waiting = request;
}
