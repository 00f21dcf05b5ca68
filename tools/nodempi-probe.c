/* nodempi-probe - measures what hwloc cannot tell about this machine and writes the profile the
 * runtime reads (src/topo/profile.h): (a) core-to-core one-way cache-line latency, (b) memcpy
 * bandwidth by size, (c) pipelined two-copy vs single-copy (process_vm_readv) bandwidth by size
 * for each distance class present, and from it the single-copy threshold per class, (d) cache
 * sizes by a Servet-style latency-vs-working-set chase (seed 003), (e) memory contention.
 * Usage: nodempi-probe [--quick] [--write | --out FILE] [--no-caches] [--rt]
 * Pins its threads and processes; run it on an otherwise idle machine for stable numbers. */
#include <errno.h>
#include <math.h>
#if defined(__x86_64__)
#include <emmintrin.h>
#endif
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/config.h"
#include "shm/segment.h"
#include "topo/hardware.h"
#include "topo/profile.h"

#define CACHE_LINE 64
#define MAX_SIZES 20
#define MIN_SIZE ((size_t)1 << 10)
#define MAX_SIZE ((size_t)64 << 20)
/* Single copy counts this much slower than measured when choosing the threshold: near-ties go
 * to the pipelined copy, which tolerates a late receiver (seed 001 §3.4) and needs no system
 * call. */
#define CMA_WIN_MARGIN 1.05

struct probe_options {
    int quick;
    int caches;           /* run the working-set chase (d) */
    int realtime;         /* run under SCHED_FIFO (--rt) */
    const char *out_path; /* NULL: print only */
    int runs;             /* latency runs per pair */
    int round_trips;      /* per latency run */
    double point_ms;      /* measuring time per bandwidth point */
    int reps;             /* repetitions per bandwidth point (best is kept) */
    int size_step;        /* size multiplier between points: 2 or 4 */
    int transport;        /* (f): measure the library's own path through mpiexec */
};

static double now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static int pin_to(int cpu)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    return sched_setaffinity(0, sizeof(set), &set);
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void *map_buffer(size_t bytes)
{
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) {
        perror("nodempi-probe: mmap");
        exit(1);
    }
    memset(p, 1, bytes); /* fault every page in before timing */
    return p;
}

static const char *size_label(size_t bytes, char *buf, size_t len)
{
    if (bytes >= ((size_t)1 << 20))
        snprintf(buf, len, "%zuM", bytes >> 20);
    else
        snprintf(buf, len, "%zuK", bytes >> 10);
    return buf;
}

/* ---- (a) core-to-core latency --------------------------------------------------------------
 * Two threads pinned to CPUs a and b take turns incrementing one counter alone on its cache
 * line: each increment waits for the other's, so a round trip is two line transfers and the
 * one-way latency is half of it. On one CPU the turn passes by sched_yield: that measures the
 * hand-off between two ranks time-sharing a core. */
struct pingpong {
    _Alignas(CACHE_LINE) _Atomic uint64_t turn;
    char pad[CACHE_LINE - sizeof(uint64_t)];
    int cpu, yield;
};

#define PINGPONG_STOP UINT64_MAX

/* A waiter spins, but yields at once on a shared CPU and after a few microseconds otherwise:
 * when other processes run, a partner that lost its CPU gets it back sooner. On an idle
 * machine the yield returns immediately and costs one system call. */
#define SPINS_BEFORE_YIELD 4096

static void backoff(unsigned *spins, int yield)
{
    if (yield || ++*spins > SPINS_BEFORE_YIELD)
        sched_yield();
}

/* The partner answers every odd value with the next even one until told to stop. */
static void *pingpong_partner(void *arg)
{
    struct pingpong *pp = arg;
    pin_to(pp->cpu);
    unsigned spins = 0;
    for (uint64_t answered = 0;;) {
        uint64_t v = atomic_load_explicit(&pp->turn, memory_order_acquire);
        if (v == PINGPONG_STOP)
            return NULL;
        if ((v & 1) && v > answered) {
            atomic_store_explicit(&pp->turn, v + 1, memory_order_release);
            answered = v;
            spins = 0;
        } else {
            backoff(&spins, pp->yield);
        }
    }
}

static void pingpong_wait(struct pingpong *pp, uint64_t value)
{
    unsigned spins = 0;
    while (atomic_load_explicit(&pp->turn, memory_order_acquire) != value)
        backoff(&spins, pp->yield);
}

/* One run: mean one-way latency in ns over up to round_trips round trips, fewer when a run
 * takes over 20 ms (a busy machine preempts the partner: the median over runs copes). */
static double pingpong_run(int cpu_a, int cpu_b, int round_trips)
{
    static struct pingpong pp;
    atomic_store(&pp.turn, 0);
    pp.cpu = cpu_b;
    pp.yield = cpu_a == cpu_b;
    pin_to(cpu_a);
    pthread_t partner;
    if (pthread_create(&partner, NULL, pingpong_partner, &pp) != 0)
        return 0;
    /* One warm-up round trip: the partner is running and pinned before timing starts. */
    atomic_store_explicit(&pp.turn, 1, memory_order_release);
    pingpong_wait(&pp, 2);
    double start = now_ns(), elapsed = 0;
    uint64_t done = 0;
    while (done < (uint64_t)round_trips && ((done & 63) || elapsed < 20e6)) {
        atomic_store_explicit(&pp.turn, 2 * done + 3, memory_order_release);
        pingpong_wait(&pp, 2 * done + 4);
        done++;
        if ((done & 63) == 0)
            elapsed = now_ns() - start;
    }
    elapsed = now_ns() - start;
    atomic_store_explicit(&pp.turn, PINGPONG_STOP, memory_order_release);
    pthread_join(partner, NULL);
    return elapsed / (2.0 * (double)done);
}

