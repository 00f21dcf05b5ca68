/* pair.c - blocking collectives of a two-rank intracommunicator as the one exchange each of them
 * is between two ranks: plain sends and receives on the collective context, no schedule, no
 * request, and the receive side completes in place (p2p recv.c). Every algorithm of the
 * selection table degenerates to the same messages at two ranks; what a schedule adds there is
 * its own cost (building, a request per step, polling rounds), which was most of a small
 * collective's time: MPI_Bcast of 4 B at 2 ranks 0.126 us vs Open MPI's 0.079.
 * Used only when NODEMPI_COLL_<OP> is auto (blocks of the gather family only when small: the
 * limits below); the decision depends on arguments every rank has in common, so both ranks
 * take the same path. */
#include <stdlib.h>
#include <string.h>

#include "coll/algorithms.h"
#include "core/config.h"
#include "core/init.h"
#include "core/request.h"
#include "datatype/datatype.h"
#include "p2p/p2p.h"

/* Allreduce and blocks of the gather family above this size go to the schedules (their
 * copies overlap the exchange; Rabenseifner's halving reduces half the vector per rank):
 * allreduce at 2 ranks through the pair path took 1.36x the schedule's time at 64 KiB and 1.7x
 * at 4 MiB (0.68x at 256 KiB). Reduce and bcast take it at every size: MPI_Reduce 64 KiB-4 MiB
 * 0.58-1.1x the schedule's time (256 KiB 65.6 -> 38.2 us median, 4 MiB 524 -> 500 us).
 * Up to 16 KiB the pair path wins: IMB at 2 ranks, 3 interleaved A/B rounds (2026-11-23,
 * docs/external-tests.md "Intel MPI Benchmarks"): 4 KiB Allreduce 0.48-0.50 -> 0.43-0.45 us,
 * Scatter 0.37-0.43 -> 0.28; 16 KiB Allreduce 1.20-1.28 -> 1.07-1.14 (Gather 0.52 -> 0.53-0.58
 * lost); at 32 KiB Allreduce lost (2.06 -> 2.23-2.29 us). */
enum { PAIR_MAX_BYTES = 16384, PAIR_STACK_BYTES = 2048 };

/* The peer's vector of a large reduction lands here: kept between calls (up to a bound) so a
 * loop of large reductions does not map and fault in fresh pages every time. */
enum { PAIR_KEEP_SCRATCH_BYTES = 16 << 20 };
static void *kept_scratch;
static size_t kept_scratch_bytes;

static void free_kept_scratch(void)
{
    free(kept_scratch);
    kept_scratch = NULL;
    kept_scratch_bytes = 0;
}

static int pair_send(const struct coll_args *a, int tag, const void *buf, MPI_Count count,
                     struct dt_type *type)
{
    struct core_comm *comm = a->comm;
    return p2p_send(comm, comm->context + CORE_CONTEXT_COLL_OFFSET, 1 - comm->rank, tag, buf,
                    count, type, CORE_SEND_STANDARD);
}

static int pair_recv(const struct coll_args *a, int tag, void *buf, MPI_Count count,
                     struct dt_type *type)
{
    struct core_comm *comm = a->comm;
    return p2p_recv(comm, comm->context + CORE_CONTEXT_COLL_OFFSET, 1 - comm->rank, tag, buf,
                    count, type, NULL);
}

/* Both ranks send and receive: the send is started first and finished last, so two sends of
 * rendezvous size cannot wait for each other. */
static int pair_exchange(const struct coll_args *a, int tag, const void *sbuf, MPI_Count scount,
                         struct dt_type *stype, void *rbuf, MPI_Count rcount,
                         struct dt_type *rtype)
{
    struct core_comm *comm = a->comm;
    struct core_request *send;
    int rc = p2p_isend(comm, comm->context + CORE_CONTEXT_COLL_OFFSET, 1 - comm->rank, tag, sbuf,
                       scount, stype, CORE_SEND_STANDARD, &send);
    if (rc != MPI_SUCCESS)
        return rc;
    int rrc = pair_recv(a, tag, rbuf, rcount, rtype);
    rc = core_request_wait(send, NULL);
    return rrc != MPI_SUCCESS ? rrc : rc;
}

