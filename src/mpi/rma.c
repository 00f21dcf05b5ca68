/* rma.c - API: one-sided communication (MPI-4.1 chapter 12): window creation and free,
 * attributes, names, info and error handlers of windows, the operations (put, get, the
 * accumulate family, request-based variants, large-count _c variants) and the synchronization
 * calls. Arguments are checked here in the standard's order and errors raised on the window's
 * handler (the communicator's for creation); the work is src/rma's. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coll/op.h"
#include "core/attr.h"
#include "core/dpm.h"
#include "core/request.h"
#include "mpi/comm_api.h"
#include "rma/rma.h"

/* ---- helpers ------------------------------------------------------------------------------ */

static int win_error(struct rma_win *win, int code, const char *function, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static int win_error(struct rma_win *win, int code, const char *function, const char *fmt, ...)
{
    char message[400], object[MPI_MAX_OBJECT_NAME + 16];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, sizeof(message), fmt, ap);
    va_end(ap);
    snprintf(object, sizeof(object), "window %s", win->name[0] ? win->name : "(unnamed)");
    return core_error_raise_object(win->errhandler, (void *)rma_win_to_handle(win), object, code,
                                   function, "%s", message);
}

static int begin_win(MPI_Win handle, struct rma_win **win, const char *function)
{
    int rc = mpi_check_initialized(function);
    if (rc != MPI_SUCCESS)
        return rc;
    *win = rma_win_from_handle(handle);
    if (*win)
        return MPI_SUCCESS;
    return core_error_raise(NULL, MPI_ERR_WIN, function, "invalid window%s",
                            handle == MPI_WIN_NULL ? " MPI_WIN_NULL" : "");
}

/* The fast paths' argument test: initialized, a valid window, a real target rank. Everything
 * it does not accept goes through the checked path, which reports the error. */
static struct rma_win *fast_win(MPI_Win handle, int target)
{
    struct rma_win *win = rma_win_from_handle(handle);
    if (!win || !nodempi.initialized || nodempi.finalized || target < 0 || target >= win->size)
        return NULL;
    return win;
}

/* Both datatypes the same contiguous predefined type, equal counts: `bytes` plain bytes. */
static int fast_bytes(MPI_Count origin_count, MPI_Datatype origin_dt, MPI_Count target_count,
                      MPI_Datatype target_dt, size_t *bytes)
{
    if (origin_dt != target_dt || origin_count != target_count || origin_count < 0)
        return 0;
    struct dt_type *type = dt_from_handle(origin_dt);
    if (!type || !type->predefined || !type->contiguous)
        return 0;
    *bytes = (size_t)(origin_count * type->size);
    return 1;
}

static int check_pointer(struct rma_win *win, const void *p, const char *name,
                         const char *function)
{
    return p ? MPI_SUCCESS : win_error(win, MPI_ERR_ARG, function, "%s is NULL", name);
}

/* Calls that write through one pointer argument: a valid window, then that pointer. */
static int begin_win_query(MPI_Win handle, const void *out, const char *name,
                           struct rma_win **win, const char *function)
{
    int rc = begin_win(handle, win, function);
    return rc != MPI_SUCCESS ? rc : check_pointer(*win, out, name, function);
}

static int check_count(struct rma_win *win, MPI_Count count, const char *which,
                       const char *function)
{
    if (count >= 0)
        return MPI_SUCCESS;
    return win_error(win, MPI_ERR_COUNT, function, "invalid %s count %lld", which,
                     (long long)count);
}

static int check_type(struct rma_win *win, MPI_Datatype handle, struct dt_type **type,
                      const char *which, const char *function)
{
    *type = dt_from_handle(handle);
    if (!*type)
        return win_error(win, MPI_ERR_TYPE, function, "invalid %s datatype%s", which,
                         handle == MPI_DATATYPE_NULL ? " MPI_DATATYPE_NULL" : "");
    if (!(*type)->committed)
        return win_error(win, MPI_ERR_TYPE, function,
                         "%s datatype is not committed (call MPI_Type_commit)", which);
    return MPI_SUCCESS;
}

/* Target ranks: 0..size-1 of the window's group, or MPI_PROC_NULL. */
static int check_rank(struct rma_win *win, int rank, const char *function)
{
    if ((rank >= 0 && rank < win->size) || rank == MPI_PROC_NULL)
        return MPI_SUCCESS;
    return win_error(win, MPI_ERR_RANK, function, "invalid target rank %d (window group size %d)",
                     rank, win->size);
}

static int check_assert(struct rma_win *win, int assert, int allowed, const char *function)
{
    if ((assert & ~allowed) == 0)
        return MPI_SUCCESS;
    return win_error(win, MPI_ERR_ASSERT, function, "invalid assert %d (allowed bits: 0x%x)",
                     assert, (unsigned)allowed);
}

/* The epoch and the target range of an operation on a real target. */
static int check_access(struct rma_win *win, int target, MPI_Aint disp, MPI_Count count,
                        const struct dt_type *type, const char *function)
{
    if (rma_check_epoch(win, target) != MPI_SUCCESS)
        return win_error(win, MPI_ERR_RMA_SYNC, function,
                         "no access epoch to target rank %d is open (start one with "
                         "MPI_Win_fence, MPI_Win_start, MPI_Win_lock or MPI_Win_lock_all)",
                         target);
    if (rma_check_range(win, target, disp, count, type) != MPI_SUCCESS) {
        MPI_Aint size, unit;
        rma_win_target_extent(win, target, &size, &unit);
        if (win->flavor == MPI_WIN_FLAVOR_DYNAMIC)
            return win_error(win, MPI_ERR_RMA_RANGE, function,
                             "target address 0x%llx with %lld element(s) of %s is not in "
                             "memory attached by rank %d",
                             (unsigned long long)disp, (long long)count, type->name, target);
        return win_error(win, MPI_ERR_RMA_RANGE, function,
                         "target displacement %lld with %lld element(s) of %s is outside the "
                         "window of rank %d (size %lld bytes, disp_unit %lld)",
                         (long long)disp, (long long)count, type->name, target,
                         (long long)size, (long long)unit);
    }
    return MPI_SUCCESS;
}

static int op_failed(struct rma_win *win, int rc, int target, const char *function)
{
    switch (rc) {
    case MPI_ERR_TRUNCATE:
        return win_error(win, rc, function,
                         "the receiving side of the transfer (target for put/accumulate, "
                         "origin or result for get) holds less data than is sent");
    case MPI_ERR_UNSUPPORTED_OPERATION:
        return win_error(win, rc, function,
                         "cannot reach the memory of rank %d: single copy (CMA, "
                         "process_vm_readv/writev) is not permitted here; use MPI_Win_allocate",
                         target);
    case MPI_ERR_RMA_RANGE:
        return win_error(win, rc, function, "the memory of rank %d is not accessible there",
                         target);
    default:
        return win_error(win, rc, function, "one-sided operation on rank %d failed: %s", target,
                         core_error_string(rc));
    }
}

static int passive_only(struct rma_win *win, int target, const char *function)
{
    if (target == MPI_PROC_NULL || rma_check_passive_epoch(win, target) == MPI_SUCCESS)
        return MPI_SUCCESS;
    return win_error(win, MPI_ERR_RMA_SYNC, function,
                     "request-based operations need a passive target epoch to rank %d "
                     "(MPI_Win_lock or MPI_Win_lock_all)",
                     target);
}

/* Request-based operations complete when issued: the request is born complete. */
static int completed_request(struct rma_win *win, MPI_Request *request, const char *function)
{
    struct core_request *r = core_request_alloc(CORE_REQUEST_GENERIC);
    if (!r)
        return win_error(win, MPI_ERR_NO_MEM, function, "out of memory for the request");
    core_status_set_empty(&r->status);
    r->status.MPI_ERROR = MPI_SUCCESS;
    r->complete = 1;
    *request = core_request_to_handle(r);
    return MPI_SUCCESS;
}

