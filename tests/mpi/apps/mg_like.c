/* mg_like.c - a NAS-MG-like multi-level halo exchange on a periodic 3-D Cartesian communicator
 * (MPI_Dims_create, MPI_Cart_create, MPI_Cart_shift with displacements 1, 2, 4, 8 for the levels
 * of a grid hierarchy 32^3 .. 4^3 per process). Faces travel as derived datatypes: a
 * contiguous plane, an MPI_Type_vector plane and an MPI_Type_create_subarray plane; each face
 * includes the halos filled by the previous dimension, so edges and corners arrive as in MG's
 * comm3. Two variants: MPI_Sendrecv per direction, and all twelve MPI_Irecv/MPI_Isend per
 * dimension completed with MPI_Waitall. Every halo cell is checked against the owner's value,
 * and the global sum (MPI_Allreduce) against a closed form. Works on any number of ranks. */
#include <mpi.h>
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
    int n = snprintf(msg, sizeof msg, "FAIL mg_like.c:%d rank %d: ", line, myrank);
    va_start(ap, fmt);
    vsnprintf(msg + n, sizeof msg - (size_t)n, fmt, ap);
    va_end(ap);
    fprintf(stderr, "%s\n", msg);
}
#define CHECK(c, ...) do { if (!(c)) fail(__LINE__, __VA_ARGS__); } while (0)

#define NFINE 32
#define LEVELS 4

static int dims[3], coords[3];
static MPI_Comm cart;

/* Value owned by the process at coordinates c, local interior index (i, j, k) in 1..n. */
static double owned(int level, const int *c, int i, int j, int k)
{
    int r = (c[0] * dims[1] + c[1]) * dims[2] + c[2];
    return (((level * 4096.0 + r) * 64 + i) * 64 + j) * 64 + k; /* exact in a double */
}

/* What cell (i, j, k) in 0..n+1 must hold after the exchange at process distance d. */
static double expected(int level, int n, int d, int i, int j, int k)
{
    int idx[3] = {i, j, k}, c[3];
    for (int a = 0; a < 3; a++) {
        int off = idx[a] == 0 ? -1 : idx[a] == n + 1 ? 1 : 0;
        if (off)
            idx[a] = off < 0 ? n : 1;
        c[a] = ((coords[a] + off * d) % dims[a] + dims[a]) % dims[a];
    }
    return owned(level, c, idx[0], idx[1], idx[2]);
}

static void exchange(double *u, int n, int d, int variant)
{
    int m = n + 2;
    MPI_Datatype face[3];
    /* dimension 0: the plane u[i][*][*] is contiguous */
    MPI_Type_contiguous(m * m, MPI_DOUBLE, &face[0]);
    /* dimension 1: u[*][j][*] is m runs of m, stride m*m */
    MPI_Type_vector(m, m, m * m, MPI_DOUBLE, &face[1]);
    /* dimension 2: u[*][*][k] as a subarray starting at offset 0 (displaced by &u[..][..][k]) */
    int sizes[3] = {m, m, m}, sub[3] = {m, m, 1}, starts[3] = {0, 0, 0};
    MPI_Type_create_subarray(3, sizes, sub, starts, MPI_ORDER_C, MPI_DOUBLE, &face[2]);
    size_t stride[3] = {(size_t)m * m, (size_t)m, 1};
    for (int a = 0; a < 3; a++)
        MPI_Type_commit(&face[a]);
    for (int a = 0; a < 3; a++) {
        int lo, hi;
        MPI_Cart_shift(cart, a, d, &lo, &hi);
        double *first = u + stride[a], *last = u + (size_t)n * stride[a];
        double *halo_lo = u, *halo_hi = u + (size_t)(n + 1) * stride[a];
        if (variant == 0) {
            MPI_Sendrecv(last, 1, face[a], hi, 30 + a, halo_lo, 1, face[a], lo, 30 + a, cart,
                         MPI_STATUS_IGNORE);
            MPI_Sendrecv(first, 1, face[a], lo, 40 + a, halo_hi, 1, face[a], hi, 40 + a, cart,
                         MPI_STATUS_IGNORE);
        } else {
            MPI_Request rq[4];
            MPI_Irecv(halo_lo, 1, face[a], lo, 50 + a, cart, &rq[0]);
            MPI_Irecv(halo_hi, 1, face[a], hi, 60 + a, cart, &rq[1]);
            MPI_Isend(last, 1, face[a], hi, 50 + a, cart, &rq[2]);
            MPI_Isend(first, 1, face[a], lo, 60 + a, cart, &rq[3]);
            MPI_Waitall(4, rq, MPI_STATUSES_IGNORE);
        }
    }
    for (int a = 0; a < 3; a++)
        MPI_Type_free(&face[a]);
}