static char *block(const void *buf, int index, MPI_Count count, const struct dt_type *type)
{
    return (char *)buf + (MPI_Aint)index * count * type->extent;
}

/* result := a0 (op) a1 in rank order (the standard's order for non-commutative operations),
 * given count elements of the peer's vector in theirs and ours in result. */
static int combine(const struct coll_args *a, void *theirs, void *result, MPI_Count count)
{
    if (a->comm->rank == 1 || a->op->commutative)
        return coll_op_apply(a->op, theirs, result, count, a->type);
    int rc = coll_op_apply(a->op, result, theirs, count, a->type); /* theirs = a0 op a1 */
    if (rc == MPI_SUCCESS)
        rc = coll_copy(theirs, count, a->type, result, count, a->type);
    return rc;
}

/* A scratch vector laid out like count elements of type (it may start before its memory):
 * on the stack, in the kept buffer, or (beyond the bound) in *heap for the caller to free. */
static void *scratch_vector(const struct coll_args *a, MPI_Count count, char *stack, void **heap)
{
    size_t span = (size_t)(a->type->true_extent + (MPI_Aint)(count - 1) * a->type->extent);
    char *mem = stack;
    *heap = NULL;
    if (stack && span <= PAIR_STACK_BYTES)
        return mem - a->type->true_lb;
    if (span > PAIR_KEEP_SCRATCH_BYTES) {
        if (!(mem = *heap = malloc(span)))
            return NULL;
        return mem - a->type->true_lb;
    }
    if (span > kept_scratch_bytes) {
        if (!kept_scratch)
            core_at_finalize(free_kept_scratch);
        free(kept_scratch);
        kept_scratch_bytes = 0;
        if (!(kept_scratch = malloc(span)))
            return NULL;
        kept_scratch_bytes = span;
    }
    return (char *)kept_scratch - a->type->true_lb;
}

/* The peer sends the vector as a train of segment messages, at most this many unfinished at
 * once, and the root combines segment k while segment k+1 arrives. */
enum { PAIR_SEGMENTS_IN_FLIGHT = 8 };

static MPI_Count segment_count(const struct coll_args *a, MPI_Count segment, int k)
{
    MPI_Count first = (MPI_Count)k * segment;
    return a->count - first < segment ? a->count - first : segment;
}

/* The non-root side of a segmented MPI_Reduce: every segment a message of its own. */
static int pair_reduce_send_segments(const struct coll_args *a, int tag, const void *mine,
                                     MPI_Count segment, int nseg)
{
    struct core_comm *comm = a->comm;
    struct core_request *flight[PAIR_SEGMENTS_IN_FLIGHT] = {NULL};
    int rc = MPI_SUCCESS;
    for (int k = 0; k < nseg && rc == MPI_SUCCESS; k++) {
        struct core_request **slot = &flight[k % PAIR_SEGMENTS_IN_FLIGHT];
        if (*slot) {
            rc = core_request_wait(*slot, NULL);
            *slot = NULL;
            if (rc != MPI_SUCCESS)
                break;
        }
        struct core_request *send;
        rc = p2p_isend(comm, comm->context + CORE_CONTEXT_COLL_OFFSET, 1 - comm->rank, tag,
                       coll_elem(mine, (MPI_Count)k * segment, a->type),
                       segment_count(a, segment, k), a->type, CORE_SEND_STANDARD, &send);
        if (rc == MPI_SUCCESS)
            *slot = send;
    }
    for (int i = 0; i < PAIR_SEGMENTS_IN_FLIGHT; i++) {
        if (!flight[i])
            continue;
        int wrc = core_request_wait(flight[i], NULL);
        if (rc == MPI_SUCCESS)
            rc = wrc;
    }
    return rc;
}

/* The root side: two segment buffers, the next receive posted before the current one is
 * waited for and combined into recvbuf. */
