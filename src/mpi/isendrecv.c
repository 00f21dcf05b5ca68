/* isendrecv.c - API: MPI-4.0 nonblocking send-receive (MPI_Isendrecv, MPI_Isendrecv_replace
 * and their large-count forms). One generic request owns an inner receive and an inner send
 * started by src/p2p; its poll callback completes it when both are done, with the receive's
 * status. The replace form sends from a packed copy, so the receive may land in the same buffer
 * while the send is still in flight. */
#include <stdlib.h>

#include "core/progress.h"
#include "mpi/api.h"
#include "p2p/p2p.h"

struct sendrecv_state {
    struct core_request *send;
    struct core_request *recv;
    void *copy; /* replace form: the packed outgoing message */
};

/* Both halves done: take the receive's status and the first error of the two. */
static int poll_sendrecv(struct core_request *request)
{
    struct sendrecv_state *s = request->state;
    if (!s->send->complete || !s->recv->complete)
        return MPI_SUCCESS;
    MPI_Status status;
    int send_rc = core_request_wait(s->send, NULL);
    int recv_rc = core_request_wait(s->recv, &status);
    s->send = s->recv = NULL;
    request->status = status;
    request->status.MPI_ERROR = recv_rc != MPI_SUCCESS ? recv_rc : send_rc;
    request->complete = 1;
    return MPI_SUCCESS;
}

/* Freed before completion (MPI_Request_free then finalize) or after: release what is left. */
static void release_sendrecv(struct core_request *request)
{
    struct sendrecv_state *s = request->state;
    if (!s)
        return;
    if (s->send)
        core_request_wait(s->send, NULL);
    if (s->recv)
        core_request_wait(s->recv, NULL);
    free(s->copy);
    free(s);
    request->state = NULL;
}

struct side {
    struct core_comm *comm;
    struct dt_type *type;
};

static int check_side(MPI_Comm comm, const void *buf, MPI_Count count, MPI_Datatype datatype,
                      int rank, int tag, int is_send, struct side *side, const char *function)
{
    int rc;
    if ((rc = mpi_check_initialized(function)) ||
        (rc = mpi_get_comm(comm, &side->comm, function)) ||
        (rc = mpi_check_count(side->comm, count, function)) ||
        (rc = mpi_get_type(side->comm, datatype, &side->type, function)) ||
        (rc = mpi_check_buffer(side->comm, buf, count, side->type, function)))
        return rc;
    if (is_send)
        rc = mpi_check_dest(side->comm, rank, function);
    else
        rc = mpi_check_source(side->comm, rank, function);
    if (rc == MPI_SUCCESS)
        rc = is_send ? mpi_check_send_tag(side->comm, tag, function)
                     : mpi_check_recv_tag(side->comm, tag, function);
    return rc;
}

/* Start both halves under one generic request. `copy` (may be NULL) is owned from here on. */
static int start_pair(struct core_comm *comm, const void *sendbuf, MPI_Count sendcount,
                      struct dt_type *sendtype, int dest, int sendtag, void *recvbuf,
                      MPI_Count recvcount, struct dt_type *recvtype, int source, int recvtag,
                      void *copy, MPI_Request *request, const char *function)
{
    struct sendrecv_state *s = calloc(1, sizeof(*s));
    struct core_request *r = s ? core_request_alloc(CORE_REQUEST_GENERIC) : NULL;
    if (!r) {
        free(s);
        free(copy);
        return core_error_raise(comm, MPI_ERR_NO_MEM, function, "cannot allocate a request");
    }
    s->copy = copy;
    r->state = s;
    r->poll = poll_sendrecv;
    r->free_state = release_sendrecv;
    r->comm = comm;
    core_comm_retain(comm);
    int rc = p2p_irecv(comm, comm->context, source, recvtag, recvbuf, recvcount, recvtype,
                       &s->recv);
    if (rc == MPI_SUCCESS) {
        rc = p2p_isend(comm, comm->context, dest, sendtag, sendbuf, sendcount, sendtype,
                       CORE_SEND_STANDARD, &s->send);
        if (rc != MPI_SUCCESS) {
            p2p_cancel(s->recv); /* nothing was sent: the receive must not wait forever */
            core_request_wait(s->recv, NULL);
            s->recv = NULL;
        }
    }
    if (rc != MPI_SUCCESS) {
        s->recv = NULL;
        core_request_free(r);
        return core_error_raise(comm, rc, function, "%s", core_error_string(rc));
    }
    rc = core_request_start_generic(r);
    *request = core_request_to_handle(r);
    return rc;
}

