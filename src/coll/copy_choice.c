/* copy_choice.c - which copy (single copy through the kernel, or the two-copy pipeline) a
 * blocking collective's rendezvous messages take, learnt per operation, communicator size and
 * message size from the collective's own run time (p2p/adapt.c explains the learning rule).
 * Why a collective decides for its messages instead of each receiver for itself: in its
 * exchanges each rank's receive time depends on the other's choice, and a receive-time view
 * picks the wrong one. Measured 2026-11-22, 2 ranks, vCPUs far (line transfer 155-165 ns),
 * `chrt -f 10`: MPI_Allgather 1 MiB 105 us single copy vs 182 us pipelined, which the
 * receivers' own timing preferred; MPI_Allreduce 1 MiB 590 us single copy vs 193 us pipelined
 * (the halves sent in its second round were just written by the sender's reduction);
 * MPI_Reduce 1 MiB 256 vs 131 us. With the vCPUs close the answers differ again. */
#include "coll/copy_choice.h"

#include "core/comm.h"
#include "datatype/datatype.h"
#include "p2p/adapt.h"
#include "p2p/p2p.h"

/* Two-rank communicators and larger ones behave differently (one peer, exchanges in
 * lockstep) and are learnt apart. */
enum { SIZE_GROUPS = 2 };

static struct p2p_adapt choices[COLL_KIND_COUNT][SIZE_GROUPS];

/* Bytes of one rank's block: what decides how its messages are copied; 0 for the v/w and
 * neighbourhood forms, whose blocks differ per peer (they keep the pair's own choice). */
static size_t block_bytes(const struct coll_args *a)
{
    switch (a->kind) {
    case COLL_BCAST:
    case COLL_REDUCE:
    case COLL_ALLREDUCE:
    case COLL_REDUCE_SCATTER_BLOCK:
    case COLL_SCAN:
    case COLL_EXSCAN:
        return a->type ? dt_packed_size(a->type, a->count) : 0;
    case COLL_GATHER:
    case COLL_SCATTER:
    case COLL_ALLGATHER:
    case COLL_ALLTOALL:
        return a->recvtype ? dt_packed_size(a->recvtype, a->recvcount) : 0;
    default:
        return 0;
    }
}

int coll_copy_choice_begin(const struct coll_args *a, struct coll_copy_choice *c)
{
    c->bytes = block_bytes(a);
    if (!p2p_copy_choice_applies(c->bytes))
        return 0;
    c->adapt = &choices[a->kind][a->comm->size > 2];
    enum p2p_protocol use = p2p_adapt_choose(c->adapt, c->bytes, P2P_PROTOCOL_RNDV_CMA);
    c->used = use;
    p2p_set_copy_hint(use == P2P_PROTOCOL_RNDV_CMA ? P2P_COPY_HINT_SINGLE
                                                   : P2P_COPY_HINT_PIPELINE);
    c->started = p2p_adapt_now_ns();
    return 1;
}

void coll_copy_choice_end(struct coll_copy_choice *c)
{
    p2p_adapt_record(c->adapt, c->bytes, c->used, p2p_adapt_now_ns() - c->started);
    p2p_set_copy_hint(P2P_COPY_HINT_NONE);
}
