/* tool.c - what the messaging layer shows the MPI tool interface (src/mpi/mpit.c): the send
 * counters kept by send.c, eager.c and rndv.c, the lengths of the matching queues, and the
 * re-reading of the tunables a tool may change while messages flow. Nothing here is on a
 * message's path; queue lengths are counted by walking the lists when a tool asks. */
#include "core/config.h"
#include "p2p/internal.h"
#include "p2p/p2p.h"

uint64_t p2p_sent_messages(enum p2p_sent_kind kind)
{
    return kind < P2P_SENT_KINDS ? p2p.sent[kind] : 0;
}

uint64_t p2p_sent_bytes(void)
{
    return p2p.sent_bytes;
}

static size_t unexpected_in(const struct p2p_match_queues *q)
{
    size_t n = 0;
    for (const struct p2p_unexpected *u = q->unexpected_head; u; u = u->next)
        n++;
    return n;
}

static size_t posted_in(const struct p2p_match_queues *q)
{
    size_t n = 0;
    for (const struct core_request *r = q->posted_head; r; r = r->p2p.next)
        n++;
    return n;
}

/* The queues of one context if they exist (looking must not create them: p2p_queues would). */
static const struct p2p_match_queues *find_queues(uint32_t context)
{
    for (size_t i = 0; i < p2p.queues_capacity; i++)
        if (p2p.queues[i].used && p2p.queues[i].context == context)
            return &p2p.queues[i];
    return NULL;
}

static size_t queue_length(long context, size_t (*count)(const struct p2p_match_queues *))
{
    size_t n = 0;
    if (context < 0) {
        for (size_t i = 0; i < p2p.queues_capacity; i++)
            if (p2p.queues[i].used)
                n += count(&p2p.queues[i]);
        return n;
    }
    for (uint32_t c = (uint32_t)context; c <= (uint32_t)context + 1; c++) { /* p2p, coll */
        const struct p2p_match_queues *q = find_queues(c);
        if (q)
            n += count(q);
    }
    return n;
}

size_t p2p_unexpected_length(long context)
{
    return queue_length(context, unexpected_in);
}

size_t p2p_posted_length(long context)
{
    return queue_length(context, posted_in);
}

/* A pair whose receiver asked for the raised eager limit (skew.c) keeps it; the others follow
 * the new limit. Turning the skew watch off tells every sender we had asked to raise to lower
 * again, or it would stay raised for good. */
void p2p_config_changed(void)
{
    if (!p2p.peers)
        return;
    size_t old_limit = p2p.eager_limit, old_skew_limit = p2p.skew_eager_limit;
    p2p.eager_limit = p2p_configured_eager_limit();
    p2p.skew_eager_limit = core_config.skew_eager_limit;
    p2p.recv_in_place = core_config.recv_in_place != CORE_SWITCH_OFF;
    p2p.fastbox_tail = core_config.fastbox_tail != CORE_SWITCH_OFF;
    p2p.recv_partial_drain = core_config.recv_partial_drain != CORE_SWITCH_OFF;
    p2p.fastbox_pack = core_config.fastbox_pack != CORE_SWITCH_OFF;
    p2p_set_idle_eager();
    int explicit_cma = core_config_is_set("NODEMPI_CMA_THRESHOLD");
    p2p.cma_threshold = core_config.cma_threshold;
    for (int r = 0; r < p2p.nranks; r++) {
        struct p2p_peer *peer = &p2p.peers[r];
        if (peer->eager_limit == old_limit)
            peer->eager_limit = p2p.eager_limit;
        else if (peer->eager_limit == old_skew_limit)
            peer->eager_limit = p2p.skew_eager_limit;
        if (explicit_cma)
            peer->cma_threshold = p2p.cma_threshold;
    }
    p2p.skew_adapt = core_config.skew;
    if (!p2p.skew_adapt) {
        for (int r = 0; r < p2p.nranks; r++) {
            struct p2p_peer *peer = &p2p.peers[r];
            peer->skew_since = 0;
            if (peer->told_raise && r != p2p.me) {
                struct p2p_cookies lower = {0, 0};
                p2p_queue_control(r, P2P_RECORD_SKEW, &lower);
                peer->told_raise = 0;
                p2p.raised_peers--;
            }
        }
    }
}
