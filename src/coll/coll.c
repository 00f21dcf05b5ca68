/* coll.c - entry points of the collective layer: run a collective blocking, start it as a
 * nonblocking request, or build it once as a persistent request; plus the named wrappers other
 * layers call. Requests made here are CORE_REQUEST_GENERIC with a poll callback that advances
 * their schedule; the progress engine polls them from every MPI call that progresses. */
#include "coll/coll.h"

#include "coll/algorithms.h"
#include "coll/copy_choice.h"
#include "core/progress.h"
#include "core/request.h"
#include "core/tool_event.h"

static int build(struct coll_sched *s, const struct coll_args *a)
{
    int rc = coll_build(s, a);
    return rc != MPI_SUCCESS ? rc : s->build_error;
}

/* Collective operations started by this process (an MPI_T counter, src/mpi/mpit.c). */
static unsigned long long operations;

unsigned long long coll_operations(void)
{
    return operations;
}

/* Are all n parts of counts (of type, or of types[i]) empty? */
static int all_empty(const MPI_Count *counts, const struct dt_type *type,
                     struct dt_type *const *types, int n)
{
    for (int i = 0; i < n; i++)
        if (coll_bytes_of(counts[i], types ? types[i] : type))
            return 0;
    return 1;
}

/* Does a blocking intracommunicator collective move no data at all? Decided from arguments
 * significant on this rank that, by the standard's matching type signatures, give the same
 * answer on every rank (the uniform counts of the non-v forms; the root's or the leaf's side of
 * a rooted one), or, for the v forms, say that none of this rank's parts has a byte (its peers
 * then skip their transfers with it). Such a call has nothing to wait for - a collective need
 * not synchronize - so it returns at once, as Open MPI's and MPICH's do: IMB's 0-byte rows of
 * Bcast, Gather, Scatter, Allgather, Alltoall, Reduce and Allreduce took 0.26-0.38 us at 2 ranks
 * through the pair exchange against their 0.03-0.04 (docs/external-tests.md, "Intel MPI
 * Benchmarks"); at 4 ranks Allgatherv 4.2 us, Gatherv 1.3 against 0.03-0.04. */
static int moves_no_data(const struct coll_args *a)
{
    if (a->comm->is_inter)
        return 0;
    int root = a->comm->rank == a->root;
    switch (a->kind) {
    case COLL_BCAST:
    case COLL_REDUCE:
    case COLL_ALLREDUCE:
    case COLL_SCAN:
    case COLL_EXSCAN:
        return coll_bytes_of(a->count, a->type) == 0;
    case COLL_GATHER: /* the root's recvcount is every leaf's sendcount */
        return root ? coll_bytes_of(a->recvcount, a->recvtype) == 0
                    : coll_bytes_of(a->sendcount, a->sendtype) == 0;
    case COLL_SCATTER:
        return root ? coll_bytes_of(a->sendcount, a->sendtype) == 0
                    : coll_bytes_of(a->recvcount, a->recvtype) == 0;
    case COLL_ALLGATHER: /* recvcount is significant everywhere, in place or not */
    case COLL_ALLTOALL:
        return coll_bytes_of(a->recvcount, a->recvtype) == 0;
    case COLL_REDUCE_SCATTER_BLOCK:
        return coll_bytes_of(a->count, a->type) == 0;
    /* The v forms: a rank's 0-byte part travels neither way (gather.c, alltoall.c), so a rank
     * whose every part is empty has nothing to do; the vectors below are significant where
     * they are read (the root's for gatherv/scatterv, everyone's otherwise). */
    case COLL_GATHERV:
        return root ? all_empty(a->recvcounts, a->recvtype, NULL, a->comm->size)
                    : coll_bytes_of(a->sendcount, a->sendtype) == 0;
    case COLL_SCATTERV:
        return root ? all_empty(a->sendcounts, a->sendtype, NULL, a->comm->size)
                    : coll_bytes_of(a->recvcount, a->recvtype) == 0;
    case COLL_ALLGATHERV:
        return all_empty(a->recvcounts, a->recvtype, NULL, a->comm->size);
    case COLL_REDUCE_SCATTER:
        return all_empty(a->recvcounts, a->type, NULL, a->comm->size);
    case COLL_ALLTOALLV:
        return all_empty(a->recvcounts, a->recvtype, NULL, a->comm->size) &&
               (coll_in_place(a->sendbuf) ||
                all_empty(a->sendcounts, a->sendtype, NULL, a->comm->size));
    case COLL_ALLTOALLW:
        return all_empty(a->recvcounts, NULL, a->recvtypes, a->comm->size) &&
               (coll_in_place(a->sendbuf) ||
                all_empty(a->sendcounts, NULL, a->sendtypes, a->comm->size));
    default:
        return 0;
    }
}

