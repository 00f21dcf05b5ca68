/* queue.c - the four queue designs of NODEMPI_QUEUE (see queue.h): per-peer channel setup,
 * the send-side slow paths behind p2p_reserve / p2p_publish, and the receive poll of each design.
 * Records are handled in arrival order per sender in every design, which keeps MPI's
 * non-overtaking rule; hybrid, where one sender's records travel two queues, restores it by
 * draining a sender's ring only after all its earlier inbox records are in (ring_ready).
 * Must not interpret records beyond the kinds the cor expectations need. */
#include <stdlib.h>
#include <string.h>

#include "core/comm.h"
#include "core/config.h"
#include "core/state.h"
#include "core/tool_event.h"
#include "p2p/internal.h"
#include "shm/doorbell.h"

/* The default design, by rank count: the one place that decides it. Measured with the NAS-like
 * kernels of seed 000 Table 6.1 (bench/nas_like/run.sh, docs/queues.md; 2 cores, 8-128 ranks):
 * up to 16 ranks no design beats pair beyond the noise, and pair has the shortest path; from 32
 * ranks on, polling p - 1 rings costs more than it saves and cor was fastest overall (time
 * relative to pair, geometric mean over CG/IS/MG: 0.90 at 32 ranks, 0.82 at 64, 0.58 at 128;
 * hybrid 0.94 / 0.85 / 0.63, orq 0.95 / 0.93 / 0.68). */
enum { COR_FROM_RANKS = 32 };

static enum p2p_queue_design default_design(int nranks)
{
    return nranks >= COR_FROM_RANKS ? P2P_QUEUE_COR : P2P_QUEUE_PAIR;
}

/* hybrid: a sender opens its pair ring to a receiver after this many records through the
 * receiver's inbox, or at once for a record this big (fragment streams, long eager pieces). */
enum { HYBRID_OPEN_AFTER_RECORDS = 8, HYBRID_OPEN_ABOVE_BYTES = 1024 };

/* cor: a poll that has found nothing this many times in a row sweeps every ring, so messages
 * nobody expects yet (and control records such as skew hints) still move. */
enum { COR_SWEEP_EVERY = 16 };

static const char *const design_names[] = {"pair", "orq", "cor", "hybrid"};

const char *p2p_queue_name(int design)
{
    return design >= 0 && design < 4 ? design_names[design] : "?";
}

/* ---- setup -------------------------------------------------------------------------------- */

static int initial_channel(void)
{
    switch (p2p.queue) {
    case P2P_QUEUE_ORQ:
    case P2P_QUEUE_HYBRID:
        return P2P_CHANNEL_INBOX;
    case P2P_QUEUE_COR:
        return P2P_CHANNEL_RING_COR;
    default:
        return P2P_CHANNEL_RING;
    }
}

/* Small records use the pair's fastbox in the designs whose every record travels the pair ring
 * (hybrid's rings open late and are drained behind inbox records: it keeps to those two). */
static int fastbox_wanted(void)
{
    if (core_config.fastbox == CORE_SWITCH_OFF)
        return 0;
    return p2p.queue == P2P_QUEUE_PAIR || p2p.queue == P2P_QUEUE_COR;
}

/* The pair design's rings with this rank are faulted in at MPI_Init when they are few (here up
 * to 16 ranks: 2 x 15 pairs x ~70 KiB = 2 MiB per rank), so their first lap does not take page
 * faults mid-run (shm_segment_prefault_pair). Larger jobs, whose rings most pairs never use,
 * keep faulting pages in on first touch. */
enum { PREFAULT_MAX_RANKS = 16 };

static void prefault_pair_rings(struct shm_header *seg, int r)
{
    shm_segment_prefault_pair(seg, p2p.me, r);
    shm_segment_prefault_pair(seg, r, p2p.me);
}

