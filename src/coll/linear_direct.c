/* linear_direct.c - a small blocking MPI_Bcast or MPI_Scatter the selection table gives to the
 * linear algorithm (oversubscribed: bcast up to 8 ranks, scatter always) without a schedule:
 * the root sends to every other rank, each of them receives, straight through the
 * point-to-point layer on the communicator's collective context with the tag the schedule
 * would have drawn, so a rank on this path matches a peer on the schedule's. Back to back at 8
 * ranks on 2 cores, every receiver's call is one receive, and building and running the
 * one-step schedule around it was a fifth of the receivers' samples (docs/benchmarks.md
 * "Session 19"). Up to the eager limit, where a blocking send completes without its receiver
 * (as the schedule's direct rounds, sched.c). */
#include "coll/algorithms.h"
#include "coll/sched.h"
#include "core/comm.h"
#include "core/config.h"
#include "datatype/datatype.h"
#include "p2p/p2p.h"

int coll_linear_direct_applies(const struct coll_args *a)
{
    if (a->comm->is_inter)
        return 0;
    if (a->kind == COLL_BCAST)
        return dt_packed_size(a->type, a->count) <= core_config.eager_limit &&
               coll_selected_builder(a) == coll_bcast_linear;
    if (a->kind == COLL_SCATTER)
        return coll_scatter_block_bytes(a) <= core_config.eager_limit &&
               coll_selected_builder(a) == coll_scatter_linear;
    return 0;
}

/* The root's part: rank r's block to rank r, its own copied (unless in place). */
static int root_sends(const struct coll_args *a, uint32_t context, int tag)
{
    struct core_comm *comm = a->comm;
    int rc = MPI_SUCCESS;
    for (int r = 0; r < comm->size && rc == MPI_SUCCESS; r++) {
        if (a->kind == COLL_BCAST) {
            if (r != a->root)
                rc = p2p_send(comm, context, r, tag, a->recvbuf, a->count, a->type,
                              CORE_SEND_STANDARD);
            continue;
        }
        const void *block = coll_elem((void *)a->sendbuf, (MPI_Count)r * a->sendcount,
                                      a->sendtype);
        if (r != a->root)
            rc = p2p_send(comm, context, r, tag, block, a->sendcount, a->sendtype,
                          CORE_SEND_STANDARD);
        else if (!coll_in_place(a->recvbuf))
            rc = coll_copy(block, a->sendcount, a->sendtype, a->recvbuf, a->recvcount,
                           a->recvtype);
    }
    return rc;
}

int coll_linear_direct_run(const struct coll_args *a)
{
    struct core_comm *comm = a->comm;
    int tag = coll_next_tag(comm, coll_tag_space(a->kind, COLL_FORM_BLOCKING));
    uint32_t context = comm->context + CORE_CONTEXT_COLL_OFFSET;
    if (comm->rank == a->root)
        return root_sends(a, context, tag);
    if (a->kind == COLL_BCAST)
        return p2p_recv(comm, context, a->root, tag, a->recvbuf, a->count, a->type, NULL);
    return p2p_recv(comm, context, a->root, tag, a->recvbuf, a->recvcount, a->recvtype, NULL);
}