/* ---- checks shared by the operations ------------------------------------------------------ */

/* What the checks of an operation resolve. */
struct op_args {
    struct rma_win *win;
    struct dt_type *origin_type;   /* NULL when the origin buffer is unused (MPI_NO_OP) */
    struct dt_type *result_type;   /* NULL unless the call fetches */
    struct dt_type *target_type;
    struct coll_op *op;            /* accumulates only */
};

/* The window; for request-based calls (request != NULL) also the request pointer and a
 * passive target epoch. */
static int check_window(MPI_Win win, MPI_Request *request, int target_rank, struct op_args *a,
                        const char *function)
{
    int rc = begin_win(win, &a->win, function);
    if (rc == MPI_SUCCESS && request)
        rc = check_pointer(a->win, request, "request", function);
    if (rc == MPI_SUCCESS && request)
        rc = passive_only(a->win, target_rank, function);
    return rc;
}

/* An origin or result buffer: count, then datatype ("origin" or "result" names it). */
static int check_buffer(struct rma_win *w, MPI_Count count, MPI_Datatype handle,
                        struct dt_type **type, const char *which, const char *function)
{
    int rc = check_count(w, count, which, function);
    return rc != MPI_SUCCESS ? rc : check_type(w, handle, type, which, function);
}

/* The target's rank, count and datatype; its epoch and range are check_access's. */
static int check_target(struct rma_win *w, int rank, MPI_Count count, MPI_Datatype handle,
                        struct dt_type **type, const char *function)
{
    int rc = check_rank(w, rank, function);
    if (rc == MPI_SUCCESS)
        rc = check_count(w, count, "target", function);
    return rc != MPI_SUCCESS ? rc : check_type(w, handle, type, "target", function);
}

/* The end of every operation: the lower layer's failure raised on the window, or the request
 * of a request-based call. */
static int finish_op(const struct op_args *a, int rc, int target_rank, MPI_Request *request,
                     const char *function)
{
    if (rc != MPI_SUCCESS)
        return op_failed(a->win, rc, target_rank, function);
    return request ? completed_request(a->win, request, function) : MPI_SUCCESS;
}

/* ---- window creation ---------------------------------------------------------------------- */

static int begin_create(MPI_Comm comm, MPI_Aint size, MPI_Aint disp_unit, MPI_Info info,
                        const void *out, struct core_comm **c, struct core_info **i,
                        const char *function)
{
    int rc = mpi_begin_comm(comm, c, function);
    if (rc == MPI_SUCCESS)
        rc = mpi_check_intracomm(*c, function);
    if (rc != MPI_SUCCESS)
        return rc;
    if (size < 0)
        return core_error_raise(*c, MPI_ERR_SIZE, function, "invalid window size %lld",
                                (long long)size);
    if (disp_unit <= 0)
        return core_error_raise(*c, MPI_ERR_DISP, function,
                                "invalid disp_unit %lld (must be positive)",
                                (long long)disp_unit);
    if ((rc = mpi_get_optional_info(info, i, function)) != MPI_SUCCESS)
        return rc;
    /* Windows live in the job's segment, which processes of other jobs do not map. */
    if (core_dpm_comm_is_foreign(*c))
        return core_error_raise(*c, MPI_ERR_UNSUPPORTED_OPERATION, function,
                                "windows over processes of other jobs (spawned or connected) "
                                "are not supported");
    return mpi_check_pointer(*c, out, "win", function);
}

static int created(struct core_comm *c, int rc, struct rma_win *w, MPI_Win *win,
                   const char *function)
{
    if (rc != MPI_SUCCESS)
        return core_error_raise(c, rc, function, "cannot create the window: %s",
                                core_error_string(rc));
    *win = rma_win_to_handle(w);
    return MPI_SUCCESS;
}

static int win_create(void *base, MPI_Aint size, MPI_Aint disp_unit, MPI_Info info,
                      MPI_Comm comm, MPI_Win *win, const char *function)
{
    struct core_comm *c;
    struct core_info *i = NULL; /* set by begin_create on success (-O3 cannot tell) */
    int rc = begin_create(comm, size, disp_unit, info, win, &c, &i, function);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!base && size > 0)
        return core_error_raise(c, MPI_ERR_BASE, function, "NULL base with size %lld",
                                (long long)size);
    struct rma_win *w = NULL;
    rc = rma_win_create(base, size, disp_unit, i, c, &w);
    return created(c, rc, w, win, function);
}

int PMPI_Win_create(void *base, MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm,
                    MPI_Win *win)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return win_create(base, size, disp_unit, info, comm, win, "MPI_Win_create");
}
#pragma weak MPI_Win_create = PMPI_Win_create

int PMPI_Win_create_c(void *base, MPI_Aint size, MPI_Aint disp_unit, MPI_Info info,
                      MPI_Comm comm, MPI_Win *win)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return win_create(base, size, disp_unit, info, comm, win, "MPI_Win_create_c");
}
#pragma weak MPI_Win_create_c = PMPI_Win_create_c

static int win_allocate(MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm,
                        void *baseptr, MPI_Win *win, int shared, const char *function)
{
    struct core_comm *c;
    struct core_info *i = NULL; /* set by begin_create on success (-O3 cannot tell) */
    int rc = begin_create(comm, size, disp_unit, info, win, &c, &i, function);
    if (rc == MPI_SUCCESS)
        rc = mpi_check_pointer(c, baseptr, "baseptr", function);
    if (rc != MPI_SUCCESS)
        return rc;
    struct rma_win *w = NULL;
    void *base = NULL;
    rc = rma_win_allocate(size, disp_unit, i, c, shared, &base, &w);
    if (rc == MPI_SUCCESS)
        *(void **)baseptr = base;
    return created(c, rc, w, win, function);
}

int PMPI_Win_allocate(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr,
                      MPI_Win *win)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return win_allocate(size, disp_unit, info, comm, baseptr, win, 0, "MPI_Win_allocate");
}
#pragma weak MPI_Win_allocate = PMPI_Win_allocate

int PMPI_Win_allocate_c(MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm,
                        void *baseptr, MPI_Win *win)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return win_allocate(size, disp_unit, info, comm, baseptr, win, 0, "MPI_Win_allocate_c");
}
#pragma weak MPI_Win_allocate_c = PMPI_Win_allocate_c

int PMPI_Win_allocate_shared(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm,
                             void *baseptr, MPI_Win *win)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return win_allocate(size, disp_unit, info, comm, baseptr, win, 1,
                        "MPI_Win_allocate_shared");
}
#pragma weak MPI_Win_allocate_shared = PMPI_Win_allocate_shared

int PMPI_Win_allocate_shared_c(MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm,
                               void *baseptr, MPI_Win *win)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return win_allocate(size, disp_unit, info, comm, baseptr, win, 1,
                        "MPI_Win_allocate_shared_c");
}
#pragma weak MPI_Win_allocate_shared_c = PMPI_Win_allocate_shared_c

int PMPI_Win_create_dynamic(MPI_Info info, MPI_Comm comm, MPI_Win *win)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    const char *function = "MPI_Win_create_dynamic";
    struct core_comm *c;
    struct core_info *i = NULL; /* set by begin_create on success (-O3 cannot tell) */
    int rc = begin_create(comm, 0, 1, info, win, &c, &i, function);
    if (rc != MPI_SUCCESS)
        return rc;
    struct rma_win *w = NULL;
    rc = rma_win_create_dynamic(i, c, &w);
    return created(c, rc, w, win, function);
}
#pragma weak MPI_Win_create_dynamic = PMPI_Win_create_dynamic