int p2p_queue_init(void)
{
    struct shm_header *seg = nodempi.segment;
    int design = core_config.queue == CORE_QUEUE_AUTO ? (int)default_design(p2p.nranks)
                                                      : (int)core_config.queue - 1;
    p2p.queue = seg ? design : P2P_QUEUE_PAIR;
    if (!seg)
        return MPI_SUCCESS;
    p2p.my_block = shm_rank_block(seg, p2p.me);
    p2p.bitmap_words = (int)shm_bitmap_words(p2p.nranks);
    shm_inbox_view(&p2p.inbox, seg, p2p.me, p2p.me);
    p2p.doorbells = shm_doorbells(seg, p2p.me);
    p2p.opened = shm_opened_table(seg, p2p.me);
    p2p.rings_pending = calloc((size_t)p2p.bitmap_words, sizeof(uint64_t));
    p2p.cor_active = malloc(sizeof(int) * (size_t)p2p.nranks);
    if (!p2p.rings_pending || !p2p.cor_active)
        return MPI_ERR_NO_MEM;
    int prefault = p2p.queue == P2P_QUEUE_PAIR && p2p.nranks <= PREFAULT_MAX_RANKS;
    for (int r = 0; r < p2p.nranks; r++) {
        struct p2p_peer *peer = &p2p.peers[r];
        peer->cor_slot = -1;
        if (r == p2p.me)
            continue;
        shm_ring_view(&peer->to_peer, seg, p2p.me, r);
        peer->to_peer.soft_lap = core_config.ring_lap;
        shm_ring_view(&peer->from_peer, seg, r, p2p.me);
        shm_fastbox_view(&peer->to_fb, seg, p2p.me, r);
        shm_fastbox_view(&peer->from_fb, seg, r, p2p.me);
        if (prefault)
            prefault_pair_rings(seg, r);
        peer->block = shm_rank_block(seg, r);
        shm_inbox_view(&peer->to_inbox, seg, r, p2p.me);
        peer->doorbells = shm_doorbells(seg, r);
        peer->opened = shm_opened_table(seg, r) + p2p.me;
        peer->channel = initial_channel();
        peer->fastbox = fastbox_wanted();
    }
    return MPI_SUCCESS;
}

void p2p_queue_finalize(void)
{
    free(p2p.rings_pending);
    free(p2p.cor_active);
    p2p.rings_pending = NULL;
    p2p.cor_active = NULL;
}

/* ---- cor: which peers to poll -------------------------------------------------------------- */

/* A peer is polled while records are due from it: receives posted for it, replies to our RTS or
 * CTS, or the rest of a long eager message it has begun. */
static void cor_update(int r)
{
    struct p2p_peer *peer = &p2p.peers[r];
    int wanted = peer->expected > 0 || peer->assembly.total != 0;
    if (wanted && peer->cor_slot < 0) {
        peer->cor_slot = p2p.cor_nactive;
        p2p.cor_active[p2p.cor_nactive++] = r;
    } else if (!wanted && peer->cor_slot >= 0) {
        int last = p2p.cor_active[--p2p.cor_nactive];
        p2p.cor_active[peer->cor_slot] = last;
        p2p.peers[last].cor_slot = peer->cor_slot;
        peer->cor_slot = -1;
    }
}

static void cor_expect(int r, int delta)
{
    if (r == p2p.me)
        return; /* sends to oneself never use a queue */
    p2p.peers[r].expected += delta;
    cor_update(r);
}

void p2p_queue_note_posted(int world_src, int delta)
{
    if (p2p.queue == P2P_QUEUE_COR)
        cor_expect(world_src, delta);
}

/* Before handling a record from r: replies we were waiting for stop being due. */
static void cor_note_arrival(int r, const struct shm_record *rec)
{
    switch (rec->kind) {
    case P2P_RECORD_FIN:
    case P2P_RECORD_CTS:
    case P2P_RECORD_CANCEL_ANSWER:
        cor_expect(r, -1);
        break;
    case P2P_RECORD_FRAG: {
        const struct p2p_frag *frag = shm_record_payload((struct shm_record *)rec);
        const struct core_request *request =
            (const struct core_request *)(uintptr_t)frag->receiver_cookie;
        if (request->p2p.offset + rec->size >= request->p2p.total)
            cor_expect(r, -1); /* the last fragment of a pipelined receive */
        break;
    }
    default:
        break;
    }
}

