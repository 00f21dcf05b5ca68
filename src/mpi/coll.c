/* coll.c - API: collectives in blocking, nonblocking (MPI_I...) and persistent (..._init) form,
 * on intra- and intercommunicators. Each family has one implementation (mpi_coll_*, coll_api.h)
 * shared by its int entry points here and its large-count _c ones (coll_large.c): it checks the
 * arguments in the standard's order with the helpers below, widens the int arrays of the v/w
 * forms, fills a struct coll_args and runs it through src/coll (coll_run / coll_start /
 * coll_init). Arguments the standard makes insignificant on a rank (a non-root's receive side,
 * MPI_PROC_NULL ranks) are not checked. */
#include <stdlib.h>

#include "coll/coll.h"
#include "coll/op.h"
#include "core/request.h"
#include "mpi/api.h"
#include "mpi/coll_api.h"
#include "topo/topo.h"

/* The count and displacement arrays of one side of a v/w collective as MPI_Count / MPI_Aint:
 * the _c API's arrays themselves, or copies widened from the int API's (heap, freed by
 * vec_free once the schedule is built: src/coll reads the arrays while building only). */
enum { VEC_LOCAL = 32 }; /* peers whose widened arrays fit in the record itself */
struct vec {
    const MPI_Count *counts;
    const MPI_Aint *displs;
    void *heap;
    /* up to VEC_LOCAL peers: no malloc and free per call (a 0-byte MPI_Allgatherv spent a
     * third of its 47 ns there) */
    MPI_Count local_counts[VEC_LOCAL];
    MPI_Aint local_displs[VEC_LOCAL];
};

/* Argument names of one side, for messages. */
struct side_names {
    const char *counts, *displs, *types;
};

static const struct side_names send_side = {"sendcounts", "sdispls", "sendtypes"};
static const struct side_names recv_side = {"recvcounts", "rdispls", "recvtypes"};
static const struct side_names gather_side = {"recvcounts", "displs", "recvtypes"};
static const struct side_names scatter_side = {"sendcounts", "displs", "sendtypes"};

static int raised(struct core_comm *comm, int rc, const char *function)
{
    if (rc == MPI_SUCCESS)
        return rc;
    return core_error_raise(comm, rc, function, "%s", core_error_string(rc));
}

/* ------------------------------------------------------------------------------------------ */
/* Checks shared by the collectives.                                                            */

