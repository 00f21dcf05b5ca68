/* coll.c - API: collective operations in their blocking, nonblocking (MPI_I...) and persistent
 * (..._init) forms, on intra- and intercommunicators. Each collective has one checking
 * function that validates the arguments in the standard's order and fills a struct coll_args;
 * the three forms differ only in how src/coll runs it (coll_run / coll_start / coll_init).
 * Arguments the standard declares insignificant on a rank (the receive side of a gather on a
 * non-root, everything on MPI_PROC_NULL ranks of an intercommunicator) are not checked. */
#include <stdlib.h>

#include "coll/coll.h"
#include "coll/op.h"
#include "core/request.h"
#include "mpi/api.h"
#include "topo/topo.h"

enum mode { BLOCKING, NONBLOCKING, PERSISTENT };

/* Vector arguments widened to MPI_Count / MPI_Aint (the int API's arrays are copied). */
struct vec {
    const MPI_Count *counts;
    const MPI_Aint *displs;
};

static int raised(struct core_comm *comm, int rc, const char *function)
{
    if (rc == MPI_SUCCESS)
        return rc;
    return core_error_raise(comm, rc, function, "%s", core_error_string(rc));
}

/* ------------------------------------------------------------------------------------------ */
/* Checks shared by the collectives.                                                            */

static int check_comm(MPI_Comm handle, enum mode mode, MPI_Request *request,
                      struct coll_args *a, const char *function)
{
    int rc;
    if ((rc = mpi_check_initialized(function)) ||
        (rc = mpi_get_comm(handle, &a->comm, function)))
        return rc;
    if (mode != BLOCKING && !request)
        return core_error_raise(a->comm, MPI_ERR_ARG, function, "request argument is NULL");
    return MPI_SUCCESS;
}

static int check_intra(struct coll_args *a, const char *function)
{
    if (!a->comm->is_inter)
        return MPI_SUCCESS;
    return core_error_raise(a->comm, MPI_ERR_COMM, function,
                            "not defined on an intercommunicator");
}

/* Intracommunicators: 0..size-1. Intercommunicators: MPI_ROOT (the root itself), MPI_PROC_NULL
 * (the rest of the root's group) or a rank of the remote group. */
static int check_root(struct coll_args *a, int root, const char *function)
{
    struct core_comm *comm = a->comm;
    a->root = root;
    if (comm->is_inter) {
        if (root == MPI_ROOT || root == MPI_PROC_NULL || (root >= 0 && root < comm->remote_size))
            return MPI_SUCCESS;
        return core_error_raise(comm, MPI_ERR_ROOT, function,
                                "invalid root %d (remote group size %d; MPI_ROOT or "
                                "MPI_PROC_NULL in the root's group)",
                                root, comm->remote_size);
    }
    if (root >= 0 && root < comm->size)
        return MPI_SUCCESS;
    return core_error_raise(comm, MPI_ERR_ROOT, function,
                            "invalid root %d (communicator size %d)", root, comm->size);
}

/* Do this rank's send / receive arguments of a rooted collective matter? */
static int is_root(const struct coll_args *a)
{
    return a->comm->is_inter ? a->root == MPI_ROOT : a->comm->rank == a->root;
}

static int is_leaf(const struct coll_args *a)
{
    return a->comm->is_inter ? a->root >= 0 : a->comm->rank != a->root;
}

/* count, datatype, buffer of one side of a transfer (MPI_IN_PLACE is checked by callers) */
static int check_data(struct coll_args *a, const void *buf, MPI_Count count,
                      MPI_Datatype datatype, struct dt_type **type, const char *function)
{
    int rc;
    if ((rc = mpi_check_count(a->comm, count, function)) ||
        (rc = mpi_get_type(a->comm, datatype, type, function)))
        return rc;
    if (buf == MPI_IN_PLACE)
        return MPI_SUCCESS;
    return mpi_check_buffer(a->comm, buf, count, *type, function);
}

static int check_type_only(struct coll_args *a, MPI_Datatype datatype, struct dt_type **type,
                           const char *function)
{
    return mpi_get_type(a->comm, datatype, type, function);
}

static int check_op(struct coll_args *a, MPI_Op handle, const char *function)
{
    a->op = coll_op_from_handle(handle);
    if (!a->op)
        return core_error_raise(a->comm, MPI_ERR_OP, function, "invalid operation%s",
                                handle == MPI_OP_NULL ? " MPI_OP_NULL" : "");
    if (coll_op_check_reduction(a->op, a->type) != MPI_SUCCESS)
        return core_error_raise(a->comm, MPI_ERR_OP, function,
                                "%s is not defined for datatype %s", coll_op_name(a->op),
                                a->type->name[0] ? a->type->name : "(unnamed derived type)");
    return MPI_SUCCESS;
}

static int in_place_error(struct coll_args *a, const char *which, const char *function)
{
    return core_error_raise(a->comm, MPI_ERR_BUFFER, function, "%s cannot be MPI_IN_PLACE%s",
                            which, a->comm->is_inter ? " on an intercommunicator" : " here");
}

/* The same buffer passed as both send and receive buffer (instead of MPI_IN_PLACE). */
static int check_alias(struct coll_args *a, const void *sendbuf, const void *recvbuf,
                       MPI_Count count, const char *function)
{
    if (sendbuf != recvbuf || sendbuf == NULL || count == 0)
        return MPI_SUCCESS;
    return core_error_raise(a->comm, MPI_ERR_BUFFER, function,
                            "sendbuf and recvbuf are the same buffer (use MPI_IN_PLACE)");
}

static int check_counts(struct coll_args *a, const MPI_Count *counts, int n, const char *which,
                        const char *function)
{
    if (n > 0 && !counts)
        return core_error_raise(a->comm, MPI_ERR_ARG, function, "%s is NULL", which);
    for (int i = 0; i < n; i++)
        if (counts[i] < 0)
            return core_error_raise(a->comm, MPI_ERR_COUNT, function,
                                    "invalid count %s[%d] = %lld", which, i,
                                    (long long)counts[i]);
    return MPI_SUCCESS;
}

static int check_displs(struct coll_args *a, const MPI_Aint *displs, int n, const char *which,
                        const char *function)
{
    if (n > 0 && !displs)
        return core_error_raise(a->comm, MPI_ERR_ARG, function, "%s is NULL", which);
    return MPI_SUCCESS;
}

/* Group sizes the arrays of v/w collectives are indexed by. */
static int peers(const struct coll_args *a)
{
    return core_comm_peer_count(a->comm);
}

/* Run in the requested form; the request handle is written only on success. */
static int run(struct coll_args *a, enum mode mode, MPI_Request *request, const char *function)
{
    struct core_request *r = NULL;
    int rc;
    switch (mode) {
    case BLOCKING:
        rc = coll_run(a);
        break;
    case NONBLOCKING:
        rc = coll_start(a, &r);
        break;
    default:
        rc = coll_init(a, &r);
        break;
    }
    if (rc != MPI_SUCCESS)
        return raised(a->comm, rc, function);
    if (mode != BLOCKING)
        *request = core_request_to_handle(r);
    return MPI_SUCCESS;
}

/* int arrays of the classic API -> MPI_Count / MPI_Aint copies (freed by the caller). */
static int widen(const int *counts, const int *displs, int n, struct vec *out, void **heap)
{
    out->counts = NULL;
    out->displs = NULL;
    *heap = NULL;
    if (n <= 0 || (!counts && !displs))
        return MPI_SUCCESS;
    char *mem = malloc((size_t)n * (sizeof(MPI_Count) + sizeof(MPI_Aint)));
    if (!mem)
        return MPI_ERR_NO_MEM;
    MPI_Count *c = (MPI_Count *)mem;
    MPI_Aint *d = (MPI_Aint *)(mem + (size_t)n * sizeof(MPI_Count));
    for (int i = 0; i < n; i++) {
        if (counts)
            c[i] = counts[i];
        if (displs)
            d[i] = displs[i];
    }
    out->counts = counts ? c : NULL;
    out->displs = displs ? d : NULL;
    *heap = mem;
    return MPI_SUCCESS;
}