/* ---- send side ---------------------------------------------------------------------------- */

/* hybrid: from now on records to this peer use our pair ring. The receiver learns how many
 * records we sent through its inbox before, and drains the ring only after those. */
static void hybrid_open_ring(struct p2p_peer *peer, size_t payload_bytes)
{
    /* relaxed: the ring's first record (release) publishes it, the receiver reads it after
     * acquiring that record's stamp */
    atomic_store_explicit(peer->opened, peer->inbox_sent, memory_order_relaxed);
    peer->channel = P2P_CHANNEL_RING_DOORBELL;
    if (core_event_wanted(CORE_EVENT_SHM_HYBRID_RING)) {
        struct core_event_hybrid_ring e = {(int)(peer - p2p.peers), (MPI_Count)peer->inbox_sent,
                                           (MPI_Count)payload_bytes};
        core_event_raise(CORE_EVENT_SHM_HYBRID_RING, CORE_EVENT_NO_CONTEXT, &e);
    }
}

struct shm_record *p2p_queue_ring_full(struct p2p_peer *peer, size_t payload_bytes)
{
    /* A foreign receiver's waiters bitmap is in its own job's segment: the outgoing queue
     * retries on every progress round instead (a sleeping sender wakes within its futex
     * timeout, core/progress.c). */
    if (!p2p.wake_peers || peer->foreign)
        return NULL; /* nobody sleeps: the outgoing queue retries on every progress round */
    shm_waiters_register(peer->to_inbox.waiters, p2p.me); /* inbox.h: waiting for room */
    return shm_ring_try_reserve(&peer->to_peer, payload_bytes);
}

struct shm_record *p2p_queue_reserve_slow(struct p2p_peer *peer, size_t payload_bytes)
{
    if (p2p.queue == P2P_QUEUE_HYBRID && (peer->inbox_sent >= HYBRID_OPEN_AFTER_RECORDS ||
                                          payload_bytes >= HYBRID_OPEN_ABOVE_BYTES)) {
        hybrid_open_ring(peer, payload_bytes);
        return shm_ring_try_reserve(&peer->to_peer, payload_bytes);
    }
    return shm_inbox_try_reserve(&peer->to_inbox, payload_bytes);
}

void p2p_queue_publish_slow(struct p2p_peer *peer, struct shm_record *rec)
{
    switch (peer->channel) {
    case P2P_CHANNEL_INBOX:
        shm_inbox_publish(&peer->to_inbox, rec);
        peer->inbox_sent++;
        if (p2p.wake_peers)
            shm_wake_peer(peer->block);
        return;
    case P2P_CHANNEL_RING_DOORBELL:
        shm_ring_publish(&peer->to_peer, rec);
        atomic_thread_fence(memory_order_seq_cst); /* doorbell.h: no lost doorbell */
        shm_doorbell_ring(peer->doorbells, p2p.me);
        if (p2p.wake_peers)
            shm_wake_peer_after_fence(peer->block);
        return;
    case P2P_CHANNEL_RING_COR:
        if (rec->kind == P2P_RECORD_RTS || rec->kind == P2P_RECORD_CTS ||
            rec->kind == P2P_RECORD_CANCEL)
            cor_expect((int)(peer - p2p.peers), 1); /* FIN/CTS, fragments or an answer */
        /* fall through */
    default:
        shm_pair_publish(&peer->to_peer, &peer->to_fb, rec);
        if (p2p.wake_peers)
            shm_wake_peer(peer->block);
        return;
    }
}

/* ---- receive side ------------------------------------------------------------------------- */