struct latency { double min, median, max; };

static struct latency measure_latency(int cpu_a, int cpu_b, const struct probe_options *o)
{
    double samples[128];
    int runs = o->runs < 128 ? o->runs : 128;
    /* Same-CPU hand-offs cost microseconds: fewer round trips give the same precision. */
    int trips = cpu_a == cpu_b ? o->round_trips / 10 + 2 : o->round_trips;
    for (int r = 0; r < runs; r++)
        samples[r] = pingpong_run(cpu_a, cpu_b, trips);
    qsort(samples, (size_t)runs, sizeof(double), compare_doubles);
    return (struct latency){samples[0], samples[runs / 2], samples[runs - 1]};
}

/* The matrix for up to 16 CPUs; beyond that only one pair per class (a full matrix would take
 * minutes). Fills the latency of each class into the profile: median of the pairs' medians. */
static void probe_latency(const struct probe_options *o, struct topo_profile *p)
{
    int limit = topo_hw_cpu_limit(), full = topo_hw_pus() <= 16;
    printf("\n(a) one-way cache-line latency, ns: median [min-max] of %d runs x %d round trips"
           "\n    (same CPU: hand-off by sched_yield between two threads)\n", o->runs,
           o->round_trips);
    double medians[TOPO_DISTANCE_CLASSES][64];
    int count[TOPO_DISTANCE_CLASSES] = {0};
    for (int a = 0; a < limit; a++) {
        for (int b = a; b < limit; b++) {
            enum topo_distance d = topo_distance_between_cpus(a, b);
            int ea, eb;
            if (d == TOPO_UNKNOWN || (!full && (topo_distance_example(d, &ea, &eb) != 0 ||
                                                ea != a || eb != b)))
                continue;
            if (a == b && a != 0) /* the same-CPU hand-off is the same on every CPU */
                continue;
            struct latency l = measure_latency(a, b, o);
            printf("    cpu %d - cpu %d  %-10s %8.0f [%.0f-%.0f]\n", a, b,
                   topo_distance_name(d), l.median, l.min, l.max);
            struct topo_profile_class *c = &p->cls[d];
            if (count[d] == 0 || l.min < c->latency_min_ns)
                c->latency_min_ns = l.min;
            if (l.max > c->latency_max_ns)
                c->latency_max_ns = l.max;
            if (count[d] < 64)
                medians[d][count[d]++] = l.median;
        }
    }
    for (int d = 0; d < TOPO_DISTANCE_CLASSES; d++) {
        if (count[d] == 0)
            continue;
        qsort(medians[d], (size_t)count[d], sizeof(double), compare_doubles);
        p->cls[d].latency_ns = medians[d][count[d] / 2];
    }
}

/* ---- (b) memcpy on one core ----------------------------------------------------------------*/

/* Copy rate in GB/s (bytes copied per ns) of the fastest batch of copies during
 * reps x point_ms; small sizes are timed in batches of 64 KiB so the clock read does not
 * dominate. */
static double memcpy_gbps(char *dst, const char *src, size_t bytes, const struct probe_options *o)
{
    size_t batch = bytes < 65536 ? 65536 / bytes : 1;
    double fastest = 0, start = now_ns(), budget = o->reps * o->point_ms * 1e6;
    memcpy(dst, src, bytes);
    for (long count = 0; count < 3 || now_ns() - start < budget; count++) {
        double t = now_ns();
        for (size_t i = 0; i < batch; i++) {
            memcpy(dst, src, bytes);
            __asm__ volatile("" ::: "memory"); /* keep every copy */
        }
        t = now_ns() - t;
        if (fastest == 0 || t < fastest)
            fastest = t;
    }
    return (double)(bytes * batch) / fastest;
}

/* ---- (c) pipelined two-copy vs single copy between two processes ---------------------------
 * The parent (sender, CPU a) and a forked child (receiver, CPU b) share one channel. Two-copy:
 * the sender copies the message chunk by chunk into a ring of the library's size (a 2-rank
 * job's pair ring, NODEMPI_PIPELINE_CHUNK chunks) while the receiver copies chunks out, as
 * the pipelined rendezvous does. Single copy: the sender publishes its buffer and the receiver
 * pulls it with one process_vm_readv. Both end with the receiver's acknowledgement, so a
 * message's time is what a rendezvous send costs. The two-copy runs twice: with memcpy into the
 * ring, and with streaming (non-temporal) stores, which write whole lines without first
 * fetching them from the receiver's cache: when the two CPUs sit far apart (a VM whose vCPUs
 * the host placed on different core complexes) that is several times faster. */
enum copy_method { COPY_TWO, COPY_TWO_STREAM, COPY_CMA, COPY_EXIT };