static int pair_reduce_recv_segments(const struct coll_args *a, int tag, MPI_Count segment,
                                     int nseg)
{
    struct core_comm *comm = a->comm;
    uint32_t context = comm->context + CORE_CONTEXT_COLL_OFFSET;
    int peer = 1 - comm->rank;
    void *heap;
    void *scratch = scratch_vector(a, 2 * segment, NULL, &heap);
    if (!scratch)
        return MPI_ERR_NO_MEM;
    void *buffer[2] = {scratch, coll_elem(scratch, segment, a->type)};
    struct core_request *pending[2] = {NULL, NULL};
    int rc = p2p_irecv(comm, context, peer, tag, buffer[0], segment_count(a, segment, 0),
                       a->type, &pending[0]);
    for (int k = 0; k < nseg && rc == MPI_SUCCESS; k++) {
        int next = (k + 1) & 1;
        if (k + 1 < nseg)
            rc = p2p_irecv(comm, context, peer, tag, buffer[next],
                           segment_count(a, segment, k + 1), a->type, &pending[next]);
        int wrc = core_request_wait(pending[k & 1], NULL);
        pending[k & 1] = NULL;
        if (rc == MPI_SUCCESS)
            rc = wrc;
        if (rc != MPI_SUCCESS)
            break;
        MPI_Count n = segment_count(a, segment, k);
        void *result = coll_elem(a->recvbuf, (MPI_Count)k * segment, a->type);
        if (!coll_in_place(a->sendbuf))
            rc = coll_copy(coll_elem(a->sendbuf, (MPI_Count)k * segment, a->type), n, a->type,
                           result, n, a->type);
        if (rc == MPI_SUCCESS)
            rc = combine(a, buffer[k & 1], result, n);
    }
    for (int i = 0; i < 2; i++)
        if (pending[i])
            core_request_wait(pending[i], NULL);
    free(heap);
    return rc;
}

/* Elements per segment of a segmented MPI_Reduce, 0 = one message. Both ranks compute the same
 * number: the same count and type signature, and NODEMPI_REDUCE_SEGMENT must agree. */
static MPI_Count reduce_segment(const struct coll_args *a)
{
    size_t bytes = core_config.reduce_segment;
    if (bytes == 0 || a->type->size == 0 || a->type->extent <= 0)
        return 0;
    MPI_Count segment = (MPI_Count)(bytes / a->type->size);
    if (segment < 1)
        segment = 1;
    return a->count > 2 * segment ? segment : 0;
}

static int pair_reduce(const struct coll_args *a, int tag, int all)
{
    int me = a->comm->rank;
    const void *mine = coll_in_place(a->sendbuf) ? a->recvbuf : a->sendbuf;
    MPI_Count segment = reduce_segment(a);
    if (!all && segment > 0) {
        int nseg = (int)((a->count + segment - 1) / segment);
        return me == a->root ? pair_reduce_recv_segments(a, tag, segment, nseg)
                             : pair_reduce_send_segments(a, tag, mine, segment, nseg);
    }
    if (!all && me != a->root)
        return pair_send(a, tag, mine, a->count, a->type);
    _Alignas(64) char stack[PAIR_STACK_BYTES];
    void *heap;
    void *theirs = scratch_vector(a, a->count, stack, &heap);
    if (!theirs)
        return MPI_ERR_NO_MEM;
    int rc = all ? pair_exchange(a, tag, mine, a->count, a->type, theirs, a->count, a->type)
                 : pair_recv(a, tag, theirs, a->count, a->type);
    if (rc == MPI_SUCCESS && !coll_in_place(a->sendbuf))
        rc = coll_copy(a->sendbuf, a->count, a->type, a->recvbuf, a->count, a->type);
    if (rc == MPI_SUCCESS)
        rc = combine(a, theirs, a->recvbuf, a->count);
    free(heap);
    return rc;
}

static MPI_Count pair_bytes(const struct coll_args *a);

/* Gather (to_root) or scatter between the root's buffer, of which the caller names the peer's
 * block and its own, and the other rank's buffer. */
