/* shm_reduce_scatter.c - a small MPI_Reduce_scatter / MPI_Reduce_scatter_block of an
 * oversubscribed job through the cells of its communicator's barrier slot (shm_barrier.c):
 * every rank copies its whole input vector into its cell and arrives; the last to arrive runs
 * recursive halving on the cells; every rank copies its block out after the release. One
 * barrier's worth of scheduling where the schedule's log2 p exchange rounds each wait for a
 * partner to be scheduled. Vectors that fit a cell (128 B-8 KiB by the job's rank count,
 * shm/segment.h) of a contiguous type, on up to HALVING_RANKS_MAX ranks.
 *
 * Only where the schedule would halve (a commutative op on 2^k ranks: reduce_scatter.c), and
 * with its tree: round by round (highest partner bit first) cell r's half that stays with r
 * becomes partner's op r's, as the exchanges would leave it, so floating-point results come out
 * bitwise as they do when the job is not oversubscribed (shm_allreduce.c's reason). Every rank
 * reads its cell after the release, so calls alternate the slot's two sets of cells
 * (shm_allgather.c says why that is enough). */
#include <string.h>

#include "coll/algorithms.h"

/* The halving's per-rank bookkeeping lives on the stack; 128 ranks is where a job's cells are
 * down to 128 bytes anyway (shm/segment.h). */
enum { HALVING_RANKS_MAX = 128 };

/* Rank r's block: recvcounts[r] (significant on every rank), or count for the block form. */
static MPI_Count block_count(const struct coll_args *a, int r)
{
    return a->kind == COLL_REDUCE_SCATTER ? a->recvcounts[r] : a->count;
}

static MPI_Count total_count(const struct coll_args *a)
{
    MPI_Count total = 0;
    for (int r = 0; r < a->comm->size; r++)
        total += block_count(a, r);
    return total;
}

int coll_shm_reduce_scatter_applies(const struct coll_args *a)
{
    if ((a->kind != COLL_REDUCE_SCATTER && a->kind != COLL_REDUCE_SCATTER_BLOCK) ||
        a->comm->is_inter || a->comm->size > HALVING_RANKS_MAX)
        return 0;
    MPI_Count total = total_count(a);
    if (!dt_is_contiguous(a->type, total) || a->type->true_lb != 0 ||
        !coll_shm_cells_usable(a, coll_bytes_of(total, a->type)))
        return 0;
    /* the same answer on every rank: counts, op and size are equal everywhere */
    coll_build_fn *tree = coll_selected_builder(a);
    return tree == coll_reduce_scatter_recursive_halving ||
           tree == coll_reduce_scatter_block_recursive_halving;
}

/* reduce_scatter.c's halving on all p cells at once: in the round of mask, rank r keeps the
 * half of its block range [lo, lo + 2 mask) that holds its own block, and that half becomes
 * (partner's half) op (r's half). Partners change disjoint halves, so each reads the other's
 * cell unchanged. Only the last rank to arrive runs this, before the release. */
static int halve_in_cells(const struct coll_args *a, const struct coll_shm_call *call)
{
    int size = a->comm->size, rc = MPI_SUCCESS;
    MPI_Count total = total_count(a);
    MPI_Aint displs[HALVING_RANKS_MAX];
    int lo[HALVING_RANKS_MAX];
    MPI_Aint at = 0;
    for (int r = 0; r < size; r++) {
        displs[r] = at;
        at += (MPI_Aint)block_count(a, r);
        lo[r] = 0;
    }
    for (int mask = size >> 1; mask > 0 && rc == MPI_SUCCESS; mask >>= 1) {
        for (int r = 0; r < size && rc == MPI_SUCCESS; r++) {
            int keep_lo = r & mask ? lo[r] + mask : lo[r];
            MPI_Aint keep_at = displs[keep_lo];
            MPI_Count keep_n = (keep_lo + mask < size ? displs[keep_lo + mask] : total) - keep_at;
            void *mine = shm_slot_cell(call->seg, call->index, call->set, r);
            const void *partner = shm_slot_cell(call->seg, call->index, call->set, r ^ mask);
            if (keep_n)
                rc = coll_op_apply(a->op, coll_elem(partner, keep_at, a->type),
                                   coll_elem(mine, keep_at, a->type), keep_n, a->type);
            lo[r] = keep_lo; /* (r ^ mask reads its own lo, which this does not change) */
        }
    }
    return rc;
}

int coll_shm_reduce_scatter_run(const struct coll_args *a)
{
    struct core_comm *comm = a->comm;
    struct coll_shm_call call = {0};
    int rc;
    if (!coll_shm_call_start(a, &call, &rc))
        return rc;
    MPI_Count total = total_count(a), before = 0;
    for (int r = 0; r < comm->rank; r++)
        before += block_count(a, r);
    /* in place, the input vector is in the receive buffer (our block goes to its start) */
    const void *input = coll_in_place(a->sendbuf) ? a->recvbuf : a->sendbuf;
    char *cell = shm_slot_cell(call.seg, call.index, call.set, comm->rank);
    memcpy(cell, input, (size_t)coll_bytes_of(total, a->type));
    rc = coll_shm_call_meet(a, &call, halve_in_cells);
    size_t mine = (size_t)coll_bytes_of(block_count(a, comm->rank), a->type);
    if (mine) /* a rank with an empty block may pass no buffer at all */
        memcpy(a->recvbuf, coll_elem(cell, before, a->type), mine);
    return rc;
}