struct copy_channel {
    _Alignas(CACHE_LINE) _Atomic uint64_t seq;  /* messages published by the sender */
    _Alignas(CACHE_LINE) _Atomic uint64_t ack;  /* messages the receiver finished */
    _Alignas(CACHE_LINE) _Atomic uint64_t head; /* chunks written into the ring */
    _Alignas(CACHE_LINE) _Atomic uint64_t tail; /* chunks read out of the ring */
    _Alignas(CACHE_LINE) int method;            /* enum copy_method of message seq */
    size_t bytes;
    int yield;                                  /* both on one CPU: wait by yielding */
    pid_t sender;
    uintptr_t source;                           /* sender's buffer (for process_vm_readv) */
    size_t chunk, slots;
    int cma_error;                              /* errno of a failed process_vm_readv */
    _Alignas(CACHE_LINE) char ring[];
};

static void wait_at_least(_Atomic uint64_t *word, uint64_t value, int yield)
{
    unsigned spins = 0;
    while (atomic_load_explicit(word, memory_order_acquire) < value)
        backoff(&spins, yield);
}

static void receive_two_copy(struct copy_channel *ch, char *dst, size_t bytes)
{
    uint64_t tail = atomic_load_explicit(&ch->tail, memory_order_relaxed);
    for (size_t offset = 0; offset < bytes; offset += ch->chunk, tail++) {
        size_t len = bytes - offset < ch->chunk ? bytes - offset : ch->chunk;
        wait_at_least(&ch->head, tail + 1, ch->yield);
        memcpy(dst + offset, ch->ring + (tail % ch->slots) * ch->chunk, len);
        atomic_store_explicit(&ch->tail, tail + 1, memory_order_release);
    }
}

static void receive_cma(struct copy_channel *ch, char *dst, size_t bytes)
{
    size_t done = 0;
    while (done < bytes) {
        struct iovec local = {dst + done, bytes - done};
        struct iovec remote = {(void *)(ch->source + done), bytes - done};
        ssize_t n = process_vm_readv(ch->sender, &local, 1, &remote, 1, 0);
        if (n <= 0) {
            ch->cma_error = n < 0 ? errno : EIO;
            return;
        }
        done += (size_t)n;
    }
}

static void receiver_main(struct copy_channel *ch, int cpu)
{
    pin_to(cpu);
    char *dst = map_buffer(MAX_SIZE);
    for (uint64_t seen = 1;; seen++) {
        wait_at_least(&ch->seq, seen, ch->yield);
        if (ch->method == COPY_EXIT)
            break;
        if (ch->method == COPY_TWO || ch->method == COPY_TWO_STREAM)
            receive_two_copy(ch, dst, ch->bytes);
        else
            receive_cma(ch, dst, ch->bytes);
        atomic_store_explicit(&ch->ack, seen, memory_order_release);
    }
    _exit(0);
}

/* Copy into the ring with non-temporal 16-byte stores (SSE2: every x86-64), then a store fence:
 * streaming stores are weakly ordered, and the release store of head must not pass them. */
static void copy_streaming(char *dst, const char *src, size_t len)
{
#if defined(__x86_64__)
    size_t i = 0;
    for (; i + 16 <= len; i += 16)
        _mm_stream_si128((__m128i *)(dst + i), _mm_loadu_si128((const __m128i *)(src + i)));
    memcpy(dst + i, src + i, len - i);
    _mm_sfence();
#else
    memcpy(dst, src, len);
#endif
}

static void send_one(struct copy_channel *ch, const char *src, size_t bytes, int method)
{
    ch->method = method;
    ch->bytes = bytes;
    uint64_t seq = atomic_load_explicit(&ch->seq, memory_order_relaxed) + 1;
    atomic_store_explicit(&ch->seq, seq, memory_order_release);
    if (method == COPY_TWO || method == COPY_TWO_STREAM) {
        uint64_t head = atomic_load_explicit(&ch->head, memory_order_relaxed);
        for (size_t offset = 0; offset < bytes; offset += ch->chunk, head++) {
            size_t len = bytes - offset < ch->chunk ? bytes - offset : ch->chunk;
            if (head >= ch->slots) /* the slot is free once its last chunk was read */
                wait_at_least(&ch->tail, head + 1 - ch->slots, ch->yield);
            char *slot = ch->ring + (head % ch->slots) * ch->chunk;
            if (method == COPY_TWO_STREAM)
                copy_streaming(slot, src + offset, len);
            else
                memcpy(slot, src + offset, len);
            atomic_store_explicit(&ch->head, head + 1, memory_order_release);
        }
    }
    wait_at_least(&ch->ack, seq, ch->yield);
}

/* GB/s of `method` at `bytes` from the fastest single message among those sent during
 * reps x point_ms (at least 3): on a machine where other processes preempt the pair, the
 * fastest message is the one nobody interrupted, which is what the hardware can do. */
static double channel_gbps(struct copy_channel *ch, const char *src, size_t bytes, int method,
                           const struct probe_options *o)
{
    send_one(ch, src, bytes, method); /* warm-up */
    double fastest = 0, start = now_ns(), budget = o->reps * o->point_ms * 1e6;
    for (long count = 0; count < 3 || now_ns() - start < budget; count++) {
        double t = now_ns();
        send_one(ch, src, bytes, method);
        t = now_ns() - t;
        if (fastest == 0 || t < fastest)
            fastest = t;
    }
    return ch->cma_error && method == COPY_CMA ? 0 : (double)bytes / fastest;
}

struct copy_results {
    int nsizes;
    size_t sizes[MAX_SIZES];
    double memcpy_gbps[MAX_SIZES];
    double two_copy[TOPO_DISTANCE_CLASSES][MAX_SIZES];
    double stream[TOPO_DISTANCE_CLASSES][MAX_SIZES];
    double cma[TOPO_DISTANCE_CLASSES][MAX_SIZES];
    int cma_error;
    size_t chunk, slots; /* the ring used for two-copy */
};