/* Which path a blocking collective takes, in the order they are tried: the ones that build
 * no schedule first, else a schedule (coll_run_schedule). */
static enum core_event_coll_path_kind blocking_path(const struct coll_args *a)
{
    if (moves_no_data(a))
        return CORE_COLL_PATH_NO_DATA;
    if (coll_pair_applies(a)) /* two ranks, small: the exchange itself (pair.c) */
        return CORE_COLL_PATH_PAIR;
    if (coll_shm_barrier_applies(a)) /* oversubscribed: a shared counter (shm_barrier.c) */
        return CORE_COLL_PATH_SHM_BARRIER;
    if (coll_shm_allreduce_applies(a)) /* oversubscribed, small: the same, with data */
        return CORE_COLL_PATH_SHM_ALLREDUCE;
    if (coll_shm_allgather_applies(a))
        return CORE_COLL_PATH_SHM_ALLGATHER;
    if (coll_shm_alltoall_applies(a))
        return CORE_COLL_PATH_SHM_ALLTOALL;
    if (coll_shm_reduce_scatter_applies(a))
        return CORE_COLL_PATH_SHM_REDUCE_SCATTER;
    if (coll_linear_direct_applies(a)) /* linear, small: no schedule (linear_direct.c) */
        return CORE_COLL_PATH_LINEAR_DIRECT;
    return CORE_COLL_PATH_SCHEDULE;
}

static int run_blocking(const struct coll_args *a)
{
    operations++;
    enum core_event_coll_path_kind path = blocking_path(a);
    /* MPI_T event nodempi_coll_path (one relaxed load when no tool listens); a schedule's is
     * raised by coll_build, which knows the algorithm (select.c) */
    if (path != CORE_COLL_PATH_SCHEDULE && core_event_wanted(CORE_EVENT_COLL_PATH))
        coll_raise_path(a, path, -1);
    switch (path) {
    case CORE_COLL_PATH_NO_DATA:
        /* the tag the call would have drawn: a v form's empty rank returns here while its
         * peers run a schedule, and the next collective's tags must agree on every rank */
        coll_next_tag(a->comm, coll_tag_space(a->kind, COLL_FORM_BLOCKING));
        return MPI_SUCCESS;
    case CORE_COLL_PATH_PAIR:
        return coll_pair_run(a);
    case CORE_COLL_PATH_SHM_BARRIER:
        return coll_shm_barrier_run(a);
    case CORE_COLL_PATH_SHM_ALLREDUCE:
        return coll_shm_allreduce_run(a);
    case CORE_COLL_PATH_SHM_ALLGATHER:
        return coll_shm_allgather_run(a);
    case CORE_COLL_PATH_SHM_ALLTOALL:
        return coll_shm_alltoall_run(a);
    case CORE_COLL_PATH_SHM_REDUCE_SCATTER:
        return coll_shm_reduce_scatter_run(a);
    case CORE_COLL_PATH_LINEAR_DIRECT:
        return coll_linear_direct_run(a);
    default:
        return coll_run_schedule(a);
    }
}

int coll_run_schedule(const struct coll_args *a)
{
    struct coll_sched *s = coll_sched_get(a->comm, a->kind, COLL_FORM_BLOCKING);
    if (!s)
        return MPI_ERR_NO_MEM;
    int rc = build(s, a);
    if (rc == MPI_SUCCESS)
        rc = coll_sched_run(s);
    coll_sched_put(s);
    return rc;
}

int coll_run(const struct coll_args *a)
{
    coll_shm_barrier_note_next(a);
    if (!coll_copy_choice_begin(a))
        return run_blocking(a);
    int rc = run_blocking(a);
    coll_copy_choice_end();
    return rc;
}

static int poll_request(struct core_request *request)
{
    int done;
    int rc = coll_sched_poll(request->state, &done);
    if (done) {
        request->status.MPI_ERROR = rc;
        request->complete = 1;
    }
    return MPI_SUCCESS;
}

