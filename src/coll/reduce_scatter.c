/* reduce_scatter.c - reduce_scatter and reduce_scatter_block over point-to-point: ring
 * (commutative; each block's partial sum travels once around the ring, p-1 rounds, no full-
 * vector temporary), recursive halving (commutative, power-of-two sizes, log p rounds) and
 * reduce + scatter (any op: the reduction happens on a rank-ordered tree). */
#include "coll/algorithms.h"

static const void *full_input(const struct coll_args *a)
{
    return coll_in_place(a->sendbuf) ? a->recvbuf : a->sendbuf;
}

/* Element offsets of each rank's block in the full vector (temporary memory). */
static MPI_Aint *block_offsets(struct coll_sched *s, const MPI_Count *counts, int size)
{
    MPI_Aint *displs = coll_sched_temp(s, (size_t)size * sizeof(MPI_Aint));
    if (!displs)
        return NULL;
    MPI_Aint at = 0;
    for (int i = 0; i < size; i++) {
        displs[i] = at;
        at += (MPI_Aint)counts[i];
    }
    return displs;
}

static MPI_Count *uniform_counts(struct coll_sched *s, MPI_Count count, int size)
{
    MPI_Count *counts = coll_sched_temp(s, (size_t)size * sizeof(MPI_Count));
    if (counts)
        for (int i = 0; i < size; i++)
            counts[i] = count;
    return counts;
}

/* Step i sends the partial sum of block rank-i-1 to the right and receives that of block
 * rank-i-2 from the left, adding its own contribution; the last step completes block rank. */
static int ring(struct coll_sched *s, const struct coll_args *a, const MPI_Count *counts)
{
    struct core_comm *comm = a->comm;
    int size = comm->size, rank = comm->rank;
    struct dt_type *type = a->type;
    const void *input = full_input(a);
    MPI_Aint *displs = block_offsets(s, counts, size);
    if (!displs)
        return MPI_ERR_NO_MEM;
    if (size == 1) {
        coll_sched_copy(s, input, counts[0], type, a->recvbuf, counts[0], type);
        return MPI_SUCCESS;
    }
    MPI_Count largest = 0;
    for (int i = 0; i < size; i++)
        largest = counts[i] > largest ? counts[i] : largest;
    void *tmp[2] = {coll_sched_temp_typed(s, largest, type),
                    coll_sched_temp_typed(s, largest, type)};
    if (!tmp[0] || !tmp[1])
        return MPI_ERR_NO_MEM;
    int left = (rank - 1 + size) % size, right = (rank + 1) % size;
    for (int i = 0; i < size - 1; i++) {
        int sb = (rank - i - 1 + 2 * size) % size, rb = (rank - i - 2 + 2 * size) % size;
        const void *out = i == 0 ? coll_elem(input, displs[sb], type) : tmp[(i - 1) % 2];
        coll_sched_recv(s, comm, left, tmp[i % 2], counts[rb], type);
        coll_sched_send(s, comm, right, out, counts[sb], type);
        coll_sched_round(s);
        coll_sched_reduce(s, coll_elem(input, displs[rb], type), tmp[i % 2], counts[rb], type,
                          a->op);
    }
    coll_sched_copy(s, tmp[(size - 2) % 2], counts[rank], type, a->recvbuf, counts[rank], type);
    return MPI_SUCCESS;
}

/* Reduce the whole vector to rank 0 (rank-ordered for any op), then scatter the blocks. */
static int reduce_then_scatter(struct coll_sched *s, const struct coll_args *a,
                               const MPI_Count *counts)
{
    struct core_comm *comm = a->comm;
    int size = comm->size;
    MPI_Aint *displs = block_offsets(s, counts, size);
    if (!displs)
        return MPI_ERR_NO_MEM;
    MPI_Count total = (MPI_Count)displs[size - 1] + counts[size - 1];
    void *full = comm->rank == 0 ? coll_sched_temp_typed(s, total, a->type) : NULL;
    if (comm->rank == 0 && !full)
        return MPI_ERR_NO_MEM;

    struct coll_args r = *a;
    r.kind = COLL_REDUCE;
    r.sendbuf = full_input(a);
    r.recvbuf = full;
    r.count = total;
    r.root = 0;
    int rc = coll_reduce_binomial(s, &r);
    if (rc != MPI_SUCCESS)
        return rc;

    struct coll_args v = {0};
    v.kind = COLL_SCATTERV;
    v.comm = comm;
    v.root = 0;
    v.sendbuf = full;
    v.sendcounts = counts;
    v.sdispls = displs;
    v.sendtype = a->type;
    v.recvbuf = a->recvbuf;
    v.recvcount = counts[comm->rank];
    v.recvtype = a->type;
    return coll_scatterv_linear(s, &v);
}

