/* gather.c - gather and scatter (and their v forms) over point-to-point: binomial trees that
 * forward whole subtrees as packed bytes (log p rounds: small blocks) and linear algorithms
 * (root talks to each rank directly into or out of the user buffer: large blocks, and the
 * only choice for the v forms, whose counts non-roots do not know). */
#include "coll/algorithms.h"

/* Ranks in the binomial subtree of relative rank rel: [rel, rel + subtree). */
static int subtree_size(int rel, int size)
{
    if (rel == 0)
        return size;
    int low = rel & -rel;
    return low < size - rel ? low : size - rel;
}

/* The root's own block in the receive buffer of a gather (or send buffer of a scatter). */
static void *root_slot(void *buf, int root, MPI_Count count, struct dt_type *type)
{
    return coll_elem(buf, (MPI_Count)root * count, type);
}

int coll_gather_binomial(struct coll_sched *s, const struct coll_args *a)
{
    struct core_comm *comm = a->comm;
    int size = comm->size, rank = comm->rank, root = a->root, rel = coll_rel(rank, root, size);
    struct dt_type *byte = coll_byte_type();
    int is_root = rank == root, in_place = is_root && coll_in_place(a->sendbuf);
    MPI_Count block = is_root ? (MPI_Count)dt_packed_size(a->recvtype, a->recvcount)
                              : (MPI_Count)dt_packed_size(a->sendtype, a->sendcount);
    if (block == 0)
        return MPI_SUCCESS;
    int sub = subtree_size(rel, size);
    if (sub == 1 && rel != 0) {
        coll_sched_send(s, comm, coll_abs(rel - (rel & -rel), root, size), a->sendbuf,
                        a->sendcount, a->sendtype);
        coll_sched_round(s);
        return MPI_SUCCESS;
    }
    /* temp holds the subtree's blocks in relative rank order, ours first */
    char *temp = coll_sched_temp(s, (size_t)(sub * block));
    if (!temp)
        return MPI_ERR_NO_MEM;
    if (in_place)
        coll_sched_copy(s, root_slot(a->recvbuf, root, a->recvcount, a->recvtype), a->recvcount,
                        a->recvtype, temp, block, byte);
    else
        coll_sched_copy(s, a->sendbuf, a->sendcount, a->sendtype, temp, block, byte);
    for (int mask = 1; mask < sub; mask <<= 1) {
        int child = rel + mask;
        int blocks = subtree_size(child, size);
        coll_sched_recv(s, comm, coll_abs(child, root, size), temp + mask * block,
                        blocks * block, byte);
    }
    coll_sched_round(s);
    if (!is_root) {
        coll_sched_send(s, comm, coll_abs(rel - (rel & -rel), root, size), temp, sub * block,
                        byte);
        coll_sched_round(s);
        return MPI_SUCCESS;
    }
    for (int i = in_place ? 1 : 0; i < size; i++)
        coll_sched_copy(s, temp + i * block, block, byte,
                        root_slot(a->recvbuf, coll_abs(i, root, size), a->recvcount,
                                  a->recvtype),
                        a->recvcount, a->recvtype);
    return MPI_SUCCESS;
}

int coll_gather_linear(struct coll_sched *s, const struct coll_args *a)
{
    struct core_comm *comm = a->comm;
    if (comm->rank != a->root) {
        coll_sched_send(s, comm, a->root, a->sendbuf, a->sendcount, a->sendtype);
        coll_sched_round(s);
        return MPI_SUCCESS;
    }
    for (int r = 0; r < comm->size; r++) {
        void *slot = root_slot(a->recvbuf, r, a->recvcount, a->recvtype);
        if (r != a->root)
            coll_sched_recv(s, comm, r, slot, a->recvcount, a->recvtype);
        else if (!coll_in_place(a->sendbuf))
            coll_sched_copy(s, a->sendbuf, a->sendcount, a->sendtype, slot, a->recvcount,
                            a->recvtype);
    }
    coll_sched_round(s);
    return MPI_SUCCESS;
}

int coll_gatherv_linear(struct coll_sched *s, const struct coll_args *a)
{
    struct core_comm *comm = a->comm;
    /* a rank's part of 0 bytes travels neither way (both sides know its size) */
    if (comm->rank != a->root) {
        if (coll_bytes_of(a->sendcount, a->sendtype))
            coll_sched_send(s, comm, a->root, a->sendbuf, a->sendcount, a->sendtype);
        coll_sched_round(s);
        return MPI_SUCCESS;
    }
    for (int r = 0; r < comm->size; r++) {
        void *slot = coll_elem(a->recvbuf, a->rdispls[r], a->recvtype);
        if (r != a->root) {
            if (coll_bytes_of(a->recvcounts[r], a->recvtype))
                coll_sched_recv(s, comm, r, slot, a->recvcounts[r], a->recvtype);
        } else if (!coll_in_place(a->sendbuf)) {
            coll_sched_copy(s, a->sendbuf, a->sendcount, a->sendtype, slot, a->recvcounts[r],
                            a->recvtype);
        }
    }
    coll_sched_round(s);
    return MPI_SUCCESS;
}

