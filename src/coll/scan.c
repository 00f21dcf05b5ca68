/* scan.c - inclusive and exclusive prefix reductions over point-to-point: recursive doubling
 * (log p rounds; each rank keeps the reduction of its aligned group of ranks, `partial`, and
 * folds in what lower partners send) and linear (a chain, p-1 rounds: every rank wakes
 * once, the choice at 2 ranks and when oversubscribed, select.c).
 * Non-commutative ops combine lower ranks' data first, as everywhere in src/coll. */
#include "coll/algorithms.h"

static const void *scan_input(const struct coll_args *a)
{
    return coll_in_place(a->sendbuf) ? a->recvbuf : a->sendbuf;
}

/* exclusive = 0: recvbuf = input(0) op ... op input(rank); exclusive = 1: up to rank - 1. */
static int recursive_doubling(struct coll_sched *s, const struct coll_args *a, int exclusive)
{
    struct core_comm *comm = a->comm;
    int size = comm->size, rank = comm->rank;
    MPI_Count count = a->count;
    struct dt_type *type = a->type;
    if (count == 0)
        return MPI_SUCCESS;
    const void *input = scan_input(a);
    void *partial = coll_sched_temp_typed(s, count, type);
    void *tmp = coll_sched_temp_typed(s, count, type);
    if (!partial || !tmp)
        return MPI_ERR_NO_MEM;
    coll_sched_copy(s, input, count, type, partial, count, type);
    if (!exclusive)
        coll_sched_copy(s, input, count, type, a->recvbuf, count, type);
    int have_result = !exclusive;
    for (int mask = 1; mask < size; mask <<= 1) {
        int peer = rank ^ mask;
        if (peer >= size)
            continue;
        coll_sched_recv(s, comm, peer, tmp, count, type);
        coll_sched_send(s, comm, peer, partial, count, type);
        coll_sched_round(s);
        if (peer < rank) {
            if (have_result)
                coll_sched_reduce(s, tmp, a->recvbuf, count, type, a->op);
            else
                coll_sched_copy(s, tmp, count, type, a->recvbuf, count, type);
            have_result = 1;
            coll_sched_reduce(s, tmp, partial, count, type, a->op);
        } else if (a->op->commutative) {
            coll_sched_reduce(s, tmp, partial, count, type, a->op);
        } else {
            /* partial op tmp, computed into tmp, which becomes the partial */
            coll_sched_reduce(s, partial, tmp, count, type, a->op);
            void *swap = partial;
            partial = tmp;
            tmp = swap;
        }
    }
    return MPI_SUCCESS;
}

int coll_scan_recursive_doubling(struct coll_sched *s, const struct coll_args *a)
{
    return recursive_doubling(s, a, 0);
}

int coll_exscan_recursive_doubling(struct coll_sched *s, const struct coll_args *a)
{
    return recursive_doubling(s, a, 1);
}

/* The chain. A commutative op lets the prefix land in recvbuf and the input fold into it
 * (prefix op input = input op prefix), so no rank copies its input first: at 2 ranks, 1 MiB,
 * that copy was a quarter of MPI_Scan's time. */
int coll_scan_linear(struct coll_sched *s, const struct coll_args *a)
{
    struct core_comm *comm = a->comm;
    int size = comm->size, rank = comm->rank;
    MPI_Count count = a->count;
    struct dt_type *type = a->type;
    if (count == 0)
        return MPI_SUCCESS;
    const void *input = scan_input(a);
    if (rank == 0) {
        if (!coll_in_place(a->sendbuf))
            coll_sched_copy(s, input, count, type, a->recvbuf, count, type);
    } else if (a->op->commutative && !coll_in_place(a->sendbuf)) {
        coll_sched_recv(s, comm, rank - 1, a->recvbuf, count, type);
        coll_sched_round(s);
        coll_sched_reduce(s, input, a->recvbuf, count, type, a->op);
    } else {
        void *prefix = coll_sched_temp_typed(s, count, type);
        if (!prefix)
            return MPI_ERR_NO_MEM;
        if (!coll_in_place(a->sendbuf))
            coll_sched_copy(s, input, count, type, a->recvbuf, count, type);
        coll_sched_recv(s, comm, rank - 1, prefix, count, type);
        coll_sched_round(s);
        coll_sched_reduce(s, prefix, a->recvbuf, count, type, a->op);
    }
    if (rank < size - 1) {
        coll_sched_send(s, comm, rank + 1, a->recvbuf, count, type);
        coll_sched_round(s);
    }
    return MPI_SUCCESS;
}

/* The chain. Rank 0 passes its input on as it is and the last rank passes nothing on, so
 * only the ranks between keep a copy of their input to fold the prefix into. */
int coll_exscan_linear(struct coll_sched *s, const struct coll_args *a)
{
    struct core_comm *comm = a->comm;
    int size = comm->size, rank = comm->rank;
    MPI_Count count = a->count;
    struct dt_type *type = a->type;
    if (count == 0)
        return MPI_SUCCESS;
    const void *input = scan_input(a);
    if (rank == 0) {
        /* recvbuf is undefined on rank 0, so with MPI_IN_PLACE the input stays as it is */
        if (size > 1) {
            coll_sched_send(s, comm, 1, input, count, type);
            coll_sched_round(s);
        }
        return MPI_SUCCESS;
    }
    if (rank == size - 1) {
        coll_sched_recv(s, comm, rank - 1, a->recvbuf, count, type);
        coll_sched_round(s);
        return MPI_SUCCESS;
    }
    /* what we pass on: prefix(rank - 1) op input(rank); the input is copied first because
     * with MPI_IN_PLACE it lives in recvbuf, which receives the prefix */
    void *onward = coll_sched_temp_typed(s, count, type);
    if (!onward)
        return MPI_ERR_NO_MEM;
    coll_sched_copy(s, input, count, type, onward, count, type);
    coll_sched_recv(s, comm, rank - 1, a->recvbuf, count, type);
    coll_sched_round(s);
    coll_sched_reduce(s, a->recvbuf, onward, count, type, a->op);
    coll_sched_send(s, comm, rank + 1, onward, count, type);
    coll_sched_round(s);
    return MPI_SUCCESS;
}