int PMPI_Win_attach(MPI_Win win, void *base, MPI_Aint size)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    const char *function = "MPI_Win_attach";
    struct rma_win *w;
    int rc = begin_win(win, &w, function);
    if (rc != MPI_SUCCESS)
        return rc;
    if (size < 0)
        return win_error(w, MPI_ERR_SIZE, function, "invalid size %lld", (long long)size);
    if (!base && size > 0)
        return win_error(w, MPI_ERR_BASE, function, "NULL base with size %lld",
                         (long long)size);
    rc = rma_win_attach(w, base, size);
    if (rc == MPI_ERR_RMA_FLAVOR)
        return win_error(w, rc, function, "only windows from MPI_Win_create_dynamic attach");
    if (rc != MPI_SUCCESS)
        return win_error(w, rc, function,
                         "cannot attach %lld bytes at %p: overlaps an attached region or the "
                         "table of attached regions is full",
                         (long long)size, base);
    return MPI_SUCCESS;
}
#pragma weak MPI_Win_attach = PMPI_Win_attach

int PMPI_Win_detach(MPI_Win win, const void *base)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    const char *function = "MPI_Win_detach";
    struct rma_win *w;
    int rc = begin_win(win, &w, function);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = rma_win_detach(w, base);
    if (rc == MPI_ERR_RMA_FLAVOR)
        return win_error(w, rc, function, "only windows from MPI_Win_create_dynamic detach");
    if (rc != MPI_SUCCESS)
        return win_error(w, rc, function, "no region attached at %p", base);
    return MPI_SUCCESS;
}
#pragma weak MPI_Win_detach = PMPI_Win_detach

int PMPI_Win_free(MPI_Win *win)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    const char *function = "MPI_Win_free";
    struct rma_win *w;
    int rc = mpi_check_pointer(NULL, win, "win", function);
    if (rc == MPI_SUCCESS)
        rc = begin_win(*win, &w, function);
    if (rc != MPI_SUCCESS)
        return rc;
    if (rma_win_free_ready(w) != MPI_SUCCESS)
        return win_error(w, MPI_ERR_RMA_SYNC, function,
                         "an epoch is still open (unlock, complete or wait first)");
    rc = core_attr_delete_all(CORE_ATTR_WIN, &w->attributes, (void *)*win);
    if (rc != MPI_SUCCESS)
        return win_error(w, rc, function, "an attribute delete callback failed (code %d)", rc);
    rc = rma_win_free(w);
    *win = MPI_WIN_NULL;
    if (rc != MPI_SUCCESS)
        return core_error_raise(NULL, rc, function, "freeing the window failed: %s",
                                core_error_string(rc));
    return MPI_SUCCESS;
}
#pragma weak MPI_Win_free = PMPI_Win_free

static int shared_query(MPI_Win win, int rank, MPI_Aint *size, MPI_Aint *disp_unit,
                        void *baseptr, const char *function)
{
    struct rma_win *w;
    int rc = begin_win(win, &w, function);
    if (rc == MPI_SUCCESS)
        rc = check_rank(w, rank, function);
    if (rc == MPI_SUCCESS)
        rc = check_pointer(w, size, "size", function);
    if (rc == MPI_SUCCESS)
        rc = check_pointer(w, baseptr, "baseptr", function);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = rma_win_shared_query(w, rank, size, disp_unit, (void **)baseptr);
    if (rc != MPI_SUCCESS)
        return win_error(w, rc, function,
                         "a window from MPI_Win_create_dynamic has no one segment per rank to "
                         "query (MPI-4.1 12.2.3)");
    return MPI_SUCCESS;
}

int PMPI_Win_shared_query(MPI_Win win, int rank, MPI_Aint *size, int *disp_unit, void *baseptr)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    MPI_Aint unit = 0;
    int rc = shared_query(win, rank, size, &unit, baseptr, "MPI_Win_shared_query");
    if (rc == MPI_SUCCESS && disp_unit)
        *disp_unit = (int)unit;
    return rc;
}
#pragma weak MPI_Win_shared_query = PMPI_Win_shared_query

int PMPI_Win_shared_query_c(MPI_Win win, int rank, MPI_Aint *size, MPI_Aint *disp_unit,
                            void *baseptr)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    MPI_Aint unit = 0;
    int rc = shared_query(win, rank, size, &unit, baseptr, "MPI_Win_shared_query_c");
    if (rc == MPI_SUCCESS && disp_unit)
        *disp_unit = unit;
    return rc;
}
#pragma weak MPI_Win_shared_query_c = PMPI_Win_shared_query_c

/* ---- put and get -------------------------------------------------------------------------- */

/* Put and get: window (and request), origin, target, then the epoch and range of a real
 * target. */
static int check_transfer(MPI_Win win, MPI_Request *request, MPI_Count origin_count,
                          MPI_Datatype origin_dt, int target_rank, MPI_Aint target_disp,
                          MPI_Count target_count, MPI_Datatype target_dt, struct op_args *a,
                          const char *function)
{
    int rc;
    if ((rc = check_window(win, request, target_rank, a, function)) ||
        (rc = check_buffer(a->win, origin_count, origin_dt, &a->origin_type, "origin",
                           function)) ||
        (rc = check_target(a->win, target_rank, target_count, target_dt, &a->target_type,
                           function)))
        return rc;
    if (target_rank == MPI_PROC_NULL)
        return MPI_SUCCESS;
    return check_access(a->win, target_rank, target_disp, target_count, a->target_type,
                        function);
}

enum direction { TO_TARGET, FROM_TARGET };

/* The checked paths of the hot calls stay out of line (NOINLINE_SLOW_PATH): inlined, their
 * checks made every fast call save and restore six registers and build a large frame
 * (docs/rma.md, "Costs"). */
#define NOINLINE_SLOW_PATH __attribute__((noinline))

static NOINLINE_SLOW_PATH int
transfer_checked(enum direction direction, const void *origin, MPI_Count origin_count,
                 MPI_Datatype origin_dt, int target_rank, MPI_Aint target_disp,
                 MPI_Count target_count, MPI_Datatype target_dt, MPI_Win win,
                 MPI_Request *request, const char *function);

/* MPI_Put (TO_TARGET) and MPI_Get and their request-based forms: a plain contiguous transfer
 * to a reachable target takes the fast path; anything else is checked, then moved by one call
 * below. A get's origin buffer is writable: it arrives here as const only so both directions
 * share this function. */
static int transfer(enum direction direction, const void *origin, MPI_Count origin_count,
                    MPI_Datatype origin_dt, int target_rank, MPI_Aint target_disp,
                    MPI_Count target_count, MPI_Datatype target_dt, MPI_Win win,
                    MPI_Request *request, const char *function)
{
    struct rma_win *w = request ? NULL : fast_win(win, target_rank);
    size_t bytes;
    if (w && fast_bytes(origin_count, origin_dt, target_count, target_dt, &bytes) &&
        (direction == TO_TARGET
             ? rma_put_fast(w, origin, bytes, target_rank, target_disp)
             : rma_get_fast(w, (void *)origin, bytes, target_rank, target_disp)))
        return MPI_SUCCESS;
    return transfer_checked(direction, origin, origin_count, origin_dt, target_rank,
                            target_disp, target_count, target_dt, win, request, function);
}

static int transfer_checked(enum direction direction, const void *origin,
                            MPI_Count origin_count, MPI_Datatype origin_dt, int target_rank,
                            MPI_Aint target_disp, MPI_Count target_count,
                            MPI_Datatype target_dt, MPI_Win win, MPI_Request *request,
                            const char *function)
{
    struct op_args a = {0};
    int rc = check_transfer(win, request, origin_count, origin_dt, target_rank, target_disp,
                            target_count, target_dt, &a, function);
    if (rc != MPI_SUCCESS)
        return rc;
    if (target_rank != MPI_PROC_NULL && direction == TO_TARGET)
        rc = rma_put(a.win, origin, origin_count, a.origin_type, target_rank, target_disp,
                     target_count, a.target_type);
    else if (target_rank != MPI_PROC_NULL)
        rc = rma_get(a.win, (void *)origin, origin_count, a.origin_type, target_rank,
                     target_disp, target_count, a.target_type);
    return finish_op(&a, rc, target_rank, request, function);
}

