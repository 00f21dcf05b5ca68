/* neighbor.c - neighborhood collectives: Neighbor_allgather(v) and Neighbor_alltoall(v,w) in
 * blocking and nonblocking form on (1) a periodic 2-D Cartesian grid (with 2 or 4 ranks a
 * dimension has size 1 or 2, so one process is both neighbors and the -1/+1 blocks must not be
 * swapped), (2) a non-periodic 1-D grid (MPI_PROC_NULL neighbors leave their blocks untouched)
 * and (3) a distributed graph where every rank sends to rank+1 and rank+2 (mod size) and may
 * list the same neighbor twice. Values encode (sender, receiver, slot).
 * The Cartesian rule (block s of the sender lands in block s^1 of the receiver, also when both
 * neighbors are one process) is MPI-4.1 section 8.6 (errata of mpi-forum/mpi-issues#153); Open
 * MPI 4.1 and MPICH 4.0 still get some forms wrong in the degenerate case, so only the graph
 * and the non-degenerate grids agree with them. */
#include "mpitest.h"

static int val(int from, int slot, int j)
{
    return from * 10000 + slot * 100 + j;
}

/* Which of my send slots reaches me in receive slot i from source src? For Cartesian grids
 * the -1 neighbor's +1 block (slot ^ 1); for the graph below the k-th edge from src to me. */
