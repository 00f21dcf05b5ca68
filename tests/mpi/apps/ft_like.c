/* ft_like.c - a NAS-FT-like 2-D FFT step on a slab-distributed complex matrix: 1-D transforms
 * along local rows, a global transpose done by MPI_Alltoall with derived datatypes on both sides
 * (send: MPI_Type_vector of a b x b block resized to b elements; receive: a column type, itself
 * a resized MPI_Type_vector, repeated b times and resized, so the data lands transposed), then
 * transforms along the new rows; a checksum is summed with MPI_Allreduce on
 * MPI_C_DOUBLE_COMPLEX. The derived-type transpose is compared with a contiguous MPI_Alltoall
 * followed by a local block transpose, transposing back must restore the original, and the 2-D
 * transform is compared with a serial one. Then the transposes again on a 400 x 400 matrix
 * (blocks large enough for rendezvous protocols). Works on any number of ranks. */
#include <mpi.h>
#include <complex.h>
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
    int n = snprintf(msg, sizeof msg, "FAIL ft_like.c:%d rank %d: ", line, myrank);
    va_start(ap, fmt);
    vsnprintf(msg + n, sizeof msg - (size_t)n, fmt, ap);
    va_end(ap);
    fprintf(stderr, "%s\n", msg);
}
#define CHECK(c, ...) do { if (!(c)) fail(__LINE__, __VA_ARGS__); } while (0)

typedef double complex cplx;

static cplx initial(int i, int j)
{
    return (double)((i * 37 + j * 11) % 23) / 23.0 + I * (double)((i * 5 + j * 29) % 19) / 19.0;
}

/* In-place naive DFT of each of `rows` rows of length n (the same code serially and in
 * parallel, so the results are bitwise comparable). */
static void dft_rows(cplx *a, int rows, int n, const cplx *w)
{
    cplx *tmp = malloc(sizeof(cplx) * (size_t)n);
    for (int r = 0; r < rows; r++) {
        cplx *row = a + (size_t)r * n;
        for (int k = 0; k < n; k++) {
            cplx s = 0;
            for (int j = 0; j < n; j++)
                s += row[j] * w[(size_t)j * k % (size_t)n];
            tmp[k] = s;
        }
        memcpy(row, tmp, sizeof(cplx) * (size_t)n);
    }
    free(tmp);
}

static int compare(const cplx *got, const cplx *want, size_t n, double tol, const char *what)
{
    for (size_t k = 0; k < n; k++)
        if (cabs(got[k] - want[k]) > tol) {
            fail(__LINE__, "%s: element %zu is (%g,%g), expected (%g,%g)", what, k,
                 creal(got[k]), cimag(got[k]), creal(want[k]), cimag(want[k]));
            return 0;
        }
    return 1;
}

/* Transpose types for b x b blocks of an n-column slab. */
static void make_types(int b, int n, MPI_Datatype *stype, MPI_Datatype *rtype)
{
    MPI_Datatype blk, col, col1, rblk;
    /* send block = b rows of b elements (stride n), extent b elements */
    MPI_Type_vector(b, b, n, MPI_C_DOUBLE_COMPLEX, &blk);
    MPI_Type_create_resized(blk, 0, (MPI_Aint)(b * sizeof(cplx)), stype);
    MPI_Type_commit(stype);
    /* receive: element (i, j) of the incoming block goes to (j, i): b columns of b */
    MPI_Type_vector(b, 1, n, MPI_C_DOUBLE_COMPLEX, &col);
    MPI_Type_create_resized(col, 0, (MPI_Aint)sizeof(cplx), &col1);
    MPI_Type_contiguous(b, col1, &rblk);
    MPI_Type_create_resized(rblk, 0, (MPI_Aint)(b * sizeof(cplx)), rtype);
    MPI_Type_commit(rtype);
    MPI_Type_free(&blk); /* the committed types keep what they need */
    MPI_Type_free(&col);
    MPI_Type_free(&col1);
    MPI_Type_free(&rblk);
    MPI_Aint lb, ext;
    int size;
    MPI_Type_get_extent(*rtype, &lb, &ext);
    MPI_Type_size(*rtype, &size);
    CHECK(lb == 0 && ext == (MPI_Aint)(b * sizeof(cplx)) && size == (int)(b * b * sizeof(cplx)),
          "receive type lb %ld extent %ld size %d", (long)lb, (long)ext, size);
}