static struct copy_channel *channel_create(size_t *bytes_out)
{
    size_t ring = 0;
    shm_segment_bytes(2, &ring); /* the pair ring a 2-rank job gets */
    size_t chunk = core_config.pipeline_chunk ? core_config.pipeline_chunk : 8192;
    if (chunk > ring / 2)
        chunk = ring / 2;
    size_t bytes = sizeof(struct copy_channel) + ring;
    struct copy_channel *ch = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
                                   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (ch == MAP_FAILED) {
        perror("nodempi-probe: mmap");
        exit(1);
    }
    memset(ch, 0, bytes);
    ch->chunk = chunk;
    ch->slots = ring / chunk;
    *bytes_out = bytes;
    return ch;
}

/* All sizes for one class pair (a, b): fork the receiver, alternate the two methods. */
static void probe_class_copies(enum topo_distance d, int a, int b, const char *src,
                               const struct probe_options *o, struct copy_results *res)
{
    size_t channel_bytes;
    struct copy_channel *ch = channel_create(&channel_bytes);
    ch->yield = a == b;
    ch->sender = getpid();
    ch->source = (uintptr_t)src;
    pin_to(a);
    pid_t child = fork();
    if (child < 0) {
        perror("nodempi-probe: fork");
        exit(1);
    }
    if (child == 0)
        receiver_main(ch, b);
    for (int i = 0; i < res->nsizes; i++) {
        res->two_copy[d][i] = channel_gbps(ch, src, res->sizes[i], COPY_TWO, o);
        res->stream[d][i] = channel_gbps(ch, src, res->sizes[i], COPY_TWO_STREAM, o);
        res->cma[d][i] = channel_gbps(ch, src, res->sizes[i], COPY_CMA, o);
    }
    if (ch->cma_error)
        res->cma_error = ch->cma_error;
    res->chunk = ch->chunk;
    res->slots = ch->slots;
    ch->method = COPY_EXIT;
    atomic_fetch_add_explicit(&ch->seq, 1, memory_order_release);
    waitpid(child, NULL, 0);
    munmap(ch, channel_bytes);
}

/* The threshold T (single copy for every size >= T) that makes the measured sizes fastest
 * overall: the largest sum over sizes of log(bandwidth of the method T picks), single copy
 * counted CMA_WIN_MARGIN slower. Logs weigh every size alike, whatever its bandwidth; the
 * whole-range view copes with a curve that crosses twice (a VM whose vCPUs the host moved
 * mid-run), where "single copy wins from here on" would find nothing. NEVER when no T gains. */
static size_t crossover(const struct copy_results *res, const double *two, const double *cma)
{
    size_t threshold = TOPO_THRESHOLD_NEVER;
    double gain = 0, best_gain = 0;
    for (int i = res->nsizes - 1; i >= 0; i--) { /* T = sizes[i]: single copy for i.. */
        if (two[i] <= 0 || cma[i] <= 0)
            break;
        gain += log(cma[i] / CMA_WIN_MARGIN) - log(two[i]);
        if (gain > best_gain) {
            best_gain = gain;
            threshold = res->sizes[i];
        }
    }
    return threshold;
}

static double best_of(const double *v, int n)
{
    double best = 0;
    for (int i = 0; i < n; i++)
        if (v[i] > best)
            best = v[i];
    return best;
}

static void print_copy_table(const struct copy_results *res)
{
    char label[16];
    printf("\n(b) memcpy on one core, and (c) between two processes: two-copy pipelined through a "
           "ring of\n    %zu x %zu KiB chunks (memcpy, or streaming stores into the ring) vs "
           "single copy\n    (process_vm_readv). GB/s = bytes moved / time of the fastest "
           "message; * = fastest\n", res->slots, res->chunk >> 10);
    printf("    %-6s %7s", "size", "memcpy");
    for (int d = 0; d < TOPO_UNKNOWN; d++)
        if (topo_distance_present((enum topo_distance)d))
            printf(" | %-10s two-copy  stream  single", topo_distance_name((enum topo_distance)d));
    printf("\n");
    for (int i = 0; i < res->nsizes; i++) {
        printf("    %-6s %7.1f", size_label(res->sizes[i], label, sizeof(label)),
               res->memcpy_gbps[i]);
        for (int d = 0; d < TOPO_UNKNOWN; d++) {
            if (!topo_distance_present((enum topo_distance)d))
                continue;
            double v[3] = {res->two_copy[d][i], res->stream[d][i], res->cma[d][i]};
            int best = 0;
            for (int k = 1; k < 3; k++)
                if (v[k] > v[best])
                    best = k;
            printf(" | %10s", "");
            for (int k = 0; k < 3; k++)
                printf(" %6.1f%c", v[k], k == best ? '*' : ' ');
        }
        printf("\n");
    }
}

