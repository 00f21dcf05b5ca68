/* barrier.c - barrier algorithms over point-to-point: dissemination (ceil(log2 p) rounds of
 * empty messages, any p) and linear (gather to rank 0 and release, a simple reference). */
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
