/* osu_like.c - an OSU-micro-benchmark-style driver (latency, bandwidth, bidirectional bandwidth
 * and multi-pair latency in one program): getopt option parsing on rank 0 broadcast to all,
 * warm-up iterations, MPI_Wtime loops, MPI_Reduce of per-pair timings, and validation of every
 * message received (as OSU's -c option does). Needs >= 2 ranks: the single-pair tests use
 * ranks 0 and 1 while the others wait; multi-latency pairs rank i with i + n/2.
 * Options: -t lat,bw,bibw,mlat  -m min:max  -i iters  -x warmup  -W window  -f factor */
#define _POSIX_C_SOURCE 200809L
#include <mpi.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
    int n = snprintf(msg, sizeof msg, "FAIL osu_like.c:%d rank %d: ", line, myrank);
    va_start(ap, fmt);
    vsnprintf(msg + n, sizeof msg - (size_t)n, fmt, ap);
    va_end(ap);
    fprintf(stderr, "%s\n", msg);
}
#define CHECK(c, ...) do { if (!(c)) fail(__LINE__, __VA_ARGS__); } while (0)

enum { T_LAT = 1, T_BW = 2, T_BIBW = 4, T_MLAT = 8 };
struct options { int tests, min_size, max_size, iters, warmup, window, factor, bad; };

static void usage(void)
{
    fprintf(stderr, "usage: osu_like [-t lat,bw,bibw,mlat] [-m min:max] [-i iters] [-x warmup]"
                    " [-W window] [-f factor]\n");
}

static int parse_tests(const char *s)
{
    int t = 0;
    char buf[128];
    snprintf(buf, sizeof buf, "%s", s);
    for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
        if (!strcmp(tok, "lat")) t |= T_LAT;
        else if (!strcmp(tok, "bw")) t |= T_BW;
        else if (!strcmp(tok, "bibw")) t |= T_BIBW;
        else if (!strcmp(tok, "mlat")) t |= T_MLAT;
        else return -1;
    }
    return t;
}

static void parse_options(int argc, char **argv, struct options *o)
{
    int c;
    o->tests = T_LAT | T_BW | T_BIBW | T_MLAT;
    o->min_size = 0;
    o->max_size = 1 << 18;
    o->iters = 40;
    o->warmup = 5;
    o->window = 8;
    o->factor = 4;
    o->bad = 0;
    while ((c = getopt(argc, argv, "t:m:i:x:W:f:h")) != -1) {
        switch (c) {
        case 't': o->tests = parse_tests(optarg); if (o->tests <= 0) o->bad = 1; break;
        case 'm':
            if (strchr(optarg, ':')) {
                if (sscanf(optarg, "%d:%d", &o->min_size, &o->max_size) != 2) o->bad = 1;
            } else {
                o->max_size = atoi(optarg);
            }
            break;
        case 'i': o->iters = atoi(optarg); break;
        case 'x': o->warmup = atoi(optarg); break;
        case 'W': o->window = atoi(optarg); break;
        case 'f': o->factor = atoi(optarg); break;
        default: o->bad = 1; break;
        }
    }
    if (o->min_size < 0 || o->max_size < o->min_size || o->iters < 1 || o->warmup < 0 ||
        o->window < 1 || o->factor < 2)
        o->bad = 1;
}

/* Message pattern: depends on size, iteration and direction so stale data is caught. */
static unsigned char pat(int size, int iter, int dir, int i)
{
    return (unsigned char)(i * 7 + iter * 13 + size + dir * 101);
}
static void fill(unsigned char *b, int size, int iter, int dir)
{
    for (int i = 0; i < size; i++)
        b[i] = pat(size, iter, dir, i);
}
static int verify(const unsigned char *b, int size, int iter, int dir)
{
    for (int i = 0; i < size; i++)
        if (b[i] != pat(size, iter, dir, i)) {
            fail(__LINE__, "size %d iter %d dir %d: byte %d is %d, expected %d", size, iter, dir,
                 i, b[i], pat(size, iter, dir, i));
            return 0;
        }
    return 1;
}

