/* barrier.c - barrier algorithms over point-to-point: dissemination (ceil(log2 p) rounds of
 * empty messages, any p), tree (binomial fan-in, rank 0 releases; rank 0 leaves first) and
 * linear (gather to rank 0 and release, a simple reference). */
#include "coll/algorithms.h"

/* Round k: send to rank + 2^k, receive from rank - 2^k; after ceil(log2 p) rounds every rank
 * has heard, transitively, from every other (Hensgen, Finkel and Manber 1988). */
int coll_barrier_dissemination(struct coll_sched *s, const struct coll_args *a)
{
    struct core_comm *comm = a->comm;
    int size = comm->size, rank = comm->rank;
    struct dt_type *byte = coll_byte_type();
    for (int distance = 1; distance < size; distance <<= 1) {
        coll_sched_recv(s, comm, (rank - distance + size) % size, NULL, 0, byte);
        coll_sched_send(s, comm, (rank + distance) % size, NULL, 0, byte);
        coll_sched_round(s);
    }
    return MPI_SUCCESS;
}

int coll_barrier_linear(struct coll_sched *s, const struct coll_args *a)
{
    struct core_comm *comm = a->comm;
    struct dt_type *byte = coll_byte_type();
    if (comm->size == 1)
        return MPI_SUCCESS;
    if (comm->rank == 0) {
        for (int r = 1; r < comm->size; r++)
            coll_sched_recv(s, comm, r, NULL, 0, byte);
        coll_sched_round(s);
        for (int r = 1; r < comm->size; r++)
            coll_sched_send(s, comm, r, NULL, 0, byte);
    } else {
        coll_sched_send(s, comm, 0, NULL, 0, byte);
        coll_sched_recv(s, comm, 0, NULL, 0, byte);
    }
    coll_sched_round(s);
    return MPI_SUCCESS;
}

/* Binomial fan-in to rank 0, then rank 0 releases every rank directly (ceil(log2 p) + 1 steps).
 * Rank 0 leaves first, so whatever it sends right after the barrier - the root of the usual
 * "collective, barrier" loop - is already queued when the others leave. Oversubscribed that
 * matters: a dissemination barrier lets every rank leave at once, and a receiver that reaches
 * the next collective before its root has been scheduled waits for it (4 ranks on 2 cores, OSU
 * medians of 3 runs over 1 B-1 KiB: bcast 2.39 -> 0.18 us, scatter 1.47 -> 0.19, reduce 2.93
 * -> 2.10, barrier itself 5.79 -> 6.08; Open MPI 0.28, 0.59, 1.93, 4.87; docs/benchmarks.md
 * "Session 13"). The release is direct, not a binomial tree: no rank waits to be scheduled to
 * forward it (4 ranks on 2 cores: barrier 5.7-5.9 us against 6.9-7.9 with a binomial release). */
int coll_barrier_tree(struct coll_sched *s, const struct coll_args *a)
{
    struct core_comm *comm = a->comm;
    int size = comm->size, rank = comm->rank;
    struct dt_type *byte = coll_byte_type();
    if (size == 1)
        return MPI_SUCCESS;
    int lowbit = 1; /* the parent is rank - lowbit; the children rank + m for m < lowbit */
    while (lowbit < size && !(rank & lowbit))
        lowbit <<= 1;
    for (int m = 1; m < lowbit && rank + m < size; m <<= 1)
        coll_sched_recv(s, comm, rank + m, NULL, 0, byte);
    coll_sched_round(s);
    if (rank != 0) {
        coll_sched_send(s, comm, rank - lowbit, NULL, 0, byte);
        coll_sched_recv(s, comm, 0, NULL, 0, byte);
    } else {
        for (int r = 1; r < size; r++)
            coll_sched_send(s, comm, r, NULL, 0, byte);
    }
    coll_sched_round(s);
    return MPI_SUCCESS;
}