/* Size of the vectors of a v/w collective before the communicator is checked. */
static int handle_peers(MPI_Comm handle)
{
    struct core_comm *comm = core_comm_from_handle(handle);
    return comm ? core_comm_peer_count(comm) : 0;
}

static int handle_local_size(MPI_Comm handle)
{
    struct core_comm *comm = core_comm_from_handle(handle);
    return comm ? comm->size : 0;
}

/* ------------------------------------------------------------------------------------------ */
/* Barrier                                                                                      */

static int do_barrier(MPI_Comm comm, enum mode mode, MPI_Request *request, const char *function)
{
    struct coll_args a = {.kind = COLL_BARRIER};
    int rc = check_comm(comm, mode, request, &a, function);
    return rc != MPI_SUCCESS ? rc : run(&a, mode, request, function);
}

int PMPI_Barrier(MPI_Comm comm)
{
    return do_barrier(comm, BLOCKING, NULL, "MPI_Barrier");
}
#pragma weak MPI_Barrier = PMPI_Barrier

int PMPI_Ibarrier(MPI_Comm comm, MPI_Request *request)
{
    return do_barrier(comm, NONBLOCKING, request, "MPI_Ibarrier");
}
#pragma weak MPI_Ibarrier = PMPI_Ibarrier

int PMPI_Barrier_init(MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    (void)info;
    return do_barrier(comm, PERSISTENT, request, "MPI_Barrier_init");
}
#pragma weak MPI_Barrier_init = PMPI_Barrier_init

/* ------------------------------------------------------------------------------------------ */
/* Bcast                                                                                        */

static int do_bcast(void *buf, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm,
                    enum mode mode, MPI_Request *request, const char *function)
{
    struct coll_args a = {.kind = COLL_BCAST, .recvbuf = buf, .count = count};
    int rc;
    if ((rc = check_comm(comm, mode, request, &a, function)) ||
        (rc = check_root(&a, root, function)))
        return rc;
    if (a.comm->is_inter && root == MPI_PROC_NULL)
        return run(&a, mode, request, function);
    if ((rc = check_data(&a, buf, count, datatype, &a.type, function)))
        return rc;
    if (buf == MPI_IN_PLACE)
        return in_place_error(&a, "buffer", function);
    return run(&a, mode, request, function);
}

int PMPI_Bcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm)
{
    return do_bcast(buffer, count, datatype, root, comm, BLOCKING, NULL, "MPI_Bcast");
}
#pragma weak MPI_Bcast = PMPI_Bcast

int PMPI_Ibcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
                MPI_Request *request)
{
    return do_bcast(buffer, count, datatype, root, comm, NONBLOCKING, request, "MPI_Ibcast");
}
#pragma weak MPI_Ibcast = PMPI_Ibcast

int PMPI_Bcast_init(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
                    MPI_Info info, MPI_Request *request)
{
    (void)info;
    return do_bcast(buffer, count, datatype, root, comm, PERSISTENT, request, "MPI_Bcast_init");
}
#pragma weak MPI_Bcast_init = PMPI_Bcast_init

/* ------------------------------------------------------------------------------------------ */
/* Reduce, Allreduce, Reduce_scatter(_block), Scan, Exscan                                      */

static int do_reduce(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                     MPI_Op op, int root, MPI_Comm comm, enum mode mode, MPI_Request *request,
                     const char *function)
{
    struct coll_args a = {.kind = COLL_REDUCE, .sendbuf = sendbuf, .recvbuf = recvbuf,
                          .count = count};
    int rc;
    if ((rc = check_comm(comm, mode, request, &a, function)) ||
        (rc = check_root(&a, root, function)))
        return rc;
    if (a.comm->is_inter && root == MPI_PROC_NULL)
        return run(&a, mode, request, function);
    if ((rc = mpi_check_count(a.comm, count, function)) ||
        (rc = check_type_only(&a, datatype, &a.type, function)) ||
        (rc = check_op(&a, op, function)))
        return rc;
    if (recvbuf == MPI_IN_PLACE)
        return in_place_error(&a, "recvbuf", function);
    if (sendbuf == MPI_IN_PLACE && (a.comm->is_inter || !is_root(&a)))
        return in_place_error(&a, "sendbuf", function);
    if (is_leaf(&a) || !a.comm->is_inter)
        if ((rc = check_data(&a, sendbuf, count, datatype, &a.type, function)))
            return rc;
    if (is_root(&a)) {
        if ((rc = check_data(&a, recvbuf, count, datatype, &a.type, function)) ||
            (rc = check_alias(&a, sendbuf, recvbuf, count, function)))
            return rc;
    }
    return run(&a, mode, request, function);
}

int PMPI_Reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                int root, MPI_Comm comm)
{
    return do_reduce(sendbuf, recvbuf, count, datatype, op, root, comm, BLOCKING, NULL,
                     "MPI_Reduce");
}
#pragma weak MPI_Reduce = PMPI_Reduce

int PMPI_Ireduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                 MPI_Op op, int root, MPI_Comm comm, MPI_Request *request)
{
    return do_reduce(sendbuf, recvbuf, count, datatype, op, root, comm, NONBLOCKING, request,
                     "MPI_Ireduce");
}
#pragma weak MPI_Ireduce = PMPI_Ireduce

int PMPI_Reduce_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                     MPI_Op op, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    (void)info;
    return do_reduce(sendbuf, recvbuf, count, datatype, op, root, comm, PERSISTENT, request,
                     "MPI_Reduce_init");
}
#pragma weak MPI_Reduce_init = PMPI_Reduce_init

/* Allreduce, Scan, Exscan: every rank sends and receives count elements; MPI_IN_PLACE as
 * sendbuf on intracommunicators. */
static int do_allreduce_like(enum coll_kind kind, const void *sendbuf, void *recvbuf,
                             MPI_Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                             enum mode mode, MPI_Request *request, const char *function)
{
    struct coll_args a = {.kind = kind, .sendbuf = sendbuf, .recvbuf = recvbuf, .count = count};
    int rc;
    if ((rc = check_comm(comm, mode, request, &a, function)))
        return rc;
    if (kind != COLL_ALLREDUCE && (rc = check_intra(&a, function)))
        return rc;
    if ((rc = check_data(&a, sendbuf, count, datatype, &a.type, function)) ||
        (rc = check_data(&a, recvbuf, count, datatype, &a.type, function)) ||
        (rc = check_op(&a, op, function)))
        return rc;
    if (recvbuf == MPI_IN_PLACE)
        return in_place_error(&a, "recvbuf", function);
    if (sendbuf == MPI_IN_PLACE && a.comm->is_inter)
        return in_place_error(&a, "sendbuf", function);
    if ((rc = check_alias(&a, sendbuf, recvbuf, count, function)))
        return rc;
    return run(&a, mode, request, function);
}

int PMPI_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                   MPI_Op op, MPI_Comm comm)
{
    return do_allreduce_like(COLL_ALLREDUCE, sendbuf, recvbuf, count, datatype, op, comm,
                             BLOCKING, NULL, "MPI_Allreduce");
}
#pragma weak MPI_Allreduce = PMPI_Allreduce

int PMPI_Iallreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                    MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    return do_allreduce_like(COLL_ALLREDUCE, sendbuf, recvbuf, count, datatype, op, comm,
                             NONBLOCKING, request, "MPI_Iallreduce");
}
#pragma weak MPI_Iallreduce = PMPI_Iallreduce