static int next_size(int s, const struct options *o)
{
    return s == 0 ? 1 : s * o->factor;
}
static int iters_for(int size, const struct options *o)
{
    return size > 8192 ? (o->iters + 4) / 5 : o->iters;
}
static int warmup_for(int size, const struct options *o)
{
    return size > 8192 ? (o->warmup + 4) / 5 : o->warmup;
}

/* Ping-pong between me and peer; returns one-way latency in microseconds. */
static double pingpong(MPI_Comm comm, int peer, int first, int size, const struct options *o,
                       unsigned char *sbuf, unsigned char *rbuf)
{
    int n = iters_for(size, o), w = warmup_for(size, o);
    double t0 = 0.0;
    for (int i = 0; i < n + w; i++) {
        if (i == w)
            t0 = MPI_Wtime();
        if (first) {
            fill(sbuf, size, i, 0);
            MPI_Send(sbuf, size, MPI_CHAR, peer, 1, comm);
            MPI_Recv(rbuf, size, MPI_CHAR, peer, 1, comm, MPI_STATUS_IGNORE);
            if (!verify(rbuf, size, i, 1))
                break;
        } else {
            MPI_Recv(rbuf, size, MPI_CHAR, peer, 1, comm, MPI_STATUS_IGNORE);
            if (!verify(rbuf, size, i, 0))
                break;
            fill(sbuf, size, i, 1);
            MPI_Send(sbuf, size, MPI_CHAR, peer, 1, comm);
        }
    }
    return (MPI_Wtime() - t0) * 1e6 / (2.0 * n);
}

/* Windowed streaming (bw) or both directions at once (bibw); returns MB/s seen by `first`. */
static double stream(MPI_Comm comm, int peer, int first, int size, int bidir,
                     const struct options *o, unsigned char *sbuf, unsigned char *rbuf)
{
    int n = iters_for(size, o), w = warmup_for(size, o), win = o->window;
    MPI_Request req[2 * 64];
    double t0 = 0.0;
    if (win > 64)
        win = 64;
    for (int i = 0; i < n + w; i++) {
        int nreq = 0;
        if (i == w)
            t0 = MPI_Wtime();
        if (!first || bidir)
            for (int k = 0; k < win; k++)
                MPI_Irecv(rbuf + (size_t)k * size, size, MPI_CHAR, peer, 100 + k, comm,
                          &req[nreq++]);
        if (first || bidir)
            for (int k = 0; k < win; k++) {
                fill(sbuf + (size_t)k * size, size, i * 64 + k, first);
                MPI_Isend(sbuf + (size_t)k * size, size, MPI_CHAR, peer, 100 + k, comm,
                          &req[nreq++]);
            }
        MPI_Waitall(nreq, req, MPI_STATUSES_IGNORE);
        if (!first || bidir)
            for (int k = 0; k < win; k++)
                if (!verify(rbuf + (size_t)k * size, size, i * 64 + k, !first))
                    break;
        if (!bidir) { /* the receiver acknowledges each window */
            int ack = i;
            if (first) {
                MPI_Recv(&ack, 1, MPI_INT, peer, 99, comm, MPI_STATUS_IGNORE);
                CHECK(ack == i, "bw ack %d, expected %d", ack, i);
            } else {
                MPI_Send(&ack, 1, MPI_INT, peer, 99, comm);
            }
        }
    }
    double t = MPI_Wtime() - t0;
    double bytes = (double)size * win * n * (bidir ? 2 : 1);
    return t > 0 ? bytes / t / 1e6 : 0.0;
}

