/* shm_allgather.c - a small MPI_Allgather of an oversubscribed job through the cells of its
 * communicator's barrier slot (shm_barrier.c): every rank copies its block into its cell,
 * arrives, and once the generation moves copies every cell out. One barrier's worth of
 * scheduling instead of log2 p (recursive doubling, Bruck) rounds that each wait for a partner
 * to be scheduled. Blocks that fit a cell (128 B-8 KiB by the job's rank count, shm/segment.h),
 * packed in the cells.
 *
 * Unlike the allreduce, every rank reads the cells after the release, so the next call must
 * not write the same ones: calls alternate between the slot's two sets by the parity of the
 * generation they start at. A rank writes set (g + 1) & 1 in call g + 1 while slower ranks
 * still read set g & 1, and call g + 2, which reuses that set, cannot start before every rank
 * arrived at g + 1, after its reads. */
#include "coll/algorithms.h"

int coll_shm_allgather_applies(const struct coll_args *a)
{
    /* Only what is equal on every rank decides: the block's bytes (recvcount is significant
     * everywhere and type signatures match), never a type's layout; blocks go in and out of
     * the cells packed. */
    return a->kind == COLL_ALLGATHER &&
           coll_shm_cells_usable(a, coll_bytes_of(a->recvcount, a->recvtype));
}

int coll_shm_allgather_run(const struct coll_args *a)
{
    struct core_comm *comm = a->comm;
    struct coll_shm_call call = {0};
    int rc;
    if (!coll_shm_call_start(a, &call, &rc))
        return rc;
    size_t block = (size_t)coll_bytes_of(a->recvcount, a->recvtype);
    char *recv = a->recvbuf;
    char *cell = shm_slot_cell(call.seg, call.index, call.set, comm->rank);
    if (coll_in_place(a->sendbuf))
        dt_pack_range(a->recvtype, coll_elem(recv, (MPI_Count)comm->rank * a->recvcount,
                                             a->recvtype),
                      a->recvcount, 0, cell, block);
    else
        dt_pack_range(a->sendtype, a->sendbuf, a->sendcount, 0, cell, block);
    coll_shm_call_meet(a, &call, NULL);
    for (int r = 0; r < comm->size; r++)
        if (r != comm->rank || !coll_in_place(a->sendbuf))
            dt_unpack_range(a->recvtype, coll_elem(recv, (MPI_Count)r * a->recvcount, a->recvtype),
                            a->recvcount, 0, shm_slot_cell(call.seg, call.index, call.set, r),
                            block);
    return MPI_SUCCESS;
}
