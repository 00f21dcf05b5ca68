/* imb_like.c - an Intel-MPI-Benchmarks-style driver: PingPong, Sendrecv, Exchange, Allreduce,
 * Alltoall, Bcast and Barrier, each run on active groups of 2, 4, 8, ... and all processes
 * (MPI_Comm_split into an active communicator; idle processes get MPI_COMM_NULL and wait),
 * over message sizes 0, 1, 8, ..., 32 KiB, reporting t_min/t_max/t_avg reduced over the active
 * group.
 * Like IMB's -check mode, every received buffer is verified. Works on any number of ranks
 * (PingPong needs 2). */
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
    int n = snprintf(msg, sizeof msg, "FAIL imb_like.c:%d rank %d: ", line, myrank);
    va_start(ap, fmt);
    vsnprintf(msg + n, sizeof msg - (size_t)n, fmt, ap);
    va_end(ap);
    fprintf(stderr, "%s\n", msg);
}
#define CHECK(c, ...) do { if (!(c)) fail(__LINE__, __VA_ARGS__); } while (0)

#define MAX_BYTES 65536

static unsigned char pat(int a, int b, int iter, int i)
{
    return (unsigned char)(a * 31 + b * 17 + iter * 7 + i * 3 + 1);
}
static void fill(unsigned char *p, int n, int a, int b, int iter)
{
    for (int i = 0; i < n; i++)
        p[i] = pat(a, b, iter, i);
}
static int verify(const unsigned char *p, int n, int a, int b, int iter, const char *bench)
{
    for (int i = 0; i < n; i++)
        if (p[i] != pat(a, b, iter, i)) {
            fail(__LINE__, "%s: %d bytes, iteration %d, from %d: byte %d is %d, expected %d",
                 bench, n, iter, a, i, p[i], pat(a, b, iter, i));
            return 0;
        }
    return 1;
}

struct bufs { unsigned char *s, *r; int *is, *ir; };

typedef void (*bench_fn)(MPI_Comm comm, int bytes, int iter, struct bufs *b);

static void b_pingpong(MPI_Comm comm, int bytes, int iter, struct bufs *b)
{
    int me;
    MPI_Comm_rank(comm, &me);
    if (me == 0) {
        fill(b->s, bytes, 0, 1, iter);
        MPI_Send(b->s, bytes, MPI_BYTE, 1, 1, comm);
        MPI_Recv(b->r, bytes, MPI_BYTE, 1, 1, comm, MPI_STATUS_IGNORE);
        verify(b->r, bytes, 1, 0, iter, "PingPong");
    } else if (me == 1) {
        MPI_Status st;
        int cnt;
        MPI_Recv(b->r, bytes, MPI_BYTE, 0, 1, comm, &st);
        MPI_Get_count(&st, MPI_BYTE, &cnt);
        CHECK(cnt == bytes, "PingPong count %d, expected %d", cnt, bytes);
        verify(b->r, bytes, 0, 1, iter, "PingPong");
        fill(b->s, bytes, 1, 0, iter);
        MPI_Send(b->s, bytes, MPI_BYTE, 0, 1, comm);
    }
}

static void b_sendrecv(MPI_Comm comm, int bytes, int iter, struct bufs *b)
{
    int me, np;
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &np);
    int right = (me + 1) % np, left = (me + np - 1) % np;
    fill(b->s, bytes, me, right, iter);
    MPI_Sendrecv(b->s, bytes, MPI_BYTE, right, 2, b->r, bytes, MPI_BYTE, left, 2, comm,
                 MPI_STATUS_IGNORE);
    verify(b->r, bytes, left, me, iter, "Sendrecv");
}

static void b_exchange(MPI_Comm comm, int bytes, int iter, struct bufs *b)
{
    int me, np;
    MPI_Request rq[2];
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &np);
    int right = (me + 1) % np, left = (me + np - 1) % np;
    fill(b->s, bytes, me, 0, iter);
    MPI_Isend(b->s, bytes, MPI_BYTE, left, 3, comm, &rq[0]);
    MPI_Isend(b->s, bytes, MPI_BYTE, right, 3, comm, &rq[1]);
    MPI_Recv(b->r, bytes, MPI_BYTE, left, 3, comm, MPI_STATUS_IGNORE);
    MPI_Recv(b->r + MAX_BYTES, bytes, MPI_BYTE, right, 3, comm, MPI_STATUS_IGNORE);
    MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
    verify(b->r, bytes, left, 0, iter, "Exchange(left)");
    verify(b->r + MAX_BYTES, bytes, right, 0, iter, "Exchange(right)");
}

static void b_allreduce(MPI_Comm comm, int bytes, int iter, struct bufs *b)
{
    int me, np, n = bytes / (int)sizeof(int);
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &np);
    for (int i = 0; i < n; i++)
        b->is[i] = me + iter + i;
    MPI_Allreduce(b->is, b->ir, n, MPI_INT, MPI_SUM, comm);
    for (int i = 0; i < n; i++)
        if (b->ir[i] != np * (iter + i) + np * (np - 1) / 2) {
            fail(__LINE__, "Allreduce: element %d of %d is %d, expected %d", i, n, b->ir[i],
                 np * (iter + i) + np * (np - 1) / 2);
            break;
        }
}

