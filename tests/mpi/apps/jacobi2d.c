/* jacobi2d.c - the textbook 2-D Jacobi / heat-equation solver: a global grid block-distributed
 * (uneven blocks allowed) over a non-periodic 2-D Cartesian communicator (MPI_Dims_create,
 * MPI_Cart_create with reorder, MPI_Cart_shift, MPI_Cart_coords), halo exchange of contiguous
 * rows and MPI_Type_vector columns, in three variants (MPI_Sendrecv, MPI_Isend/MPI_Irecv +
 * MPI_Waitall, and one MPI_Neighbor_alltoallw on the Cartesian communicator, whose missing
 * neighbours at the borders are MPI_PROC_NULL), residual by MPI_Allreduce, and the result
 * gathered to rank 0 with MPI_Gatherv (send type: MPI_Type_create_subarray of the interior) and
 * compared bit for bit with a serial computation. Works on any number of ranks. */
#include <mpi.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 11
#pragma GCC diagnostic ignored "-Wstringop-overflow" /* MPICH's MPI_STATUSES_IGNORE */
#endif

static int errs, myrank;

static void fail(int line, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    if (errs++ >= 20)
        return;
    int n = snprintf(msg, sizeof msg, "FAIL jacobi2d.c:%d rank %d: ", line, myrank);
    va_start(ap, fmt);
    vsnprintf(msg + n, sizeof msg - (size_t)n, fmt, ap);
    va_end(ap);
    fprintf(stderr, "%s\n", msg);
}
#define CHECK(c, ...) do { if (!(c)) fail(__LINE__, __VA_ARGS__); } while (0)

#define NX 601 /* interior columns */
#define NY 403 /* interior rows */
#define ITERS 30
#define RES_EVERY 10

static int block_start(int n, int p, int c) { return c * (n / p) + (c < n % p ? c : n % p); }
static int block_len(int n, int p, int c) { return n / p + (c < n % p); }

/* Fixed boundary values and the initial interior (global indices 0..NY+1, 0..NX+1). */
static double initial(int gy, int gx)
{
    if (gy == 0 || gy == NY + 1 || gx == 0 || gx == NX + 1)
        return 1.0 + 0.37 * gx - 0.11 * gy + (gy == 0 ? 5.0 : 0.0);
    return 0.0;
}

struct local {
    MPI_Comm cart;
    int lx, ly, x0, y0;        /* interior size and global offset of local (1,1) minus 1 */
    int north, south, west, east;
    MPI_Datatype column, row;
    double *u, *v;
};
#define AT(a, L, j, i) ((a)[(size_t)(j) * ((L)->lx + 2) + (i)])

static void exchange_sendrecv(struct local *L, double *u)
{
    int lx = L->lx, ly = L->ly;
    MPI_Sendrecv(&AT(u, L, ly, 1), lx, MPI_DOUBLE, L->south, 10, &AT(u, L, 0, 1), lx, MPI_DOUBLE,
                 L->north, 10, L->cart, MPI_STATUS_IGNORE);
    MPI_Sendrecv(&AT(u, L, 1, 1), lx, MPI_DOUBLE, L->north, 11, &AT(u, L, ly + 1, 1), lx,
                 MPI_DOUBLE, L->south, 11, L->cart, MPI_STATUS_IGNORE);
    MPI_Sendrecv(&AT(u, L, 1, lx), 1, L->column, L->east, 12, &AT(u, L, 1, 0), 1, L->column,
                 L->west, 12, L->cart, MPI_STATUS_IGNORE);
    MPI_Sendrecv(&AT(u, L, 1, 1), 1, L->column, L->west, 13, &AT(u, L, 1, lx + 1), 1, L->column,
                 L->east, 13, L->cart, MPI_STATUS_IGNORE);
}

static void exchange_nonblocking(struct local *L, double *u)
{
    int lx = L->lx, ly = L->ly;
    MPI_Request r[8];
    MPI_Irecv(&AT(u, L, 0, 1), lx, MPI_DOUBLE, L->north, 20, L->cart, &r[0]);
    MPI_Irecv(&AT(u, L, ly + 1, 1), lx, MPI_DOUBLE, L->south, 21, L->cart, &r[1]);
    MPI_Irecv(&AT(u, L, 1, 0), 1, L->column, L->west, 22, L->cart, &r[2]);
    MPI_Irecv(&AT(u, L, 1, lx + 1), 1, L->column, L->east, 23, L->cart, &r[3]);
    MPI_Isend(&AT(u, L, ly, 1), lx, MPI_DOUBLE, L->south, 20, L->cart, &r[4]);
    MPI_Isend(&AT(u, L, 1, 1), lx, MPI_DOUBLE, L->north, 21, L->cart, &r[5]);
    MPI_Isend(&AT(u, L, 1, lx), 1, L->column, L->east, 22, L->cart, &r[6]);
    MPI_Isend(&AT(u, L, 1, 1), 1, L->column, L->west, 23, L->cart, &r[7]);
    MPI_Waitall(8, r, MPI_STATUSES_IGNORE);
}

