/* cart.c - Cartesian topologies on several shapes (from MPI_Dims_create and fixed ones, with
 * and without periodic dimensions, smaller than the communicator): Topo_test, Cartdim_get,
 * Cart_get, coords/rank round trips, Cart_shift at borders against a local reference, a halo
 * exchange with the shift partners, Cart_sub, Cart_map and MPI_Comm_dup keeping the topology. */
#include "mpitest.h"

/* Reference row-major rank of coords, or MPI_PROC_NULL off a non-periodic edge. */
static int ref_rank(int ndims, const int *dims, const int *periods, const int *coords)
{
    int rank = 0;
    for (int d = 0; d < ndims; d++) {
        int c = coords[d];
        if (c < 0 || c >= dims[d]) {
            if (!periods[d])
                return MPI_PROC_NULL;
            c = ((c % dims[d]) + dims[d]) % dims[d];
        }
        rank = rank * dims[d] + c;
    }
    return rank;
}

static void ref_coords(int ndims, const int *dims, int rank, int *coords)
{
    for (int d = ndims - 1; d >= 0; d--) {
        coords[d] = rank % dims[d];
        rank /= dims[d];
    }
}

static void check_shape(int ndims, const int *dims, const int *periods)
{
    int nnodes = 1;
    for (int d = 0; d < ndims; d++)
        nnodes *= dims[d];
    MPI_Comm cart;
    MT_MPI(MPI_Cart_create(MPI_COMM_WORLD, ndims, dims, periods, 0, &cart));
    int newrank = -5;
    MT_MPI(MPI_Cart_map(MPI_COMM_WORLD, ndims, dims, periods, &newrank));
    if (mt_rank >= nnodes) {
        MT_CHECK(cart == MPI_COMM_NULL, "rank outside a %d-process grid got a communicator",
                 nnodes);
#ifndef OPEN_MPI /* Open MPI 4.1 returns the old rank */
        MT_CHECK_INT(MPI_UNDEFINED, newrank, "Cart_map outside the grid");
#endif
        return;
    }
    MT_ASSERT(cart != MPI_COMM_NULL, "no Cartesian communicator");
    int status = -1, nd = -1, rank = -1, size = -1;
    MPI_Topo_test(cart, &status);
    MT_CHECK_INT(MPI_CART, status, "Topo_test");
    MPI_Cartdim_get(cart, &nd);
    MT_CHECK_INT(ndims, nd, "Cartdim_get");
    MPI_Comm_rank(cart, &rank);
    MPI_Comm_size(cart, &size);
    MT_CHECK_INT(nnodes, size, "grid size");
    MT_CHECK(newrank >= 0 && newrank < nnodes, "Cart_map rank %d", newrank);
    int gd[8], gp[8], gc[8], coords[8];
    MT_MPI(MPI_Cart_get(cart, ndims, gd, gp, gc));
    ref_coords(ndims, dims, rank, coords);
    for (int d = 0; d < ndims; d++) {
        MT_CHECK_INT(dims[d], gd[d], "Cart_get dims");
        MT_CHECK_INT(periods[d] ? 1 : 0, gp[d] ? 1 : 0, "Cart_get periods");
        MT_CHECK_INT(coords[d], gc[d], "Cart_get coords");
    }
    /* coords/rank round trip for every rank of the grid */
    for (int r = 0; r < nnodes; r++) {
        int c[8], back = -1;
        MT_MPI(MPI_Cart_coords(cart, r, ndims, c));
        ref_coords(ndims, dims, r, coords);
        for (int d = 0; d < ndims; d++)
            MT_CHECK(c[d] == coords[d], "Cart_coords(%d)[%d] = %d, expected %d", r, d, c[d],
                     coords[d]);
        MT_MPI(MPI_Cart_rank(cart, c, &back));
        MT_CHECK_INT(r, back, "Cart_rank(Cart_coords(r))");
    }
    /* shifts, and a halo exchange with the partners of each direction */
    ref_coords(ndims, dims, rank, coords);
    for (int d = 0; d < ndims; d++) {
        for (int disp = -3; disp <= 3; disp++) {
            int src = -5, dst = -5, moved[8];
            MT_MPI(MPI_Cart_shift(cart, d, disp, &src, &dst));
            memcpy(moved, coords, sizeof(int) * (size_t)ndims);
            moved[d] = coords[d] + disp;
            MT_CHECK(dst == ref_rank(ndims, dims, periods, moved),
                     "shift dim %d disp %d: dest %d", d, disp, dst);
            moved[d] = coords[d] - disp;
            MT_CHECK(src == ref_rank(ndims, dims, periods, moved),
                     "shift dim %d disp %d: source %d", d, disp, src);
        }
        int src, dst, out = rank * 100 + d, in = -7;
        MPI_Cart_shift(cart, d, 1, &src, &dst);
        MPI_Status st;
        MT_MPI(MPI_Sendrecv(&out, 1, MPI_INT, dst, d, &in, 1, MPI_INT, src, d, cart, &st));
        MT_CHECK_INT(src == MPI_PROC_NULL ? -7 : src * 100 + d, in, "halo value");
    }
    /* Cart_sub keeping every other dimension */
    int remain[8];
    for (int d = 0; d < ndims; d++)
        remain[d] = d % 2 == 0;
    MPI_Comm sub;
    MT_MPI(MPI_Cart_sub(cart, remain, &sub));
    int subdims = 0, subsize = 1, subrank = 0;
    for (int d = 0; d < ndims; d++)
        if (remain[d]) {
            subrank = subrank * dims[d] + coords[d];
            subsize *= dims[d];
            subdims++;
        }
    int s = -1, r = -1, snd = -1;
    MPI_Comm_size(sub, &s);
    MPI_Comm_rank(sub, &r);
    MPI_Cartdim_get(sub, &snd);
    MT_CHECK_INT(subsize, s, "Cart_sub size");
    MT_CHECK_INT(subrank, r, "Cart_sub rank");
    MT_CHECK_INT(subdims, snd, "Cart_sub ndims");
    int total = 0, one = 1;
    MPI_Allreduce(&one, &total, 1, MPI_INT, MPI_SUM, sub);
    MT_CHECK_INT(subsize, total, "allreduce over the Cart_sub communicator");
    MPI_Comm_free(&sub);
    /* dup keeps the topology */
    MPI_Comm copy;
    MPI_Comm_dup(cart, &copy);
    MPI_Topo_test(copy, &status);
    MT_CHECK_INT(MPI_CART, status, "topology of a dup");
    int c2[8];
    MPI_Cart_coords(copy, rank, ndims, c2);
    for (int d = 0; d < ndims; d++)
        MT_CHECK_INT(coords[d], c2[d], "coords on the dup");
    MPI_Comm_free(&copy);
    MPI_Comm_free(&cart);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    int status = -1;
    MPI_Topo_test(MPI_COMM_WORLD, &status);
    MT_CHECK_INT(MPI_UNDEFINED, status, "Topo_test of MPI_COMM_WORLD");
    for (int ndims = 1; ndims <= 3; ndims++) {
        int dims[3] = {0, 0, 0}, periods[3];
        MT_MPI(MPI_Dims_create(mt_size, ndims, dims));
        for (int pattern = 0; pattern < 4; pattern++) {
            for (int d = 0; d < ndims; d++)
                periods[d] = (pattern >> (d % 2)) & 1;
            check_shape(ndims, dims, periods);
        }
    }
    /* a grid smaller than the world, and 1-wide / 2-wide periodic dimensions */
    int small[2] = {(mt_size + 1) / 2, 1}, per[2] = {0, 1};
    check_shape(2, small, per);
    int tall[3] = {1, mt_size >= 2 ? 2 : 1, mt_size >= 2 ? mt_size / 2 : 1}, per3[3] = {1, 1, 0};
    check_shape(3, tall, per3);
    return mt_finish();
}
