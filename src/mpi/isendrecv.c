/* isendrecv.c - API: send-receive, blocking (MPI_Sendrecv, MPI_Sendrecv_replace) and MPI-4.0
 * nonblocking (MPI_Isendrecv, MPI_Isendrecv_replace), with their large-count forms. Both start
 * an inner receive and an inner send in src/p2p (start_halves); the blocking forms wait on the
 * two, the nonblocking ones put them under one generic request whose poll callback completes
 * it when both are done, with the receive's status. The replace forms send from a packed copy,
 * so the receive may land in the same buffer while the send is still in flight. */
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

/* Start the receive, then the send. When the send cannot start, the receive is cancelled
 * (nothing will come for it) and released: both are NULL on failure. */
static int start_halves(struct core_comm *comm, const void *sendbuf, MPI_Count sendcount,
                        struct dt_type *sendtype, int dest, int sendtag, void *recvbuf,
                        MPI_Count recvcount, struct dt_type *recvtype, int source, int recvtag,
                        struct core_request **send, struct core_request **recv)
{
    *send = *recv = NULL;
    int rc = p2p_irecv(comm, comm->context, source, recvtag, recvbuf, recvcount, recvtype, recv);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = p2p_isend(comm, comm->context, dest, sendtag, sendbuf, sendcount, sendtype,
                   CORE_SEND_STANDARD, send);
    if (rc != MPI_SUCCESS) {
        p2p_cancel(*recv);
        core_request_wait(*recv, NULL);
        *recv = NULL;
    }
    return rc;
}

/* The replace forms' outgoing message: buf packed into a private copy (caller frees). */
static int pack_copy(const struct side *s, const void *buf, MPI_Count count, void **copy,
                     size_t *bytes, const char *function)
{
    *bytes = dt_packed_size(s->type, count);
    *copy = malloc(*bytes ? *bytes : 1);
    if (!*copy)
        return core_error_raise(s->comm, MPI_ERR_NO_MEM, function, "cannot allocate %zu bytes",
                                *bytes);
    dt_pack_range(s->type, buf, count, 0, *copy, *bytes);
    return MPI_SUCCESS;
}

/* Blocking forms: wait on both halves; the receive's status, the first error of the two. */
static int wait_halves(struct core_comm *comm, int rc, struct core_request *send,
                       struct core_request *recv, MPI_Status *status, const char *function)
{
    if (rc == MPI_SUCCESS) {
        int send_rc = core_request_wait(send, NULL);
        rc = core_request_wait(recv, status);
        if (rc == MPI_SUCCESS)
            rc = send_rc;
    }
    if (rc == MPI_SUCCESS)
        return rc;
    return core_error_raise(comm, rc, function, "%s", core_error_string(rc));
}

/* Nonblocking forms: both halves under one generic request. `copy` (may be NULL) is owned
 * from here on. */
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
    int rc = start_halves(comm, sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount,
                          recvtype, source, recvtag, &s->send, &s->recv);
    if (rc != MPI_SUCCESS) {
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
    void *copy;
    size_t bytes;
    if ((rc = pack_copy(&s, buf, count, &copy, &bytes, function)) != MPI_SUCCESS)
        return rc;
    return start_pair(s.comm, copy, (MPI_Count)bytes, dt_from_handle(MPI_BYTE), dest, sendtag,
                      buf, count, r.type, source, recvtag, copy, request, function);
}

static int sendrecv(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, int dest,
                    int sendtag, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                    int source, int recvtag, MPI_Comm comm, MPI_Status *status,
                    const char *function)
{
    struct side s, r;
    int rc;
    if ((rc = check_side(comm, sendbuf, sendcount, sendtype, dest, sendtag, 1, &s, function)) ||
        (rc = check_side(comm, recvbuf, recvcount, recvtype, source, recvtag, 0, &r, function)))
        return rc;
    /* A small message goes out at once and needs no request; the receive is then an
     * MPI_Recv, completed in place when nothing else is queued (halo exchanges: issue 5). */
    if (p2p_send_eager_now(s.comm, s.comm->context, dest, sendtag, sendbuf, sendcount, s.type)) {
        rc = p2p_recv(r.comm, r.comm->context, source, recvtag, recvbuf, recvcount, r.type,
                      status);
        return mpi_recv_outcome(r.comm, rc, r.type, recvcount, function);
    }
    struct core_request *send, *recv;
    rc = start_halves(s.comm, sendbuf, sendcount, s.type, dest, sendtag, recvbuf, recvcount,
                      r.type, source, recvtag, &send, &recv);
    return wait_halves(s.comm, rc, send, recv, status, function);
}