static void probe_copies(const struct probe_options *o, struct topo_profile *p)
{
    static struct copy_results res;
    for (size_t s = MIN_SIZE; s <= MAX_SIZE && res.nsizes < MAX_SIZES; s *= (size_t)o->size_step)
        res.sizes[res.nsizes++] = s;
    char *src = map_buffer(MAX_SIZE), *dst = map_buffer(MAX_SIZE);
    pin_to(0);
    for (int i = 0; i < res.nsizes; i++)
        res.memcpy_gbps[i] = memcpy_gbps(dst, src, res.sizes[i], o);
    munmap(dst, MAX_SIZE); /* not inherited by the receivers */
    p->memcpy_gbps = best_of(res.memcpy_gbps, res.nsizes);
    for (int d = 0; d < TOPO_UNKNOWN; d++) {
        int a, b;
        if (topo_distance_example((enum topo_distance)d, &a, &b) != 0)
            continue;
        probe_class_copies((enum topo_distance)d, a, b, src, o, &res);
        struct topo_profile_class *c = &p->cls[d];
        c->measured = 1;
        c->cpu_a = a;
        c->cpu_b = b;
        c->two_copy_gbps = best_of(res.two_copy[d], res.nsizes);
        c->cma_gbps = best_of(res.cma[d], res.nsizes);
        c->two_copy_stream_gbps = best_of(res.stream[d], res.nsizes);
        c->cma_threshold = crossover(&res, res.two_copy[d], res.cma[d]);
        c->cma_threshold_stream = crossover(&res, res.stream[d], res.cma[d]);
    }
    munmap(src, MAX_SIZE);
    print_copy_table(&res);
    if (res.cma_error)
        printf("    single copy failed: %s (thresholds set to never)\n",
               strerror(res.cma_error));
}

/* ---- (f) the library's own rendezvous: pipelined vs single copy, through mpiexec ------------
 * Section (c)'s ring is a model; the library's pipeline also pays for records, fragment headers
 * and the CTS hand-shake, and its single copy may split the work between the two processes
 * (p2p/split.c). Measured here, with nodempi-calibrate run as a 2-rank job on each class's two
 * CPUs, it is what decides the threshold the library uses for that class's pairs: the one for
 * the ring the class actually gets (streaming stores between different CPUs, memcpy on one).
 * On this machine's shared_l3 pair the model said "never single copy" while the library's
 * pipeline moved 7-8 GB/s at 1 MiB against 12-15 GB/s for single copy. */
#define CALIBRATE_SIZES 10 /* 8 KiB .. 4 MiB */

/* The CPUs we were started on: the jobs must inherit these, not the one CPU the measurements
 * above pinned us to (a job started on one CPU runs oversubscribed: no spinning, no split copy). */
static cpu_set_t startup_cpus;

/* GB/s per size from one calibration job (the geometric mean of one-way and both-ways
 * bandwidth: a threshold serves both patterns); 0 on failure. */
static int run_calibration(const char *dir, int a, int b, int single_copy,
                           double gbps[CALIBRATE_SIZES])
{
    char cmd[2200], cpus[32];
    snprintf(cpus, sizeof(cpus), "%d,%d", a, b);
    setenv("NODEMPI_CALIBRATE_CPUS", cpus, 1);
    setenv("NODEMPI_AUTOPROBE", "off", 1); /* the job must not start a probe of its own */
    /* Two ranks on one CPU must wait as an oversubscribed job does (yield, sleep). */
    if (a == b)
        setenv("NODEMPI_NCORES", "1", 1);
    else
        unsetenv("NODEMPI_NCORES");
    if (single_copy) {
        unsetenv("NODEMPI_SINGLE_COPY");
        setenv("NODEMPI_CMA_THRESHOLD", "4097", 1); /* every rendezvous by single copy */
    } else {
        unsetenv("NODEMPI_CMA_THRESHOLD");
        setenv("NODEMPI_SINGLE_COPY", "none", 1);
    }
    snprintf(cmd, sizeof(cmd), "'%s/mpiexec' -n 2 --timeout 60 '%s/nodempi-calibrate' 2>/dev/null",
             dir, dir);
    FILE *f = popen(cmd, "r");
    if (!f)
        return 0;
    int n = 0;
    long bytes;
    double one, both;
    char line[256];
    while (fgets(line, sizeof(line), f))
        if (sscanf(line, "calibrate,%ld,%lf,%lf", &bytes, &one, &both) == 3 &&
            n < CALIBRATE_SIZES)
            gbps[n++] = sqrt(one * both);
    int rc = pclose(f);
    unsetenv("NODEMPI_SINGLE_COPY");
    unsetenv("NODEMPI_CMA_THRESHOLD");
    unsetenv("NODEMPI_NCORES");
    return rc == 0 && n == CALIBRATE_SIZES;
}

