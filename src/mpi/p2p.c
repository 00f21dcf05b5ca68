/* p2p.c - API: point-to-point sends, receives, probes and persistent requests. Each function
 * checks its arguments (communicator, count, datatype, buffer, rank, tag, in that order) and
 * calls one function of src/p2p. */
#include <limits.h>

#include "core/progress.h"
#include "mpi/api.h"
#include "p2p/p2p.h"

struct send_args {
    struct core_comm *comm;
    struct dt_type *type;
};

static int check_send(MPI_Comm comm, const void *buf, MPI_Count count, MPI_Datatype datatype,
                      int dest, int tag, struct send_args *a, const char *function)
{
    int rc;
    if ((rc = mpi_check_initialized(function)) ||
        (rc = mpi_get_comm(comm, &a->comm, function)) ||
        (rc = mpi_check_count(a->comm, count, function)) ||
        (rc = mpi_get_type(a->comm, datatype, &a->type, function)) ||
        (rc = mpi_check_buffer(a->comm, buf, count, a->type, function)) ||
        (rc = mpi_check_dest(a->comm, dest, function)) ||
        (rc = mpi_check_send_tag(a->comm, tag, function)))
        return rc;
    return MPI_SUCCESS;
}

static int check_recv(MPI_Comm comm, const void *buf, MPI_Count count, MPI_Datatype datatype,
                      int source, int tag, struct send_args *a, const char *function)
{
    int rc;
    if ((rc = mpi_check_initialized(function)) ||
        (rc = mpi_get_comm(comm, &a->comm, function)) ||
        (rc = mpi_check_count(a->comm, count, function)) ||
        (rc = mpi_get_type(a->comm, datatype, &a->type, function)) ||
        (rc = mpi_check_buffer(a->comm, buf, count, a->type, function)) ||
        (rc = mpi_check_source(a->comm, source, function)) ||
        (rc = mpi_check_recv_tag(a->comm, tag, function)))
        return rc;
    return MPI_SUCCESS;
}

/* A failure of the layer below (e.g. MPI_ERR_TRUNCATE found at completion) goes through the
 * communicator's error handler too. */
static int raised(struct core_comm *comm, int rc, const char *function)
{
    if (rc == MPI_SUCCESS)
        return rc;
    return core_error_raise(comm, rc, function, "%s", core_error_string(rc));
}

static int blocking_send(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest,
                         int tag, MPI_Comm comm, enum core_send_mode mode, const char *function)
{
    struct send_args a;
    int rc = check_send(comm, buf, count, datatype, dest, tag, &a, function);
    if (rc != MPI_SUCCESS)
        return rc;
    if (mode == CORE_SEND_BUFFERED) {
        rc = p2p_bsend(a.comm, a.comm->context, dest, tag, buf, count, a.type, NULL);
        if (rc == MPI_ERR_BUFFER)
            return core_error_raise(a.comm, rc, function,
                                    "attached buffer too small or missing for %lld bytes "
                                    "(+ MPI_BSEND_OVERHEAD)",
                                    (long long)dt_packed_size(a.type, count));
        return raised(a.comm, rc, function);
    }
    return raised(a.comm, p2p_send(a.comm, a.comm->context, dest, tag, buf, count, a.type, mode),
                  function);
}

int PMPI_Send(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
              MPI_Comm comm)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return blocking_send(buf, count, datatype, dest, tag, comm, CORE_SEND_STANDARD, "MPI_Send");
}
#pragma weak MPI_Send = PMPI_Send

int PMPI_Send_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                MPI_Comm comm)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return blocking_send(buf, count, datatype, dest, tag, comm, CORE_SEND_STANDARD,
                         "MPI_Send_c");
}
#pragma weak MPI_Send_c = PMPI_Send_c

int PMPI_Ssend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
               MPI_Comm comm)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return blocking_send(buf, count, datatype, dest, tag, comm, CORE_SEND_SYNCHRONOUS,
                         "MPI_Ssend");
}
#pragma weak MPI_Ssend = PMPI_Ssend