/* The blocking receive being waited for has completed: leave the rest of the queue. Draining
 * it would move every record behind into the unexpected queue (an allocation and a second copy
 * each), and a receiver once behind a stream of small messages (a loop of MPI_Bcast at 2 ranks)
 * stayed behind: 2 KiB bcast 0.10-1.33 us per call from run to run. Left in the queue, the next
 * MPI_Recv takes them in place (recv.c) and the sender waits for room. Any other progress call
 * drains as before (hybrid re-arms the ring's doorbell bit; cor, whose receiver polls only the
 * senders it expects, always drains everything). */
static int drain_stop_reached(void)
{
    return p2p.drain_stop && p2p.drain_stop->complete;
}

/* Handle everything one peer has put in its ring and fastbox to us, in send order (up to the
 * awaited blocking receive, above); 1 if there was anything. */
static int drain_ring(int src)
{
    struct p2p_peer *peer = &p2p.peers[src];
    int in_fastbox;
    struct shm_record *rec = p2p_pair_peek(peer, &in_fastbox);
    if (!rec) {
        p2p_fastbox_tail_wait(peer);
        return 0;
    }
    do {
        if (in_fastbox)
            shm_fastbox_prefetch_next(&peer->from_fb);
        p2p_fastbox_tail_note(peer, rec, in_fastbox);
        p2p_handle_record(src, rec);
        shm_pair_release(&peer->from_peer, &peer->from_fb, rec, in_fastbox);
    } while (!drain_stop_reached() && (rec = p2p_pair_peek(peer, &in_fastbox)));
    p2p_after_drain(src);
    return 1; /* p2p_queue_poll wakes senders waiting for the room */
}

static int poll_pair(void)
{
    int did = 0;
    for (int r = 0; r < p2p.nranks; r++)
        if (r != p2p.me)
            did |= drain_ring(r);
    return did;
}

/* cor's drain: the same, noting which expected replies arrived. */
static int drain_ring_cor(int src)
{
    struct p2p_peer *peer = &p2p.peers[src];
    int in_fastbox;
    struct shm_record *rec = p2p_pair_peek(peer, &in_fastbox);
    if (!rec)
        return 0;
    do {
        cor_note_arrival(src, rec);
        p2p_handle_record(src, rec);
        shm_pair_release(&peer->from_peer, &peer->from_fb, rec, in_fastbox);
    } while ((rec = p2p_pair_peek(peer, &in_fastbox)));
    cor_update(src); /* a long eager message may have begun or ended */
    p2p_after_drain(src);
    return 1;
}

/* Sweep everything when: an any-source receive is posted (seed 000 §6.1.2), we were woken
 * (someone published to us, perhaps unexpectedly), or polls have come back empty for a while. */
static int cor_sweep_due(void)
{
    if (p2p.posted_any_source > 0 || p2p.cor_idle_polls >= COR_SWEEP_EVERY)
        return 1;
    uint32_t wake = atomic_load_explicit(&p2p.my_block->wake_word, memory_order_relaxed);
    if (wake == p2p.cor_wake_seen)
        return 0;
    p2p.cor_wake_seen = wake;
    return 1;
}

static int poll_cor(void)
{
    int did = 0;
    if (cor_sweep_due()) {
        p2p.cor_idle_polls = 0;
        for (int r = 0; r < p2p.nranks; r++)
            if (r != p2p.me)
                did |= drain_ring_cor(r);
        return did;
    }
    /* Downwards: draining may drop the current peer from the list (its slot then holds an
     * already visited one) or append peers (visited next poll). */
    for (int i = p2p.cor_nactive - 1; i >= 0; i--)
        if (i < p2p.cor_nactive)
            did |= drain_ring_cor(p2p.cor_active[i]);
    p2p.cor_idle_polls = did ? 0 : p2p.cor_idle_polls + 1;
    return did;
}

void p2p_queue_note_reply_dropped(int world_peer)
{
    if (p2p.queue == P2P_QUEUE_COR)
        cor_expect(world_peer, -1);
}

