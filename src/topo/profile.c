/* profile.c - the hardware profile: defaults derived from hwloc's cache sizes, the key=value
 * file nodempi-probe writes, and the per-class single-copy thresholds p2p asks for at init.
 * Reading is tolerant (a bad line keeps its default and says so); it never fails MPI_Init.
 * Must not measure anything: measuring is nodempi-probe's job (tools/nodempi-probe.c). */
#include "topo/profile.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "topo/hardware_internal.h"

/* The profile in use by this process (see topo_machine in hardware.c for why it is a file-level
 * object): filled by topo_profile_init, read-only afterwards. */
static struct topo_profile current_profile;
static int current_loaded;

/* ---- defaults ------------------------------------------------------------------------------
 * Without a measurement the threshold of a class comes from the cache its pairs share. The
 * numbers quoted are nodempi-probe's on this machine (2 vCPUs of an AMD EPYC under KVM, private
 * 1 MiB L2s, one L3; the host moves the vCPUs, so the two CPUs are 30-40 ns or ~160 ns apart).
 *
 * - Same core (one PU time-shared, or hyperthreads) and shared L2: the pipelined copy hands
 *   each chunk over inside the caches the pair shares, L1/L2 speed, while single copy
 *   (process_vm_readv) pins and maps every 4 KiB page in the kernel: measured on one PU, the
 *   ring moved 13 GB/s from 64 KiB on, single copy 7.6 GB/s at 64 KiB and drew level (~12.5)
 *   only from 512 KiB - 1 MiB. Once the message outgrows the shared L2 both stream through the
 *   L3 or memory and single copy frees the sender's core (overlap for MPI_Isend), so the default
 *   is the L2 size. Seed 001 §4.1 used 32 KB for shared-cache pairs because LiMIC2 was a cheap
 *   kernel copy next to a slow two-copy path.
 * - Shared L3 only: every line of every chunk crosses between the two private L2s, and the L3
 *   does not absorb that. Measured through the library itself (session 2: 16 KiB fragments,
 *   memcpy, the receiver zeroing what it consumed; single copy with the sender helping,
 *   p2p/split.c), windowed bandwidth one way / both ways in GB/s, vCPUs close | far:
 *     64 KiB   pipelined 22.5 / 22.3 | 10.7 / 10.2   single copy 10.3 / 20.0 | 9.9 / 18.6
 *     128 KiB  pipelined 24.4 / 18.5 | 10.5 / 11.2   single copy 20.0 / 20.7 | 17.0 / 20.0
 *   With single copy split in two halves from 64 KiB on (p2p/split.c, NODEMPI_SPLIT_COPY_MIN),
 *   64 KiB by single copy moved 12.1-12.4 / 19 GB/s far apart against the pipeline's 10.5-11.3
 *   / 11.3, and 16.2 vs 19.6 one way close together: the default is one pair ring, 64 KiB (a
 *   message up to it is one pass through the ring). (nodempi-probe's own ring model, section
 *   (c), is far more optimistic about the pipeline, streaming stores above all; its section (f)
 *   measures the library instead.)
 * - No shared cache (same NUMA node, other node): the extra copy crosses between private caches
 *   or memory; it costs more than single copy's fixed cost (~1 us: system call, page pinning,
 *   completion flag) once size / bandwidth > 1 us, ~32 KiB at ~32 GB/s, and half that across
 *   NUMA nodes where the extra copy crosses the interconnect twice. Seed 001 keeps the same
 *   order (2 KB intra-socket, 1 KB inter-socket, below its shared-cache value).
 */
enum { DEFAULT_RING_BYTES = 64 * 1024, DEFAULT_SAME_NUMA = 32 * 1024,
       DEFAULT_OTHER_NUMA = 16 * 1024, DEFAULT_NO_HWLOC_L2 = 1024 * 1024 };

