/* allgather.c - allgather and allgatherv over point-to-point: recursive doubling (log p rounds,
 * power-of-two sizes), Bruck (log p rounds, any size, packed blocks rotated through a
 * temporary), ring (p-1 rounds, each rank forwards one block per round: large blocks) and
 * linear (everyone sends to everyone). Blocks land directly in the typed receive buffer except
 * in Bruck's algorithm. */
#include "coll/algorithms.h"

static void *slot(const struct coll_args *a, int rank)
{
    return coll_elem(a->recvbuf, (MPI_Count)rank * a->recvcount, a->recvtype);
}

static void copy_own_block(struct coll_sched *s, const struct coll_args *a)
{
    if (!coll_in_place(a->sendbuf))
        coll_sched_copy(s, a->sendbuf, a->sendcount, a->sendtype, slot(a, a->comm->rank),
                        a->recvcount, a->recvtype);
}

/* Our own block goes out from sendbuf, not from its copy in recvbuf: a peer reading the copy
 * takes the lines our copy has just written from our cache, and the next call's copy takes
 * them back (2 ranks, 1 MiB, vCPUs far: 620-660 us per call that way, 135 us this way; Open
 * MPI 107-125). */
static void send_own_block(struct coll_sched *s, const struct coll_args *a, int peer)
{
    if (coll_in_place(a->sendbuf))
        coll_sched_send(s, a->comm, peer, slot(a, a->comm->rank), a->recvcount, a->recvtype);
    else
        coll_sched_send(s, a->comm, peer, a->sendbuf, a->sendcount, a->sendtype);
}

int coll_allgather_recursive_doubling(struct coll_sched *s, const struct coll_args *a)
{
    struct core_comm *comm = a->comm;
    int rank = comm->rank;
    copy_own_block(s, a);
    /* before the round with `mask`, this rank holds blocks [rank & ~(mask-1), +mask) */
    for (int mask = 1; mask < comm->size; mask <<= 1) {
        int peer = rank ^ mask;
        int mine = rank & ~(mask - 1), theirs = peer & ~(mask - 1);
        coll_sched_recv(s, comm, peer, slot(a, theirs), mask * a->recvcount, a->recvtype);
        if (mask == 1)
            send_own_block(s, a, peer);
        else
            coll_sched_send(s, comm, peer, slot(a, mine), mask * a->recvcount, a->recvtype);
        coll_sched_round(s);
    }
    return MPI_SUCCESS;
}

/* Bruck et al. 1997: temp block i holds rank (rank + i)'s block; round k sends the first k
 * blocks to rank - k and appends the k blocks of rank + k. */
int coll_allgather_bruck(struct coll_sched *s, const struct coll_args *a)
{
    struct core_comm *comm = a->comm;
    int size = comm->size, rank = comm->rank;
    struct dt_type *byte = coll_byte_type();
    MPI_Count block = (MPI_Count)dt_packed_size(a->recvtype, a->recvcount);
    copy_own_block(s, a);
    if (size == 1 || block == 0)
        return MPI_SUCCESS;
    char *temp = coll_sched_temp(s, (size_t)(size * block));
    if (!temp)
        return MPI_ERR_NO_MEM;
    coll_sched_copy(s, slot(a, rank), a->recvcount, a->recvtype, temp, block, byte);
    for (int k = 1; k < size; k <<= 1) {
        int n = k < size - k ? k : size - k;
        coll_sched_recv(s, comm, (rank + k) % size, temp + k * block, n * block, byte);
        coll_sched_send(s, comm, (rank - k + size) % size, temp, n * block, byte);
        coll_sched_round(s);
    }
    for (int i = 1; i < size; i++)
        coll_sched_copy(s, temp + i * block, block, byte, slot(a, (rank + i) % size),
                        a->recvcount, a->recvtype);
    return MPI_SUCCESS;
}

int coll_allgather_ring(struct coll_sched *s, const struct coll_args *a)
{
    struct core_comm *comm = a->comm;
    int size = comm->size, rank = comm->rank;
    int left = (rank - 1 + size) % size, right = (rank + 1) % size;
    copy_own_block(s, a);
    for (int i = 0; i < size - 1; i++) {
        int sb = (rank - i + size) % size, rb = (rank - i - 1 + size) % size;
        coll_sched_recv(s, comm, left, slot(a, rb), a->recvcount, a->recvtype);
        if (i == 0)
            send_own_block(s, a, right);
        else
            coll_sched_send(s, comm, right, slot(a, sb), a->recvcount, a->recvtype);
        coll_sched_round(s);
    }
    return MPI_SUCCESS;
}

int coll_allgather_linear(struct coll_sched *s, const struct coll_args *a)
{
    struct core_comm *comm = a->comm;
    int size = comm->size, rank = comm->rank;
    copy_own_block(s, a);
    coll_sched_round(s);
    for (int i = 1; i < size; i++) {
        int peer = (rank + i) % size;
        coll_sched_recv(s, comm, peer, slot(a, peer), a->recvcount, a->recvtype);
    }
    for (int i = 1; i < size; i++)
        send_own_block(s, a, (rank - i + size) % size);
    coll_sched_round(s);
    return MPI_SUCCESS;
}

static void *vslot(const struct coll_args *a, int rank)
{
    return coll_elem(a->recvbuf, a->rdispls[rank], a->recvtype);
}

static void copy_own_vblock(struct coll_sched *s, const struct coll_args *a)
{
    int rank = a->comm->rank;
    if (!coll_in_place(a->sendbuf))
        coll_sched_copy(s, a->sendbuf, a->sendcount, a->sendtype, vslot(a, rank),
                        a->recvcounts[rank], a->recvtype);
}

/* As send_own_block. */
static void send_own_vblock(struct coll_sched *s, const struct coll_args *a, int peer)
{
    int rank = a->comm->rank;
    if (coll_in_place(a->sendbuf))
        coll_sched_send(s, a->comm, peer, vslot(a, rank), a->recvcounts[rank], a->recvtype);
    else
        coll_sched_send(s, a->comm, peer, a->sendbuf, a->sendcount, a->sendtype);
}

int coll_allgatherv_ring(struct coll_sched *s, const struct coll_args *a)
{
    struct core_comm *comm = a->comm;
    int size = comm->size, rank = comm->rank;
    int left = (rank - 1 + size) % size, right = (rank + 1) % size;
    copy_own_vblock(s, a);
    for (int i = 0; i < size - 1; i++) {
        int sb = (rank - i + size) % size, rb = (rank - i - 1 + size) % size;
        coll_sched_recv(s, comm, left, vslot(a, rb), a->recvcounts[rb], a->recvtype);
        if (i == 0)
            send_own_vblock(s, a, right);
        else
            coll_sched_send(s, comm, right, vslot(a, sb), a->recvcounts[sb], a->recvtype);
        coll_sched_round(s);
    }
    return MPI_SUCCESS;
}

int coll_allgatherv_linear(struct coll_sched *s, const struct coll_args *a)
{
    struct core_comm *comm = a->comm;
    int size = comm->size, rank = comm->rank;
    copy_own_vblock(s, a);
    coll_sched_round(s);
    for (int i = 1; i < size; i++) {
        int peer = (rank + i) % size;
        coll_sched_recv(s, comm, peer, vslot(a, peer), a->recvcounts[peer], a->recvtype);
    }
    for (int i = 1; i < size; i++)
        send_own_vblock(s, a, (rank - i + size) % size);
    coll_sched_round(s);
    return MPI_SUCCESS;
}
