/* test_topo.c - unit test of src/topo: MPI_Dims_create against an exhaustive reference,
 * Cartesian rank/coords round trips, shifts at periodic and non-periodic borders, neighbor
 * lists in neighborhood-collective order, graph and distributed-graph objects, dup. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "topo/topo.h"

static int failures;

#define CHECK(cond, ...)                                                                      \
    do {                                                                                      \
        if (!(cond)) {                                                                        \
            failures++;                                                                       \
            if (failures < 30) {                                                              \
                fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);                          \
                fprintf(stderr, __VA_ARGS__);                                                 \
                fputc('\n', stderr);                                                          \
            }                                                                                 \
        }                                                                                     \
    } while (0)

/* Reference: smallest (max - min) over all factorisations of m into k factors >= 1. */
static void best_spread(int m, int k, int depth, int max, int first, int *best)
{
    if (depth == k - 1) {
        if (m <= max) {
            int spread = (depth ? first : m) - m;
            if (*best < 0 || spread < *best)
                *best = spread;
        }
        return;
    }
    for (int f = max; f >= 1; f--)
        if (m % f == 0)
            best_spread(m / f, k, depth + 1, f, depth ? first : f, best);
}

static void test_dims_create(void)
{
    for (int nnodes = 1; nnodes <= 400; nnodes++) {
        for (int ndims = 1; ndims <= 4; ndims++) {
            int dims[4] = {0, 0, 0, 0};
            CHECK(topo_dims_create(nnodes, ndims, dims) == MPI_SUCCESS, "dims_create(%d,%d)",
                  nnodes, ndims);
            long long product = 1;
            for (int d = 0; d < ndims; d++) {
                product *= dims[d];
                if (d)
                    CHECK(dims[d] <= dims[d - 1], "(%d,%d) not non-increasing", nnodes, ndims);
            }
            CHECK(product == nnodes, "(%d,%d) product %lld", nnodes, ndims, product);
            int best = -1;
            best_spread(nnodes, ndims, 0, nnodes, 0, &best);
            CHECK(dims[0] - dims[ndims - 1] == best, "(%d,%d) spread %d, best %d", nnodes, ndims,
                  dims[0] - dims[ndims - 1], best);
        }
    }
    int d1[3] = {0, 3, 0};
    CHECK(topo_dims_create(24, 3, d1) == MPI_SUCCESS && d1[1] == 3 && d1[0] * d1[2] == 8 &&
              d1[0] >= d1[2] && d1[0] - d1[2] <= 2, "fixed middle: %d %d %d", d1[0], d1[1], d1[2]);
    int d2[2] = {5, 0};
    CHECK(topo_dims_create(24, 2, d2) == MPI_ERR_DIMS, "24 with a fixed 5 accepted");
    int d3[2] = {4, 6};
    CHECK(topo_dims_create(24, 2, d3) == MPI_SUCCESS && d3[0] == 4 && d3[1] == 6, "all fixed");
    int d4[2] = {4, 5};
    CHECK(topo_dims_create(24, 2, d4) == MPI_ERR_DIMS, "wrong all-fixed accepted");
    int d5[2] = {-1, 0};
    CHECK(topo_dims_create(24, 2, d5) == MPI_ERR_DIMS, "negative dims accepted");
    int d6[3] = {0, 0, 0};
    CHECK(topo_dims_create(1 << 30, 3, d6) == MPI_SUCCESS && d6[0] == 1024 && d6[1] == 1024 &&
              d6[2] == 1024, "2^30: %d %d %d", d6[0], d6[1], d6[2]);
    int d7[2] = {0, 0};
    CHECK(topo_dims_create(2147483647, 2, d7) == MPI_SUCCESS && d7[0] == 2147483647 &&
              d7[1] == 1, "prime: %d %d", d7[0], d7[1]);
    int d8[8] = {0};
    CHECK(topo_dims_create(720720, 8, d8) == MPI_SUCCESS, "720720 in 8 dims");
}