int PMPI_Ssend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
               MPI_Comm comm)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return blocking_send(buf, count, datatype, dest, tag, comm, CORE_SEND_SYNCHRONOUS, "MPI_Ssend_c");
}
#pragma weak MPI_Ssend_c = PMPI_Ssend_c

int PMPI_Rsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
               MPI_Comm comm)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return blocking_send(buf, count, datatype, dest, tag, comm, CORE_SEND_READY, "MPI_Rsend");
}
#pragma weak MPI_Rsend = PMPI_Rsend

int PMPI_Rsend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
               MPI_Comm comm)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return blocking_send(buf, count, datatype, dest, tag, comm, CORE_SEND_READY, "MPI_Rsend_c");
}
#pragma weak MPI_Rsend_c = PMPI_Rsend_c

int PMPI_Bsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
               MPI_Comm comm)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return blocking_send(buf, count, datatype, dest, tag, comm, CORE_SEND_BUFFERED, "MPI_Bsend");
}
#pragma weak MPI_Bsend = PMPI_Bsend

int PMPI_Bsend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
               MPI_Comm comm)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return blocking_send(buf, count, datatype, dest, tag, comm, CORE_SEND_BUFFERED, "MPI_Bsend_c");
}
#pragma weak MPI_Bsend_c = PMPI_Bsend_c

/* A request that is already complete (buffered sends, after the copy). */
static int completed_request(struct core_comm *comm, struct core_request **out)
{
    struct core_request *r = core_request_alloc(CORE_REQUEST_SEND);
    if (!r)
        return MPI_ERR_NO_MEM;
    r->comm = comm;
    core_comm_retain(comm);
    r->complete = 1;
    *out = r;
    return MPI_SUCCESS;
}

static int nonblocking_send(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest,
                            int tag, MPI_Comm comm, enum core_send_mode mode,
                            MPI_Request *request, const char *function)
{
    struct send_args a;
    int rc = check_send(comm, buf, count, datatype, dest, tag, &a, function);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!request)
        return core_error_raise(a.comm, MPI_ERR_ARG, function, "NULL request pointer");
    if (mode == CORE_SEND_BUFFERED) {
        struct core_request *r;
        if ((rc = completed_request(a.comm, &r)) == MPI_SUCCESS &&
            (rc = p2p_bsend(a.comm, a.comm->context, dest, tag, buf, count, a.type, r)) !=
                MPI_SUCCESS)
            core_request_free(r);
        if (rc == MPI_SUCCESS)
            *request = core_request_to_handle(r);
        return raised(a.comm, rc, function);
    }
    struct core_request *r;
    rc = p2p_isend(a.comm, a.comm->context, dest, tag, buf, count, a.type, mode, &r);
    if (rc != MPI_SUCCESS)
        return raised(a.comm, rc, function);
    *request = core_request_to_handle(r);
    return MPI_SUCCESS;
}

int PMPI_Isend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
               MPI_Comm comm, MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return nonblocking_send(buf, count, datatype, dest, tag, comm, CORE_SEND_STANDARD, request,
                            "MPI_Isend");
}
#pragma weak MPI_Isend = PMPI_Isend

int PMPI_Isend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                 MPI_Comm comm, MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return nonblocking_send(buf, count, datatype, dest, tag, comm, CORE_SEND_STANDARD, request,
                            "MPI_Isend_c");
}
#pragma weak MPI_Isend_c = PMPI_Isend_c

int PMPI_Issend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                MPI_Comm comm, MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return nonblocking_send(buf, count, datatype, dest, tag, comm, CORE_SEND_SYNCHRONOUS,
                            request, "MPI_Issend");
}
#pragma weak MPI_Issend = PMPI_Issend

int PMPI_Issend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                MPI_Comm comm, MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return nonblocking_send(buf, count, datatype, dest, tag, comm, CORE_SEND_SYNCHRONOUS, request,
                            "MPI_Issend_c");
}
#pragma weak MPI_Issend_c = PMPI_Issend_c

