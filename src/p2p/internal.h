/* internal.h - state shared by the p2p files: per-peer rings and outgoing queues, the matching
 * queues per context, unexpected messages, and the record formats of the protocols.
 * Only src/p2p includes this. */
#ifndef NODEMPI_P2P_INTERNAL_H
#define NODEMPI_P2P_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/uio.h>

#include <mpi.h>

#include "core/request.h"
#include "p2p/adapt.h"
#include "p2p/p2p.h"
#include "p2p/policy.h"
#include "p2p/queue.h"
#include "shm/fastbox.h"
#include "shm/inbox.h"
#include "shm/ring.h"
#include "shm/wake.h"

/* Record kinds carried by the rings (SHM_RECORD_SKIP = 1 is the transport's). */
enum p2p_record_kind {
    P2P_RECORD_EAGER = 2, /* header + whole message */
    P2P_RECORD_RTS,       /* request to send: struct p2p_rts; the data stays with the sender */
    P2P_RECORD_FIN,       /* receiver -> sender: done with your buffer (struct p2p_cookies) */
    P2P_RECORD_CTS,       /* receiver -> sender: send fragments (struct p2p_cookies) */
    P2P_RECORD_FRAG,      /* sender -> receiver: struct p2p_frag + data */
    P2P_RECORD_EAGER_LONG, /* envelope of an eager message too big for one record */
    P2P_RECORD_DATA,      /* the next piece of that message (header.size = its bytes) */
    P2P_RECORD_SKEW,      /* receiver -> sender: raise (1) or lower (0) the pair's eager limit */
    P2P_RECORD_HELP,      /* receiver -> sender: copy chunks of this message too (split.c;
                           * struct p2p_cookies: your request, my buffer's address) */
    P2P_RECORD_CANCEL,    /* sender -> receiver: withdraw my message (cancel.c; cookies: my
                           * request, context << 32 | the message's number) */
    P2P_RECORD_CANCEL_ANSWER, /* receiver -> sender: cookies: your request, 1 = withdrawn */
    P2P_RECORD_VOID,      /* sender -> receiver: a message cancelled before it left; it only
                           * keeps the message numbering of the pair in step */
};

/* A send being cancelled (request->p2p.cancel). */
enum p2p_cancel_state {
    P2P_CANCEL_ASKED = 1,  /* CANCEL sent; the protocol still runs (RTS not answered) */
    P2P_CANCEL_ASKED_DONE, /* CANCEL sent; the data has left; only the answer is awaited */
    P2P_CANCEL_LINKED,     /* buffered send: waiting for the linked internal send */
};

/* RTS flags */
enum { P2P_RTS_CMA = 1 }; /* the receiver may pull with process_vm_readv */

struct p2p_rts {
    uint64_t sender_cookie;  /* sender's request */
    int32_t pid;
    int32_t niov;            /* 1: iov is the buffer; >1: iov describes an iovec array */
    uint64_t iov_base;       /* remote address */
    uint64_t iov_len;
    int32_t copy_slot;       /* split copy offered: the sender's slot + 1; 0 = not offered */
    int32_t reserved;
};

struct p2p_cookies {
    uint64_t sender_cookie;
    uint64_t receiver_cookie;
};

struct p2p_frag {
    uint64_t receiver_cookie;
    uint64_t offset;
};

/* A message that arrived before its receive was posted. */
enum p2p_unexpected_kind { P2P_UNEXPECTED_EAGER, P2P_UNEXPECTED_RTS, P2P_UNEXPECTED_SELF };

enum { P2P_UNEXPECTED_INLINE_BYTES = 128 };