static void probe_transport(const struct probe_options *o, struct topo_profile *p)
{
    int rounds = o->quick ? 2 : 4;
    char dir[1024];
    ssize_t len = readlink("/proc/self/exe", dir, sizeof(dir) - 1);
    if (len <= 0)
        return;
    dir[len] = 0;
    char *slash = strrchr(dir, '/');
    if (!slash)
        return;
    *slash = 0; /* our directory, where mpiexec and nodempi-calibrate live */
    sched_setaffinity(0, sizeof(startup_cpus), &startup_cpus);
    struct copy_results res;
    memset(&res, 0, sizeof(res));
    for (size_t s = 8 << 10; res.nsizes < CALIBRATE_SIZES; s *= 2)
        res.sizes[res.nsizes++] = s;
    char label[16];
    printf("\n(f) nodempi's own rendezvous (nodempi-calibrate, 2-rank job, window of 16, best of "
           "%d jobs): GB/s,\n    geometric mean of one way and both ways\n", rounds);
    printf("    %-10s %-6s", "class", "copy");
    for (int i = 0; i < res.nsizes; i++)
        printf(" %6s", size_label(res.sizes[i], label, sizeof(label)));
    printf("  threshold\n");
    for (int d = 0; d < TOPO_UNKNOWN; d++) {
        int a, b;
        if (topo_distance_example((enum topo_distance)d, &a, &b) != 0)
            continue;
        /* Alternate the two settings a few times and keep each size's best: the vCPUs move
         * and other processes come and go between jobs. */
        double pipe[CALIBRATE_SIZES] = {0}, single[CALIBRATE_SIZES] = {0};
        int ok = 1;
        for (int round = 0; ok && round < rounds; round++) {
            double one[CALIBRATE_SIZES];
            for (int k = 0; ok && k < 2; k++) {
                double *best = k ? single : pipe;
                if (!(ok = run_calibration(dir, a, b, k, one)))
                    break;
                for (int i = 0; i < CALIBRATE_SIZES; i++)
                    if (one[i] > best[i])
                        best[i] = one[i];
            }
        }
        if (!ok) {
            printf("    %-10s calibration job failed; keeping section (c)'s thresholds\n",
                   topo_distance_name((enum topo_distance)d));
            continue;
        }
        size_t t = crossover(&res, pipe, single);
        struct topo_profile_class *c = &p->cls[d];
        /* the ring this class gets by default (p2p/progress.c: streaming between CPUs) */
        if (d == TOPO_SAME_CORE)
            c->cma_threshold = t;
        else
            c->cma_threshold_stream = t;
        const char *names[2] = {"ring", "single"};
        const double *rows[2] = {pipe, single};
        for (int k = 0; k < 2; k++) {
            printf("    %-10s %-6s", k ? "" : topo_distance_name((enum topo_distance)d), names[k]);
            for (int i = 0; i < res.nsizes; i++)
                printf(" %6.1f", rows[k][i]);
            if (k)
                printf("  %s", topo_profile_threshold_text(t, label, sizeof(label)));
            printf("\n");
        }
    }
}

/* ---- (d) cache sizes: latency of a random pointer chase by working set (Servet) ------------
 * Each cache line of the working set points to the next in one random cycle, so every load
 * depends on the previous one and the prefetchers cannot guess: the time per load steps up
 * when the working set outgrows a cache. The buffer asks for 2 MiB pages so TLB misses do not
 * add steps of their own. */
static uint64_t xorshift(uint64_t *state)
{
    uint64_t x = *state;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return *state = x;
}

