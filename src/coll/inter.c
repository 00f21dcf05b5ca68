/* inter.c - collectives on intercommunicators, built from the intracommunicator algorithms run
 * on comm->local_comm plus point-to-point across the groups (p2p on an intercommunicator
 * addresses the remote group). Rooted collectives follow the standard: the root passes
 * MPI_ROOT, the rest of its group MPI_PROC_NULL, the other group the root's rank.
 *
 * Steps on the local communicator carry a tag from its sequence of the same tag space (kind
 * and form, see sched.h), steps across the groups one from the intercommunicator's; every
 * member of a group issues the same intercommunicator collectives in the same order, so both
 * sequences stay in step. */
#include "coll/algorithms.h"

struct inter {
    struct core_comm *comm;  /* the intercommunicator */
    struct core_comm *local; /* my group */
    int inter_tag, local_tag;
};

static int inter_begin(struct coll_sched *s, const struct coll_args *a, struct inter *x)
{
    x->comm = a->comm;
    x->local = a->comm->local_comm;
    if (!x->local)
        return MPI_ERR_COMM;
    x->inter_tag = s->tag;
    x->local_tag = coll_next_tag(x->local, s->tag_space);
    return MPI_SUCCESS;
}

static void across(struct coll_sched *s, const struct inter *x)
{
    s->tag = x->inter_tag;
}

static void within(struct coll_sched *s, const struct inter *x)
{
    s->tag = x->local_tag;
}

/* Local building blocks (on the local communicator, rooted at local rank 0). */
static int local_bcast(struct coll_sched *s, const struct inter *x, void *buf, MPI_Count count,
                       struct dt_type *type)
{
    struct coll_args b = {.kind = COLL_BCAST, .comm = x->local, .recvbuf = buf, .count = count,
                          .type = type, .root = 0};
    within(s, x);
    return coll_bcast_binomial(s, &b);
}

static int local_reduce(struct coll_sched *s, const struct inter *x, const void *sendbuf,
                        void *recvbuf, MPI_Count count, struct dt_type *type, struct coll_op *op)
{
    struct coll_args r = {.kind = COLL_REDUCE, .comm = x->local, .sendbuf = sendbuf,
                          .recvbuf = recvbuf, .count = count, .type = type, .op = op,
                          .root = 0};
    within(s, x);
    return coll_reduce_binomial(s, &r);
}

/* ------------------------------------------------------------------------------------------ */

static int inter_barrier(struct coll_sched *s, const struct coll_args *a, struct inter *x)
{
    struct dt_type *byte = coll_byte_type();
    struct coll_args b = {.kind = COLL_BARRIER, .comm = x->local};
    within(s, x);
    int rc = coll_barrier_dissemination(s, &b); /* my whole group has arrived */
    if (rc != MPI_SUCCESS)
        return rc;
    if (a->comm->rank == 0) {
        across(s, x);
        coll_sched_recv(s, x->comm, 0, NULL, 0, byte);
        coll_sched_send(s, x->comm, 0, NULL, 0, byte);
        coll_sched_round(s);
    }
    /* the leader releases its group once the other group has arrived */
    return local_bcast(s, x, NULL, 0, byte);
}

static int inter_bcast(struct coll_sched *s, const struct coll_args *a, struct inter *x)
{
    if (a->root == MPI_PROC_NULL)
        return MPI_SUCCESS;
    across(s, x);
    if (a->root == MPI_ROOT) {
        coll_sched_send(s, x->comm, 0, a->recvbuf, a->count, a->type);
        coll_sched_round(s);
        return MPI_SUCCESS;
    }
    if (a->comm->rank == 0) {
        coll_sched_recv(s, x->comm, a->root, a->recvbuf, a->count, a->type);
        coll_sched_round(s);
    }
    return local_bcast(s, x, a->recvbuf, a->count, a->type);
}