struct p2p_unexpected {
    struct p2p_unexpected *next;     /* all of the context's, in arrival order */
    struct p2p_unexpected *prev;
    struct p2p_unexpected *src_next; /* the same source's only, in arrival order */
    struct p2p_unexpected *src_prev;
    enum p2p_unexpected_kind kind;
    int src;                 /* sender's rank in the communicator */
    int world_src;
    int tag;
    uint32_t context;
    size_t size;
    void *data;              /* EAGER: private copy of the payload */
    struct p2p_rts rts;      /* RTS */
    struct core_request *self_send; /* SELF: the sending request (same process) */
    uint32_t seq;            /* the message's number among the sender's to us (cancel.c) */
    int assembling;          /* EAGER_LONG: data still arriving */
    struct core_request *waiting;   /* ...and the receive that already took it */
    int skew_counted;        /* counted in its sender's unexpected_count (skew.c) */
    /* EAGER payloads of up to P2P_UNEXPECTED_INLINE_BYTES: data points here (unexpected.c) */
    _Alignas(16) unsigned char inline_data[P2P_UNEXPECTED_INLINE_BYTES];
};

/* Receiver side: the long eager message a peer is in the middle of sending. */
struct p2p_assembly {
    struct core_request *request;      /* matched receive, or NULL */
    struct p2p_unexpected *unexpected; /* or the unexpected copy being filled */
    size_t offset;
    size_t total;
    int src;
    int tag;
};

/* Sender side: a long eager message being written as EAGER_LONG + DATA records. The bytes come
 * from the user's contiguous buffer, or from a private copy once the request has completed. */
struct p2p_long_send {
    const char *data;            /* bytes [data_offset, total) of the packed message */
    size_t data_offset;
    size_t total;
    size_t offset;               /* bytes written to the ring so far */
    int header_sent;
    int owns_data;
    int tag;
    uint32_t context;
    int src;
    uint32_t seq;                /* the message's number (request->p2p.seq; cancel.c) */
    struct core_request *request; /* completes when everything is written; NULL if staged */
};

/* Matching queues of one context: posted receives and unexpected messages, both in order. */
struct p2p_source_list {
    struct p2p_unexpected *head, *tail;
};

struct p2p_match_queues {
    uint32_t context;
    int used;
    struct core_request *posted_head, *posted_tail;
    struct p2p_unexpected *unexpected_head, *unexpected_tail;
    /* The unexpected messages again, one list per source rank, so a receive from a given
     * source scans only that source's backlog: in a rooted collective whose other ranks run
     * ahead, the root's one global list held ~1000 messages of one child in front of the
     * other's, and MPI_Gather of 16 B at 4 ranks took 22 us per call instead of 0.6. */
    struct p2p_source_list *by_src;
    int by_src_len;
};

/* Something waiting for room in the ring to one peer, kept in order. */
enum p2p_outgoing_kind {
    P2P_OUT_EAGER,   /* request: an eager message */
    P2P_OUT_RTS,     /* request: its RTS */
    P2P_OUT_FRAGS,   /* request: the fragments after a CTS */
    P2P_OUT_CONTROL, /* FIN, CTS or SKEW */
    P2P_OUT_EAGER_LONG, /* long_send: the rest of a long eager message */
};

struct p2p_outgoing {
    struct p2p_outgoing *next;
    enum p2p_outgoing_kind kind;
    struct core_request *request;
    int control_kind;            /* P2P_RECORD_FIN / P2P_RECORD_CTS / P2P_RECORD_SKEW */
    struct p2p_cookies cookies;
    struct p2p_long_send long_send;
};