/* One problem of about nbase x nbase; the 2-D transform only when `fft` (it is O(n^3)). */
static void run(int nbase, int fft, int np)
{
    const int b = (nbase + np - 1) / np, n = b * np; /* b rows per rank */
    const size_t local = (size_t)b * n;
    MPI_Datatype stype, rtype;
    make_types(b, n, &stype, &rtype);
    cplx *w = malloc(sizeof(cplx) * (size_t)n);
    for (int k = 0; k < n; k++)
        w[k] = cexp(-2.0 * 3.14159265358979323846 * I * k / n);
    cplx *a = malloc(sizeof(cplx) * local), *t = malloc(sizeof(cplx) * local);
    cplx *t2 = malloc(sizeof(cplx) * local), *back = malloc(sizeof(cplx) * local);
    cplx *packed = malloc(sizeof(cplx) * local), *rpacked = malloc(sizeof(cplx) * local);
    for (int i = 0; i < b; i++)
        for (int j = 0; j < n; j++)
            a[(size_t)i * n + j] = initial(myrank * b + i, j);

    /* serial reference (small problems only): the row transform of the whole matrix */
    cplx *ref = NULL, *reft = NULL;
    if (fft) {
        ref = malloc(sizeof(cplx) * (size_t)n * n);
        reft = malloc(sizeof(cplx) * (size_t)n * n);
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++)
                ref[(size_t)i * n + j] = initial(i, j);
        dft_rows(ref, n, n, w);
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++)
                reft[(size_t)j * n + i] = ref[(size_t)i * n + j];
        dft_rows(a, b, n, w);
    }

    double t0 = MPI_Wtime();
    MPI_Alltoall(a, 1, stype, t, 1, rtype, MPI_COMM_WORLD);
    double t1 = MPI_Wtime();
    if (fft) {
        compare(t, reft + (size_t)myrank * b * n, local, 0.0, "derived-type transpose");
    } else {
        for (int j = 0; j < b; j++)
            for (int i = 0; i < n; i++)
                if (t[(size_t)j * n + i] != initial(i, myrank * b + j)) {
                    fail(__LINE__, "n = %d: transposed (%d, %d) is wrong", n, myrank * b + j, i);
                    j = b;
                    break;
                }
    }

    /* the same with contiguous blocks and a local transpose */
    for (int d = 0; d < np; d++)
        for (int i = 0; i < b; i++)
            for (int j = 0; j < b; j++)
                packed[(size_t)d * b * b + (size_t)i * b + j] = a[(size_t)i * n + d * b + j];
    MPI_Alltoall(packed, b * b, MPI_C_DOUBLE_COMPLEX, rpacked, b * b, MPI_C_DOUBLE_COMPLEX,
                 MPI_COMM_WORLD);
    for (int s = 0; s < np; s++)
        for (int i = 0; i < b; i++)
            for (int j = 0; j < b; j++)
                t2[(size_t)j * n + s * b + i] = rpacked[(size_t)s * b * b + (size_t)i * b + j];
    compare(t, t2, local, 0.0, "derived-type vs contiguous transpose");

    /* transposing back restores the slab */
    MPI_Alltoall(t, 1, stype, back, 1, rtype, MPI_COMM_WORLD);
    compare(back, a, local, 0.0, "transpose twice");

    if (fft) { /* second dimension, then a NAS-style checksum */
        dft_rows(t, b, n, w);
        memcpy(ref, reft, sizeof(cplx) * (size_t)n * n); /* reference 2-D transform */
        dft_rows(ref, n, n, w);
        compare(t, ref + (size_t)myrank * b * n, local, 1e-9, "2-D transform");
        cplx lsum = 0, gsum = 0, want = 0;
        for (int i = 0; i < b; i++)
            for (int j = 0; j < n; j += 3)
                lsum += t[(size_t)i * n + j];
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j += 3)
                want += ref[(size_t)i * n + j];
        MPI_Allreduce(&lsum, &gsum, 1, MPI_C_DOUBLE_COMPLEX, MPI_SUM, MPI_COMM_WORLD);
        CHECK(cabs(gsum - want) <= 1e-9 * cabs(want), "checksum (%.12g,%.12g), serial "
              "(%.12g,%.12g)", creal(gsum), cimag(gsum), creal(want), cimag(want));
        if (myrank == 0)
            printf("%d x %d, %d ranks: checksum (%.10f, %.10f)\n", n, n, np, creal(gsum),
                   cimag(gsum));
    }
    if (myrank == 0)
        printf("%d x %d, %d ranks: derived-type transpose %.3f ms\n", n, n, np,
               (t1 - t0) * 1e3);

    MPI_Type_free(&stype);
    MPI_Type_free(&rtype);
    free(w);
    free(a);
    free(t);
    free(t2);
    free(back);
    free(packed);
    free(rpacked);
    free(ref);
    free(reft);
}

int main(int argc, char **argv)
{
    int np;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &myrank);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    run(48, 1, np);  /* small blocks, with the 2-D transform */
    run(400, 0, np); /* large blocks: transpose only */
    int total = 0;
    MPI_Allreduce(&errs, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (myrank == 0 && total)
        printf("FAILED: %d errors\n", total);
    else if (myrank == 0)
        printf("No errors\n");
    MPI_Finalize();
    return total != 0;
}