int main(int argc, char **argv)
{
    int nprocs;
    struct options o;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &myrank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);

    /* rank 0 parses and broadcasts, as most drivers do */
    if (myrank == 0)
        parse_options(argc, argv, &o);
    MPI_Bcast(&o, (int)(sizeof o / sizeof(int)), MPI_INT, 0, MPI_COMM_WORLD);
    if (o.bad) {
        if (myrank == 0)
            usage();
        MPI_Finalize();
        return 1;
    }
    if (myrank == 0) { /* the header OSU-like tools print */
        char name[MPI_MAX_PROCESSOR_NAME], lib[MPI_MAX_LIBRARY_VERSION_STRING];
        int len = 0, llen = 0, ver = 0, sub = 0;
        MPI_Get_processor_name(name, &len);
        MPI_Get_library_version(lib, &llen);
        MPI_Get_version(&ver, &sub);
        CHECK(len > 0 && len == (int)strlen(name) && llen > 0 && ver >= 3,
              "processor name length %d, library version length %d, MPI %d.%d", len, llen, ver,
              sub);
        printf("# %s, MPI %d.%d, %d processes on %s\n", strtok(lib, "\n"), ver, sub, nprocs,
               name);
    }
    if (nprocs < 2) {
        if (myrank == 0)
            fprintf(stderr, "osu_like: this test requires at least two processes\n");
        MPI_Finalize();
        return 1;
    }

    size_t bufsize = (size_t)o.max_size * (o.window > 64 ? 64 : o.window) + 1;
    unsigned char *sbuf = malloc(bufsize), *rbuf = malloc(bufsize);
    if (!sbuf || !rbuf)
        MPI_Abort(MPI_COMM_WORLD, 2);

    static const struct { int flag, bidir; const char *title, *unit; } tests[] = {
        {T_LAT, 0, "Latency Test", "Latency (us)"},
        {T_BW, 0, "Bandwidth Test", "Bandwidth (MB/s)"},
        {T_BIBW, 1, "Bi-Directional Bandwidth Test", "Bandwidth (MB/s)"},
    };
    for (int t = 0; t < 3; t++) {
        if (!(o.tests & tests[t].flag))
            continue;
        if (myrank == 0)
            printf("# OSU-like MPI %s\n# Size %20s\n", tests[t].title, tests[t].unit);
        for (int size = o.min_size; size <= o.max_size; size = next_size(size, &o)) {
            MPI_Barrier(MPI_COMM_WORLD);
            if (myrank > 1)
                continue;
            double v = tests[t].flag == T_LAT
                           ? pingpong(MPI_COMM_WORLD, 1 - myrank, myrank == 0, size, &o, sbuf,
                                      rbuf)
                           : stream(MPI_COMM_WORLD, 1 - myrank, myrank == 0, size,
                                    tests[t].bidir, &o, sbuf, rbuf);
            CHECK(v >= 0.0, "negative measurement %g at size %d", v, size);
            if (myrank == 0)
                printf("%-10d%18.2f\n", size, v);
        }
    }

    if (o.tests & T_MLAT) {
        int pairs = nprocs / 2;
        int active = myrank < 2 * pairs;
        int peer = myrank < pairs ? myrank + pairs : myrank - pairs;
        if (myrank == 0)
            printf("# OSU-like MPI Multi Latency Test (%d pairs)\n# Size %20s %12s %12s\n",
                   pairs, "Avg Latency(us)", "Min", "Max");
        for (int size = o.min_size; size <= o.max_size; size = next_size(size, &o)) {
            double lat = 0.0, sum = 0.0, mn = 0.0, mx = 0.0, in;
            MPI_Barrier(MPI_COMM_WORLD);
            if (active)
                lat = pingpong(MPI_COMM_WORLD, peer, myrank < pairs, size, &o, sbuf, rbuf);
            MPI_Reduce(&lat, &sum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
            in = active ? lat : 1e300;
            MPI_Reduce(&in, &mn, 1, MPI_DOUBLE, MPI_MIN, 0, MPI_COMM_WORLD);
            MPI_Reduce(&lat, &mx, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
            if (myrank == 0) {
                double avg = sum / (2 * pairs);
                CHECK(mn <= avg * (1 + 1e-9) && avg <= mx * (1 + 1e-9) && mn > 0.0,
                      "reduced timings inconsistent: min %g avg %g max %g", mn, avg, mx);
                printf("%-10d%18.2f %12.2f %12.2f\n", size, avg, mn, mx);
            }
        }
    }

    free(sbuf);
    free(rbuf);
    int total = 0;
    MPI_Allreduce(&errs, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (myrank == 0 && total)
        printf("FAILED: %d errors\n", total);
    else if (myrank == 0)
        printf("No errors\n");
    MPI_Finalize();
    return total != 0;
}