static int sendrecv_replace(void *buf, MPI_Count count, MPI_Datatype datatype, int dest,
                            int sendtag, int source, int recvtag, MPI_Comm comm,
                            MPI_Status *status, const char *function)
{
    struct side s, r;
    int rc;
    if ((rc = check_side(comm, buf, count, datatype, dest, sendtag, 1, &s, function)) ||
        (rc = check_side(comm, buf, count, datatype, source, recvtag, 0, &r, function)))
        return rc;
    void *copy;
    size_t bytes;
    if ((rc = pack_copy(&s, buf, count, &copy, &bytes, function)) != MPI_SUCCESS)
        return rc;
    struct core_request *send, *recv;
    rc = start_halves(s.comm, copy, (MPI_Count)bytes, dt_from_handle(MPI_BYTE), dest, sendtag,
                      buf, count, r.type, source, recvtag, &send, &recv);
    rc = wait_halves(s.comm, rc, send, recv, status, function);
    free(copy);
    return rc;
}

int PMPI_Sendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest,
                  int sendtag, void *recvbuf, int recvcount, MPI_Datatype recvtype, int source,
                  int recvtag, MPI_Comm comm, MPI_Status *status)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return sendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype,
                    source, recvtag, comm, status, "MPI_Sendrecv");
}
#pragma weak MPI_Sendrecv = PMPI_Sendrecv

int PMPI_Sendrecv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, int dest,
                    int sendtag, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                    int source, int recvtag, MPI_Comm comm, MPI_Status *status)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return sendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype,
                    source, recvtag, comm, status, "MPI_Sendrecv_c");
}
#pragma weak MPI_Sendrecv_c = PMPI_Sendrecv_c

int PMPI_Sendrecv_replace(void *buf, int count, MPI_Datatype datatype, int dest, int sendtag,
                          int source, int recvtag, MPI_Comm comm, MPI_Status *status)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return sendrecv_replace(buf, count, datatype, dest, sendtag, source, recvtag, comm, status,
                            "MPI_Sendrecv_replace");
}
#pragma weak MPI_Sendrecv_replace = PMPI_Sendrecv_replace

int PMPI_Sendrecv_replace_c(void *buf, MPI_Count count, MPI_Datatype datatype, int dest,
                            int sendtag, int source, int recvtag, MPI_Comm comm,
                            MPI_Status *status)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return sendrecv_replace(buf, count, datatype, dest, sendtag, source, recvtag, comm, status,
                            "MPI_Sendrecv_replace_c");
}
#pragma weak MPI_Sendrecv_replace_c = PMPI_Sendrecv_replace_c

int PMPI_Isendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest,
                   int sendtag, void *recvbuf, int recvcount, MPI_Datatype recvtype, int source,
                   int recvtag, MPI_Comm comm, MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return isendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype,
                     source, recvtag, comm, request, "MPI_Isendrecv");
}
#pragma weak MPI_Isendrecv = PMPI_Isendrecv

int PMPI_Isendrecv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, int dest,
                     int sendtag, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                     int source, int recvtag, MPI_Comm comm, MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return isendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype,
                     source, recvtag, comm, request, "MPI_Isendrecv_c");
}
#pragma weak MPI_Isendrecv_c = PMPI_Isendrecv_c

int PMPI_Isendrecv_replace(void *buf, int count, MPI_Datatype datatype, int dest, int sendtag,
                           int source, int recvtag, MPI_Comm comm, MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return isendrecv_replace(buf, count, datatype, dest, sendtag, source, recvtag, comm,
                             request, "MPI_Isendrecv_replace");
}
#pragma weak MPI_Isendrecv_replace = PMPI_Isendrecv_replace

int PMPI_Isendrecv_replace_c(void *buf, MPI_Count count, MPI_Datatype datatype, int dest,
                             int sendtag, int source, int recvtag, MPI_Comm comm,
                             MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return isendrecv_replace(buf, count, datatype, dest, sendtag, source, recvtag, comm,
                             request, "MPI_Isendrecv_replace_c");
}
#pragma weak MPI_Isendrecv_replace_c = PMPI_Isendrecv_replace_c