struct p2p_peer {
    int channel;                 /* enum p2p_channel: how records to this peer travel (first:
                                  * on the send fast path's cache line, next to to_peer) */
    int fastbox;                 /* records of up to SHM_FASTBOX_PAYLOAD bytes may use to_fb */
    struct shm_ring to_peer;     /* producer side: me -> peer */
    struct shm_fastbox to_fb;    /* producer side: small records me -> peer (shm/fastbox.h) */
    struct shm_ring from_peer;   /* consumer side: peer -> me */
    struct shm_fastbox from_fb;  /* consumer side, read in order with from_peer */
    struct shm_rank_block *block;
    struct p2p_outgoing *out_head, *out_tail;
    /* Sender side: this pair's switch points (topology- and skew-aware). */
    size_t eager_limit;
    size_t cma_threshold;        /* from the pair's distance class (topo profile) */
    size_t chunk;                /* pipelined fragment size, from the cache the pair shares */
    int distance;                /* enum topo_distance of the two ranks' CPUs */
    int stream_copy;             /* write bulk data into the ring with streaming stores */
    int rndv_sends;              /* my rendezvous sends to this peer not yet finished */
    int posted_from;             /* receives posted for this peer as source (match.c) */
    uint64_t head_seen;          /* the ring's consumer head when last looked at (send.c) */
    uint64_t head_seen_ns;       /* ...and since when it has been there */
    /* Messages (EAGER, RTS, EAGER_LONG, VOID records) started to / received from this peer, in
     * order on both sides, so a message is named by its number (cancel.c). */
    uint32_t messages_sent;
    uint32_t messages_received;
    /* messages_received when we last sent an eager message: equal means the peer has not
     * answered since, a stream, and a message of up to 8 B goes packed (send.c, fastbox.h) */
    uint32_t received_at_send;
    /* The last record taken from this peer's fastbox (recv_in_place, drain_ring) had a size
     * past the cell's first line: while waiting for the next, ask for that line too. A hint:
     * wrong, it costs a poll a prefetch or a line transfer more. */
    int fastbox_tail_hint;
    /* Receiver side: long eager message in progress, skew watch. */
    struct p2p_adapt adapt;      /* single copy or pipeline, learnt from this pair (adapt.c) */
    struct p2p_assembly assembly;
    int unexpected_count;        /* its messages above the eager limit waiting unexpected */
    double skew_since;           /* when unexpected_count last rose above the high mark */
    double calm_since;           /* when it last fell to the low mark while raised */
    int told_raise;              /* we asked this peer to raise its eager limit */
    /* Queue design (queue.c). */
    uint32_t inbox_sent;         /* orq, hybrid: records sent through the peer's inbox */
    uint32_t inbox_received;     /* orq, hybrid: records from the peer taken from my inbox */
    int ring_in_order;           /* hybrid: the peer's inbox records sent before it opened its
                                  * ring are all in, so its ring may be drained */
    struct shm_inbox to_inbox;   /* orq, hybrid: producer view of the peer's inbox */
    _Atomic uint64_t *doorbells; /* hybrid: the peer's doorbell words */
    _Atomic uint64_t *opened;    /* hybrid: my entry in the peer's opened table */
    int expected;                /* cor: posted receives from the peer + replies due from it */
    int cor_slot;                /* cor: index in p2p.cor_active, -1 when not there */
    int foreign;                 /* a process of another job: rings in a connection segment,
                                  * plain ring channel, no single copy (foreign.c) */
};

