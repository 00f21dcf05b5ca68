/* graph.c - graph and distributed-graph topology objects. A graph topology keeps the whole
 * graph (MPI_Graph_get returns it) plus this process's neighbor list; a distributed graph keeps
 * only this process's in- and out-neighbors (and weights), in the order given. */
#include "topo/topo.h"

#include <stdlib.h>
#include <string.h>

static int *dup_ints(const int *src, int n)
{
    int *dst = malloc(sizeof(int) * (size_t)(n > 0 ? n : 1));
    if (dst && n > 0)
        memcpy(dst, src, sizeof(int) * (size_t)n);
    return dst;
}

int topo_graph_new(int nnodes, const int *index, const int *edges, int rank, struct topo **out)
{
    struct topo *topo = calloc(1, sizeof(*topo));
    if (!topo)
        return MPI_ERR_NO_MEM;
    int nedges = nnodes > 0 ? index[nnodes - 1] : 0;
    int first = rank > 0 ? index[rank - 1] : 0;
    int degree = rank < nnodes ? index[rank] - first : 0;
    topo->kind = MPI_GRAPH;
    topo->nnodes = nnodes;
    topo->index = dup_ints(index, nnodes);
    topo->edges = dup_ints(edges, nedges);
    topo->indegree = topo->outdegree = degree;
    topo->sources = dup_ints(edges + first, degree);
    topo->destinations = dup_ints(edges + first, degree);
    if (!topo->index || !topo->edges || !topo->sources || !topo->destinations) {
        topo_free(topo);
        return MPI_ERR_NO_MEM;
    }
    *out = topo;
    return MPI_SUCCESS;
}

int topo_dist_graph_new(int indegree, const int *sources, const int *source_weights,
                        int outdegree, const int *destinations, const int *destination_weights,
                        int weighted, struct topo **out)
{
    struct topo *topo = calloc(1, sizeof(*topo));
    if (!topo)
        return MPI_ERR_NO_MEM;
    topo->kind = MPI_DIST_GRAPH;
    topo->indegree = indegree;
    topo->outdegree = outdegree;
    topo->weighted = weighted;
    topo->sources = dup_ints(sources, indegree);
    topo->destinations = dup_ints(destinations, outdegree);
    int ok = topo->sources && topo->destinations;
    if (weighted) {
        topo->source_weights = dup_ints(source_weights, indegree);
        topo->destination_weights = dup_ints(destination_weights, outdegree);
        ok = ok && topo->source_weights && topo->destination_weights;
    }
    if (!ok) {
        topo_free(topo);
        return MPI_ERR_NO_MEM;
    }
    *out = topo;
    return MPI_SUCCESS;
}