int PMPI_Allreduce_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                        MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    (void)info;
    return do_allreduce_like(COLL_ALLREDUCE, sendbuf, recvbuf, count, datatype, op, comm,
                             PERSISTENT, request, "MPI_Allreduce_init");
}
#pragma weak MPI_Allreduce_init = PMPI_Allreduce_init

int PMPI_Scan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
              MPI_Comm comm)
{
    return do_allreduce_like(COLL_SCAN, sendbuf, recvbuf, count, datatype, op, comm, BLOCKING,
                             NULL, "MPI_Scan");
}
#pragma weak MPI_Scan = PMPI_Scan

int PMPI_Iscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
               MPI_Comm comm, MPI_Request *request)
{
    return do_allreduce_like(COLL_SCAN, sendbuf, recvbuf, count, datatype, op, comm,
                             NONBLOCKING, request, "MPI_Iscan");
}
#pragma weak MPI_Iscan = PMPI_Iscan

int PMPI_Scan_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                   MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    (void)info;
    return do_allreduce_like(COLL_SCAN, sendbuf, recvbuf, count, datatype, op, comm, PERSISTENT,
                             request, "MPI_Scan_init");
}
#pragma weak MPI_Scan_init = PMPI_Scan_init

int PMPI_Exscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                MPI_Comm comm)
{
    return do_allreduce_like(COLL_EXSCAN, sendbuf, recvbuf, count, datatype, op, comm, BLOCKING,
                             NULL, "MPI_Exscan");
}
#pragma weak MPI_Exscan = PMPI_Exscan

int PMPI_Iexscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                 MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    return do_allreduce_like(COLL_EXSCAN, sendbuf, recvbuf, count, datatype, op, comm,
                             NONBLOCKING, request, "MPI_Iexscan");
}
#pragma weak MPI_Iexscan = PMPI_Iexscan

int PMPI_Exscan_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                     MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    (void)info;
    return do_allreduce_like(COLL_EXSCAN, sendbuf, recvbuf, count, datatype, op, comm,
                             PERSISTENT, request, "MPI_Exscan_init");
}
#pragma weak MPI_Exscan_init = PMPI_Exscan_init

/* Reduce_scatter_block: recvcount per rank; Reduce_scatter: recvcounts[local size]. */
static int do_reduce_scatter(enum coll_kind kind, const void *sendbuf, void *recvbuf,
                             MPI_Count recvcount, const MPI_Count *recvcounts,
                             MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, enum mode mode,
                             MPI_Request *request, const char *function)
{
    struct coll_args a = {.kind = kind, .sendbuf = sendbuf, .recvbuf = recvbuf,
                          .count = recvcount, .recvcounts = recvcounts};
    int rc;
    if ((rc = check_comm(comm, mode, request, &a, function)))
        return rc;
    int n = a.comm->size;
    MPI_Count mine = recvcount, total = recvcount * n;
    if (kind == COLL_REDUCE_SCATTER) {
        if ((rc = check_counts(&a, recvcounts, n, "recvcounts", function)))
            return rc;
        total = 0;
        for (int i = 0; i < n; i++)
            total += recvcounts[i];
        mine = recvcounts[a.comm->rank];
    } else if ((rc = mpi_check_count(a.comm, recvcount, function))) {
        return rc;
    }
    if ((rc = check_type_only(&a, datatype, &a.type, function)) ||
        (rc = check_op(&a, op, function)) ||
        (rc = check_data(&a, sendbuf, total, datatype, &a.type, function)) ||
        (rc = check_data(&a, recvbuf, mine, datatype, &a.type, function)))
        return rc;
    if (recvbuf == MPI_IN_PLACE)
        return in_place_error(&a, "recvbuf", function);
    if (sendbuf == MPI_IN_PLACE && a.comm->is_inter)
        return in_place_error(&a, "sendbuf", function);
    if ((rc = check_alias(&a, sendbuf, recvbuf, total, function)))
        return rc;
    return run(&a, mode, request, function);
}

static int do_reduce_scatter_int(const void *sendbuf, void *recvbuf, const int recvcounts[],
                                 MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                                 enum mode mode, MPI_Request *request, const char *function)
{
    struct vec v;
    void *heap;
    if (widen(recvcounts, NULL, handle_local_size(comm), &v, &heap) != MPI_SUCCESS)
        return core_error_raise(core_comm_from_handle(comm), MPI_ERR_NO_MEM, function,
                                "out of memory");
    int rc = do_reduce_scatter(COLL_REDUCE_SCATTER, sendbuf, recvbuf, 0, v.counts, datatype, op,
                               comm, mode, request, function);
    free(heap);
    return rc;
}

int PMPI_Reduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
                        MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    return do_reduce_scatter_int(sendbuf, recvbuf, recvcounts, datatype, op, comm, BLOCKING,
                                 NULL, "MPI_Reduce_scatter");
}
#pragma weak MPI_Reduce_scatter = PMPI_Reduce_scatter

int PMPI_Ireduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
                         MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    return do_reduce_scatter_int(sendbuf, recvbuf, recvcounts, datatype, op, comm, NONBLOCKING,
                                 request, "MPI_Ireduce_scatter");
}
#pragma weak MPI_Ireduce_scatter = PMPI_Ireduce_scatter

int PMPI_Reduce_scatter_init(const void *sendbuf, void *recvbuf, const int recvcounts[],
                             MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
                             MPI_Request *request)
{
    (void)info;
    return do_reduce_scatter_int(sendbuf, recvbuf, recvcounts, datatype, op, comm, PERSISTENT,
                                 request, "MPI_Reduce_scatter_init");
}
#pragma weak MPI_Reduce_scatter_init = PMPI_Reduce_scatter_init

int PMPI_Reduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount,
                              MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    return do_reduce_scatter(COLL_REDUCE_SCATTER_BLOCK, sendbuf, recvbuf, recvcount, NULL,
                             datatype, op, comm, BLOCKING, NULL, "MPI_Reduce_scatter_block");
}
#pragma weak MPI_Reduce_scatter_block = PMPI_Reduce_scatter_block

int PMPI_Ireduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount,
                               MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                               MPI_Request *request)
{
    return do_reduce_scatter(COLL_REDUCE_SCATTER_BLOCK, sendbuf, recvbuf, recvcount, NULL,
                             datatype, op, comm, NONBLOCKING, request,
                             "MPI_Ireduce_scatter_block");
}
#pragma weak MPI_Ireduce_scatter_block = PMPI_Ireduce_scatter_block

int PMPI_Reduce_scatter_block_init(const void *sendbuf, void *recvbuf, int recvcount,
                                   MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                                   MPI_Info info, MPI_Request *request)
{
    (void)info;
    return do_reduce_scatter(COLL_REDUCE_SCATTER_BLOCK, sendbuf, recvbuf, recvcount, NULL,
                             datatype, op, comm, PERSISTENT, request,
                             "MPI_Reduce_scatter_block_init");
}
#pragma weak MPI_Reduce_scatter_block_init = PMPI_Reduce_scatter_block_init

/* ------------------------------------------------------------------------------------------ */
/* Gather(v), Scatter(v)                                                                        */

/* The root's side of a gather/scatter: either one count per rank, or counts + displs. */
static int check_root_side(struct coll_args *a, const void *buf, MPI_Count count,
                           const struct vec *v, MPI_Datatype datatype, struct dt_type **type,
                           const char *which, const char *function)
{
    int rc, n = peers(a);
    if (!v) {
        if ((rc = mpi_check_count(a->comm, count, function)) ||
            (rc = check_data(a, buf, count * n, datatype, type, function)))
            return rc;
        return MPI_SUCCESS;
    }
    if ((rc = check_counts(a, v->counts, n, which, function)) ||
        (rc = check_displs(a, v->displs, n, "displs", function)) ||
        (rc = check_type_only(a, datatype, type, function)))
        return rc;
    for (int i = 0; i < n; i++)
        if ((rc = mpi_check_buffer(a->comm, buf, v->counts[i], *type, function)))
            return rc;
    return MPI_SUCCESS;
}

