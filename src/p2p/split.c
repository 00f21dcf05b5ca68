/* split.c - split copy: a large single-copy message copied by both processes at once.
 * A plain CMA rendezvous leaves the sender idle while the receiver copies everything. Here the
 * sender offers a copy slot with its RTS (shared counters in the segment, struct shm_copy_slot);
 * the receiver, once matched, asks for help with a HELP record and starts claiming chunks; the
 * sender, when it sees HELP, claims chunks too and writes them into the receiver's buffer with
 * process_vm_writev. Chunks are claimed one at a time from a shared counter, so a sender that is
 * busy elsewhere (or never looks) costs nothing: the receiver takes every chunk itself. When
 * the receiver runs out of chunks while the sender still copies its last one, the receive waits
 * in a pending list (polled by p2p_progress) instead of spinning, so the receiver goes on with
 * other records: in a bidirectional stream both ranks are senders and receivers, and waiting
 * there cost 15% of the bandwidth at 256 KiB. The receive completes when done_bytes covers the
 * message and answers FIN as usual; the sender takes its slot back at the FIN. Both layouts
 * must be one contiguous block (the common case for large messages); other layouts keep the
 * receiver-only pull. */
#include <string.h>

#include "core/config.h"
#include "core/state.h"
#include "datatype/datatype.h"
#include "p2p/internal.h"
#include "shm/cma.h"
#include "shm/copy.h"
#include "shm/heap.h"

/* Chunk size from the message size alone, so both sides agree without telling each other:
 * half the message (each side one chunk when both are there; fewer, larger process_vm_* calls
 * won: a 128 KiB message in two chunks moved 16.5 GB/s, in four 12.2), at least 32 KiB and at
 * most 1 MiB (so a late sender still finds work in a large message). */
static size_t chunk_bytes(size_t bytes)
{
    size_t c = bytes / 2;
    if (c < (32u << 10))
        c = 32u << 10;
    if (c > (1u << 20))
        c = 1u << 20;
    return (c + 4095) & ~(size_t)4095;
}

void p2p_split_init(void)
{
    p2p.free_copy_slots = ~(uint64_t)0;
    int cores_for_all = !nodempi.oversubscribed;
    p2p.split_copy = nodempi.segment && p2p.cma && p2p.nranks > 1 &&
                     (core_config.split_copy == CORE_SWITCH_ON ||
                      (core_config.split_copy == CORE_SWITCH_AUTO && cores_for_all));
}

static struct shm_copy_slot *slot_of(int owner, int slot)
{
    return shm_copy_slot(nodempi.segment, owner, slot);
}

int p2p_split_offer(size_t size)
{
    if (!p2p.split_copy || size < core_config.split_copy_min || !p2p.free_copy_slots)
        return 0;
    int i = __builtin_ctzll(p2p.free_copy_slots);
    p2p.free_copy_slots &= ~((uint64_t)1 << i);
    struct shm_copy_slot *slot = slot_of(p2p.me, i);
    /* relaxed: the RTS that names the slot is published with release after these */
    atomic_store_explicit(&slot->next_chunk, 0, memory_order_relaxed);
    atomic_store_explicit(&slot->done_bytes, 0, memory_order_relaxed);
    atomic_store_explicit(&slot->bytes, 0, memory_order_relaxed);
    atomic_store_explicit(&slot->failed, 0, memory_order_relaxed);
    return i + 1;
}

void p2p_split_release(struct core_request *request)
{
    if (request->p2p.copy_slot) {
        p2p.free_copy_slots |= (uint64_t)1 << (request->p2p.copy_slot - 1);
        request->p2p.copy_slot = 0;
    }
}

/* Claim and copy chunks until none are left. write: the sender's side (local = its buffer,
 * remote = the receiver's); else the receiver's (local = its buffer, remote = the sender's). */
static void copy_chunks(struct shm_copy_slot *slot, pid_t pid, char *local, uint64_t remote,
                        size_t bytes, int write)
{
    size_t chunk = chunk_bytes(bytes);
    for (;;) {
        /* relaxed: the counter only divides the work; the data is ordered by done_bytes */
        uint64_t k = atomic_fetch_add_explicit(&slot->next_chunk, 1, memory_order_relaxed);
        if (k * chunk >= bytes)
            return;
        size_t offset = (size_t)k * chunk;
        size_t len = bytes - offset < chunk ? bytes - offset : chunk;
        struct iovec mine = {local + offset, len};
        struct iovec theirs = {(void *)(uintptr_t)(remote + offset), len};
        int rc = write ? shm_cma_write(pid, &mine, 1, &theirs, 1, len)
                       : shm_cma_read(pid, &mine, 1, &theirs, 1, len);
        if (rc != 0)
            atomic_store_explicit(&slot->failed, 1, memory_order_relaxed);
        /* release: this chunk's bytes (or the failure flag) are visible to whoever sees the
         * count include them */
        atomic_fetch_add_explicit(&slot->done_bytes, len, memory_order_release);
    }
}

/* Receives whose last chunks the sender is still copying, linked through p2p.next. */
static struct core_request *pending_head;

