/* bcast_direct.c - a small blocking MPI_Bcast the selection table gives to the linear
 * algorithm (oversubscribed, up to 8 ranks) without a schedule: the root sends to every other
 * rank, each of them receives, both straight through the point-to-point layer on the
 * communicator's collective context with the tag the schedule would have drawn, so a rank on
 * this path matches a peer on the schedule's. Back to back at 8 ranks on 2 cores, every
 * receiver's call is one receive, and building and running the one-step schedule around it was
 * a fifth of the receivers' samples (docs/benchmarks.md "Session 19"). Up to the eager limit,
 * where a blocking send completes without its receiver (as the schedule's direct rounds,
 * sched.c). */
#include "coll/algorithms.h"
#include "coll/sched.h"
#include "core/comm.h"
#include "core/config.h"
#include "datatype/datatype.h"
#include "p2p/p2p.h"

int coll_bcast_direct_applies(const struct coll_args *a)
{
    return a->kind == COLL_BCAST && !a->comm->is_inter &&
           dt_packed_size(a->type, a->count) <= core_config.eager_limit &&
           coll_selected_builder(a) == coll_bcast_linear;
}

int coll_bcast_direct_run(const struct coll_args *a)
{
    struct core_comm *comm = a->comm;
    int tag = coll_next_tag(comm, coll_tag_space(COLL_BCAST, COLL_FORM_BLOCKING));
    uint32_t context = comm->context + CORE_CONTEXT_COLL_OFFSET;
    if (comm->rank != a->root)
        return p2p_recv(comm, context, a->root, tag, a->recvbuf, a->count, a->type, NULL);
    int rc = MPI_SUCCESS;
    for (int r = 0; r < comm->size && rc == MPI_SUCCESS; r++)
        if (r != a->root)
            rc = p2p_send(comm, context, r, tag, a->recvbuf, a->count, a->type,
                          CORE_SEND_STANDARD);
    return rc;
}
