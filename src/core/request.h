/* request.h - the request object shared by point-to-point, collectives and one-sided operations.
 * Owns allocation (a free list: no malloc on the fast path), completion and status filling. A
 * request is completed by the layer that owns its kind; waiting is src/core/progress.c's job. */
#ifndef NODEMPI_CORE_REQUEST_H
#define NODEMPI_CORE_REQUEST_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include <mpi.h>

struct core_comm;
struct dt_type;

enum core_request_kind {
    CORE_REQUEST_SEND,
    CORE_REQUEST_RECV,
    CORE_REQUEST_GENERIC,  /* collectives, RMA, generalized: completed by a poll callback */
};

/* Send modes (MPI_Send / Ssend / Rsend / Bsend). */
enum core_send_mode {
    CORE_SEND_STANDARD,
    CORE_SEND_SYNCHRONOUS,
    CORE_SEND_READY,
    CORE_SEND_BUFFERED,
};

struct core_request;
/* A poll callback advances a generic request; it returns MPI_SUCCESS or an error class and sets
 * request->complete when done. It must not block. */
typedef int core_request_poll_fn(struct core_request *request);
typedef void core_request_free_fn(struct core_request *request);

struct core_request {
    enum core_request_kind kind;
    int complete;                /* set by the owning layer; read by wait/test */
    uint64_t completion_order;   /* core_request_complete's stamp: which of several completed
                                  * requests MPI_Waitany / Testany returns (0 = unstamped;
                                  * cleared at every (re)start) */
    int persistent;              /* made by *_init: survives completion, restarted by Start */
    int active;                  /* persistent: started and not yet completed */
    int cancelled;
    int freed_by_user;           /* MPI_Request_free on an active request: free at completion */
    MPI_Status status;           /* MPI_SOURCE, MPI_TAG, MPI_ERROR, count in bytes */
    MPI_Count received_bytes;
    struct core_comm *comm;      /* for error handlers; retained */

    /* Point-to-point arguments (also kept for persistent restarts). */
    void *buf;
    MPI_Count count;
    struct dt_type *type;        /* retained */
    int peer;                    /* rank in comm, MPI_ANY_SOURCE or MPI_PROC_NULL */
    int tag;
    uint32_t context;
    enum core_send_mode mode;

    /* Owned by the p2p layer: protocol state and queue links. */
    struct {
        int state;
        int world_peer;
        struct core_request *next;   /* posted queue / pending-send queue */
        struct core_request *prev;
        size_t offset;               /* bytes moved so far (pipelined protocol) */
        uint64_t peer_cookie;        /* the other side's request id during rendezvous */
        void *bsend_copy;            /* buffered sends: the copy in the attached buffer */
        void *message;               /* matched unexpected message (Mrecv, late match) */
        void *iov;                   /* rendezvous: iovec array a peer reads with CMA */
        size_t total;                /* rendezvous receive: message size */
        int copy_slot;               /* split copy: the sender's slot + 1, 0 = none */
        int remote_pid;              /* split-copy receive: the sender's pid and buffer */
        uint64_t remote_base;
        uint64_t matched_at;         /* rendezvous receive: when matched (p2p/adapt.c) */
        uint32_t seq;                /* send: the message's number among those to world_peer
                                      * (p2p/cancel.c names it by this) */
        int cancel;                  /* send: enum p2p_cancel_state, 0 = not cancelling */
        struct core_request *linked; /* buffered send: the user's request <-> the internal
                                      * send, while the internal one is incomplete */
    } p2p;

    /* Generic requests. */
    core_request_poll_fn *poll;
    core_request_poll_fn *start;     /* persistent generic requests: (re)start */
    core_request_free_fn *free_state;
    void *state;

    struct core_request *free_next;
};

struct core_request *core_request_alloc(enum core_request_kind kind);
/* Releases references (comm, type) and returns the request to the free list. */
void core_request_free(struct core_request *request);

MPI_Request core_request_to_handle(struct core_request *request);
/* NULL for MPI_REQUEST_NULL (the ABI's predefined handles are small integers). Inline: the
 * test/wait families call it per array element per poll (MPI_Testany of 4 pending requests:
 * 31 -> 16 ns). */
static inline struct core_request *core_request_from_handle(MPI_Request handle)
{
    if ((uintptr_t)handle < 0x1000)
        return NULL;
    return (struct core_request *)handle;
}

/* Status helpers: count stored in bytes across two slots (low, high), cancelled flag in a
 * third. Inline: every receive and every started request sets them. */
static inline void core_status_set_count(MPI_Status *status, MPI_Count bytes)
{
    status->mpi_abi_slot[0] = (int)(uint32_t)((uint64_t)bytes & 0xffffffffu);
    status->mpi_abi_slot[1] = (int)(uint32_t)((uint64_t)bytes >> 32);
}

static inline MPI_Count core_status_get_count(const MPI_Status *status)
{
    return (MPI_Count)((uint64_t)(uint32_t)status->mpi_abi_slot[0] |
                       ((uint64_t)(uint32_t)status->mpi_abi_slot[1] << 32));
}

static inline void core_status_set_cancelled(MPI_Status *status, int cancelled)
{
    status->mpi_abi_slot[2] = cancelled ? 1 : 0;
}

static inline int core_status_get_cancelled(const MPI_Status *status)
{
    return status->mpi_abi_slot[2] != 0;
}

/* The status of an empty (null or inactive) request. */
static inline void core_status_set_empty(MPI_Status *status)
{
    status->MPI_SOURCE = MPI_ANY_SOURCE;
    status->MPI_TAG = MPI_ANY_TAG;
    status->MPI_ERROR = MPI_SUCCESS;
    core_status_set_count(status, 0);
    core_status_set_cancelled(status, 0);
}

/* Wait/test on internal requests: used by collectives and by the API layer. core_request_wait
 * copies the status (if non-NULL) and frees non-persistent requests; returns the request's
 * error class. */
int core_request_wait(struct core_request *request, MPI_Status *status);
int core_request_waitall(int count, struct core_request **requests);
/* One nonblocking look for an incomplete request (MPI_Test): a receive that is the oldest
 * posted from its source takes a matching message at the head of that peer's queues in place
 * (p2p_test_recv_in_place), anything else gets a progress poll (core_progress_poll). */
void core_request_poll(struct core_request *request);

/* Block until request->complete, progressing (no status copy, no free). */
void core_request_wait_complete(struct core_request *request);

/* Block until ready(arg) holds, progressing as a request's wait does; the waiter does not know
 * which rank makes it true, so it never spins on one (core/running.c) and, oversubscribed,
 * yields and sleeps. No wake-up is lost if whoever makes the condition true then issues a
 * seq_cst fence and wakes the ranks that sleep (shm/wake.h): the engine polls the condition
 * again after announcing sleep (core/progress.c). */
void core_wait_until(int (*ready)(void *), void *arg);
void core_request_finalize(void);

/* Completions counted in this process (the request layer runs under the library's lock, as
 * the free list does: a plain counter); the stamp orders MPI_Waitany's choice. */
extern uint64_t core_request_completions;

/* Mark complete; a request the user already freed (MPI_Request_free) is released now. Inline:
 * every message completes one. */
static inline void core_request_complete(struct core_request *request)
{
    request->completion_order = ++core_request_completions;
    request->complete = 1;
    if (request->freed_by_user)
        core_request_free(request);
}
/* Start (or restart) a generic request and register it with the progress engine. */
int core_request_start_generic(struct core_request *request);

#endif
