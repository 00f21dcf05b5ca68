/* topo.c - API: virtual topologies (Cartesian, graph, distributed graph), MPI_Dims_create and
 * MPI_Topo_test. Checks arguments (MPI_ERR_DIMS for bad dimensions, MPI_ERR_RANK for bad
 * ranks, MPI_ERR_TOPOLOGY for a communicator without the needed topology) and calls src/topo.
 * Reordering is never done (the reorder argument is accepted and ignored). */
#include "mpi/comm_api.h"
#include "topo/topo.h"

static int begin_intra(MPI_Comm handle, struct core_comm **comm, const char *function)
{
    int rc = mpi_begin_comm(handle, comm, function);
    if (rc == MPI_SUCCESS)
        rc = mpi_check_intracomm(*comm, function);
    return rc;
}

/* A communicator with a topology of `kind` (its object in *topo). */
static int begin_topo(MPI_Comm handle, int kind, struct core_comm **comm,
                      const struct topo **topo, const char *function)
{
    int rc = mpi_begin_comm(handle, comm, function);
    if (rc != MPI_SUCCESS)
        return rc;
    *topo = (*comm)->topology;
    if (*topo && (*topo)->kind == kind)
        return MPI_SUCCESS;
    const char *name = kind == MPI_CART    ? "Cartesian"
                       : kind == MPI_GRAPH ? "graph"
                                           : "distributed graph";
    return core_error_raise(*comm, MPI_ERR_TOPOLOGY, function,
                            "communicator has no %s topology", name);
}

static int finish_topo_comm(struct core_comm *parent, int rc, struct core_comm *made,
                            MPI_Comm *newcomm, const char *function)
{
    if (rc != MPI_SUCCESS) {
        *newcomm = MPI_COMM_NULL;
        return core_error_raise(parent, rc, function, "%s", core_error_string(rc));
    }
    *newcomm = made ? core_comm_to_handle(made) : MPI_COMM_NULL;
    return MPI_SUCCESS;
}

/* ndims >= 0, every dims[i] > 0 and their product at most `limit`. */
static int check_dims(struct core_comm *comm, int ndims, const int dims[], const int periods[],
                      int limit, const char *function)
{
    if (ndims < 0)
        return core_error_raise(comm, MPI_ERR_DIMS, function, "invalid ndims %d", ndims);
    int rc = MPI_SUCCESS;
    if (ndims > 0) {
        rc = mpi_check_pointer(comm, dims, "dims", function);
        if (rc == MPI_SUCCESS)
            rc = mpi_check_pointer(comm, periods, "periods", function);
    }
    long long product = 1;
    for (int d = 0; d < ndims && rc == MPI_SUCCESS; d++) {
        if (dims[d] <= 0)
            return core_error_raise(comm, MPI_ERR_DIMS, function, "invalid dims[%d] = %d", d,
                                    dims[d]);
        product *= dims[d];
        if (product > limit)
            return core_error_raise(comm, MPI_ERR_DIMS, function,
                                    "the grid has more than %d processes (communicator size)",
                                    limit);
    }
    return rc;
}

int PMPI_Cart_create(MPI_Comm comm_old, int ndims, const int dims[], const int periods[],
                     int reorder, MPI_Comm *comm_cart)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    (void)reorder;
    const char *fn = "MPI_Cart_create";
    struct core_comm *c, *made = NULL;
    if (comm_cart)
        *comm_cart = MPI_COMM_NULL; /* what a failed call leaves, as MPICH does (MPI: undefined) */
    int rc = begin_intra(comm_old, &c, fn);
    if (rc == MPI_SUCCESS)
        rc = check_dims(c, ndims, dims, periods, c->size, fn);
    if (rc == MPI_SUCCESS)
        rc = mpi_check_pointer(c, comm_cart, "comm_cart", fn);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = topo_cart_create(c, ndims, dims, periods, &made);
    return finish_topo_comm(c, rc, made, comm_cart, fn);
}
#pragma weak MPI_Cart_create = PMPI_Cart_create

