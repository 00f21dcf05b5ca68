/* allreduce.c - allreduce algorithms over point-to-point: recursive doubling (log p rounds of
 * whole vectors, any op, small messages), Rabenseifner (recursive-halving reduce-scatter +
 * recursive-doubling allgather, commutative, large), ring (reduce-scatter + allgather around a
 * ring, 2(p-1)/p n bytes per rank, commutative, large) and reduce + bcast (reference).
 *
 * Non-power-of-two sizes fold first (Thakur, Rabenseifner, Gropp 2005): among the first 2*rem
 * ranks (rem = p - pof2) each even rank hands its vector to the odd rank above it and sits out;
 * the pof2 survivors run the power-of-two algorithm under new ranks, then the odd ranks hand
 * the result back. Every element is reduced in one place or in the same tree shape on every
 * rank, so all ranks get bitwise identical results. */
#include "coll/algorithms.h"

static int unfold(int nr, int rem)
{
    return nr < rem ? 2 * nr + 1 : nr + rem;
}

/* Fold step; returns the new rank, -1 for ranks that sit out. tmp receives the partner's data. */
static int fold(struct coll_sched *s, const struct coll_args *a, void *work, void *tmp, int rem)
{
    struct core_comm *comm = a->comm;
    int rank = comm->rank;
    if (rank >= 2 * rem)
        return rank - rem;
    if (rank % 2 == 0) {
        coll_sched_send(s, comm, rank + 1, work, a->count, a->type);
        coll_sched_round(s);
        return -1;
    }
    coll_sched_recv(s, comm, rank - 1, tmp, a->count, a->type);
    coll_sched_round(s);
    /* the partner is the lower rank: its data goes first */
    coll_sched_reduce(s, tmp, work, a->count, a->type, a->op);
    return rank / 2;
}

static void unfold_result(struct coll_sched *s, const struct coll_args *a, void *work, int rem)
{
    struct core_comm *comm = a->comm;
    int rank = comm->rank;
    if (rank >= 2 * rem)
        return;
    if (rank % 2 == 0)
        coll_sched_recv(s, comm, rank + 1, work, a->count, a->type);
    else
        coll_sched_send(s, comm, rank - 1, work, a->count, a->type);
    coll_sched_round(s);
}

static void copy_input(struct coll_sched *s, const struct coll_args *a)
{
    if (!coll_in_place(a->sendbuf))
        coll_sched_copy(s, a->sendbuf, a->count, a->type, a->recvbuf, a->count, a->type);
}

int coll_allreduce_recursive_doubling(struct coll_sched *s, const struct coll_args *a)
{
    struct core_comm *comm = a->comm;
    MPI_Count count = a->count;
    struct dt_type *type = a->type;
    if (count == 0)
        return MPI_SUCCESS;
    int pof2 = coll_pof2_floor(comm->size), rem = comm->size - pof2;
    void *tmp = coll_sched_temp_typed(s, count, type);
    if (!tmp)
        return MPI_ERR_NO_MEM;
    copy_input(s, a);

    /* acc alternates between recvbuf and tmp for non-commutative ops, whose result must be
     * computed as (lower ranks) op (higher ranks) and lands in the receive buffer. */
    void *acc = a->recvbuf, *spare = tmp;
    int newrank = fold(s, a, acc, spare, rem);
    if (newrank >= 0) {
        for (int mask = 1; mask < pof2; mask <<= 1) {
            int peer = unfold(newrank ^ mask, rem);
            coll_sched_recv(s, comm, peer, spare, count, type);
            coll_sched_send(s, comm, peer, acc, count, type);
            coll_sched_round(s);
            if (a->op->commutative || peer < comm->rank) {
                coll_sched_reduce(s, spare, acc, count, type, a->op);
            } else {
                coll_sched_reduce(s, acc, spare, count, type, a->op);
                void *swap = acc;
                acc = spare;
                spare = swap;
            }
        }
        coll_sched_copy(s, acc, count, type, a->recvbuf, count, type);
    }
    unfold_result(s, a, a->recvbuf, rem);
    return MPI_SUCCESS;
}

