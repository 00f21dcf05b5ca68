/* topo.c - the topology object every kind shares: neighbor-list accessors for the
 * neighborhood collectives, dup (MPI_Comm_dup keeps the topology) and free. The arrays of a
 * topology are separate allocations so dup is a field-by-field deep copy. */
#include "topo/topo.h"

#include <stdlib.h>
#include <string.h>

#include "core/comm.h"

int topo_kind(const struct core_comm *comm)
{
    const struct topo *topo = comm->topology;
    return topo ? topo->kind : MPI_UNDEFINED;
}

int topo_neighbors(const struct core_comm *comm, int *indegree, const int **sources,
                   int *outdegree, const int **destinations)
{
    const struct topo *topo = comm->topology;
    if (!topo)
        return MPI_ERR_TOPOLOGY;
    *indegree = topo->indegree;
    *sources = topo->sources;
    *outdegree = topo->outdegree;
    *destinations = topo->destinations;
    return MPI_SUCCESS;
}

void topo_free(struct topo *topo)
{
    if (!topo)
        return;
    free(topo->sources);
    free(topo->destinations);
    free(topo->source_weights);
    free(topo->destination_weights);
    free(topo->dims);
    free(topo->periods);
    free(topo->coords);
    free(topo->index);
    free(topo->edges);
    free(topo);
}

/* A copy of n ints (NULL stays NULL); *ok cleared when out of memory. */
static int *copy_ints(const int *src, int n, int *ok)
{
    if (!src)
        return NULL;
    int *dst = malloc(sizeof(int) * (size_t)(n > 0 ? n : 1));
    if (!dst) {
        *ok = 0;
        return NULL;
    }
    memcpy(dst, src, sizeof(int) * (size_t)n);
    return dst;
}

int topo_dup(const struct topo *topo, struct topo **out)
{
    struct topo *copy = malloc(sizeof(*copy));
    if (!copy)
        return MPI_ERR_NO_MEM;
    *copy = *topo;
    int ok = 1;
    copy->sources = copy_ints(topo->sources, topo->indegree, &ok);
    copy->destinations = copy_ints(topo->destinations, topo->outdegree, &ok);
    copy->source_weights = copy_ints(topo->source_weights, topo->indegree, &ok);
    copy->destination_weights = copy_ints(topo->destination_weights, topo->outdegree, &ok);
    copy->dims = copy_ints(topo->dims, topo->ndims, &ok);
    copy->periods = copy_ints(topo->periods, topo->ndims, &ok);
    copy->coords = copy_ints(topo->coords, topo->ndims, &ok);
    copy->index = copy_ints(topo->index, topo->nnodes, &ok);
    copy->edges = copy_ints(topo->edges, topo->index && topo->nnodes ?
                            topo->index[topo->nnodes - 1] : 0, &ok);
    if (!ok) {
        topo_free(copy);
        return MPI_ERR_NO_MEM;
    }
    *out = copy;
    return MPI_SUCCESS;
}
