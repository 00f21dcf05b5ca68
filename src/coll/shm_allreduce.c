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

int coll_shm_allreduce_applies(const struct coll_args *a)
{
    /* MPI requires the same count and datatype on every rank of a reduction, so the type's
     * layout may decide too */
    return a->kind == COLL_ALLREDUCE && dt_is_contiguous(a->type, a->count) &&
           a->type->true_lb == 0 && coll_shm_cells_usable(a, coll_bytes_of(a->count, a->type));
}

int coll_shm_allreduce_run(const struct coll_args *a)
{
    struct core_comm *comm = a->comm;
    struct coll_shm_call call = {0};
    int rc = coll_shm_call_open(comm, &call);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!call.slot)
        return coll_run_schedule(a);
    size_t bytes = (size_t)coll_bytes_of(a->count, a->type);
    const void *mine = coll_in_place(a->sendbuf) ? a->recvbuf : a->sendbuf;
    memcpy(shm_slot_cell(call.seg, call.index, call.set, comm->rank), mine, bytes);
    char *result = shm_slot_cell(call.seg, call.index, call.set, comm->size);
    if (coll_shm_call_arrive(comm, &call)) {
        memcpy(result, shm_slot_cell(call.seg, call.index, call.set, comm->size - 1), bytes);
        for (int r = comm->size - 2; r >= 0 && rc == MPI_SUCCESS; r--)
            rc = coll_op_apply(a->op, shm_slot_cell(call.seg, call.index, call.set, r), result,
                               a->count, a->type);
        coll_shm_slot_release(comm, call.slot, call.seen); /* release: the result goes with it */
    } else {
        coll_shm_slot_wait(&call.slot->generation, call.seen);
    }
    memcpy(a->recvbuf, result, bytes);
    return rc;
}