int PMPI_Put(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
             int target_rank, MPI_Aint target_disp, int target_count,
             MPI_Datatype target_datatype, MPI_Win win)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return transfer(TO_TARGET, origin_addr, origin_count, origin_datatype, target_rank,
                    target_disp, target_count, target_datatype, win, NULL, "MPI_Put");
}
#pragma weak MPI_Put = PMPI_Put

int PMPI_Put_c(const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype,
               int target_rank, MPI_Aint target_disp, MPI_Count target_count,
               MPI_Datatype target_datatype, MPI_Win win)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return transfer(TO_TARGET, origin_addr, origin_count, origin_datatype, target_rank,
                    target_disp, target_count, target_datatype, win, NULL, "MPI_Put_c");
}
#pragma weak MPI_Put_c = PMPI_Put_c

int PMPI_Rput(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
              int target_rank, MPI_Aint target_disp, int target_count,
              MPI_Datatype target_datatype, MPI_Win win, MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return transfer(TO_TARGET, origin_addr, origin_count, origin_datatype, target_rank,
                    target_disp, target_count, target_datatype, win, request, "MPI_Rput");
}
#pragma weak MPI_Rput = PMPI_Rput

int PMPI_Rput_c(const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype,
                int target_rank, MPI_Aint target_disp, MPI_Count target_count,
                MPI_Datatype target_datatype, MPI_Win win, MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return transfer(TO_TARGET, origin_addr, origin_count, origin_datatype, target_rank,
                    target_disp, target_count, target_datatype, win, request, "MPI_Rput_c");
}
#pragma weak MPI_Rput_c = PMPI_Rput_c

int PMPI_Get(void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
             MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return transfer(FROM_TARGET, origin_addr, origin_count, origin_datatype, target_rank,
                    target_disp, target_count, target_datatype, win, NULL, "MPI_Get");
}
#pragma weak MPI_Get = PMPI_Get

int PMPI_Get_c(void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype,
               int target_rank, MPI_Aint target_disp, MPI_Count target_count,
               MPI_Datatype target_datatype, MPI_Win win)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return transfer(FROM_TARGET, origin_addr, origin_count, origin_datatype, target_rank,
                    target_disp, target_count, target_datatype, win, NULL, "MPI_Get_c");
}
#pragma weak MPI_Get_c = PMPI_Get_c

int PMPI_Rget(void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
              int target_rank, MPI_Aint target_disp, int target_count,
              MPI_Datatype target_datatype, MPI_Win win, MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return transfer(FROM_TARGET, origin_addr, origin_count, origin_datatype, target_rank,
                    target_disp, target_count, target_datatype, win, request, "MPI_Rget");
}
#pragma weak MPI_Rget = PMPI_Rget

int PMPI_Rget_c(void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype,
                int target_rank, MPI_Aint target_disp, MPI_Count target_count,
                MPI_Datatype target_datatype, MPI_Win win, MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return transfer(FROM_TARGET, origin_addr, origin_count, origin_datatype, target_rank,
                    target_disp, target_count, target_datatype, win, request, "MPI_Rget_c");
}
#pragma weak MPI_Rget_c = PMPI_Rget_c

/* ---- accumulate family -------------------------------------------------------------------- */

/* Everything an accumulate-family call passes (result fields unused by Accumulate). */
struct acc_call {
    const void *origin;
    MPI_Count origin_count;
    MPI_Datatype origin_dt;
    void *result;
    MPI_Count result_count;
    MPI_Datatype result_dt;
    int target_rank;
    MPI_Aint target_disp;
    MPI_Count target_count;
    MPI_Datatype target_dt;
    MPI_Op op;
    int fetch;            /* Get_accumulate / Fetch_and_op: result arguments are used */
};

static int check_acc_op(struct rma_win *w, MPI_Op handle, struct coll_op **op,
                        const char *function)
{
    *op = coll_op_from_handle(handle);
    if (*op)
        return MPI_SUCCESS;
    return win_error(w, MPI_ERR_OP, function, "invalid operation%s",
                     handle == MPI_OP_NULL ? " MPI_OP_NULL" : "");
}

static int check_acc_types(struct rma_win *w, const struct dt_type *a, const struct dt_type *b,
                           const char *which, const char *function)
{
    if (rma_check_accumulate_types(a, b) == MPI_SUCCESS)
        return MPI_SUCCESS;
    return win_error(w, MPI_ERR_TYPE, function,
                     "%s datatype %s and target datatype %s are not built from the same "
                     "predefined type",
                     which, a->name, b->name);
}

/* Whether the call combines any data: not with MPI_PROC_NULL, not when every buffer it uses
 * is empty. The operator's fit to the datatype and the matching of the basic types are rules
 * about combined data, so a call that combines none is not held to them (Open MPI and MPICH
 * accept such calls too; mpi4py makes them with empty buffers). */
static int combines_data(const struct acc_call *c, const struct op_args *a)
{
    if (c->target_rank == MPI_PROC_NULL)
        return 0;
    return dt_packed_size(a->target_type, c->target_count) > 0 ||
           (a->origin_type && dt_packed_size(a->origin_type, c->origin_count) > 0) ||
           (a->result_type && dt_packed_size(a->result_type, c->result_count) > 0);
}

/* The operator on the target's type and the types of origin and result against it. A
 * user-defined operator is never allowed, whatever the data. */
static int check_acc_pairing(const struct acc_call *c, const struct op_args *a,
                             const char *function)
{
    int combines = combines_data(c, a), rc;
    if ((combines || !a->op->predefined) &&
        rma_check_accumulate_op(a->op, a->target_type) != MPI_SUCCESS)
        return win_error(a->win, MPI_ERR_OP, function, "%s is not allowed in accumulates on %s",
                         coll_op_name(a->op), a->target_type->name);
    if (!combines)
        return MPI_SUCCESS;
    if (a->origin_type &&
        (rc = check_acc_types(a->win, a->origin_type, a->target_type, "origin", function)))
        return rc;
    if (a->result_type &&
        (rc = check_acc_types(a->win, a->result_type, a->target_type, "result", function)))
        return rc;
    return MPI_SUCCESS;
}

/* Window (and request), operator, origin (unused by MPI_NO_OP: Get_accumulate then is an
 * atomic get), result, target, the pairing of operator and types, then the epoch and range of
 * a real target. */
static int check_accumulate(const struct acc_call *c, MPI_Win win, MPI_Request *request,
                            struct op_args *a, const char *function)
{
    int rc;
    if ((rc = check_window(win, request, c->target_rank, a, function)) ||
        (rc = check_acc_op(a->win, c->op, &a->op, function)))
        return rc;
    if (a->op->kind != COLL_OP_NO_OP &&
        (rc = check_buffer(a->win, c->origin_count, c->origin_dt, &a->origin_type, "origin",
                           function)))
        return rc;
    if (c->fetch && (rc = check_buffer(a->win, c->result_count, c->result_dt, &a->result_type,
                                       "result", function)))
        return rc;
    if ((rc = check_target(a->win, c->target_rank, c->target_count, c->target_dt,
                           &a->target_type, function)) ||
        (rc = check_acc_pairing(c, a, function)))
        return rc;
    if (c->target_rank == MPI_PROC_NULL)
        return MPI_SUCCESS;
    return check_access(a->win, c->target_rank, c->target_disp, c->target_count,
                        a->target_type, function);
}

/* The fast path's argument test: origin, target (and result) the same type and count. The
 * types are then one predefined contiguous type (rma_accumulate_fast's test), so the pairing
 * rules hold; everything else, and every error, goes through the checked path. */