static int check_comm(MPI_Comm handle, enum mpi_coll_mode mode, MPI_Request *request,
                      struct coll_args *a, const char *function)
{
    int rc;
    if ((rc = mpi_check_initialized(function)) ||
        (rc = mpi_get_comm(handle, &a->comm, function)))
        return rc;
    if (mode != MPI_COLL_BLOCKING && !request)
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

/* Do this rank's send / receive arguments of a rooted collective matter? */
static int is_root(const struct coll_args *a)
{
    return a->comm->is_inter ? a->root == MPI_ROOT : a->comm->rank == a->root;
}

static int is_leaf(const struct coll_args *a)
{
    return a->comm->is_inter ? a->root >= 0 : a->comm->rank != a->root;
}

/* Group sizes the arrays of v/w collectives are indexed by. */
static int peers(const struct coll_args *a)
{
    return core_comm_peer_count(a->comm);
}

static int check_type(struct coll_args *a, MPI_Datatype datatype, struct dt_type **type,
                      const char *function)
{
    return mpi_get_type(a->comm, datatype, type, function);
}

/* count and datatype of one block. The `w` collectives stop here: their byte displacements
 * may carry absolute addresses, so MPI_BOTTOM (NULL) with a predefined type is legal there. */
static int check_count_type(struct coll_args *a, MPI_Count count, MPI_Datatype datatype,
                            struct dt_type **type, const char *function)
{
    int rc;
    if ((rc = mpi_check_count(a->comm, count, function)) ||
        (rc = check_type(a, datatype, type, function)))
        return rc;
    return MPI_SUCCESS;
}

/* count, datatype, buffer of one side of a transfer (MPI_IN_PLACE is checked by callers) */
static int check_data(struct coll_args *a, const void *buf, MPI_Count count,
                      MPI_Datatype datatype, struct dt_type **type, const char *function)
{
    int rc = check_count_type(a, count, datatype, type, function);
    if (rc != MPI_SUCCESS || buf == MPI_IN_PLACE)
        return rc;
    return mpi_check_buffer(a->comm, buf, count, *type, function);
}

/* n blocks of count elements each at buf (alltoall, allgather, the root of gather/scatter) */
static int check_blocks(struct coll_args *a, const void *buf, MPI_Count count, int n,
                        MPI_Datatype datatype, struct dt_type **type, const char *function)
{
    int rc = mpi_check_count(a->comm, count, function);
    return rc != MPI_SUCCESS ? rc : check_data(a, buf, count * n, datatype, type, function);
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

/* A send buffer that may be MPI_IN_PLACE on intracommunicators only. */
static int check_in_place_intra(struct coll_args *a, const char *function)
{
    return a->comm->is_inter ? in_place_error(a, "sendbuf", function) : MPI_SUCCESS;
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

/* The vector side of a v collective: counts, displacements, the one datatype; with
 * check_buffers also the buffer of every block. */
static int check_vector(struct coll_args *a, const void *buf, const struct vec *v, int n,
                        const struct side_names *names, MPI_Datatype datatype,
                        struct dt_type **type, int check_buffers, const char *function)
{
    int rc;
    if ((rc = check_counts(a, v->counts, n, names->counts, function)) ||
        (rc = check_displs(a, v->displs, n, names->displs, function)) ||
        (rc = check_type(a, datatype, type, function)))
        return rc;
    for (int i = 0; check_buffers && i < n; i++)
        if ((rc = mpi_check_buffer(a->comm, buf, v->counts[i], *type, function)))
            return rc;
    return MPI_SUCCESS;
}

/* One side of a w collective: counts, displacements and a datatype per peer (into types[]);
 * never the buffer (see check_count_type). */
static int check_w_side(struct coll_args *a, const struct vec *v, int n,
                        const struct side_names *names, const MPI_Datatype *handles,
                        struct dt_type **types, const char *function)
{
    int rc;
    if ((rc = check_counts(a, v->counts, n, names->counts, function)) ||
        (rc = check_displs(a, v->displs, n, names->displs, function)))
        return rc;
    if (n > 0 && !handles)
        return core_error_raise(a->comm, MPI_ERR_ARG, function, "%s is NULL", names->types);
    for (int i = 0; i < n; i++)
        if ((rc = check_count_type(a, v->counts[i], handles[i], &types[i], function)))
            return rc;
    return MPI_SUCCESS;
}

/* The buffers of a reduction whose result every rank receives: recvbuf never MPI_IN_PLACE,
 * sendbuf only on intracommunicators, and not one buffer passed as both. */
static int check_reduction_buffers(struct coll_args *a, const void *sendbuf,
                                   const void *recvbuf, MPI_Count count, const char *function)
{
    if (recvbuf == MPI_IN_PLACE)
        return in_place_error(a, "recvbuf", function);
    if (sendbuf == MPI_IN_PLACE)
        return check_in_place_intra(a, function);
    return check_alias(a, sendbuf, recvbuf, count, function);
}

/* ------------------------------------------------------------------------------------------ */
/* Converting and running.                                                                      */

/* The arrays of one side as MPI_Count / MPI_Aint: wide arrays are used as they are, int arrays
 * of the classic API are copied (NULL arrays stay NULL). */
static int widen(struct coll_args *a, struct mpi_coll_counts counts,
                 struct mpi_coll_displs displs, int n, struct vec *out, const char *function)
{
    out->counts = counts.wide;
    out->displs = displs.wide;
    out->heap = NULL;
    if (n <= 0 || (!counts.ints && !displs.ints))
        return MPI_SUCCESS;
    MPI_Count *c = out->local_counts;
    MPI_Aint *d = out->local_displs;
    char *mem = NULL;
    if (n > VEC_LOCAL) {
        mem = malloc((size_t)n * (sizeof(MPI_Count) + sizeof(MPI_Aint)));
        if (!mem)
            return core_error_raise(a->comm, MPI_ERR_NO_MEM, function, "out of memory");
        c = (MPI_Count *)mem;
        d = (MPI_Aint *)(mem + (size_t)n * sizeof(MPI_Count));
    }
    for (int i = 0; i < n; i++) {
        if (counts.ints)
            c[i] = counts.ints[i];
        if (displs.ints)
            d[i] = displs.ints[i];
    }
    if (counts.ints)
        out->counts = c;
    if (displs.ints)
        out->displs = d;
    out->heap = mem;
    return MPI_SUCCESS;
}

/* No arrays (yet). Not "= {0}", which would clear the local arrays on every call. */
static void vec_none(struct vec *v)
{
    v->counts = NULL;
    v->displs = NULL;
    v->heap = NULL;
}

static void vec_free(struct vec *v)
{
    free(v->heap);
    v->heap = NULL;
}

/* Both sides of an alltoallv/w, widened, into the argument record. */
static void use_vectors(struct coll_args *a, const struct vec *sv, const struct vec *rv)
{
    a->sendcounts = sv->counts;
    a->sdispls = sv->displs;
    a->recvcounts = rv->counts;
    a->rdispls = rv->displs;
}

/* The datatype arrays of a w collective: n_send + n_recv objects, freed by the caller. */
static int alloc_w_types(struct coll_args *a, int n_send, int n_recv, struct dt_type ***types,
                         const char *function)
{
    *types = calloc((size_t)(n_send + n_recv + 1), sizeof(**types));
    if (!*types)
        return core_error_raise(a->comm, MPI_ERR_NO_MEM, function, "out of memory");
    a->sendtypes = *types;
    a->recvtypes = *types + n_send;
    return MPI_SUCCESS;
}

/* Run in the requested form; the request handle is written only on success. */
static int run(struct coll_args *a, enum mpi_coll_mode mode, MPI_Request *request,
               const char *function)
{
    struct core_request *r = NULL;
    int rc;
    switch (mode) {
    case MPI_COLL_BLOCKING:
        rc = coll_run(a);
        break;
    case MPI_COLL_NONBLOCKING:
        rc = coll_start(a, &r);
        break;
    default:
        rc = coll_init(a, &r);
        break;
    }
    if (rc != MPI_SUCCESS)
        return raised(a->comm, rc, function);
    if (mode != MPI_COLL_BLOCKING)
        *request = core_request_to_handle(r);
    return MPI_SUCCESS;
}

/* After the checks: run when they passed. */
static int run_if(int rc, struct coll_args *a, enum mpi_coll_mode mode, MPI_Request *request,
                  const char *function)
{
    return rc != MPI_SUCCESS ? rc : run(a, mode, request, function);
}

/* ------------------------------------------------------------------------------------------ */
/* Barrier                                                                                      */

static int do_barrier(MPI_Comm comm, enum mpi_coll_mode mode, MPI_Request *request,
                      const char *function)
{
    struct coll_args a = {.kind = COLL_BARRIER};
    int rc = check_comm(comm, mode, request, &a, function);
    return run_if(rc, &a, mode, request, function);
}

int PMPI_Barrier(MPI_Comm comm)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return do_barrier(comm, MPI_COLL_BLOCKING, NULL, "MPI_Barrier");
}
#pragma weak MPI_Barrier = PMPI_Barrier

int PMPI_Ibarrier(MPI_Comm comm, MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return do_barrier(comm, MPI_COLL_NONBLOCKING, request, "MPI_Ibarrier");
}
#pragma weak MPI_Ibarrier = PMPI_Ibarrier

int PMPI_Barrier_init(MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    (void)info;
    return do_barrier(comm, MPI_COLL_PERSISTENT, request, "MPI_Barrier_init");
}
#pragma weak MPI_Barrier_init = PMPI_Barrier_init

/* ------------------------------------------------------------------------------------------ */
/* Bcast                                                                                        */

int mpi_coll_bcast(void *buf, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm,
                   enum mpi_coll_mode mode, MPI_Request *request, const char *function)
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
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return mpi_coll_bcast(buffer, count, datatype, root, comm, MPI_COLL_BLOCKING, NULL,
                          "MPI_Bcast");
}
#pragma weak MPI_Bcast = PMPI_Bcast

int PMPI_Ibcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
                MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return mpi_coll_bcast(buffer, count, datatype, root, comm, MPI_COLL_NONBLOCKING, request,
                          "MPI_Ibcast");
}
#pragma weak MPI_Ibcast = PMPI_Ibcast

int PMPI_Bcast_init(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
                    MPI_Info info, MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    (void)info;
    return mpi_coll_bcast(buffer, count, datatype, root, comm, MPI_COLL_PERSISTENT, request,
                          "MPI_Bcast_init");
}
#pragma weak MPI_Bcast_init = PMPI_Bcast_init

/* ------------------------------------------------------------------------------------------ */
/* Reduce, Allreduce, Reduce_scatter(_block), Scan, Exscan                                      */

int mpi_coll_reduce(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                    MPI_Op op, int root, MPI_Comm comm, enum mpi_coll_mode mode,
                    MPI_Request *request, const char *function)
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
        (rc = check_type(&a, datatype, &a.type, function)) ||
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
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return mpi_coll_reduce(sendbuf, recvbuf, count, datatype, op, root, comm, MPI_COLL_BLOCKING,
                           NULL, "MPI_Reduce");
}
#pragma weak MPI_Reduce = PMPI_Reduce

int PMPI_Ireduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                 MPI_Op op, int root, MPI_Comm comm, MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return mpi_coll_reduce(sendbuf, recvbuf, count, datatype, op, root, comm, MPI_COLL_NONBLOCKING,
                           request, "MPI_Ireduce");
}
#pragma weak MPI_Ireduce = PMPI_Ireduce

int PMPI_Reduce_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                     MPI_Op op, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    (void)info;
    return mpi_coll_reduce(sendbuf, recvbuf, count, datatype, op, root, comm, MPI_COLL_PERSISTENT,
                           request, "MPI_Reduce_init");
}
#pragma weak MPI_Reduce_init = PMPI_Reduce_init

/* Allreduce, Scan, Exscan: every rank sends and receives count elements; MPI_IN_PLACE as
 * sendbuf on intracommunicators. */
