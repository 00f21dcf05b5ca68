/* wavefront.c - a pipelined wavefront sweep (the Gauss-Seidel / dynamic-programming pattern of
 * SWEEP3D-like codes): a[i][j] depends on a[i-1][j] and a[i][j-1]; rows are split into strips
 * over the ranks and columns processed in chunks, each rank passing the last row of every chunk
 * to the next rank. Three variants: persistent requests (MPI_Recv_init + MPI_Send_init, double
 * buffered, MPI_Startall of the next receive with the current send, MPI_Wait on a possibly
 * inactive request), the same with MPI_Ssend_init, and blocking MPI_Recv + MPI_Ssend. A checksum
 * travels back along the pipeline with MPI_Ssend. Every strip is compared bit for bit with a
 * serial sweep. Works on any number of ranks. */
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
    int n = snprintf(msg, sizeof msg, "FAIL wavefront.c:%d rank %d: ", line, myrank);
    va_start(ap, fmt);
    vsnprintf(msg + n, sizeof msg - (size_t)n, fmt, ap);
    va_end(ap);
    fprintf(stderr, "%s\n", msg);
}
#define CHECK(c, ...) do { if (!(c)) fail(__LINE__, __VA_ARGS__); } while (0)

#define NR 90
#define NC 240
#define B 16 /* columns per chunk */

static double top(int j) { return 1.0 + 0.01 * j; }
static double left(int i) { return 2.0 - 0.02 * i; }
static double src(int i, int j) { return 0.001 * ((i * 13 + j * 7) % 17); }

/* Rows [r0, r0+nr) for columns [c0, c0+nc), given the row above and the column at the left. */
static void compute(double *a, int r0, int nr, int c0, int nc, const double *above)
{
    for (int i = 0; i < nr; i++)
        for (int j = c0; j < c0 + nc; j++) {
            double up = i ? a[(size_t)(i - 1) * NC + j] : above[j - c0];
            double lf = j ? a[(size_t)i * NC + j - 1] : left(r0 + i);
            a[(size_t)i * NC + j] = 0.5 * (up + lf) + src(r0 + i, j);
        }
}