int PMPI_Irsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                MPI_Comm comm, MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return nonblocking_send(buf, count, datatype, dest, tag, comm, CORE_SEND_READY, request,
                            "MPI_Irsend");
}
#pragma weak MPI_Irsend = PMPI_Irsend

int PMPI_Irsend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                MPI_Comm comm, MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return nonblocking_send(buf, count, datatype, dest, tag, comm, CORE_SEND_READY, request,
                            "MPI_Irsend_c");
}
#pragma weak MPI_Irsend_c = PMPI_Irsend_c

int PMPI_Ibsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                MPI_Comm comm, MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return nonblocking_send(buf, count, datatype, dest, tag, comm, CORE_SEND_BUFFERED, request,
                            "MPI_Ibsend");
}
#pragma weak MPI_Ibsend = PMPI_Ibsend

int PMPI_Ibsend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                MPI_Comm comm, MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return nonblocking_send(buf, count, datatype, dest, tag, comm, CORE_SEND_BUFFERED, request,
                            "MPI_Ibsend_c");
}
#pragma weak MPI_Ibsend_c = PMPI_Ibsend_c

static int blocking_recv(void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag,
                         MPI_Comm comm, MPI_Status *status, const char *function)
{
    struct send_args a;
    int rc = check_recv(comm, buf, count, datatype, source, tag, &a, function);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = p2p_recv(a.comm, a.comm->context, source, tag, buf, count, a.type, status);
    return mpi_recv_outcome(a.comm, rc, a.type, count, function);
}

int PMPI_Recv(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
              MPI_Status *status)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return blocking_recv(buf, count, datatype, source, tag, comm, status, "MPI_Recv");
}
#pragma weak MPI_Recv = PMPI_Recv

int PMPI_Recv_c(void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag,
                MPI_Comm comm, MPI_Status *status)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return blocking_recv(buf, count, datatype, source, tag, comm, status, "MPI_Recv_c");
}
#pragma weak MPI_Recv_c = PMPI_Recv_c

static int nonblocking_recv(void *buf, MPI_Count count, MPI_Datatype datatype, int source,
                            int tag, MPI_Comm comm, MPI_Request *request, const char *function)
{
    struct send_args a;
    int rc = check_recv(comm, buf, count, datatype, source, tag, &a, function);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!request)
        return core_error_raise(a.comm, MPI_ERR_ARG, function, "NULL request pointer");
    struct core_request *r;
    rc = p2p_irecv(a.comm, a.comm->context, source, tag, buf, count, a.type, &r);
    if (rc != MPI_SUCCESS)
        return raised(a.comm, rc, function);
    *request = core_request_to_handle(r);
    return MPI_SUCCESS;
}

int PMPI_Irecv(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
               MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return nonblocking_recv(buf, count, datatype, source, tag, comm, request, "MPI_Irecv");
}
#pragma weak MPI_Irecv = PMPI_Irecv

int PMPI_Irecv_c(void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag,
                 MPI_Comm comm, MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return nonblocking_recv(buf, count, datatype, source, tag, comm, request, "MPI_Irecv_c");
}
#pragma weak MPI_Irecv_c = PMPI_Irecv_c

/* ---- buffers for buffered sends: the process's and (MPI-4.1) a communicator's ------------- */

/* The buffer and size of an attach call; MPI_BUFFER_AUTOMATIC (MPI-4.1): the library
 * allocates, the size is ignored (made 0). */
static int check_attach(struct core_comm *comm, void *buffer, MPI_Count *size,
                        const char *function)
{
    if (buffer == MPI_BUFFER_AUTOMATIC) {
        *size = 0;
        return MPI_SUCCESS;
    }
    if (*size < 0 || (!buffer && *size > 0))
        return core_error_raise(comm, *size < 0 ? MPI_ERR_COUNT : MPI_ERR_BUFFER, function,
                                "invalid buffer %p of size %lld", buffer, (long long)*size);
    return MPI_SUCCESS;
}