int coll_allreduce_rabenseifner(struct coll_sched *s, const struct coll_args *a)
{
    struct core_comm *comm = a->comm;
    MPI_Count count = a->count;
    struct dt_type *type = a->type;
    void *work = a->recvbuf;
    if (count == 0)
        return MPI_SUCCESS;
    int pof2 = coll_pof2_floor(comm->size), rem = comm->size - pof2;
    void *tmp = coll_sched_temp_typed(s, count, type);
    if (!tmp)
        return MPI_ERR_NO_MEM;
    copy_input(s, a);
    int newrank = fold(s, a, work, tmp, rem);
    if (newrank >= 0) {
        /* Reduce-scatter by recursive halving: newrank ends owning block `newrank`. */
        int lo = 0, hi = pof2;
        for (int mask = pof2 >> 1; mask > 0; mask >>= 1) {
            int peer = unfold(newrank ^ mask, rem), mid = lo + mask, upper = newrank & mask;
            int keep_lo = upper ? mid : lo, keep_hi = upper ? hi : mid;
            int send_lo = upper ? lo : mid, send_hi = upper ? mid : hi;
            MPI_Count ks = coll_block_start(count, pof2, keep_lo);
            MPI_Count kn = coll_block_start(count, pof2, keep_hi) - ks;
            MPI_Count ss = coll_block_start(count, pof2, send_lo);
            MPI_Count sn = coll_block_start(count, pof2, send_hi) - ss;
            coll_sched_recv(s, comm, peer, coll_elem(tmp, ks, type), kn, type);
            coll_sched_send(s, comm, peer, coll_elem(work, ss, type), sn, type);
            coll_sched_round(s);
            coll_sched_reduce(s, coll_elem(tmp, ks, type), coll_elem(work, ks, type), kn, type,
                              a->op);
            lo = keep_lo;
            hi = keep_hi;
        }
        /* Allgather by recursive doubling: owned ranges double back to the whole vector. */
        for (int mask = 1; mask < pof2; mask <<= 1) {
            int peer_new = newrank ^ mask, peer = unfold(peer_new, rem);
            int mine = newrank & ~(mask - 1), theirs = peer_new & ~(mask - 1);
            MPI_Count ms = coll_block_start(count, pof2, mine);
            MPI_Count mn = coll_block_start(count, pof2, mine + mask) - ms;
            MPI_Count ts = coll_block_start(count, pof2, theirs);
            MPI_Count tn = coll_block_start(count, pof2, theirs + mask) - ts;
            coll_sched_recv(s, comm, peer, coll_elem(work, ts, type), tn, type);
            coll_sched_send(s, comm, peer, coll_elem(work, ms, type), mn, type);
            coll_sched_round(s);
        }
    }
    unfold_result(s, a, work, rem);
    return MPI_SUCCESS;
}

int coll_allreduce_ring(struct coll_sched *s, const struct coll_args *a)
{
    struct core_comm *comm = a->comm;
    int size = comm->size, rank = comm->rank;
    MPI_Count count = a->count;
    struct dt_type *type = a->type;
    void *work = a->recvbuf;
    if (count == 0)
        return MPI_SUCCESS;
    copy_input(s, a);
    if (size == 1)
        return MPI_SUCCESS;
    void *tmp = coll_sched_temp_typed(s, coll_block_count(count, size, 0), type);
    if (!tmp)
        return MPI_ERR_NO_MEM;
    int left = (rank - 1 + size) % size, right = (rank + 1) % size;
    /* Reduce-scatter: step i sends block rank-i and reduces block rank-i-1 into place; after
     * size-1 steps this rank holds the full sum of block rank+1. */
    for (int i = 0; i < size - 1; i++) {
        int sb = (rank - i + size) % size, rb = (rank - i - 1 + 2 * size) % size;
        coll_sched_recv(s, comm, left, tmp, coll_block_count(count, size, rb), type);
        coll_sched_send(s, comm, right, coll_elem(work, coll_block_start(count, size, sb), type),
                        coll_block_count(count, size, sb), type);
        coll_sched_round(s);
        coll_sched_reduce(s, tmp, coll_elem(work, coll_block_start(count, size, rb), type),
                          coll_block_count(count, size, rb), type, a->op);
    }
    /* Allgather: step i passes on block rank+1-i, receives block rank-i. */
    for (int i = 0; i < size - 1; i++) {
        int sb = (rank + 1 - i + size) % size, rb = (rank - i + size) % size;
        coll_sched_recv(s, comm, left, coll_elem(work, coll_block_start(count, size, rb), type),
                        coll_block_count(count, size, rb), type);
        coll_sched_send(s, comm, right, coll_elem(work, coll_block_start(count, size, sb), type),
                        coll_block_count(count, size, sb), type);
        coll_sched_round(s);
    }
    return MPI_SUCCESS;
}

int coll_allreduce_reduce_bcast(struct coll_sched *s, const struct coll_args *a)
{
    struct coll_args r = *a;
    r.root = 0;
    r.kind = COLL_REDUCE;
    int rc = coll_reduce_binomial(s, &r);
    if (rc != MPI_SUCCESS)
        return rc;
    if (a->comm->rank != 0)
        r.sendbuf = NULL;
    r.kind = COLL_BCAST;
    return coll_bcast_binomial(s, &r);
}
