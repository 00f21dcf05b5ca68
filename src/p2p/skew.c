/* skew.c - skew-aware thresholds (seed 001 §4.2). A receiver that falls behind a sender
 * accumulates that sender's messages in its unexpected queue. When the count stays above a high
 * mark for a while, the receiver asks the sender (SKEW record) to raise the pair's eager limit,
 * so large messages are pushed without waiting for the receiver to match them; when the queue
 * stays near empty for longer, it asks to lower it again, giving back the single-copy path.
 * The two marks and the two hold times are the hysteresis that keeps it from oscillating.
 * Changing the protocol between two messages never reorders them: both protocols start with a
 * record in the same FIFO ring, and matching follows ring order. */
#include <time.h>

#include "core/config.h"
#include "core/tool_event.h"
#include "p2p/internal.h"

/* Marks from the skew benchmark's setting (window 64): 8 queued messages is far beyond what a
 * receiver that keeps up ever has; raising takes 200 us of sustained backlog, lowering 20 ms of
 * calm (100x longer: a wrong "lower" costs a sender stall, a wrong "raise" only a copy). */
enum { SKEW_HIGH_MARK = 8, SKEW_LOW_MARK = 1 };
static const double skew_raise_hold_s = 200e-6;
static const double skew_lower_hold_s = 20e-3;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void tell(int world_src, int raise)
{
    struct p2p_cookies cookies = {(uint64_t)raise, 0};
    p2p_queue_control(world_src, P2P_RECORD_SKEW, &cookies);
    if (core_event_wanted(CORE_EVENT_P2P_SKEW_REQUEST)) {
        struct core_event_skew_request e = {world_src, raise,
                                            p2p.peers[world_src].unexpected_count};
        core_event_raise(CORE_EVENT_P2P_SKEW_REQUEST, CORE_EVENT_NO_CONTEXT, &e);
    }
}

void p2p_skew_check(int world_src)
{
    struct p2p_peer *peer = &p2p.peers[world_src];
    if (!p2p.skew_adapt || world_src == p2p.me)
        return;
    if (!peer->told_raise) {
        if (peer->unexpected_count <= SKEW_HIGH_MARK) {
            peer->skew_since = 0;
            return;
        }
        double t = now();
        if (peer->skew_since == 0)
            peer->skew_since = t;
        else if (t - peer->skew_since >= skew_raise_hold_s) {
            tell(world_src, 1);
            peer->told_raise = 1;
            p2p.raised_peers++;
            peer->calm_since = 0;
        }
        return;
    }
    if (peer->unexpected_count > SKEW_LOW_MARK) {
        peer->calm_since = 0;
        return;
    }
    double t = now();
    if (peer->calm_since == 0)
        peer->calm_since = t;
    else if (t - peer->calm_since >= skew_lower_hold_s) {
        tell(world_src, 0);
        peer->told_raise = 0;
        p2p.raised_peers--;
        peer->skew_since = 0;
    }
}

/* The watch counts only messages above the pair's base eager limit: their protocol is what a
 * raise changes, and their senders are the ones a late receiver stalls (an RTS waits for its
 * match). A backlog of small eager messages stalls nobody and a raise would not touch them, but
 * counting them (a root behind a loop of 4 B gathers) left the limit raised for the next large
 * messages: 4 ranks on 2 cores, MPI_Gather of 64 KiB after a phase of 4 B gathers went through
 * the ring at 35-85 us instead of the single copy's 19-22 (Open MPI 24-27). The flag keeps
 * append and remove in agreement when the limit changes in between (MPI_T). */
void p2p_skew_note_unexpected(struct p2p_unexpected *u)
{
    u->skew_counted = p2p.peers && u->size > p2p.eager_limit;
    if (u->skew_counted)
        p2p.peers[u->world_src].unexpected_count++;
}

/* A counted message was matched. A backlog only counts as skew while it lasts without a break:
 * once the receiver catches up below the high mark the clock restarts.
 * (Without this, a backlog seen once and cleared by posted receives armed the clock, and the
 * next window of a bidirectional bandwidth test, where both ranks post before they wait, looked
 * like 200 us of skew: 32 KiB messages then went through the eager copy at 1.1 GB/s instead
 * of 9.4.) */
void p2p_skew_note_matched(const struct p2p_unexpected *u)
{
    if (!u->skew_counted)
        return;
    struct p2p_peer *peer = &p2p.peers[u->world_src];
    if (--peer->unexpected_count <= SKEW_HIGH_MARK)
        peer->skew_since = 0;
}

void p2p_skew_on_control(int world_src, const struct p2p_cookies *cookies)
{
    struct p2p_peer *peer = &p2p.peers[world_src];
    size_t old = peer->eager_limit;
    peer->eager_limit = cookies->sender_cookie ? p2p.skew_eager_limit : p2p.eager_limit;
    if (core_event_wanted(CORE_EVENT_P2P_SKEW_THRESHOLD) && peer->eager_limit != old) {
        struct core_event_skew_threshold e = {world_src, (MPI_Count)old,
                                              (MPI_Count)peer->eager_limit};
        core_event_raise(CORE_EVENT_P2P_SKEW_THRESHOLD, CORE_EVENT_NO_CONTEXT, &e);
    }
}
