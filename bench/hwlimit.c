/* hwlimit.c - the hardware limit, no MPI: (1) one-way cache-line transfer latency between two
 * cores: two threads pinned to the first two allowed CPUs ping-pong a counter in one 64-byte
 * line; one-way = round trip / 2, median and minimum of 1000-round-trip batches. (2) memcpy
 * bandwidth at each size, source and destination hot in cache: a message must cross once and
 * be copied at least once, so these bound what any intra-node MPI can reach. (3) for reference,
 * cross-core copy: core 0 writes a buffer, core 1 copies it out (median time of the copy
 * alone), the best a single-copy receiver can do with a message its sender just produced.
 * (4) -c shortdist: memcpy with the destination 16 bytes past the source modulo 4 KiB, where
 * glibc's `rep movsb` is slow on this machine (src/shm/copy.h).
 * (5) -c mechanism: what a message queue's handshake costs before any MPI software, one-way, as
 * (1) but each wait step a pause (as nodempi's spin loops): "line_pause" ping-pongs one line;
 * "cells" sends each way through its own 16 rotating 128-byte cells (nodempi's fastbox
 * layout: the request and the answer on different lines), an 8-byte payload and a 32-byte
 * header per message. (1)'s loop has no pause, as the floor bench/compare reports.
 * (6) -c memcpy_window: memcpy of each size from one source into 64 destinations in turn, the
 * working set of bench/bw's window of 64 receive buffers (from 1 MiB that is DRAM, not cache):
 * what a copy of that size costs where windowed bandwidth moves its data. (2) is the in-cache
 * figure, which only OSU's one receive buffer keeps.
 * Output: cacheline,64,2,{oneway_ns,oneway_min_ns},v  memcpy,<bytes>,1,MBps,v
 *         xcopy,<bytes>,2,MBps,v  memcpy_shortdist,<bytes>,1,MBps,v
 *         mechanism,64,2,{line_pause_ns,cells_ns},v  memcpy_window,<bytes>,1,MBps,v */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define BATCH 1000
#define MAXB 4096

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The line the two cores fight over; 128-byte alignment keeps the adjacent-line prefetcher off
 * anything else. Odd values are pings from the main thread, even ones pongs, 0 stops. */
static _Alignas(128) _Atomic unsigned long line = 2;
static int cpus[2];

static void pin(int cpu)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    pthread_setaffinity_np(pthread_self(), sizeof set, &set);
}

/* Start fn on the second CPU from the outset: under a real-time policy (bench/compare --rt) a
 * thread created on the first CPU, where the main thread spins, would never run to move. */
static void start_on_second_cpu(pthread_t *t, void *(*fn)(void *), void *arg)
{
    pthread_attr_t attr;
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpus[1], &set);
    pthread_attr_init(&attr);
    pthread_attr_setaffinity_np(&attr, sizeof set, &set);
    pthread_create(t, &attr, fn, arg);
    pthread_attr_destroy(&attr);
}

static void *ponger(void *arg)
{
    (void)arg;
    pin(cpus[1]);
    for (unsigned long expect = 3;; expect += 2) {
        unsigned long v;
        while ((v = atomic_load_explicit(&line, memory_order_acquire)) != expect && v != 0)
            ;
        if (v == 0)
            return NULL;
        atomic_store_explicit(&line, v + 1, memory_order_release);
    }
}