static int isendrecv(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, int dest,
                     int sendtag, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                     int source, int recvtag, MPI_Comm comm, MPI_Request *request,
                     const char *function)
{
    struct side s, r;
    int rc;
    if ((rc = check_side(comm, sendbuf, sendcount, sendtype, dest, sendtag, 1, &s, function)) ||
        (rc = check_side(comm, recvbuf, recvcount, recvtype, source, recvtag, 0, &r, function)))
        return rc;
    if (!request)
        return core_error_raise(s.comm, MPI_ERR_REQUEST, function, "NULL request pointer");
    return start_pair(s.comm, sendbuf, sendcount, s.type, dest, sendtag, recvbuf, recvcount,
                      r.type, source, recvtag, NULL, request, function);
}

static int isendrecv_replace(void *buf, MPI_Count count, MPI_Datatype datatype, int dest,
                             int sendtag, int source, int recvtag, MPI_Comm comm,
                             MPI_Request *request, const char *function)
{
    struct side s, r;
    int rc;
    if ((rc = check_side(comm, buf, count, datatype, dest, sendtag, 1, &s, function)) ||
        (rc = check_side(comm, buf, count, datatype, source, recvtag, 0, &r, function)))
        return rc;
    if (!request)
        return core_error_raise(s.comm, MPI_ERR_REQUEST, function, "NULL request pointer");
    size_t bytes = dt_packed_size(s.type, count);
    void *copy = malloc(bytes ? bytes : 1);
    if (!copy)
        return core_error_raise(s.comm, MPI_ERR_NO_MEM, function, "cannot allocate %zu bytes",
                                bytes);
    dt_pack_range(s.type, buf, count, 0, copy, bytes);
    return start_pair(s.comm, copy, (MPI_Count)bytes, dt_from_handle(MPI_BYTE), dest, sendtag,
                      buf, count, r.type, source, recvtag, copy, request, function);
}

int PMPI_Isendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest,
                   int sendtag, void *recvbuf, int recvcount, MPI_Datatype recvtype, int source,
                   int recvtag, MPI_Comm comm, MPI_Request *request)
{
    return isendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype,
                     source, recvtag, comm, request, "MPI_Isendrecv");
}
#pragma weak MPI_Isendrecv = PMPI_Isendrecv

int PMPI_Isendrecv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, int dest,
                     int sendtag, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                     int source, int recvtag, MPI_Comm comm, MPI_Request *request)
{
    return isendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype,
                     source, recvtag, comm, request, "MPI_Isendrecv_c");
}
#pragma weak MPI_Isendrecv_c = PMPI_Isendrecv_c

int PMPI_Isendrecv_replace(void *buf, int count, MPI_Datatype datatype, int dest, int sendtag,
                           int source, int recvtag, MPI_Comm comm, MPI_Request *request)
{
    return isendrecv_replace(buf, count, datatype, dest, sendtag, source, recvtag, comm,
                             request, "MPI_Isendrecv_replace");
}
#pragma weak MPI_Isendrecv_replace = PMPI_Isendrecv_replace

int PMPI_Isendrecv_replace_c(void *buf, MPI_Count count, MPI_Datatype datatype, int dest,
                             int sendtag, int source, int recvtag, MPI_Comm comm,
                             MPI_Request *request)
{
    return isendrecv_replace(buf, count, datatype, dest, sendtag, source, recvtag, comm,
                             request, "MPI_Isendrecv_replace_c");
}
#pragma weak MPI_Isendrecv_replace_c = PMPI_Isendrecv_replace_c