static size_t default_threshold(enum topo_distance d)
{
    int a = 0, b = 0, level;
    size_t shared = 0; /* hwloc's size: defaults must not depend on a profile being loaded */
    if (topo_distance_example(d, &a, &b) == 0)
        shared = topo_distance_shared_cache(a, b, &level);
    switch (d) {
    case TOPO_SAME_CORE: /* the L2 of the core (its smallest shared cache is the L1) */
        shared = topo_hw_cache_bytes(topo_hw_cpu_present(a) ? a : 0, 2);
        return shared ? shared : DEFAULT_NO_HWLOC_L2;
    case TOPO_SHARED_L2:
        if (shared == 0) /* class absent here: the L2 of CPU 0, if any */
            shared = topo_hw_cache_bytes(0, 2);
        return shared ? shared : DEFAULT_NO_HWLOC_L2;
    case TOPO_SHARED_L3:
        return DEFAULT_RING_BYTES;
    case TOPO_SAME_NUMA:
        return DEFAULT_SAME_NUMA;
    case TOPO_OTHER_NUMA:
        return DEFAULT_OTHER_NUMA;
    default:
        return default_threshold(topo_distance_unbound());
    }
}

void topo_profile_defaults(struct topo_profile *p)
{
    memset(p, 0, sizeof(*p));
    p->cpus = topo_hw_pus();
    int cpu = topo_hw_cpu_present(0) ? 0 : -1;
    for (int level = 1; level <= TOPO_PROFILE_CACHE_LEVELS; level++)
        p->cache_bytes[level - 1] = topo_hw_cache_bytes(cpu, level);
    for (int d = 0; d < TOPO_DISTANCE_CLASSES; d++) {
        p->cls[d].cpu_a = p->cls[d].cpu_b = -1;
        topo_distance_example((enum topo_distance)d, &p->cls[d].cpu_a, &p->cls[d].cpu_b);
        p->cls[d].cma_threshold = default_threshold((enum topo_distance)d);
        p->cls[d].cma_threshold_stream = p->cls[d].cma_threshold;
    }
}

/* ---- the key table -------------------------------------------------------------------------
 * Global keys are "name=value"; class keys are "<class>.<name>=value" with <class> one of
 * topo_distance_name(). One table drives parsing, writing and the roundtrip test. */
enum key_kind { KEY_IGNORED, KEY_VERSION, KEY_INT, KEY_SIZE, KEY_DOUBLE, KEY_THRESHOLD,
                KEY_PAIR };

struct profile_key {
    const char *name;
    enum key_kind kind;
    size_t offset; /* in struct topo_profile (global) or struct topo_profile_class */
};

static const struct profile_key global_keys[] = {
    {"version", KEY_VERSION, 0},
    {"host", KEY_IGNORED, 0},
    {"date", KEY_IGNORED, 0},
    {"cpus", KEY_INT, offsetof(struct topo_profile, cpus)},
    {"cache.l1", KEY_SIZE, offsetof(struct topo_profile, cache_bytes[0])},
    {"cache.l2", KEY_SIZE, offsetof(struct topo_profile, cache_bytes[1])},
    {"cache.l3", KEY_SIZE, offsetof(struct topo_profile, cache_bytes[2])},
    {"memcpy_gbps", KEY_DOUBLE, offsetof(struct topo_profile, memcpy_gbps)},
    {"memory.alone_gbps", KEY_DOUBLE, offsetof(struct topo_profile, memory_gbps_alone)},
    {"memory.shared_gbps", KEY_DOUBLE, offsetof(struct topo_profile, memory_gbps_shared)},
};