static int pair_rooted_blocks(const struct coll_args *a, int tag, int to_root, void *peer_block,
                              MPI_Count peer_count, void *my_block, MPI_Count my_count)
{
    /* the peer's part of 0 bytes travels neither way, as in gather.c (the v forms: the root's
     * count for the peer gives the size the peer's own count gives) */
    int transfer = pair_bytes(a) != 0;
    if (a->comm->rank != a->root) {
        if (!transfer)
            return MPI_SUCCESS;
        return to_root ? pair_send(a, tag, a->sendbuf, a->sendcount, a->sendtype)
                       : pair_recv(a, tag, a->recvbuf, a->recvcount, a->recvtype);
    }
    int rc = MPI_SUCCESS;
    if (to_root) {
        if (transfer)
            rc = pair_recv(a, tag, peer_block, peer_count, a->recvtype);
        if (rc == MPI_SUCCESS && !coll_in_place(a->sendbuf))
            rc = coll_copy(a->sendbuf, a->sendcount, a->sendtype, my_block, my_count,
                           a->recvtype);
    } else {
        if (transfer)
            rc = pair_send(a, tag, peer_block, peer_count, a->sendtype);
        if (rc == MPI_SUCCESS && !coll_in_place(a->recvbuf))
            rc = coll_copy(my_block, my_count, a->sendtype, a->recvbuf, a->recvcount,
                           a->recvtype);
    }
    return rc;
}

/* Gather or scatter: the root's blocks are consecutive, of the root's count each. */
static int pair_rooted(const struct coll_args *a, int tag, int to_root)
{
    int me = a->comm->rank, peer = 1 - me;
    if (me != a->root)
        return pair_rooted_blocks(a, tag, to_root, NULL, 0, NULL, 0);
    if (to_root)
        return pair_rooted_blocks(a, tag, 1, block(a->recvbuf, peer, a->recvcount, a->recvtype),
                                  a->recvcount, block(a->recvbuf, me, a->recvcount, a->recvtype),
                                  a->recvcount);
    return pair_rooted_blocks(a, tag, 0, block(a->sendbuf, peer, a->sendcount, a->sendtype),
                              a->sendcount, block(a->sendbuf, me, a->sendcount, a->sendtype),
                              a->sendcount);
}

/* Allgather (every rank's one block) or alltoall (block[peer] of each side). */
static int pair_all(const struct coll_args *a, int tag, int alltoall)
{
    int me = a->comm->rank, peer = 1 - me;
    const void *out = alltoall ? block(a->sendbuf, peer, a->sendcount, a->sendtype)
                      : coll_in_place(a->sendbuf) ? block(a->recvbuf, me, a->recvcount,
                                                          a->recvtype)
                                                  : a->sendbuf;
    MPI_Count scount = coll_in_place(a->sendbuf) ? a->recvcount : a->sendcount;
    struct dt_type *stype = coll_in_place(a->sendbuf) ? a->recvtype : a->sendtype;
    int rc = pair_exchange(a, tag, out, scount, stype,
                           block(a->recvbuf, peer, a->recvcount, a->recvtype), a->recvcount,
                           a->recvtype);
    if (rc == MPI_SUCCESS && !coll_in_place(a->sendbuf))
        rc = coll_copy(alltoall ? block(a->sendbuf, me, a->sendcount, a->sendtype) : a->sendbuf,
                       a->sendcount, a->sendtype,
                       block(a->recvbuf, me, a->recvcount, a->recvtype), a->recvcount,
                       a->recvtype);
    return rc;
}

/* Gatherv or scatterv: the root's blocks at its displacements, of its counts (only the root
 * has them). */
static int pair_rooted_v(const struct coll_args *a, int tag, int to_root)
{
    int me = a->comm->rank, peer = 1 - me;
    if (me != a->root)
        return pair_rooted_blocks(a, tag, to_root, NULL, 0, NULL, 0);
    if (to_root)
        return pair_rooted_blocks(a, tag, 1, coll_elem(a->recvbuf, a->rdispls[peer], a->recvtype),
                                  a->recvcounts[peer],
                                  coll_elem(a->recvbuf, a->rdispls[me], a->recvtype),
                                  a->recvcounts[me]);
    return pair_rooted_blocks(a, tag, 0, coll_elem(a->sendbuf, a->sdispls[peer], a->sendtype),
                              a->sendcounts[peer],
                              coll_elem(a->sendbuf, a->sdispls[me], a->sendtype),
                              a->sendcounts[me]);
}