static int do_gather(enum coll_kind kind, const void *sendbuf, MPI_Count sendcount,
                     MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                     const struct vec *v, MPI_Datatype recvtype, int root, MPI_Comm comm,
                     enum mode mode, MPI_Request *request, const char *function)
{
    struct coll_args a = {.kind = kind, .sendbuf = sendbuf, .sendcount = sendcount,
                          .recvbuf = recvbuf, .recvcount = recvcount};
    int rc;
    if ((rc = check_comm(comm, mode, request, &a, function)) ||
        (rc = check_root(&a, root, function)))
        return rc;
    if (v) {
        a.recvcounts = v->counts;
        a.rdispls = v->displs;
    }
    int root_in_place = !a.comm->is_inter && is_root(&a) && sendbuf == MPI_IN_PLACE;
    if (is_leaf(&a) || (!a.comm->is_inter && !root_in_place)) {
        if (sendbuf == MPI_IN_PLACE)
            return in_place_error(&a, "sendbuf", function);
        if ((rc = check_data(&a, sendbuf, sendcount, sendtype, &a.sendtype, function)))
            return rc;
    }
    if (is_root(&a)) {
        if (recvbuf == MPI_IN_PLACE)
            return in_place_error(&a, "recvbuf", function);
        if ((rc = check_root_side(&a, recvbuf, recvcount, v, recvtype, &a.recvtype, "recvcounts",
                                  function)))
            return rc;
    }
    return run(&a, mode, request, function);
}

static int do_gatherv_int(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                          void *recvbuf, const int recvcounts[], const int displs[],
                          MPI_Datatype recvtype, int root, MPI_Comm comm, enum mode mode,
                          MPI_Request *request, const char *function)
{
    struct vec v;
    void *heap;
    if (widen(recvcounts, displs, handle_peers(comm), &v, &heap) != MPI_SUCCESS)
        return core_error_raise(core_comm_from_handle(comm), MPI_ERR_NO_MEM, function,
                                "out of memory");
    int rc = do_gather(COLL_GATHERV, sendbuf, sendcount, sendtype, recvbuf, 0, &v, recvtype,
                       root, comm, mode, request, function);
    free(heap);
    return rc;
}

int PMPI_Gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    return do_gather(COLL_GATHER, sendbuf, sendcount, sendtype, recvbuf, recvcount, NULL,
                     recvtype, root, comm, BLOCKING, NULL, "MPI_Gather");
}
#pragma weak MPI_Gather = PMPI_Gather

int PMPI_Igather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                 int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                 MPI_Request *request)
{
    return do_gather(COLL_GATHER, sendbuf, sendcount, sendtype, recvbuf, recvcount, NULL,
                     recvtype, root, comm, NONBLOCKING, request, "MPI_Igather");
}
#pragma weak MPI_Igather = PMPI_Igather

int PMPI_Gather_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                     int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                     MPI_Info info, MPI_Request *request)
{
    (void)info;
    return do_gather(COLL_GATHER, sendbuf, sendcount, sendtype, recvbuf, recvcount, NULL,
                     recvtype, root, comm, PERSISTENT, request, "MPI_Gather_init");
}
#pragma weak MPI_Gather_init = PMPI_Gather_init

int PMPI_Gatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                 const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                 MPI_Comm comm)
{
    return do_gatherv_int(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype,
                          root, comm, BLOCKING, NULL, "MPI_Gatherv");
}
#pragma weak MPI_Gatherv = PMPI_Gatherv

int PMPI_Igatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                  const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                  MPI_Comm comm, MPI_Request *request)
{
    return do_gatherv_int(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype,
                          root, comm, NONBLOCKING, request, "MPI_Igatherv");
}
#pragma weak MPI_Igatherv = PMPI_Igatherv

int PMPI_Gatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                      const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                      int root, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    (void)info;
    return do_gatherv_int(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype,
                          root, comm, PERSISTENT, request, "MPI_Gatherv_init");
}
#pragma weak MPI_Gatherv_init = PMPI_Gatherv_init

static int do_scatter(enum coll_kind kind, const void *sendbuf, MPI_Count sendcount,
                      const struct vec *v, MPI_Datatype sendtype, void *recvbuf,
                      MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                      enum mode mode, MPI_Request *request, const char *function)
{
    struct coll_args a = {.kind = kind, .sendbuf = sendbuf, .sendcount = sendcount,
                          .recvbuf = recvbuf, .recvcount = recvcount};
    int rc;
    if ((rc = check_comm(comm, mode, request, &a, function)) ||
        (rc = check_root(&a, root, function)))
        return rc;
    if (v) {
        a.sendcounts = v->counts;
        a.sdispls = v->displs;
    }
    if (is_root(&a)) {
        if (sendbuf == MPI_IN_PLACE)
            return in_place_error(&a, "sendbuf", function);
        if ((rc = check_root_side(&a, sendbuf, sendcount, v, sendtype, &a.sendtype,
                                  "sendcounts", function)))
            return rc;
    }
    int root_in_place = !a.comm->is_inter && is_root(&a) && recvbuf == MPI_IN_PLACE;
    if (is_leaf(&a) || (!a.comm->is_inter && !root_in_place)) {
        if (recvbuf == MPI_IN_PLACE)
            return in_place_error(&a, "recvbuf", function);
        if ((rc = check_data(&a, recvbuf, recvcount, recvtype, &a.recvtype, function)))
            return rc;
    }
    return run(&a, mode, request, function);
}

static int do_scatterv_int(const void *sendbuf, const int sendcounts[], const int displs[],
                           MPI_Datatype sendtype, void *recvbuf, int recvcount,
                           MPI_Datatype recvtype, int root, MPI_Comm comm, enum mode mode,
                           MPI_Request *request, const char *function)
{
    struct vec v;
    void *heap;
    if (widen(sendcounts, displs, handle_peers(comm), &v, &heap) != MPI_SUCCESS)
        return core_error_raise(core_comm_from_handle(comm), MPI_ERR_NO_MEM, function,
                                "out of memory");
    int rc = do_scatter(COLL_SCATTERV, sendbuf, 0, &v, sendtype, recvbuf, recvcount, recvtype,
                        root, comm, mode, request, function);
    free(heap);
    return rc;
}

int PMPI_Scatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                 int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    return do_scatter(COLL_SCATTER, sendbuf, sendcount, NULL, sendtype, recvbuf, recvcount,
                      recvtype, root, comm, BLOCKING, NULL, "MPI_Scatter");
}
#pragma weak MPI_Scatter = PMPI_Scatter

int PMPI_Iscatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                  int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                  MPI_Request *request)
{
    return do_scatter(COLL_SCATTER, sendbuf, sendcount, NULL, sendtype, recvbuf, recvcount,
                      recvtype, root, comm, NONBLOCKING, request, "MPI_Iscatter");
}
#pragma weak MPI_Iscatter = PMPI_Iscatter

int PMPI_Scatter_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                      int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                      MPI_Info info, MPI_Request *request)
{
    (void)info;
    return do_scatter(COLL_SCATTER, sendbuf, sendcount, NULL, sendtype, recvbuf, recvcount,
                      recvtype, root, comm, PERSISTENT, request, "MPI_Scatter_init");
}
#pragma weak MPI_Scatter_init = PMPI_Scatter_init

int PMPI_Scatterv(const void *sendbuf, const int sendcounts[], const int displs[],
                  MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                  int root, MPI_Comm comm)
{
    return do_scatterv_int(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype,
                           root, comm, BLOCKING, NULL, "MPI_Scatterv");
}
#pragma weak MPI_Scatterv = PMPI_Scatterv