static int check_detach(struct core_comm *comm, void *buffer_addr, MPI_Count *size,
                        const char *function)
{
    if (buffer_addr && size)
        return MPI_SUCCESS;
    return core_error_raise(comm, MPI_ERR_ARG, function, "NULL %s",
                            buffer_addr ? "size" : "buffer_addr");
}

static int already_attached(struct core_comm *comm, const char *function)
{
    return core_error_raise(comm, MPI_ERR_BUFFER, function,
                            "a buffer is already attached (detach it first)");
}

static int buffer_attach(void *buffer, MPI_Count size, const char *function)
{
    int rc = mpi_check_initialized(function);
    if (rc == MPI_SUCCESS)
        rc = check_attach(NULL, buffer, &size, function);
    if (rc != MPI_SUCCESS)
        return rc;
    if (p2p_bsend_attach(buffer, (size_t)size) != MPI_SUCCESS)
        return already_attached(NULL, function);
    return MPI_SUCCESS;
}

int PMPI_Buffer_attach(void *buffer, int size)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return buffer_attach(buffer, size, "MPI_Buffer_attach");
}
#pragma weak MPI_Buffer_attach = PMPI_Buffer_attach

int PMPI_Buffer_attach_c(void *buffer, MPI_Count size)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return buffer_attach(buffer, size, "MPI_Buffer_attach_c");
}
#pragma weak MPI_Buffer_attach_c = PMPI_Buffer_attach_c

static int buffer_detach(void *buffer_addr, MPI_Count *size, const char *function)
{
    int rc = mpi_check_initialized(function);
    if (rc == MPI_SUCCESS)
        rc = check_detach(NULL, buffer_addr, size, function);
    if (rc != MPI_SUCCESS)
        return rc;
    void *buffer;
    size_t bytes;
    p2p_bsend_detach(&buffer, &bytes);
    *(void **)buffer_addr = buffer;
    *size = (MPI_Count)bytes;
    return MPI_SUCCESS;
}

int PMPI_Buffer_detach(void *buffer_addr, int *size)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    MPI_Count bytes = 0;
    int rc = buffer_detach(buffer_addr, size ? &bytes : NULL, "MPI_Buffer_detach");
    if (rc == MPI_SUCCESS)
        *size = bytes > INT_MAX ? INT_MAX : (int)bytes; /* attached by MPI_Buffer_attach_c */
    return rc;
}
#pragma weak MPI_Buffer_detach = PMPI_Buffer_detach

int PMPI_Buffer_detach_c(void *buffer_addr, MPI_Count *size)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return buffer_detach(buffer_addr, size, "MPI_Buffer_detach_c");
}
#pragma weak MPI_Buffer_detach_c = PMPI_Buffer_detach_c

/* MPI-4.1: push out every message buffered so far, keeping the buffer attached. */
int PMPI_Buffer_flush(void)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    int rc = mpi_check_initialized("MPI_Buffer_flush");
    if (rc == MPI_SUCCESS)
        p2p_bsend_flush();
    return rc;
}
#pragma weak MPI_Buffer_flush = PMPI_Buffer_flush

static int poll_buffer_flushed(struct core_request *request)
{
    if (p2p_bsend_flushed())
        request->complete = 1;
    return MPI_SUCCESS;
}

/* A request of MPI_Buffer_iflush / MPI_Comm_iflush_buffer (comm NULL: the process buffer's),
 * complete once `poll` finds the buffer empty. */
static int start_flush(struct core_comm *comm, int (*poll)(struct core_request *),
                       MPI_Request *request, const char *function)
{
    struct core_request *r = core_request_alloc(CORE_REQUEST_GENERIC);
    if (!r)
        return core_error_raise(comm, MPI_ERR_NO_MEM, function, "cannot allocate a request");
    r->comm = comm;
    if (comm)
        core_comm_retain(comm);
    r->poll = poll;
    int rc = core_request_start_generic(r);
    *request = core_request_to_handle(r);
    return raised(comm, rc, function);
}

/* The nonblocking form completes once nothing is buffered (messages buffered after the call
 * are waited for too: the buffer keeps no order between them). */
