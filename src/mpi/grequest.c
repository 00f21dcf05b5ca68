/* grequest.c - API: generalized requests (MPI_Grequest_start / MPI_Grequest_complete). The
 * user's operation is complete when the user calls MPI_Grequest_complete; query_fn runs in the
 * wait/test call that completes the request, free_fn when the request is freed, cancel_fn in
 * MPI_Cancel. Owns only the callback record: waiting and freeing stay in core/request.c. */
#include <stdlib.h>

#include "mpi/api.h"
#include "mpi/grequest.h"

struct grequest {
    MPI_Grequest_query_function *query;
    MPI_Grequest_free_function *free;
    MPI_Grequest_cancel_function *cancel;
    void *extra_state;
    int free_called; /* free_fn runs exactly once */
};

static int run_free(struct grequest *g)
{
    if (g->free_called || !g->free)
        return MPI_SUCCESS;
    g->free_called = 1;
    return g->free(g->extra_state);
}

/* core_request_free hook: a request freed without a wait (MPI_Request_free) still owes the
 * user its free_fn call. */
static void release(struct core_request *request)
{
    struct grequest *g = request->state;
    run_free(g);
    free(g);
    request->state = NULL;
}

int mpi_grequest_is(const struct core_request *request)
{
    return request && request->kind == CORE_REQUEST_GENERIC && request->free_state == release;
}

int mpi_grequest_query(struct core_request *request)
{
    struct grequest *g = request->state;
    MPI_Status status;
    core_status_set_empty(&status);
    int rc = g->query ? g->query(g->extra_state, &status) : MPI_SUCCESS;
    request->status = status;
    request->status.MPI_ERROR = MPI_SUCCESS;
    return rc;
}

void mpi_grequest_finish(struct core_request *request)
{
    int rc = mpi_grequest_query(request);
    int free_rc = run_free(request->state);
    request->status.MPI_ERROR = rc != MPI_SUCCESS ? rc : free_rc;
}

int mpi_grequest_cancel(struct core_request *request)
{
    struct grequest *g = request->state;
    return g->cancel ? g->cancel(g->extra_state, request->complete) : MPI_SUCCESS;
}

int PMPI_Grequest_start(MPI_Grequest_query_function *query_fn,
                        MPI_Grequest_free_function *free_fn,
                        MPI_Grequest_cancel_function *cancel_fn, void *extra_state,
                        MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    const char *fn = "MPI_Grequest_start";
    int rc = mpi_check_initialized(fn);
    if (rc == MPI_SUCCESS && !request)
        rc = core_error_raise(NULL, MPI_ERR_ARG, fn, "NULL request pointer");
    if (rc != MPI_SUCCESS)
        return rc;
    struct grequest *g = calloc(1, sizeof(*g));
    struct core_request *r = g ? core_request_alloc(CORE_REQUEST_GENERIC) : NULL;
    if (!r) {
        free(g);
        return core_error_raise(NULL, MPI_ERR_NO_MEM, fn, "cannot allocate a request");
    }
    *g = (struct grequest){query_fn, free_fn, cancel_fn, extra_state, 0};
    r->state = g;
    r->free_state = release;
    core_status_set_empty(&r->status);
    *request = core_request_to_handle(r); /* not polled: only MPI_Grequest_complete ends it */
    return MPI_SUCCESS;
}
#pragma weak MPI_Grequest_start = PMPI_Grequest_start

int PMPI_Grequest_complete(MPI_Request request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    const char *fn = "MPI_Grequest_complete";
    int rc = mpi_check_initialized(fn);
    if (rc != MPI_SUCCESS)
        return rc;
    struct core_request *r = core_request_from_handle(request);
    if (!mpi_grequest_is(r))
        return core_error_raise(NULL, MPI_ERR_REQUEST, fn,
                                "not a generalized request (from MPI_Grequest_start)");
    if (r->complete)
        return core_error_raise(NULL, MPI_ERR_REQUEST, fn, "request already completed");
    /* Frees the request (and runs free_fn) when the user already called MPI_Request_free. */
    core_request_complete(r);
    return MPI_SUCCESS;
}
#pragma weak MPI_Grequest_complete = PMPI_Grequest_complete