static void free_request_state(struct core_request *request)
{
    if (request->state)
        coll_sched_put(request->state);
    request->state = NULL;
}

static int make_request(const struct coll_args *a, int persistent, struct core_request **out)
{
    struct coll_sched *s = coll_sched_get(a->comm, a->kind,
                                          persistent ? COLL_FORM_PERSISTENT
                                                     : COLL_FORM_NONBLOCKING);
    if (!s)
        return MPI_ERR_NO_MEM;
    int rc = build(s, a);
    struct core_request *request = rc == MPI_SUCCESS ? core_request_alloc(CORE_REQUEST_GENERIC)
                                                     : NULL;
    if (!request) {
        coll_sched_put(s);
        return rc != MPI_SUCCESS ? rc : MPI_ERR_NO_MEM;
    }
    request->comm = a->comm;
    core_comm_retain(a->comm);
    request->poll = poll_request;
    request->free_state = free_request_state;
    request->state = s;
    request->persistent = persistent;
    core_status_set_empty(&request->status);
    /* an inactive persistent request behaves as complete until started */
    request->complete = persistent;
    *out = request;
    return MPI_SUCCESS;
}

/* Rewind the schedule and issue its first round at once, so the collective is under way when
 * the starting call returns; the progress engine does the rest. Also the `start` callback of
 * persistent requests (MPI_Start -> core_request_start_generic). */
static int start_request(struct core_request *request)
{
    operations++;
    core_status_set_empty(&request->status);
    request->complete = 0;
    request->completion_order = 0; /* a persistent restart: no stamp of the last completion */
    coll_sched_start(request->state);
    return poll_request(request);
}

int coll_start(const struct coll_args *a, struct core_request **out)
{
    coll_shm_barrier_note_next(a);
    int rc = make_request(a, 0, out);
    if (rc != MPI_SUCCESS)
        return rc;
    start_request(*out);
    if (!(*out)->complete)
        core_progress_add_generic(*out);
    return MPI_SUCCESS;
}

int coll_init(const struct coll_args *a, struct core_request **out)
{
    int rc = make_request(a, 1, out);
    if (rc == MPI_SUCCESS)
        (*out)->start = start_request;
    return rc;
}

void coll_comm_free(struct core_comm *comm)
{
    coll_comm_state_free(comm);
}

/* ------------------------------------------------------------------------------------------ */
/* Named wrappers for other layers.                                                             */

int coll_barrier(struct core_comm *comm)
{
    struct coll_args a = {.kind = COLL_BARRIER, .comm = comm};
    return coll_run(&a);
}

int coll_bcast(void *buf, MPI_Count count, struct dt_type *type, int root, struct core_comm *comm)
{
    struct coll_args a = {.kind = COLL_BCAST, .comm = comm, .recvbuf = buf, .count = count,
                          .type = type, .root = root};
    return coll_run(&a);
}

int coll_reduce(const void *sendbuf, void *recvbuf, MPI_Count count, struct dt_type *type,
                struct coll_op *op, int root, struct core_comm *comm)
{
    struct coll_args a = {.kind = COLL_REDUCE, .comm = comm, .sendbuf = sendbuf,
                          .recvbuf = recvbuf, .count = count, .type = type, .op = op,
                          .root = root};
    return coll_run(&a);
}

int coll_allreduce(const void *sendbuf, void *recvbuf, MPI_Count count, struct dt_type *type,
                   struct coll_op *op, struct core_comm *comm)
{
    struct coll_args a = {.kind = COLL_ALLREDUCE, .comm = comm, .sendbuf = sendbuf,
                          .recvbuf = recvbuf, .count = count, .type = type, .op = op};
    return coll_run(&a);
}

int coll_allgather(const void *sendbuf, MPI_Count sendcount, struct dt_type *sendtype,
                   void *recvbuf, MPI_Count recvcount, struct dt_type *recvtype,
                   struct core_comm *comm)
{
    struct coll_args a = {.kind = COLL_ALLGATHER, .comm = comm, .sendbuf = sendbuf,
                          .sendcount = sendcount, .sendtype = sendtype, .recvbuf = recvbuf,
                          .recvcount = recvcount, .recvtype = recvtype};
    return coll_run(&a);
}