int PMPI_Buffer_iflush(MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    const char *fn = "MPI_Buffer_iflush";
    int rc = mpi_check_initialized(fn);
    if (rc == MPI_SUCCESS && !request)
        rc = core_error_raise(NULL, MPI_ERR_REQUEST, fn, "NULL request pointer");
    if (rc != MPI_SUCCESS)
        return rc;
    return start_flush(NULL, poll_buffer_flushed, request, fn);
}
#pragma weak MPI_Buffer_iflush = PMPI_Buffer_iflush

/* MPI-4.1 communicator buffers: buffered sends on comm use it instead of the process's. */
static int comm_attach_buffer(MPI_Comm comm, void *buffer, MPI_Count size, const char *function)
{
    struct core_comm *c;
    int rc = mpi_check_initialized(function);
    if (rc == MPI_SUCCESS)
        rc = mpi_get_comm(comm, &c, function);
    if (rc == MPI_SUCCESS)
        rc = check_attach(c, buffer, &size, function);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = p2p_bsend_comm_attach(c, buffer, (size_t)size);
    return rc == MPI_ERR_BUFFER ? already_attached(c, function) : raised(c, rc, function);
}

int PMPI_Comm_attach_buffer(MPI_Comm comm, void *buffer, int size)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return comm_attach_buffer(comm, buffer, size, "MPI_Comm_attach_buffer");
}
#pragma weak MPI_Comm_attach_buffer = PMPI_Comm_attach_buffer

int PMPI_Comm_attach_buffer_c(MPI_Comm comm, void *buffer, MPI_Count size)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return comm_attach_buffer(comm, buffer, size, "MPI_Comm_attach_buffer_c");
}
#pragma weak MPI_Comm_attach_buffer_c = PMPI_Comm_attach_buffer_c

static int comm_detach_buffer(MPI_Comm comm, void *buffer_addr, MPI_Count *size,
                              const char *function)
{
    struct core_comm *c;
    int rc = mpi_check_initialized(function);
    if (rc == MPI_SUCCESS)
        rc = mpi_get_comm(comm, &c, function);
    if (rc == MPI_SUCCESS)
        rc = check_detach(c, buffer_addr, size, function);
    if (rc != MPI_SUCCESS)
        return rc;
    void *buffer;
    size_t bytes;
    rc = p2p_bsend_comm_detach(c, &buffer, &bytes);
    *(void **)buffer_addr = buffer;
    *size = (MPI_Count)bytes;
    return raised(c, rc, function);
}

int PMPI_Comm_detach_buffer(MPI_Comm comm, void *buffer_addr, int *size)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    MPI_Count bytes = 0;
    int rc = comm_detach_buffer(comm, buffer_addr, size ? &bytes : NULL,
                                "MPI_Comm_detach_buffer");
    if (rc == MPI_SUCCESS)
        *size = bytes > INT_MAX ? INT_MAX : (int)bytes; /* attached by the _c form */
    return rc;
}
#pragma weak MPI_Comm_detach_buffer = PMPI_Comm_detach_buffer

int PMPI_Comm_detach_buffer_c(MPI_Comm comm, void *buffer_addr, MPI_Count *size)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return comm_detach_buffer(comm, buffer_addr, size, "MPI_Comm_detach_buffer_c");
}
#pragma weak MPI_Comm_detach_buffer_c = PMPI_Comm_detach_buffer_c

int PMPI_Comm_flush_buffer(MPI_Comm comm)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    struct core_comm *c;
    int rc = mpi_check_initialized("MPI_Comm_flush_buffer");
    if (rc == MPI_SUCCESS)
        rc = mpi_get_comm(comm, &c, "MPI_Comm_flush_buffer");
    if (rc == MPI_SUCCESS)
        p2p_bsend_comm_flush(c);
    return rc;
}
#pragma weak MPI_Comm_flush_buffer = PMPI_Comm_flush_buffer

static int poll_comm_buffer_flushed(struct core_request *request)
{
    if (p2p_bsend_comm_flushed(request->comm))
        request->complete = 1;
    return MPI_SUCCESS;
}