int PMPI_Iscatterv(const void *sendbuf, const int sendcounts[], const int displs[],
                   MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                   int root, MPI_Comm comm, MPI_Request *request)
{
    return do_scatterv_int(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype,
                           root, comm, NONBLOCKING, request, "MPI_Iscatterv");
}
#pragma weak MPI_Iscatterv = PMPI_Iscatterv

int PMPI_Scatterv_init(const void *sendbuf, const int sendcounts[], const int displs[],
                       MPI_Datatype sendtype, void *recvbuf, int recvcount,
                       MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                       MPI_Request *request)
{
    (void)info;
    return do_scatterv_int(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype,
                           root, comm, PERSISTENT, request, "MPI_Scatterv_init");
}
#pragma weak MPI_Scatterv_init = PMPI_Scatterv_init

/* ------------------------------------------------------------------------------------------ */
/* Allgather(v)                                                                                 */

static int do_allgather(enum coll_kind kind, const void *sendbuf, MPI_Count sendcount,
                        MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                        const struct vec *v, MPI_Datatype recvtype, MPI_Comm comm,
                        enum mode mode, MPI_Request *request, const char *function)
{
    struct coll_args a = {.kind = kind, .sendbuf = sendbuf, .sendcount = sendcount,
                          .recvbuf = recvbuf, .recvcount = recvcount};
    int rc;
    if ((rc = check_comm(comm, mode, request, &a, function)))
        return rc;
    if (v) {
        a.recvcounts = v->counts;
        a.rdispls = v->displs;
    }
    if (sendbuf == MPI_IN_PLACE) {
        if (a.comm->is_inter)
            return in_place_error(&a, "sendbuf", function);
    } else if ((rc = check_data(&a, sendbuf, sendcount, sendtype, &a.sendtype, function))) {
        return rc;
    }
    if (recvbuf == MPI_IN_PLACE)
        return in_place_error(&a, "recvbuf", function);
    int n = peers(&a);
    if (v) {
        if ((rc = check_counts(&a, v->counts, n, "recvcounts", function)) ||
            (rc = check_displs(&a, v->displs, n, "displs", function)) ||
            (rc = check_type_only(&a, recvtype, &a.recvtype, function)))
            return rc;
    } else if ((rc = mpi_check_count(a.comm, recvcount, function)) ||
               (rc = check_data(&a, recvbuf, recvcount * n, recvtype, &a.recvtype, function))) {
        return rc;
    }
    return run(&a, mode, request, function);
}

static int do_allgatherv_int(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                             void *recvbuf, const int recvcounts[], const int displs[],
                             MPI_Datatype recvtype, MPI_Comm comm, enum mode mode,
                             MPI_Request *request, const char *function)
{
    struct vec v;
    void *heap;
    if (widen(recvcounts, displs, handle_peers(comm), &v, &heap) != MPI_SUCCESS)
        return core_error_raise(core_comm_from_handle(comm), MPI_ERR_NO_MEM, function,
                                "out of memory");
    int rc = do_allgather(COLL_ALLGATHERV, sendbuf, sendcount, sendtype, recvbuf, 0, &v,
                          recvtype, comm, mode, request, function);
    free(heap);
    return rc;
}

int PMPI_Allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                   int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    return do_allgather(COLL_ALLGATHER, sendbuf, sendcount, sendtype, recvbuf, recvcount, NULL,
                        recvtype, comm, BLOCKING, NULL, "MPI_Allgather");
}
#pragma weak MPI_Allgather = PMPI_Allgather

int PMPI_Iallgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                    int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    return do_allgather(COLL_ALLGATHER, sendbuf, sendcount, sendtype, recvbuf, recvcount, NULL,
                        recvtype, comm, NONBLOCKING, request, "MPI_Iallgather");
}
#pragma weak MPI_Iallgather = PMPI_Iallgather

int PMPI_Allgather_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                        void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                        MPI_Info info, MPI_Request *request)
{
    (void)info;
    return do_allgather(COLL_ALLGATHER, sendbuf, sendcount, sendtype, recvbuf, recvcount, NULL,
                        recvtype, comm, PERSISTENT, request, "MPI_Allgather_init");
}
#pragma weak MPI_Allgather_init = PMPI_Allgather_init

int PMPI_Allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                    const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                    MPI_Comm comm)
{
    return do_allgatherv_int(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                             recvtype, comm, BLOCKING, NULL, "MPI_Allgatherv");
}
#pragma weak MPI_Allgatherv = PMPI_Allgatherv

int PMPI_Iallgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                     const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                     MPI_Comm comm, MPI_Request *request)
{
    return do_allgatherv_int(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                             recvtype, comm, NONBLOCKING, request, "MPI_Iallgatherv");
}
#pragma weak MPI_Iallgatherv = PMPI_Iallgatherv

int PMPI_Allgatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                         void *recvbuf, const int recvcounts[], const int displs[],
                         MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                         MPI_Request *request)
{
    (void)info;
    return do_allgatherv_int(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                             recvtype, comm, PERSISTENT, request, "MPI_Allgatherv_init");
}
#pragma weak MPI_Allgatherv_init = PMPI_Allgatherv_init

/* ------------------------------------------------------------------------------------------ */
/* Alltoall(v,w)                                                                                */

static int do_alltoall(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                       void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                       enum mode mode, MPI_Request *request, const char *function)
{
    struct coll_args a = {.kind = COLL_ALLTOALL, .sendbuf = sendbuf, .sendcount = sendcount,
                          .recvbuf = recvbuf, .recvcount = recvcount};
    int rc;
    if ((rc = check_comm(comm, mode, request, &a, function)))
        return rc;
    int n = peers(&a);
    if (sendbuf == MPI_IN_PLACE) {
        if (a.comm->is_inter)
            return in_place_error(&a, "sendbuf", function);
    } else if ((rc = mpi_check_count(a.comm, sendcount, function)) ||
               (rc = check_data(&a, sendbuf, sendcount * n, sendtype, &a.sendtype, function))) {
        return rc;
    }
    if (recvbuf == MPI_IN_PLACE)
        return in_place_error(&a, "recvbuf", function);
    if ((rc = mpi_check_count(a.comm, recvcount, function)) ||
        (rc = check_data(&a, recvbuf, recvcount * n, recvtype, &a.recvtype, function)))
        return rc;
    return run(&a, mode, request, function);
}

int PMPI_Alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                  int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    return do_alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                       BLOCKING, NULL, "MPI_Alltoall");
}
#pragma weak MPI_Alltoall = PMPI_Alltoall

int PMPI_Ialltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                   int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    return do_alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                       NONBLOCKING, request, "MPI_Ialltoall");
}
#pragma weak MPI_Ialltoall = PMPI_Ialltoall

int PMPI_Alltoall_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                       int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                       MPI_Request *request)
{
    (void)info;
    return do_alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                       PERSISTENT, request, "MPI_Alltoall_init");
}
#pragma weak MPI_Alltoall_init = PMPI_Alltoall_init

/* Alltoallv (one send and one receive type) and alltoallw (a type per peer; types == NULL
 * means "v": use sendtype / recvtype for everyone). */