/* Allgatherv (our block out, the peer's in at its displacement) or alltoallv (block[peer] of
 * each side). */
static int pair_all_v(const struct coll_args *a, int tag, int alltoall)
{
    int me = a->comm->rank, peer = 1 - me, in_place = coll_in_place(a->sendbuf);
    const void *out;
    MPI_Count scount;
    struct dt_type *stype;
    if (alltoall) {
        out = coll_elem(a->sendbuf, a->sdispls[peer], a->sendtype);
        scount = a->sendcounts[peer];
        stype = a->sendtype;
    } else if (in_place) {
        out = coll_elem(a->recvbuf, a->rdispls[me], a->recvtype);
        scount = a->recvcounts[me];
        stype = a->recvtype;
    } else {
        out = a->sendbuf;
        scount = a->sendcount;
        stype = a->sendtype;
    }
    int rc = MPI_SUCCESS;
    if (pair_bytes(a)) /* both ranks compute the same largest part; 0: nothing travels */
        rc = pair_exchange(a, tag, out, scount, stype,
                           coll_elem(a->recvbuf, a->rdispls[peer], a->recvtype),
                           a->recvcounts[peer], a->recvtype);
    if (rc != MPI_SUCCESS || in_place)
        return rc;
    if (alltoall)
        return coll_copy(coll_elem(a->sendbuf, a->sdispls[me], a->sendtype), a->sendcounts[me],
                         a->sendtype, coll_elem(a->recvbuf, a->rdispls[me], a->recvtype),
                         a->recvcounts[me], a->recvtype);
    return coll_copy(a->sendbuf, a->sendcount, a->sendtype,
                     coll_elem(a->recvbuf, a->rdispls[me], a->recvtype), a->recvcounts[me],
                     a->recvtype);
}

/* Scan: rank 1 gets input(0) op input(1); exscan: rank 1 gets input(0), rank 0 nothing. One
 * message from rank 0 to rank 1 either way. */
static int pair_scan(const struct coll_args *a, int tag, int exclusive)
{
    int in_place = coll_in_place(a->sendbuf);
    const void *mine = in_place ? a->recvbuf : a->sendbuf;
    if (a->count == 0) /* as the schedules: nothing to send, on both ranks alike */
        return MPI_SUCCESS;
    if (a->comm->rank == 0) {
        int rc = pair_send(a, tag, mine, a->count, a->type);
        if (rc == MPI_SUCCESS && !exclusive && !in_place)
            rc = coll_copy(a->sendbuf, a->count, a->type, a->recvbuf, a->count, a->type);
        return rc;
    }
    if (exclusive)
        return pair_recv(a, tag, a->recvbuf, a->count, a->type);
    if (a->op->commutative && !in_place) { /* input(0) lands in recvbuf, ours folds into it */
        int rc = pair_recv(a, tag, a->recvbuf, a->count, a->type);
        return rc == MPI_SUCCESS ? coll_op_apply(a->op, a->sendbuf, a->recvbuf, a->count, a->type)
                                 : rc;
    }
    _Alignas(64) char stack[PAIR_STACK_BYTES];
    void *heap;
    void *theirs = scratch_vector(a, a->count, stack, &heap);
    if (!theirs)
        return MPI_ERR_NO_MEM;
    int rc = pair_recv(a, tag, theirs, a->count, a->type);
    if (rc == MPI_SUCCESS && !in_place)
        rc = coll_copy(a->sendbuf, a->count, a->type, a->recvbuf, a->count, a->type);
    if (rc == MPI_SUCCESS)
        rc = coll_op_apply(a->op, theirs, a->recvbuf, a->count, a->type);
    free(heap);
    return rc;
}

/* Reduce_scatter(_block): each rank sends the peer the block it ends up with and combines the
 * peer's copy of its own block with its own, in rank order; no full-vector working copy as in
 * the schedules' recursive halving. counts[] are the two blocks' element counts. */