static const struct profile_key class_keys[] = {
    {"pair", KEY_PAIR, offsetof(struct topo_profile_class, cpu_a)},
    {"latency_ns", KEY_DOUBLE, offsetof(struct topo_profile_class, latency_ns)},
    {"latency_min_ns", KEY_DOUBLE, offsetof(struct topo_profile_class, latency_min_ns)},
    {"latency_max_ns", KEY_DOUBLE, offsetof(struct topo_profile_class, latency_max_ns)},
    {"two_copy_gbps", KEY_DOUBLE, offsetof(struct topo_profile_class, two_copy_gbps)},
    {"two_copy_stream_gbps", KEY_DOUBLE,
     offsetof(struct topo_profile_class, two_copy_stream_gbps)},
    {"cma_gbps", KEY_DOUBLE, offsetof(struct topo_profile_class, cma_gbps)},
    {"cma_threshold", KEY_THRESHOLD, offsetof(struct topo_profile_class, cma_threshold)},
    {"cma_threshold_stream", KEY_THRESHOLD,
     offsetof(struct topo_profile_class, cma_threshold_stream)},
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* ---- values --------------------------------------------------------------------------------*/

/* "65536", "64K", "64KiB", "2M", "1G" (binary units). */
static int parse_size(const char *text, size_t *out)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 10);
    if (end == text || errno || *text == '-')
        return -1;
    int shift = 0;
    switch (*end) {
    case 'k': case 'K': shift = 10; end++; break;
    case 'm': case 'M': shift = 20; end++; break;
    case 'g': case 'G': shift = 30; end++; break;
    default: break;
    }
    if (shift && strcmp(end, "iB") == 0)
        end += 2;
    else if (*end == 'B')
        end++;
    if (*end != '\0' || (shift && v > (SIZE_MAX >> shift)))
        return -1;
    *out = (size_t)(v << shift);
    return 0;
}

static int parse_value(enum key_kind kind, const char *text, void *target)
{
    char *end;
    switch (kind) {
    case KEY_IGNORED:
        return 0;
    case KEY_VERSION:
    case KEY_INT: {
        errno = 0;
        long v = strtol(text, &end, 10);
        if (end == text || *end || errno || v < 0 || v > 1 << 24)
            return -1;
        if (kind == KEY_VERSION)
            return v >= 1 && v <= TOPO_PROFILE_VERSION ? 0 : -1;
        *(int *)target = (int)v;
        return 0;
    }
    case KEY_SIZE:
        return parse_size(text, target);
    case KEY_DOUBLE: {
        double v = strtod(text, &end);
        if (end == text || *end || !isfinite(v) || v < 0)
            return -1;
        *(double *)target = v;
        return 0;
    }
    case KEY_THRESHOLD:
        if (strcmp(text, "never") == 0) {
            *(size_t *)target = TOPO_THRESHOLD_NEVER;
            return 0;
        }
        return parse_size(text, target);
    case KEY_PAIR: {
        int a, b, n = -1;
        if (sscanf(text, "%d,%d%n", &a, &b, &n) != 2 || text[n] != '\0' || a < 0 || b < 0)
            return -1;
        ((int *)target)[0] = a; /* cpu_a, cpu_b are adjacent ints */
        ((int *)target)[1] = b;
        return 0;
    }
    }
    return -1;
}

const char *topo_profile_threshold_text(size_t bytes, char *buf, size_t buf_len)
{
    if (bytes == TOPO_THRESHOLD_NEVER)
        snprintf(buf, buf_len, "never");
    else if (bytes && bytes % (1u << 20) == 0)
        snprintf(buf, buf_len, "%zuM", bytes >> 20);
    else if (bytes && bytes % 1024 == 0)
        snprintf(buf, buf_len, "%zuK", bytes >> 10);
    else
        snprintf(buf, buf_len, "%zu", bytes);
    return buf;
}

static void format_value(FILE *out, enum key_kind kind, const void *source)
{
    char text[32];
    switch (kind) {
    case KEY_IGNORED:
        break;
    case KEY_VERSION:
        fprintf(out, "%d", TOPO_PROFILE_VERSION);
        break;
    case KEY_INT:
        fprintf(out, "%d", *(const int *)source);
        break;
    case KEY_SIZE:
    case KEY_THRESHOLD:
        fputs(topo_profile_threshold_text(*(const size_t *)source, text, sizeof(text)), out);
        break;
    case KEY_DOUBLE:
        fprintf(out, "%.2f", *(const double *)source);
        break;
    case KEY_PAIR:
        fprintf(out, "%d,%d", ((const int *)source)[0], ((const int *)source)[1]);
        break;
    }
}