int mpi_coll_allreduce_like(enum coll_kind kind, const void *sendbuf, void *recvbuf,
                            MPI_Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                            enum mpi_coll_mode mode, MPI_Request *request,
                            const char *function)
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
    rc = check_reduction_buffers(&a, sendbuf, recvbuf, count, function);
    return run_if(rc, &a, mode, request, function);
}

int PMPI_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                   MPI_Op op, MPI_Comm comm)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return mpi_coll_allreduce_like(COLL_ALLREDUCE, sendbuf, recvbuf, count, datatype, op, comm,
                                   MPI_COLL_BLOCKING, NULL, "MPI_Allreduce");
}
#pragma weak MPI_Allreduce = PMPI_Allreduce

int PMPI_Iallreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                    MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return mpi_coll_allreduce_like(COLL_ALLREDUCE, sendbuf, recvbuf, count, datatype, op, comm,
                                   MPI_COLL_NONBLOCKING, request, "MPI_Iallreduce");
}
#pragma weak MPI_Iallreduce = PMPI_Iallreduce

int PMPI_Allreduce_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                        MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    (void)info;
    return mpi_coll_allreduce_like(COLL_ALLREDUCE, sendbuf, recvbuf, count, datatype, op, comm,
                                   MPI_COLL_PERSISTENT, request, "MPI_Allreduce_init");
}
#pragma weak MPI_Allreduce_init = PMPI_Allreduce_init

int PMPI_Scan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
              MPI_Comm comm)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return mpi_coll_allreduce_like(COLL_SCAN, sendbuf, recvbuf, count, datatype, op, comm,
                                   MPI_COLL_BLOCKING, NULL, "MPI_Scan");
}
#pragma weak MPI_Scan = PMPI_Scan

int PMPI_Iscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
               MPI_Comm comm, MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return mpi_coll_allreduce_like(COLL_SCAN, sendbuf, recvbuf, count, datatype, op, comm,
                                   MPI_COLL_NONBLOCKING, request, "MPI_Iscan");
}
#pragma weak MPI_Iscan = PMPI_Iscan

int PMPI_Scan_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                   MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    (void)info;
    return mpi_coll_allreduce_like(COLL_SCAN, sendbuf, recvbuf, count, datatype, op, comm,
                                   MPI_COLL_PERSISTENT, request, "MPI_Scan_init");
}
#pragma weak MPI_Scan_init = PMPI_Scan_init

int PMPI_Exscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                MPI_Comm comm)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return mpi_coll_allreduce_like(COLL_EXSCAN, sendbuf, recvbuf, count, datatype, op, comm,
                                   MPI_COLL_BLOCKING, NULL, "MPI_Exscan");
}
#pragma weak MPI_Exscan = PMPI_Exscan

int PMPI_Iexscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                 MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return mpi_coll_allreduce_like(COLL_EXSCAN, sendbuf, recvbuf, count, datatype, op, comm,
                                   MPI_COLL_NONBLOCKING, request, "MPI_Iexscan");
}
#pragma weak MPI_Iexscan = PMPI_Iexscan

int PMPI_Exscan_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                     MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    (void)info;
    return mpi_coll_allreduce_like(COLL_EXSCAN, sendbuf, recvbuf, count, datatype, op, comm,
                                   MPI_COLL_PERSISTENT, request, "MPI_Exscan_init");
}
#pragma weak MPI_Exscan_init = PMPI_Exscan_init


/* Reduce_scatter_block: recvcount per rank; Reduce_scatter: recvcounts[local size]. */
static int check_reduce_scatter(struct coll_args *a, const void *sendbuf, void *recvbuf,
                                MPI_Datatype datatype, MPI_Op op, const char *function)
{
    int rc, n = a->comm->size;
    MPI_Count mine = a->count, total = a->count * n;
    if (a->kind == COLL_REDUCE_SCATTER) {
        if ((rc = check_counts(a, a->recvcounts, n, "recvcounts", function)))
            return rc;
        total = 0;
        for (int i = 0; i < n; i++)
            total += a->recvcounts[i];
        mine = a->recvcounts[a->comm->rank];
    } else if ((rc = mpi_check_count(a->comm, a->count, function))) {
        return rc;
    }
    if ((rc = check_type(a, datatype, &a->type, function)) ||
        (rc = check_op(a, op, function)) ||
        (rc = check_data(a, sendbuf, total, datatype, &a->type, function)) ||
        (rc = check_data(a, recvbuf, mine, datatype, &a->type, function)))
        return rc;
    return check_reduction_buffers(a, sendbuf, recvbuf, total, function);
}

int mpi_coll_reduce_scatter(enum coll_kind kind, const void *sendbuf, void *recvbuf,
                            MPI_Count recvcount, struct mpi_coll_counts recvcounts,
                            MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                            enum mpi_coll_mode mode, MPI_Request *request,
                            const char *function)
{
    struct coll_args a = {.kind = kind, .sendbuf = sendbuf, .recvbuf = recvbuf,
                          .count = recvcount};
    struct vec v;
    int rc;
    if ((rc = check_comm(comm, mode, request, &a, function)) ||
        (rc = widen(&a, recvcounts, mpi_coll_no_displs(), a.comm->size, &v, function)))
        return rc;
    a.recvcounts = v.counts;
    rc = check_reduce_scatter(&a, sendbuf, recvbuf, datatype, op, function);
    rc = run_if(rc, &a, mode, request, function);
    vec_free(&v);
    return rc;
}

int PMPI_Reduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
                        MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return mpi_coll_reduce_scatter(COLL_REDUCE_SCATTER, sendbuf, recvbuf, 0,
                                   mpi_coll_int_counts(recvcounts), datatype, op, comm,
                                   MPI_COLL_BLOCKING, NULL, "MPI_Reduce_scatter");
}
#pragma weak MPI_Reduce_scatter = PMPI_Reduce_scatter

int PMPI_Ireduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
                         MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return mpi_coll_reduce_scatter(COLL_REDUCE_SCATTER, sendbuf, recvbuf, 0,
                                   mpi_coll_int_counts(recvcounts), datatype, op, comm,
                                   MPI_COLL_NONBLOCKING, request, "MPI_Ireduce_scatter");
}
#pragma weak MPI_Ireduce_scatter = PMPI_Ireduce_scatter

int PMPI_Reduce_scatter_init(const void *sendbuf, void *recvbuf, const int recvcounts[],
                             MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
                             MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    (void)info;
    return mpi_coll_reduce_scatter(COLL_REDUCE_SCATTER, sendbuf, recvbuf, 0,
                                   mpi_coll_int_counts(recvcounts), datatype, op, comm,
                                   MPI_COLL_PERSISTENT, request, "MPI_Reduce_scatter_init");
}
#pragma weak MPI_Reduce_scatter_init = PMPI_Reduce_scatter_init

int PMPI_Reduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount,
                              MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return mpi_coll_reduce_scatter(COLL_REDUCE_SCATTER_BLOCK, sendbuf, recvbuf, recvcount,
                                   mpi_coll_no_counts(), datatype, op, comm, MPI_COLL_BLOCKING,
                                   NULL, "MPI_Reduce_scatter_block");
}
#pragma weak MPI_Reduce_scatter_block = PMPI_Reduce_scatter_block

