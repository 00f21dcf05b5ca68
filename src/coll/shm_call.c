/* shm_call.c - what every collective through a barrier slot does alike (shm_barrier.c,
 * shm_allreduce.c, shm_allgather.c, shm_alltoall.c, shm_reduce_scatter.c): whether a call may take a slot's cells, opening the call
 * (the slot, the generation it starts at, the set of cells that generation owns), and the
 * arrival on the slot's counter. */
#include "coll/algorithms.h"
#include "core/config.h"
#include "core/state.h"

int coll_shm_cells_usable(const struct coll_args *a, MPI_Count bytes)
{
    struct core_comm *comm = a->comm;
    int sw = core_config.coll_shm_allreduce; /* one switch for the slot's data paths */
    if (comm->is_inter || comm->size < 3 || !nodempi.segment || sw == CORE_SWITCH_OFF ||
        (sw == CORE_SWITCH_AUTO && core_config.coll_algorithm[a->kind] != 0))
        return 0; /* (auto yields to a forced NODEMPI_COLL_<OP>) */
    if (bytes == 0 || bytes > (MPI_Count)nodempi.segment->slot_cell_bytes)
        return 0;
    /* auto: oversubscribed; on: whenever the members are ranks of this job (both answers are
     * the same on every member, and the callers pass bytes that are too) */
    if (sw == CORE_SWITCH_AUTO ? !coll_comm_oversubscribed(comm) : !coll_comm_job_local(comm))
        return 0;
    return comm->size <= (int)nodempi.segment->nranks;
}

int coll_shm_call_open(struct core_comm *comm, struct coll_shm_call *call)
{
    int rc = coll_shm_slot_of(comm, &call->index);
    if (rc != MPI_SUCCESS || call->index < 0)
        return rc; /* index < 0: the table was full */
    call->seg = nodempi.segment;
    call->slot = &call->seg->barrier_slots[call->index];
    /* relaxed: the generation cannot move before this rank arrives, and this rank saw the last
     * move (it made it or waited for it), so this is the current one; the arrival's fetch_add
     * keeps the load before it */
    call->seen = atomic_load_explicit(&call->slot->generation, memory_order_relaxed);
    call->set = call->seen & 1;
    return MPI_SUCCESS;
}

int coll_shm_call_start(const struct coll_args *a, struct coll_shm_call *call, int *rc)
{
    *rc = coll_shm_call_open(a->comm, call);
    if (*rc != MPI_SUCCESS)
        return 0;
    if (!call->slot) {
        *rc = coll_run_schedule(a);
        return 0;
    }
    return 1;
}

int coll_shm_call_meet(const struct coll_args *a, const struct coll_shm_call *call,
                       coll_shm_last_fn *last)
{
    int rc = MPI_SUCCESS;
    if (coll_shm_call_arrive(a->comm, call)) {
        if (last)
            rc = last(a, call);
        /* release: what last wrote into the cells goes with it */
        coll_shm_slot_release(a->comm, call->slot, call->seen);
    } else {
        coll_shm_slot_wait(&call->slot->generation, call->seen);
    }
    return rc;
}

int coll_shm_call_arrive(const struct core_comm *comm, const struct coll_shm_call *call)
{
    /* acq_rel: release publishes this rank's writes (its cell) to the last arrival; acquire
     * (in the last arrival) gathers every earlier arrival's */
    uint32_t before = atomic_fetch_add_explicit(&call->slot->arrived, 1, memory_order_acq_rel);
    if (before + 1 != (uint32_t)comm->size)
        return 0;
    /* relaxed: ordered before the release store that lets anyone arrive again */
    atomic_store_explicit(&call->slot->arrived, 0, memory_order_relaxed);
    return 1;
}
