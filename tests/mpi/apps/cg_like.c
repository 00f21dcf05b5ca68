/* cg_like.c - a NAS-CG-like kernel: the matrix of a sparse symmetric positive definite system is
 * distributed in 2-D blocks over a pr x pc process grid (MPI_Dims_create), with row and column
 * communicators from MPI_Comm_split. A sparse matrix-vector product sums partial results over
 * the process row (MPI_Allreduce); the vector is moved from row to column distribution by a
 * transpose exchange with the partner process (MPI_Sendrecv, square grids) or an MPI_Allgatherv
 * over the process column (other grids); dot products are MPI_Allreduce over the process
 * column. Like NAS CG, outer power-method iterations each run a fixed number of CG iterations
 * and compute zeta. The same solver is run serially on rank 0 (on MPI_COMM_SELF) and the
 * zetas, residuals and solution compared. Works on any number of ranks. */
#include <mpi.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int errs, myrank;

static void fail(int line, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    if (errs++ >= 20)
        return;
    int n = snprintf(msg, sizeof msg, "FAIL cg_like.c:%d rank %d: ", line, myrank);
    va_start(ap, fmt);
    vsnprintf(msg + n, sizeof msg - (size_t)n, fmt, ap);
    va_end(ap);
    fprintf(stderr, "%s\n", msg);
}
#define CHECK(c, ...) do { if (!(c)) fail(__LINE__, __VA_ARGS__); } while (0)

#define N 400
#define GRIDW 20 /* the Laplacian part couples i with i +- 1 and i +- GRIDW */
#define OUTER 4
#define CGIT 15
#define SHIFT 10.0

static int block_start(int n, int p, int c) { return c * (n / p) + (c < n % p ? c : n % p); }
static int block_len(int n, int p, int c) { return n / p + (c < n % p); }

/* A symmetric, diagonally dominant sparse matrix: entry (i, j). */
static double offdiag(int i, int j)
{
    int d = i > j ? i - j : j - i, lo = i < j ? i : j, hi = i < j ? j : i;
    if (d == 0)
        return 0.0;
    if (d == 1 || d == GRIDW)
        return -1.0;
    unsigned h = (unsigned)lo * 2654435761u ^ (unsigned)hi * 40503u;
    if (h % 97 == 0)
        return -0.05 * (double)(1 + (h >> 8) % 7);
    return 0.0;
}
static double aval(int i, int j)
{
    if (i != j)
        return offdiag(i, j);
    double s = 0.02;
    for (int k = 0; k < N; k++)
        s += fabs(offdiag(i, k));
    return s;
}

struct grid {
    int pr, pc, I, J, rows, r0, cols, c0;
    MPI_Comm rowcomm, colcomm, xcomm; /* xcomm + partner: the transpose exchange */
    int partner;
    int *rowptr, *colidx;
    double *val;
    double *pcol, *partial; /* work */
    int *counts, *displs;   /* Allgatherv over colcomm */
    double *full;
};

static void build_matrix(struct grid *g)
{
    int nnz = 0, cap = 64;
    g->rowptr = malloc(sizeof(int) * (size_t)(g->rows + 1));
    g->colidx = malloc(sizeof(int) * (size_t)cap);
    g->val = malloc(sizeof(double) * (size_t)cap);
    for (int i = 0; i < g->rows; i++) {
        g->rowptr[i] = nnz;
        for (int j = 0; j < g->cols; j++) {
            double a = aval(g->r0 + i, g->c0 + j);
            if (a == 0.0)
                continue;
            if (nnz == cap) {
                cap *= 2;
                g->colidx = realloc(g->colidx, sizeof(int) * (size_t)cap);
                g->val = realloc(g->val, sizeof(double) * (size_t)cap);
            }
            g->colidx[nnz] = j;
            g->val[nnz++] = a;
        }
    }
    g->rowptr[g->rows] = nnz;
}

