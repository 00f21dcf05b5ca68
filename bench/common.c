/* common.c - see common.h. */
#define _POSIX_C_SOURCE 200809L
#include "common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Cap on calls per point: keeps a 4-byte point from looping for ages when the budget is large. */
#define NB_MAX_ITERS 10000000L
#define NB_BATCHES 5

double nb_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void nb_spin(double seconds)
{
    double end = nb_now() + seconds;
    while (nb_now() < end)
        ;
}

static int parse_one(const char *s, char **end, size_t *v)
{
    unsigned long long n = strtoull(s, end, 10);
    if (*end == s)
        return -1;
    switch (**end) {
    case 'k': case 'K': n <<= 10; (*end)++; break;
    case 'm': case 'M': n <<= 20; (*end)++; break;
    case 'g': case 'G': n <<= 30; (*end)++; break;
    default: break;
    }
    *v = (size_t)n;
    return 0;
}

int nb_parse_sizes(const char *spec, size_t *out, int max)
{
    int n = 0;
    const char *p = spec;
    while (*p) {
        char *end;
        size_t a, b, f = 2;
        if (parse_one(p, &end, &a))
            return -1;
        b = a;
        if (*end == ':') { /* range a:b[:factor] */
            if (parse_one(end + 1, &end, &b))
                return -1;
            if (*end == ':' && parse_one(end + 1, &end, &f))
                return -1;
            if (f < 2 || a == 0)
                return -1;
        }
        for (size_t v = a; v <= b; v *= f) {
            if (n == max)
                return -1;
            out[n++] = v;
            if (v == 0 || v > b / f)
                break;
        }
        if (*end == ',')
            end++;
        else if (*end)
            return -1;
        p = end;
    }
    return n;
}

int nb_selected(const nb_opts *o, const char *name)
{
    if (!o->select)
        return 1;
    size_t len = strlen(name);
    for (const char *p = o->select; *p;) {
        const char *c = strchr(p, ',');
        size_t l = c ? (size_t)(c - p) : strlen(p);
        if (l == len && !strncmp(p, name, len))
            return 1;
        p += l + (c != NULL);
    }
    return 0;
}

void *nb_alloc(size_t bytes)
{
    void *p = NULL;
    long page = sysconf(_SC_PAGESIZE);
    if (bytes == 0)
        bytes = 1;
    if (posix_memalign(&p, page > 0 ? (size_t)page : 4096, bytes)) {
        fprintf(stderr, "nb_alloc: out of memory (%zu bytes)\n", bytes);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    memset(p, 1, bytes);
    return p;
}

void *nb_alloc_offset(size_t bytes, size_t offset)
{
    return (char *)nb_alloc(bytes + offset) + offset;
}

size_t nb_llc_bytes(void)
{
    size_t best = 0;
    int best_level = 0;
    for (int i = 0; i < 16; i++) {
        char path[96];
        int level = 0;
        unsigned long kb = 0;
        FILE *f;
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/level", i);
        if (!(f = fopen(path, "r")))
            break;
        if (fscanf(f, "%d", &level) != 1)
            level = 0;
        fclose(f);
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
        if (!(f = fopen(path, "r")))
            continue;
        if (fscanf(f, "%luK", &kb) != 1)
            kb = 0;
        fclose(f);
        if (level >= best_level && kb > 0) {
            best_level = level;
            best = kb * 1024;
        }
    }
    return best ? best : (size_t)32 << 20;
}

static double run_batch(long n, void (*prep)(void *), void (*fn)(void *), void *ctx)
{
    if (!prep) {
        double t0 = nb_now();
        for (long i = 0; i < n; i++)
            fn(ctx);
        return nb_now() - t0;
    }
    double t = 0;
    for (long i = 0; i < n; i++) {
        prep(ctx);
        double t0 = nb_now();
        fn(ctx);
        t += nb_now() - t0;
    }
    return t;
}

double nb_time(const nb_opts *o, MPI_Comm comm, void (*prep)(void *), void (*fn)(void *),
               void *ctx)
{
    run_batch(2, prep, fn, ctx); /* warm-up: connections, page faults, protocol setup */

    /* Grow the batch until the slowest rank spent an eighth of the budget; every rank sees the
     * same maximum, so every rank picks the same count and collectives stay matched. */
    long n = 1;
    double tmax;
    for (;;) {
        double t = run_batch(n, prep, fn, ctx);
        MPI_Allreduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, comm);
        if (tmax >= o->budget / 8 || n >= NB_MAX_ITERS)
            break;
        n *= 4;
    }
    double want = tmax > 0 ? (double)n * o->budget / tmax : (double)NB_MAX_ITERS;
    long iters = want < 1 ? 1 : want > NB_MAX_ITERS ? NB_MAX_ITERS : (long)want;

    /* The machine is shared: a neighbour's burst can swallow part of a run. Split the run into
     * up to NB_BATCHES batches and keep the median batch, so one burst moves a point little. */
    int nbatch = iters < NB_BATCHES ? (int)iters : NB_BATCHES;
    long per = iters / nbatch;
    double t[NB_BATCHES];
    MPI_Barrier(comm);
    for (int b = 0; b < nbatch; b++)
        t[b] = run_batch(per, prep, fn, ctx) / (double)per;
    for (int i = 1; i < nbatch; i++) /* insertion sort, at most 5 values */
        for (int j = i; j > 0 && t[j] < t[j - 1]; j--) {
            double x = t[j];
            t[j] = t[j - 1];
            t[j - 1] = x;
        }
    return nbatch % 2 ? t[nbatch / 2] : (t[nbatch / 2 - 1] + t[nbatch / 2]) / 2;
}