int PMPI_Cart_map(MPI_Comm comm, int ndims, const int dims[], const int periods[],
                  int *newrank)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    struct core_comm *c;
    int rc = begin_intra(comm, &c, "MPI_Cart_map");
    if (rc == MPI_SUCCESS)
        rc = check_dims(c, ndims, dims, periods, c->size, "MPI_Cart_map");
    if (rc == MPI_SUCCESS)
        rc = mpi_check_pointer(c, newrank, "newrank", "MPI_Cart_map");
    if (rc != MPI_SUCCESS)
        return rc;
    int nnodes = 1;
    for (int d = 0; d < ndims; d++)
        nnodes *= dims[d];
    *newrank = c->rank < nnodes ? c->rank : MPI_UNDEFINED;
    return MPI_SUCCESS;
}
#pragma weak MPI_Cart_map = PMPI_Cart_map

int PMPI_Cartdim_get(MPI_Comm comm, int *ndims)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    struct core_comm *c;
    const struct topo *t;
    int rc = begin_topo(comm, MPI_CART, &c, &t, "MPI_Cartdim_get");
    if (rc == MPI_SUCCESS)
        rc = mpi_check_pointer(c, ndims, "ndims", "MPI_Cartdim_get");
    if (rc == MPI_SUCCESS)
        *ndims = t->ndims;
    return rc;
}
#pragma weak MPI_Cartdim_get = PMPI_Cartdim_get

int PMPI_Cart_get(MPI_Comm comm, int maxdims, int dims[], int periods[], int coords[])
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    struct core_comm *c;
    const struct topo *t;
    int rc = begin_topo(comm, MPI_CART, &c, &t, "MPI_Cart_get");
    if (rc == MPI_SUCCESS && maxdims < 0)
        rc = core_error_raise(c, MPI_ERR_ARG, "MPI_Cart_get", "invalid maxdims %d", maxdims);
    if (rc != MPI_SUCCESS)
        return rc;
    for (int d = 0; d < t->ndims && d < maxdims; d++) {
        if (dims)
            dims[d] = t->dims[d];
        if (periods)
            periods[d] = t->periods[d];
        if (coords)
            coords[d] = t->coords[d];
    }
    return MPI_SUCCESS;
}
#pragma weak MPI_Cart_get = PMPI_Cart_get

int PMPI_Cart_rank(MPI_Comm comm, const int coords[], int *rank)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    struct core_comm *c;
    const struct topo *t;
    int rc = begin_topo(comm, MPI_CART, &c, &t, "MPI_Cart_rank");
    if (rc == MPI_SUCCESS && t->ndims > 0)
        rc = mpi_check_pointer(c, coords, "coords", "MPI_Cart_rank");
    if (rc == MPI_SUCCESS)
        rc = mpi_check_pointer(c, rank, "rank", "MPI_Cart_rank");
    if (rc != MPI_SUCCESS)
        return rc;
    if (topo_cart_rank(t, coords, rank) == MPI_SUCCESS)
        return MPI_SUCCESS;
    for (int d = 0; d < t->ndims; d++)
        if (!t->periods[d] && (coords[d] < 0 || coords[d] >= t->dims[d]))
            return core_error_raise(c, MPI_ERR_ARG, "MPI_Cart_rank",
                                    "coords[%d] = %d is outside non-periodic dimension of "
                                    "size %d", d, coords[d], t->dims[d]);
    return core_error_raise(c, MPI_ERR_ARG, "MPI_Cart_rank", "invalid coords");
}
#pragma weak MPI_Cart_rank = PMPI_Cart_rank

