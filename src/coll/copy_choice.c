/* copy_choice.c - how a blocking collective's rendezvous messages are copied: reductions
 * through the two-copy pipeline, the others by the pair's fixed threshold (single copy from
 * 64 KiB). Not learnt per pair as point-to-point messages are (p2p/adapt.c): in a
 * collective's exchanges each rank's time depends on the other's choice, and learning on
 * both sides settled on the worse pair of choices as often as not (2 ranks, MPI_Allgather
 * 256 KiB 46 vs 31 us, MPI_Allreduce 64 KiB 17-19 vs 7-15 us). Why reductions pipeline: the
 * data they send was just written by the sender's reduction or is reduced at once by the
 * receiver, and the kernel's copy of lines dirty in the other core's cache is slow.
 * Measured 2026-11-22, 2 ranks, `chrt -f 10`, pipeline vs single copy (bench/effects
 * copy_adapt_coll): vCPUs far (line transfer 160 ns) MPI_Reduce 64 KiB-1 MiB 1.6-1.9x faster,
 * MPI_Allreduce 256 KiB-1 MiB 2.9-3.0x (1 MiB: 200 vs 596 us; Open MPI 593); vCPUs close
 * (27 ns) reduce 1.1-1.5x, allreduce 1.25-2.1x. Allgather, bcast and alltoall were within
 * 3% either way far and 1.0-1.3x faster pipelined close: left to the threshold. */
#include "coll/copy_choice.h"

#include "core/comm.h"
#include "core/state.h"
#include "datatype/datatype.h"
#include "p2p/p2p.h"

static int is_reduction(enum coll_kind kind)
{
    switch (kind) {
    case COLL_REDUCE:
    case COLL_ALLREDUCE:
    case COLL_REDUCE_SCATTER:
    case COLL_REDUCE_SCATTER_BLOCK:
    case COLL_SCAN:
    case COLL_EXSCAN:
        return 1;
    default:
        return 0;
    }
}

/* MPI_Exscan of two ranks reduces nothing: rank 1's result is rank 0's input, one message
 * received straight into recvbuf, a point-to-point transfer like any other. Its copy is learnt
 * (p2p/adapt.c) as a point-to-point message's is. Measured 2026-11-22, 2 ranks, `chrt -f 10`,
 * pipeline -> learnt, us: vCPUs far 64 KiB 8.0 -> 5.9, 256 KiB 24.6 -> 12.6, 1 MiB 88.9 ->
 * 43.2 (Open MPI 64 KiB 7.0, 1 MiB 80.5); close 2.96 / 9.6 / 40.5 -> 2.96 / 9.6 / 39.5. */
static int reduces_nothing(const struct coll_args *a)
{
    return a->kind == COLL_EXSCAN && a->comm->size == 2;
}

/* Oversubscribed, the reductions whose messages flow one way (tree or chain: reduce, scan,
 * exscan) take the fixed threshold: a single-copy pull is done by the receiver alone whenever
 * it runs, while a pipelined message larger than the pair's ring needs sender and receiver
 * scheduled in turn for every ring's worth. Measured 2026-11-23 (bench/ab, 7 rounds, medians,
 * pipeline -> fixed threshold): 4 ranks MPI_Reduce 64 KiB / 256 KiB / 1 MiB 31.6 / 193 / 486 ->
 * 20.6 / 63.8 / 247 us, MPI_Scan 1 MiB 263 -> 209; 8 ranks reduce 256 KiB / 1 MiB 233 / 1040 ->
 * 159 / 626, scan 217 / 834 -> 165 / 717, exscan 1 MiB 988 -> 782. The exchanges do not gain:
 * 4 ranks MPI_Reduce_scatter 64 KiB-1 MiB 1.09-1.24x slower, MPI_Allreduce 0.97-1.14x. */
static int pipelines(const struct coll_args *a)
{
    if (!is_reduction(a->kind))
        return 0;
    if (!nodempi.oversubscribed)
        return 1;
    return a->kind != COLL_REDUCE && a->kind != COLL_SCAN && a->kind != COLL_EXSCAN;
}

int coll_copy_choice_begin(const struct coll_args *a)
{
    if (!p2p_copy_choice_applies() || reduces_nothing(a))
        return 0;
    p2p_set_copy_hint(pipelines(a) ? P2P_COPY_HINT_PIPELINE : P2P_COPY_HINT_STATIC);
    return 1;
}

void coll_copy_choice_end(void)
{
    p2p_set_copy_hint(P2P_COPY_HINT_NONE);
}
