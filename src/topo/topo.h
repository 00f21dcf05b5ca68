/* topo.h - virtual process topologies (Cartesian, graph, distributed graph) stored in
 * core_comm.topology, and the neighbor lists the neighborhood collectives (src/coll) read.
 * Pure data and arithmetic live in cart.c / graph.c / topo.c; create.c makes the communicators
 * (collective: it calls core_comm_split / dup and coll_allgather). */
#ifndef NODEMPI_TOPO_H
#define NODEMPI_TOPO_H

#include <mpi.h>

struct core_comm;
struct core_info;

struct topo {
    int kind;                  /* MPI_CART, MPI_GRAPH or MPI_DIST_GRAPH */
    /* Neighbors of this process in the order of neighborhood collectives: Cartesian: for each
     * dimension the -1 then the +1 neighbor (MPI_PROC_NULL at non-periodic borders);
     * graph: MPI_Graph_neighbors order (in = out); distributed graph: as given. */
    int indegree, outdegree;
    int *sources, *destinations;
    int weighted;              /* distributed graph created with weights */
    int *source_weights, *destination_weights;
    /* Cartesian */
    int ndims;
    int *dims, *periods, *coords;
    /* graph (the whole graph: MPI_Graph_get) */
    int nnodes;
    int *index, *edges;
};

/* ---- for other layers ---------------------------------------------------------------------
 * MPI_CART / MPI_GRAPH / MPI_DIST_GRAPH, or MPI_UNDEFINED without a topology. */
int topo_kind(const struct core_comm *comm);
/* Neighbor lists (pointers into the topology: valid while comm lives). MPI_ERR_TOPOLOGY when
 * comm has no topology. Weights, when wanted, are in struct topo (NULL unless weighted). */
int topo_neighbors(const struct core_comm *comm, int *indegree, const int **sources,
                   int *outdegree, const int **destinations);
int topo_dup(const struct topo *topo, struct topo **out);
void topo_free(struct topo *topo);

/* ---- building topologies (no communication) ----------------------------------------------- */
int topo_cart_new(int ndims, const int *dims, const int *periods, int rank, struct topo **out);
int topo_graph_new(int nnodes, const int *index, const int *edges, int rank, struct topo **out);
int topo_dist_graph_new(int indegree, const int *sources, const int *source_weights,
                        int outdegree, const int *destinations, const int *destination_weights,
                        int weighted, struct topo **out);

/* ---- Cartesian arithmetic ----------------------------------------------------------------- */
int topo_cart_rank(const struct topo *topo, const int *coords, int *rank); /* MPI_ERR_ARG */
void topo_cart_coords(const struct topo *topo, int rank, int *coords);
void topo_cart_shift(const struct topo *topo, int rank, int direction, int disp, int *source,
                     int *dest);
/* MPI_Dims_create: MPI_ERR_DIMS when nnodes is not a multiple of the fixed entries' product
 * or an entry is negative. Free entries get the most balanced factorisation (smallest
 * max - min), in non-increasing order. */
int topo_dims_create(int nnodes, int ndims, int *dims);

/* ---- collective constructors (create.c) --------------------------------------------------- */
int topo_cart_create(struct core_comm *comm, int ndims, const int *dims, const int *periods,
                     struct core_comm **out);
int topo_cart_sub(struct core_comm *comm, const int *remain_dims, struct core_comm **out);
int topo_graph_create(struct core_comm *comm, int nnodes, const int *index, const int *edges,
                      struct core_comm **out);
int topo_dist_graph_create_adjacent(struct core_comm *comm, int indegree, const int *sources,
                                    const int *source_weights, int outdegree,
                                    const int *destinations, const int *destination_weights,
                                    int weighted, struct core_info *info,
                                    struct core_comm **out);
int topo_dist_graph_create(struct core_comm *comm, int n, const int *sources,
                           const int *degrees, const int *destinations, const int *weights,
                           int weighted, struct core_info *info, struct core_comm **out);

#endif