/* Row-distributed p (segment I) -> column-distributed segment J in g->pcol. */
static void to_columns(struct grid *g, const double *p)
{
    if (g->pr == g->pc) {
        MPI_Sendrecv(p, g->rows, MPI_DOUBLE, g->partner, 7, g->pcol, g->cols, MPI_DOUBLE,
                     g->partner, 7, g->xcomm, MPI_STATUS_IGNORE);
    } else {
        MPI_Allgatherv(p, g->rows, MPI_DOUBLE, g->full, g->counts, g->displs, MPI_DOUBLE,
                       g->colcomm);
        memcpy(g->pcol, g->full + g->c0, sizeof(double) * (size_t)g->cols);
    }
}

static void matvec(struct grid *g, const double *p, double *q)
{
    to_columns(g, p);
    for (int i = 0; i < g->rows; i++) {
        double s = 0.0;
        for (int k = g->rowptr[i]; k < g->rowptr[i + 1]; k++)
            s += g->val[k] * g->pcol[g->colidx[k]];
        g->partial[i] = s;
    }
    MPI_Allreduce(g->partial, q, g->rows, MPI_DOUBLE, MPI_SUM, g->rowcomm);
}

static double dot(struct grid *g, const double *a, const double *b)
{
    double s = 0.0, t;
    for (int i = 0; i < g->rows; i++)
        s += a[i] * b[i];
    MPI_Allreduce(&s, &t, 1, MPI_DOUBLE, MPI_SUM, g->colcomm);
    return t;
}

/* NAS CG structure: zeta[OUTER], rnorm[OUTER]; final x (row segment) left in x. */
static void solve(struct grid *g, double *zeta, double *rnorm, double *x)
{
    int m = g->rows;
    double *z = calloc((size_t)m, sizeof(double)), *r = malloc(sizeof(double) * (size_t)m);
    double *p = malloc(sizeof(double) * (size_t)m), *q = malloc(sizeof(double) * (size_t)m);
    for (int i = 0; i < m; i++)
        x[i] = 1.0 + 0.1 * ((g->r0 + i) * 7 % 13); /* not the eigenvector 1 */
    for (int outer = 0; outer < OUTER; outer++) {
        for (int i = 0; i < m; i++) {
            z[i] = 0.0;
            r[i] = p[i] = x[i];
        }
        double rho = dot(g, r, r);
        for (int it = 0; it < CGIT; it++) {
            matvec(g, p, q);
            double alpha = rho / dot(g, p, q);
            for (int i = 0; i < m; i++) {
                z[i] += alpha * p[i];
                r[i] -= alpha * q[i];
            }
            double rho0 = rho;
            rho = dot(g, r, r);
            for (int i = 0; i < m; i++)
                p[i] = r[i] + rho / rho0 * p[i];
        }
        matvec(g, z, q); /* ||x - A z|| */
        for (int i = 0; i < m; i++)
            r[i] = x[i] - q[i];
        rnorm[outer] = sqrt(dot(g, r, r));
        zeta[outer] = SHIFT + 1.0 / dot(g, x, z);
        double zn = 1.0 / sqrt(dot(g, z, z));
        for (int i = 0; i < m; i++)
            x[i] = zn * z[i];
    }
    free(z);
    free(r);
    free(p);
    free(q);
}

static void grid_init(struct grid *g, MPI_Comm comm, int pr, int pc)
{
    int rank;
    MPI_Comm_rank(comm, &rank);
    g->pr = pr;
    g->pc = pc;
    g->I = rank / pc;
    g->J = rank % pc;
    g->rows = block_len(N, pr, g->I);
    g->r0 = block_start(N, pr, g->I);
    g->cols = block_len(N, pc, g->J);
    g->c0 = block_start(N, pc, g->J);
    MPI_Comm_split(comm, g->I, g->J, &g->rowcomm);
    MPI_Comm_split(comm, g->J, g->I, &g->colcomm);
    g->xcomm = comm;
    g->partner = g->J * pc + g->I;
    int rs, cs, cr;
    MPI_Comm_size(g->rowcomm, &rs);
    MPI_Comm_size(g->colcomm, &cs);
    MPI_Comm_rank(g->colcomm, &cr);
    CHECK(rs == pc && cs == pr && cr == g->I, "row comm size %d (want %d), column comm size %d"
          " (want %d), column rank %d (want %d)", rs, pc, cs, pr, cr, g->I);
    g->counts = malloc(sizeof(int) * (size_t)pr);
    g->displs = malloc(sizeof(int) * (size_t)pr);
    for (int i = 0; i < pr; i++) {
        g->counts[i] = block_len(N, pr, i);
        g->displs[i] = block_start(N, pr, i);
    }
    g->full = malloc(sizeof(double) * N);
    g->pcol = malloc(sizeof(double) * (size_t)g->cols);
    g->partial = malloc(sizeof(double) * (size_t)g->rows);
    build_matrix(g);
}