/* ---- parsing -------------------------------------------------------------------------------*/

static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    size_t n = strlen(s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\n' || s[n - 1] == '\r'))
        s[--n] = '\0';
    return s;
}

static const struct profile_key *find_key(const struct profile_key *keys, size_t n,
                                          const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(keys[i].name, name) == 0)
            return &keys[i];
    return NULL;
}

/* One "key=value" line into p; returns NULL or what is wrong with it. */
static const char *parse_line(char *line, struct topo_profile *p)
{
    char *eq = strchr(line, '=');
    if (!eq)
        return "expected key=value";
    *eq = '\0';
    char *key = trim(line), *value = trim(eq + 1);
    if (*value == '\0')
        return "empty value";
    const struct profile_key *k = find_key(global_keys, COUNT(global_keys), key);
    char *target = (char *)p;
    if (!k) {
        char *dot = strchr(key, '.');
        enum topo_distance d;
        if (!dot || topo_distance_from_name(key, (size_t)(dot - key), &d) != 0 ||
            !(k = find_key(class_keys, COUNT(class_keys), dot + 1)))
            return "unknown key";
        target = (char *)&p->cls[d];
    }
    if (parse_value(k->kind, value, target + k->offset) != 0)
        return k->kind == KEY_VERSION ? "unsupported version" : "invalid value";
    /* The class's own threshold now overrides the default. */
    if (k->kind == KEY_THRESHOLD && k->offset == offsetof(struct topo_profile_class, cma_threshold))
        ((struct topo_profile_class *)target)->measured = 1;
    return NULL;
}

int topo_profile_parse(FILE *in, const char *name, struct topo_profile *p, FILE *diag)
{
    struct topo_profile parsed = *p;
    char line[512];
    int number = 0, rejected = 0;
    while (fgets(line, sizeof(line), in)) {
        number++;
        char copy[512];
        snprintf(copy, sizeof(copy), "%s", trim(line));
        if (copy[0] == '\0' || copy[0] == '#')
            continue;
        char work[512];
        memcpy(work, copy, sizeof(work));
        const char *problem = parse_line(work, &parsed);
        if (problem) {
            rejected++;
            if (diag)
                fprintf(diag, "nodempi: profile %s line %d: %s: '%s'; line ignored, default "
                        "kept\n", name, number, problem, copy);
        }
    }
    int cpus = topo_hw_pus();
    if (parsed.cpus && cpus && parsed.cpus != cpus) {
        if (diag)
            fprintf(diag, "nodempi: profile %s was measured on a machine with %d CPUs, this "
                    "one has %d: ignored (run nodempi-probe --write)\n", name, parsed.cpus,
                    cpus);
        return rejected + 1;
    }
    snprintf(parsed.source, sizeof(parsed.source), "%s", name);
    *p = parsed;
    return rejected;
}

int topo_profile_read(const char *path, struct topo_profile *p, FILE *diag)
{
    FILE *in = fopen(path, "r");
    if (!in)
        return -1;
    int rejected = topo_profile_parse(in, path, p, diag);
    fclose(in);
    return rejected;
}

/* ---- writing -------------------------------------------------------------------------------*/

void topo_profile_format(FILE *out, const struct topo_profile *p)
{
    fprintf(out, "# nodempi hardware profile (written by nodempi-probe; key=value, one a line)\n");
    for (size_t i = 0; i < COUNT(global_keys); i++) {
        if (global_keys[i].kind == KEY_IGNORED)
            continue;
        fprintf(out, "%s=", global_keys[i].name);
        format_value(out, global_keys[i].kind, (const char *)p + global_keys[i].offset);
        fputc('\n', out);
    }
    for (int d = 0; d < TOPO_DISTANCE_CLASSES; d++) {
        if (!p->cls[d].measured)
            continue;
        for (size_t i = 0; i < COUNT(class_keys); i++) {
            fprintf(out, "%s.%s=", topo_distance_name((enum topo_distance)d), class_keys[i].name);
            format_value(out, class_keys[i].kind, (const char *)&p->cls[d] + class_keys[i].offset);
            fputc('\n', out);
        }
    }
}

