/* queue.h - the queue designs of NODEMPI_QUEUE, in one place: how a record is reserved and
 * published to a peer (p2p_reserve / p2p_publish in internal.h dispatch on the peer's channel)
 * and how incoming records are found (p2p_queue_poll). The designs (seed 000 ch. 6):
 *   pair    one SPSC ring per ordered pair; the receiver polls all p - 1 rings.
 *   orq     one multi-producer inbox per receiver (shm/inbox.h); the receiver polls one queue.
 *   cor     pair rings; the receiver polls only peers it expects records from: posted receives
 *           per source, any-source receives widen the poll to all, plus protocol replies.
 *   hybrid  inbox per receiver, and a pair ring opened by a sender once the pair is busy; the
 *           sender rings the receiver's doorbell bitmap so idle rings are never polled.
 * Only queue.c knows the designs; the protocol code calls p2p_reserve / p2p_publish. */
#ifndef NODEMPI_P2P_QUEUE_H
#define NODEMPI_P2P_QUEUE_H

#include <stddef.h>

enum p2p_queue_design { P2P_QUEUE_PAIR, P2P_QUEUE_ORQ, P2P_QUEUE_COR, P2P_QUEUE_HYBRID };

/* How records to one peer travel (sender side). RING is the pair design's plain path: its
 * publish is one release store (and a wake-up check when ranks may sleep). */
enum p2p_channel {
    P2P_CHANNEL_RING,          /* pair ring (pair) */
    P2P_CHANNEL_RING_COR,      /* pair ring, noting replies we will expect (cor) */
    P2P_CHANNEL_RING_DOORBELL, /* pair ring opened for a busy pair, plus doorbell (hybrid) */
    P2P_CHANNEL_INBOX,         /* the peer's inbox (orq, hybrid before the pair is busy) */
};

struct p2p_peer;
struct shm_record;
struct core_request;
struct core_comm;

/* p2p_init: choose the design (NODEMPI_QUEUE or the default by rank count) and set up every
 * peer's channel; p2p_finalize: free what it allocated. */
int p2p_queue_init(void);
void p2p_queue_finalize(void);
const char *p2p_queue_name(int design);

/* One receive poll: handle every record that has arrived; nonzero if there was any. */
int p2p_queue_poll(void);

/* Slow paths behind p2p_reserve / p2p_publish (everything but P2P_CHANNEL_RING, and a full
 * ring: the sender asks to be woken when the receiver frees room, then tries once more). */
struct shm_record *p2p_queue_ring_full(struct p2p_peer *peer, size_t payload_bytes);
struct shm_record *p2p_queue_reserve_slow(struct p2p_peer *peer, size_t payload_bytes);
void p2p_queue_publish_slow(struct p2p_peer *peer, struct shm_record *rec);

/* cor: a receive from world_src was posted (delta 1) or left the posted queue (-1); match.c
 * calls it (MPI_ANY_SOURCE receives are counted in p2p.posted_any_source). */
void p2p_queue_note_posted(int world_src, int delta);

/* cor: a reply announced when our RTS was published will not come (the receiver withdrew the
 * RTS on our cancel). No-op in the other designs. */
void p2p_queue_note_reply_dropped(int world_peer);

/* cor: a probe for source (comm rank or MPI_ANY_SOURCE) is about to look at the unexpected
 * queue: poll that peer (or everyone) first. No-op in the other designs. */
void p2p_queue_note_probe(const struct core_comm *comm, int source);

#endif