int coll_scatter_binomial(struct coll_sched *s, const struct coll_args *a)
{
    struct core_comm *comm = a->comm;
    int size = comm->size, rank = comm->rank, root = a->root, rel = coll_rel(rank, root, size);
    struct dt_type *byte = coll_byte_type();
    int is_root = rank == root, in_place = is_root && coll_in_place(a->recvbuf);
    MPI_Count block = is_root ? (MPI_Count)dt_packed_size(a->sendtype, a->sendcount)
                              : (MPI_Count)dt_packed_size(a->recvtype, a->recvcount);
    if (block == 0)
        return MPI_SUCCESS;
    int sub = subtree_size(rel, size);
    int parent = coll_abs(rel - (rel & -rel), root, size);
    if (sub == 1 && rel != 0) {
        coll_sched_recv(s, comm, parent, a->recvbuf, a->recvcount, a->recvtype);
        coll_sched_round(s);
        return MPI_SUCCESS;
    }
    char *temp = coll_sched_temp(s, (size_t)(sub * block));
    if (!temp)
        return MPI_ERR_NO_MEM;
    if (is_root) {
        /* pack the send buffer in relative rank order (ours first) */
        for (int i = 0; i < size; i++)
            coll_sched_copy(s,
                            root_slot((void *)a->sendbuf, coll_abs(i, root, size), a->sendcount,
                                      a->sendtype),
                            a->sendcount, a->sendtype, temp + i * block, block, byte);
    } else {
        coll_sched_recv(s, comm, parent, temp, sub * block, byte);
        coll_sched_round(s);
    }
    int top = 1;
    while (top < sub)
        top <<= 1;
    for (int mask = top >> 1; mask > 0; mask >>= 1) {
        int child = rel + mask;
        if (mask >= sub)
            continue;
        coll_sched_send(s, comm, coll_abs(child, root, size), temp + mask * block,
                        subtree_size(child, size) * block, byte);
    }
    if (!in_place)
        coll_sched_copy(s, temp, block, byte, a->recvbuf, a->recvcount, a->recvtype);
    coll_sched_round(s);
    return MPI_SUCCESS;
}

int coll_scatter_linear(struct coll_sched *s, const struct coll_args *a)
{
    struct core_comm *comm = a->comm;
    if (comm->rank != a->root) {
        coll_sched_recv(s, comm, a->root, a->recvbuf, a->recvcount, a->recvtype);
        coll_sched_round(s);
        return MPI_SUCCESS;
    }
    for (int r = 0; r < comm->size; r++) {
        const void *slot = root_slot((void *)a->sendbuf, r, a->sendcount, a->sendtype);
        if (r != a->root)
            coll_sched_send(s, comm, r, slot, a->sendcount, a->sendtype);
        else if (!coll_in_place(a->recvbuf))
            coll_sched_copy(s, slot, a->sendcount, a->sendtype, a->recvbuf, a->recvcount,
                            a->recvtype);
    }
    coll_sched_round(s);
    return MPI_SUCCESS;
}

int coll_scatterv_linear(struct coll_sched *s, const struct coll_args *a)
{
    struct core_comm *comm = a->comm;
    /* a rank's part of 0 bytes travels neither way (both sides know its size) */
    if (comm->rank != a->root) {
        if (coll_bytes_of(a->recvcount, a->recvtype))
            coll_sched_recv(s, comm, a->root, a->recvbuf, a->recvcount, a->recvtype);
        coll_sched_round(s);
        return MPI_SUCCESS;
    }
    for (int r = 0; r < comm->size; r++) {
        const void *slot = coll_elem(a->sendbuf, a->sdispls[r], a->sendtype);
        if (r != a->root) {
            if (coll_bytes_of(a->sendcounts[r], a->sendtype))
                coll_sched_send(s, comm, r, slot, a->sendcounts[r], a->sendtype);
        } else if (!coll_in_place(a->recvbuf)) {
            coll_sched_copy(s, slot, a->sendcounts[r], a->sendtype, a->recvbuf, a->recvcount,
                            a->recvtype);
        }
    }
    coll_sched_round(s);
    return MPI_SUCCESS;
}