void nb_waitall(int n, MPI_Request *req)
{
    static MPI_Status *st;
    static int cap;
    if (n > cap) {
        free(st);
        cap = n;
        st = malloc(sizeof(MPI_Status) * (size_t)cap);
    }
    MPI_Waitall(n, req, st);
}

double nb_max(double v, MPI_Comm comm)
{
    double m = v;
    MPI_Reduce(&v, &m, 1, MPI_DOUBLE, MPI_MAX, 0, comm);
    return m;
}

void nb_emit(const nb_opts *o, const char *bench, double x, const char *metric, double value)
{
    if (o->rank != 0)
        return;
    printf("%s,%.10g,%d,%s,%.6g\n", bench, x, o->nranks, metric, value);
    fflush(stdout);
}

static void usage(const char *prog, const char *extra)
{
    fprintf(stderr,
            "usage: %s [-s sizes] [-t budget_s] [-w window] [-m msg_bytes] [-c list] [-a bytes]\n"
            "  -s  sweep, e.g. 4:4M (powers of 2), 4:4M:4 (factor 4), 8,1K,64K\n"
            "  -t  seconds of timed work per point (default 0.1)\n"
            "  -w  messages per window (default 64, seed 001 section 3.1)\n"
            "  -a  receive buffers start this many bytes past a page (latency, bw; default 0)\n"
            "%s",
            prog, extra ? extra : "");
}

void nb_init(int *argc, char ***argv, nb_opts *o, const char *default_sizes, size_t default_msg,
             const char *usage_extra)
{
    MPI_Init(argc, argv);
    memset(o, 0, sizeof *o);
    MPI_Comm_rank(MPI_COMM_WORLD, &o->rank);
    MPI_Comm_size(MPI_COMM_WORLD, &o->nranks);
    o->budget = 0.1;
    o->window = 64;
    o->msg = default_msg;
    const char *sizes = default_sizes;

    int c;
    while ((c = getopt(*argc, *argv, "s:t:w:m:c:a:h")) != -1) {
        switch (c) {
        case 's': sizes = optarg; break;
        case 't': o->budget = atof(optarg); break;
        case 'w': o->window = atoi(optarg); break;
        case 'm': {
            char *end;
            if (parse_one(optarg, &end, &o->msg) || *end)
                goto bad;
            break;
        }
        case 'c': o->select = optarg; break;
        case 'a': {
            char *end;
            if (parse_one(optarg, &end, &o->recv_offset) || *end)
                goto bad;
            break;
        }
        default: goto bad;
        }
    }
    o->nsizes = nb_parse_sizes(sizes, o->sizes, NB_MAX_SIZES);
    if (o->nsizes <= 0 || o->budget <= 0 || o->window < 1)
        goto bad;
    if (o->rank == 0)
        printf("benchmark,x,ranks,metric,value\n");
    return;
bad:
    if (o->rank == 0)
        usage((*argv)[0], usage_extra);
    MPI_Finalize();
    exit(2);
}

void nb_finalize(void)
{
    MPI_Finalize();
}

void nb_require_ranks(const nb_opts *o, int n, const char *bench)
{
    if (o->nranks >= n)
        return;
    fprintf(stderr, "%s: needs at least %d ranks\n", bench, n);
    MPI_Abort(MPI_COMM_WORLD, 2);
}
