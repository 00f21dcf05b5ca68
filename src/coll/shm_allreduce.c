/* shm_allreduce.c - a small MPI_Allreduce of an oversubscribed job through the cells of its
 * communicator's barrier slot (shm_barrier.c): the barrier with data.
 *
 * Oversubscribed, recursive doubling costs log2 p rounds, each waiting for a partner to be
 * scheduled; the reduction itself is a few nanoseconds. Here every rank copies its vector
 * into its cell, adds itself to the slot's counter and waits for the generation to move; the
 * last to arrive reduces the p cells and moves it. Each rank copies the result out when it
 * next runs. Vectors that fit a cell (128 B-8 KiB by the job's rank count, shm/segment.h) of a
 * contiguous type, any op.
 *
 * The cells are combined in the tree recursive doubling (allreduce.c) builds, lower block op
 * higher block: floating-point sums then come out bitwise as they do when the job is not
 * oversubscribed, and as Open MPI's and MPICH's small allreduces give them. A rank-order fold
 * c0 op (c1 op (... op c(p-1))) is as valid for MPI but rounds differently; hypre's FSAI
 * tests (TEST_ij/fsai, 4 ranks) amplified that over 126-184 PCG iterations into final
 * residuals 3e-2 (relative) off hypre's reference numbers (docs/external-tests.md).
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

/* The leaf of recursive doubling's tree that folded rank newrank stands for (allreduce.c's
 * unfold): the first rem leaves hold an even-odd pair, stored in the odd rank's cell. */
static int leaf_cell(int newrank, int rem)
{
    return newrank < rem ? 2 * newrank + 1 : newrank + rem;
}

/* Reduce the p cells in place in recursive doubling's tree: fold the first 2*rem cells in
 * pairs, then combine blocks of 1, 2, 4, ... leaves, each block's value kept in the cell of its
 * last leaf (in op inout = lower op higher). The whole lands in cell p-1 and is copied to the
 * result cell (index p). Only the last rank to arrive runs this, before the release, so no
 * rank reads the cells meanwhile. */
static int reduce_cells_as_recursive_doubling(const struct coll_args *a,
                                              const struct coll_shm_call *call)
{
    int size = a->comm->size, pof2 = coll_pof2_floor(size), rem = size - pof2;
    int rc = MPI_SUCCESS;
    for (int j = 0; j < rem && rc == MPI_SUCCESS; j++)
        rc = coll_op_apply(a->op, shm_slot_cell(call->seg, call->index, call->set, 2 * j),
                           shm_slot_cell(call->seg, call->index, call->set, 2 * j + 1), a->count,
                           a->type);
    for (int width = 1; width < pof2; width *= 2) {
        for (int j = 0; j < pof2 && rc == MPI_SUCCESS; j += 2 * width) {
            void *lower = shm_slot_cell(call->seg, call->index, call->set,
                                        leaf_cell(j + width - 1, rem));
            void *higher = shm_slot_cell(call->seg, call->index, call->set,
                                         leaf_cell(j + 2 * width - 1, rem));
            rc = coll_op_apply(a->op, lower, higher, a->count, a->type);
        }
    }
    memcpy(shm_slot_cell(call->seg, call->index, call->set, size),
           shm_slot_cell(call->seg, call->index, call->set, size - 1),
           (size_t)coll_bytes_of(a->count, a->type));
    return rc;
}

int coll_shm_allreduce_run(const struct coll_args *a)
{
    struct core_comm *comm = a->comm;
    struct coll_shm_call call = {0};
    int rc;
    if (!coll_shm_call_start(a, &call, &rc))
        return rc;
    size_t bytes = (size_t)coll_bytes_of(a->count, a->type);
    const void *mine = coll_in_place(a->sendbuf) ? a->recvbuf : a->sendbuf;
    memcpy(shm_slot_cell(call.seg, call.index, call.set, comm->rank), mine, bytes);
    rc = coll_shm_call_meet(a, &call, reduce_cells_as_recursive_doubling);
    memcpy(a->recvbuf, shm_slot_cell(call.seg, call.index, call.set, comm->size), bytes);
    return rc;
}