static int accumulate_fast(const struct acc_call *c, MPI_Win win)
{
    struct rma_win *w = fast_win(win, c->target_rank);
    if (!w || c->origin_dt != c->target_dt || c->origin_count != c->target_count ||
        (c->fetch && (c->result_dt != c->target_dt || c->result_count != c->target_count)))
        return 0;
    struct dt_type *type = dt_from_handle(c->target_dt);
    struct coll_op *op = coll_op_from_handle(c->op);
    return type && op &&
           rma_accumulate_fast(w, c->origin, c->fetch ? c->result : NULL, c->target_count, type,
                               c->target_rank, c->target_disp, op);
}

static NOINLINE_SLOW_PATH int accumulate_checked(const struct acc_call *c, MPI_Win win,
                                                MPI_Request *request, const char *function);

static int accumulate(const struct acc_call *c, MPI_Win win, MPI_Request *request,
                      const char *function)
{
    if (!request && accumulate_fast(c, win))
        return MPI_SUCCESS;
    return accumulate_checked(c, win, request, function);
}

static int accumulate_checked(const struct acc_call *c, MPI_Win win, MPI_Request *request,
                              const char *function)
{
    struct op_args a = {0};
    int rc = check_accumulate(c, win, request, &a, function);
    if (rc != MPI_SUCCESS)
        return rc;
    if (c->target_rank != MPI_PROC_NULL)
        rc = rma_accumulate(a.win, c->origin, c->origin_count, a.origin_type,
                            c->fetch ? c->result : NULL, c->result_count, a.result_type,
                            c->target_rank, c->target_disp, c->target_count, a.target_type,
                            a.op);
    return finish_op(&a, rc, c->target_rank, request, function);
}

int PMPI_Accumulate(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
                    int target_rank, MPI_Aint target_disp, int target_count,
                    MPI_Datatype target_datatype, MPI_Op op, MPI_Win win)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    struct acc_call a = {origin_addr, origin_count, origin_datatype, NULL, 0, MPI_DATATYPE_NULL,
                         target_rank, target_disp, target_count, target_datatype, op, 0};
    return accumulate(&a, win, NULL, "MPI_Accumulate");
}
#pragma weak MPI_Accumulate = PMPI_Accumulate

int PMPI_Accumulate_c(const void *origin_addr, MPI_Count origin_count,
                      MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp,
                      MPI_Count target_count, MPI_Datatype target_datatype, MPI_Op op,
                      MPI_Win win)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    struct acc_call a = {origin_addr, origin_count, origin_datatype, NULL, 0, MPI_DATATYPE_NULL,
                         target_rank, target_disp, target_count, target_datatype, op, 0};
    return accumulate(&a, win, NULL, "MPI_Accumulate_c");
}
#pragma weak MPI_Accumulate_c = PMPI_Accumulate_c

int PMPI_Raccumulate(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
                     int target_rank, MPI_Aint target_disp, int target_count,
                     MPI_Datatype target_datatype, MPI_Op op, MPI_Win win,
                     MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    struct acc_call a = {origin_addr, origin_count, origin_datatype, NULL, 0, MPI_DATATYPE_NULL,
                         target_rank, target_disp, target_count, target_datatype, op, 0};
    return accumulate(&a, win, request, "MPI_Raccumulate");
}
#pragma weak MPI_Raccumulate = PMPI_Raccumulate

int PMPI_Raccumulate_c(const void *origin_addr, MPI_Count origin_count,
                       MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp,
                       MPI_Count target_count, MPI_Datatype target_datatype, MPI_Op op,
                       MPI_Win win, MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    struct acc_call a = {origin_addr, origin_count, origin_datatype, NULL, 0, MPI_DATATYPE_NULL,
                         target_rank, target_disp, target_count, target_datatype, op, 0};
    return accumulate(&a, win, request, "MPI_Raccumulate_c");
}
#pragma weak MPI_Raccumulate_c = PMPI_Raccumulate_c

int PMPI_Get_accumulate(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
                        void *result_addr, int result_count, MPI_Datatype result_datatype,
                        int target_rank, MPI_Aint target_disp, int target_count,
                        MPI_Datatype target_datatype, MPI_Op op, MPI_Win win)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    struct acc_call a = {origin_addr, origin_count, origin_datatype, result_addr, result_count,
                         result_datatype, target_rank, target_disp, target_count,
                         target_datatype, op, 1};
    return accumulate(&a, win, NULL, "MPI_Get_accumulate");
}
#pragma weak MPI_Get_accumulate = PMPI_Get_accumulate

int PMPI_Get_accumulate_c(const void *origin_addr, MPI_Count origin_count,
                          MPI_Datatype origin_datatype, void *result_addr,
                          MPI_Count result_count, MPI_Datatype result_datatype,
                          int target_rank, MPI_Aint target_disp, MPI_Count target_count,
                          MPI_Datatype target_datatype, MPI_Op op, MPI_Win win)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    struct acc_call a = {origin_addr, origin_count, origin_datatype, result_addr, result_count,
                         result_datatype, target_rank, target_disp, target_count,
                         target_datatype, op, 1};
    return accumulate(&a, win, NULL, "MPI_Get_accumulate_c");
}
#pragma weak MPI_Get_accumulate_c = PMPI_Get_accumulate_c

int PMPI_Rget_accumulate(const void *origin_addr, int origin_count,
                         MPI_Datatype origin_datatype, void *result_addr, int result_count,
                         MPI_Datatype result_datatype, int target_rank, MPI_Aint target_disp,
                         int target_count, MPI_Datatype target_datatype, MPI_Op op,
                         MPI_Win win, MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    struct acc_call a = {origin_addr, origin_count, origin_datatype, result_addr, result_count,
                         result_datatype, target_rank, target_disp, target_count,
                         target_datatype, op, 1};
    return accumulate(&a, win, request, "MPI_Rget_accumulate");
}
#pragma weak MPI_Rget_accumulate = PMPI_Rget_accumulate

int PMPI_Rget_accumulate_c(const void *origin_addr, MPI_Count origin_count,
                           MPI_Datatype origin_datatype, void *result_addr,
                           MPI_Count result_count, MPI_Datatype result_datatype,
                           int target_rank, MPI_Aint target_disp, MPI_Count target_count,
                           MPI_Datatype target_datatype, MPI_Op op, MPI_Win win,
                           MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    struct acc_call a = {origin_addr, origin_count, origin_datatype, result_addr, result_count,
                         result_datatype, target_rank, target_disp, target_count,
                         target_datatype, op, 1};
    return accumulate(&a, win, request, "MPI_Rget_accumulate_c");
}
#pragma weak MPI_Rget_accumulate_c = PMPI_Rget_accumulate_c

/* The checked path of the single-element atomics: a valid window and a predefined datatype
 * (the standard restricts Fetch_and_op and Compare_and_swap to those). */
static int check_element_call(MPI_Win win, MPI_Datatype handle, struct rma_win **w,
                              struct dt_type **type, const char *function)
{
    int rc = begin_win(win, w, function);
    if (rc == MPI_SUCCESS)
        rc = check_type(*w, handle, type, "the", function);
    if (rc == MPI_SUCCESS && !(*type)->predefined)
        return win_error(*w, MPI_ERR_TYPE, function, "datatype %s is not predefined",
                         (*type)->name);
    return rc;
}

static NOINLINE_SLOW_PATH int fetch_and_op_checked(const void *origin_addr, void *result_addr,
                                                  MPI_Datatype datatype, int target_rank,
                                                  MPI_Aint target_disp, MPI_Op op, MPI_Win win)
{
    const char *function = "MPI_Fetch_and_op";
    struct rma_win *w;
    struct dt_type *t;
    int rc = check_element_call(win, datatype, &w, &t, function);
    if (rc != MPI_SUCCESS)
        return rc;
    struct acc_call a = {origin_addr, 1, datatype, result_addr, 1, datatype, target_rank,
                         target_disp, 1, datatype, op, 1};
    return accumulate(&a, win, NULL, function);
}