int coll_reduce_scatter_ring(struct coll_sched *s, const struct coll_args *a)
{
    return ring(s, a, a->recvcounts);
}

int coll_reduce_scatter_reduce_scatterv(struct coll_sched *s, const struct coll_args *a)
{
    return reduce_then_scatter(s, a, a->recvcounts);
}

int coll_reduce_scatter_block_ring(struct coll_sched *s, const struct coll_args *a)
{
    MPI_Count *counts = uniform_counts(s, a->count, a->comm->size);
    return counts ? ring(s, a, counts) : MPI_ERR_NO_MEM;
}

int coll_reduce_scatter_block_reduce_scatter(struct coll_sched *s, const struct coll_args *a)
{
    MPI_Count *counts = uniform_counts(s, a->count, a->comm->size);
    return counts ? reduce_then_scatter(s, a, counts) : MPI_ERR_NO_MEM;
}

/* Power-of-two sizes: halve the block range each round (partner rank ^ mask, highest mask
 * first), sending the half of the vector that holds the partner's blocks and reducing the half
 * that holds ours. With uneven counts the halves are uneven; every rank knows them all. */
static int halving(struct coll_sched *s, const struct coll_args *a, const MPI_Count *counts)
{
    struct core_comm *comm = a->comm;
    int size = comm->size, rank = comm->rank;
    struct dt_type *type = a->type;
    MPI_Aint *displs = block_offsets(s, counts, size);
    if (!displs)
        return MPI_ERR_NO_MEM;
    MPI_Count total = (MPI_Count)displs[size - 1] + counts[size - 1];
    if (total == 0)
        return MPI_SUCCESS;
    void *work = coll_sched_temp_typed(s, total, type);
    void *tmp = coll_sched_temp_typed(s, total, type);
    if (!work || !tmp)
        return MPI_ERR_NO_MEM;
    coll_sched_copy(s, full_input(a), total, type, work, total, type);
    int lo = 0; /* our blocks: [lo, lo + 2 * mask) before the round of mask */
    for (int mask = size >> 1; mask > 0; mask >>= 1) {
        int peer = rank ^ mask, upper = rank & mask;
        int keep_lo = upper ? lo + mask : lo, send_lo = upper ? lo : lo + mask;
        MPI_Aint keep_at = displs[keep_lo], send_at = displs[send_lo];
        MPI_Count keep_n = (keep_lo + mask < size ? displs[keep_lo + mask] : total) - keep_at;
        MPI_Count send_n = (send_lo + mask < size ? displs[send_lo + mask] : total) - send_at;
        coll_sched_recv(s, comm, peer, tmp, keep_n, type);
        coll_sched_send(s, comm, peer, coll_elem(work, send_at, type), send_n, type);
        coll_sched_round(s);
        coll_sched_reduce(s, tmp, coll_elem(work, keep_at, type), keep_n, type, a->op);
        lo = keep_lo;
    }
    coll_sched_copy(s, coll_elem(work, displs[rank], type), counts[rank], type, a->recvbuf,
                    counts[rank], type);
    return MPI_SUCCESS;
}

int coll_reduce_scatter_recursive_halving(struct coll_sched *s, const struct coll_args *a)
{
    return halving(s, a, a->recvcounts);
}

int coll_reduce_scatter_block_recursive_halving(struct coll_sched *s, const struct coll_args *a)
{
    MPI_Count *counts = uniform_counts(s, a->count, a->comm->size);
    return counts ? halving(s, a, counts) : MPI_ERR_NO_MEM;
}