static int inter_reduce(struct coll_sched *s, const struct coll_args *a, struct inter *x)
{
    if (a->root == MPI_PROC_NULL)
        return MPI_SUCCESS;
    if (a->root == MPI_ROOT) {
        across(s, x);
        coll_sched_recv(s, x->comm, 0, a->recvbuf, a->count, a->type);
        coll_sched_round(s);
        return MPI_SUCCESS;
    }
    void *tmp = NULL;
    if (a->comm->rank == 0 && !(tmp = coll_sched_temp_typed(s, a->count, a->type)))
        return MPI_ERR_NO_MEM;
    int rc = local_reduce(s, x, a->sendbuf, tmp, a->count, a->type, a->op);
    if (rc != MPI_SUCCESS || a->comm->rank != 0)
        return rc;
    across(s, x);
    coll_sched_send(s, x->comm, a->root, tmp, a->count, a->type);
    coll_sched_round(s);
    return MPI_SUCCESS;
}

/* Each group reduces its own data to its leader; the leaders swap; each leader broadcasts
 * the other group's result to its group. */
static int inter_allreduce(struct coll_sched *s, const struct coll_args *a, struct inter *x)
{
    void *tmp = NULL;
    if (a->comm->rank == 0 && !(tmp = coll_sched_temp_typed(s, a->count, a->type)))
        return MPI_ERR_NO_MEM;
    int rc = local_reduce(s, x, a->sendbuf, tmp, a->count, a->type, a->op);
    if (rc != MPI_SUCCESS)
        return rc;
    if (a->comm->rank == 0) {
        across(s, x);
        coll_sched_recv(s, x->comm, 0, a->recvbuf, a->count, a->type);
        coll_sched_send(s, x->comm, 0, tmp, a->count, a->type);
        coll_sched_round(s);
    }
    return local_bcast(s, x, a->recvbuf, a->count, a->type);
}

/* Reduce_scatter(_block): reduce my group's vector to my leader, swap with the other leader,
 * scatter the other group's result over my group with my counts. */
static int inter_reduce_scatter(struct coll_sched *s, const struct coll_args *a,
                                struct inter *x)
{
    int size = a->comm->size, leader = a->comm->rank == 0;
    MPI_Count *counts = coll_sched_temp(s, (size_t)size * sizeof(MPI_Count));
    MPI_Aint *displs = coll_sched_temp(s, (size_t)size * sizeof(MPI_Aint));
    if (!counts || !displs)
        return MPI_ERR_NO_MEM;
    MPI_Count total = 0;
    for (int i = 0; i < size; i++) {
        counts[i] = a->kind == COLL_REDUCE_SCATTER ? a->recvcounts[i] : a->count;
        displs[i] = (MPI_Aint)total;
        total += counts[i];
    }
    void *mine = NULL, *theirs = NULL;
    if (leader && (!(mine = coll_sched_temp_typed(s, total, a->type)) ||
                   !(theirs = coll_sched_temp_typed(s, total, a->type))))
        return MPI_ERR_NO_MEM;
    int rc = local_reduce(s, x, a->sendbuf, mine, total, a->type, a->op);
    if (rc != MPI_SUCCESS)
        return rc;
    if (leader) {
        across(s, x);
        coll_sched_recv(s, x->comm, 0, theirs, total, a->type);
        coll_sched_send(s, x->comm, 0, mine, total, a->type);
        coll_sched_round(s);
    }
    struct coll_args v = {.kind = COLL_SCATTERV, .comm = x->local, .root = 0,
                          .sendbuf = theirs, .sendcounts = counts, .sdispls = displs,
                          .sendtype = a->type, .recvbuf = a->recvbuf,
                          .recvcount = counts[a->comm->rank], .recvtype = a->type};
    within(s, x);
    return coll_scatterv_linear(s, &v);
}

/* Gather/scatter families: the root talks to every remote rank directly. */
static int inter_gather(struct coll_sched *s, const struct coll_args *a, struct inter *x)
{
    across(s, x);
    if (a->root == MPI_PROC_NULL)
        return MPI_SUCCESS;
    if (a->root >= 0) {
        coll_sched_send(s, x->comm, a->root, a->sendbuf, a->sendcount, a->sendtype);
    } else {
        for (int r = 0; r < a->comm->remote_size; r++) {
            if (a->kind == COLL_GATHER)
                coll_sched_recv(s, x->comm, r,
                                coll_elem(a->recvbuf, (MPI_Count)r * a->recvcount, a->recvtype),
                                a->recvcount, a->recvtype);
            else
                coll_sched_recv(s, x->comm, r, coll_elem(a->recvbuf, a->rdispls[r], a->recvtype),
                                a->recvcounts[r], a->recvtype);
        }
    }
    coll_sched_round(s);
    return MPI_SUCCESS;
}