struct p2p_state {
    int nranks;                  /* peers: this job's ranks, then foreign ones (foreign.c) */
    int local_nranks;            /* this job's ranks: the peers indexed in the job segment */
    int me;
    int cma;                     /* single copy usable (probed and allowed by config) */
    int wake_peers;              /* some rank may sleep: wake after publishing */
    int recv_in_place;           /* NODEMPI_RECV_IN_PLACE (recv.c) */
    int raised_peers;            /* peers we asked to raise their eager limit (skew.c); the
                                  * receive in place looks at the skew watch only while any */
    int fastbox_tail;            /* NODEMPI_FASTBOX_TAIL (recv.c) */
    int recv_partial_drain;      /* NODEMPI_RECV_PARTIAL_DRAIN (recv.c, queue.c) */
    int fastbox_pack;            /* NODEMPI_FASTBOX_PACK (send.c) */
    size_t eager_limit;
    size_t cma_threshold;
    size_t chunk;                /* pipelined fragment payload */
    size_t skew_eager_limit;     /* a pair's eager limit while its receiver is behind */
    int skew_adapt;              /* NODEMPI_SKEW */
    int copy_adapt;              /* NODEMPI_COPY_ADAPT: rendezvous copy learnt per pair */
    int idle_eager;              /* NODEMPI_IDLE_EAGER (send.c) */
    int eager_when_room;         /* oversubscribed: idle_eager asks only for room (send.c) */
    int stream_eager;            /* NODEMPI_STREAM_EAGER: one-way streams go eagerly (send.c) */
    int posted_any_source;       /* MPI_ANY_SOURCE receives posted (match.c; cor widens its poll) */
    int copy_hint;               /* enum p2p_copy_hint, set by a running blocking collective */
    size_t staged_bytes;         /* long eager data copied aside because a ring was full */
    int split_copy;              /* offer split copies (NODEMPI_SPLIT_COPY, cores permitting) */
    uint64_t free_copy_slots;    /* bit i: my copy slot i is free */
    int split_pending;           /* receives waiting for a sender's last split-copy chunks */
    /* A blocking receive being waited for (recv.c): a pair's queue is drained up to the record
     * that completes it, the rest left for the next receive to take in place (queue.c). */
    const struct core_request *drain_stop;
    struct p2p_peer *peers;
    uint64_t sent[P2P_SENT_KINDS]; /* messages sent, by protocol (p2p.h) */
    uint64_t sent_bytes;
    int pending_peers;           /* peers with a non-empty outgoing queue */
    int cancels_pending;         /* CANCEL records sent whose answer has not come (cancel.c) */
    struct p2p_match_queues *queues; /* open-addressing table by context */
    size_t queues_capacity;
    size_t queues_used;
    struct p2p_match_queues *last_queues;
    struct p2p_outgoing *free_outgoing;
    /* Queue design (queue.c). */
    int queue;                   /* enum p2p_queue_design */
    struct shm_rank_block *my_block;
    struct shm_inbox inbox;      /* orq, hybrid: consumer view of my inbox */
    _Atomic uint64_t *doorbells; /* hybrid: my doorbell words */
    _Atomic uint64_t *opened;    /* hybrid: my opened table, one entry per sender */
    uint64_t *rings_pending;     /* hybrid: rings rung whose sender's inbox records lag */
    int bitmap_words;
    int *cor_active;             /* cor: the peers polled (expected > 0 or a message arriving) */
    int cor_nactive;
    unsigned cor_idle_polls;     /* cor: consecutive polls that found nothing */
    uint32_t cor_wake_seen;      /* cor: my wake word at the last full sweep */
};

extern struct p2p_state p2p;

/* match.c */
struct p2p_match_queues *p2p_queues_lookup(uint32_t context);
/* The matching queues of a context (created on first use). Inline for the common case, the
 * context looked up last: every receive asks before it polls, and the call's own instructions
 * were most of the answer (22 per call, callgrind). */
static inline struct p2p_match_queues *p2p_queues(uint32_t context)
{
    struct p2p_match_queues *q = p2p.last_queues;
    return q && q->context == context ? q : p2p_queues_lookup(context);
}
struct core_request *p2p_match_posted(struct p2p_match_queues *q, int src, int tag);
struct p2p_unexpected *p2p_match_unexpected(struct p2p_match_queues *q, int source, int tag);
void p2p_post(struct p2p_match_queues *q, struct core_request *request);
int p2p_unpost(struct p2p_match_queues *q, struct core_request *request);
void p2p_unexpected_append(struct p2p_match_queues *q, struct p2p_unexpected *u);
void p2p_unexpected_remove(struct p2p_match_queues *q, struct p2p_unexpected *u);
void p2p_free_queues(void);

/* recv.c */
void p2p_deliver_eager(struct core_request *request, int src, int tag, const void *data,
                       size_t size);
void p2p_recv_matched_unexpected(struct core_request *request, struct p2p_unexpected *u);
void p2p_handle_record(int world_src, struct shm_record *rec);
void p2p_complete_recv(struct core_request *request, int src, int tag, size_t size,
                       size_t copied);

/* rndv.c */
void p2p_rndv_receive(struct core_request *request, int src, int tag, int world_src,
                      size_t size, const struct p2p_rts *rts);
