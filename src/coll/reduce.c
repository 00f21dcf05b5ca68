/* reduce.c - reduce algorithms over point-to-point: binomial tree (any op: non-commutative ops
 * reduce over a tree rooted at rank 0 so every combination happens in rank order), reduce-
 * scatter + gather (Rabenseifner, commutative, large vectors) and linear (reference).
 * Reductions keep MPI's order: coll_sched_reduce(in, inout) computes inout = in op inout, so
 * the operand holding lower ranks' data is always passed as `in`. */
#include "coll/algorithms.h"

/* The root's own contribution: recvbuf when it passed MPI_IN_PLACE. */
static const void *reduce_input(const struct coll_args *a)
{
    return coll_in_place(a->sendbuf) ? a->recvbuf : a->sendbuf;
}

int coll_reduce_binomial(struct coll_sched *s, const struct coll_args *a)
{
    struct core_comm *comm = a->comm;
    int size = comm->size, rank = comm->rank;
    MPI_Count count = a->count;
    struct dt_type *type = a->type;
    if (count == 0)
        return MPI_SUCCESS;
    int commutative = a->op->commutative;
    int tree_root = commutative ? a->root : 0;
    int rel = coll_rel(rank, tree_root, size);
    const void *acc = reduce_input(a);
    void *tmp[2] = {NULL, NULL};
    int next = 0;

    /* A commutative root accumulates straight into recvbuf: one temporary, no final copy. */
    int into_recvbuf = commutative && rank == a->root;
    if (into_recvbuf) {
        coll_sched_copy(s, acc, count, type, a->recvbuf, count, type);
        acc = a->recvbuf;
    }
    for (int mask = 1; mask < size; mask <<= 1) {
        if (rel & mask) {
            coll_sched_send(s, comm, coll_abs(rel - mask, tree_root, size), acc, count, type);
            coll_sched_round(s);
            break;
        }
        if (rel + mask >= size)
            continue;
        int child = coll_abs(rel + mask, tree_root, size);
        if (!tmp[next] && !(tmp[next] = coll_sched_temp_typed(s, count, type)))
            return MPI_ERR_NO_MEM;
        void *t = tmp[next];
        coll_sched_recv(s, comm, child, t, count, type);
        coll_sched_round(s);
        if (into_recvbuf) {
            coll_sched_reduce(s, t, a->recvbuf, count, type, a->op);
        } else {
            /* acc holds ranks [rel, rel+mask), t the next ones: acc op t, into t */
            coll_sched_reduce(s, acc, t, count, type, a->op);
            acc = t;
            next ^= 1;
        }
    }
    if (rank == tree_root) {
        if (tree_root == a->root)
            coll_sched_copy(s, acc, count, type, a->recvbuf, count, type);
        else
            coll_sched_send(s, comm, a->root, acc, count, type);
        coll_sched_round(s);
    }
    if (rank == a->root && tree_root != a->root) {
        coll_sched_recv(s, comm, tree_root, a->recvbuf, count, type);
        coll_sched_round(s);
    }
    return MPI_SUCCESS;
}

/* World rank of new rank `nr` after the non-power-of-two fold (see allreduce.c). */
static int unfold(int nr, int rem)
{
    return nr < rem ? 2 * nr + 1 : nr + rem;
}