/* The receive's copy is complete: finish it like p2p_rndv_receive's single-copy path. */
static void finish(struct core_request *request)
{
    struct shm_copy_slot *slot = slot_of(request->p2p.world_peer, request->p2p.copy_slot - 1);
    size_t bytes = request->p2p.offset, size = request->p2p.total;
    int pulled = 1;
    /* relaxed: done_bytes was acquired before; failed was stored before its release add */
    if (atomic_load_explicit(&slot->failed, memory_order_relaxed)) {
        /* the sender could not write into us: pull everything ourselves */
        struct p2p_rts rts = {.pid = request->p2p.remote_pid, .niov = 1,
                              .iov_base = request->p2p.remote_base, .iov_len = bytes};
        pulled = p2p_rndv_pull(request, &rts, bytes) == 0;
    }
    request->p2p.copy_slot = 0;
    struct p2p_cookies fin = {request->p2p.peer_cookie, (uint64_t)(uintptr_t)request};
    int world_src = request->p2p.world_peer;
    if (pulled) {
        p2p_complete_recv(request, request->status.MPI_SOURCE, request->status.MPI_TAG, size,
                          bytes);
    } else { /* both directions refused mid-job: report it on the receive */
        core_status_set_count(&request->status, 0);
        request->status.MPI_ERROR = MPI_ERR_OTHER;
        core_request_complete(request);
    }
    p2p_queue_control(world_src, P2P_RECORD_FIN, &fin);
}

static int copy_done(struct core_request *request)
{
    struct shm_copy_slot *slot = slot_of(request->p2p.world_peer, request->p2p.copy_slot - 1);
    /* acquire pairs with the release add after each chunk: its bytes are in our buffer */
    return atomic_load_explicit(&slot->done_bytes, memory_order_acquire) >= request->p2p.offset;
}

int p2p_split_receive(struct core_request *request, int src, int tag, int world_src,
                      size_t size, const struct p2p_rts *rts, size_t bytes)
{
    if (!rts->copy_slot || rts->niov != 1 || !dt_is_contiguous(request->type, request->count))
        return 0;
    /* A sender that is also receiving large messages from us is busy copying them: asking it
     * for help only splits the same work finer (bidirectional 256 KiB: 13.4 -> 11.2 GB/s). */
    if (p2p.peers[world_src].rndv_sends > 0)
        return 0;
    char *local = (char *)request->buf + request->type->true_lb;
    /* At a short page distance the sender's process_vm_writev would run the kernel's slow
     * `rep movsb` (shm/copy.h, rndv.c's kernel_copy_slow): it helps only when it can memcpy
     * into our shared heap. */
    if (shm_copy_pieces && shm_short_page_distance((uintptr_t)local, rts->iov_base) &&
        !shm_heap_owns(local))
        return 0;
    struct shm_copy_slot *slot = slot_of(world_src, rts->copy_slot - 1);
    /* relaxed: the HELP record carrying the request is published with release after it */
    atomic_store_explicit(&slot->bytes, bytes, memory_order_relaxed);
    struct p2p_cookies help = {rts->sender_cookie, (uint64_t)(uintptr_t)local};
    p2p_queue_control(world_src, P2P_RECORD_HELP, &help);
    copy_chunks(slot, rts->pid, local, rts->iov_base, bytes, 0);
    request->p2p.world_peer = world_src;
    request->p2p.copy_slot = rts->copy_slot;
    request->p2p.peer_cookie = rts->sender_cookie;
    request->p2p.remote_pid = rts->pid;
    request->p2p.remote_base = rts->iov_base;
    request->p2p.offset = bytes;
    request->p2p.total = size;
    request->status.MPI_SOURCE = src;
    request->status.MPI_TAG = tag;
    request->status.MPI_ERROR = MPI_SUCCESS;
    if (copy_done(request)) {
        finish(request);
        return 1;
    }
    request->p2p.next = pending_head;
    pending_head = request;
    p2p.split_pending++;
    return 1;
}

int p2p_split_progress(void)
{
    int did = 0;
    struct core_request **link = &pending_head;
    while (*link) {
        struct core_request *request = *link;
        if (!copy_done(request)) {
            link = &request->p2p.next;
            continue;
        }
        *link = request->p2p.next;
        request->p2p.next = NULL;
        p2p.split_pending--;
        finish(request);
        did = 1;
    }
    return did;
}

void p2p_split_on_help(int world_src, const struct p2p_cookies *cookies)
{
    struct core_request *request = (struct core_request *)(uintptr_t)cookies->sender_cookie;
    struct shm_copy_slot *slot = slot_of(p2p.me, request->p2p.copy_slot - 1);
    size_t bytes = (size_t)atomic_load_explicit(&slot->bytes, memory_order_relaxed);
    pid_t pid = atomic_load_explicit(&shm_rank_block(nodempi.segment, world_src)->pid,
                                     memory_order_relaxed);
    char *local = (char *)request->buf + request->type->true_lb;
    copy_chunks(slot, pid, local, cookies->receiver_cookie, bytes, 1);
}