void p2p_rndv_on_fin(const struct p2p_cookies *cookies);
void p2p_rndv_on_cts(int world_src, const struct p2p_cookies *cookies);
void p2p_rndv_on_frag(const struct p2p_frag *frag, const void *data, size_t len);
int p2p_rndv_push_frags(struct p2p_peer *peer, struct core_request *request);
int p2p_rndv_try_rts(struct p2p_peer *peer, struct core_request *request);

struct dt_type;
/* rndv.c: iovecs needed for a typed buffer, -1 when too many for CMA */
int p2p_layout_iovecs(struct dt_type *type, MPI_Count count);

/* send.c */
enum p2p_protocol p2p_choose_protocol_for(const struct core_request *request, int world_peer);
/* The eager limit NODEMPI_EAGER_LIMIT asks for, or unset, the default for this job (progress.c). */
size_t p2p_configured_eager_limit(void);
int p2p_try_eager(struct p2p_peer *peer, struct core_request *request);
void p2p_queue_outgoing(int world_peer, enum p2p_outgoing_kind kind,
                        struct core_request *request);
void p2p_queue_control(int world_peer, int control_kind, const struct p2p_cookies *cookies);
void p2p_self_send(struct core_request *request);
void p2p_send_complete(struct core_request *request);
int p2p_push_outgoing(int world_peer);

/* cancel.c: cancelling sends (and receives) */
void p2p_cancel_on_request(int world_src, const struct p2p_cookies *cookies);
void p2p_cancel_on_answer(int world_src, const struct p2p_cookies *cookies);
void p2p_cancel_send_finished(struct core_request *request); /* send.c's slow completion */
/* send.c: turn a message not yet published into a VOID record; 1 if it was still queued */
int p2p_withdraw_outgoing(int world_peer, struct core_request *request);
/* rndv.c: the receiver withdrew our RTS: release what the rendezvous held */
void p2p_rndv_withdrawn(struct core_request *request);

/* eager.c: messages above one record's payload but under the pair's eager limit */
size_t p2p_record_max_payload(const struct p2p_peer *peer);
int p2p_eager_long_start(int world_peer, struct core_request *request);
int p2p_eager_long_push(struct p2p_peer *peer, struct p2p_long_send *send);

/* staging.c: buffers for set-aside and unexpected message data, kept for reuse when freed
 * (bytes is the size asked for, passed again to free); released at p2p_finalize. */
void *p2p_staging_alloc(size_t bytes);
void p2p_staging_free(void *data, size_t bytes);
void p2p_staging_release(void);

/* unexpected.c: unexpected-queue entries, from a free list. p2p_unexpected_new gives an entry
 * with every field cleared; p2p_unexpected_hold points its data at room for bytes (inside the
 * entry when small, else staging; NULL when out of memory; u->size must then stay bytes);
 * p2p_unexpected_release frees the data and the entry. */
struct p2p_unexpected *p2p_unexpected_new(void);
void *p2p_unexpected_hold(struct p2p_unexpected *u, size_t bytes);
void p2p_unexpected_release(struct p2p_unexpected *u);
void p2p_unexpected_pool_release(void);
void p2p_eager_long_on_envelope(int world_src, struct shm_record *rec);
void p2p_eager_long_on_data(int world_src, const void *data, size_t len);
void p2p_eager_long_matched(struct core_request *request, struct p2p_unexpected *u);

/* skew.c: watch unexpected queues per sender, adjust senders' eager limits */
void p2p_skew_check(int world_src);
void p2p_skew_note_unexpected(struct p2p_unexpected *u);
void p2p_skew_note_matched(const struct p2p_unexpected *u);

/* Bookkeeping after records from one peer were handled (queue.c's drains in every design,
 * recv.c's receives in place while p2p.raised_peers): the skew watch looks while a backlog
 * lasts or a raise stands. */
static inline void p2p_after_drain(int world_src)
{
    struct p2p_peer *peer = &p2p.peers[world_src];
    if (peer->unexpected_count > 8 || peer->told_raise)
        p2p_skew_check(world_src);
}
void p2p_skew_on_control(int world_src, const struct p2p_cookies *cookies);