static int inter_scatter(struct coll_sched *s, const struct coll_args *a, struct inter *x)
{
    across(s, x);
    if (a->root == MPI_PROC_NULL)
        return MPI_SUCCESS;
    if (a->root >= 0) {
        coll_sched_recv(s, x->comm, a->root, a->recvbuf, a->recvcount, a->recvtype);
    } else {
        for (int r = 0; r < a->comm->remote_size; r++) {
            if (a->kind == COLL_SCATTER)
                coll_sched_send(s, x->comm, r,
                                coll_elem(a->sendbuf, (MPI_Count)r * a->sendcount, a->sendtype),
                                a->sendcount, a->sendtype);
            else
                coll_sched_send(s, x->comm, r, coll_elem(a->sendbuf, a->sdispls[r], a->sendtype),
                                a->sendcounts[r], a->sendtype);
        }
    }
    coll_sched_round(s);
    return MPI_SUCCESS;
}

/* Allgather(v) and alltoall(v,w): every rank exchanges with every remote rank at once. */
static int inter_exchange(struct coll_sched *s, const struct coll_args *a, struct inter *x)
{
    across(s, x);
    int n = a->comm->remote_size;
    for (int r = 0; r < n; r++) {
        switch (a->kind) {
        case COLL_ALLGATHER:
        case COLL_ALLTOALL:
            coll_sched_recv(s, x->comm, r,
                            coll_elem(a->recvbuf, (MPI_Count)r * a->recvcount, a->recvtype),
                            a->recvcount, a->recvtype);
            break;
        case COLL_ALLGATHERV:
        case COLL_ALLTOALLV:
            coll_sched_recv(s, x->comm, r, coll_elem(a->recvbuf, a->rdispls[r], a->recvtype),
                            a->recvcounts[r], a->recvtype);
            break;
        default:
            coll_sched_recv(s, x->comm, r, (char *)a->recvbuf + a->rdispls[r], a->recvcounts[r],
                            a->recvtypes[r]);
            break;
        }
    }
    for (int r = 0; r < n; r++) {
        switch (a->kind) {
        case COLL_ALLGATHER:
        case COLL_ALLGATHERV:
            coll_sched_send(s, x->comm, r, a->sendbuf, a->sendcount, a->sendtype);
            break;
        case COLL_ALLTOALL:
            coll_sched_send(s, x->comm, r,
                            coll_elem(a->sendbuf, (MPI_Count)r * a->sendcount, a->sendtype),
                            a->sendcount, a->sendtype);
            break;
        case COLL_ALLTOALLV:
            coll_sched_send(s, x->comm, r, coll_elem(a->sendbuf, a->sdispls[r], a->sendtype),
                            a->sendcounts[r], a->sendtype);
            break;
        default:
            coll_sched_send(s, x->comm, r, (const char *)a->sendbuf + a->sdispls[r],
                            a->sendcounts[r], a->sendtypes[r]);
            break;
        }
    }
    coll_sched_round(s);
    return MPI_SUCCESS;
}

int coll_inter_build(struct coll_sched *s, const struct coll_args *a)
{
    struct inter x;
    int rc = inter_begin(s, a, &x);
    if (rc != MPI_SUCCESS)
        return rc;
    switch (a->kind) {
    case COLL_BARRIER:
        return inter_barrier(s, a, &x);
    case COLL_BCAST:
        return inter_bcast(s, a, &x);
    case COLL_REDUCE:
        return inter_reduce(s, a, &x);
    case COLL_ALLREDUCE:
        return inter_allreduce(s, a, &x);
    case COLL_REDUCE_SCATTER:
    case COLL_REDUCE_SCATTER_BLOCK:
        return inter_reduce_scatter(s, a, &x);
    case COLL_GATHER:
    case COLL_GATHERV:
        return inter_gather(s, a, &x);
    case COLL_SCATTER:
    case COLL_SCATTERV:
        return inter_scatter(s, a, &x);
    case COLL_ALLGATHER:
    case COLL_ALLGATHERV:
    case COLL_ALLTOALL:
    case COLL_ALLTOALLV:
    case COLL_ALLTOALLW:
        return inter_exchange(s, a, &x);
    default:
        return MPI_ERR_COMM; /* scan/exscan: not defined on intercommunicators */
    }
}