static double chase_ns(char *buffer, size_t bytes, long loads)
{
    size_t lines = bytes / CACHE_LINE;
    size_t *order = malloc(lines * sizeof(size_t));
    if (!order)
        return 0;
    for (size_t i = 0; i < lines; i++)
        order[i] = i;
    uint64_t rng = 0x9e3779b97f4a7c15ull ^ bytes;
    for (size_t i = lines - 1; i > 0; i--) { /* Sattolo: one cycle through every line */
        size_t j = (size_t)(xorshift(&rng) % i), t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
    for (size_t i = 0; i < lines; i++)
        *(void **)(buffer + order[i] * CACHE_LINE) = buffer + order[(i + 1) % lines] * CACHE_LINE;
    free(order);
    void *volatile *p = (void *volatile *)buffer;
    long warm = (long)lines < loads ? (long)lines : loads;
    for (long i = 0; i < warm; i++)
        p = (void *volatile *)*p;
    double start = now_ns();
    for (long i = 0; i < loads; i++)
        p = (void *volatile *)*p;
    double elapsed = now_ns() - start;
    __asm__ volatile("" : : "r"(p));
    return elapsed / (double)loads;
}

/* For the level hwloc reports with size S on CPU 0, above the level below it (size below):
 * the working set W in (below, S] after which the latency steps up most (W fits, 2W does not),
 * i.e. what the cache really holds; 0 when no step of 15% shows. The window reaches far under
 * S on purpose: in a VM the host's other tenants share the last-level cache. */
static size_t measured_cache(const size_t *sizes, const double *ns, int n, size_t below,
                             size_t hwloc_bytes)
{
    size_t best = 0;
    double best_ratio = 1.15;
    for (int i = 0; i + 1 < n; i++) {
        if (sizes[i] <= below || sizes[i] > hwloc_bytes)
            continue;
        double ratio = ns[i + 1] / ns[i];
        if (ratio > best_ratio) {
            best_ratio = ratio;
            best = sizes[i];
        }
    }
    return best;
}

static void probe_caches(struct topo_profile *p)
{
    size_t largest = 0;
    for (int level = 1; level <= TOPO_PROFILE_CACHE_LEVELS; level++)
        if (p->cache_bytes[level - 1] > largest)
            largest = p->cache_bytes[level - 1];
    size_t limit = largest ? 2 * largest : MAX_SIZE, huge = (size_t)2 << 20;
    char *raw = mmap(NULL, limit + huge, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                     -1, 0);
    if (raw == MAP_FAILED)
        return;
    char *buffer = (char *)(((uintptr_t)raw + huge - 1) & ~(uintptr_t)(huge - 1));
    madvise(buffer, limit, MADV_HUGEPAGE);
    pin_to(0);
    size_t sizes[32];
    double ns[32];
    int n = 0;
    printf("\n(d) random pointer chase on CPU 0, ns per load by working set:\n   ");
    for (size_t s = 4096; s <= limit && n < 32; s *= 2, n++) {
        sizes[n] = s;
        /* The faster of two runs: a preemption or a neighbour's burst only ever slows one. */
        double first = chase_ns(buffer, s, 300000), second = chase_ns(buffer, s, 300000);
        ns[n] = first < second ? first : second;
        char label[16];
        printf(" %s:%.1f", size_label(s, label, sizeof(label)), ns[n]);
        if (n % 8 == 7)
            printf("\n   ");
    }
    munmap(raw, limit + huge);
    printf("\n    cache sizes (hwloc / measured step):");
    size_t below = 0;
    for (int level = 1; level <= TOPO_PROFILE_CACHE_LEVELS; level++) {
        size_t hw = p->cache_bytes[level - 1];
        if (hw == 0)
            continue;
        size_t seen = measured_cache(sizes, ns, n, below, hw);
        below = hw;
        char a[16], b[16];
        printf("  L%d %s / %s", level, size_label(hw, a, sizeof(a)),
               seen ? size_label(seen, b, sizeof(b)) : "no step");
        if (seen)
            p->cache_bytes[level - 1] = seen;
    }
    printf("\n");
}

/* ---- (e) memory contention: one core streaming alone vs two at once (Servet) ---------------*/
struct stream_job {
    int cpu;
    char *src, *dst;
    size_t bytes;
    double ms, gbps;
    _Atomic int *start;
};

static void *stream_main(void *arg)
{
    struct stream_job *job = arg;
    pin_to(job->cpu);
    memcpy(job->dst, job->src, job->bytes);
    while (!atomic_load_explicit(job->start, memory_order_acquire))
        sched_yield(); /* under --rt the starter may share this CPU */
    double start = now_ns(), elapsed;
    size_t copies = 0;
    do {
        memcpy(job->dst, job->src, job->bytes);
        __asm__ volatile("" ::: "memory");
        copies++;
        elapsed = now_ns() - start;
    } while (elapsed < job->ms * 1e6);
    job->gbps = (double)job->bytes * (double)copies / elapsed;
    return NULL;
}

/* GB/s per core of `n` cores (1 or 2) streaming at once. */
static double stream_gbps(struct stream_job *jobs, int n)
{
    _Atomic int start = 0;
    pthread_t threads[2];
    for (int i = 0; i < n; i++) {
        jobs[i].start = &start;
        pthread_create(&threads[i], NULL, stream_main, &jobs[i]);
    }
    usleep(20000); /* both warm and spinning */
    atomic_store_explicit(&start, 1, memory_order_release);
    double sum = 0;
    for (int i = 0; i < n; i++) {
        pthread_join(threads[i], NULL);
        sum += jobs[i].gbps;
    }
    return sum / n;
}

static void probe_contention(const struct probe_options *o, struct topo_profile *p)
{
    size_t largest = p->cache_bytes[2] ? p->cache_bytes[2] : p->cache_bytes[1];
    size_t bytes = largest ? 2 * largest : MAX_SIZE;
    if (bytes < MAX_SIZE)
        bytes = MAX_SIZE;
    printf("\n(e) memory contention: memcpy of %zu MiB per core, GB/s per core\n", bytes >> 20);
    int first = 1;
    for (int d = TOPO_SHARED_L2; d < TOPO_UNKNOWN; d++) {
        int a, b;
        if (topo_distance_example((enum topo_distance)d, &a, &b) != 0 || a == b)
            continue;
        struct stream_job jobs[2] = {
            {.cpu = a, .src = map_buffer(bytes), .dst = map_buffer(bytes), .bytes = bytes},
            {.cpu = b, .src = map_buffer(bytes), .dst = map_buffer(bytes), .bytes = bytes},
        };
        jobs[0].ms = jobs[1].ms = o->quick ? 60 : 250;
        double alone = stream_gbps(jobs, 1), shared = stream_gbps(jobs, 2);
        printf("    %-10s cpu %d alone %.1f, cpus %d+%d together %.1f each (%.0f%%)\n",
               topo_distance_name((enum topo_distance)d), a, alone, a, b, shared,
               100.0 * shared / alone);
        if (first) {
            p->memory_gbps_alone = alone;
            p->memory_gbps_shared = shared;
            first = 0;
        }
        for (int i = 0; i < 2; i++) {
            munmap(jobs[i].src, bytes);
            munmap(jobs[i].dst, bytes);
        }
    }
    if (first)
        printf("    only one core: nothing to contend with\n");
}

/* ---- main ----------------------------------------------------------------------------------*/

/* Other processes running meanwhile preempt the spinning partners and share the caches and
 * memory: say so, since the numbers then describe the load more than the hardware. */
static void warn_if_busy(const char *when, int realtime)
{
    double load = 0;
    FILE *f = fopen("/proc/loadavg", "r");
    if (!f)
        return;
    if (fscanf(f, "%lf", &load) == 1 && load > 0.5 * topo_hw_pus() && realtime)
        printf("note (%s): load average %.1f on %d CPUs; at real-time priority the others get "
               "at most 5%% of the CPUs meanwhile\n", when, load, topo_hw_pus());
    else if (load > 0.5 * topo_hw_pus())
        printf("warning (%s): load average %.1f on %d CPUs: other processes compete, the "
               "numbers are noisy; run again on an idle machine or with --rt\n", when, load,
               topo_hw_pus());
    fclose(f);
}

static void usage(void)
{
    fprintf(stderr,
            "usage: nodempi-probe [--quick] [--write | --out FILE] [--no-caches] [--no-transport]\n"
            "  --quick      fewer runs and sizes (< 2 s)\n"
            "  --write      write the profile to the default path (NODEMPI_PROFILE or\n"
            "               $XDG_CACHE_HOME/nodempi/profile-<host>.txt)\n"
            "  --out FILE   write the profile to FILE\n"
            "  --no-caches  skip the pointer-chase cache measurement (hwloc sizes are kept)\n"
            "  --no-transport  skip (f), the library's own rendezvous measured through\n"
            "               mpiexec; thresholds then come from the ring model of (c)\n"
            "  --rt         run at real-time priority (SCHED_FIFO 1) so that other processes do\n"
            "               not preempt the measurements (needs root or CAP_SYS_NICE; the\n"
            "               kernel still leaves them 5%% of each second)\n");
    exit(2);
}

static void parse_options(int argc, char **argv, struct probe_options *o, char *path,
                          size_t path_len)
{
    *o = (struct probe_options){.caches = 1, .transport = 1};
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--quick") == 0)
            o->quick = 1;
        else if (strcmp(argv[i], "--no-caches") == 0)
            o->caches = 0;
        else if (strcmp(argv[i], "--rt") == 0)
            o->realtime = 1;
        else if (strcmp(argv[i], "--no-transport") == 0)
            o->transport = 0;
        else if (strcmp(argv[i], "--write") == 0) {
            if (topo_profile_path(path, path_len) < 0) {
                fprintf(stderr, "nodempi-probe: no HOME or XDG_CACHE_HOME: use --out FILE\n");
                exit(2);
            }
            o->out_path = path;
        } else if (strcmp(argv[i], "--out") == 0 && i + 1 < argc)
            o->out_path = argv[++i];
        else
            usage();
    }
    o->runs = o->quick ? 41 : 101;
    o->round_trips = o->quick ? 200 : 500;
    o->point_ms = o->quick ? 1.0 : 4.0;
    o->reps = o->quick ? 2 : 3;
    o->size_step = o->quick ? 4 : 2;
    if (o->quick)
        o->caches = 0;
}