static int pair_reduce_scatter(const struct coll_args *a, int tag, const MPI_Count counts[2])
{
    int me = a->comm->rank, peer = 1 - me;
    const char *input = coll_in_place(a->sendbuf) ? a->recvbuf : a->sendbuf;
    const char *mine = coll_elem(input, me == 0 ? 0 : counts[0], a->type);
    const char *out = coll_elem(input, peer == 0 ? 0 : counts[0], a->type);
    _Alignas(64) char stack[PAIR_STACK_BYTES];
    void *heap = NULL;
    void *theirs = counts[me] > 0 ? scratch_vector(a, counts[me], stack, &heap) : NULL;
    if (counts[me] > 0 && !theirs)
        return MPI_ERR_NO_MEM;
    int rc = pair_exchange(a, tag, out, counts[peer], a->type, theirs, counts[me], a->type);
    if (rc != MPI_SUCCESS || counts[me] == 0) {
        free(heap);
        return rc;
    }
    if (me == 0 || a->op->commutative) {
        /* theirs := mine op theirs is a0 op a1 on rank 0 (and on rank 1 when the order does not
         * matter); it goes out by a copy, which is also safe when mine lies in recvbuf (in
         * place) where the result lands. */
        rc = coll_op_apply(a->op, mine, theirs, counts[me], a->type);
        if (rc == MPI_SUCCESS)
            rc = coll_copy(theirs, counts[me], a->type, a->recvbuf, counts[me], a->type);
    } else {
        /* Rank 1, order matters: recvbuf := theirs op mine. In place, block 1 moves down to
         * the start first; coll_pair_applies keeps that move from overlapping. */
        if (mine != (const char *)a->recvbuf)
            rc = coll_copy(mine, counts[me], a->type, a->recvbuf, counts[me], a->type);
        if (rc == MPI_SUCCESS)
            rc = coll_op_apply(a->op, theirs, a->recvbuf, counts[me], a->type);
    }
    free(heap);
    return rc;
}

/* Bytes of one rank's contribution (a block of the gather family), computed from arguments
 * that are significant on this rank, so both ranks get the same number (the standard requires
 * matching type signatures). */
static MPI_Count pair_bytes(const struct coll_args *a)
{
    int root = a->comm->rank == a->root;
    switch (a->kind) {
    case COLL_BCAST:
    case COLL_REDUCE:
    case COLL_ALLREDUCE:
        return coll_bytes_of(a->count, a->type);
    case COLL_GATHER:
        return root && coll_in_place(a->sendbuf) ? coll_bytes_of(a->recvcount, a->recvtype)
                                                 : coll_bytes_of(a->sendcount, a->sendtype);
    case COLL_SCATTER:
        return root ? coll_bytes_of(a->sendcount, a->sendtype)
                    : coll_bytes_of(a->recvcount, a->recvtype);
    case COLL_ALLGATHER:
        return coll_in_place(a->sendbuf) ? coll_bytes_of(a->recvcount, a->recvtype)
                                         : coll_bytes_of(a->sendcount, a->sendtype);
    case COLL_GATHERV: /* the root's count for the peer is the peer's sendcount */
        return root ? coll_bytes_of(a->recvcounts[1 - a->root], a->recvtype)
                    : coll_bytes_of(a->sendcount, a->sendtype);
    case COLL_SCATTERV:
        return root ? coll_bytes_of(a->sendcounts[1 - a->root], a->sendtype)
                    : coll_bytes_of(a->recvcount, a->recvtype);
    case COLL_ALLGATHERV: { /* every rank has every count */
        MPI_Count most = a->recvcounts[0] > a->recvcounts[1] ? a->recvcounts[0] : a->recvcounts[1];
        return coll_bytes_of(most, a->recvtype);
    }
    case COLL_ALLTOALLV: { /* what we send is what the peer receives, and back: same max */
        int peer = 1 - a->comm->rank;
        MPI_Count out = coll_bytes_of(a->sendcounts[peer], a->sendtype);
        MPI_Count in = coll_bytes_of(a->recvcounts[peer], a->recvtype);
        return out > in ? out : in;
    }
    default: /* alltoall */
        return coll_bytes_of(a->sendcount, a->sendtype);
    }
}