int PMPI_Comm_iflush_buffer(MPI_Comm comm, MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    const char *fn = "MPI_Comm_iflush_buffer";
    struct core_comm *c;
    int rc = mpi_check_initialized(fn);
    if (rc == MPI_SUCCESS)
        rc = mpi_get_comm(comm, &c, fn);
    if (rc == MPI_SUCCESS && !request)
        rc = core_error_raise(c, MPI_ERR_REQUEST, fn, "NULL request pointer");
    if (rc != MPI_SUCCESS)
        return rc;
    return start_flush(c, poll_comm_buffer_flushed, request, fn);
}
#pragma weak MPI_Comm_iflush_buffer = PMPI_Comm_iflush_buffer

/* ---- probes and matched receives ---------------------------------------------------------- */

static int probe_common(int source, int tag, MPI_Comm comm, int blocking, int *flag,
                        MPI_Message *message, MPI_Status *status, const char *function)
{
    struct core_comm *c;
    int rc;
    if ((rc = mpi_check_initialized(function)) || (rc = mpi_get_comm(comm, &c, function)) ||
        (rc = mpi_check_source(c, source, function)) ||
        (rc = mpi_check_recv_tag(c, tag, function)))
        return rc;
    void *taken = NULL;
    int found = 0;
    unsigned idle = 0;
    /* Single-completion calls leave status.MPI_ERROR alone (MPI 4.1 3.2.5); p2p_iprobe fills
     * a whole empty status for MPI_PROC_NULL. */
    int user_error = status ? status->MPI_ERROR : MPI_SUCCESS;
    for (;;) {
        p2p_iprobe(c, c->context, source, tag, &found, status, message ? &taken : NULL);
        if (found || !blocking)
            break;
        core_progress_idle(++idle);
    }
    if (status)
        status->MPI_ERROR = user_error;
    if (flag)
        *flag = found;
    if (message && found)
        *message = source == MPI_PROC_NULL ? MPI_MESSAGE_NO_PROC : (MPI_Message)taken;
    else if (message)
        *message = MPI_MESSAGE_NULL;
    return MPI_SUCCESS;
}

int PMPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status *status)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return probe_common(source, tag, comm, 1, NULL, NULL, status, "MPI_Probe");
}
#pragma weak MPI_Probe = PMPI_Probe

int PMPI_Iprobe(int source, int tag, MPI_Comm comm, int *flag, MPI_Status *status)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return probe_common(source, tag, comm, 0, flag, NULL, status, "MPI_Iprobe");
}
#pragma weak MPI_Iprobe = PMPI_Iprobe

int PMPI_Mprobe(int source, int tag, MPI_Comm comm, MPI_Message *message, MPI_Status *status)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return probe_common(source, tag, comm, 1, NULL, message, status, "MPI_Mprobe");
}
#pragma weak MPI_Mprobe = PMPI_Mprobe

int PMPI_Improbe(int source, int tag, MPI_Comm comm, int *flag, MPI_Message *message,
                 MPI_Status *status)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return probe_common(source, tag, comm, 0, flag, message, status, "MPI_Improbe");
}
#pragma weak MPI_Improbe = PMPI_Improbe

static int matched_recv(void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Message *message,
                        struct core_request **out, const char *function)
{
    int rc;
    struct dt_type *type;
    if ((rc = mpi_check_initialized(function)))
        return rc;
    if (!message || *message == MPI_MESSAGE_NULL)
        return core_error_raise(NULL, MPI_ERR_REQUEST, function, "invalid message handle");
    struct core_comm *world = nodempi.comm_world;
    if ((rc = mpi_check_count(world, count, function)) ||
        (rc = mpi_get_type(world, datatype, &type, function)))
        return rc;
    void *taken = *message == MPI_MESSAGE_NO_PROC ? NULL : (void *)*message;
    *message = MPI_MESSAGE_NULL;
    return p2p_imrecv(taken, buf, count, type, world, out);
}

