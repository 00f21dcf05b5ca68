/* create.c - the collective topology constructors: a new communicator (split when only part of
 * the parent is in the topology, else a bare dup) with a topology object attached. Reordering
 * is never done (MPI allows keeping ranks; on one node every placement is near). Arguments are
 * checked by src/mpi/topo.c. */
#include "topo/topo.h"

#include <stdlib.h>
#include <string.h>

#include "coll/coll.h"
#include "coll/op.h"
#include "core/comm.h"
#include "core/comm_create.h"
#include "datatype/datatype.h"

/* The first `members` ranks of comm in a new communicator (others get NULL). */
static int comm_prefix(struct core_comm *comm, int members, struct core_comm **out)
{
    if (members == comm->size)
        return core_comm_dup_bare(comm, out);
    return core_comm_split(comm, comm->rank < members ? 0 : MPI_UNDEFINED, comm->rank, out);
}

/* Attach topo to comm, or free both on failure. */
static int attach(struct core_comm *comm, int rc, struct topo *topo, struct core_comm **out)
{
    if (rc != MPI_SUCCESS) {
        core_comm_release(comm);
        *out = NULL;
        return rc;
    }
    comm->topology = topo;
    *out = comm;
    return MPI_SUCCESS;
}

int topo_cart_create(struct core_comm *comm, int ndims, const int *dims, const int *periods,
                     struct core_comm **out)
{
    int nnodes = 1;
    for (int d = 0; d < ndims; d++)
        nnodes *= dims[d];
    struct core_comm *cart;
    int rc = comm_prefix(comm, nnodes, &cart);
    if (rc != MPI_SUCCESS || !cart) {
        *out = NULL;
        return rc;
    }
    struct topo *topo = NULL;
    rc = topo_cart_new(ndims, dims, periods, cart->rank, &topo);
    return attach(cart, rc, topo, out);
}

int topo_cart_sub(struct core_comm *comm, const int *remain_dims, struct core_comm **out)
{
    const struct topo *topo = comm->topology;
    int ndims = topo->ndims;
    int *dims = malloc(sizeof(int) * (size_t)(ndims > 0 ? ndims : 1));
    int *periods = malloc(sizeof(int) * (size_t)(ndims > 0 ? ndims : 1));
    if (!dims || !periods) {
        free(dims);
        free(periods);
        return MPI_ERR_NO_MEM;
    }
    /* color: position in the dropped dimensions; key: position in the kept ones (row-major) */
    int color = 0, key = 0, kept = 0;
    for (int d = 0; d < ndims; d++) {
        if (remain_dims[d]) {
            key = key * topo->dims[d] + topo->coords[d];
            dims[kept] = topo->dims[d];
            periods[kept] = topo->periods[d];
            kept++;
        } else {
            color = color * topo->dims[d] + topo->coords[d];
        }
    }
    struct core_comm *sub;
    int rc = core_comm_split(comm, color, key, &sub);
    if (rc == MPI_SUCCESS) {
        struct topo *subtopo = NULL;
        int made = topo_cart_new(kept, dims, periods, sub->rank, &subtopo);
        rc = attach(sub, made, subtopo, out);
    }
    free(dims);
    free(periods);
    return rc;
}

int topo_graph_create(struct core_comm *comm, int nnodes, const int *index, const int *edges,
                      struct core_comm **out)
{
    struct core_comm *graph;
    int rc = comm_prefix(comm, nnodes, &graph);
    if (rc != MPI_SUCCESS || !graph) {
        *out = NULL;
        return rc;
    }
    struct topo *topo = NULL;
    rc = topo_graph_new(nnodes, index, edges, graph->rank, &topo);
    return attach(graph, rc, topo, out);
}

int topo_dist_graph_create_adjacent(struct core_comm *comm, int indegree, const int *sources,
                                    const int *source_weights, int outdegree,
                                    const int *destinations, const int *destination_weights,
                                    int weighted, struct core_info *info,
                                    struct core_comm **out)
{
    (void)info; /* no hint changes what we build */
    struct core_comm *graph;
    int rc = core_comm_dup_bare(comm, &graph);
    if (rc != MPI_SUCCESS)
        return rc;
    struct topo *topo = NULL;
    rc = topo_dist_graph_new(indegree, sources, source_weights, outdegree, destinations,
                             destination_weights, weighted, &topo);
    return attach(graph, rc, topo, out);
}

/* Edges of the general constructor travel as (source, destination, weight) triples. */
enum { EDGE_INTS = 3 };

/* Everyone's edges, each process's list padded to the longest: *all holds size * *longest
 * triples (padding has source -1). */
static int gather_edges(struct core_comm *comm, int n, const int *sources, const int *degrees,
                        const int *destinations, const int *weights, int **all, int *longest)
{
    int count = 0;
    for (int i = 0; i < n; i++)
        count += degrees[i];
    struct dt_type *int_type = dt_from_handle(MPI_INT);
    int rc = coll_allreduce(&count, longest, 1, int_type, coll_op_from_handle(MPI_MAX), comm);
    if (rc != MPI_SUCCESS)
        return rc;
    size_t per = (size_t)EDGE_INTS * (size_t)(*longest > 0 ? *longest : 1);
    int *mine = malloc(sizeof(int) * per);
    *all = malloc(sizeof(int) * per * (size_t)comm->size);
    if (!mine || !*all) {
        free(mine);
        free(*all);
        return MPI_ERR_NO_MEM;
    }
    for (size_t j = 0; j < per; j++)
        mine[j] = -1;
    for (int i = 0, e = 0; i < n; i++) {
        for (int j = 0; j < degrees[i]; j++, e++) {
            mine[EDGE_INTS * e] = sources[i];
            mine[EDGE_INTS * e + 1] = destinations[e];
            mine[EDGE_INTS * e + 2] = weights ? weights[e] : 1;
        }
    }
    rc = coll_allgather(mine, (MPI_Count)per, int_type, *all, (MPI_Count)per, int_type, comm);
    free(mine);
    if (rc != MPI_SUCCESS)
        free(*all);
    return rc;
}

int topo_dist_graph_create(struct core_comm *comm, int n, const int *sources,
                           const int *degrees, const int *destinations, const int *weights,
                           int weighted, struct core_info *info, struct core_comm **out)
{
    int *all, longest;
    int rc = gather_edges(comm, n, sources, degrees, destinations, weighted ? weights : NULL,
                          &all, &longest);
    if (rc != MPI_SUCCESS)
        return rc;
    size_t total = (size_t)longest * (size_t)comm->size;
    int *in = malloc(sizeof(int) * 2 * (total + 1));
    int *outs = malloc(sizeof(int) * 2 * (total + 1));
    if (!in || !outs) {
        free(all);
        free(in);
        free(outs);
        return MPI_ERR_NO_MEM;
    }
    /* in[0..indeg) sources, in[total+1..] their weights; same layout for outs */
    int indegree = 0, outdegree = 0;
    for (size_t e = 0; e < total; e++) {
        const int *edge = &all[EDGE_INTS * e];
        if (edge[0] < 0)
            continue;
        if (edge[0] == comm->rank) {
            outs[outdegree] = edge[1];
            outs[total + 1 + outdegree++] = edge[2];
        }
        if (edge[1] == comm->rank) {
            in[indegree] = edge[0];
            in[total + 1 + indegree++] = edge[2];
        }
    }
    free(all);
    rc = topo_dist_graph_create_adjacent(comm, indegree, in, in + total + 1, outdegree, outs,
                                         outs + total + 1, weighted, info, out);
    free(in);
    free(outs);
    return rc;
}