void p2p_queue_note_probe(const struct core_comm *comm, int source)
{
    if (p2p.queue != P2P_QUEUE_COR || source == MPI_PROC_NULL)
        return;
    if (source == MPI_ANY_SOURCE) {
        p2p.cor_idle_polls = COR_SWEEP_EVERY; /* the next poll sweeps */
        return;
    }
    int r = core_comm_peer_world_rank(comm, source);
    if (r != p2p.me)
        drain_ring_cor(r);
}

/* Wake the senders that found a queue to me full (inbox.h: the waiters handshake). */
static void wake_waiters(void)
{
    shm_inbox_fence_before_waiters();
    for (int i = 0; i < p2p.bitmap_words; i++) {
        uint64_t bits = shm_inbox_take_waiters(&p2p.inbox, i);
        while (bits) {
            int r = i * 64 + __builtin_ctzll(bits);
            bits &= bits - 1;
            shm_wake_peer_after_fence(p2p.peers[r].block);
        }
    }
}

static int poll_inbox(void)
{
    struct shm_record *rec = shm_inbox_peek(&p2p.inbox);
    if (!rec)
        return 0;
    do {
        int src = shm_inbox_sender(rec);
        p2p.peers[src].inbox_received++;
        p2p_handle_record(src, rec);
        shm_inbox_release(&p2p.inbox, rec);
        p2p_after_drain(src);
    } while ((rec = shm_inbox_peek(&p2p.inbox)));
    return 1;
}

/* hybrid: may src's ring be drained now? Only once every record src sent through the inbox
 * before opening its ring has been taken from the inbox (the non-overtaking rule). */
static int ring_ready(int src)
{
    struct p2p_peer *peer = &p2p.peers[src];
    if (peer->ring_in_order)
        return 1;
    if (!shm_ring_peek(&peer->from_peer))
        return 0; /* nothing yet; the acquire of the first record also publishes opened */
    uint64_t before = atomic_load_explicit(&p2p.opened[src], memory_order_relaxed);
    peer->ring_in_order = peer->inbox_received >= before;
    return peer->ring_in_order;
}

static int poll_hybrid(void)
{
    int did = poll_inbox();
    for (int i = 0; i < p2p.bitmap_words; i++) {
        uint64_t bits = p2p.rings_pending[i] | shm_doorbell_take(p2p.doorbells, i);
        p2p.rings_pending[i] = 0;
        while (bits) {
            int r = i * 64 + __builtin_ctzll(bits);
            uint64_t bit = bits & -bits;
            bits &= bits - 1;
            if (ring_ready(r)) {
                did |= drain_ring(r);
                if (shm_ring_peek(&p2p.peers[r].from_peer))
                    p2p.rings_pending[i] |= bit; /* left for later (drain_stop_reached) */
            } else if (!p2p.peers[r].ring_in_order && shm_ring_peek(&p2p.peers[r].from_peer))
                p2p.rings_pending[i] |= bit; /* its inbox records lag: retry next poll */
        }
    }
    return did;
}

/* orq and hybrid find this job's records in the inbox and doorbells; foreign peers (foreign.c)
 * send through their pair rings only, which are polled here. pair and cor poll every peer. */
static int poll_foreign(void)
{
    int did = 0;
    for (int r = p2p.local_nranks; r < p2p.nranks; r++)
        did |= drain_ring(r);
    return did;
}

static int poll_design(void)
{
    switch (p2p.queue) {
    case P2P_QUEUE_ORQ:
        return poll_inbox() | (p2p.nranks > p2p.local_nranks ? poll_foreign() : 0);
    case P2P_QUEUE_COR:
        return poll_cor();
    case P2P_QUEUE_HYBRID:
        return poll_hybrid() | (p2p.nranks > p2p.local_nranks ? poll_foreign() : 0);
    default:
        return poll_pair();
    }
}

int p2p_queue_poll(void)
{
    int did = poll_design();
    /* We freed room: wake the senders that asked (one fence and a bitmap load per poll, not per
     * peer; senders sleeping for other reasons stay asleep). */
    if (did && p2p.wake_peers)
        wake_waiters();
    return did;
}
