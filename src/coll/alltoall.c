/* alltoall.c - alltoall, alltoallv and alltoallw over point-to-point: Bruck (log p rounds with
 * packed blocks: small uniform blocks), linear (every exchange posted at once, in batches) and
 * pairwise exchange (p-1 rounds, one partner each: large blocks). The v and w forms reduce to
 * per-peer block descriptors so the linear and pairwise code serves all three. MPI_IN_PLACE
 * copies the receive buffer aside first: it is then the send data. */
#include "coll/algorithms.h"

/* Peers exchanged with concurrently by the linear algorithm; bounds the receives posted at
 * once (MPICH's bblock default). */
#define COLL_ALLTOALL_BATCH 32

struct block {
    void *buf;
    MPI_Count count;
    struct dt_type *type;
};

/* Receive-side descriptors of the three forms. */
static void recv_block(const struct coll_args *a, int i, struct block *b)
{
    switch (a->kind) {
    case COLL_ALLTOALL:
        b->buf = coll_elem(a->recvbuf, (MPI_Count)i * a->recvcount, a->recvtype);
        b->count = a->recvcount;
        b->type = a->recvtype;
        break;
    case COLL_ALLTOALLV:
        b->buf = coll_elem(a->recvbuf, a->rdispls[i], a->recvtype);
        b->count = a->recvcounts[i];
        b->type = a->recvtype;
        break;
    default:
        b->buf = (char *)a->recvbuf + a->rdispls[i];
        b->count = a->recvcounts[i];
        b->type = a->recvtypes[i];
        break;
    }
}

static void send_block(const struct coll_args *a, int i, struct block *b)
{
    switch (a->kind) {
    case COLL_ALLTOALL:
        b->buf = coll_elem(a->sendbuf, (MPI_Count)i * a->sendcount, a->sendtype);
        b->count = a->sendcount;
        b->type = a->sendtype;
        break;
    case COLL_ALLTOALLV:
        b->buf = coll_elem(a->sendbuf, a->sdispls[i], a->sendtype);
        b->count = a->sendcounts[i];
        b->type = a->sendtype;
        break;
    default:
        b->buf = (char *)a->sendbuf + a->sdispls[i];
        b->count = a->sendcounts[i];
        b->type = a->sendtypes[i];
        break;
    }
}

/* Descriptors for every peer; with MPI_IN_PLACE the send side is a packed copy of the
 * receive buffer, taken before anything arrives. NULL when out of memory. */
static int describe(struct coll_sched *s, const struct coll_args *a, struct block **sends,
                    struct block **recvs)
{
    int size = a->comm->size;
    *sends = coll_sched_temp(s, (size_t)size * sizeof(struct block));
    *recvs = coll_sched_temp(s, (size_t)size * sizeof(struct block));
    if (!*sends || !*recvs)
        return MPI_ERR_NO_MEM;
    for (int i = 0; i < size; i++)
        recv_block(a, i, &(*recvs)[i]);
    if (!coll_in_place(a->sendbuf)) {
        for (int i = 0; i < size; i++)
            send_block(a, i, &(*sends)[i]);
        return MPI_SUCCESS;
    }
    struct dt_type *byte = coll_byte_type();
    size_t total = 0;
    for (int i = 0; i < size; i++)
        total += dt_packed_size((*recvs)[i].type, (*recvs)[i].count);
    char *copy = coll_sched_temp(s, total);
    if (!copy)
        return MPI_ERR_NO_MEM;
    for (int i = 0; i < size; i++) {
        struct block *r = &(*recvs)[i];
        MPI_Count bytes = (MPI_Count)dt_packed_size(r->type, r->count);
        if (i != a->comm->rank)
            coll_sched_copy(s, r->buf, r->count, r->type, copy, bytes, byte);
        (*sends)[i] = (struct block){copy, bytes, byte};
        copy += bytes;
    }
    /* our own block stays where it is */
    (*sends)[a->comm->rank] = (*recvs)[a->comm->rank];
    return MPI_SUCCESS;
}

/* A pair's transfer of 0 bytes is left out on both sides: the receiver's count and type give
 * the same size as the sender's (matching type signatures), so both know it (as MPICH's
 * v-collectives do). */
static MPI_Count block_bytes(const struct block *b)
{
    return coll_bytes_of(b->count, b->type);
}

static int exchange_linear(struct coll_sched *s, const struct coll_args *a)
{
    struct core_comm *comm = a->comm;
    int size = comm->size, rank = comm->rank;
    struct block *sends, *recvs;
    int rc = describe(s, a, &sends, &recvs);
    if (rc != MPI_SUCCESS)
        return rc;
    coll_sched_copy(s, sends[rank].buf, sends[rank].count, sends[rank].type, recvs[rank].buf,
                    recvs[rank].count, recvs[rank].type);
    for (int first = 1; first < size; first += COLL_ALLTOALL_BATCH) {
        int last = first + COLL_ALLTOALL_BATCH < size ? first + COLL_ALLTOALL_BATCH : size;
        for (int i = first; i < last; i++) {
            int from = (rank - i + size) % size;
            if (block_bytes(&recvs[from]))
                coll_sched_recv(s, comm, from, recvs[from].buf, recvs[from].count,
                                recvs[from].type);
        }
        for (int i = first; i < last; i++) {
            int to = (rank + i) % size;
            if (block_bytes(&sends[to]))
                coll_sched_send(s, comm, to, sends[to].buf, sends[to].count, sends[to].type);
        }
        coll_sched_round(s);
    }
    return MPI_SUCCESS;
}