static int do_alltoallvw(enum coll_kind kind, const void *sendbuf, const struct vec *sv,
                         const MPI_Datatype *sendtypes, MPI_Datatype sendtype, void *recvbuf,
                         const struct vec *rv, const MPI_Datatype *recvtypes,
                         MPI_Datatype recvtype, MPI_Comm comm, enum mode mode,
                         MPI_Request *request, const char *function)
{
    struct coll_args a = {.kind = kind, .sendbuf = sendbuf, .recvbuf = recvbuf,
                          .sendcounts = sv->counts, .sdispls = sv->displs,
                          .recvcounts = rv->counts, .rdispls = rv->displs};
    int rc;
    if ((rc = check_comm(comm, mode, request, &a, function)))
        return rc;
    int n = peers(&a);
    struct dt_type **types = NULL;
    if (kind == COLL_ALLTOALLW) {
        types = calloc(2 * (size_t)(n > 0 ? n : 1), sizeof(*types));
        if (!types)
            return core_error_raise(a.comm, MPI_ERR_NO_MEM, function, "out of memory");
        a.sendtypes = types;
        a.recvtypes = types + n;
    }
    if (sendbuf == MPI_IN_PLACE) {
        if (a.comm->is_inter) {
            rc = in_place_error(&a, "sendbuf", function);
            goto done;
        }
    } else {
        if ((rc = check_counts(&a, sv->counts, n, "sendcounts", function)) ||
            (rc = check_displs(&a, sv->displs, n, "sdispls", function)))
            goto done;
        if (kind == COLL_ALLTOALLW && !sendtypes) {
            rc = core_error_raise(a.comm, MPI_ERR_ARG, function, "sendtypes is NULL");
            goto done;
        }
        for (int i = 0; i < n; i++) {
            struct dt_type **t = kind == COLL_ALLTOALLW ? &types[i] : &a.sendtype;
            MPI_Datatype h = kind == COLL_ALLTOALLW ? sendtypes[i] : sendtype;
            if ((rc = check_data(&a, sendbuf, sv->counts[i], h, t, function)))
                goto done;
        }
        if (kind == COLL_ALLTOALLV && n == 0 &&
            (rc = check_type_only(&a, sendtype, &a.sendtype, function)))
            goto done;
    }
    if (recvbuf == MPI_IN_PLACE) {
        rc = in_place_error(&a, "recvbuf", function);
        goto done;
    }
    if ((rc = check_counts(&a, rv->counts, n, "recvcounts", function)) ||
        (rc = check_displs(&a, rv->displs, n, "rdispls", function)))
        goto done;
    if (kind == COLL_ALLTOALLW && !recvtypes) {
        rc = core_error_raise(a.comm, MPI_ERR_ARG, function, "recvtypes is NULL");
        goto done;
    }
    for (int i = 0; i < n; i++) {
        struct dt_type **t = kind == COLL_ALLTOALLW ? &types[n + i] : &a.recvtype;
        MPI_Datatype h = kind == COLL_ALLTOALLW ? recvtypes[i] : recvtype;
        if ((rc = check_data(&a, recvbuf, rv->counts[i], h, t, function)))
            goto done;
    }
    rc = run(&a, mode, request, function);
done:
    free(types);
    return rc;
}

static int do_alltoallv_int(const void *sendbuf, const int sendcounts[], const int sdispls[],
                            MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                            const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                            enum mode mode, MPI_Request *request, const char *function)
{
    struct vec sv, rv;
    void *sheap = NULL, *rheap = NULL;
    int n = handle_peers(comm), rc;
    if (widen(sendcounts, sdispls, n, &sv, &sheap) != MPI_SUCCESS ||
        widen(recvcounts, rdispls, n, &rv, &rheap) != MPI_SUCCESS)
        rc = core_error_raise(core_comm_from_handle(comm), MPI_ERR_NO_MEM, function,
                              "out of memory");
    else
        rc = do_alltoallvw(COLL_ALLTOALLV, sendbuf, &sv, NULL, sendtype, recvbuf, &rv, NULL,
                           recvtype, comm, mode, request, function);
    free(sheap);
    free(rheap);
    return rc;
}

static int do_alltoallw_int(const void *sendbuf, const int sendcounts[], const int sdispls[],
                            const MPI_Datatype sendtypes[], void *recvbuf,
                            const int recvcounts[], const int rdispls[],
                            const MPI_Datatype recvtypes[], MPI_Comm comm, enum mode mode,
                            MPI_Request *request, const char *function)
{
    struct vec sv, rv;
    void *sheap = NULL, *rheap = NULL;
    int n = handle_peers(comm), rc;
    if (widen(sendcounts, sdispls, n, &sv, &sheap) != MPI_SUCCESS ||
        widen(recvcounts, rdispls, n, &rv, &rheap) != MPI_SUCCESS)
        rc = core_error_raise(core_comm_from_handle(comm), MPI_ERR_NO_MEM, function,
                              "out of memory");
    else
        rc = do_alltoallvw(COLL_ALLTOALLW, sendbuf, &sv, sendtypes, MPI_DATATYPE_NULL, recvbuf,
                           &rv, recvtypes, MPI_DATATYPE_NULL, comm, mode, request, function);
    free(sheap);
    free(rheap);
    return rc;
}

int PMPI_Alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                   MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                   const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm)
{
    return do_alltoallv_int(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
                            rdispls, recvtype, comm, BLOCKING, NULL, "MPI_Alltoallv");
}
#pragma weak MPI_Alltoallv = PMPI_Alltoallv

int PMPI_Ialltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                    MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                    const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                    MPI_Request *request)
{
    return do_alltoallv_int(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
                            rdispls, recvtype, comm, NONBLOCKING, request, "MPI_Ialltoallv");
}
#pragma weak MPI_Ialltoallv = PMPI_Ialltoallv

int PMPI_Alltoallv_init(const void *sendbuf, const int sendcounts[], const int sdispls[],
                        MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                        const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                        MPI_Info info, MPI_Request *request)
{
    (void)info;
    return do_alltoallv_int(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
                            rdispls, recvtype, comm, PERSISTENT, request, "MPI_Alltoallv_init");
}
#pragma weak MPI_Alltoallv_init = PMPI_Alltoallv_init

int PMPI_Alltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[],
                   const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                   const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm)
{
    return do_alltoallw_int(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts,
                            rdispls, recvtypes, comm, BLOCKING, NULL, "MPI_Alltoallw");
}
#pragma weak MPI_Alltoallw = PMPI_Alltoallw

int PMPI_Ialltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[],
                    const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                    const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                    MPI_Request *request)
{
    return do_alltoallw_int(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts,
                            rdispls, recvtypes, comm, NONBLOCKING, request, "MPI_Ialltoallw");
}
#pragma weak MPI_Ialltoallw = PMPI_Ialltoallw

int PMPI_Alltoallw_init(const void *sendbuf, const int sendcounts[], const int sdispls[],
                        const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                        const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                        MPI_Info info, MPI_Request *request)
{
    (void)info;
    return do_alltoallw_int(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts,
                            rdispls, recvtypes, comm, PERSISTENT, request,
                            "MPI_Alltoallw_init");
}
#pragma weak MPI_Alltoallw_init = PMPI_Alltoallw_init

/* ------------------------------------------------------------------------------------------ */
/* Neighborhood collectives                                                                     */

/* In- and out-degree of a communicator with a topology; MPI_ERR_TOPOLOGY without one. */
static int check_topology(struct coll_args *a, int *indegree, int *outdegree,
                          const char *function)
{
    const int *sources, *destinations;
    if (a->comm->is_inter ||
        topo_neighbors(a->comm, indegree, &sources, outdegree, &destinations) != MPI_SUCCESS)
        return core_error_raise(a->comm, MPI_ERR_TOPOLOGY, function,
                                "communicator has no process topology");
    return MPI_SUCCESS;
}