static void b_alltoall(MPI_Comm comm, int bytes, int iter, struct bufs *b)
{
    int me, np, blk;
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &np);
    blk = bytes / np; /* IMB sends `bytes` to each; we keep total buffer <= 64 KiB * 8 */
    for (int d = 0; d < np; d++)
        fill(b->s + (size_t)d * blk, blk, me, d, iter);
    MPI_Alltoall(b->s, blk, MPI_BYTE, b->r, blk, MPI_BYTE, comm);
    for (int s = 0; s < np; s++)
        if (!verify(b->r + (size_t)s * blk, blk, s, me, iter, "Alltoall"))
            break;
}

static void b_bcast(MPI_Comm comm, int bytes, int iter, struct bufs *b)
{
    int me, np;
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &np);
    int root = ((iter % np) + np) % np; /* IMB rotates the root */
    if (me == root)
        fill(b->r, bytes, root, 9, iter);
    else
        memset(b->r, 0xee, (size_t)bytes);
    MPI_Bcast(b->r, bytes, MPI_BYTE, root, comm);
    verify(b->r, bytes, root, 9, iter, "Bcast");
}

static void b_barrier(MPI_Comm comm, int bytes, int iter, struct bufs *b)
{
    (void)bytes;
    (void)b;
    (void)iter;
    MPI_Barrier(comm);
}

struct bench { const char *name; bench_fn fn; int fixed_np, has_sizes; };

static void run(const struct bench *bm, int np, struct bufs *b)
{
    MPI_Comm active;
    int wsize;
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    MPI_Comm_split(MPI_COMM_WORLD, myrank < np ? 0 : MPI_UNDEFINED, myrank, &active);
    CHECK((myrank < np) == (active != MPI_COMM_NULL), "Comm_split: active %d, comm null %d",
          myrank < np, active == MPI_COMM_NULL);
    if (active != MPI_COMM_NULL) {
        int asize;
        MPI_Comm_size(active, &asize);
        CHECK(asize == np, "active group size %d, expected %d", asize, np);
        if (myrank == 0)
            printf("#----------------------------------------------------------------\n"
                   "# Benchmarking %s\n# #processes = %d (%d idle)\n"
                   "#bytes #repetitions  t_min[usec]  t_max[usec]  t_avg[usec]\n",
                   bm->name, np, wsize - np);
        for (int bytes = 0; bytes <= (bm->has_sizes ? MAX_BYTES : 0);
             bytes = bytes ? bytes * 8 : 1) {
            int iters = bytes >= 16384 ? 3 : 10;
            double t, tmin, tmax, tsum;
            bm->fn(active, bytes, -1, b); /* warm-up, also checked */
            MPI_Barrier(active);
            t = MPI_Wtime();
            for (int it = 0; it < iters; it++)
                bm->fn(active, bytes, it, b);
            t = (MPI_Wtime() - t) / iters * 1e6;
            MPI_Reduce(&t, &tmin, 1, MPI_DOUBLE, MPI_MIN, 0, active);
            MPI_Reduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, 0, active);
            MPI_Reduce(&t, &tsum, 1, MPI_DOUBLE, MPI_SUM, 0, active);
            if (myrank == 0) {
                CHECK(tmin >= 0 && tmin <= tmax && tsum <= tmax * np * (1 + 1e-9),
                      "%s: inconsistent timings %g %g %g", bm->name, tmin, tmax, tsum / np);
                printf("%6d %13d %12.2f %12.2f %12.2f\n", bytes, iters, tmin, tmax, tsum / np);
            }
        }
        MPI_Comm_free(&active);
    }
    MPI_Barrier(MPI_COMM_WORLD); /* idle processes wait here */
}

int main(int argc, char **argv)
{
    int wsize;
    struct bufs b;
    static const struct bench benches[] = {
        {"PingPong", b_pingpong, 2, 1}, {"Sendrecv", b_sendrecv, 0, 1},
        {"Exchange", b_exchange, 0, 1}, {"Allreduce", b_allreduce, 0, 1},
        {"Alltoall", b_alltoall, 0, 1}, {"Bcast", b_bcast, 0, 1},
        {"Barrier", b_barrier, 0, 0},
    };
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &myrank);
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    b.s = malloc(2 * MAX_BYTES);
    b.r = malloc(2 * MAX_BYTES);
    b.is = malloc(MAX_BYTES);
    b.ir = malloc(MAX_BYTES);
    if (!b.s || !b.r || !b.is || !b.ir)
        MPI_Abort(MPI_COMM_WORLD, 2);

    for (size_t k = 0; k < sizeof benches / sizeof benches[0]; k++) {
        const struct bench *bm = &benches[k];
        if (bm->fixed_np) {
            if (wsize >= bm->fixed_np)
                run(bm, bm->fixed_np, &b);
            continue;
        }
        /* IMB's default: 2, 4, 8, ... and finally all processes */
        for (int np = wsize < 2 ? 1 : 2; ; np *= 2) {
            if (np > wsize)
                np = wsize;
            run(bm, np, &b);
            if (np == wsize)
                break;
        }
    }

    free(b.s);
    free(b.r);
    free(b.is);
    free(b.ir);
    int total = 0;
    MPI_Allreduce(&errs, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (myrank == 0 && total)
        printf("FAILED: %d errors\n", total);
    else if (myrank == 0)
        printf("No errors\n");
    MPI_Finalize();
    return total != 0;
}