int PMPI_Ireduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount,
                               MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                               MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return mpi_coll_reduce_scatter(COLL_REDUCE_SCATTER_BLOCK, sendbuf, recvbuf, recvcount,
                                   mpi_coll_no_counts(), datatype, op, comm, MPI_COLL_NONBLOCKING,
                                   request, "MPI_Ireduce_scatter_block");
}
#pragma weak MPI_Ireduce_scatter_block = PMPI_Ireduce_scatter_block

int PMPI_Reduce_scatter_block_init(const void *sendbuf, void *recvbuf, int recvcount,
                                   MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                                   MPI_Info info, MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    (void)info;
    return mpi_coll_reduce_scatter(COLL_REDUCE_SCATTER_BLOCK, sendbuf, recvbuf, recvcount,
                                   mpi_coll_no_counts(), datatype, op, comm, MPI_COLL_PERSISTENT,
                                   request, "MPI_Reduce_scatter_block_init");
}
#pragma weak MPI_Reduce_scatter_block_init = PMPI_Reduce_scatter_block_init

/* ------------------------------------------------------------------------------------------ */
/* Gather(v), Scatter(v)                                                                        */

/* The root's side of a gather/scatter: one count per rank (v NULL), or counts + displs. */
static int check_root_side(struct coll_args *a, const void *buf, MPI_Count count,
                           const struct vec *v, const struct side_names *names,
                           MPI_Datatype datatype, struct dt_type **type, const char *function)
{
    if (!v)
        return check_blocks(a, buf, count, peers(a), datatype, type, function);
    return check_vector(a, buf, v, peers(a), names, datatype, type, 1, function);
}

/* The one block a non-root sends or receives (also the root's own on an intracommunicator
 * unless it passes MPI_IN_PLACE there). */
static int check_own_block(struct coll_args *a, const void *buf, MPI_Count count,
                           MPI_Datatype datatype, struct dt_type **type, const char *which,
                           const char *function)
{
    if (buf == MPI_IN_PLACE)
        return in_place_error(a, which, function);
    return check_data(a, buf, count, datatype, type, function);
}

static int has_own_block(const struct coll_args *a, const void *own_buf)
{
    if (a->comm->is_inter)
        return is_leaf(a);
    return !is_root(a) || own_buf != MPI_IN_PLACE;
}

static int check_gather(struct coll_args *a, MPI_Datatype sendtype, const struct vec *v,
                        MPI_Datatype recvtype, const char *function)
{
    int rc;
    if (has_own_block(a, a->sendbuf) &&
        (rc = check_own_block(a, a->sendbuf, a->sendcount, sendtype, &a->sendtype, "sendbuf",
                              function)))
        return rc;
    if (!is_root(a))
        return MPI_SUCCESS;
    if (a->recvbuf == MPI_IN_PLACE)
        return in_place_error(a, "recvbuf", function);
    if ((rc = check_root_side(a, a->recvbuf, a->recvcount, v, &gather_side, recvtype,
                              &a->recvtype, function)))
        return rc;
    if (a->comm->is_inter || a->sendbuf == MPI_IN_PLACE)
        return MPI_SUCCESS;
    return check_alias(a, a->sendbuf, a->recvbuf, a->sendcount, function);
}

static int check_scatter(struct coll_args *a, MPI_Datatype sendtype, const struct vec *v,
                         MPI_Datatype recvtype, const char *function)
{
    int rc;
    if (is_root(a)) {
        if (a->sendbuf == MPI_IN_PLACE)
            return in_place_error(a, "sendbuf", function);
        if ((rc = check_root_side(a, a->sendbuf, a->sendcount, v, &scatter_side, sendtype,
                                  &a->sendtype, function)))
            return rc;
    }
    if (!has_own_block(a, a->recvbuf))
        return MPI_SUCCESS;
    if ((rc = check_own_block(a, a->recvbuf, a->recvcount, recvtype, &a->recvtype, "recvbuf",
                              function)))
        return rc;
    if (!is_root(a) || a->comm->is_inter)
        return MPI_SUCCESS;
    return check_alias(a, a->sendbuf, a->recvbuf, a->recvcount, function);
}

/* Gather(v), Scatter(v). counts / displs are the root's vector of the v forms (recvcounts of
 * Gatherv, sendcounts of Scatterv), significant at the root only. */
int mpi_coll_rooted(enum coll_kind kind, const void *sendbuf, MPI_Count sendcount,
                    MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                    MPI_Datatype recvtype, struct mpi_coll_counts counts,
                    struct mpi_coll_displs displs, int root, MPI_Comm comm,
                    enum mpi_coll_mode mode, MPI_Request *request, const char *function)
{
    struct coll_args a = {.kind = kind, .sendbuf = sendbuf, .sendcount = sendcount,
                          .recvbuf = recvbuf, .recvcount = recvcount};
    struct vec v;
    vec_none(&v);
    int rc, gather = kind == COLL_GATHER || kind == COLL_GATHERV;
    int vector = kind == COLL_GATHERV || kind == COLL_SCATTERV;
    if ((rc = check_comm(comm, mode, request, &a, function)) ||
        (rc = check_root(&a, root, function)))
        return rc;
    if (vector && is_root(&a) && (rc = widen(&a, counts, displs, peers(&a), &v, function)))
        return rc;
    if (gather) {
        a.recvcounts = v.counts;
        a.rdispls = v.displs;
        rc = check_gather(&a, sendtype, vector ? &v : NULL, recvtype, function);
    } else {
        a.sendcounts = v.counts;
        a.sdispls = v.displs;
        rc = check_scatter(&a, sendtype, vector ? &v : NULL, recvtype, function);
    }
    rc = run_if(rc, &a, mode, request, function);
    vec_free(&v);
    return rc;
}

int PMPI_Gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return mpi_coll_rooted(COLL_GATHER, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                           mpi_coll_no_counts(), mpi_coll_no_displs(), root, comm,
                           MPI_COLL_BLOCKING, NULL, "MPI_Gather");
}
#pragma weak MPI_Gather = PMPI_Gather

int PMPI_Igather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                 int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                 MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return mpi_coll_rooted(COLL_GATHER, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                           mpi_coll_no_counts(), mpi_coll_no_displs(), root, comm,
                           MPI_COLL_NONBLOCKING, request, "MPI_Igather");
}
#pragma weak MPI_Igather = PMPI_Igather

int PMPI_Gather_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                     int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                     MPI_Info info, MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    (void)info;
    return mpi_coll_rooted(COLL_GATHER, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                           mpi_coll_no_counts(), mpi_coll_no_displs(), root, comm,
                           MPI_COLL_PERSISTENT, request, "MPI_Gather_init");
}
#pragma weak MPI_Gather_init = PMPI_Gather_init

int PMPI_Gatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                 const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                 MPI_Comm comm)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return mpi_coll_rooted(COLL_GATHERV, sendbuf, sendcount, sendtype, recvbuf, 0, recvtype,
                           mpi_coll_int_counts(recvcounts), mpi_coll_int_displs(displs), root, comm,
                           MPI_COLL_BLOCKING, NULL, "MPI_Gatherv");
}
#pragma weak MPI_Gatherv = PMPI_Gatherv