static void check_comm(MPI_Comm comm, int cart, const char *what)
{
    int in, out, weighted;
    if (cart) {
        int ndims;
        MPI_Cartdim_get(comm, &ndims);
        in = out = 2 * ndims;
    } else {
        MPI_Dist_graph_neighbors_count(comm, &in, &out, &weighted);
    }
    int *src = mt_malloc(sizeof(int) * (in + 1)), *dst = mt_malloc(sizeof(int) * (out + 1));
    if (cart) {
        for (int d = 0; d < in / 2; d++)
            MPI_Cart_shift(comm, d, 1, &src[2 * d], &src[2 * d + 1]);
        for (int i = 0; i < out; i++)
            dst[i] = src[i];
    } else {
        int *w = mt_malloc(sizeof(int) * (in + out + 1));
        MPI_Dist_graph_neighbors(comm, in, src, w, out, dst, w + in);
        free(w);
    }
    int me;
    MPI_Comm_rank(comm, &me);
    /* expected sender slot for each receive slot */
    int *from_slot = mt_malloc(sizeof(int) * (in + 1));
    for (int i = 0; i < in; i++) {
        if (cart) {
            from_slot[i] = i ^ 1;
        } else { /* k-th occurrence of src[i] among my sources = k-th edge of src to me */
            int k = 0;
            for (int j = 0; j < i; j++)
                k += src[j] == src[i];
            int rank_size;
            MPI_Comm_size(comm, &rank_size);
            /* sender s lists destinations s+1, s+2 (mod size): find its k-th slot to me */
            int s = src[i], found = -1;
            int sd[2] = {(s + 1) % rank_size, (s + 2) % rank_size};
            for (int j = 0; j < 2; j++)
                if (sd[j] == me && k-- == 0) {
                    found = j;
                    break;
                }
            from_slot[i] = found;
        }
    }
    const int n = 3;
    int *sbuf = mt_malloc(sizeof(int) * n * (out + 1)), *rbuf = mt_malloc(sizeof(int) * n * (in + 1));
    int mine[3] = {val(me, 0, 0), val(me, 0, 1), val(me, 0, 2)};

    for (int nb = 0; nb < 2; nb++) {
        MPI_Request req;
        /* allgather: everyone's first block */
        for (int i = 0; i < n * in; i++)
            rbuf[i] = -1;
        if (nb) {
            MT_MPI(MPI_Ineighbor_allgather(mine, n, MPI_INT, rbuf, n, MPI_INT, comm, &req));
            MT_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
        } else {
            MT_MPI(MPI_Neighbor_allgather(mine, n, MPI_INT, rbuf, n, MPI_INT, comm));
        }
        for (int i = 0; i < in; i++)
            for (int j = 0; j < n; j++) {
                int want = src[i] == MPI_PROC_NULL ? -1 : val(src[i], 0, j);
                MT_CHECK(rbuf[i * n + j] == want, "%s Neighbor_allgather%s slot %d [%d] = %d "
                         "want %d", what, nb ? " (I)" : "", i, j, rbuf[i * n + j], want);
            }

        /* alltoall: block for send slot i */
        for (int i = 0; i < out; i++)
            for (int j = 0; j < n; j++)
                sbuf[i * n + j] = val(me, i, j);
        for (int i = 0; i < n * in; i++)
            rbuf[i] = -1;
        if (nb) {
            MT_MPI(MPI_Ineighbor_alltoall(sbuf, n, MPI_INT, rbuf, n, MPI_INT, comm, &req));
            MT_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
        } else {
            MT_MPI(MPI_Neighbor_alltoall(sbuf, n, MPI_INT, rbuf, n, MPI_INT, comm));
        }
        for (int i = 0; i < in; i++)
            for (int j = 0; j < n; j++) {
                int want = src[i] == MPI_PROC_NULL ? -1 : val(src[i], from_slot[i], j);
                MT_CHECK(rbuf[i * n + j] == want, "%s Neighbor_alltoall%s slot %d [%d] = %d "
                         "want %d", what, nb ? " (I)" : "", i, j, rbuf[i * n + j], want);
            }

        /* v and w forms: slot i carries (i % 3) + 1 elements at reversed positions */
        int *sc = mt_malloc(sizeof(int) * (out + 1)), *sd = mt_malloc(sizeof(int) * (out + 1));
        int *rc = mt_malloc(sizeof(int) * (in + 1)), *rd = mt_malloc(sizeof(int) * (in + 1));
        MPI_Aint *sdw = mt_malloc(sizeof(MPI_Aint) * (out + 1)),
                 *rdw = mt_malloc(sizeof(MPI_Aint) * (in + 1));
        MPI_Datatype *st = mt_malloc(sizeof(MPI_Datatype) * (out + 1)),
                     *rt = mt_malloc(sizeof(MPI_Datatype) * (in + 1));
        for (int i = 0; i < out; i++) {
            sc[i] = i % 3 + 1;
            sd[i] = n * (out - 1 - i);
            sdw[i] = (MPI_Aint)sizeof(int) * sd[i];
            st[i] = MPI_INT;
        }
        for (int i = 0; i < in; i++) {
            rc[i] = from_slot[i] >= 0 ? from_slot[i] % 3 + 1 : 0;
            rd[i] = n * (in - 1 - i);
            rdw[i] = (MPI_Aint)sizeof(int) * rd[i];
            rt[i] = MPI_INT;
        }
        for (int i = 0; i < out; i++)
            for (int j = 0; j < n; j++)
                sbuf[sd[i] + j] = val(me, i, j);
        for (int w = 0; w < 2; w++) {
            for (int i = 0; i < n * in; i++)
                rbuf[i] = -1;
            if (w == 0 && nb) {
                MT_MPI(MPI_Ineighbor_alltoallv(sbuf, sc, sd, MPI_INT, rbuf, rc, rd, MPI_INT, comm,
                                               &req));
                MT_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
            } else if (w == 0) {
                MT_MPI(MPI_Neighbor_alltoallv(sbuf, sc, sd, MPI_INT, rbuf, rc, rd, MPI_INT, comm));
            } else if (nb) {
                MT_MPI(MPI_Ineighbor_alltoallw(sbuf, sc, sdw, st, rbuf, rc, rdw, rt, comm, &req));
                MT_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
            } else {
                MT_MPI(MPI_Neighbor_alltoallw(sbuf, sc, sdw, st, rbuf, rc, rdw, rt, comm));
            }
            for (int i = 0; i < in; i++)
                for (int j = 0; j < rc[i]; j++) {
                    int want = src[i] == MPI_PROC_NULL ? -1 : val(src[i], from_slot[i], j);
                    MT_CHECK(rbuf[rd[i] + j] == want, "%s Neighbor_alltoall%s%s slot %d [%d] = %d"
                             " want %d", what, w ? "w" : "v", nb ? " (I)" : "", i, j,
                             rbuf[rd[i] + j], want);
                }
        }
        /* allgatherv: block from source i lands at rd[i], my count is me % 3 + 1 ... all
         * senders send 2 elements here so counts agree */
        for (int i = 0; i < in; i++)
            rc[i] = 2;
        for (int i = 0; i < n * in; i++)
            rbuf[i] = -1;
        if (nb) {
            MT_MPI(MPI_Ineighbor_allgatherv(mine, 2, MPI_INT, rbuf, rc, rd, MPI_INT, comm, &req));
            MT_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
        } else {
            MT_MPI(MPI_Neighbor_allgatherv(mine, 2, MPI_INT, rbuf, rc, rd, MPI_INT, comm));
        }
        for (int i = 0; i < in; i++)
            for (int j = 0; j < 2; j++) {
                int want = src[i] == MPI_PROC_NULL ? -1 : val(src[i], 0, j);
                MT_CHECK(rbuf[rd[i] + j] == want, "%s Neighbor_allgatherv slot %d [%d]", what, i,
                         j);
            }
#if MPI_VERSION >= 4
        /* persistent form, started twice with new data */
        for (int i = 0; i < out; i++)
            for (int j = 0; j < n; j++)
                sbuf[i * n + j] = val(me, i, j);
        MPI_Request preq;
        MT_MPI(MPI_Neighbor_alltoall_init(sbuf, n, MPI_INT, rbuf, n, MPI_INT, comm, MPI_INFO_NULL,
                                          &preq));
        for (int round = 0; round < 2; round++) {
            for (int i = 0; i < n * in; i++)
                rbuf[i] = -1;
            for (int i = 0; i < out * n; i++)
                sbuf[i] += round;
            MT_MPI(MPI_Start(&preq));
            MT_MPI(MPI_Wait(&preq, MPI_STATUS_IGNORE));
            for (int i = 0; i < in; i++)
                for (int j = 0; j < n; j++) {
                    int want = src[i] == MPI_PROC_NULL ? -1 : val(src[i], from_slot[i], j) + round;
                    MT_CHECK(rbuf[i * n + j] == want, "%s Neighbor_alltoall_init round %d slot %d",
                             what, round, i);
                }
        }
        MT_MPI(MPI_Request_free(&preq));
#endif
        free(sc);
        free(sd);
        free(rc);
        free(rd);
        free(sdw);
        free(rdw);
        free(st);
        free(rt);
    }
    free(src);
    free(dst);
    free(from_slot);
    free(sbuf);
    free(rbuf);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    MPI_Comm cart2, line, graph;
    int dims[2] = {0, 0}, periods[2] = {1, 1};
    MPI_Dims_create(mt_size, 2, dims);
    MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart2);
    check_comm(cart2, 1, "periodic 2-D grid");
    int ldims[1] = {mt_size}, lper[1] = {0};
    MPI_Cart_create(MPI_COMM_WORLD, 1, ldims, lper, 0, &line);
    check_comm(line, 1, "non-periodic line");
    int dests[2] = {(mt_rank + 1) % mt_size, (mt_rank + 2) % mt_size};
    int srcs[2] = {(mt_rank - 1 + mt_size) % mt_size, (mt_rank - 2 + 2 * mt_size) % mt_size};
    int weights[2] = {1, 1}; /* (Open MPI's MPI_UNWEIGHTED trips gcc's -Wstringop-overread) */
    MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 2, srcs, weights, 2, dests, weights,
                                   MPI_INFO_NULL, 0, &graph);
    check_comm(graph, 0, "distributed graph");
    MPI_Comm_free(&cart2);
    MPI_Comm_free(&line);
    MPI_Comm_free(&graph);
    return mt_finish();
}