/* The four exchanges as one neighbourhood collective. Neighbour order on a Cartesian
 * communicator: dimension 0 negative (north), positive (south), dimension 1 west, east. */
static void exchange_neighbor(struct local *L, double *u)
{
    int lx = L->lx, ly = L->ly, one[4] = {1, 1, 1, 1};
    MPI_Datatype types[4] = {L->row, L->row, L->column, L->column};
    const double *sbase = &AT(u, L, 1, 1);
    MPI_Aint sd[4], rd[4];
    /* send displacements relative to the first interior point */
    sd[0] = 0;                                                 /* row 1 to the north */
    sd[1] = (MPI_Aint)((size_t)(ly - 1) * (lx + 2) * sizeof(double)); /* row ly south */
    sd[2] = 0;                                                 /* column 1 to the west */
    sd[3] = (MPI_Aint)((size_t)(lx - 1) * sizeof(double));     /* column lx to the east */
    /* receive displacements relative to the array */
    rd[0] = (MPI_Aint)(1 * sizeof(double));
    rd[1] = (MPI_Aint)(((size_t)(ly + 1) * (lx + 2) + 1) * sizeof(double));
    rd[2] = (MPI_Aint)((size_t)(lx + 2) * sizeof(double));
    rd[3] = (MPI_Aint)(((size_t)(lx + 2) + lx + 1) * sizeof(double));
    MPI_Neighbor_alltoallw(sbase, one, sd, types, u, one, rd, types, L->cart);
}

/* One sweep v = average of u's neighbours; returns the local sum of squared changes. */
static double sweep(int lx, int ly, const double *u, double *v)
{
    double res = 0.0;
    for (int j = 1; j <= ly; j++)
        for (int i = 1; i <= lx; i++) {
            size_t k = (size_t)j * (lx + 2) + i;
            v[k] = 0.25 * (u[k - (lx + 2)] + u[k + (lx + 2)] + u[k - 1] + u[k + 1]);
            res += (v[k] - u[k]) * (v[k] - u[k]);
        }
    return res;
}

/* Serial reference on the whole grid; residuals every RES_EVERY iterations. */
static double *serial(double *resids)
{
    size_t n = (size_t)(NY + 2) * (NX + 2);
    double *u = malloc(n * sizeof *u), *v = malloc(n * sizeof *v);
    for (int gy = 0; gy < NY + 2; gy++)
        for (int gx = 0; gx < NX + 2; gx++)
            u[(size_t)gy * (NX + 2) + gx] = v[(size_t)gy * (NX + 2) + gx] = initial(gy, gx);
    for (int it = 1; it <= ITERS; it++) {
        double r = sweep(NX, NY, u, v), *t = u;
        u = v;
        v = t;
        if (it % RES_EVERY == 0)
            resids[it / RES_EVERY - 1] = sqrt(r);
    }
    free(v);
    return u;
}