int PMPI_Igatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                  const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                  MPI_Comm comm, MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return mpi_coll_rooted(COLL_GATHERV, sendbuf, sendcount, sendtype, recvbuf, 0, recvtype,
                           mpi_coll_int_counts(recvcounts), mpi_coll_int_displs(displs), root, comm,
                           MPI_COLL_NONBLOCKING, request, "MPI_Igatherv");
}
#pragma weak MPI_Igatherv = PMPI_Igatherv

int PMPI_Gatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                      const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                      int root, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    (void)info;
    return mpi_coll_rooted(COLL_GATHERV, sendbuf, sendcount, sendtype, recvbuf, 0, recvtype,
                           mpi_coll_int_counts(recvcounts), mpi_coll_int_displs(displs), root, comm,
                           MPI_COLL_PERSISTENT, request, "MPI_Gatherv_init");
}
#pragma weak MPI_Gatherv_init = PMPI_Gatherv_init

int PMPI_Scatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                 int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return mpi_coll_rooted(COLL_SCATTER, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                           mpi_coll_no_counts(), mpi_coll_no_displs(), root, comm,
                           MPI_COLL_BLOCKING, NULL, "MPI_Scatter");
}
#pragma weak MPI_Scatter = PMPI_Scatter

int PMPI_Iscatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                  int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                  MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return mpi_coll_rooted(COLL_SCATTER, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                           mpi_coll_no_counts(), mpi_coll_no_displs(), root, comm,
                           MPI_COLL_NONBLOCKING, request, "MPI_Iscatter");
}
#pragma weak MPI_Iscatter = PMPI_Iscatter

int PMPI_Scatter_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                      int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                      MPI_Info info, MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    (void)info;
    return mpi_coll_rooted(COLL_SCATTER, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                           mpi_coll_no_counts(), mpi_coll_no_displs(), root, comm,
                           MPI_COLL_PERSISTENT, request, "MPI_Scatter_init");
}
#pragma weak MPI_Scatter_init = PMPI_Scatter_init

int PMPI_Scatterv(const void *sendbuf, const int sendcounts[], const int displs[],
                  MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                  int root, MPI_Comm comm)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return mpi_coll_rooted(COLL_SCATTERV, sendbuf, 0, sendtype, recvbuf, recvcount, recvtype,
                           mpi_coll_int_counts(sendcounts), mpi_coll_int_displs(displs), root, comm,
                           MPI_COLL_BLOCKING, NULL, "MPI_Scatterv");
}
#pragma weak MPI_Scatterv = PMPI_Scatterv

int PMPI_Iscatterv(const void *sendbuf, const int sendcounts[], const int displs[],
                   MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                   int root, MPI_Comm comm, MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return mpi_coll_rooted(COLL_SCATTERV, sendbuf, 0, sendtype, recvbuf, recvcount, recvtype,
                           mpi_coll_int_counts(sendcounts), mpi_coll_int_displs(displs), root, comm,
                           MPI_COLL_NONBLOCKING, request, "MPI_Iscatterv");
}
#pragma weak MPI_Iscatterv = PMPI_Iscatterv

int PMPI_Scatterv_init(const void *sendbuf, const int sendcounts[], const int displs[],
                       MPI_Datatype sendtype, void *recvbuf, int recvcount,
                       MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                       MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    (void)info;
    return mpi_coll_rooted(COLL_SCATTERV, sendbuf, 0, sendtype, recvbuf, recvcount, recvtype,
                           mpi_coll_int_counts(sendcounts), mpi_coll_int_displs(displs), root, comm,
                           MPI_COLL_PERSISTENT, request, "MPI_Scatterv_init");
}
#pragma weak MPI_Scatterv_init = PMPI_Scatterv_init

/* ------------------------------------------------------------------------------------------ */
/* Allgather(v) and Alltoall(v,w), also in their neighborhood forms                             */

static int is_neighborhood(enum coll_kind kind)
{
    return kind >= COLL_NEIGHBOR_ALLGATHER;
}

/* How many blocks each side moves: one per peer, or (neighborhood collectives, which take no
 * MPI_IN_PLACE) one per destination / source of the process topology. */
static int check_exchange(struct coll_args *a, int *nsend, int *nrecv, const char *function)
{
    if (!is_neighborhood(a->kind)) {
        *nsend = *nrecv = peers(a);
        return MPI_SUCCESS;
    }
    int rc = check_topology(a, nrecv, nsend, function);
    if (rc != MPI_SUCCESS)
        return rc;
    if (a->sendbuf == MPI_IN_PLACE || a->recvbuf == MPI_IN_PLACE)
        return in_place_error(a, a->sendbuf == MPI_IN_PLACE ? "sendbuf" : "recvbuf", function);
    return MPI_SUCCESS;
}

/* Every rank's send side of the allgather and alltoall forms: MPI_IN_PLACE (intracommunicators
 * only) or checked by the caller's check_side. */
static int check_send_in_place(struct coll_args *a, int *checked, const char *function)
{
    *checked = a->sendbuf == MPI_IN_PLACE;
    return *checked ? check_in_place_intra(a, function) : MPI_SUCCESS;
}

static int check_recv_in_place(struct coll_args *a, const char *function)
{
    return a->recvbuf == MPI_IN_PLACE ? in_place_error(a, "recvbuf", function) : MPI_SUCCESS;
}

static int check_allgather(struct coll_args *a, MPI_Datatype sendtype, const struct vec *v,
                           int n, MPI_Datatype recvtype, const char *function)
{
    int rc, in_place;
    if ((rc = check_send_in_place(a, &in_place, function)) ||
        (!in_place &&
         (rc = check_data(a, a->sendbuf, a->sendcount, sendtype, &a->sendtype, function))) ||
        (rc = check_recv_in_place(a, function)))
        return rc;
    /* No alias check here: MPI_Allgather(&x[rank * n], n, t, x, n, t, comm), common in older
     * codes, passes sendbuf == recvbuf on rank 0 with the same data in both; erroneous but
     * harmless, and Open MPI runs it. (Alltoall below: aliasing there loses data.) */
    if (v)
        return check_vector(a, a->recvbuf, v, n, &gather_side, recvtype, &a->recvtype, 0,
                            function);
    return check_blocks(a, a->recvbuf, a->recvcount, n, recvtype, &a->recvtype, function);
}

/* Allgather(v), Neighbor_allgather(v); recvcounts / displs for the v forms. */
int mpi_coll_allgather(enum coll_kind kind, const void *sendbuf, MPI_Count sendcount,
                       MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                       struct mpi_coll_counts recvcounts, struct mpi_coll_displs displs,
                       MPI_Datatype recvtype, MPI_Comm comm, enum mpi_coll_mode mode,
                       MPI_Request *request, const char *function)
{
    struct coll_args a = {.kind = kind, .sendbuf = sendbuf, .sendcount = sendcount,
                          .recvbuf = recvbuf, .recvcount = recvcount};
    struct vec v;
    vec_none(&v);
    int rc, nsend, nrecv;
    int vector = kind == COLL_ALLGATHERV || kind == COLL_NEIGHBOR_ALLGATHERV;
    if ((rc = check_comm(comm, mode, request, &a, function)) ||
        (rc = check_exchange(&a, &nsend, &nrecv, function)) ||
        (vector && (rc = widen(&a, recvcounts, displs, nrecv, &v, function))))
        return rc;
    a.recvcounts = v.counts;
    a.rdispls = v.displs;
    rc = check_allgather(&a, sendtype, vector ? &v : NULL, nrecv, recvtype, function);
    rc = run_if(rc, &a, mode, request, function);
    vec_free(&v);
    return rc;
}