static int exchange_pairwise(struct coll_sched *s, const struct coll_args *a)
{
    struct core_comm *comm = a->comm;
    int size = comm->size, rank = comm->rank, pof2 = coll_is_pof2(size);
    struct block *sends, *recvs;
    int rc = describe(s, a, &sends, &recvs);
    if (rc != MPI_SUCCESS)
        return rc;
    coll_sched_copy(s, sends[rank].buf, sends[rank].count, sends[rank].type, recvs[rank].buf,
                    recvs[rank].count, recvs[rank].type);
    for (int i = 1; i < size; i++) {
        int to = pof2 ? rank ^ i : (rank + i) % size;
        int from = pof2 ? rank ^ i : (rank - i + size) % size;
        if (block_bytes(&recvs[from]))
            coll_sched_recv(s, comm, from, recvs[from].buf, recvs[from].count,
                            recvs[from].type);
        if (block_bytes(&sends[to]))
            coll_sched_send(s, comm, to, sends[to].buf, sends[to].count, sends[to].type);
        coll_sched_round(s);
    }
    return MPI_SUCCESS;
}

int coll_alltoall_linear(struct coll_sched *s, const struct coll_args *a)
{
    return exchange_linear(s, a);
}

int coll_alltoall_pairwise(struct coll_sched *s, const struct coll_args *a)
{
    return exchange_pairwise(s, a);
}

int coll_alltoallv_linear(struct coll_sched *s, const struct coll_args *a)
{
    return exchange_linear(s, a);
}

int coll_alltoallv_pairwise(struct coll_sched *s, const struct coll_args *a)
{
    return exchange_pairwise(s, a);
}

int coll_alltoallw_linear(struct coll_sched *s, const struct coll_args *a)
{
    return exchange_linear(s, a);
}

int coll_alltoallw_pairwise(struct coll_sched *s, const struct coll_args *a)
{
    return exchange_pairwise(s, a);
}

/* Bruck et al. 1997: rotate so temp block j is the block for rank + j; in round k send every
 * block whose index has bit k set to rank + k (receiving the same positions from rank - k);
 * finally block j is the one from rank - j. */
int coll_alltoall_bruck(struct coll_sched *s, const struct coll_args *a)
{
    struct core_comm *comm = a->comm;
    int size = comm->size, rank = comm->rank;
    struct dt_type *byte = coll_byte_type();
    MPI_Count block = (MPI_Count)dt_packed_size(a->recvtype, a->recvcount);
    if (block == 0)
        return MPI_SUCCESS;
    char *temp = coll_sched_temp(s, (size_t)(size * block));
    char *out = coll_sched_temp(s, (size_t)((size / 2 + 1) * block));
    char *in = coll_sched_temp(s, (size_t)((size / 2 + 1) * block));
    if (!temp || !out || !in)
        return MPI_ERR_NO_MEM;
    int in_place = coll_in_place(a->sendbuf);
    for (int j = 0; j < size; j++) {
        int peer = (rank + j) % size;
        if (in_place)
            coll_sched_copy(s, coll_elem(a->recvbuf, (MPI_Count)peer * a->recvcount, a->recvtype),
                            a->recvcount, a->recvtype, temp + j * block, block, byte);
        else
            coll_sched_copy(s, coll_elem(a->sendbuf, (MPI_Count)peer * a->sendcount, a->sendtype),
                            a->sendcount, a->sendtype, temp + j * block, block, byte);
    }
    for (int k = 1; k < size; k <<= 1) {
        int n = 0;
        for (int j = 0; j < size; j++)
            if (j & k)
                coll_sched_copy(s, temp + j * block, block, byte, out + (n++) * block, block,
                                byte);
        coll_sched_recv(s, comm, (rank - k + size) % size, in, n * block, byte);
        coll_sched_send(s, comm, (rank + k) % size, out, n * block, byte);
        coll_sched_round(s);
        n = 0;
        for (int j = 0; j < size; j++)
            if (j & k)
                coll_sched_copy(s, in + (n++) * block, block, byte, temp + j * block, block,
                                byte);
    }
    for (int j = 0; j < size; j++)
        coll_sched_copy(s, temp + j * block, block, byte,
                        coll_elem(a->recvbuf, (MPI_Count)((rank - j + size) % size) *
                                                  a->recvcount,
                                  a->recvtype),
                        a->recvcount, a->recvtype);
    return MPI_SUCCESS;
}
