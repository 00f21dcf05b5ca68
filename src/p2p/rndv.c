/* rndv.c - the rendezvous protocols for messages above the eager limit and for synchronous
 * sends. The sender posts an RTS describing its buffer; at match time the receiver either pulls
 * the data itself with process_vm_readv (single copy) and answers FIN, or answers CTS and the
 * sender streams FRAG records through the ring (two copies, pipelined: fragment n is copied out
 * by the receiver while fragment n+1 is copied in by the sender). */
#include <stdlib.h>
#include <string.h>

#include "core/comm.h"
#include "core/running.h"
#include "core/state.h"
#include "datatype/datatype.h"
#include "p2p/internal.h"
#include "p2p/p2p.h"
#include "p2p/policy.h"
#include "shm/cma.h"
#include "shm/copy.h"
#include "shm/heap.h"

/* Above this many iovecs a layout is copied through fragments (packing) rather than by CMA:
 * one process_vm_readv call takes at most IOV_MAX (1024) vectors per side. */
enum { CMA_MAX_IOVECS = 1024 };

static size_t message_size(const struct core_request *request)
{
    return dt_packed_size(request->type, request->count);
}

int p2p_layout_iovecs(struct dt_type *type, MPI_Count count)
{
    if (dt_is_contiguous(type, count))
        return 1;
    size_t n = type->nblocks * (size_t)count;
    return n > CMA_MAX_IOVECS ? -1 : (int)n;
}

/* The iovecs of a whole typed buffer (at most CMA_MAX_IOVECS); returns how many. */
static int build_iovecs(struct dt_type *type, void *buf, MPI_Count count, size_t bytes,
                        struct iovec *iov)
{
    if (dt_is_contiguous(type, count)) {
        iov[0].iov_base = (char *)buf + type->true_lb;
        iov[0].iov_len = bytes;
        return 1;
    }
    size_t covered = 0;
    return dt_iovec_range(type, buf, count, 0, iov, CMA_MAX_IOVECS, &covered);
}

int p2p_rndv_try_rts(struct p2p_peer *peer, struct core_request *request)
{
    struct shm_record *rec = p2p_reserve(peer, sizeof(struct p2p_rts));
    if (!rec)
        return 0;
    size_t size = message_size(request);
    struct p2p_rts *rts = shm_record_payload(rec);
    memset(rts, 0, sizeof(*rts));
    rts->sender_cookie = (uint64_t)(uintptr_t)request;
    rts->pid = (int32_t)nodempi.pid;
    rec->flags = 0;
    int niov = p2p_layout_iovecs(request->type, request->count);
    if (request->p2p.state == P2P_PROTOCOL_RNDV_CMA && niov > 0) {
        if (niov == 1) {
            struct iovec one;
            build_iovecs(request->type, request->buf, request->count, size, &one);
            rts->iov_base = (uint64_t)(uintptr_t)one.iov_base;
            rts->iov_len = one.iov_len;
            rts->niov = 1;
            rec->flags = P2P_RTS_CMA;
            if (!request->p2p.copy_slot)
                request->p2p.copy_slot = p2p_split_offer(size);
            rts->copy_slot = request->p2p.copy_slot;
        } else if ((request->p2p.iov = malloc(sizeof(struct iovec) * (size_t)niov))) {
            niov = build_iovecs(request->type, request->buf, request->count, size,
                                request->p2p.iov);
            rts->iov_base = (uint64_t)(uintptr_t)request->p2p.iov;
            rts->iov_len = (uint64_t)niov * sizeof(struct iovec);
            rts->niov = niov;
            rec->flags = P2P_RTS_CMA;
        }
    }
    peer->rndv_sends++;
    /* MPI_T counters: an RTS that offers single copy is counted when the receiver answers (FIN:
     * single copy, CTS: it chose the pipeline, p2p/adapt.c) */
    if (!(rec->flags & P2P_RTS_CMA)) {
        request->p2p.state = P2P_PROTOCOL_RNDV_PIPELINE;
        p2p.sent[P2P_SENT_RNDV_PIPELINE]++;
    }
    p2p.sent_bytes += size;
    rec->kind = P2P_RECORD_RTS;
    rec->tag = request->tag;
    rec->context = request->context;
    rec->src = request->comm->rank;
    rec->size = size;
    p2p_publish(peer, rec);
    core_running_await((int)(peer - p2p.peers)); /* the send waits for its receiver now */
    return 1;
}

/* What a published RTS holds until the rendezvous ends. */
static void release_rts(struct core_request *request)
{
    free(request->p2p.iov);
    request->p2p.iov = NULL;
    p2p.peers[request->p2p.world_peer].rndv_sends--;
    p2p_split_release(request);
}