int PMPI_Allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                   int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return mpi_coll_allgather(COLL_ALLGATHER, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                              mpi_coll_no_counts(), mpi_coll_no_displs(), recvtype, comm,
                              MPI_COLL_BLOCKING, NULL, "MPI_Allgather");
}
#pragma weak MPI_Allgather = PMPI_Allgather

int PMPI_Iallgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                    int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return mpi_coll_allgather(COLL_ALLGATHER, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                              mpi_coll_no_counts(), mpi_coll_no_displs(), recvtype, comm,
                              MPI_COLL_NONBLOCKING, request, "MPI_Iallgather");
}
#pragma weak MPI_Iallgather = PMPI_Iallgather

int PMPI_Allgather_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                        void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                        MPI_Info info, MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    (void)info;
    return mpi_coll_allgather(COLL_ALLGATHER, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                              mpi_coll_no_counts(), mpi_coll_no_displs(), recvtype, comm,
                              MPI_COLL_PERSISTENT, request, "MPI_Allgather_init");
}
#pragma weak MPI_Allgather_init = PMPI_Allgather_init

int PMPI_Allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                    const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                    MPI_Comm comm)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return mpi_coll_allgather(COLL_ALLGATHERV, sendbuf, sendcount, sendtype, recvbuf, 0,
                              mpi_coll_int_counts(recvcounts), mpi_coll_int_displs(displs),
                              recvtype, comm, MPI_COLL_BLOCKING, NULL, "MPI_Allgatherv");
}
#pragma weak MPI_Allgatherv = PMPI_Allgatherv

int PMPI_Iallgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                     const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                     MPI_Comm comm, MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return mpi_coll_allgather(COLL_ALLGATHERV, sendbuf, sendcount, sendtype, recvbuf, 0,
                              mpi_coll_int_counts(recvcounts), mpi_coll_int_displs(displs),
                              recvtype, comm, MPI_COLL_NONBLOCKING, request, "MPI_Iallgatherv");
}
#pragma weak MPI_Iallgatherv = PMPI_Iallgatherv

int PMPI_Allgatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                         void *recvbuf, const int recvcounts[], const int displs[],
                         MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                         MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    (void)info;
    return mpi_coll_allgather(COLL_ALLGATHERV, sendbuf, sendcount, sendtype, recvbuf, 0,
                              mpi_coll_int_counts(recvcounts), mpi_coll_int_displs(displs),
                              recvtype, comm, MPI_COLL_PERSISTENT, request, "MPI_Allgatherv_init");
}
#pragma weak MPI_Allgatherv_init = PMPI_Allgatherv_init

/* Alltoall, Neighbor_alltoall: n blocks of one count on each side. */
int mpi_coll_alltoall(enum coll_kind kind, const void *sendbuf, MPI_Count sendcount,
                      MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                      MPI_Datatype recvtype, MPI_Comm comm, enum mpi_coll_mode mode,
                      MPI_Request *request, const char *function)
{
    struct coll_args a = {.kind = kind, .sendbuf = sendbuf, .sendcount = sendcount,
                          .recvbuf = recvbuf, .recvcount = recvcount};
    int rc, nsend, nrecv, in_place;
    if ((rc = check_comm(comm, mode, request, &a, function)) ||
        (rc = check_exchange(&a, &nsend, &nrecv, function)) ||
        (rc = check_send_in_place(&a, &in_place, function)) ||
        (!in_place && (rc = check_blocks(&a, sendbuf, sendcount, nsend, sendtype, &a.sendtype,
                                         function))) ||
        (rc = check_recv_in_place(&a, function)) ||
        (!in_place && (rc = check_alias(&a, sendbuf, recvbuf, sendcount, function))))
        return rc;
    rc = check_blocks(&a, recvbuf, recvcount, nrecv, recvtype, &a.recvtype, function);
    return run_if(rc, &a, mode, request, function);
}

int PMPI_Alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                  int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return mpi_coll_alltoall(COLL_ALLTOALL, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                             recvtype, comm, MPI_COLL_BLOCKING, NULL, "MPI_Alltoall");
}
#pragma weak MPI_Alltoall = PMPI_Alltoall

int PMPI_Ialltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                   int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return mpi_coll_alltoall(COLL_ALLTOALL, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                             recvtype, comm, MPI_COLL_NONBLOCKING, request, "MPI_Ialltoall");
}
#pragma weak MPI_Ialltoall = PMPI_Ialltoall

int PMPI_Alltoall_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                       int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                       MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    (void)info;
    return mpi_coll_alltoall(COLL_ALLTOALL, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                             recvtype, comm, MPI_COLL_PERSISTENT, request, "MPI_Alltoall_init");
}
#pragma weak MPI_Alltoall_init = PMPI_Alltoall_init

/* Alltoallv, Neighbor_alltoallv: counts and displacements (in elements) per peer, one datatype
 * per side. Alltoallv checks the buffer of every block, the neighborhood form does not. */
int mpi_coll_alltoallv(enum coll_kind kind, const void *sendbuf,
                       struct mpi_coll_counts sendcounts, struct mpi_coll_displs sdispls,
                       MPI_Datatype sendtype, void *recvbuf, struct mpi_coll_counts recvcounts,
                       struct mpi_coll_displs rdispls, MPI_Datatype recvtype, MPI_Comm comm,
                       enum mpi_coll_mode mode, MPI_Request *request, const char *function)
{
    struct coll_args a = {.kind = kind, .sendbuf = sendbuf, .recvbuf = recvbuf};
    struct vec sv, rv;
    vec_none(&sv);
    vec_none(&rv);
    int rc, nsend, nrecv, in_place, buffers = !is_neighborhood(kind);
    if ((rc = check_comm(comm, mode, request, &a, function)) ||
        (rc = check_exchange(&a, &nsend, &nrecv, function)))
        return rc;
    if ((rc = widen(&a, sendcounts, sdispls, nsend, &sv, function)) ||
        (rc = widen(&a, recvcounts, rdispls, nrecv, &rv, function)))
        goto done;
    use_vectors(&a, &sv, &rv);
    if ((rc = check_send_in_place(&a, &in_place, function)) ||
        (!in_place && (rc = check_vector(&a, sendbuf, &sv, nsend, &send_side, sendtype,
                                         &a.sendtype, buffers, function))) ||
        (rc = check_recv_in_place(&a, function)) ||
        (rc = check_vector(&a, recvbuf, &rv, nrecv, &recv_side, recvtype, &a.recvtype, buffers,
                           function)))
        goto done;
    rc = run(&a, mode, request, function);
done:
    vec_free(&sv);
    vec_free(&rv);
    return rc;
}

int PMPI_Alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                   MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                   const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return mpi_coll_alltoallv(COLL_ALLTOALLV, sendbuf, mpi_coll_int_counts(sendcounts),
                              mpi_coll_int_displs(sdispls), sendtype, recvbuf,
                              mpi_coll_int_counts(recvcounts), mpi_coll_int_displs(rdispls),
                              recvtype, comm, MPI_COLL_BLOCKING, NULL, "MPI_Alltoallv");
}
#pragma weak MPI_Alltoallv = PMPI_Alltoallv