static void cacheline(double budget)
{
    pthread_t t;
    static double batch[MAXB];
    int nb = 0;
    unsigned long v = 1;
    pin(cpus[0]);
    start_on_second_cpu(&t, ponger, NULL);
    double end = now() + budget;
    /* At least a few timed batches even past the budget: on a loaded machine the warm-up
     * batch alone can outlast it while the ponger waits for a CPU, and no figure at all
     * breaks the callers (bench/ab tags every run by it). */
    for (int warm = 1; nb < MAXB && (now() < end || nb < 3); warm = 0) {
        double t0 = now();
        for (int i = 0; i < BATCH; i++) {
            v += 2;
            atomic_store_explicit(&line, v, memory_order_release);
            while (atomic_load_explicit(&line, memory_order_acquire) != v + 1)
                ;
        }
        if (!warm)
            batch[nb++] = (now() - t0) / BATCH / 2 * 1e9;
    }
    atomic_store(&line, 0);
    pthread_join(t, NULL);
    if (nb == 0)
        return;
    qsort(batch, (size_t)nb, sizeof batch[0], cmp);
    printf("cacheline,64,2,oneway_ns,%.4g\n", batch[nb / 2]);
    printf("cacheline,64,2,oneway_min_ns,%.4g\n", batch[0]);
}

/* Page-aligned, so that two buffers lie a multiple of 4 KiB apart: glibc's memcpy is ~20x slower
 * on this machine when the destination is 1-31 bytes past the source modulo 4 KiB (see
 * shortdist), which two plain malloc()s of one size below the mmap threshold are. */
static char *page_alloc(size_t bytes)
{
    void *p = NULL;
    if (posix_memalign(&p, 4096, bytes ? bytes : 1)) {
        fprintf(stderr, "hwlimit: out of memory (%zu bytes)\n", bytes);
        exit(1);
    }
    return p;
}

enum { WINDOW = 64 }; /* bench/bw's window */

/* reps copies of s bytes, copy r into destination r % window (window 1: the same one). */
static double copy_batch(char *dst, const char *src, size_t s, long reps, int window)
{
    double t0 = now();
    for (long r = 0; r < reps; r++) {
        memcpy(dst + (size_t)(r % window) * s, src, s);
        __asm__ volatile("" ::: "memory"); /* keep every copy */
    }
    return now() - t0;
}

/* memcpy bandwidth at each size, destination distance bytes past the source modulo 4 KiB,
 * into window destinations in turn: window 1 keeps source and destination in cache; WINDOW is
 * bench/bw's receive-side working set (a destination reused only after WINDOW * size bytes).
 * The destinations are written once first (no page faults in the timing). */
static void memcpy_bw(const size_t *sizes, int n, double budget, size_t distance, int window,
                      const char *name)
{
    size_t max = sizes[n - 1], span = max * (size_t)window + 4096;
    char *src = page_alloc(max), *block = page_alloc(span), *dst = block + distance;
    memset(src, 1, max);
    memset(block, 2, span);
    pin(cpus[0]);
    for (int i = 0; i < n; i++) {
        size_t s = sizes[i];
        double res[5];
        long reps = window;
        /* calibrate to a fiftieth of the budget per batch, whole windows */
        while (copy_batch(dst, src, s, reps, window) <= budget / 50 && reps <= (1L << 30))
            reps *= 2;
        for (int b = 0; b < 5; b++)
            res[b] = (double)s * (double)reps / copy_batch(dst, src, s, reps, window) / 1e6;
        qsort(res, 5, sizeof res[0], cmp);
        printf("%s,%zu,1,MBps,%.6g\n", name, s, res[2]);
    }
    free(src);
    free(block);
}

typedef struct {
    char *src, *dst;
    size_t size;
    long rounds;
    double *t; /* per-round copy times; the median shrugs off a preempted round */
} xc_t;

/* Odd: core 0 has written round r's buffer; even: core 1 has copied it. */
static _Alignas(128) _Atomic long turn;

static void *copier(void *arg)
{
    xc_t *x = arg;
    pin(cpus[1]);
    for (long r = 0; r < x->rounds; r++) {
        while (atomic_load_explicit(&turn, memory_order_acquire) != 2 * r + 1)
            ;
        double t0 = now();
        memcpy(x->dst, x->src, x->size);
        __asm__ volatile("" ::: "memory");
        x->t[r] = now() - t0;
        atomic_store_explicit(&turn, 2 * r + 2, memory_order_release);
    }
    return NULL;
}