int PMPI_Mrecv(void *buf, int count, MPI_Datatype datatype, MPI_Message *message,
               MPI_Status *status)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    struct core_request *r;
    int rc = matched_recv(buf, count, datatype, message, &r, "MPI_Mrecv");
    if (rc != MPI_SUCCESS)
        return rc;
    return raised(nodempi.comm_world, core_request_wait(r, status), "MPI_Mrecv");
}
#pragma weak MPI_Mrecv = PMPI_Mrecv

int PMPI_Mrecv_c(void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Message *message,
                 MPI_Status *status)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    struct core_request *r;
    int rc = matched_recv(buf, count, datatype, message, &r, "MPI_Mrecv_c");
    if (rc != MPI_SUCCESS)
        return rc;
    return raised(nodempi.comm_world, core_request_wait(r, status), "MPI_Mrecv_c");
}
#pragma weak MPI_Mrecv_c = PMPI_Mrecv_c

int PMPI_Imrecv(void *buf, int count, MPI_Datatype datatype, MPI_Message *message,
                MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    struct core_request *r;
    int rc = matched_recv(buf, count, datatype, message, &r, "MPI_Imrecv");
    if (rc == MPI_SUCCESS)
        *request = core_request_to_handle(r);
    return rc;
}
#pragma weak MPI_Imrecv = PMPI_Imrecv

int PMPI_Imrecv_c(void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Message *message,
                  MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    struct core_request *r;
    int rc = matched_recv(buf, count, datatype, message, &r, "MPI_Imrecv_c");
    if (rc == MPI_SUCCESS)
        *request = core_request_to_handle(r);
    return rc;
}
#pragma weak MPI_Imrecv_c = PMPI_Imrecv_c

/* ---- persistent requests ------------------------------------------------------------------ */

static int persistent_init(const void *buf, MPI_Count count, MPI_Datatype datatype, int peer,
                           int tag,
                           MPI_Comm comm, enum core_request_kind kind, enum core_send_mode mode,
                           MPI_Request *request, const char *function)
{
    struct send_args a;
    int rc = kind == CORE_REQUEST_SEND
                 ? check_send(comm, buf, count, datatype, peer, tag, &a, function)
                 : check_recv(comm, buf, count, datatype, peer, tag, &a, function);
    if (rc != MPI_SUCCESS)
        return rc;
    struct core_request *r = core_request_alloc(kind);
    if (!r)
        return core_error_raise(a.comm, MPI_ERR_NO_MEM, function, "out of memory");
    r->persistent = 1;
    r->complete = 1; /* inactive persistent requests wait/test as complete and empty */
    r->buf = (void *)buf;
    r->count = count;
    r->type = a.type;
    dt_retain(a.type);
    r->peer = peer;
    r->tag = tag;
    r->context = a.comm->context;
    r->mode = mode;
    r->comm = a.comm;
    core_comm_retain(a.comm);
    core_status_set_empty(&r->status);
    *request = core_request_to_handle(r);
    return MPI_SUCCESS;
}

int PMPI_Send_init(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                   MPI_Comm comm, MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return persistent_init(buf, count, datatype, dest, tag, comm, CORE_REQUEST_SEND,
                           CORE_SEND_STANDARD, request, "MPI_Send_init");
}
#pragma weak MPI_Send_init = PMPI_Send_init

int PMPI_Send_init_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                     MPI_Comm comm, MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return persistent_init(buf, count, datatype, dest, tag, comm, CORE_REQUEST_SEND,
                           CORE_SEND_STANDARD, request, "MPI_Send_init_c");
}
#pragma weak MPI_Send_init_c = PMPI_Send_init_c

int PMPI_Bsend_init(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                    MPI_Comm comm, MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return persistent_init(buf, count, datatype, dest, tag, comm, CORE_REQUEST_SEND,
                           CORE_SEND_BUFFERED, request, "MPI_Bsend_init");
}
#pragma weak MPI_Bsend_init = PMPI_Bsend_init

int PMPI_Bsend_init_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                      MPI_Comm comm, MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return persistent_init(buf, count, datatype, dest, tag, comm, CORE_REQUEST_SEND,
                           CORE_SEND_BUFFERED, request, "MPI_Bsend_init_c");
}
#pragma weak MPI_Bsend_init_c = PMPI_Bsend_init_c

