/* graph.c - graph and distributed-graph topologies: MPI_Graph_create on a ring with chords
 * (Graph_get, Graphdims_get, neighbors of every node, Graph_map, a neighbor exchange), and
 * MPI_Dist_graph_create_adjacent / MPI_Dist_graph_create describing the same directed graph
 * (weighted and unweighted), checked with Dist_graph_neighbors(_count) against the reference
 * edge list and by point-to-point along the edges. */
#include "mpitest.h"

/* Directed test graph on n nodes: i -> i+1, i -> i+3 (mod n) when distinct, and 0 -> everyone. */
static int out_edges(int i, int n, int *dst, int *w)
{
    int k = 0;
    int cand[3] = {(i + 1) % n, (i + 3) % n, -1};
    for (int c = 0; c < 2; c++) {
        int dup = cand[c] == i;
        for (int j = 0; j < k; j++)
            dup |= dst[j] == cand[c];
        if (!dup) {
            dst[k] = cand[c];
            w[k++] = 10 * i + cand[c];
        }
    }
    if (i == 0)
        for (int j = 1; j < n; j++) {
            int dup = 0;
            for (int m = 0; m < k; m++)
                dup |= dst[m] == j;
            if (!dup) {
                dst[k] = j;
                w[k++] = j;
            }
        }
    return k;
}

/* MPI_UNWEIGHTED through a volatile, so GCC does not warn that the sentinel address
 * "reads from a region of size 0" when passed as a const int[] argument. */
static int *unweighted(void)
{
    int *volatile p = MPI_UNWEIGHTED;
    return p;
}

static int cmp_int(const void *a, const void *b)
{
    return *(const int *)a - *(const int *)b;
}

static void test_graph(void)
{
    int n = mt_size, *index = mt_malloc(sizeof(int) * (size_t)n);
    int *edges = mt_malloc(sizeof(int) * (size_t)n * (size_t)n);
    int *w = mt_malloc(sizeof(int) * (size_t)n);
    int total = 0;
    for (int i = 0; i < n; i++) {
        total += out_edges(i, n, edges + total, w);
        index[i] = total;
    }
    MPI_Comm g;
    MT_MPI(MPI_Graph_create(MPI_COMM_WORLD, n, index, edges, 0, &g));
    int status = -1, nnodes = -1, nedges = -1, newrank = -1;
    MPI_Topo_test(g, &status);
    MT_CHECK_INT(MPI_GRAPH, status, "Topo_test of a graph");
    MPI_Graphdims_get(g, &nnodes, &nedges);
    MT_CHECK_INT(n, nnodes, "Graphdims_get nnodes");
    MT_CHECK_INT(total, nedges, "Graphdims_get nedges");
    int *gi = mt_malloc(sizeof(int) * (size_t)n);
    int *ge = mt_malloc(sizeof(int) * (size_t)(total + 1));
    MT_MPI(MPI_Graph_get(g, n, total, gi, ge));
    MT_CHECK(memcmp(gi, index, sizeof(int) * (size_t)n) == 0, "Graph_get index");
    MT_CHECK(total == 0 || memcmp(ge, edges, sizeof(int) * (size_t)total) == 0, "Graph_get edges");
    for (int r = 0; r < n; r++) {
        int count = -1, first = r ? index[r - 1] : 0;
        MPI_Graph_neighbors_count(g, r, &count);
        MT_CHECK_INT(index[r] - first, count, "Graph_neighbors_count");
        int *nb = mt_malloc(sizeof(int) * (size_t)(count + 1));
        MPI_Graph_neighbors(g, r, count, nb);
        MT_CHECK(count == 0 || memcmp(nb, edges + first, sizeof(int) * (size_t)count) == 0,
                 "Graph_neighbors of %d", r);
        free(nb);
    }
    MPI_Graph_map(MPI_COMM_WORLD, n, index, edges, &newrank);
    MT_CHECK(newrank >= 0 && newrank < n, "Graph_map rank %d", newrank);
    free(gi);
    free(ge);
    MPI_Comm_free(&g);
    free(index);
    free(edges);
    free(w);
}

/* Reference in/out lists of me: sorted destinations, sorted sources. */
static void reference(int me, int n, int *out, int *nout, int *in, int *nin, int *inw, int *outw)
{
    int dst[64], w[64];
    *nout = out_edges(me, n, out, outw);
    *nin = 0;
    for (int i = 0; i < n; i++) {
        int k = out_edges(i, n, dst, w);
        for (int j = 0; j < k; j++)
            if (dst[j] == me) {
                in[*nin] = i;
                inw[(*nin)++] = w[j];
            }
    }
}