static void xcopy(const size_t *sizes, int n, double budget)
{
    size_t max = sizes[n - 1];
    xc_t x = {page_alloc(max), page_alloc(max), 0, 0, malloc(20000 * sizeof(double))};
    memset(x.dst, 2, max);
    pin(cpus[0]);
    for (int i = 0; i < n; i++) {
        pthread_t t;
        x.size = sizes[i];
        /* rounds: about a quarter of the budget at ~5 GB/s plus ~0.5 us per round trip */
        double est = (double)x.size / 5e9 + 5e-7;
        x.rounds = (long)(budget / 4 / est);
        x.rounds = x.rounds < 10 ? 10 : x.rounds > 20000 ? 20000 : x.rounds;
        atomic_store(&turn, 0);
        start_on_second_cpu(&t, copier, &x);
        for (long r = 0; r < x.rounds; r++) {
            memset(x.src, (int)(r & 0x7f) + 1, x.size); /* dirty in core 0's cache */
            atomic_store_explicit(&turn, 2 * r + 1, memory_order_release);
            while (atomic_load_explicit(&turn, memory_order_acquire) != 2 * r + 2)
                ;
        }
        pthread_join(t, NULL);
        qsort(x.t, (size_t)x.rounds, sizeof x.t[0], cmp);
        printf("xcopy,%zu,2,MBps,%.6g\n", x.size, (double)x.size / x.t[x.rounds / 2] / 1e6);
    }
    free(x.t);
    free(x.src);
    free(x.dst);
}

static size_t parse(const char *s, char **end)
{
    size_t v = strtoull(s, end, 10);
    switch (**end) {
    case 'K': case 'k': v <<= 10; (*end)++; break;
    case 'M': case 'm': v <<= 20; (*end)++; break;
    default: break;
    }
    return v;
}

/* (5): one 128-byte cell per message, 16 per direction, as nodempi's fastbox. */
enum { MECH_CELLS = 16 };
struct mech_cell {
    _Alignas(128) _Atomic unsigned long word; /* the message's number + 1: its publication */
    int tag, context, src, size;
    unsigned long pad;
    char payload[8];
};
static struct mech_cell mech_box[2][MECH_CELLS];
static int mech_cells; /* 0: line_pause (one line, `line` above), 1: cells */
static long mech_rounds;

static void relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

static void mech_send(int dir, unsigned long n)
{
    struct mech_cell *c = &mech_box[dir][n % MECH_CELLS];
    c->tag = 1;
    c->context = 2;
    c->src = dir;
    c->size = 8;
    memcpy(c->payload, "payload", 8);
    atomic_store_explicit(&c->word, n + 1, memory_order_release);
}

static void mech_recv(int dir, unsigned long n, char *out)
{
    struct mech_cell *c = &mech_box[dir][n % MECH_CELLS];
    while (atomic_load_explicit(&c->word, memory_order_acquire) != n + 1)
        relax();
    memcpy(out, c->payload, 8);
}

static void *mech_ponger(void *arg)
{
    (void)arg;
    pin(cpus[1]);
    char buf[8];
    for (unsigned long n = 0; n < (unsigned long)mech_rounds; n++) {
        if (mech_cells) {
            mech_recv(0, n, buf);
            mech_send(1, n);
        } else {
            while (atomic_load_explicit(&line, memory_order_acquire) != 2 * n + 1)
                relax();
            atomic_store_explicit(&line, 2 * n + 2, memory_order_release);
        }
    }
    return NULL;
}

