/* cancel.c - MPI_Cancel of receives and sends. A posted receive is simply unposted. A send is
 * named by its number among the messages to its peer (request->p2p.seq; both sides count
 * EAGER, RTS, EAGER_LONG and VOID records in the pair's order). A send still in the outgoing
 * queue becomes a VOID record there (cancelled at once, no exchange). A published one is
 * withdrawn by asking the receiver: a CANCEL record follows the message through the same ordered
 * channel, so it arrives after it; the receiver drops the message if it still sits unmatched in
 * its unexpected queue and answers CANCEL_ANSWER (1 = withdrawn). The send completes at the
 * answer (an eager send that had completed is reopened until then), so MPI_Wait returns once the
 * receiver's progress engine, which any MPI call of the receiver's runs, has seen the request.
 * A buffered send's user request follows its internal send (bsend.c links the two). */
#include <stdlib.h>

#include "core/comm.h"
#include "p2p/internal.h"
#include "p2p/p2p.h"

static void mark_cancelled(struct core_request *request)
{
    request->cancelled = 1;
    core_status_set_cancelled(&request->status, 1);
}

/* Complete a send for good, and the buffered send's user request that waits on it. */
static void finish_send(struct core_request *request)
{
    struct core_request *user = request->p2p.linked;
    if (user) {
        user->p2p.linked = NULL;
        request->p2p.linked = NULL;
        if (user->p2p.cancel == P2P_CANCEL_LINKED) {
            user->p2p.cancel = 0;
            if (request->cancelled)
                mark_cancelled(user);
            core_request_complete(user);
        }
    }
    core_request_complete(request);
}

void p2p_cancel_send_finished(struct core_request *request)
{
    if (request->p2p.cancel == P2P_CANCEL_ASKED) { /* the answer is still to come */
        request->p2p.cancel = P2P_CANCEL_ASKED_DONE;
        return;
    }
    finish_send(request);
}

/* ---- receiver: a sender asks to withdraw a message ----------------------------------------- */

void p2p_cancel_on_request(int world_src, const struct p2p_cookies *cookies)
{
    uint32_t context = (uint32_t)(cookies->receiver_cookie >> 32);
    uint32_t seq = (uint32_t)cookies->receiver_cookie;
    struct p2p_match_queues *q = p2p_queues(context);
    struct p2p_unexpected *u = q->unexpected_head;
    while (u && !(u->world_src == world_src && u->seq == seq && u->kind != P2P_UNEXPECTED_SELF))
        u = u->next;
    /* Not there: a receive matched it (or MPI_Mprobe took it) before the CANCEL arrived. A
     * long eager message is complete here (its DATA records came before the CANCEL). */
    int withdrawn = u && !u->assembling && !u->waiting;
    if (withdrawn) {
        p2p_unexpected_remove(q, u);
        p2p_unexpected_release(u);
    }
    struct p2p_cookies answer = {cookies->sender_cookie, (uint64_t)withdrawn};
    p2p_queue_control(world_src, P2P_RECORD_CANCEL_ANSWER, &answer);
}

/* ---- sender: the answer --------------------------------------------------------------------- */

void p2p_cancel_on_answer(int world_src, const struct p2p_cookies *cookies)
{
    (void)world_src;
    struct core_request *request = (struct core_request *)(uintptr_t)cookies->sender_cookie;
    p2p.cancels_pending--;
    int data_left = request->p2p.cancel == P2P_CANCEL_ASKED_DONE;
    request->p2p.cancel = 0;
    if (cookies->receiver_cookie) {
        if (!data_left) /* an RTS nobody answered: its rendezvous ends here */
            p2p_rndv_withdrawn(request);
        mark_cancelled(request);
        finish_send(request);
    } else if (data_left) {
        finish_send(request);
    }
    /* else matched, and the rendezvous is still moving data: it completes the send itself */
}

/* ---- sender: MPI_Cancel ------------------------------------------------------------------- */

/* A send to oneself: its unexpected entry is in our own queue. */
static void cancel_self_send(struct core_request *request)
{
    struct p2p_match_queues *q = p2p_queues(request->context);
    struct p2p_unexpected *u = q->unexpected_head;
    if (!request->complete) { /* synchronous or large: parked as SELF until matched */
        while (u && !(u->kind == P2P_UNEXPECTED_SELF && u->self_send == request))
            u = u->next;
    } else { /* copied: an EAGER entry with our number */
        while (u && !(u->kind == P2P_UNEXPECTED_EAGER && u->world_src == p2p.me &&
                      u->seq == request->p2p.seq))
            u = u->next;
    }
    if (!u)
        return; /* received already (or taken by MPI_Mprobe): not cancelled */
    p2p_unexpected_remove(q, u);
    p2p_unexpected_release(u);
    mark_cancelled(request);
    if (!request->complete)
        finish_send(request);
}

static void cancel_send(struct core_request *request)
{
    if (request->cancelled || request->p2p.cancel || request->peer == MPI_PROC_NULL)
        return; /* cancelled or being cancelled already, or nothing was sent */
    /* (the internal send, standard mode, links back to the user's request) */
    struct core_request *internal =
        request->mode == CORE_SEND_BUFFERED ? request->p2p.linked : NULL;
    if (internal) { /* a buffered send's user request: it completes with the internal send
                     * (finish_send), perhaps right away when that is withdrawn from its queue */
        request->p2p.cancel = P2P_CANCEL_LINKED;
        request->complete = 0;
        cancel_send(internal);
        return;
    }
    int world_peer = request->p2p.world_peer;
    if (world_peer == p2p.me) {
        cancel_self_send(request);
        return;
    }
    if (p2p_withdraw_outgoing(world_peer, request)) {
        mark_cancelled(request);
        if (!request->complete)
            finish_send(request);
        return;
    }
    /* Published: ask the receiver. An eager send that completed is open again until the
     * answer, which tells whether its message was withdrawn. */
    request->p2p.cancel = request->complete ? P2P_CANCEL_ASKED_DONE : P2P_CANCEL_ASKED;
    request->complete = 0;
    struct p2p_cookies cookies = {(uint64_t)(uintptr_t)request,
                                  (uint64_t)request->context << 32 | request->p2p.seq};
    p2p_queue_control(world_peer, P2P_RECORD_CANCEL, &cookies);
    p2p.cancels_pending++; /* MPI_Finalize waits for the answer (p2p_flush) */
}

int p2p_cancel(struct core_request *request)
{
    if (request->kind == CORE_REQUEST_SEND) {
        cancel_send(request);
        return MPI_SUCCESS;
    }
    if (request->kind != CORE_REQUEST_RECV || request->complete)
        return MPI_SUCCESS;
    if (!p2p_unpost(p2p_queues(request->context), request))
        return MPI_SUCCESS; /* already matched: the receive completes normally */
    request->cancelled = 1;
    core_status_set_empty(&request->status);
    core_status_set_cancelled(&request->status, 1);
    request->complete = 1;
    return MPI_SUCCESS;
}