int PMPI_Cart_coords(MPI_Comm comm, int rank, int maxdims, int coords[])
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    struct core_comm *c;
    const struct topo *t;
    int rc = begin_topo(comm, MPI_CART, &c, &t, "MPI_Cart_coords");
    if (rc == MPI_SUCCESS && (rank < 0 || rank >= c->size))
        rc = core_error_raise(c, MPI_ERR_RANK, "MPI_Cart_coords",
                              "invalid rank %d (communicator size %d)", rank, c->size);
    if (rc == MPI_SUCCESS && maxdims < t->ndims)
        rc = core_error_raise(c, MPI_ERR_ARG, "MPI_Cart_coords",
                              "maxdims %d is less than the %d dimensions", maxdims, t->ndims);
    if (rc == MPI_SUCCESS && t->ndims > 0)
        rc = mpi_check_pointer(c, coords, "coords", "MPI_Cart_coords");
    if (rc == MPI_SUCCESS)
        topo_cart_coords(t, rank, coords);
    return rc;
}
#pragma weak MPI_Cart_coords = PMPI_Cart_coords

int PMPI_Cart_shift(MPI_Comm comm, int direction, int disp, int *rank_source, int *rank_dest)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    struct core_comm *c;
    const struct topo *t;
    int rc = begin_topo(comm, MPI_CART, &c, &t, "MPI_Cart_shift");
    if (rc == MPI_SUCCESS && (direction < 0 || direction >= t->ndims))
        rc = core_error_raise(c, MPI_ERR_DIMS, "MPI_Cart_shift",
                              "invalid direction %d (%d dimensions)", direction, t->ndims);
    if (rc == MPI_SUCCESS)
        rc = mpi_check_pointer(c, rank_source, "rank_source", "MPI_Cart_shift");
    if (rc == MPI_SUCCESS)
        rc = mpi_check_pointer(c, rank_dest, "rank_dest", "MPI_Cart_shift");
    if (rc == MPI_SUCCESS)
        topo_cart_shift(t, c->rank, direction, disp, rank_source, rank_dest);
    return rc;
}
#pragma weak MPI_Cart_shift = PMPI_Cart_shift

int PMPI_Cart_sub(MPI_Comm comm, const int remain_dims[], MPI_Comm *newcomm)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    struct core_comm *c, *made = NULL;
    const struct topo *t;
    int rc = begin_topo(comm, MPI_CART, &c, &t, "MPI_Cart_sub");
    if (rc == MPI_SUCCESS && t->ndims > 0)
        rc = mpi_check_pointer(c, remain_dims, "remain_dims", "MPI_Cart_sub");
    if (rc == MPI_SUCCESS)
        rc = mpi_check_pointer(c, newcomm, "newcomm", "MPI_Cart_sub");
    if (rc != MPI_SUCCESS)
        return rc;
    rc = topo_cart_sub(c, remain_dims, &made);
    return finish_topo_comm(c, rc, made, newcomm, "MPI_Cart_sub");
}
#pragma weak MPI_Cart_sub = PMPI_Cart_sub

int PMPI_Dims_create(int nnodes, int ndims, int dims[])
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    const char *fn = "MPI_Dims_create";
    int rc = mpi_check_initialized(fn);
    if (rc == MPI_SUCCESS && ndims < 0)
        rc = core_error_raise(NULL, MPI_ERR_DIMS, fn, "invalid ndims %d", ndims);
    if (rc == MPI_SUCCESS && nnodes <= 0)
        rc = core_error_raise(NULL, MPI_ERR_ARG, fn, "invalid nnodes %d", nnodes);
    if (rc == MPI_SUCCESS && ndims > 0)
        rc = mpi_check_pointer(NULL, dims, "dims", fn);
    if (rc != MPI_SUCCESS)
        return rc;
    for (int d = 0; d < ndims; d++)
        if (dims[d] < 0)
            return core_error_raise(NULL, MPI_ERR_DIMS, fn, "invalid dims[%d] = %d", d, dims[d]);
    rc = topo_dims_create(nnodes, ndims, dims);
    if (rc == MPI_ERR_DIMS)
        return core_error_raise(NULL, rc, fn,
                                "nnodes %d is not a multiple of the fixed dimensions' product",
                                nnodes);
    return rc == MPI_SUCCESS ? rc : core_error_raise(NULL, rc, fn, "out of memory");
}
#pragma weak MPI_Dims_create = PMPI_Dims_create