static void run(struct local *L, int variant, const double *ref, const double *ref_res)
{
    int lx = L->lx, ly = L->ly, np;
    MPI_Comm_size(L->cart, &np);
    for (int j = 0; j < ly + 2; j++)
        for (int i = 0; i < lx + 2; i++)
            AT(L->u, L, j, i) = AT(L->v, L, j, i) = initial(L->y0 + j, L->x0 + i);
    double *u = L->u, *v = L->v;
    for (int it = 1; it <= ITERS; it++) {
        if (variant == 0)
            exchange_sendrecv(L, u);
        else if (variant == 1)
            exchange_nonblocking(L, u);
        else
            exchange_neighbor(L, u);
        double r = sweep(lx, ly, u, v), *t = u;
        u = v;
        v = t;
        if (it % RES_EVERY == 0) {
            double g;
            MPI_Allreduce(&r, &g, 1, MPI_DOUBLE, MPI_SUM, L->cart);
            if (myrank == 0) {
                double want = ref_res[it / RES_EVERY - 1];
                CHECK(fabs(sqrt(g) - want) <= 1e-12 * want + 1e-300,
                      "variant %d iteration %d: residual %.17g, serial %.17g", variant, it,
                      sqrt(g), want);
            }
        }
    }

    /* gather the interiors on rank 0 of the cartesian communicator */
    int cr, info[4] = {L->y0, L->ly, L->x0, L->lx};
    MPI_Comm_rank(L->cart, &cr);
    int *all = cr == 0 ? malloc(4 * sizeof(int) * (size_t)np) : NULL;
    MPI_Gather(info, 4, MPI_INT, all, 4, MPI_INT, 0, L->cart);
    int *counts = NULL, *displs = NULL;
    double *buf = NULL;
    if (cr == 0) {
        counts = malloc(sizeof(int) * (size_t)np);
        displs = malloc(sizeof(int) * (size_t)np);
        for (int p = 0, off = 0; p < np; p++) {
            counts[p] = all[4 * p + 1] * all[4 * p + 3];
            displs[p] = off;
            off += counts[p];
        }
        buf = malloc(sizeof(double) * NX * NY);
    }
    MPI_Datatype interior;
    int sizes[2] = {ly + 2, lx + 2}, sub[2] = {ly, lx}, starts[2] = {1, 1};
    MPI_Type_create_subarray(2, sizes, sub, starts, MPI_ORDER_C, MPI_DOUBLE, &interior);
    MPI_Type_commit(&interior);
    MPI_Gatherv(u, 1, interior, buf, counts, displs, MPI_DOUBLE, 0, L->cart);
    MPI_Type_free(&interior);
    if (cr == 0) {
        int bad = 0;
        for (int p = 0; p < np; p++) {
            const double *blk = buf + displs[p];
            for (int j = 0; j < all[4 * p + 1]; j++)
                for (int i = 0; i < all[4 * p + 3]; i++) {
                    int gy = all[4 * p] + j + 1, gx = all[4 * p + 2] + i + 1;
                    double got = blk[j * all[4 * p + 3] + i];
                    double want = ref[(size_t)gy * (NX + 2) + gx];
                    if (got != want && bad++ < 5)
                        fail(__LINE__, "variant %d: u(%d,%d) from cart rank %d is %.17g, serial"
                             " %.17g", variant, gy, gx, p, got, want);
                }
        }
        free(counts);
        free(displs);
        free(buf);
        free(all);
    }
}

int main(int argc, char **argv)
{
    int np, dims[2] = {0, 0}, periods[2] = {0, 0}, coords[2];
    struct local L;
    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    MPI_Dims_create(np, 2, dims);
    MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 1, &L.cart);
    MPI_Comm_rank(L.cart, &myrank);
    MPI_Cart_coords(L.cart, myrank, 2, coords);
    {   /* the coordinate <-> rank mapping must round-trip */
        int back;
        MPI_Cart_rank(L.cart, coords, &back);
        CHECK(back == myrank, "Cart_rank(Cart_coords(%d)) = %d", myrank, back);
    }
    L.ly = block_len(NY, dims[0], coords[0]);
    L.y0 = block_start(NY, dims[0], coords[0]);
    L.lx = block_len(NX, dims[1], coords[1]);
    L.x0 = block_start(NX, dims[1], coords[1]);
    MPI_Cart_shift(L.cart, 0, 1, &L.north, &L.south);
    MPI_Cart_shift(L.cart, 1, 1, &L.west, &L.east);
    CHECK((coords[0] == 0) == (L.north == MPI_PROC_NULL), "north neighbour %d at row %d",
          L.north, coords[0]);
    CHECK((coords[1] == dims[1] - 1) == (L.east == MPI_PROC_NULL), "east neighbour %d at col %d",
          L.east, coords[1]);
    MPI_Type_vector(L.ly, 1, L.lx + 2, MPI_DOUBLE, &L.column);
    MPI_Type_commit(&L.column);
    MPI_Type_contiguous(L.lx, MPI_DOUBLE, &L.row);
    MPI_Type_commit(&L.row);
    size_t n = (size_t)(L.ly + 2) * (L.lx + 2);
    L.u = malloc(n * sizeof(double));
    L.v = malloc(n * sizeof(double));

    double ref_res[ITERS / RES_EVERY];
    double *ref = myrank == 0 ? serial(ref_res) : NULL;
    for (int variant = 0; variant < 3; variant++)
        run(&L, variant, ref, ref_res);

    free(ref);
    free(L.u);
    free(L.v);
    MPI_Type_free(&L.column);
    MPI_Type_free(&L.row);
    MPI_Comm_free(&L.cart);
    int total = 0;
    MPI_Allreduce(&errs, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (myrank == 0 && total)
        printf("FAILED: %d errors\n", total);
    else if (myrank == 0)
        printf("No errors (%dx%d grid on %dx%d processes, %d iterations x 3 variants)\n", NY, NX,
               dims[0], dims[1], ITERS);
    MPI_Finalize();
    return total != 0;
}
