/* algorithms.h - the point-to-point collective algorithms, each a schedule builder, and small
 * helpers they share. Internal to src/coll: select.c picks one per call; the builders only
 * append steps to a schedule and never communicate themselves. */
#ifndef NODEMPI_COLL_ALGORITHMS_H
#define NODEMPI_COLL_ALGORITHMS_H

#include <mpi.h>

#include "coll/coll.h"
#include "coll/op.h"
#include "coll/sched.h"
#include "core/comm.h"
#include "datatype/datatype.h"
#include "shm/segment.h"

typedef int coll_build_fn(struct coll_sched *s, const struct coll_args *a);

/* Pick and build the algorithm for a call (select.c). */
int coll_build(struct coll_sched *s, const struct coll_args *a);
/* Name of algorithm `index` (0-based) of a collective's table (NULL past the end), and the
 * NODEMPI_COLL_<OP> choice string the table must match. */
const char *coll_algorithm_name(enum coll_kind kind, int index);
coll_build_fn *coll_selected_builder(const struct coll_args *a);
/* A scatter's block in bytes as the table sizes it: the root's send side, else the receive side. */
size_t coll_scatter_block_bytes(const struct coll_args *a);
const char *coll_algorithm_choices(enum coll_kind kind);

/* barrier.c */
coll_build_fn coll_barrier_dissemination, coll_barrier_linear, coll_barrier_tree;
/* bcast.c */
coll_build_fn coll_bcast_binomial, coll_bcast_scatter_allgather, coll_bcast_linear;
/* reduce.c */
coll_build_fn coll_reduce_binomial, coll_reduce_scatter_gather, coll_reduce_linear;
/* allreduce.c */
coll_build_fn coll_allreduce_recursive_doubling, coll_allreduce_rabenseifner,
    coll_allreduce_ring, coll_allreduce_reduce_bcast;
/* gather.c: gather, gatherv, scatter, scatterv */
coll_build_fn coll_gather_binomial, coll_gather_linear, coll_gatherv_linear;
coll_build_fn coll_scatter_binomial, coll_scatter_linear, coll_scatterv_linear;
/* allgather.c */
coll_build_fn coll_allgather_recursive_doubling, coll_allgather_bruck, coll_allgather_ring,
    coll_allgather_linear, coll_allgatherv_ring, coll_allgatherv_linear;
/* alltoall.c */
coll_build_fn coll_alltoall_bruck, coll_alltoall_linear, coll_alltoall_pairwise,
    coll_alltoallv_linear, coll_alltoallv_pairwise, coll_alltoallw_linear,
    coll_alltoallw_pairwise;
/* reduce_scatter.c */
coll_build_fn coll_reduce_scatter_ring, coll_reduce_scatter_reduce_scatterv,
    coll_reduce_scatter_recursive_halving,
    coll_reduce_scatter_block_recursive_halving, coll_reduce_scatter_block_ring,
    coll_reduce_scatter_block_reduce_scatter;
/* scan.c */
coll_build_fn coll_scan_recursive_doubling, coll_scan_linear, coll_exscan_recursive_doubling,
    coll_exscan_linear;
/* inter.c: intercommunicator forms (one algorithm each) */
coll_build_fn coll_inter_build;
/* MPI_T event nodempi_coll_path: a took path (enum core_event_coll_path_kind), with algorithm
 * (index in its table) or -1 (select.c). Call only if core_event_wanted(CORE_EVENT_COLL_PATH). */
void coll_raise_path(const struct coll_args *a, int path, int algorithm);
/* neighbor.c */
coll_build_fn coll_neighbor_build;

/* ------------------------------------------------------------------------------------------ */
/* Helpers for builders.                                                                        */

/* Address of element `index` of a typed buffer. */
static inline void *coll_elem(const void *buf, MPI_Count index, const struct dt_type *type)
{
    return (char *)buf + (MPI_Aint)index * type->extent;
}

/* Bytes of count elements of type; 0 for no type (an argument not significant on this rank). */
static inline MPI_Count coll_bytes_of(MPI_Count count, const struct dt_type *type)
{
    return type ? count * (MPI_Count)type->size : 0;
}

/* Largest power of two <= n (n >= 1). */
static inline int coll_pof2_floor(int n)
{
    int p = 1;
    while (p * 2 <= n)
        p *= 2;
    return p;
}

static inline int coll_is_pof2(int n)
{
    return n > 0 && (n & (n - 1)) == 0;
}

/* True when `a` passes MPI_IN_PLACE as its send buffer. */
static inline int coll_in_place(const void *sendbuf)
{
    return sendbuf == MPI_IN_PLACE;
}

/* Binomial subtree helpers over relative ranks (rank - root mod size). */
static inline int coll_rel(int rank, int root, int size)
{
    return (rank - root + size) % size;
}

static inline int coll_abs(int rel, int root, int size)
{
    return (rel + root) % size;
}