/* ---- graphs ------------------------------------------------------------------------------- */

/* index non-decreasing from >= 0, every edge a node of the graph. */
static int check_graph(struct core_comm *c, int nnodes, const int index[], const int edges[],
                       const char *function)
{
    if (nnodes < 0 || nnodes > c->size)
        return core_error_raise(c, MPI_ERR_ARG, function,
                                "invalid nnodes %d (communicator size %d)", nnodes, c->size);
    if (nnodes == 0)
        return MPI_SUCCESS;
    int rc = mpi_check_pointer(c, index, "index", function);
    if (rc != MPI_SUCCESS)
        return rc;
    for (int i = 0; i < nnodes; i++)
        if (index[i] < (i ? index[i - 1] : 0))
            return core_error_raise(c, MPI_ERR_ARG, function,
                                    "index[%d] = %d is not a cumulative degree", i, index[i]);
    if (index[nnodes - 1] > 0 && (rc = mpi_check_pointer(c, edges, "edges", function)))
        return rc;
    for (int e = 0; e < index[nnodes - 1]; e++)
        if (edges[e] < 0 || edges[e] >= nnodes)
            return core_error_raise(c, MPI_ERR_RANK, function,
                                    "edges[%d] = %d is not a node (nnodes %d)", e, edges[e],
                                    nnodes);
    return MPI_SUCCESS;
}

int PMPI_Graph_create(MPI_Comm comm_old, int nnodes, const int index[], const int edges[],
                      int reorder, MPI_Comm *comm_graph)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    (void)reorder;
    const char *fn = "MPI_Graph_create";
    struct core_comm *c, *made = NULL;
    if (comm_graph)
        *comm_graph = MPI_COMM_NULL; /* as MPI_Cart_create */
    int rc = begin_intra(comm_old, &c, fn);
    if (rc == MPI_SUCCESS)
        rc = check_graph(c, nnodes, index, edges, fn);
    if (rc == MPI_SUCCESS)
        rc = mpi_check_pointer(c, comm_graph, "comm_graph", fn);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = topo_graph_create(c, nnodes, index, edges, &made);
    return finish_topo_comm(c, rc, made, comm_graph, fn);
}
#pragma weak MPI_Graph_create = PMPI_Graph_create

int PMPI_Graph_map(MPI_Comm comm, int nnodes, const int index[], const int edges[],
                   int *newrank)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    struct core_comm *c;
    int rc = begin_intra(comm, &c, "MPI_Graph_map");
    if (rc == MPI_SUCCESS)
        rc = check_graph(c, nnodes, index, edges, "MPI_Graph_map");
    if (rc == MPI_SUCCESS)
        rc = mpi_check_pointer(c, newrank, "newrank", "MPI_Graph_map");
    if (rc == MPI_SUCCESS)
        *newrank = c->rank < nnodes ? c->rank : MPI_UNDEFINED;
    return rc;
}
#pragma weak MPI_Graph_map = PMPI_Graph_map

int PMPI_Graphdims_get(MPI_Comm comm, int *nnodes, int *nedges)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    struct core_comm *c;
    const struct topo *t;
    int rc = begin_topo(comm, MPI_GRAPH, &c, &t, "MPI_Graphdims_get");
    if (rc == MPI_SUCCESS)
        rc = mpi_check_pointer(c, nnodes, "nnodes", "MPI_Graphdims_get");
    if (rc == MPI_SUCCESS)
        rc = mpi_check_pointer(c, nedges, "nedges", "MPI_Graphdims_get");
    if (rc != MPI_SUCCESS)
        return rc;
    *nnodes = t->nnodes;
    *nedges = t->nnodes ? t->index[t->nnodes - 1] : 0;
    return MPI_SUCCESS;
}
#pragma weak MPI_Graphdims_get = PMPI_Graphdims_get