static void send_done(struct core_request *request)
{
    release_rts(request);
    p2p_send_complete(request);
}

void p2p_rndv_withdrawn(struct core_request *request)
{
    release_rts(request);
    p2p_queue_note_reply_dropped(request->p2p.world_peer); /* cor: no FIN/CTS will come */
}

void p2p_rndv_on_fin(const struct p2p_cookies *cookies)
{
    p2p.sent[P2P_SENT_RNDV_CMA]++;
    send_done((struct core_request *)(uintptr_t)cookies->sender_cookie);
}

/* Pull with CMA into the receive buffer; 0 on success, else an errno value. */
int p2p_rndv_pull(struct core_request *request, const struct p2p_rts *rts, size_t bytes)
{
    struct iovec local_one, remote_one;
    struct iovec *local = &local_one, *remote = &remote_one;
    int nlocal = p2p_layout_iovecs(request->type, request->count);
    if (nlocal < 0)
        return -1;
    if (nlocal > 1 && !(local = malloc(sizeof(*local) * (size_t)nlocal)))
        return -1;
    nlocal = build_iovecs(request->type, request->buf, request->count, bytes, local);
    int nremote = rts->niov;
    int rc = 0;
    if (nremote == 1) {
        remote_one.iov_base = (void *)(uintptr_t)rts->iov_base;
        remote_one.iov_len = rts->iov_len;
    } else if ((remote = malloc(sizeof(*remote) * (size_t)nremote))) {
        struct iovec mine = {remote, rts->iov_len};
        struct iovec theirs = {(void *)(uintptr_t)rts->iov_base, rts->iov_len};
        rc = shm_cma_read(rts->pid, &mine, 1, &theirs, 1, rts->iov_len);
    } else {
        rc = -1;
    }
    if (rc == 0)
        rc = shm_cma_read(rts->pid, local, nlocal, remote, nremote, bytes);
    if (local != &local_one)
        free(local);
    if (remote != &remote_one)
        free(remote);
    return rc;
}

void p2p_set_copy_hint(enum p2p_copy_hint hint)
{
    p2p.copy_hint = hint;
}

int p2p_copy_choice_applies(void)
{
    return p2p.copy_adapt && p2p.cma;
}

/* The receiver's choice for a message of 8 KiB - 1 MiB whose sender offered both copies
 * (adapt.c): a running blocking collective's fixed-threshold hint (coll/copy_choice.c; its
 * pipeline hint is applied by the caller at every size); else, when we are not sending to that
 * peer ourselves, what this pair's recent receives of this size found faster (timed from here to
 * p2p_complete_recv); else, in an exchange, where each side's receive time depends on the
 * other's choice and neither sees the whole, the fixed threshold. */
static int choose_pull(struct core_request *request, int world_src, size_t bytes)
{
    struct p2p_peer *peer = &p2p.peers[world_src];
    enum p2p_protocol planned =
        bytes >= peer->cma_threshold ? P2P_PROTOCOL_RNDV_CMA : P2P_PROTOCOL_RNDV_PIPELINE;
    if (p2p.copy_hint == P2P_COPY_HINT_STATIC || peer->rndv_sends > 0)
        return planned == P2P_PROTOCOL_RNDV_CMA;
    request->p2p.state = p2p_adapt_choose(&peer->adapt, bytes, planned, &request->p2p.matched_at);
    request->p2p.world_peer = world_src;
    return request->p2p.state == P2P_PROTOCOL_RNDV_CMA;
}

/* The kernel's copy in process_vm_readv/writev is `rep movsb` as well, slow at a short page
 * distance like glibc's (shm/copy.h): 1 / 4 MiB ping-pong with the receive buffer 16 bytes past
 * the page-aligned send buffer took 375 / 1833 us against 75 / 541 at distance 0, and 134 / 615
 * through the pipeline, whose two copies shm_copy makes at full speed. So such a message is
 * pulled only when the sender's buffer lies in its shared heap (shm_copy, no kernel). */
static int kernel_copy_slow(const struct core_request *request, const struct p2p_rts *rts)
{
    if (!shm_copy_pieces || rts->niov != 1 || !dt_is_contiguous(request->type, request->count))
        return 0;
    uintptr_t dst = (uintptr_t)request->buf + (uintptr_t)request->type->true_lb;
    return shm_short_page_distance(dst, (uintptr_t)rts->iov_base) &&
           !shm_heap_peer_address(rts->pid, rts->iov_base, rts->iov_len);
}

