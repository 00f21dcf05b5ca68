/* shm_allgather.c - a small MPI_Allgather of an oversubscribed job through the cells of its
 * communicator's barrier slot (shm_barrier.c): every rank copies its block into its cell,
 * arrives, and once the generation moves copies every cell out. One barrier's worth of
 * scheduling instead of log2 p (recursive doubling, Bruck) rounds that each wait for a partner
 * to be scheduled. Blocks of up to SHM_SLOT_CELL (128) bytes, packed in the cells.
 *
 * Unlike the allreduce, every rank reads the cells after the release, so the next call must
 * not write the same ones: calls alternate between the slot's two sets by the parity of the
 * generation they start at. A rank writes set (g + 1) & 1 in call g + 1 while slower ranks
 * still read set g & 1, and call g + 2, which reuses that set, cannot start before every rank
 * arrived at g + 1, after its reads. */
#include "coll/algorithms.h"
#include "core/config.h"
#include "core/state.h"

int coll_shm_allgather_applies(const struct coll_args *a)
{
    struct core_comm *comm = a->comm;
    int sw = core_config.coll_shm_allreduce; /* one switch for the slot's data paths */
    if (a->kind != COLL_ALLGATHER || comm->is_inter || comm->size < 3 || !nodempi.segment ||
        sw == CORE_SWITCH_OFF ||
        (sw == CORE_SWITCH_AUTO && core_config.coll_algorithm[COLL_ALLGATHER] != 0))
        return 0; /* (auto yields to a forced NODEMPI_COLL_ALLGATHER) */
    /* Only what is equal on every rank decides: the block's bytes (recvcount is significant
     * everywhere and type signatures match), never a type's layout; blocks go in and out of
     * the cells packed. */
    MPI_Count block = coll_bytes_of(a->recvcount, a->recvtype);
    if (block == 0 || block > SHM_SLOT_CELL)
        return 0;
    if (sw == CORE_SWITCH_AUTO ? !coll_comm_oversubscribed(comm) : !coll_comm_job_local(comm))
        return 0;
    return comm->size <= (int)nodempi.segment->nranks;
}

int coll_shm_allgather_run(const struct coll_args *a)
{
    struct core_comm *comm = a->comm;
    int index;
    int rc = coll_shm_slot_of(comm, &index);
    if (rc != MPI_SUCCESS)
        return rc;
    if (index < 0) /* the table was full */
        return coll_run_schedule(a);
    struct shm_header *seg = nodempi.segment;
    struct shm_barrier_slot *slot = &seg->barrier_slots[index];
    size_t block = (size_t)coll_bytes_of(a->recvcount, a->recvtype);
    char *recv = a->recvbuf;
    /* relaxed: as in the barrier, this rank saw the generation's last move */
    uint32_t seen = atomic_load_explicit(&slot->generation, memory_order_relaxed);
    unsigned set = seen & 1;
    char *cell = shm_slot_cell(seg, index, set, comm->rank);
    if (coll_in_place(a->sendbuf))
        dt_pack_range(a->recvtype, coll_elem(recv, (MPI_Count)comm->rank * a->recvcount,
                                             a->recvtype),
                      a->recvcount, 0, cell, block);
    else
        dt_pack_range(a->sendtype, a->sendbuf, a->sendcount, 0, cell, block);
    /* acq_rel: release publishes the cell; acquire (in the last arrival) gathers every
     * earlier arrival's before its release store passes them all on */
    uint32_t before = atomic_fetch_add_explicit(&slot->arrived, 1, memory_order_acq_rel);
    if (before + 1 == (uint32_t)comm->size) {
        /* relaxed: ordered before the generation's release store */
        atomic_store_explicit(&slot->arrived, 0, memory_order_relaxed);
        coll_shm_slot_release(comm, slot, seen);
    } else {
        coll_shm_slot_wait(&slot->generation, seen);
    }
    for (int r = 0; r < comm->size; r++)
        if (r != comm->rank || !coll_in_place(a->sendbuf))
            dt_unpack_range(a->recvtype, coll_elem(recv, (MPI_Count)r * a->recvcount, a->recvtype),
                            a->recvcount, 0, shm_slot_cell(seg, index, set, r), block);
    return MPI_SUCCESS;
}