int PMPI_Fetch_and_op(const void *origin_addr, void *result_addr, MPI_Datatype datatype,
                      int target_rank, MPI_Aint target_disp, MPI_Op op, MPI_Win win)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    struct rma_win *w = fast_win(win, target_rank);
    struct dt_type *t = dt_from_handle(datatype);
    struct coll_op *o = coll_op_from_handle(op);
    if (w && t && t->predefined && o &&
        rma_fetch_and_op_fast(w, origin_addr, result_addr, t, target_rank, target_disp, o))
        return MPI_SUCCESS;
    return fetch_and_op_checked(origin_addr, result_addr, datatype, target_rank, target_disp,
                                op, win);
}
#pragma weak MPI_Fetch_and_op = PMPI_Fetch_and_op

static NOINLINE_SLOW_PATH int
compare_and_swap_checked(const void *origin_addr, const void *compare_addr, void *result_addr,
                         MPI_Datatype datatype, int target_rank, MPI_Aint target_disp,
                         MPI_Win win)
{
    const char *function = "MPI_Compare_and_swap";
    struct rma_win *w;
    struct dt_type *t;
    int rc = check_element_call(win, datatype, &w, &t, function);
    if (rc != MPI_SUCCESS)
        return rc;
    if (rma_check_cas_type(t) != MPI_SUCCESS)
        return win_error(w, MPI_ERR_TYPE, function,
                         "%s is not an integer, logical or byte type", t->name);
    if ((rc = check_rank(w, target_rank, function)) != MPI_SUCCESS ||
        target_rank == MPI_PROC_NULL)
        return rc;
    if ((rc = check_access(w, target_rank, target_disp, 1, t, function)) != MPI_SUCCESS)
        return rc;
    rc = rma_compare_and_swap(w, origin_addr, compare_addr, result_addr, t, target_rank,
                              target_disp);
    return rc == MPI_SUCCESS ? rc : op_failed(w, rc, target_rank, function);
}

int PMPI_Compare_and_swap(const void *origin_addr, const void *compare_addr, void *result_addr,
                          MPI_Datatype datatype, int target_rank, MPI_Aint target_disp,
                          MPI_Win win)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    struct rma_win *w = fast_win(win, target_rank);
    struct dt_type *t = dt_from_handle(datatype);
    if (w && t && t->predefined &&
        rma_compare_and_swap_fast(w, origin_addr, compare_addr, result_addr, t, target_rank,
                                  target_disp))
        return MPI_SUCCESS;
    return compare_and_swap_checked(origin_addr, compare_addr, result_addr, datatype,
                                    target_rank, target_disp, win);
}
#pragma weak MPI_Compare_and_swap = PMPI_Compare_and_swap

/* ---- synchronization ---------------------------------------------------------------------- */

int PMPI_Win_fence(int assert, MPI_Win win)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    const char *function = "MPI_Win_fence";
    struct rma_win *w;
    int rc = begin_win(win, &w, function);
    if (rc == MPI_SUCCESS)
        rc = check_assert(w, assert,
                          MPI_MODE_NOSTORE | MPI_MODE_NOPUT | MPI_MODE_NOPRECEDE |
                              MPI_MODE_NOSUCCEED,
                          function);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = rma_fence(w, assert);
    if (rc == MPI_ERR_RMA_SYNC)
        return win_error(w, rc, function,
                         "a lock, lock_all or post/start epoch is open on this window");
    if (rc != MPI_SUCCESS)
        return win_error(w, rc, function, "barrier failed: %s", core_error_string(rc));
    return MPI_SUCCESS;
}
#pragma weak MPI_Win_fence = PMPI_Win_fence

static int begin_group_sync(MPI_Group group, int assert, int allowed, MPI_Win win,
                            struct rma_win **w, struct core_group **g, const char *function)
{
    int rc = begin_win(win, w, function);
    if (rc != MPI_SUCCESS)
        return rc;
    *g = core_group_from_handle(group);
    if (!*g)
        return win_error(*w, MPI_ERR_GROUP, function, "invalid group%s",
                         group == MPI_GROUP_NULL ? " MPI_GROUP_NULL" : "");
    return check_assert(*w, assert, allowed, function);
}

/* The result of opening a post/start epoch; `busy` says which epoch was in the way. */
static int group_epoch_opened(struct rma_win *w, int rc, const char *busy,
                              const char *function)
{
    if (rc == MPI_ERR_GROUP)
        return win_error(w, rc, function, "the group has processes outside the window");
    if (rc != MPI_SUCCESS)
        return win_error(w, rc, function, "%s", busy);
    return MPI_SUCCESS;
}

int PMPI_Win_post(MPI_Group group, int assert, MPI_Win win)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    const char *function = "MPI_Win_post";
    struct rma_win *w;
    struct core_group *g;
    int rc = begin_group_sync(group, assert, MPI_MODE_NOCHECK | MPI_MODE_NOSTORE | MPI_MODE_NOPUT,
                              win, &w, &g, function);
    if (rc != MPI_SUCCESS)
        return rc;
    return group_epoch_opened(w, rma_post(w, g, assert),
                              "an exposure epoch is already open (missing MPI_Win_wait/test) "
                              "or a fence epoch is active",
                              function);
}
#pragma weak MPI_Win_post = PMPI_Win_post

int PMPI_Win_start(MPI_Group group, int assert, MPI_Win win)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    const char *function = "MPI_Win_start";
    struct rma_win *w;
    struct core_group *g;
    int rc = begin_group_sync(group, assert, MPI_MODE_NOCHECK, win, &w, &g, function);
    if (rc != MPI_SUCCESS)
        return rc;
    return group_epoch_opened(w, rma_start(w, g, assert),
                              "an access epoch is already open on this window", function);
}
#pragma weak MPI_Win_start = PMPI_Win_start

/* Calls that close an epoch and take only the window: the one failure below is that no such
 * epoch is open, which `missing` describes. */
static int close_epoch(MPI_Win win, int (*end_epoch)(struct rma_win *), const char *missing,
                       const char *function)
{
    struct rma_win *w;
    int rc = begin_win(win, &w, function);
    if (rc == MPI_SUCCESS && (rc = end_epoch(w)) != MPI_SUCCESS)
        return win_error(w, rc, function, "%s", missing);
    return rc;
}

int PMPI_Win_complete(MPI_Win win)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return close_epoch(win, rma_complete, "no access epoch was started by MPI_Win_start",
                       "MPI_Win_complete");
}
#pragma weak MPI_Win_complete = PMPI_Win_complete

int PMPI_Win_wait(MPI_Win win)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return close_epoch(win, rma_wait, "no exposure epoch was started by MPI_Win_post",
                       "MPI_Win_wait");
}
#pragma weak MPI_Win_wait = PMPI_Win_wait

int PMPI_Win_test(MPI_Win win, int *flag)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    const char *function = "MPI_Win_test";
    struct rma_win *w;
    int rc = begin_win_query(win, flag, "flag", &w, function);
    if (rc == MPI_SUCCESS && (rc = rma_test(w, flag)) != MPI_SUCCESS)
        return win_error(w, rc, function, "no exposure epoch was started by MPI_Win_post");
    return rc;
}
#pragma weak MPI_Win_test = PMPI_Win_test

static NOINLINE_SLOW_PATH int lock_checked(int lock_type, int rank, int assert, MPI_Win win)
{
    const char *function = "MPI_Win_lock";
    struct rma_win *w;
    int rc = begin_win(win, &w, function);
    if (rc != MPI_SUCCESS)
        return rc;
    if (lock_type != MPI_LOCK_EXCLUSIVE && lock_type != MPI_LOCK_SHARED)
        return win_error(w, MPI_ERR_LOCKTYPE, function,
                         "invalid lock type %d (MPI_LOCK_EXCLUSIVE or MPI_LOCK_SHARED)",
                         lock_type);
    if ((rc = check_rank(w, rank, function)) ||
        (rc = check_assert(w, assert, MPI_MODE_NOCHECK, function)))
        return rc;
    if (rank == MPI_PROC_NULL)
        return MPI_SUCCESS;
    if ((rc = rma_lock(w, lock_type, rank, assert)) != MPI_SUCCESS)
        return win_error(w, rc, function,
                         "rank %d is already locked by this process, or a fence, post/start "
                         "or lock_all epoch is open",
                         rank);
    return MPI_SUCCESS;
}