static void sweep(double *a, int r0, int nr, int prev, int next, int variant)
{
    const int nchunks = (NC + B - 1) / B;
    double rbuf[2][B], sbuf[2][B], tb[B];
    MPI_Request R[2], S[2];
    if (variant < 2) {
        for (int k = 0; k < 2; k++) {
            MPI_Recv_init(rbuf[k], B, MPI_DOUBLE, prev, 70 + k, MPI_COMM_WORLD, &R[k]);
            if (variant == 0)
                MPI_Send_init(sbuf[k], B, MPI_DOUBLE, next, 70 + k, MPI_COMM_WORLD, &S[k]);
            else
                MPI_Ssend_init(sbuf[k], B, MPI_DOUBLE, next, 70 + k, MPI_COMM_WORLD, &S[k]);
        }
        MPI_Start(&R[0]);
    }
    for (int c = 0; c < nchunks; c++) {
        int k = c % 2, c0 = c * B, nc = c0 + B <= NC ? B : NC - c0;
        double *above = variant < 2 ? rbuf[k] : tb;
        if (variant < 2) {
            MPI_Status st;
            MPI_Wait(&R[k], &st);
            if (prev != MPI_PROC_NULL) {
                int cnt;
                MPI_Get_count(&st, MPI_DOUBLE, &cnt);
                CHECK(cnt == B && st.MPI_SOURCE == prev && st.MPI_TAG == 70 + k,
                      "variant %d chunk %d: status source %d tag %d count %d", variant, c,
                      st.MPI_SOURCE, st.MPI_TAG, cnt);
            }
        } else {
            MPI_Recv(tb, B, MPI_DOUBLE, prev, 80, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
        if (prev == MPI_PROC_NULL) /* first strip: the fixed top boundary */
            for (int j = 0; j < nc; j++)
                above[j] = top(c0 + j);
        compute(a, r0, nr, c0, nc, above);
        if (variant < 2) {
            /* sbuf[k] was last sent two chunks ago; on the first two chunks S[k] is inactive
             * and MPI_Wait returns at once */
            MPI_Wait(&S[k], MPI_STATUS_IGNORE);
            memset(sbuf[k], 0, sizeof sbuf[k]);
            for (int j = 0; j < nc; j++)
                sbuf[k][j] = nr ? a[(size_t)(nr - 1) * NC + c0 + j] : above[j];
            MPI_Request both[2] = {S[k], R[1 - k]};
            MPI_Startall(c + 1 < nchunks ? 2 : 1, both);
            S[k] = both[0];
            R[1 - k] = both[1];
        } else {
            memset(tb + nc, 0, sizeof(double) * (size_t)(B - nc));
            for (int j = 0; j < nc; j++)
                tb[j] = nr ? a[(size_t)(nr - 1) * NC + c0 + j] : above[j];
            MPI_Ssend(tb, B, MPI_DOUBLE, next, 80, MPI_COMM_WORLD);
        }
    }
    if (variant < 2) {
        MPI_Waitall(2, S, MPI_STATUSES_IGNORE);
        for (int k = 0; k < 2; k++) {
            MPI_Request_free(&R[k]);
            MPI_Request_free(&S[k]);
        }
    }
}

int main(int argc, char **argv)
{
    int np;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &myrank);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    int r0 = myrank * (NR / np) + (myrank < NR % np ? myrank : NR % np);
    int nr = NR / np + (myrank < NR % np);
    int prev = myrank ? myrank - 1 : MPI_PROC_NULL, next = myrank < np - 1 ? myrank + 1
                                                                              : MPI_PROC_NULL;

    /* serial reference: the whole grid, one chunk-free sweep */
    double *ref = malloc(sizeof(double) * NR * NC), toprow[NC];
    for (int j = 0; j < NC; j++)
        toprow[j] = top(j);
    compute(ref, 0, NR, 0, NC, toprow);

    double *a = malloc(sizeof(double) * (size_t)(nr ? nr : 1) * NC);
    for (int variant = 0; variant < 3; variant++) {
        memset(a, 0, sizeof(double) * (size_t)nr * NC);
        MPI_Barrier(MPI_COMM_WORLD);
        double t = MPI_Wtime();
        sweep(a, r0, nr, prev, next, variant);
        t = MPI_Wtime() - t;
        int bad = 0;
        for (int i = 0; i < nr; i++)
            for (int j = 0; j < NC; j++)
                if (a[(size_t)i * NC + j] != ref[(size_t)(r0 + i) * NC + j] && bad++ < 3)
                    fail(__LINE__, "variant %d: a[%d][%d] = %.17g, serial %.17g", variant,
                         r0 + i, j, a[(size_t)i * NC + j], ref[(size_t)(r0 + i) * NC + j]);
        /* checksum back up the pipeline with synchronous sends */
        double sum = 0.0, acc = 0.0;
        for (int i = 0; i < nr; i++)
            for (int j = 0; j < NC; j++)
                sum += a[(size_t)i * NC + j];
        if (next != MPI_PROC_NULL)
            MPI_Recv(&acc, 1, MPI_DOUBLE, next, 90, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        acc += sum;
        if (prev != MPI_PROC_NULL)
            MPI_Ssend(&acc, 1, MPI_DOUBLE, prev, 90, MPI_COMM_WORLD);
        if (myrank == 0) {
            double want = 0.0;
            for (size_t k = 0; k < (size_t)NR * NC; k++)
                want += ref[k];
            CHECK(fabs(acc - want) <= 1e-10 * fabs(want), "variant %d: checksum %.15g, serial "
                  "%.15g", variant, acc, want);
            printf("variant %d: checksum %.10f, %.3f ms\n", variant, acc, t * 1e3);
        }
    }
    free(a);
    free(ref);
    int total = 0;
    MPI_Allreduce(&errs, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (myrank == 0 && total)
        printf("FAILED: %d errors\n", total);
    else if (myrank == 0)
        printf("No errors\n");
    MPI_Finalize();
    return total != 0;
}