static int do_neighbor_allgather(enum coll_kind kind, const void *sendbuf, MPI_Count sendcount,
                                 MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                                 const struct vec *v, MPI_Datatype recvtype, MPI_Comm comm,
                                 enum mode mode, MPI_Request *request, const char *function)
{
    struct coll_args a = {.kind = kind, .sendbuf = sendbuf, .sendcount = sendcount,
                          .recvbuf = recvbuf, .recvcount = recvcount};
    int rc, in, out;
    if ((rc = check_comm(comm, mode, request, &a, function)) ||
        (rc = check_topology(&a, &in, &out, function)))
        return rc;
    if (sendbuf == MPI_IN_PLACE || recvbuf == MPI_IN_PLACE)
        return in_place_error(&a, sendbuf == MPI_IN_PLACE ? "sendbuf" : "recvbuf", function);
    if ((rc = check_data(&a, sendbuf, sendcount, sendtype, &a.sendtype, function)))
        return rc;
    if (v) {
        a.recvcounts = v->counts;
        a.rdispls = v->displs;
        if ((rc = check_counts(&a, v->counts, in, "recvcounts", function)) ||
            (rc = check_displs(&a, v->displs, in, "displs", function)) ||
            (rc = check_type_only(&a, recvtype, &a.recvtype, function)))
            return rc;
    } else if ((rc = mpi_check_count(a.comm, recvcount, function)) ||
               (rc = check_data(&a, recvbuf, recvcount * in, recvtype, &a.recvtype, function))) {
        return rc;
    }
    return run(&a, mode, request, function);
}

static int neighbor_indegree(MPI_Comm handle)
{
    struct core_comm *comm = core_comm_from_handle(handle);
    int in = 0, out = 0;
    const int *s, *d;
    if (comm && !comm->is_inter)
        topo_neighbors(comm, &in, &s, &out, &d);
    return in;
}

static int neighbor_outdegree(MPI_Comm handle)
{
    struct core_comm *comm = core_comm_from_handle(handle);
    int in = 0, out = 0;
    const int *s, *d;
    if (comm && !comm->is_inter)
        topo_neighbors(comm, &in, &s, &out, &d);
    return out;
}

static int do_neighbor_allgatherv_int(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                      void *recvbuf, const int recvcounts[], const int displs[],
                                      MPI_Datatype recvtype, MPI_Comm comm, enum mode mode,
                                      MPI_Request *request, const char *function)
{
    struct vec v;
    void *heap;
    if (widen(recvcounts, displs, neighbor_indegree(comm), &v, &heap) != MPI_SUCCESS)
        return core_error_raise(core_comm_from_handle(comm), MPI_ERR_NO_MEM, function,
                                "out of memory");
    int rc = do_neighbor_allgather(COLL_NEIGHBOR_ALLGATHERV, sendbuf, sendcount, sendtype,
                                   recvbuf, 0, &v, recvtype, comm, mode, request, function);
    free(heap);
    return rc;
}

int PMPI_Neighbor_allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                            void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    return do_neighbor_allgather(COLL_NEIGHBOR_ALLGATHER, sendbuf, sendcount, sendtype, recvbuf,
                                 recvcount, NULL, recvtype, comm, BLOCKING, NULL,
                                 "MPI_Neighbor_allgather");
}
#pragma weak MPI_Neighbor_allgather = PMPI_Neighbor_allgather

int PMPI_Ineighbor_allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                             void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                             MPI_Request *request)
{
    return do_neighbor_allgather(COLL_NEIGHBOR_ALLGATHER, sendbuf, sendcount, sendtype, recvbuf,
                                 recvcount, NULL, recvtype, comm, NONBLOCKING, request,
                                 "MPI_Ineighbor_allgather");
}
#pragma weak MPI_Ineighbor_allgather = PMPI_Ineighbor_allgather

int PMPI_Neighbor_allgather_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                 void *recvbuf, int recvcount, MPI_Datatype recvtype,
                                 MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    (void)info;
    return do_neighbor_allgather(COLL_NEIGHBOR_ALLGATHER, sendbuf, sendcount, sendtype, recvbuf,
                                 recvcount, NULL, recvtype, comm, PERSISTENT, request,
                                 "MPI_Neighbor_allgather_init");
}
#pragma weak MPI_Neighbor_allgather_init = PMPI_Neighbor_allgather_init

int PMPI_Neighbor_allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                             void *recvbuf, const int recvcounts[], const int displs[],
                             MPI_Datatype recvtype, MPI_Comm comm)
{
    return do_neighbor_allgatherv_int(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                                      recvtype, comm, BLOCKING, NULL, "MPI_Neighbor_allgatherv");
}
#pragma weak MPI_Neighbor_allgatherv = PMPI_Neighbor_allgatherv

int PMPI_Ineighbor_allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                              void *recvbuf, const int recvcounts[], const int displs[],
                              MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    return do_neighbor_allgatherv_int(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                                      recvtype, comm, NONBLOCKING, request,
                                      "MPI_Ineighbor_allgatherv");
}
#pragma weak MPI_Ineighbor_allgatherv = PMPI_Ineighbor_allgatherv

int PMPI_Neighbor_allgatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                  void *recvbuf, const int recvcounts[], const int displs[],
                                  MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                  MPI_Request *request)
{
    (void)info;
    return do_neighbor_allgatherv_int(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                                      recvtype, comm, PERSISTENT, request,
                                      "MPI_Neighbor_allgatherv_init");
}
#pragma weak MPI_Neighbor_allgatherv_init = PMPI_Neighbor_allgatherv_init

/* Neighbor_alltoall / v / w. For w, sdispls/rdispls are MPI_Aint byte offsets already. */
static int do_neighbor_alltoall(enum coll_kind kind, const void *sendbuf, MPI_Count sendcount,
                                const struct vec *sv, const MPI_Datatype *sendtypes,
                                MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                                const struct vec *rv, const MPI_Datatype *recvtypes,
                                MPI_Datatype recvtype, MPI_Comm comm, enum mode mode,
                                MPI_Request *request, const char *function)
{
    struct coll_args a = {.kind = kind, .sendbuf = sendbuf, .sendcount = sendcount,
                          .recvbuf = recvbuf, .recvcount = recvcount};
    int rc, in, out;
    if ((rc = check_comm(comm, mode, request, &a, function)) ||
        (rc = check_topology(&a, &in, &out, function)))
        return rc;
    if (sendbuf == MPI_IN_PLACE || recvbuf == MPI_IN_PLACE)
        return in_place_error(&a, sendbuf == MPI_IN_PLACE ? "sendbuf" : "recvbuf", function);
    if (kind == COLL_NEIGHBOR_ALLTOALL) {
        if ((rc = mpi_check_count(a.comm, sendcount, function)) ||
            (rc = check_data(&a, sendbuf, sendcount * out, sendtype, &a.sendtype, function)) ||
            (rc = mpi_check_count(a.comm, recvcount, function)) ||
            (rc = check_data(&a, recvbuf, recvcount * in, recvtype, &a.recvtype, function)))
            return rc;
        return run(&a, mode, request, function);
    }
    a.sendcounts = sv->counts;
    a.sdispls = sv->displs;
    a.recvcounts = rv->counts;
    a.rdispls = rv->displs;
    if ((rc = check_counts(&a, sv->counts, out, "sendcounts", function)) ||
        (rc = check_displs(&a, sv->displs, out, "sdispls", function)) ||
        (rc = check_counts(&a, rv->counts, in, "recvcounts", function)) ||
        (rc = check_displs(&a, rv->displs, in, "rdispls", function)))
        return rc;
    if (kind == COLL_NEIGHBOR_ALLTOALLV) {
        if ((rc = check_type_only(&a, sendtype, &a.sendtype, function)) ||
            (rc = check_type_only(&a, recvtype, &a.recvtype, function)))
            return rc;
        return run(&a, mode, request, function);
    }
    if ((out > 0 && !sendtypes) || (in > 0 && !recvtypes))
        return core_error_raise(a.comm, MPI_ERR_ARG, function, "%s is NULL",
                                !sendtypes ? "sendtypes" : "recvtypes");
    struct dt_type **types = calloc((size_t)(in + out + 1), sizeof(*types));
    if (!types)
        return core_error_raise(a.comm, MPI_ERR_NO_MEM, function, "out of memory");
    for (int i = 0; i < out && rc == MPI_SUCCESS; i++)
        rc = check_data(&a, sendbuf, sv->counts[i], sendtypes[i], &types[i], function);
    for (int i = 0; i < in && rc == MPI_SUCCESS; i++)
        rc = check_data(&a, recvbuf, rv->counts[i], recvtypes[i], &types[out + i], function);
    a.sendtypes = types;
    a.recvtypes = types + out;
    if (rc == MPI_SUCCESS)
        rc = run(&a, mode, request, function);
    free(types);
    return rc;
}

