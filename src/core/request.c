/* request.c - request allocation (a free list, so the nonblocking fast path does not call
 * malloc), handle conversion, status encoding and waiting on internal requests.
 * Completion is signalled by the owning layer setting request->complete; waiting loops drive
 * core_progress and back off through core_progress_idle. */
#include "core/request.h"

#include <stdlib.h>
#include <string.h>

#include "core/comm.h"
#include "core/progress.h"
#include "core/running.h"
#include "datatype/datatype.h"
#include "p2p/p2p.h"

static struct core_request *free_list;

/* Zero a request with plain 16-byte stores. memset's `rep stos` here (256 bytes) was the
 * costliest step of a nonblocking 8-byte send: perf put 38% of the sender's samples on it and
 * the store after it, in a window of 64 MPI_Isend. */
#if defined(__GNUC__) && !defined(__clang__)
__attribute__((optimize("no-tree-loop-distribute-patterns"))) /* keep the loop a loop */
#endif
static void clear_request(struct core_request *request)
{
    typedef long long zero16 __attribute__((vector_size(16), may_alias));
    _Static_assert(sizeof(struct core_request) % sizeof(zero16) == 0, "request size");
    zero16 *p = (zero16 *)request;
    for (size_t i = 0; i < sizeof(*request) / sizeof(zero16); i++)
        p[i] = (zero16){0, 0};
}

/* Requests on the free list are kept cleared (but for free_next): a request is cleared when
 * freed, while the completion that frees it has just used its lines, not when allocated
 * again after a window of others has pushed them out of the L1 cache (two ranks posting
 * windows of 64 one-byte Isends and Irecvs each way: the clearing stores, missing the cache,
 * took 18% of the time at allocation). */
struct core_request *core_request_alloc(enum core_request_kind kind)
{
    struct core_request *request = free_list;
    if (request) {
        free_list = request->free_next;
        request->free_next = NULL;
    } else {
        if (!(request = malloc(sizeof(*request))))
            return NULL;
        clear_request(request);
    }
    request->kind = kind;
    return request;
}

void core_request_free(struct core_request *request)
{
    if (request->free_state)
        request->free_state(request);
    if (request->type)
        dt_release(request->type);
    if (request->comm)
        core_comm_release(request->comm);
    clear_request(request);
    request->free_next = free_list;
    free_list = request;
}

/* Called at MPI_Finalize: the free list goes back to the heap (ASan must see no leak). */
void core_request_finalize(void)
{
    while (free_list) {
        struct core_request *next = free_list->free_next;
        free(free_list);
        free_list = next;
    }
}

uint64_t core_request_completions;

int core_request_start_generic(struct core_request *request)
{
    request->complete = 0;
    request->completion_order = 0; /* a persistent restart: no stamp of the last completion */
    request->active = 1;
    int rc = request->start ? request->start(request) : MPI_SUCCESS;
    if (rc == MPI_SUCCESS && !request->complete)
        core_progress_add_generic(request);
    return rc;
}

MPI_Request core_request_to_handle(struct core_request *request)
{
    return request ? (MPI_Request)request : MPI_REQUEST_NULL;
}

void core_request_wait_complete(struct core_request *request)
{
    if (request->complete || p2p_wait_recv_in_place(request))
        return;
    unsigned idle = 0;
    while (!request->complete) {
        if (core_progress())
            idle = 0;
        else if (!request->complete)
            core_progress_idle(++idle);
    }
}

struct wait_closure {
    int (*ready)(void *);
    void *arg;
};

static int poll_ready(struct core_request *request)
{
    struct wait_closure *closure = request->state;
    if (closure->ready(closure->arg))
        request->complete = 1;
    return MPI_SUCCESS;
}

void core_wait_until(int (*ready)(void *), void *arg)
{
    if (ready(arg))
        return;
    core_running_await(-1);
    struct wait_closure closure = {ready, arg};
    /* On the stack: the engine unlinks a generic request in the round it completes, and
     * core_request_wait_complete returns only after that round. */
    struct core_request request;
    memset(&request, 0, sizeof(request));
    request.kind = CORE_REQUEST_GENERIC;
    request.poll = poll_ready;
    request.state = &closure;
    core_progress_add_generic(&request);
    core_request_wait_complete(&request);
}

/* Copy out the status (MPI_ERROR is only written by the API layer for multi-request calls),
 * then free or deactivate the request. */
static int finish(struct core_request *request, MPI_Status *status)
{
    int rc = request->status.MPI_ERROR;
    if (status) {
        int keep_error = status->MPI_ERROR;
        *status = request->status;
        status->MPI_ERROR = keep_error;
    }
    if (request->persistent)
        request->active = 0;
    else
        core_request_free(request);
    return rc;
}

int core_request_wait(struct core_request *request, MPI_Status *status)
{
    if (!request->complete) /* (the API's waits have completed it: no call) */
        core_request_wait_complete(request);
    return finish(request, status);
}

int core_request_waitall(int count, struct core_request **requests)
{
    int rc = MPI_SUCCESS;
    for (int i = 0; i < count; i++) {
        if (!requests[i])
            continue;
        int one = core_request_wait(requests[i], NULL);
        if (one != MPI_SUCCESS && rc == MPI_SUCCESS)
            rc = one;
        requests[i] = NULL;
    }
    return rc;
}

void core_request_poll(struct core_request *request)
{
    if (!p2p_test_recv_in_place(request))
        core_progress_poll();
}