int PMPI_Ssend_init(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                    MPI_Comm comm, MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return persistent_init(buf, count, datatype, dest, tag, comm, CORE_REQUEST_SEND,
                           CORE_SEND_SYNCHRONOUS, request, "MPI_Ssend_init");
}
#pragma weak MPI_Ssend_init = PMPI_Ssend_init

int PMPI_Ssend_init_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                      MPI_Comm comm, MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return persistent_init(buf, count, datatype, dest, tag, comm, CORE_REQUEST_SEND,
                           CORE_SEND_SYNCHRONOUS, request, "MPI_Ssend_init_c");
}
#pragma weak MPI_Ssend_init_c = PMPI_Ssend_init_c

int PMPI_Rsend_init(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                    MPI_Comm comm, MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return persistent_init(buf, count, datatype, dest, tag, comm, CORE_REQUEST_SEND,
                           CORE_SEND_READY, request, "MPI_Rsend_init");
}
#pragma weak MPI_Rsend_init = PMPI_Rsend_init

int PMPI_Rsend_init_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                      MPI_Comm comm, MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return persistent_init(buf, count, datatype, dest, tag, comm, CORE_REQUEST_SEND,
                           CORE_SEND_READY, request, "MPI_Rsend_init_c");
}
#pragma weak MPI_Rsend_init_c = PMPI_Rsend_init_c

int PMPI_Recv_init(void *buf, int count, MPI_Datatype datatype, int source, int tag,
                   MPI_Comm comm, MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return persistent_init(buf, count, datatype, source, tag, comm, CORE_REQUEST_RECV,
                           CORE_SEND_STANDARD, request, "MPI_Recv_init");
}
#pragma weak MPI_Recv_init = PMPI_Recv_init

int PMPI_Recv_init_c(void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag,
                     MPI_Comm comm, MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return persistent_init(buf, count, datatype, source, tag, comm, CORE_REQUEST_RECV,
                           CORE_SEND_STANDARD, request, "MPI_Recv_init_c");
}
#pragma weak MPI_Recv_init_c = PMPI_Recv_init_c

static int start_one(MPI_Request *handle, const char *function)
{
    struct core_request *r = handle ? core_request_from_handle(*handle) : NULL;
    if (!r || !r->persistent)
        return core_error_raise(NULL, MPI_ERR_REQUEST, function,
                                "request is not a persistent request");
    if (r->active && !r->complete)
        return core_error_raise(r->comm, MPI_ERR_REQUEST, function,
                                "request is already active");
    if (r->kind == CORE_REQUEST_GENERIC) { /* persistent collectives: src/coll restarts them */
        return raised(r->comm, core_request_start_generic(r), function);
    }
    if (r->kind == CORE_REQUEST_SEND && r->mode == CORE_SEND_BUFFERED) {
        int rc = p2p_bsend(r->comm, r->context, r->peer, r->tag, r->buf, r->count, r->type, r);
        r->active = 1;
        r->complete = 1;
        return raised(r->comm, rc, function);
    }
    return raised(r->comm, p2p_start(r), function);
}

int PMPI_Start(MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    int rc = mpi_check_initialized("MPI_Start");
    return rc != MPI_SUCCESS ? rc : start_one(request, "MPI_Start");
}
#pragma weak MPI_Start = PMPI_Start

int PMPI_Startall(int count, MPI_Request array_of_requests[])
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    int rc = mpi_check_initialized("MPI_Startall");
    if (rc != MPI_SUCCESS)
        return rc;
    if (count < 0)
        return core_error_raise(NULL, MPI_ERR_COUNT, "MPI_Startall", "invalid count %d", count);
    for (int i = 0; i < count; i++)
        if ((rc = start_one(&array_of_requests[i], "MPI_Startall")) != MPI_SUCCESS)
            return rc;
    return MPI_SUCCESS;
}
#pragma weak MPI_Startall = PMPI_Startall