int PMPI_Ialltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                    MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                    const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                    MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return mpi_coll_alltoallv(COLL_ALLTOALLV, sendbuf, mpi_coll_int_counts(sendcounts),
                              mpi_coll_int_displs(sdispls), sendtype, recvbuf,
                              mpi_coll_int_counts(recvcounts), mpi_coll_int_displs(rdispls),
                              recvtype, comm, MPI_COLL_NONBLOCKING, request, "MPI_Ialltoallv");
}
#pragma weak MPI_Ialltoallv = PMPI_Ialltoallv

int PMPI_Alltoallv_init(const void *sendbuf, const int sendcounts[], const int sdispls[],
                        MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                        const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                        MPI_Info info, MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    (void)info;
    return mpi_coll_alltoallv(COLL_ALLTOALLV, sendbuf, mpi_coll_int_counts(sendcounts),
                              mpi_coll_int_displs(sdispls), sendtype, recvbuf,
                              mpi_coll_int_counts(recvcounts), mpi_coll_int_displs(rdispls),
                              recvtype, comm, MPI_COLL_PERSISTENT, request, "MPI_Alltoallv_init");
}
#pragma weak MPI_Alltoallv_init = PMPI_Alltoallv_init

/* Alltoallw, Neighbor_alltoallw: counts, byte displacements and a datatype per peer. */
int mpi_coll_alltoallw(enum coll_kind kind, const void *sendbuf,
                       struct mpi_coll_counts sendcounts, struct mpi_coll_displs sdispls,
                       const MPI_Datatype *sendtypes, void *recvbuf,
                       struct mpi_coll_counts recvcounts, struct mpi_coll_displs rdispls,
                       const MPI_Datatype *recvtypes, MPI_Comm comm, enum mpi_coll_mode mode,
                       MPI_Request *request, const char *function)
{
    struct coll_args a = {.kind = kind, .sendbuf = sendbuf, .recvbuf = recvbuf};
    struct vec sv, rv;
    vec_none(&sv);
    vec_none(&rv);
    struct dt_type **types = NULL;
    int rc, nsend, nrecv, in_place;
    if ((rc = check_comm(comm, mode, request, &a, function)) ||
        (rc = check_exchange(&a, &nsend, &nrecv, function)))
        return rc;
    if ((rc = widen(&a, sendcounts, sdispls, nsend, &sv, function)) ||
        (rc = widen(&a, recvcounts, rdispls, nrecv, &rv, function)) ||
        (rc = alloc_w_types(&a, nsend, nrecv, &types, function)))
        goto done;
    use_vectors(&a, &sv, &rv);
    if ((rc = check_send_in_place(&a, &in_place, function)) ||
        (!in_place &&
         (rc = check_w_side(&a, &sv, nsend, &send_side, sendtypes, types, function))) ||
        (rc = check_recv_in_place(&a, function)) ||
        (rc = check_w_side(&a, &rv, nrecv, &recv_side, recvtypes, types + nsend, function)))
        goto done;
    rc = run(&a, mode, request, function);
done:
    free(types);
    vec_free(&sv);
    vec_free(&rv);
    return rc;
}

int PMPI_Alltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[],
                   const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                   const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return mpi_coll_alltoallw(COLL_ALLTOALLW, sendbuf, mpi_coll_int_counts(sendcounts),
                              mpi_coll_int_displs(sdispls), sendtypes, recvbuf,
                              mpi_coll_int_counts(recvcounts), mpi_coll_int_displs(rdispls),
                              recvtypes, comm, MPI_COLL_BLOCKING, NULL, "MPI_Alltoallw");
}
#pragma weak MPI_Alltoallw = PMPI_Alltoallw

int PMPI_Ialltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[],
                    const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                    const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                    MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return mpi_coll_alltoallw(COLL_ALLTOALLW, sendbuf, mpi_coll_int_counts(sendcounts),
                              mpi_coll_int_displs(sdispls), sendtypes, recvbuf,
                              mpi_coll_int_counts(recvcounts), mpi_coll_int_displs(rdispls),
                              recvtypes, comm, MPI_COLL_NONBLOCKING, request, "MPI_Ialltoallw");
}
#pragma weak MPI_Ialltoallw = PMPI_Ialltoallw

int PMPI_Alltoallw_init(const void *sendbuf, const int sendcounts[], const int sdispls[],
                        const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                        const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                        MPI_Info info, MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    (void)info;
    return mpi_coll_alltoallw(COLL_ALLTOALLW, sendbuf, mpi_coll_int_counts(sendcounts),
                              mpi_coll_int_displs(sdispls), sendtypes, recvbuf,
                              mpi_coll_int_counts(recvcounts), mpi_coll_int_displs(rdispls),
                              recvtypes, comm, MPI_COLL_PERSISTENT, request, "MPI_Alltoallw_init");
}
#pragma weak MPI_Alltoallw_init = PMPI_Alltoallw_init

/* ------------------------------------------------------------------------------------------ */
/* Neighborhood collectives (the checks and calls above, with the topology's degrees)          */

int PMPI_Neighbor_allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                            void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return mpi_coll_allgather(COLL_NEIGHBOR_ALLGATHER, sendbuf, sendcount, sendtype, recvbuf,
                              recvcount, mpi_coll_no_counts(), mpi_coll_no_displs(), recvtype, comm,
                              MPI_COLL_BLOCKING, NULL, "MPI_Neighbor_allgather");
}
#pragma weak MPI_Neighbor_allgather = PMPI_Neighbor_allgather

int PMPI_Ineighbor_allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                             void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                             MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return mpi_coll_allgather(COLL_NEIGHBOR_ALLGATHER, sendbuf, sendcount, sendtype, recvbuf,
                              recvcount, mpi_coll_no_counts(), mpi_coll_no_displs(), recvtype, comm,
                              MPI_COLL_NONBLOCKING, request, "MPI_Ineighbor_allgather");
}
#pragma weak MPI_Ineighbor_allgather = PMPI_Ineighbor_allgather

int PMPI_Neighbor_allgather_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                 void *recvbuf, int recvcount, MPI_Datatype recvtype,
                                 MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    (void)info;
    return mpi_coll_allgather(COLL_NEIGHBOR_ALLGATHER, sendbuf, sendcount, sendtype, recvbuf,
                              recvcount, mpi_coll_no_counts(), mpi_coll_no_displs(), recvtype, comm,
                              MPI_COLL_PERSISTENT, request, "MPI_Neighbor_allgather_init");
}
#pragma weak MPI_Neighbor_allgather_init = PMPI_Neighbor_allgather_init

int PMPI_Neighbor_allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                             void *recvbuf, const int recvcounts[], const int displs[],
                             MPI_Datatype recvtype, MPI_Comm comm)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return mpi_coll_allgather(COLL_NEIGHBOR_ALLGATHERV, sendbuf, sendcount, sendtype, recvbuf, 0,
                              mpi_coll_int_counts(recvcounts), mpi_coll_int_displs(displs),
                              recvtype, comm, MPI_COLL_BLOCKING, NULL, "MPI_Neighbor_allgatherv");
}
#pragma weak MPI_Neighbor_allgatherv = PMPI_Neighbor_allgatherv