int PMPI_Graph_get(MPI_Comm comm, int maxindex, int maxedges, int index[], int edges[])
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    struct core_comm *c;
    const struct topo *t;
    int rc = begin_topo(comm, MPI_GRAPH, &c, &t, "MPI_Graph_get");
    if (rc == MPI_SUCCESS && (maxindex < 0 || maxedges < 0))
        rc = core_error_raise(c, MPI_ERR_ARG, "MPI_Graph_get", "invalid maxindex %d or "
                              "maxedges %d", maxindex, maxedges);
    if (rc != MPI_SUCCESS)
        return rc;
    int nedges = t->nnodes ? t->index[t->nnodes - 1] : 0;
    for (int i = 0; i < t->nnodes && i < maxindex; i++)
        index[i] = t->index[i];
    for (int e = 0; e < nedges && e < maxedges; e++)
        edges[e] = t->edges[e];
    return MPI_SUCCESS;
}
#pragma weak MPI_Graph_get = PMPI_Graph_get

/* Neighbors of any node of a graph topology: edges[index[rank-1] .. index[rank]). */
static int begin_graph_rank(MPI_Comm comm, int rank, struct core_comm **c,
                            const struct topo **t, int *first, int *count,
                            const char *function)
{
    int rc = begin_topo(comm, MPI_GRAPH, c, t, function);
    if (rc == MPI_SUCCESS && (rank < 0 || rank >= (*t)->nnodes))
        rc = core_error_raise(*c, MPI_ERR_RANK, function, "invalid rank %d (graph of %d nodes)",
                              rank, (*t)->nnodes);
    if (rc == MPI_SUCCESS) {
        *first = rank ? (*t)->index[rank - 1] : 0;
        *count = (*t)->index[rank] - *first;
    }
    return rc;
}

int PMPI_Graph_neighbors_count(MPI_Comm comm, int rank, int *nneighbors)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    struct core_comm *c;
    const struct topo *t;
    int first, count;
    int rc = begin_graph_rank(comm, rank, &c, &t, &first, &count, "MPI_Graph_neighbors_count");
    if (rc == MPI_SUCCESS)
        rc = mpi_check_pointer(c, nneighbors, "nneighbors", "MPI_Graph_neighbors_count");
    if (rc == MPI_SUCCESS)
        *nneighbors = count;
    return rc;
}
#pragma weak MPI_Graph_neighbors_count = PMPI_Graph_neighbors_count

int PMPI_Graph_neighbors(MPI_Comm comm, int rank, int maxneighbors, int neighbors[])
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    struct core_comm *c;
    const struct topo *t;
    int first, count;
    int rc = begin_graph_rank(comm, rank, &c, &t, &first, &count, "MPI_Graph_neighbors");
    if (rc == MPI_SUCCESS && maxneighbors < 0)
        rc = core_error_raise(c, MPI_ERR_ARG, "MPI_Graph_neighbors", "invalid maxneighbors %d",
                              maxneighbors);
    if (rc != MPI_SUCCESS)
        return rc;
    for (int i = 0; i < count && i < maxneighbors; i++)
        neighbors[i] = t->edges[first + i];
    return MPI_SUCCESS;
}
#pragma weak MPI_Graph_neighbors = PMPI_Graph_neighbors

/* ---- distributed graphs ------------------------------------------------------------------- */

