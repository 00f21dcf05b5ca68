/* probe.c - looking at unexpected messages without receiving them (Probe, Iprobe), taking one
 * out of matching (Mprobe/Improbe) and receiving it later (Mrecv/Imrecv), and restarting
 * persistent requests (cancel.c cancels). */
#include <stdlib.h>

#include "core/comm.h"
#include "core/progress.h"
#include "datatype/datatype.h"
#include "p2p/internal.h"
#include "p2p/p2p.h"

int p2p_send_start(struct core_request *request);
int p2p_recv_start(struct core_request *request);

static void fill_status(MPI_Status *status, const struct p2p_unexpected *u)
{
    if (!status)
        return;
    status->MPI_SOURCE = u->src;
    status->MPI_TAG = u->tag;
    core_status_set_count(status, (MPI_Count)u->size);
    core_status_set_cancelled(status, 0);
}

int p2p_iprobe(struct core_comm *comm, uint32_t context, int source, int tag, int *flag,
               MPI_Status *status, void **message)
{
    if (source == MPI_PROC_NULL) {
        *flag = 1;
        if (status) {
            core_status_set_empty(status);
            status->MPI_SOURCE = MPI_PROC_NULL;
        }
        if (message)
            *message = NULL;
        return MPI_SUCCESS;
    }
    p2p_queue_note_probe(comm, source); /* cor: look where the message may be */
    core_progress_poll();
    struct p2p_match_queues *q = p2p_queues(context);
    struct p2p_unexpected *u = p2p_match_unexpected(q, source, tag);
    *flag = u != NULL;
    if (!u)
        return MPI_SUCCESS;
    fill_status(status, u);
    if (message) {
        p2p_unexpected_remove(q, u);
        *message = u;
    }
    return MPI_SUCCESS;
}

int p2p_imrecv(void *message, void *buf, MPI_Count count, struct dt_type *type,
               struct core_comm *comm, struct core_request **out)
{
    struct core_request *request = core_request_alloc(CORE_REQUEST_RECV);
    if (!request)
        return MPI_ERR_NO_MEM;
    request->buf = buf;
    request->count = count;
    request->type = type;
    dt_retain(type);
    request->comm = comm;
    core_comm_retain(comm);
    *out = request;
    if (!message) { /* MPI_MESSAGE_NO_PROC */
        request->peer = MPI_PROC_NULL;
        p2p_complete_recv(request, MPI_PROC_NULL, MPI_ANY_TAG, 0, 0);
        return MPI_SUCCESS;
    }
    struct p2p_unexpected *u = message;
    request->peer = u->src;
    request->tag = u->tag;
    request->context = u->context;
    p2p_recv_matched_unexpected(request, u);
    return MPI_SUCCESS;
}

int p2p_start(struct core_request *request)
{
    request->active = 1;
    if (request->kind == CORE_REQUEST_SEND)
        return p2p_send_start(request);
    return p2p_recv_start(request);
}