static void grid_free(struct grid *g)
{
    MPI_Comm_free(&g->rowcomm);
    MPI_Comm_free(&g->colcomm);
    free(g->rowptr);
    free(g->colidx);
    free(g->val);
    free(g->pcol);
    free(g->partial);
    free(g->counts);
    free(g->displs);
    free(g->full);
}

int main(int argc, char **argv)
{
    int np, dims[2] = {0, 0};
    struct grid g;
    double zeta[OUTER], rnorm[OUTER];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &myrank);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    MPI_Dims_create(np, 2, dims);
    grid_init(&g, MPI_COMM_WORLD, dims[0], dims[1]);
    double *x = malloc(sizeof(double) * (size_t)g.rows);
    double t = MPI_Wtime();
    solve(&g, zeta, rnorm, x);
    t = MPI_Wtime() - t;

    /* the whole solution on rank 0: one member of each process row sends its segment */
    double *xall = myrank == 0 ? malloc(sizeof(double) * N) : NULL;
    MPI_Comm lead;
    MPI_Comm_split(MPI_COMM_WORLD, g.J == 0 ? 0 : MPI_UNDEFINED, g.I, &lead);
    if (lead != MPI_COMM_NULL) {
        MPI_Gatherv(x, g.rows, MPI_DOUBLE, xall, g.counts, g.displs, MPI_DOUBLE, 0, lead);
        MPI_Comm_free(&lead);
    }

    if (myrank == 0) {
        struct grid s;
        double szeta[OUTER], srnorm[OUTER], *sx = malloc(sizeof(double) * N);
        grid_init(&s, MPI_COMM_SELF, 1, 1);
        solve(&s, szeta, srnorm, sx);
        for (int k = 0; k < OUTER; k++) {
            CHECK(fabs(zeta[k] - szeta[k]) <= 1e-10 * fabs(szeta[k]),
                  "outer %d: zeta %.15g, serial %.15g", k, zeta[k], szeta[k]);
            CHECK(fabs(rnorm[k] - srnorm[k]) <= 1e-6 * srnorm[k] + 1e-13,
                  "outer %d: residual %.6e, serial %.6e", k, rnorm[k], srnorm[k]);
        }
        for (int i = 0; i < N; i++)
            if (fabs(xall[i] - sx[i]) > 1e-10) {
                fail(__LINE__, "x[%d] = %.15g, serial %.15g", i, xall[i], sx[i]);
                break;
            }
        printf("%d x %d process grid: zeta %.13f (serial %.13f), residual %.3e, %.3f s\n",
               dims[0], dims[1], zeta[OUTER - 1], szeta[OUTER - 1], rnorm[OUTER - 1], t);
        grid_free(&s);
        free(sx);
        free(xall);
    }
    /* every replica of a row segment must agree */
    {
        double *x0 = malloc(sizeof(double) * (size_t)g.rows);
        memcpy(x0, x, sizeof(double) * (size_t)g.rows);
        MPI_Bcast(x0, g.rows, MPI_DOUBLE, 0, g.rowcomm);
        for (int i = 0; i < g.rows; i++)
            if (fabs(x0[i] - x[i]) > 1e-12) {
                fail(__LINE__, "replicas of x[%d] differ: %.17g vs %.17g", g.r0 + i, x[i], x0[i]);
                break;
            }
        free(x0);
    }
    free(x);
    grid_free(&g);
    int total = 0;
    MPI_Allreduce(&errs, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (myrank == 0 && total)
        printf("FAILED: %d errors\n", total);
    else if (myrank == 0)
        printf("No errors\n");
    MPI_Finalize();
    return total != 0;
}
