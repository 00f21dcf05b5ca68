/* cannon.c - Cannon's matrix multiplication, the textbook algorithm on a periodic 2-D process
 * grid: the largest q x q grid that fits is carved out with MPI_Comm_split (the remaining ranks
 * sit out), made a periodic MPI_Cart_create grid; the initial skew moves block A(i,j) left by
 * i and B(i,j) up by j with MPI_Cart_shift + MPI_Sendrecv_replace, then q steps of local
 * multiply-add and single shifts. Each rank checks its C block against a direct computation
 * (integer-valued entries, so the result is exact), row sums of C are formed over process rows
 * from MPI_Cart_sub and checked, and the grid's Frobenius norm is summed with MPI_Reduce.
 * Works on any number of ranks. */
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
    int n = snprintf(msg, sizeof msg, "FAIL cannon.c:%d rank %d: ", line, myrank);
    va_start(ap, fmt);
    vsnprintf(msg + n, sizeof msg - (size_t)n, fmt, ap);
    va_end(ap);
    fprintf(stderr, "%s\n", msg);
}
#define CHECK(c, ...) do { if (!(c)) fail(__LINE__, __VA_ARGS__); } while (0)

#define NB 64 /* block size */

static double aval(int i, int j) { return (double)((i * 3 + j * 7) % 11 - 5); }
static double bval(int i, int j) { return (double)((i * 5 + j * 2) % 13 - 6); }

static void mult_add(const double *a, const double *b, double *c)
{
    for (int i = 0; i < NB; i++)
        for (int k = 0; k < NB; k++) {
            double aik = a[i * NB + k];
            for (int j = 0; j < NB; j++)
                c[i * NB + j] += aik * b[k * NB + j];
        }
}

int main(int argc, char **argv)
{
    int np, q = 1;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &myrank);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    while ((q + 1) * (q + 1) <= np)
        q++;
    MPI_Comm square;
    MPI_Comm_split(MPI_COMM_WORLD, myrank < q * q ? 1 : MPI_UNDEFINED, myrank, &square);
    if (square != MPI_COMM_NULL) {
        int dims[2] = {q, q}, periods[2] = {1, 1}, coords[2], me, n = q * NB;
        MPI_Comm grid;
        MPI_Cart_create(square, 2, dims, periods, 1, &grid);
        MPI_Comm_rank(grid, &me);
        MPI_Cart_coords(grid, me, 2, coords);
        double *a = malloc(sizeof(double) * NB * NB), *b = malloc(sizeof(double) * NB * NB);
        double *c = calloc(NB * NB, sizeof(double));
        int bi = coords[0], bj = coords[1];
        for (int i = 0; i < NB; i++)
            for (int j = 0; j < NB; j++) {
                a[i * NB + j] = aval(bi * NB + i, bj * NB + j);
                b[i * NB + j] = bval(bi * NB + i, bj * NB + j);
            }
        double t = MPI_Wtime();
        int src, dst;
        /* initial skew: A(i, j) <- A(i, j + i), B(i, j) <- B(i + j, j) */
        MPI_Cart_shift(grid, 1, -bi, &src, &dst);
        MPI_Sendrecv_replace(a, NB * NB, MPI_DOUBLE, dst, 1, src, 1, grid, MPI_STATUS_IGNORE);
        MPI_Cart_shift(grid, 0, -bj, &src, &dst);
        MPI_Sendrecv_replace(b, NB * NB, MPI_DOUBLE, dst, 2, src, 2, grid, MPI_STATUS_IGNORE);
        int left, right, up, down;
        MPI_Cart_shift(grid, 1, -1, &right, &left);
        MPI_Cart_shift(grid, 0, -1, &down, &up);
        for (int step = 0; step < q; step++) {
            mult_add(a, b, c);
            MPI_Sendrecv_replace(a, NB * NB, MPI_DOUBLE, left, 3, right, 3, grid,
                                 MPI_STATUS_IGNORE);
            MPI_Sendrecv_replace(b, NB * NB, MPI_DOUBLE, up, 4, down, 4, grid,
                                 MPI_STATUS_IGNORE);
        }
        t = MPI_Wtime() - t;
        /* after q shifts A and B are back where the skew put them: check A too */
        for (int i = 0; i < NB; i++)
            for (int j = 0; j < NB; j++) {
                int kb = (bi + bj) % q;
                double wa = aval(bi * NB + i, kb * NB + j), wb = bval(kb * NB + i, bj * NB + j);
                if ((a[i * NB + j] != wa || b[i * NB + j] != wb) && errs < 3)
                    fail(__LINE__, "after the loop A/B (%d,%d) are %g/%g, expected %g/%g", i, j,
                         a[i * NB + j], b[i * NB + j], wa, wb);
            }
        double fro = 0.0, gfro = 0.0, want = 0.0;
        int bad = 0;
        for (int i = 0; i < NB; i++)
            for (int j = 0; j < NB; j++) {
                double s = 0.0;
                for (int k = 0; k < n; k++)
                    s += aval(bi * NB + i, k) * bval(k, bj * NB + j);
                if (c[i * NB + j] != s && bad++ < 3)
                    fail(__LINE__, "C(%d,%d) = %g, expected %g", bi * NB + i, bj * NB + j,
                         c[i * NB + j], s);
                fro += c[i * NB + j] * c[i * NB + j];
            }
        MPI_Reduce(&fro, &gfro, 1, MPI_DOUBLE, MPI_SUM, 0, grid);

        /* row sums of C: the process row is a sub-grid keeping dimension 1 */
        MPI_Comm prow;
        int keep[2] = {0, 1}, prsize, prrank;
        double part[NB], rowsum[NB];
        MPI_Cart_sub(grid, keep, &prow);
        MPI_Comm_size(prow, &prsize);
        MPI_Comm_rank(prow, &prrank);
        CHECK(prsize == q && prrank == bj, "Cart_sub row: size %d rank %d, expected %d %d",
              prsize, prrank, q, bj);
        for (int i = 0; i < NB; i++) {
            part[i] = 0.0;
            for (int j = 0; j < NB; j++)
                part[i] += c[i * NB + j];
        }
        MPI_Allreduce(part, rowsum, NB, MPI_DOUBLE, MPI_SUM, prow);
        for (int i = 0; i < NB; i++) {
            double s = 0.0;
            for (int k = 0; k < n; k++) {
                double bs = 0.0;
                for (int j = 0; j < n; j++)
                    bs += bval(k, j);
                s += aval(bi * NB + i, k) * bs;
            }
            if (rowsum[i] != s) {
                fail(__LINE__, "row sum %d of C is %g, expected %g", bi * NB + i, rowsum[i], s);
                break;
            }
        }
        MPI_Comm_free(&prow);
        if (me == 0) {
            for (int i = 0; i < n; i++)
                for (int j = 0; j < n; j++) {
                    double s = 0.0;
                    for (int k = 0; k < n; k++)
                        s += aval(i, k) * bval(k, j);
                    want += s * s;
                }
            CHECK(gfro == want, "||C||^2 = %.1f, expected %.1f", gfro, want);
            printf("%d x %d grid (%d ranks idle), n = %d: ||C||_F = %.3f, %.3f ms\n", q, q,
                   np - q * q, n, sqrt(gfro), t * 1e3);
        }
        free(a);
        free(b);
        free(c);
        MPI_Comm_free(&grid);
        MPI_Comm_free(&square);
    }
    int total = 0;
    MPI_Allreduce(&errs, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (myrank == 0 && total)
        printf("FAILED: %d errors\n", total);
    else if (myrank == 0)
        printf("No errors\n");
    MPI_Finalize();
    return total != 0;
}