int PMPI_Ineighbor_allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                              void *recvbuf, const int recvcounts[], const int displs[],
                              MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return mpi_coll_allgather(COLL_NEIGHBOR_ALLGATHERV, sendbuf, sendcount, sendtype, recvbuf, 0,
                              mpi_coll_int_counts(recvcounts), mpi_coll_int_displs(displs),
                              recvtype, comm, MPI_COLL_NONBLOCKING, request,
                              "MPI_Ineighbor_allgatherv");
}
#pragma weak MPI_Ineighbor_allgatherv = PMPI_Ineighbor_allgatherv

int PMPI_Neighbor_allgatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                  void *recvbuf, const int recvcounts[], const int displs[],
                                  MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                  MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    (void)info;
    return mpi_coll_allgather(COLL_NEIGHBOR_ALLGATHERV, sendbuf, sendcount, sendtype, recvbuf, 0,
                              mpi_coll_int_counts(recvcounts), mpi_coll_int_displs(displs),
                              recvtype, comm, MPI_COLL_PERSISTENT, request,
                              "MPI_Neighbor_allgatherv_init");
}
#pragma weak MPI_Neighbor_allgatherv_init = PMPI_Neighbor_allgatherv_init

int PMPI_Neighbor_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                           void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return mpi_coll_alltoall(COLL_NEIGHBOR_ALLTOALL, sendbuf, sendcount, sendtype, recvbuf,
                             recvcount, recvtype, comm, MPI_COLL_BLOCKING, NULL,
                             "MPI_Neighbor_alltoall");
}
#pragma weak MPI_Neighbor_alltoall = PMPI_Neighbor_alltoall

int PMPI_Ineighbor_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                            void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                            MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return mpi_coll_alltoall(COLL_NEIGHBOR_ALLTOALL, sendbuf, sendcount, sendtype, recvbuf,
                             recvcount, recvtype, comm, MPI_COLL_NONBLOCKING, request,
                             "MPI_Ineighbor_alltoall");
}
#pragma weak MPI_Ineighbor_alltoall = PMPI_Ineighbor_alltoall

int PMPI_Neighbor_alltoall_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                void *recvbuf, int recvcount, MPI_Datatype recvtype,
                                MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    (void)info;
    return mpi_coll_alltoall(COLL_NEIGHBOR_ALLTOALL, sendbuf, sendcount, sendtype, recvbuf,
                             recvcount, recvtype, comm, MPI_COLL_PERSISTENT, request,
                             "MPI_Neighbor_alltoall_init");
}
#pragma weak MPI_Neighbor_alltoall_init = PMPI_Neighbor_alltoall_init

int PMPI_Neighbor_alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                            MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                            const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return mpi_coll_alltoallv(COLL_NEIGHBOR_ALLTOALLV, sendbuf, mpi_coll_int_counts(sendcounts),
                              mpi_coll_int_displs(sdispls), sendtype, recvbuf,
                              mpi_coll_int_counts(recvcounts), mpi_coll_int_displs(rdispls),
                              recvtype, comm, MPI_COLL_BLOCKING, NULL, "MPI_Neighbor_alltoallv");
}
#pragma weak MPI_Neighbor_alltoallv = PMPI_Neighbor_alltoallv

int PMPI_Ineighbor_alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                             MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                             const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                             MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return mpi_coll_alltoallv(COLL_NEIGHBOR_ALLTOALLV, sendbuf, mpi_coll_int_counts(sendcounts),
                              mpi_coll_int_displs(sdispls), sendtype, recvbuf,
                              mpi_coll_int_counts(recvcounts), mpi_coll_int_displs(rdispls),
                              recvtype, comm, MPI_COLL_NONBLOCKING, request,
                              "MPI_Ineighbor_alltoallv");
}
#pragma weak MPI_Ineighbor_alltoallv = PMPI_Ineighbor_alltoallv

int PMPI_Neighbor_alltoallv_init(const void *sendbuf, const int sendcounts[],
                                 const int sdispls[], MPI_Datatype sendtype, void *recvbuf,
                                 const int recvcounts[], const int rdispls[],
                                 MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                 MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    (void)info;
    return mpi_coll_alltoallv(COLL_NEIGHBOR_ALLTOALLV, sendbuf, mpi_coll_int_counts(sendcounts),
                              mpi_coll_int_displs(sdispls), sendtype, recvbuf,
                              mpi_coll_int_counts(recvcounts), mpi_coll_int_displs(rdispls),
                              recvtype, comm, MPI_COLL_PERSISTENT, request,
                              "MPI_Neighbor_alltoallv_init");
}
#pragma weak MPI_Neighbor_alltoallv_init = PMPI_Neighbor_alltoallv_init

int PMPI_Neighbor_alltoallw(const void *sendbuf, const int sendcounts[],
                            const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                            void *recvbuf, const int recvcounts[], const MPI_Aint rdispls[],
                            const MPI_Datatype recvtypes[], MPI_Comm comm)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return mpi_coll_alltoallw(COLL_NEIGHBOR_ALLTOALLW, sendbuf, mpi_coll_int_counts(sendcounts),
                              mpi_coll_wide_displs(sdispls), sendtypes, recvbuf,
                              mpi_coll_int_counts(recvcounts), mpi_coll_wide_displs(rdispls),
                              recvtypes, comm, MPI_COLL_BLOCKING, NULL, "MPI_Neighbor_alltoallw");
}
#pragma weak MPI_Neighbor_alltoallw = PMPI_Neighbor_alltoallw

int PMPI_Ineighbor_alltoallw(const void *sendbuf, const int sendcounts[],
                             const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                             void *recvbuf, const int recvcounts[], const MPI_Aint rdispls[],
                             const MPI_Datatype recvtypes[], MPI_Comm comm,
                             MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return mpi_coll_alltoallw(COLL_NEIGHBOR_ALLTOALLW, sendbuf, mpi_coll_int_counts(sendcounts),
                              mpi_coll_wide_displs(sdispls), sendtypes, recvbuf,
                              mpi_coll_int_counts(recvcounts), mpi_coll_wide_displs(rdispls),
                              recvtypes, comm, MPI_COLL_NONBLOCKING, request,
                              "MPI_Ineighbor_alltoallw");
}
#pragma weak MPI_Ineighbor_alltoallw = PMPI_Ineighbor_alltoallw

int PMPI_Neighbor_alltoallw_init(const void *sendbuf, const int sendcounts[],
                                 const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                                 void *recvbuf, const int recvcounts[],
                                 const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
                                 MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    (void)info;
    return mpi_coll_alltoallw(COLL_NEIGHBOR_ALLTOALLW, sendbuf, mpi_coll_int_counts(sendcounts),
                              mpi_coll_wide_displs(sdispls), sendtypes, recvbuf,
                              mpi_coll_int_counts(recvcounts), mpi_coll_wide_displs(rdispls),
                              recvtypes, comm, MPI_COLL_PERSISTENT, request,
                              "MPI_Neighbor_alltoallw_init");
}
#pragma weak MPI_Neighbor_alltoallw_init = PMPI_Neighbor_alltoallw_init