void p2p_rndv_receive(struct core_request *request, int src, int tag, int world_src,
                      size_t size, const struct p2p_rts *rts)
{
    size_t capacity = message_size(request);
    size_t bytes = size < capacity ? size : capacity;
    struct p2p_cookies cookies = {rts->sender_cookie, (uint64_t)(uintptr_t)request};
    int pulled = 0;
    int pull = bytes > 0 && rts->niov > 0 && p2p.cma && !kernel_copy_slow(request, rts);
    if (pull && p2p.copy_adapt && p2p.copy_hint == P2P_COPY_HINT_PIPELINE)
        pull = 0;
    else if (pull && p2p.copy_adapt && p2p_adapt_applies(size))
        pull = choose_pull(request, world_src, bytes);
    if (pull && p2p_split_receive(request, src, tag, world_src, size, rts, bytes))
        return; /* completes and answers FIN in split.c */
    if (pull) {
        int rc = p2p_rndv_pull(request, rts, bytes);
        pulled = rc == 0;
        if (rc > 0) /* the kernel refused (ptrace policy, seccomp): stop offering CMA */
            p2p.cma = 0;
    }
    if (bytes == 0 || pulled) {
        p2p_complete_recv(request, src, tag, size, bytes);
        p2p_queue_control(world_src, P2P_RECORD_FIN, &cookies);
        return;
    }
    /* Pipelined: the sender streams fragments that land in p2p_rndv_on_frag. */
    request->p2p.offset = 0;
    request->p2p.total = size;
    request->status.MPI_SOURCE = src;
    request->status.MPI_TAG = tag;
    p2p_queue_control(world_src, P2P_RECORD_CTS, &cookies);
}

void p2p_rndv_on_cts(int world_src, const struct p2p_cookies *cookies)
{
    struct core_request *request = (struct core_request *)(uintptr_t)cookies->sender_cookie;
    if (request->p2p.state == P2P_PROTOCOL_RNDV_CMA) /* offered, declined */
        p2p.sent[P2P_SENT_RNDV_PIPELINE]++;
    request->p2p.peer_cookie = cookies->receiver_cookie;
    request->p2p.offset = 0;
    struct p2p_peer *peer = &p2p.peers[world_src];
    if (!peer->out_head && p2p_rndv_push_frags(peer, request))
        return;
    p2p_queue_outgoing(world_src, P2P_OUT_FRAGS, request);
}

int p2p_rndv_push_frags(struct p2p_peer *peer, struct core_request *request)
{
    size_t size = message_size(request);
    size_t max_payload = shm_ring_max_payload(&peer->to_peer) - sizeof(struct p2p_frag);
    size_t chunk = p2p.chunk < max_payload ? p2p.chunk : max_payload;
    int contiguous = dt_is_contiguous(request->type, request->count);
    while (request->p2p.offset < size) {
        size_t offset = request->p2p.offset;
        size_t len = size - offset < chunk ? size - offset : chunk;
        struct shm_record *rec =
            p2p_reserve(peer, sizeof(struct p2p_frag) + len);
        if (!rec)
            return 0;
        struct p2p_frag *frag = shm_record_payload(rec);
        frag->receiver_cookie = request->p2p.peer_cookie;
        frag->offset = offset;
        char *data = (char *)(frag + 1);
        if (contiguous)
            p2p_copy_to_ring(peer, data, (const char *)request->buf + request->type->true_lb + offset,
                             len);
        else
            dt_pack_range(request->type, request->buf, request->count, offset, data, len);
        rec->kind = P2P_RECORD_FRAG;
        rec->size = len;
        p2p_publish(peer, rec);
        request->p2p.offset = offset + len;
    }
    send_done(request);
    return 1;
}

void p2p_rndv_on_frag(const struct p2p_frag *frag, const void *data, size_t len)
{
    struct core_request *request = (struct core_request *)(uintptr_t)frag->receiver_cookie;
    size_t capacity = message_size(request);
    size_t offset = (size_t)frag->offset;
    if (offset < capacity) {
        size_t n = capacity - offset < len ? capacity - offset : len;
        if (dt_is_contiguous(request->type, request->count))
            shm_copy((char *)request->buf + request->type->true_lb + offset, data, n);
        else
            dt_unpack_range(request->type, request->buf, request->count, offset, data, n);
    }
    request->p2p.offset += len;
    size_t total = request->p2p.total;
    if (request->p2p.offset == total)
        p2p_complete_recv(request, request->status.MPI_SOURCE, request->status.MPI_TAG, total,
                          total < capacity ? total : capacity);
}