static void check_dist(MPI_Comm dg, int weighted, const char *what)
{
    int n = mt_size, out[64], in[64], inw[64], outw[64], nout, nin;
    reference(mt_rank, n, out, &nout, in, &nin, inw, outw);
    int indeg = -1, outdeg = -1, wflag = -1, status = -1;
    MPI_Topo_test(dg, &status);
    MT_CHECK_INT(MPI_DIST_GRAPH, status, what);
    MT_MPI(MPI_Dist_graph_neighbors_count(dg, &indeg, &outdeg, &wflag));
    MT_CHECK_INT(nin, indeg, what);
    MT_CHECK_INT(nout, outdeg, what);
    MT_CHECK_INT(weighted, wflag ? 1 : 0, what);
    int src[64], sw[64], dst[64], dw[64];
    if (weighted)
        MT_MPI(MPI_Dist_graph_neighbors(dg, indeg, src, sw, outdeg, dst, dw));
    else
        MT_MPI(MPI_Dist_graph_neighbors(dg, indeg, src, unweighted(), outdeg, dst,
                                        unweighted()));
    /* each edge's weight names it (10 * source + dest or dest): check pairs, any order */
    for (int i = 0; i < indeg && weighted; i++) {
        int found = 0;
        for (int j = 0; j < nin; j++)
            found |= in[j] == src[i] && inw[j] == sw[i];
        MT_CHECK(found, "%s: in-edge %d (weight %d) not in the reference", what, src[i], sw[i]);
    }
    for (int i = 0; i < outdeg && weighted; i++) {
        int found = 0;
        for (int j = 0; j < nout; j++)
            found |= out[j] == dst[i] && outw[j] == dw[i];
        MT_CHECK(found, "%s: out-edge %d (weight %d) not in the reference", what, dst[i], dw[i]);
    }
    qsort(src, (size_t)indeg, sizeof(int), cmp_int);
    qsort(dst, (size_t)outdeg, sizeof(int), cmp_int);
    qsort(in, (size_t)nin, sizeof(int), cmp_int);
    qsort(out, (size_t)nout, sizeof(int), cmp_int);
    for (int i = 0; i < indeg && i < nin; i++)
        MT_CHECK(src[i] == in[i], "%s: sources differ", what);
    for (int i = 0; i < outdeg && i < nout; i++)
        MT_CHECK(dst[i] == out[i], "%s: destinations differ", what);
    /* traffic along the edges: send my rank to every out-neighbor, receive from in-neighbors */
    MPI_Request req[128];
    int got[64], nreq = 0;
    for (int i = 0; i < indeg; i++)
        MPI_Irecv(&got[i], 1, MPI_INT, src[i], 9, dg, &req[nreq++]);
    for (int i = 0; i < outdeg; i++)
        MPI_Isend(&mt_rank, 1, MPI_INT, dst[i], 9, dg, &req[nreq++]);
    MPI_Waitall(nreq, req, MPI_STATUSES_IGNORE);
    for (int i = 0; i < indeg; i++)
        MT_CHECK_INT(src[i], got[i], what);
}

static void test_dist_graph(void)
{
    int n = mt_size, out[64], in[64], inw[64], outw[64], nout, nin;
    reference(mt_rank, n, out, &nout, in, &nin, inw, outw);
    MPI_Comm dg;
    MT_MPI(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, nin, in, inw, nout, out, outw,
                                          MPI_INFO_NULL, 0, &dg));
    check_dist(dg, 1, "create_adjacent (weighted)");
    int s[64], d[64];
    int indeg, outdeg, wflag;
    MPI_Dist_graph_neighbors_count(dg, &indeg, &outdeg, &wflag);
    MPI_Dist_graph_neighbors(dg, indeg, s, unweighted(), outdeg, d, unweighted());
    MT_CHECK(indeg == 0 || memcmp(s, in, sizeof(int) * (size_t)indeg) == 0,
             "create_adjacent keeps the source order");
    MT_CHECK(outdeg == 0 || memcmp(d, out, sizeof(int) * (size_t)outdeg) == 0,
             "create_adjacent keeps the destination order");
    MPI_Comm_free(&dg);
    MT_MPI(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, nin, in, unweighted(), nout, out,
                                          unweighted(), MPI_INFO_NULL, 0, &dg));
    check_dist(dg, 0, "create_adjacent (unweighted)");
    MPI_Comm_free(&dg);

    /* general constructor: rank r describes the out-edges of node (r + 1) % n */
    int node = (mt_rank + 1) % n, degree, dst[64], w[64];
    degree = out_edges(node, n, dst, w);
    MT_MPI(MPI_Dist_graph_create(MPI_COMM_WORLD, 1, &node, &degree, dst, w, MPI_INFO_NULL, 0,
                                 &dg));
    check_dist(dg, 1, "Dist_graph_create (weighted)");
    MPI_Comm_free(&dg);
    /* the same edges spread differently: rank 0 gives everything, unweighted */
    int *sources = mt_malloc(sizeof(int) * (size_t)n);
    int *degrees = mt_malloc(sizeof(int) * (size_t)n);
    int *all = mt_malloc(sizeof(int) * (size_t)n * (size_t)n), total = 0, count = 0;
    if (mt_rank == 0)
        for (int i = 0; i < n; i++) {
            sources[count] = i;
            degrees[count] = out_edges(i, n, all + total, w);
            total += degrees[count++];
        }
    MT_MPI(MPI_Dist_graph_create(MPI_COMM_WORLD, count, sources, degrees, all, unweighted(),
                                 MPI_INFO_NULL, 0, &dg));
    check_dist(dg, 0, "Dist_graph_create (all edges from rank 0)");
    MPI_Comm_free(&dg);
    free(sources);
    free(degrees);
    free(all);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    MT_ASSERT(mt_size <= 64, "at most 64 ranks");
    test_graph();
    test_dist_graph();
    return mt_finish();
}