static int do_neighbor_alltoallv_int(const void *sendbuf, const int sendcounts[],
                                     const int sdispls[], MPI_Datatype sendtype, void *recvbuf,
                                     const int recvcounts[], const int rdispls[],
                                     MPI_Datatype recvtype, MPI_Comm comm, enum mode mode,
                                     MPI_Request *request, const char *function)
{
    struct vec sv, rv;
    void *sheap = NULL, *rheap = NULL;
    int rc;
    if (widen(sendcounts, sdispls, neighbor_outdegree(comm), &sv, &sheap) != MPI_SUCCESS ||
        widen(recvcounts, rdispls, neighbor_indegree(comm), &rv, &rheap) != MPI_SUCCESS)
        rc = core_error_raise(core_comm_from_handle(comm), MPI_ERR_NO_MEM, function,
                              "out of memory");
    else
        rc = do_neighbor_alltoall(COLL_NEIGHBOR_ALLTOALLV, sendbuf, 0, &sv, NULL, sendtype,
                                  recvbuf, 0, &rv, NULL, recvtype, comm, mode, request, function);
    free(sheap);
    free(rheap);
    return rc;
}

/* w: counts are int, displacements already MPI_Aint */
static int do_neighbor_alltoallw_int(const void *sendbuf, const int sendcounts[],
                                     const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                                     void *recvbuf, const int recvcounts[],
                                     const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
                                     MPI_Comm comm, enum mode mode, MPI_Request *request,
                                     const char *function)
{
    struct vec sv, rv;
    void *sheap = NULL, *rheap = NULL;
    int rc;
    if (widen(sendcounts, NULL, neighbor_outdegree(comm), &sv, &sheap) != MPI_SUCCESS ||
        widen(recvcounts, NULL, neighbor_indegree(comm), &rv, &rheap) != MPI_SUCCESS) {
        rc = core_error_raise(core_comm_from_handle(comm), MPI_ERR_NO_MEM, function,
                              "out of memory");
    } else {
        sv.displs = sdispls;
        rv.displs = rdispls;
        rc = do_neighbor_alltoall(COLL_NEIGHBOR_ALLTOALLW, sendbuf, 0, &sv, sendtypes,
                                  MPI_DATATYPE_NULL, recvbuf, 0, &rv, recvtypes,
                                  MPI_DATATYPE_NULL, comm, mode, request, function);
    }
    free(sheap);
    free(rheap);
    return rc;
}

int PMPI_Neighbor_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                           void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    return do_neighbor_alltoall(COLL_NEIGHBOR_ALLTOALL, sendbuf, sendcount, NULL, NULL, sendtype,
                                recvbuf, recvcount, NULL, NULL, recvtype, comm, BLOCKING, NULL,
                                "MPI_Neighbor_alltoall");
}
#pragma weak MPI_Neighbor_alltoall = PMPI_Neighbor_alltoall

int PMPI_Ineighbor_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                            void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                            MPI_Request *request)
{
    return do_neighbor_alltoall(COLL_NEIGHBOR_ALLTOALL, sendbuf, sendcount, NULL, NULL, sendtype,
                                recvbuf, recvcount, NULL, NULL, recvtype, comm, NONBLOCKING,
                                request, "MPI_Ineighbor_alltoall");
}
#pragma weak MPI_Ineighbor_alltoall = PMPI_Ineighbor_alltoall

int PMPI_Neighbor_alltoall_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                void *recvbuf, int recvcount, MPI_Datatype recvtype,
                                MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    (void)info;
    return do_neighbor_alltoall(COLL_NEIGHBOR_ALLTOALL, sendbuf, sendcount, NULL, NULL, sendtype,
                                recvbuf, recvcount, NULL, NULL, recvtype, comm, PERSISTENT,
                                request, "MPI_Neighbor_alltoall_init");
}
#pragma weak MPI_Neighbor_alltoall_init = PMPI_Neighbor_alltoall_init

int PMPI_Neighbor_alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                            MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                            const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm)
{
    return do_neighbor_alltoallv_int(sendbuf, sendcounts, sdispls, sendtype, recvbuf,
                                     recvcounts, rdispls, recvtype, comm, BLOCKING, NULL,
                                     "MPI_Neighbor_alltoallv");
}
#pragma weak MPI_Neighbor_alltoallv = PMPI_Neighbor_alltoallv

int PMPI_Ineighbor_alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                             MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                             const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                             MPI_Request *request)
{
    return do_neighbor_alltoallv_int(sendbuf, sendcounts, sdispls, sendtype, recvbuf,
                                     recvcounts, rdispls, recvtype, comm, NONBLOCKING, request,
                                     "MPI_Ineighbor_alltoallv");
}
#pragma weak MPI_Ineighbor_alltoallv = PMPI_Ineighbor_alltoallv

int PMPI_Neighbor_alltoallv_init(const void *sendbuf, const int sendcounts[],
                                 const int sdispls[], MPI_Datatype sendtype, void *recvbuf,
                                 const int recvcounts[], const int rdispls[],
                                 MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                 MPI_Request *request)
{
    (void)info;
    return do_neighbor_alltoallv_int(sendbuf, sendcounts, sdispls, sendtype, recvbuf,
                                     recvcounts, rdispls, recvtype, comm, PERSISTENT, request,
                                     "MPI_Neighbor_alltoallv_init");
}
#pragma weak MPI_Neighbor_alltoallv_init = PMPI_Neighbor_alltoallv_init

int PMPI_Neighbor_alltoallw(const void *sendbuf, const int sendcounts[],
                            const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                            void *recvbuf, const int recvcounts[], const MPI_Aint rdispls[],
                            const MPI_Datatype recvtypes[], MPI_Comm comm)
{
    return do_neighbor_alltoallw_int(sendbuf, sendcounts, sdispls, sendtypes, recvbuf,
                                     recvcounts, rdispls, recvtypes, comm, BLOCKING, NULL,
                                     "MPI_Neighbor_alltoallw");
}
#pragma weak MPI_Neighbor_alltoallw = PMPI_Neighbor_alltoallw

int PMPI_Ineighbor_alltoallw(const void *sendbuf, const int sendcounts[],
                             const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                             void *recvbuf, const int recvcounts[], const MPI_Aint rdispls[],
                             const MPI_Datatype recvtypes[], MPI_Comm comm,
                             MPI_Request *request)
{
    return do_neighbor_alltoallw_int(sendbuf, sendcounts, sdispls, sendtypes, recvbuf,
                                     recvcounts, rdispls, recvtypes, comm, NONBLOCKING, request,
                                     "MPI_Ineighbor_alltoallw");
}
#pragma weak MPI_Ineighbor_alltoallw = PMPI_Ineighbor_alltoallw

int PMPI_Neighbor_alltoallw_init(const void *sendbuf, const int sendcounts[],
                                 const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                                 void *recvbuf, const int recvcounts[],
                                 const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
                                 MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    (void)info;
    return do_neighbor_alltoallw_int(sendbuf, sendcounts, sdispls, sendtypes, recvbuf,
                                     recvcounts, rdispls, recvtypes, comm, PERSISTENT, request,
                                     "MPI_Neighbor_alltoallw_init");
}
#pragma weak MPI_Neighbor_alltoallw_init = PMPI_Neighbor_alltoallw_init
