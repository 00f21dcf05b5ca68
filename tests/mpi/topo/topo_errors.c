/* topo_errors.c - error classes of the topology functions with MPI_ERRORS_RETURN: invalid
 * dimensions (MPI_ERR_DIMS), invalid ranks (MPI_ERR_RANK), a communicator without the needed
 * topology (MPI_ERR_TOPOLOGY); the communicator must stay usable afterwards. */
#include "mpitest.h"

/* The classes are nodempi's contract; Open MPI 4.1 answers other classes or skips some checks
 * (MPI_ERR_OTHER for negative dims, nothing for Cart_coords of a bad rank), so with it the
 * calls only run. */
#ifdef OPEN_MPI
#define EXPECT_CLASS(rc, cls, what) ((void)(rc))
#define EXPECT_FAILURE(rc, what) ((void)(rc))
#else
#define EXPECT_CLASS(rc, cls, what) MT_CHECK_ERRCLASS(rc, cls, what)
#define EXPECT_FAILURE(rc, what) MT_CHECK((rc) != MPI_SUCCESS, "%s succeeded", what)
#endif

/* MPI_UNWEIGHTED through a volatile (GCC warns about the sentinel as a const int[]). */
static int *unweighted(void)
{
    int *volatile p = MPI_UNWEIGHTED;
    return p;
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    MPI_Comm cart = MPI_COMM_NULL;
    int dims[2] = {-1, 1}, periods[2] = {0, 0};
    EXPECT_CLASS(MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart), MPI_ERR_DIMS,
                      "Cart_create with dims[0] = -1");
    EXPECT_CLASS(MPI_Cart_create(MPI_COMM_WORLD, -1, dims, periods, 0, &cart),
                      MPI_ERR_DIMS, "Cart_create with ndims = -1");
    int too_many[2] = {mt_size + 1, 1};
    cart = MPI_COMM_WORLD; /* a failed call leaves MPI_COMM_NULL, not what was there */
    int rc = MPI_Cart_create(MPI_COMM_WORLD, 2, too_many, periods, 0, &cart);
    EXPECT_CLASS(rc, MPI_ERR_DIMS, "Cart_create of a grid larger than the communicator");
    MT_CHECK(cart == MPI_COMM_NULL, "a failed Cart_create left comm_cart != MPI_COMM_NULL");

    int src, dst, coords[2], ndims, status;
    EXPECT_CLASS(MPI_Cart_shift(MPI_COMM_WORLD, 0, 1, &src, &dst), MPI_ERR_TOPOLOGY,
                      "Cart_shift without a topology");
    EXPECT_CLASS(MPI_Cartdim_get(MPI_COMM_WORLD, &ndims), MPI_ERR_TOPOLOGY,
                      "Cartdim_get without a topology");
    int nn;
    EXPECT_CLASS(MPI_Graph_neighbors_count(MPI_COMM_WORLD, 0, &nn), MPI_ERR_TOPOLOGY,
                      "Graph_neighbors_count without a topology");
    int in, out, weighted;
    EXPECT_CLASS(MPI_Dist_graph_neighbors_count(MPI_COMM_WORLD, &in, &out, &weighted),
                      MPI_ERR_TOPOLOGY, "Dist_graph_neighbors_count without a topology");

    int good[2] = {mt_size, 1};
    MT_MPI(MPI_Cart_create(MPI_COMM_WORLD, 2, good, periods, 0, &cart));
    MPI_Comm_set_errhandler(cart, MPI_ERRORS_RETURN);
    EXPECT_CLASS(MPI_Cart_coords(cart, mt_size, 2, coords), MPI_ERR_RANK,
                      "Cart_coords of rank == size");
    EXPECT_CLASS(MPI_Cart_coords(cart, -1, 2, coords), MPI_ERR_RANK,
                      "Cart_coords of rank -1");
    EXPECT_CLASS(MPI_Graph_neighbors_count(cart, 0, &nn), MPI_ERR_TOPOLOGY,
                      "Graph_neighbors_count on a Cartesian communicator");
    rc = MPI_Cart_shift(cart, 2, 1, &src, &dst);
    EXPECT_CLASS(rc, MPI_ERR_DIMS, "Cart_shift in a dimension that does not exist");
    int dims_bad[2] = {5, 0};
    EXPECT_CLASS(MPI_Dims_create(12, 2, dims_bad), MPI_ERR_DIMS,
                      "Dims_create(12) with a fixed 5");
    /* still usable */
    MPI_Topo_test(cart, &status);
    MT_CHECK_INT(MPI_CART, status, "Topo_test after errors");
    int one = 1, sum = 0;
    MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, cart);
    MT_CHECK_INT(mt_size, sum, "allreduce after errors");
    MPI_Comm_free(&cart);

    /* graph with an edge to a node that does not exist */
    int index[1] = {1}, edges[1] = {5};
    MPI_Comm g = MPI_COMM_NULL;
    rc = MPI_Graph_create(MPI_COMM_SELF, 1, index, edges, 0, &g);
    EXPECT_FAILURE(rc, "Graph_create with an invalid edge");
    /* dist graph naming a rank outside the communicator */
    int bad_rank = mt_size;
    MPI_Comm dg = MPI_COMM_NULL;
    EXPECT_CLASS(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, &bad_rank,
                                                     unweighted(), 0, NULL, unweighted(),
                                                     MPI_INFO_NULL, 0, &dg),
                      MPI_ERR_RANK, "Dist_graph_create_adjacent with source == size");
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_ARE_FATAL);
    return mt_finish();
}
