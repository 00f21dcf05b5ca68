/* bcast.c - broadcast algorithms over point-to-point: binomial tree (log p rounds, whole
 * message each hop: small messages), scatter + ring allgather (van de Geijn: about 2n bytes
 * moved per rank whatever p, for large messages), and linear (root sends to everyone). */
#include "coll/algorithms.h"

int coll_bcast_binomial(struct coll_sched *s, const struct coll_args *a)
{
    struct core_comm *comm = a->comm;
    int size = comm->size, rel = coll_rel(comm->rank, a->root, size);
    int mask = 1;
    while (mask < size) {
        if (rel & mask) {
            coll_sched_recv(s, comm, coll_abs(rel - mask, a->root, size), a->recvbuf, a->count,
                            a->type);
            coll_sched_round(s);
            break;
        }
        mask <<= 1;
    }
    /* children: rel + mask/2, rel + mask/4, ... (the subtrees below our lowest set bit) */
    for (mask >>= 1; mask > 0; mask >>= 1)
        if (rel + mask < size)
            coll_sched_send(s, comm, coll_abs(rel + mask, a->root, size), a->recvbuf, a->count,
                            a->type);
    coll_sched_round(s);
    return MPI_SUCCESS;
}

int coll_bcast_linear(struct coll_sched *s, const struct coll_args *a)
{
    struct core_comm *comm = a->comm;
    if (comm->rank == a->root) {
        for (int r = 0; r < comm->size; r++)
            if (r != a->root)
                coll_sched_send(s, comm, r, a->recvbuf, a->count, a->type);
    } else {
        coll_sched_recv(s, comm, a->root, a->recvbuf, a->count, a->type);
    }
    coll_sched_round(s);
    return MPI_SUCCESS;
}

/* Bytes [chunk_start(c), chunk_start(c + 1)) of the packed message travel as chunk c. */
static MPI_Count chunk_start(MPI_Count bytes, int size, int c)
{
    return coll_block_start(bytes, size, c);
}

int coll_bcast_scatter_allgather(struct coll_sched *s, const struct coll_args *a)
{
    struct core_comm *comm = a->comm;
    int size = comm->size, root = a->root, rel = coll_rel(comm->rank, root, size);
    struct dt_type *byte = coll_byte_type();
    MPI_Count bytes = (MPI_Count)dt_packed_size(a->type, a->count);
    if (size == 1 || bytes == 0)
        return MPI_SUCCESS;

    /* Work on the packed bytes: the user buffer itself when contiguous. */
    char *work;
    int packed = !dt_is_contiguous(a->type, a->count);
    if (packed) {
        work = coll_sched_temp(s, (size_t)bytes);
        if (!work)
            return MPI_ERR_NO_MEM;
        if (rel == 0)
            coll_sched_copy(s, a->recvbuf, a->count, a->type, work, bytes, byte);
    } else {
        work = (char *)a->recvbuf + a->type->true_lb;
    }

    /* Binomial scatter: rank rel receives chunks [rel, rel + lowbit(rel)) from its parent. */
    int mask = 1;
    while (mask < size) {
        if (rel & mask) {
            int last = rel + mask < size ? rel + mask : size;
            MPI_Count from = chunk_start(bytes, size, rel), to = chunk_start(bytes, size, last);
            coll_sched_recv(s, comm, coll_abs(rel - mask, root, size), work + from, to - from,
                            byte);
            coll_sched_round(s);
            break;
        }
        mask <<= 1;
    }
    for (mask >>= 1; mask > 0; mask >>= 1) {
        int child = rel + mask;
        if (child >= size)
            continue;
        int last = child + mask < size ? child + mask : size;
        MPI_Count from = chunk_start(bytes, size, child), to = chunk_start(bytes, size, last);
        coll_sched_send(s, comm, coll_abs(child, root, size), work + from, to - from, byte);
    }
    coll_sched_round(s);

    /* Ring allgather of the chunks: step i passes chunk rel - i to the right. */
    int left = coll_abs(rel - 1 + size, root, size), right = coll_abs(rel + 1, root, size);
    for (int i = 0; i < size - 1; i++) {
        int send_chunk = (rel - i + size) % size, recv_chunk = (rel - i - 1 + 2 * size) % size;
        MPI_Count sfrom = chunk_start(bytes, size, send_chunk);
        MPI_Count sto = chunk_start(bytes, size, send_chunk + 1);
        MPI_Count rfrom = chunk_start(bytes, size, recv_chunk);
        MPI_Count rto = chunk_start(bytes, size, recv_chunk + 1);
        coll_sched_recv(s, comm, left, work + rfrom, rto - rfrom, byte);
        coll_sched_send(s, comm, right, work + sfrom, sto - sfrom, byte);
        coll_sched_round(s);
    }
    if (packed && rel != 0)
        coll_sched_copy(s, work, bytes, byte, a->recvbuf, a->count, a->type);
    return MPI_SUCCESS;
}