/* Valid arguments go straight to rma_lock; whatever it refuses (it changes nothing then) and
 * every argument error take the checked path, which reports them. */
int PMPI_Win_lock(int lock_type, int rank, int assert, MPI_Win win)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    struct rma_win *w = fast_win(win, rank);
    if (w && (lock_type == MPI_LOCK_EXCLUSIVE || lock_type == MPI_LOCK_SHARED) &&
        (assert & ~MPI_MODE_NOCHECK) == 0 && rma_lock(w, lock_type, rank, assert) == MPI_SUCCESS)
        return MPI_SUCCESS;
    return lock_checked(lock_type, rank, assert, win);
}
#pragma weak MPI_Win_lock = PMPI_Win_lock

static NOINLINE_SLOW_PATH int unlock_checked(int rank, MPI_Win win)
{
    const char *function = "MPI_Win_unlock";
    struct rma_win *w;
    int rc = begin_win(win, &w, function);
    if (rc == MPI_SUCCESS)
        rc = check_rank(w, rank, function);
    if (rc != MPI_SUCCESS || rank == MPI_PROC_NULL)
        return rc;
    if ((rc = rma_unlock(w, rank)) != MPI_SUCCESS)
        return win_error(w, rc, function, "rank %d is not locked by this process", rank);
    return MPI_SUCCESS;
}

int PMPI_Win_unlock(int rank, MPI_Win win)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    struct rma_win *w = fast_win(win, rank);
    if (w && rma_unlock(w, rank) == MPI_SUCCESS)
        return MPI_SUCCESS;
    return unlock_checked(rank, win);
}
#pragma weak MPI_Win_unlock = PMPI_Win_unlock

int PMPI_Win_lock_all(int assert, MPI_Win win)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    const char *function = "MPI_Win_lock_all";
    struct rma_win *w;
    int rc = begin_win(win, &w, function);
    if (rc == MPI_SUCCESS)
        rc = check_assert(w, assert, MPI_MODE_NOCHECK, function);
    if (rc == MPI_SUCCESS && (rc = rma_lock_all(w, assert)) != MPI_SUCCESS)
        return win_error(w, rc, function, "another epoch is open on this window");
    return rc;
}
#pragma weak MPI_Win_lock_all = PMPI_Win_lock_all

int PMPI_Win_unlock_all(MPI_Win win)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return close_epoch(win, rma_unlock_all, "no epoch was started by MPI_Win_lock_all",
                       "MPI_Win_unlock_all");
}
#pragma weak MPI_Win_unlock_all = PMPI_Win_unlock_all

static NOINLINE_SLOW_PATH int flush_checked(int rank, MPI_Win win, int all,
                                           const char *function);

static int flush(int rank, MPI_Win win, int all, const char *function)
{
    struct rma_win *w = fast_win(win, all ? 0 : rank);
    if (w && rma_flush(w, all ? -1 : rank) == MPI_SUCCESS)
        return MPI_SUCCESS;
    return flush_checked(rank, win, all, function);
}

static int flush_checked(int rank, MPI_Win win, int all, const char *function)
{
    struct rma_win *w;
    int rc = begin_win(win, &w, function);
    if (rc == MPI_SUCCESS && !all)
        rc = check_rank(w, rank, function);
    if (rc != MPI_SUCCESS || (!all && rank == MPI_PROC_NULL))
        return rc;
    if ((rc = rma_flush(w, all ? -1 : rank)) != MPI_SUCCESS) {
        if (all)
            return win_error(w, rc, function, "no passive target epoch is open");
        return win_error(w, rc, function, "no passive target epoch to rank %d is open", rank);
    }
    return MPI_SUCCESS;
}

int PMPI_Win_flush(int rank, MPI_Win win)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return flush(rank, win, 0, "MPI_Win_flush");
}
#pragma weak MPI_Win_flush = PMPI_Win_flush

int PMPI_Win_flush_local(int rank, MPI_Win win)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return flush(rank, win, 0, "MPI_Win_flush_local");
}
#pragma weak MPI_Win_flush_local = PMPI_Win_flush_local

int PMPI_Win_flush_all(MPI_Win win)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return flush(0, win, 1, "MPI_Win_flush_all");
}
#pragma weak MPI_Win_flush_all = PMPI_Win_flush_all

int PMPI_Win_flush_local_all(MPI_Win win)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return flush(0, win, 1, "MPI_Win_flush_local_all");
}
#pragma weak MPI_Win_flush_local_all = PMPI_Win_flush_local_all

int PMPI_Win_sync(MPI_Win win)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    struct rma_win *w;
    int rc = begin_win(win, &w, "MPI_Win_sync");
    return rc == MPI_SUCCESS ? rma_sync(w) : rc;
}
#pragma weak MPI_Win_sync = PMPI_Win_sync

/* ---- group, name, attributes -------------------------------------------------------------- */

int PMPI_Win_get_group(MPI_Win win, MPI_Group *group)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    const char *function = "MPI_Win_get_group";
    struct rma_win *w;
    int rc = begin_win_query(win, group, "group", &w, function);
    if (rc != MPI_SUCCESS)
        return rc;
    struct core_group *g;
    if ((rc = core_group_of_comm(w->comm, &g)) != MPI_SUCCESS)
        return win_error(w, rc, function, "out of memory");
    *group = core_group_to_handle(g);
    return MPI_SUCCESS;
}
#pragma weak MPI_Win_get_group = PMPI_Win_get_group

int PMPI_Win_set_name(MPI_Win win, const char *win_name)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    struct rma_win *w;
    int rc = begin_win_query(win, win_name, "win_name", &w, "MPI_Win_set_name");
    if (rc != MPI_SUCCESS)
        return rc;
    size_t len = strnlen(win_name, MPI_MAX_OBJECT_NAME - 1);
    memcpy(w->name, win_name, len);
    w->name[len] = '\0';
    return MPI_SUCCESS;
}
#pragma weak MPI_Win_set_name = PMPI_Win_set_name

/* MPI-4.1: the null handle has a name too, for debugging output that prints any handle. */
static int null_win_name(char *win_name, int *resultlen, const char *function)
{
    int rc = mpi_check_initialized(function);
    if (rc == MPI_SUCCESS)
        rc = mpi_check_pointer(NULL, win_name, "win_name", function);
    if (rc == MPI_SUCCESS)
        rc = mpi_check_pointer(NULL, resultlen, "resultlen", function);
    if (rc == MPI_SUCCESS)
        *resultlen = snprintf(win_name, MPI_MAX_OBJECT_NAME, "MPI_WIN_NULL");
    return rc;
}

int PMPI_Win_get_name(MPI_Win win, char *win_name, int *resultlen)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    const char *function = "MPI_Win_get_name";
    if (win == MPI_WIN_NULL)
        return null_win_name(win_name, resultlen, function);
    struct rma_win *w;
    int rc = begin_win_query(win, win_name, "win_name", &w, function);
    if (rc == MPI_SUCCESS)
        rc = check_pointer(w, resultlen, "resultlen", function);
    if (rc != MPI_SUCCESS)
        return rc;
    size_t len = strnlen(w->name, MPI_MAX_OBJECT_NAME - 1);
    memcpy(win_name, w->name, len);
    win_name[len] = '\0';
    *resultlen = (int)len;
    return MPI_SUCCESS;
}
#pragma weak MPI_Win_get_name = PMPI_Win_get_name

static int is_predefined_win_key(int keyval)
{
    return keyval == MPI_WIN_BASE || keyval == MPI_WIN_SIZE || keyval == MPI_WIN_DISP_UNIT ||
           keyval == MPI_WIN_CREATE_FLAVOR || keyval == MPI_WIN_MODEL;
}

