/* shm_alltoall.c - a small MPI_Alltoall of an oversubscribed job through the cells of its
 * communicator's barrier slot (shm_barrier.c), as shm_allgather.c does for MPI_Allgather:
 * every rank packs its whole send vector (one block per rank) into its cell, arrives, and once
 * the generation moves copies block `rank` out of every rank's cell. Each rank has to be
 * scheduled once per call, where p - 1 exchanges each wait for a partner to be scheduled.
 * Vectors that fit a cell (shm/segment.h: 8 KiB up to 8 ranks, so 8 ranks of 1 KiB blocks).
 * Every rank reads other ranks' cells after the release, so calls alternate between the
 * slot's two sets of cells (shm_allgather.c says why that is enough). */
#include "coll/algorithms.h"

/* Bytes of one block: recvcount is significant on every rank and the type signatures match,
 * so this is the same everywhere, in place or not. */
static MPI_Count block_bytes(const struct coll_args *a)
{
    return coll_bytes_of(a->recvcount, a->recvtype);
}

int coll_shm_alltoall_applies(const struct coll_args *a)
{
    return a->kind == COLL_ALLTOALL &&
           coll_shm_cells_usable(a, block_bytes(a) * (MPI_Count)a->comm->size);
}

int coll_shm_alltoall_run(const struct coll_args *a)
{
    struct core_comm *comm = a->comm;
    struct coll_shm_call call = {0};
    int rc;
    if (!coll_shm_call_start(a, &call, &rc))
        return rc;
    int size = comm->size, rank = comm->rank;
    size_t block = (size_t)block_bytes(a);
    char *cell = shm_slot_cell(call.seg, call.index, call.set, rank);
    /* block i of a send vector starts i * count elements in, so the whole vector packs as
     * size * count elements (in place: the receive buffer holds it, as recvcount recvtype) */
    if (coll_in_place(a->sendbuf))
        dt_pack_range(a->recvtype, a->recvbuf, a->recvcount * size, 0, cell, block * size);
    else
        dt_pack_range(a->sendtype, a->sendbuf, a->sendcount * size, 0, cell, block * size);
    coll_shm_call_meet(a, &call, NULL);
    /* in place too: our own vector is in our cell now, so overwriting the buffer is safe */
    for (int r = 0; r < size; r++)
        dt_unpack_range(a->recvtype, coll_elem(a->recvbuf, (MPI_Count)r * a->recvcount, a->recvtype),
                        a->recvcount, 0,
                        shm_slot_cell(call.seg, call.index, call.set, r) + (size_t)rank * block,
                        block);
    return MPI_SUCCESS;
}