static void test_cart(void)
{
    int dims[3] = {3, 4, 2}, periods[3] = {1, 0, 1};
    for (int rank = 0; rank < 24; rank++) {
        struct topo *t;
        CHECK(topo_cart_new(3, dims, periods, rank, &t) == MPI_SUCCESS, "cart_new");
        int coords[3], back = -1;
        topo_cart_coords(t, rank, coords);
        CHECK(coords[0] == rank / 8 && coords[1] == (rank / 2) % 4 && coords[2] == rank % 2,
              "coords of %d", rank);
        CHECK(memcmp(coords, t->coords, sizeof(coords)) == 0, "stored coords of %d", rank);
        CHECK(topo_cart_rank(t, coords, &back) == MPI_SUCCESS && back == rank, "roundtrip %d",
              rank);
        for (int d = 0; d < 3; d++) {
            for (int disp = -5; disp <= 5; disp++) {
                int src, dst;
                topo_cart_shift(t, rank, d, disp, &src, &dst);
                int moved[3];
                memcpy(moved, coords, sizeof(moved));
                int c = coords[d] + disp;
                int expect = MPI_PROC_NULL;
                if (periods[d] || (c >= 0 && c < dims[d])) {
                    moved[d] = ((c % dims[d]) + dims[d]) % dims[d];
                    topo_cart_rank(t, moved, &expect);
                }
                CHECK(dst == expect, "shift rank %d dim %d disp %d: dest %d, expected %d", rank,
                      d, disp, dst, expect);
                memcpy(moved, coords, sizeof(moved));
                c = coords[d] - disp;
                expect = MPI_PROC_NULL;
                if (periods[d] || (c >= 0 && c < dims[d])) {
                    moved[d] = ((c % dims[d]) + dims[d]) % dims[d];
                    topo_cart_rank(t, moved, &expect);
                }
                CHECK(src == expect, "shift rank %d dim %d disp %d: source %d, expected %d",
                      rank, d, disp, src, expect);
            }
            /* neighbor order: -1 then +1 per dimension */
            int minus, plus, unused;
            topo_cart_shift(t, rank, d, -1, &unused, &minus);
            topo_cart_shift(t, rank, d, 1, &unused, &plus);
            CHECK(t->indegree == 6 && t->sources[2 * d] == minus &&
                      t->sources[2 * d + 1] == plus && t->destinations[2 * d] == minus &&
                      t->destinations[2 * d + 1] == plus, "neighbor list of %d dim %d", rank,
                  d);
        }
        int outside[3] = {-1, 0, 0}, wrapped = -1;
        CHECK(topo_cart_rank(t, outside, &wrapped) == MPI_SUCCESS && wrapped == 16,
              "periodic wrap -> %d", wrapped);
        int bad[3] = {0, 4, 0};
        CHECK(topo_cart_rank(t, bad, &wrapped) == MPI_ERR_ARG, "non-periodic outside accepted");
        struct topo *copy;
        CHECK(topo_dup(t, &copy) == MPI_SUCCESS && copy->ndims == 3 &&
                  memcmp(copy->sources, t->sources, 6 * sizeof(int)) == 0 &&
                  copy->sources != t->sources, "dup");
        topo_free(copy);
        topo_free(t);
    }
    struct topo *zero;
    CHECK(topo_cart_new(0, NULL, NULL, 0, &zero) == MPI_SUCCESS && zero->indegree == 0,
          "zero-dimensional grid");
    topo_free(zero);
}

static void test_graphs(void)
{
    /* the standard's example: 4 nodes, 0-1 0-3 1-0 2-3 3-0 3-2 */
    int index[4] = {2, 3, 4, 6}, edges[6] = {1, 3, 0, 3, 0, 2};
    struct topo *t;
    CHECK(topo_graph_new(4, index, edges, 3, &t) == MPI_SUCCESS, "graph_new");
    CHECK(t->indegree == 2 && t->sources[0] == 0 && t->sources[1] == 2 &&
              t->outdegree == 2 && t->destinations[1] == 2, "graph neighbors of 3");
    struct topo *copy;
    CHECK(topo_dup(t, &copy) == MPI_SUCCESS && copy->edges[5] == 2 && copy->index[3] == 6,
          "graph dup");
    topo_free(copy);
    topo_free(t);
    int sources[2] = {4, 1}, sw[2] = {7, 8}, dests[3] = {0, 2, 2}, dw[3] = {1, 2, 3};
    CHECK(topo_dist_graph_new(2, sources, sw, 3, dests, dw, 1, &t) == MPI_SUCCESS, "dist");
    CHECK(t->kind == MPI_DIST_GRAPH && t->weighted && t->source_weights[1] == 8 &&
              t->destinations[2] == 2 && t->destination_weights[2] == 3, "dist contents");
    CHECK(topo_dup(t, &copy) == MPI_SUCCESS && copy->destination_weights[0] == 1, "dist dup");
    topo_free(copy);
    topo_free(t);
}

int main(void)
{
    test_dims_create();
    test_cart();
    test_graphs();
    if (failures) {
        fprintf(stderr, "%d failure(s)\n", failures);
        return 1;
    }
    printf("test_topo: all passed\n");
    return 0;
}