static int attr_error(struct rma_win *w, int rc, int keyval, const char *function)
{
    if (rc == MPI_ERR_KEYVAL)
        return win_error(w, rc, function, "invalid window keyval %d%s", keyval,
                         is_predefined_win_key(keyval) ? " (predefined: read-only)" : "");
    return win_error(w, rc, function, "attribute callback failed (code %d)", rc);
}

/* Set and delete: a valid window and a keyval that is not one of the read-only predefined
 * ones. */
static int begin_attr_change(MPI_Win win, int keyval, struct rma_win **w, const char *function)
{
    int rc = begin_win(win, w, function);
    if (rc == MPI_SUCCESS && is_predefined_win_key(keyval))
        return attr_error(*w, MPI_ERR_KEYVAL, keyval, function);
    return rc;
}

int PMPI_Win_set_attr(MPI_Win win, int win_keyval, void *attribute_val)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    const char *function = "MPI_Win_set_attr";
    struct rma_win *w;
    int rc = begin_attr_change(win, win_keyval, &w, function);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = core_attr_set(CORE_ATTR_WIN, &w->attributes, (void *)win, win_keyval, attribute_val);
    return rc == MPI_SUCCESS ? rc : attr_error(w, rc, win_keyval, function);
}
#pragma weak MPI_Win_set_attr = PMPI_Win_set_attr

int PMPI_Win_get_attr(MPI_Win win, int win_keyval, void *attribute_val, int *flag)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    const char *function = "MPI_Win_get_attr";
    struct rma_win *w;
    int rc = begin_win_query(win, attribute_val, "attribute_val", &w, function);
    if (rc == MPI_SUCCESS)
        rc = check_pointer(w, flag, "flag", function);
    if (rc != MPI_SUCCESS)
        return rc;
    *flag = 1;
    switch (win_keyval) {
    case MPI_WIN_BASE: /* the base itself, not a pointer to it (MPI-4.1 12.2.6) */
        *(void **)attribute_val = w->attr_base;
        return MPI_SUCCESS;
    case MPI_WIN_SIZE:
        *(MPI_Aint **)attribute_val = &w->attr_size;
        return MPI_SUCCESS;
    case MPI_WIN_DISP_UNIT:
        *(int **)attribute_val = &w->attr_disp_unit;
        return MPI_SUCCESS;
    case MPI_WIN_CREATE_FLAVOR:
        *(int **)attribute_val = &w->attr_flavor;
        return MPI_SUCCESS;
    case MPI_WIN_MODEL:
        *(int **)attribute_val = &w->attr_model;
        return MPI_SUCCESS;
    default:
        break;
    }
    rc = core_attr_get(CORE_ATTR_WIN, w->attributes, win_keyval, (void **)attribute_val, flag);
    return rc == MPI_SUCCESS ? rc : attr_error(w, rc, win_keyval, function);
}
#pragma weak MPI_Win_get_attr = PMPI_Win_get_attr

int PMPI_Win_delete_attr(MPI_Win win, int win_keyval)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    const char *function = "MPI_Win_delete_attr";
    struct rma_win *w;
    int rc = begin_attr_change(win, win_keyval, &w, function);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = core_attr_delete(CORE_ATTR_WIN, &w->attributes, (void *)win, win_keyval);
    return rc == MPI_SUCCESS ? rc : attr_error(w, rc, win_keyval, function);
}
#pragma weak MPI_Win_delete_attr = PMPI_Win_delete_attr

/* ---- error handlers and info -------------------------------------------------------------- */

int PMPI_Win_create_errhandler(MPI_Win_errhandler_function *win_errhandler_fn,
                               MPI_Errhandler *errhandler)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    const char *function = "MPI_Win_create_errhandler";
    int rc = mpi_check_initialized(function);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!win_errhandler_fn || !errhandler)
        return core_error_raise(NULL, MPI_ERR_ARG, function, "NULL function or handle pointer");
    struct core_errhandler *eh = calloc(1, sizeof(*eh));
    if (!eh)
        return core_error_raise(NULL, MPI_ERR_NO_MEM, function, "out of memory");
    eh->kind = CORE_ERRHANDLER_USER_WIN;
    eh->refcount = 1;
    eh->win_fn = win_errhandler_fn;
    *errhandler = core_errhandler_to_handle(eh);
    return MPI_SUCCESS;
}
#pragma weak MPI_Win_create_errhandler = PMPI_Win_create_errhandler

int PMPI_Win_set_errhandler(MPI_Win win, MPI_Errhandler errhandler)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    const char *function = "MPI_Win_set_errhandler";
    struct rma_win *w;
    int rc = begin_win(win, &w, function);
    if (rc != MPI_SUCCESS)
        return rc;
    struct core_errhandler *eh = core_errhandler_from_handle(errhandler);
    if (!eh)
        return win_error(w, MPI_ERR_ARG, function, "invalid error handler");
    if (!eh->predefined && eh->kind != CORE_ERRHANDLER_USER_WIN)
        return win_error(w, MPI_ERR_ARG, function,
                         "the error handler was not made by MPI_Win_create_errhandler");
    core_errhandler_retain(eh);
    core_errhandler_release(w->errhandler);
    w->errhandler = eh;
    return MPI_SUCCESS;
}
#pragma weak MPI_Win_set_errhandler = PMPI_Win_set_errhandler

int PMPI_Win_get_errhandler(MPI_Win win, MPI_Errhandler *errhandler)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    struct rma_win *w;
    int rc = begin_win_query(win, errhandler, "errhandler", &w, "MPI_Win_get_errhandler");
    if (rc != MPI_SUCCESS)
        return rc;
    core_errhandler_retain(w->errhandler); /* freed by the caller's MPI_Errhandler_free */
    *errhandler = core_errhandler_to_handle(w->errhandler);
    return MPI_SUCCESS;
}
#pragma weak MPI_Win_get_errhandler = PMPI_Win_get_errhandler

int PMPI_Win_call_errhandler(MPI_Win win, int errorcode)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    const char *function = "MPI_Win_call_errhandler";
    struct rma_win *w;
    int rc = begin_win(win, &w, function);
    if (rc != MPI_SUCCESS)
        return rc;
    const char *text = core_error_string(errorcode);
    win_error(w, errorcode, function, "%s", text ? text : "user error code");
    return MPI_SUCCESS; /* the handler returned */
}
#pragma weak MPI_Win_call_errhandler = PMPI_Win_call_errhandler

int PMPI_Win_set_info(MPI_Win win, MPI_Info info)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    const char *function = "MPI_Win_set_info";
    struct rma_win *w;
    int rc = begin_win(win, &w, function);
    if (rc != MPI_SUCCESS)
        return rc;
    struct core_info *i = core_info_from_handle(info);
    if (!i)
        return win_error(w, MPI_ERR_INFO, function, "invalid info object%s",
                         info == MPI_INFO_NULL ? " MPI_INFO_NULL" : "");
    if ((rc = rma_win_set_info(w, i)) != MPI_SUCCESS)
        return win_error(w, rc, function, "out of memory");
    return MPI_SUCCESS;
}
#pragma weak MPI_Win_set_info = PMPI_Win_set_info

int PMPI_Win_get_info(MPI_Win win, MPI_Info *info_used)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    const char *function = "MPI_Win_get_info";
    struct rma_win *w;
    int rc = begin_win_query(win, info_used, "info_used", &w, function);
    if (rc != MPI_SUCCESS)
        return rc;
    struct core_info *copy;
    if ((rc = rma_win_get_info(w, &copy)) != MPI_SUCCESS)
        return win_error(w, rc, function, "out of memory");
    *info_used = core_info_to_handle(copy);
    return MPI_SUCCESS;
}
#pragma weak MPI_Win_get_info = PMPI_Win_get_info