/* mkdir -p of the directory part of path. */
static int make_parent_dirs(const char *path)
{
    char dir[512];
    snprintf(dir, sizeof(dir), "%s", path);
    for (char *slash = strchr(dir + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
        *slash = '\0';
        if (mkdir(dir, 0755) != 0 && errno != EEXIST)
            return -1;
        *slash = '/';
    }
    return 0;
}

int topo_profile_write(const char *path, const struct topo_profile *p, char *why,
                       size_t why_len)
{
    char tmp[600];
    snprintf(tmp, sizeof(tmp), "%s.tmp.%ld", path, (long)getpid());
    FILE *out = NULL;
    if (make_parent_dirs(path) != 0 || !(out = fopen(tmp, "w"))) {
        snprintf(why, why_len, "cannot create %s: %s", out ? path : tmp, strerror(errno));
        return -1;
    }
    topo_profile_format(out, p);
    if (fclose(out) != 0 || rename(tmp, path) != 0) {
        snprintf(why, why_len, "cannot write %s: %s", path, strerror(errno));
        unlink(tmp);
        return -1;
    }
    return 0;
}

int topo_profile_path(char *out, size_t out_len)
{
    const char *env = getenv("NODEMPI_PROFILE");
    if (env && *env) {
        snprintf(out, out_len, "%s", env);
        return 1;
    }
    char host[256] = "localhost";
    if (gethostname(host, sizeof(host) - 1) != 0 || host[0] == '\0')
        snprintf(host, sizeof(host), "localhost");
    const char *cache = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    if (cache && cache[0] == '/')
        snprintf(out, out_len, "%s/nodempi/profile-%s.txt", cache, host);
    else if (home && *home)
        snprintf(out, out_len, "%s/.cache/nodempi/profile-%s.txt", home, host);
    else
        return -1;
    return 0;
}

/* ---- the process's profile -----------------------------------------------------------------*/

void topo_profile_init(void)
{
    if (current_loaded)
        return;
    topo_profile_defaults(&current_profile);
    char path[512];
    int explicit_path = topo_profile_path(path, sizeof(path));
    /* A missing per-host file is the normal case before anyone ran nodempi-probe; a missing
     * file the user named is worth a warning. */
    if (explicit_path >= 0 && topo_profile_read(path, &current_profile, stderr) < 0 &&
        explicit_path == 1)
        fprintf(stderr, "nodempi: NODEMPI_PROFILE=%s: %s; using default thresholds\n", path,
                strerror(errno));
    current_loaded = 1;
}

void topo_profile_finalize(void)
{
    current_loaded = 0;
    memset(&current_profile, 0, sizeof(current_profile));
}

const struct topo_profile *topo_profile_current(void)
{
    if (!current_loaded) { /* a caller that skipped topo_hw_init: load both now */
        topo_hw_init();
        topo_profile_init();
    }
    return &current_profile;
}

size_t topo_profile_cache_bytes(int level)
{
    /* No topo_profile_current() here: the defaults are computed from hwloc sizes before the
     * profile is loaded, and must not recurse into loading it. */
    if (!current_loaded || level < 1 || level > TOPO_PROFILE_CACHE_LEVELS)
        return 0;
    return current_profile.cache_bytes[level - 1];
}

/* The class whose values apply to d: unbound ranks borrow topo_distance_unbound()'s. */
static const struct topo_profile_class *class_for(enum topo_distance d)
{
    const struct topo_profile *p = topo_profile_current();
    if ((unsigned)d >= TOPO_DISTANCE_CLASSES)
        d = TOPO_UNKNOWN;
    if (d == TOPO_UNKNOWN && !p->cls[d].measured)
        d = topo_distance_unbound();
    return &p->cls[d];
}

size_t topo_profile_cma_threshold(enum topo_distance d) { return class_for(d)->cma_threshold; }

size_t topo_profile_cma_threshold_stream(enum topo_distance d)
{
    return class_for(d)->cma_threshold_stream;
}