/* split.c: large single-copy messages copied by sender and receiver together */
void p2p_split_init(void);
int p2p_split_offer(size_t size); /* a free copy slot + 1 for this message, or 0 */
void p2p_split_release(struct core_request *request);
/* 1: taken (completed now, or when the sender's last chunks are in: p2p_split_progress);
 * 0: not applicable, use the plain pull */
int p2p_split_receive(struct core_request *request, int src, int tag, int world_src,
                      size_t size, const struct p2p_rts *rts, size_t bytes);
int p2p_split_progress(void);
/* rndv.c: pull a whole message with CMA; 0 on success, else an errno value */
int p2p_rndv_pull(struct core_request *request, const struct p2p_rts *rts, size_t bytes);
void p2p_split_on_help(int world_src, const struct p2p_cookies *cookies);

/* A record with room for payload_bytes in the queue to peer, or NULL when it is full (the
 * caller keeps the work in the peer's outgoing queue). Fill it, then p2p_publish it. */
static inline struct shm_record *p2p_reserve(struct p2p_peer *peer, size_t payload_bytes)
{
    if (peer->channel != P2P_CHANNEL_INBOX) {
        struct shm_record *rec = NULL;
        if (peer->fastbox && payload_bytes <= SHM_FASTBOX_PAYLOAD &&
            (rec = shm_fastbox_try_reserve(&peer->to_fb)))
            return rec;
        rec = shm_ring_try_reserve(&peer->to_peer, payload_bytes);
        return rec ? rec : p2p_queue_ring_full(peer, payload_bytes);
    }
    return p2p_queue_reserve_slow(peer, payload_bytes);
}

/* Make the record visible to the peer, waking it if it may be asleep. The first branch is the
 * pair design: one release store, plus a fence and a load when ranks may sleep. */
/* Bulk data into a ring record: streaming stores for pairs on different CPUs (shm/copy.h). */
void p2p_copy_to_ring(const struct p2p_peer *peer, void *dst, const void *src, size_t len);
/* progress.c: p2p.idle_eager from NODEMPI_IDLE_EAGER and NODEMPI_EAGER_LIMIT (send.c uses it) */
void p2p_set_idle_eager(void);
/* progress.c: eager limit, single-copy threshold and fragment size of the pair with peer r */
void p2p_set_pair_thresholds(int r);

static inline void p2p_publish(struct p2p_peer *peer, struct shm_record *rec)
{
    if (peer->channel == P2P_CHANNEL_RING) {
        shm_pair_publish(&peer->to_peer, &peer->to_fb, rec);
        if (p2p.wake_peers)
            shm_wake_peer(peer->block);
        return;
    }
    p2p_queue_publish_slow(peer, rec);
}

/* NODEMPI_FASTBOX_TAIL: after taking a record, remember whether it reached the cell's second
 * line; while waiting for that peer's next one, ask for that line early if so (recv_in_place,
 * drain_ring). 33-64 B payloads then arrive with one line transfer instead of two in a row;
 * asking after 8-32 B records, whose senders never write the line, cost them 2-3%. */
static inline void p2p_fastbox_tail_note(struct p2p_peer *peer, const struct shm_record *rec,
                                         int in_fastbox)
{
    peer->fastbox_tail_hint = p2p.fastbox_tail && in_fastbox && rec->size > SHM_RECORD_INLINE_BYTES;
}

static inline void p2p_fastbox_tail_wait(const struct p2p_peer *peer)
{
    if (peer->fastbox_tail_hint)
        shm_fastbox_prefetch_tail(&peer->from_fb);
}

/* The next record from peer in send order (its fastbox and ring), or NULL; *in_fastbox says
 * which to release it to (shm_pair_release). */
static inline struct shm_record *p2p_pair_peek(struct p2p_peer *peer, int *in_fastbox)
{
    return shm_pair_peek(&peer->from_peer, &peer->from_fb, P2P_RECORD_EAGER, in_fastbox);
}

#endif
