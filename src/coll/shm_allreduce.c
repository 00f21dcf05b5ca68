/* shm_allreduce.c - a small MPI_Allreduce of an oversubscribed job through the cells of its
 * communicator's barrier slot (shm_barrier.c): the barrier with data.
 *
 * Oversubscribed, recursive doubling costs log2 p rounds, each waiting for a partner to be
 * scheduled; the reduction itself is a few nanoseconds. Here every rank copies its vector
 * into its cell, adds itself to the slot's counter and waits for the generation to move; the
 * last to arrive reduces the p cells, in rank order, into the result cell and moves it. Each
 * rank copies the result out when it next runs. Up to SHM_SLOT_CELL (128) bytes of a
 * contiguous type, any op (user ops too: the order is c0 op (c1 op (... op c(p-1))), which
 * associativity makes the rank-order reduction MPI asks for).
 *
 * Calls use the slot's two sets of cells by the parity of the generation they start at, as
 * every call through the slot does (shm_allgather.c says why an allgather needs it; here it
 * keeps an allreduce from writing cells a preceding allgather's ranks still read). Within
 * allreduces alone one set would do: the next call's cells are written after the release,
 * which follows the reduction's reads, and its result once every rank arrived again. */
#include <string.h>

#include "coll/algorithms.h"
#include "core/config.h"
#include "core/state.h"

int coll_shm_allreduce_applies(const struct coll_args *a)
{
    struct core_comm *comm = a->comm;
    int sw = core_config.coll_shm_allreduce;
    if (a->kind != COLL_ALLREDUCE || comm->is_inter || comm->size < 3 || !nodempi.segment ||
        sw == CORE_SWITCH_OFF ||
        (sw == CORE_SWITCH_AUTO && core_config.coll_algorithm[COLL_ALLREDUCE] != 0))
        return 0; /* (auto yields to a forced NODEMPI_COLL_ALLREDUCE) */
    MPI_Count bytes = coll_bytes_of(a->count, a->type);
    if (bytes == 0 || bytes > SHM_SLOT_CELL || !dt_is_contiguous(a->type, a->count) ||
        a->type->true_lb != 0)
        return 0;
    /* auto: oversubscribed; on: whenever the members are ranks of this job (both answers
     * are the same on every member, and so are count and type size) */
    if (sw == CORE_SWITCH_AUTO ? !coll_comm_oversubscribed(comm) : !coll_comm_job_local(comm))
        return 0;
    return comm->size <= (int)nodempi.segment->nranks;
}

int coll_shm_allreduce_run(const struct coll_args *a)
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
    size_t bytes = (size_t)coll_bytes_of(a->count, a->type);
    /* relaxed: as in the barrier, this rank saw the generation's last move */
    uint32_t seen = atomic_load_explicit(&slot->generation, memory_order_relaxed);
    unsigned set = seen & 1; /* the set this call's generation owns (a shared rule, below) */
    const void *mine = coll_in_place(a->sendbuf) ? a->recvbuf : a->sendbuf;
    memcpy(shm_slot_cell(seg, index, set, comm->rank), mine, bytes);
    /* acq_rel: release publishes the cell to the last arrival; acquire (in the last arrival)
     * gathers every earlier arrival's cell */
    uint32_t before = atomic_fetch_add_explicit(&slot->arrived, 1, memory_order_acq_rel);
    char *result = shm_slot_cell(seg, index, set, comm->size);
    if (before + 1 == (uint32_t)comm->size) {
        /* relaxed: ordered before the generation's release store */
        atomic_store_explicit(&slot->arrived, 0, memory_order_relaxed);
        memcpy(result, shm_slot_cell(seg, index, set, comm->size - 1), bytes);
        for (int r = comm->size - 2; r >= 0 && rc == MPI_SUCCESS; r--)
            rc = coll_op_apply(a->op, shm_slot_cell(seg, index, set, r), result, a->count,
                               a->type);
        coll_shm_slot_release(comm, slot, seen); /* release: the result goes with it */
    } else {
        coll_shm_slot_wait(&slot->generation, seen);
    }
    memcpy(a->recvbuf, result, bytes);
    return rc;
}