static void reduce_scatter_counts(const struct coll_args *a, MPI_Count counts[2])
{
    for (int i = 0; i < 2; i++)
        counts[i] = a->kind == COLL_REDUCE_SCATTER ? a->recvcounts[i] : a->count;
}

int coll_pair_applies(const struct coll_args *a)
{
    const struct core_comm *comm = a->comm;
    if (comm->is_inter || comm->size != 2 || core_config.coll_algorithm[a->kind] != 0)
        return 0;
    switch (a->kind) {
    case COLL_BARRIER:
    case COLL_BCAST: /* any size: the message the root sends is the whole broadcast */
        return 1;
    case COLL_REDUCE:
        return 1;
    case COLL_ALLREDUCE:
    case COLL_GATHER:
    case COLL_SCATTER:
    case COLL_ALLGATHER:
        return pair_bytes(a) <= PAIR_MAX_BYTES;
    case COLL_ALLTOALL: /* in place, the block sent is the block received into: schedules */
    case COLL_ALLTOALLV:
        return !coll_in_place(a->sendbuf) && pair_bytes(a) <= PAIR_MAX_BYTES;
    case COLL_GATHERV:
    case COLL_SCATTERV:
    case COLL_ALLGATHERV:
        return pair_bytes(a) <= PAIR_MAX_BYTES;
    case COLL_REDUCE_SCATTER_BLOCK:
    case COLL_REDUCE_SCATTER: {
        MPI_Count counts[2];
        reduce_scatter_counts(a, counts);
        MPI_Count most = counts[0] > counts[1] ? counts[0] : counts[1];
        /* In place with a non-commutative op, rank 1 moves block 1 down over block 0: only
         * when the two do not overlap (recvcounts are the same on both ranks). */
        if (coll_in_place(a->sendbuf) && !a->op->commutative && counts[1] > counts[0])
            return 0;
        return a->type->extent > 0 && coll_bytes_of(most, a->type) <= PAIR_MAX_BYTES;
    }
    case COLL_SCAN: /* one message at any size, as the chain is (scan.c) */
    case COLL_EXSCAN:
        return 1;
    default:
        return 0;
    }
}

int coll_pair_run(const struct coll_args *a)
{
    int tag = coll_next_tag(a->comm, coll_tag_space(a->kind, COLL_FORM_BLOCKING));
    switch (a->kind) {
    case COLL_BARRIER: {
        struct dt_type *byte = coll_byte_type();
        return pair_exchange(a, tag, NULL, 0, byte, NULL, 0, byte);
    }
    case COLL_BCAST:
        return a->comm->rank == a->root ? pair_send(a, tag, a->recvbuf, a->count, a->type)
                                        : pair_recv(a, tag, a->recvbuf, a->count, a->type);
    case COLL_REDUCE:
        return pair_reduce(a, tag, 0);
    case COLL_ALLREDUCE:
        return pair_reduce(a, tag, 1);
    case COLL_GATHER:
        return pair_rooted(a, tag, 1);
    case COLL_SCATTER:
        return pair_rooted(a, tag, 0);
    case COLL_ALLGATHER:
        return pair_all(a, tag, 0);
    case COLL_ALLTOALL:
        return pair_all(a, tag, 1);
    case COLL_GATHERV:
        return pair_rooted_v(a, tag, 1);
    case COLL_SCATTERV:
        return pair_rooted_v(a, tag, 0);
    case COLL_ALLGATHERV:
        return pair_all_v(a, tag, 0);
    case COLL_ALLTOALLV:
        return pair_all_v(a, tag, 1);
    case COLL_REDUCE_SCATTER_BLOCK:
    case COLL_REDUCE_SCATTER: {
        MPI_Count counts[2];
        reduce_scatter_counts(a, counts);
        return pair_reduce_scatter(a, tag, counts);
    }
    case COLL_SCAN:
        return pair_scan(a, tag, 0);
    case COLL_EXSCAN:
        return pair_scan(a, tag, 1);
    default:
        return MPI_ERR_INTERN;
    }
}