static int check_rank_list(struct core_comm *c, int n, const int ranks[], const char *name,
                           const char *function)
{
    if (n < 0)
        return core_error_raise(c, MPI_ERR_ARG, function, "invalid %s count %d", name, n);
    int rc = n > 0 ? mpi_check_pointer(c, ranks, name, function) : MPI_SUCCESS;
    for (int i = 0; i < n && rc == MPI_SUCCESS; i++)
        if (ranks[i] < 0 || ranks[i] >= c->size)
            rc = core_error_raise(c, MPI_ERR_RANK, function,
                                  "invalid rank %s[%d] = %d (communicator size %d)", name, i,
                                  ranks[i], c->size);
    return rc;
}

static int check_weights(struct core_comm *c, int n, const int weights[], const char *name,
                         const char *function)
{
    if (weights == MPI_UNWEIGHTED || n == 0)
        return MPI_SUCCESS;
    if (weights == MPI_WEIGHTS_EMPTY || !weights)
        return core_error_raise(c, MPI_ERR_ARG, function, "%s missing for %d edges", name, n);
    for (int i = 0; i < n; i++)
        if (weights[i] < 0)
            return core_error_raise(c, MPI_ERR_ARG, function, "negative weight %s[%d] = %d",
                                    name, i, weights[i]);
    return MPI_SUCCESS;
}

int PMPI_Dist_graph_create_adjacent(MPI_Comm comm_old, int indegree, const int sources[],
                                    const int sourceweights[], int outdegree,
                                    const int destinations[], const int destweights[],
                                    MPI_Info info, int reorder, MPI_Comm *comm_dist_graph)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    (void)reorder;
    const char *fn = "MPI_Dist_graph_create_adjacent";
    struct core_comm *c, *made = NULL;
    struct core_info *hints = NULL;
    int rc = begin_intra(comm_old, &c, fn);
    if (rc == MPI_SUCCESS)
        rc = check_rank_list(c, indegree, sources, "sources", fn);
    if (rc == MPI_SUCCESS)
        rc = check_weights(c, indegree, sourceweights, "sourceweights", fn);
    if (rc == MPI_SUCCESS)
        rc = check_rank_list(c, outdegree, destinations, "destinations", fn);
    if (rc == MPI_SUCCESS)
        rc = check_weights(c, outdegree, destweights, "destweights", fn);
    if (rc == MPI_SUCCESS)
        rc = mpi_get_optional_info(info, &hints, fn);
    if (rc == MPI_SUCCESS)
        rc = mpi_check_pointer(c, comm_dist_graph, "comm_dist_graph", fn);
    if (rc != MPI_SUCCESS)
        return rc;
    int weighted = sourceweights != MPI_UNWEIGHTED && destweights != MPI_UNWEIGHTED;
    rc = topo_dist_graph_create_adjacent(c, indegree, sources, sourceweights, outdegree,
                                         destinations, destweights, weighted, hints, &made);
    return finish_topo_comm(c, rc, made, comm_dist_graph, fn);
}
#pragma weak MPI_Dist_graph_create_adjacent = PMPI_Dist_graph_create_adjacent

int PMPI_Dist_graph_create(MPI_Comm comm_old, int n, const int sources[], const int degrees[],
                           const int destinations[], const int weights[], MPI_Info info,
                           int reorder, MPI_Comm *comm_dist_graph)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    (void)reorder;
    const char *fn = "MPI_Dist_graph_create";
    struct core_comm *c, *made = NULL;
    struct core_info *hints = NULL;
    int rc = begin_intra(comm_old, &c, fn);
    if (rc == MPI_SUCCESS)
        rc = check_rank_list(c, n, sources, "sources", fn);
    if (rc == MPI_SUCCESS && n > 0)
        rc = mpi_check_pointer(c, degrees, "degrees", fn);
    int edges = 0;
    for (int i = 0; i < n && rc == MPI_SUCCESS; i++) {
        if (degrees[i] < 0)
            rc = core_error_raise(c, MPI_ERR_ARG, fn, "invalid degrees[%d] = %d", i,
                                  degrees[i]);
        edges += degrees[i];
    }
    if (rc == MPI_SUCCESS)
        rc = check_rank_list(c, edges, destinations, "destinations", fn);
    if (rc == MPI_SUCCESS)
        rc = check_weights(c, edges, weights, "weights", fn);
    if (rc == MPI_SUCCESS)
        rc = mpi_get_optional_info(info, &hints, fn);
    if (rc == MPI_SUCCESS)
        rc = mpi_check_pointer(c, comm_dist_graph, "comm_dist_graph", fn);
    if (rc != MPI_SUCCESS)
        return rc;
    int weighted = weights != MPI_UNWEIGHTED;
    rc = topo_dist_graph_create(c, n, sources, degrees, destinations, weights, weighted, hints,
                                &made);
    return finish_topo_comm(c, rc, made, comm_dist_graph, fn);
}
#pragma weak MPI_Dist_graph_create = PMPI_Dist_graph_create