/* Split count elements into `parts` nearly equal blocks: block i has count/parts elements
 * plus one for the first count%parts blocks. */
static inline MPI_Count coll_block_count(MPI_Count count, int parts, int i)
{
    MPI_Count base = count / parts, extra = count % parts;
    return base + (i < extra ? 1 : 0);
}

static inline MPI_Count coll_block_start(MPI_Count count, int parts, int i)
{
    MPI_Count base = count / parts, extra = count % parts;
    return (MPI_Count)i * base + (i < extra ? i : extra);
}

/* pair.c: blocking collectives of two-rank intracommunicators without a schedule. */
int coll_pair_applies(const struct coll_args *a);
int coll_pair_run(const struct coll_args *a);

/* shm_barrier.c: blocking MPI_Barrier of an oversubscribed job on a shared counter. */
int coll_shm_barrier_applies(const struct coll_args *a);
int coll_shm_barrier_run(const struct coll_args *a);
/* The call after a shm barrier on its communicator picks who releases the next one. */
void coll_shm_barrier_choose_releaser(struct coll_comm_state *state, const struct coll_args *a);
/* Every blocking and nonblocking entry point calls this: a no-op unless a shm barrier was the
 * communicator's last collective. */
static inline void coll_shm_barrier_note_next(const struct coll_args *a)
{
    struct coll_comm_state *state = a->comm->coll_private;
    if (state && state->barrier_watch)
        coll_shm_barrier_choose_releaser(state, a);
}
/* The communicator's slot in the segment's table (*index, -1 when the table was full),
 * claimed at the first call (collective: a message barrier and a broadcast). */
int coll_shm_slot_of(struct core_comm *comm, int *index);
/* Wait, progressing, while *word == old; make the generation seen + 1 and wake the sleepers. */
void coll_shm_slot_wait(_Atomic uint32_t *word, uint32_t old);
void coll_shm_slot_release(const struct core_comm *comm, struct shm_barrier_slot *slot,
                           uint32_t seen);
/* shm_call.c: a call through the communicator's slot. The slot's data paths apply to blocking
 * calls of bytes per rank that every member agrees on, up to a cell; open finds the slot
 * (slot NULL: the table was full, run the schedule) and the generation and cell set the call
 * starts at; arrive counts this rank in and says whether it was the last. */
struct coll_shm_call {
    struct shm_header *seg;
    int index;
    struct shm_barrier_slot *slot;
    uint32_t seen;
    unsigned set;
};
int coll_shm_cells_usable(const struct coll_args *a, MPI_Count bytes);
int coll_shm_call_open(struct core_comm *comm, struct coll_shm_call *call);
/* The data paths' start: open a's call; 1 to go on through the cells, 0 when the call is
 * over already with *rc its result (an error, or the schedule run because the table was full). */
int coll_shm_call_start(const struct coll_args *a, struct coll_shm_call *call, int *rc);
int coll_shm_call_arrive(const struct core_comm *comm, const struct coll_shm_call *call);
/* The data paths' meeting (after each rank filled its cell): arrive; the last to arrive runs
 * last on the cells (if any) and releases the others, who wait for that. last's code on the
 * rank that ran it, MPI_SUCCESS elsewhere. */
typedef int coll_shm_last_fn(const struct coll_args *a, const struct coll_shm_call *call);
int coll_shm_call_meet(const struct coll_args *a, const struct coll_shm_call *call,
                       coll_shm_last_fn *last);
/* shm_allreduce.c, shm_allgather.c: small blocking MPI_Allreduce / MPI_Allgather of an
 * oversubscribed job through a slot's cells. */
int coll_shm_allreduce_applies(const struct coll_args *a);
int coll_shm_allreduce_run(const struct coll_args *a);
int coll_shm_allgather_applies(const struct coll_args *a);
int coll_shm_allgather_run(const struct coll_args *a);
/* shm_alltoall.c: the same for MPI_Alltoall of a send vector of up to a cell. */
int coll_shm_alltoall_applies(const struct coll_args *a);
int coll_shm_alltoall_run(const struct coll_args *a);
/* shm_reduce_scatter.c: MPI_Reduce_scatter(_block) of a vector of up to a cell, where the
 * schedule would halve recursively (its tree, reproduced in the cells). */
int coll_shm_reduce_scatter_applies(const struct coll_args *a);
int coll_shm_reduce_scatter_run(const struct coll_args *a);
/* linear_direct.c: a small linear bcast or scatter without a schedule */
int coll_linear_direct_applies(const struct coll_args *a);
int coll_linear_direct_run(const struct coll_args *a);
/* coll.c: a blocking collective as its selection table's schedule (what those fall back to
 * when the slot table is full). */
int coll_run_schedule(const struct coll_args *a);
/* Rank 0 gives the communicator's slot back (called as its collective state is freed). */
void coll_shm_barrier_release(struct core_comm *comm, struct coll_comm_state *state);

#endif