int main(int argc, char **argv)
{
    int np, periods[3] = {1, 1, 1};
    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    MPI_Dims_create(np, 3, dims);
    MPI_Cart_create(MPI_COMM_WORLD, 3, dims, periods, 1, &cart);
    MPI_Comm_rank(cart, &myrank);
    MPI_Cart_coords(cart, myrank, 3, coords);
    {   /* Cart_get must report what was created */
        int gd[3], gp[3], gc[3], nd;
        MPI_Cartdim_get(cart, &nd);
        MPI_Cart_get(cart, 3, gd, gp, gc);
        CHECK(nd == 3 && gd[0] == dims[0] && gd[1] == dims[1] && gd[2] == dims[2] && gp[0] &&
              gp[1] && gp[2] && gc[0] == coords[0] && gc[1] == coords[1] && gc[2] == coords[2],
              "MPI_Cart_get disagrees with the created topology");
    }
    for (int variant = 0; variant < 2; variant++)
        for (int level = 0; level < LEVELS; level++) {
            int n = NFINE >> level, d = 1 << level, m = n + 2;
            double *u = malloc(sizeof(double) * (size_t)m * m * m);
            for (int i = 0; i < m; i++)
                for (int j = 0; j < m; j++)
                    for (int k = 0; k < m; k++) {
                        int interior = i && j && k && i <= n && j <= n && k <= n;
                        u[((size_t)i * m + j) * m + k] =
                            interior ? owned(level, coords, i, j, k) : -1.0;
                    }
            exchange(u, n, d, variant);
            int bad = 0;
            double sum = 0.0, gsum, want = 0.0;
            for (int i = 0; i < m; i++)
                for (int j = 0; j < m; j++)
                    for (int k = 0; k < m; k++) {
                        double got = u[((size_t)i * m + j) * m + k];
                        double e = expected(level, n, d, i, j, k);
                        if (got != e && bad++ < 3)
                            fail(__LINE__, "variant %d level %d (distance %d): u[%d][%d][%d] = "
                                 "%.0f, expected %.0f", variant, level, d, i, j, k, got, e);
                        if (i && j && k && i <= n && j <= n && k <= n)
                            sum += got;
                    }
            MPI_Allreduce(&sum, &gsum, 1, MPI_DOUBLE, MPI_SUM, cart);
            for (int r = 0; r < np; r++) {
                int c[3];
                MPI_Cart_coords(cart, r, 3, c);
                for (int i = 1; i <= n; i++)
                    for (int j = 1; j <= n; j++)
                        for (int k = 1; k <= n; k++)
                            want += owned(level, c, i, j, k);
            }
            CHECK(gsum == want, "level %d: global sum %.1f, expected %.1f", level, gsum, want);
            free(u);
        }
    MPI_Comm_free(&cart);
    int total = 0;
    MPI_Allreduce(&errs, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (myrank == 0 && total)
        printf("FAILED: %d errors\n", total);
    else if (myrank == 0)
        printf("No errors (%d x %d x %d periodic process grid, distances 1..%d)\n", dims[0],
               dims[1], dims[2], 1 << (LEVELS - 1));
    MPI_Finalize();
    return total != 0;
}