int PMPI_Dist_graph_neighbors_count(MPI_Comm comm, int *indegree, int *outdegree,
                                    int *weighted)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    const char *fn = "MPI_Dist_graph_neighbors_count";
    struct core_comm *c;
    const struct topo *t;
    int rc = begin_topo(comm, MPI_DIST_GRAPH, &c, &t, fn);
    if (rc == MPI_SUCCESS)
        rc = mpi_check_pointer(c, indegree, "indegree", fn);
    if (rc == MPI_SUCCESS)
        rc = mpi_check_pointer(c, outdegree, "outdegree", fn);
    if (rc == MPI_SUCCESS)
        rc = mpi_check_pointer(c, weighted, "weighted", fn);
    if (rc != MPI_SUCCESS)
        return rc;
    *indegree = t->indegree;
    *outdegree = t->outdegree;
    *weighted = t->weighted;
    return MPI_SUCCESS;
}
#pragma weak MPI_Dist_graph_neighbors_count = PMPI_Dist_graph_neighbors_count

int PMPI_Dist_graph_neighbors(MPI_Comm comm, int maxindegree, int sources[],
                              int sourceweights[], int maxoutdegree, int destinations[],
                              int destweights[])
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    const char *fn = "MPI_Dist_graph_neighbors";
    struct core_comm *c;
    const struct topo *t;
    int rc = begin_topo(comm, MPI_DIST_GRAPH, &c, &t, fn);
    if (rc == MPI_SUCCESS && (maxindegree < 0 || maxoutdegree < 0))
        rc = core_error_raise(c, MPI_ERR_ARG, fn, "invalid maxindegree %d or maxoutdegree %d",
                              maxindegree, maxoutdegree);
    if (rc != MPI_SUCCESS)
        return rc;
    int fill_weights = t->weighted && sourceweights != MPI_UNWEIGHTED &&
                       sourceweights != MPI_WEIGHTS_EMPTY && sourceweights;
    for (int i = 0; i < t->indegree && i < maxindegree; i++) {
        sources[i] = t->sources[i];
        if (fill_weights)
            sourceweights[i] = t->source_weights[i];
    }
    fill_weights = t->weighted && destweights != MPI_UNWEIGHTED &&
                   destweights != MPI_WEIGHTS_EMPTY && destweights;
    for (int i = 0; i < t->outdegree && i < maxoutdegree; i++) {
        destinations[i] = t->destinations[i];
        if (fill_weights)
            destweights[i] = t->destination_weights[i];
    }
    return MPI_SUCCESS;
}
#pragma weak MPI_Dist_graph_neighbors = PMPI_Dist_graph_neighbors

int PMPI_Topo_test(MPI_Comm comm, int *status)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    struct core_comm *c;
    int rc = mpi_begin_comm(comm, &c, "MPI_Topo_test");
    if (rc == MPI_SUCCESS)
        rc = mpi_check_pointer(c, status, "status", "MPI_Topo_test");
    if (rc == MPI_SUCCESS)
        *status = topo_kind(c);
    return rc;
}
#pragma weak MPI_Topo_test = PMPI_Topo_test