/* Median one-way ns of batches of BATCH round trips over mech_rounds in all. */
static double mechanism_run(int cells, double budget)
{
    static double batch[MAXB];
    /* a round trip takes 60-600 ns here: size the run from the budget at the slow end */
    long batches = (long)(budget / (BATCH * 600e-9)) + 3;
    if (batches > MAXB)
        batches = MAXB;
    mech_cells = cells;
    mech_rounds = batches * BATCH;
    memset(mech_box, 0, sizeof mech_box);
    atomic_store(&line, 0);
    pthread_t t;
    pin(cpus[0]);
    start_on_second_cpu(&t, mech_ponger, NULL);
    char buf[8];
    unsigned long n = 0;
    for (long b = 0; b < batches; b++) {
        double t0 = now();
        for (int i = 0; i < BATCH; i++, n++) {
            if (cells) {
                mech_send(0, n);
                mech_recv(1, n, buf);
            } else {
                atomic_store_explicit(&line, 2 * n + 1, memory_order_release);
                while (atomic_load_explicit(&line, memory_order_acquire) != 2 * n + 2)
                    relax();
            }
        }
        batch[b] = (now() - t0) / BATCH / 2 * 1e9;
    }
    pthread_join(t, NULL);
    atomic_store(&line, 2);
    qsort(batch + 1, (size_t)batches - 1, sizeof batch[0], cmp); /* batch 0 warms up */
    return batch[1 + (batches - 1) / 2];
}

static void mechanism(double budget)
{
    printf("mechanism,64,2,line_pause_ns,%.4g\n", mechanism_run(0, budget / 2));
    printf("mechanism,64,2,cells_ns,%.4g\n", mechanism_run(1, budget / 2));
}

/* Is name one of the comma-separated items of list? */
static int selected(const char *list, const char *name)
{
    size_t len = strlen(name);
    for (const char *p = list; p; p = strchr(p, ',')) {
        if (*p == ',')
            p++;
        if (!strncmp(p, name, len) && (p[len] == ',' || p[len] == '\0'))
            return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    const char *spec = "1:4M", *what = "cacheline,memcpy,xcopy";
    double budget = 0.2;
    int c;
    while ((c = getopt(argc, argv, "s:t:c:")) != -1) {
        if (c == 's') spec = optarg;
        else if (c == 't') budget = atof(optarg);
        else if (c == 'c') what = optarg;
        else {
            fprintf(stderr, "usage: %s [-s 1:4M|8,1K,..] [-t budget_s] [-c cacheline,memcpy,xcopy,shortdist,mechanism,memcpy_window]\n",
                    argv[0]);
            return 2;
        }
    }
    size_t sizes[64];
    int n = 0;
    for (char *p = (char *)spec, *end; *p && n < 64; p = *end ? end + 1 : end) {
        size_t a = parse(p, &end), b = a;
        if (*end == ':')
            b = parse(end + 1, &end);
        for (size_t v = a ? a : 1; v <= b && n < 64; v *= 2)
            sizes[n++] = v;
        if (a == 0 && b == 0)
            sizes[n++] = 0;
    }

    cpu_set_t set;
    sched_getaffinity(0, sizeof set, &set);
    int k = 0;
    for (int i = 0; i < CPU_SETSIZE && k < 2; i++)
        if (CPU_ISSET(i, &set))
            cpus[k++] = i;
    printf("benchmark,x,ranks,metric,value\n");
    if (selected(what, "cacheline")) {
        if (k < 2)
            fprintf(stderr, "hwlimit: only one CPU allowed, no cache-line latency\n");
        else
            cacheline(budget);
    }
    if (selected(what, "mechanism")) {
        if (k < 2)
            fprintf(stderr, "hwlimit: only one CPU allowed, no queue mechanism\n");
        else
            mechanism(budget);
    }
    if (selected(what, "memcpy") && n > 0)
        memcpy_bw(sizes, n, budget, 0, 1, "memcpy");
    if (selected(what, "memcpy_window") && n > 0)
        memcpy_bw(sizes, n, budget, 0, WINDOW, "memcpy_window");
    if (selected(what, "shortdist") && n > 0)
        memcpy_bw(sizes, n, budget, 16, 1, "memcpy_shortdist");
    if (selected(what, "xcopy") && n > 0 && k == 2)
        xcopy(sizes, n, budget);
    return 0;
}