int coll_reduce_scatter_gather(struct coll_sched *s, const struct coll_args *a)
{
    struct core_comm *comm = a->comm;
    int size = comm->size, rank = comm->rank;
    MPI_Count count = a->count;
    struct dt_type *type = a->type;
    if (count == 0)
        return MPI_SUCCESS;
    int pof2 = coll_pof2_floor(size), rem = size - pof2;

    void *work = rank == a->root ? a->recvbuf : coll_sched_temp_typed(s, count, type);
    void *tmp = coll_sched_temp_typed(s, count, type);
    if (!work || !tmp)
        return MPI_ERR_NO_MEM;
    coll_sched_copy(s, reduce_input(a), count, type, work, count, type);

    /* Fold: the first 2*rem ranks pair up, odd ones keep the pair's sum. */
    int newrank;
    if (rank < 2 * rem) {
        if (rank % 2 == 0) {
            coll_sched_send(s, comm, rank + 1, work, count, type);
            newrank = -1;
        } else {
            coll_sched_recv(s, comm, rank - 1, tmp, count, type);
            newrank = rank / 2;
        }
        coll_sched_round(s);
        if (newrank >= 0)
            coll_sched_reduce(s, tmp, work, count, type, a->op);
    } else {
        newrank = rank - rem;
    }

    if (newrank >= 0) {
        /* Recursive halving: the kept half of the block range shrinks to block `newrank`. */
        int lo = 0, hi = pof2;
        for (int mask = pof2 >> 1; mask > 0; mask >>= 1) {
            int peer = unfold(newrank ^ mask, rem), mid = lo + mask;
            int keep_lo = newrank & mask ? mid : lo, keep_hi = newrank & mask ? hi : mid;
            int send_lo = newrank & mask ? lo : mid, send_hi = newrank & mask ? mid : hi;
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
        /* Binomial gather of the blocks to new rank 0. */
        for (int mask = 1; mask < pof2; mask <<= 1) {
            if (newrank & mask) {
                MPI_Count from = coll_block_start(count, pof2, newrank);
                MPI_Count to = coll_block_start(count, pof2, newrank + mask);
                coll_sched_send(s, comm, unfold(newrank - mask, rem), coll_elem(work, from, type),
                                to - from, type);
                coll_sched_round(s);
                break;
            }
            MPI_Count from = coll_block_start(count, pof2, newrank + mask);
            MPI_Count to = coll_block_start(count, pof2, newrank + 2 * mask);
            coll_sched_recv(s, comm, unfold(newrank + mask, rem), coll_elem(work, from, type),
                            to - from, type);
            coll_sched_round(s);
        }
    }
    int gatherer = unfold(0, rem);
    if (rank == gatherer && gatherer != a->root) {
        coll_sched_send(s, comm, a->root, work, count, type);
        coll_sched_round(s);
    }
    if (rank == a->root && gatherer != a->root) {
        coll_sched_recv(s, comm, gatherer, a->recvbuf, count, type);
        coll_sched_round(s);
    }
    return MPI_SUCCESS;
}

int coll_reduce_linear(struct coll_sched *s, const struct coll_args *a)
{
    struct core_comm *comm = a->comm;
    int size = comm->size, rank = comm->rank, root = a->root;
    MPI_Count count = a->count;
    struct dt_type *type = a->type;
    if (count == 0)
        return MPI_SUCCESS;
    if (rank != root) {
        coll_sched_send(s, comm, root, a->sendbuf, count, type);
        coll_sched_round(s);
        return MPI_SUCCESS;
    }
    const void *input = reduce_input(a);
    if (coll_in_place(a->sendbuf) && root != size - 1) {
        /* recvbuf is about to receive rank size-1's data: keep our own elsewhere */
        void *saved = coll_sched_temp_typed(s, count, type);
        if (!saved)
            return MPI_ERR_NO_MEM;
        coll_sched_copy(s, a->recvbuf, count, type, saved, count, type);
        input = saved;
    }
    void **from = coll_sched_temp(s, (size_t)size * sizeof(void *));
    if (!from)
        return MPI_ERR_NO_MEM;
    for (int r = 0; r < size; r++) {
        if (r == root) {
            from[r] = (void *)input;
            continue;
        }
        /* the highest rank lands in recvbuf directly: it starts the accumulation */
        from[r] = r == size - 1 ? a->recvbuf : coll_sched_temp_typed(s, count, type);
        if (!from[r])
            return MPI_ERR_NO_MEM;
        coll_sched_recv(s, comm, r, from[r], count, type);
    }
    coll_sched_round(s);
    coll_sched_copy(s, from[size - 1], count, type, a->recvbuf, count, type);
    for (int r = size - 2; r >= 0; r--)
        coll_sched_reduce(s, from[r], a->recvbuf, count, type, a->op);
    return MPI_SUCCESS;
}