static void print_summary(const struct topo_profile *p)
{
    char text[32], stream[32];
    printf("\nsingle-copy threshold per distance class: the size from which single copy "
           "makes all measured\nsizes fastest overall (single copy handicapped by %.0f%%), "
           "against the memcpy ring and\nagainst the streaming-store ring (the ring each class "
           "uses comes from (f) when it ran):\n", (CMA_WIN_MARGIN - 1) * 100);
    for (int d = 0; d < TOPO_UNKNOWN; d++) {
        const struct topo_profile_class *c = &p->cls[d];
        if (!c->measured)
            continue;
        printf("    %-10s cpus %d-%d  latency %.0f ns [%.0f-%.0f]  GB/s two-copy %.1f, stream "
               "%.1f, single %.1f\n               threshold %s (memcpy ring), %s (streaming "
               "ring)\n", topo_distance_name((enum topo_distance)d), c->cpu_a, c->cpu_b,
               c->latency_ns, c->latency_min_ns, c->latency_max_ns, c->two_copy_gbps,
               c->two_copy_stream_gbps, c->cma_gbps,
               topo_profile_threshold_text(c->cma_threshold, text, sizeof(text)),
               topo_profile_threshold_text(c->cma_threshold_stream, stream, sizeof(stream)));
    }
}

int main(int argc, char **argv)
{
    char default_path[512];
    struct probe_options o;
    core_config_load();
    parse_options(argc, argv, &o, default_path, sizeof(default_path));
    sched_getaffinity(0, sizeof(startup_cpus), &startup_cpus);
    setvbuf(stdout, NULL, _IOLBF, 0); /* progress is visible when piped */
    double start = now_ns();
    topo_hw_init();
    struct topo_profile p;
    topo_profile_defaults(&p);
    char l1[16], l2[16], l3[16];
    printf("nodempi-probe: %d PUs, %d cores, %d NUMA node(s); CPU 0 caches L1d %s, L2 %s, "
           "L3 %s\n", topo_hw_pus(), topo_hw_cores(), topo_hw_numa_nodes(),
           size_label(p.cache_bytes[0], l1, sizeof(l1)),
           size_label(p.cache_bytes[1], l2, sizeof(l2)),
           size_label(p.cache_bytes[2], l3, sizeof(l3)));
    if (o.realtime) { /* threads and the forked receivers inherit the policy */
        struct sched_param param = {.sched_priority = 1};
        if (sched_setscheduler(0, SCHED_FIFO, &param) != 0) {
            fprintf(stderr, "nodempi-probe: --rt: %s\n", strerror(errno));
            o.realtime = 0;
        }
    }
    warn_if_busy("start", o.realtime);
    probe_latency(&o, &p);
    probe_copies(&o, &p);
    if (o.caches)
        probe_caches(&p);
    probe_contention(&o, &p);
    if (o.transport)
        probe_transport(&o, &p);
    print_summary(&p);
    warn_if_busy("end", o.realtime);
    printf("probe time %.1f s\n", (now_ns() - start) / 1e9);
    if (o.out_path) {
        char why[600];
        if (topo_profile_write(o.out_path, &p, why, sizeof(why)) != 0) {
            fprintf(stderr, "nodempi-probe: %s\n", why);
            return 1;
        }
        printf("profile written to %s\n", o.out_path);
    }
    return 0;
}
