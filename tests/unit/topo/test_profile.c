/* test_profile.c - unit test of src/topo/profile.c: defaults without a profile (derived from the
 * hwloc cache sizes), write -> read roundtrip of every key, the process profile taken from
 * NODEMPI_PROFILE, malformed lines rejected one by one with a message naming file and line
 * while the defaults stay, a profile of another machine ignored whole. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "topo/hardware.h"
#include "topo/profile.h"

static int failures;

#define CHECK(cond, ...)                                                                      \
    do {                                                                                      \
        if (!(cond)) {                                                                        \
            failures++;                                                                       \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);                              \
            fprintf(stderr, __VA_ARGS__);                                                     \
            fputc('\n', stderr);                                                              \
        }                                                                                     \
    } while (0)

static char dir[256];

static void reload_with(const char *path)
{
    topo_hw_finalize();
    setenv("NODEMPI_PROFILE", path, 1);
    topo_hw_init();
}

static void test_defaults(void)
{
    reload_with("/nonexistent/nodempi-profile.txt");
    const struct topo_profile *p = topo_profile_current();
    CHECK(p->source[0] == '\0', "defaults claim a source '%s'", p->source);
    for (int d = 0; d < TOPO_DISTANCE_CLASSES; d++)
        CHECK(!p->cls[d].measured, "class %d measured without a file", d);
    int a, b;
    if (topo_distance_example(TOPO_SHARED_L2, &a, &b) == 0)
        CHECK(topo_profile_cma_threshold(TOPO_SHARED_L2) == topo_shared_cache_bytes(a, b),
              "shared_l2 default %zu, shared cache %zu",
              topo_profile_cma_threshold(TOPO_SHARED_L2), topo_shared_cache_bytes(a, b));
    CHECK(topo_profile_cma_threshold(TOPO_SHARED_L3) == 65536, "shared_l3 default %zu",
          topo_profile_cma_threshold(TOPO_SHARED_L3));
    size_t l2 = topo_hw_cache_bytes(0, 2);
    size_t same_core = topo_profile_cma_threshold(TOPO_SAME_CORE);
    CHECK(same_core == (l2 ? l2 : 1u << 20), "same_core default %zu", same_core);
    CHECK(topo_profile_cma_threshold(TOPO_SAME_NUMA) == 32768, "same_numa default");
    CHECK(topo_profile_cma_threshold(TOPO_OTHER_NUMA) == 16384, "other_numa default");
    CHECK(topo_profile_cma_threshold(TOPO_UNKNOWN) ==
              topo_profile_cma_threshold(topo_distance_unbound()),
          "unknown must follow the unbound class");
    CHECK(topo_profile_cma_threshold((enum topo_distance)99) ==
              topo_profile_cma_threshold(TOPO_UNKNOWN), "out-of-range class");
    /* The ordering seed 001 §4.1 shows: closer pairs keep the pipelined copy longer. */
    CHECK(topo_profile_cma_threshold(TOPO_SAME_NUMA) >=
              topo_profile_cma_threshold(TOPO_OTHER_NUMA), "numa ordering");
    if (topo_distance_present(TOPO_SHARED_L3))
        CHECK(topo_profile_cma_threshold(TOPO_SHARED_L3) >=
                  topo_profile_cma_threshold(TOPO_SAME_NUMA), "shared cache ordering");
    printf("defaults: same_core %zu shared_l3 %zu same_numa %zu other_numa %zu unknown %zu\n",
           same_core, topo_profile_cma_threshold(TOPO_SHARED_L3),
           topo_profile_cma_threshold(TOPO_SAME_NUMA), topo_profile_cma_threshold(TOPO_OTHER_NUMA),
           topo_profile_cma_threshold(TOPO_UNKNOWN));
}

static struct topo_profile sample_profile(void)
{
    struct topo_profile p;
    topo_profile_defaults(&p);
    p.cache_bytes[0] = 48 << 10;
    p.cache_bytes[1] = 1 << 20;
    p.cache_bytes[2] = 16 << 20;
    p.memcpy_gbps = 71.25;
    p.memory_gbps_alone = 9.5;
    p.memory_gbps_shared = 6.75;
    struct topo_profile_class *c = &p.cls[TOPO_SHARED_L3];
    *c = (struct topo_profile_class){.measured = 1, .cpu_a = 0, .cpu_b = 1, .latency_ns = 41.5,
                                     .latency_min_ns = 33, .latency_max_ns = 310.25,
                                     .two_copy_gbps = 21.5, .cma_gbps = 12.25,
                                     .two_copy_stream_gbps = 15.5,
                                     .cma_threshold = TOPO_THRESHOLD_NEVER,
                                     .cma_threshold_stream = 16384};
    c = &p.cls[TOPO_SAME_CORE];
    *c = (struct topo_profile_class){.measured = 1, .cpu_a = 0, .cpu_b = 0, .latency_ns = 1500,
                                     .latency_min_ns = 1400, .latency_max_ns = 9000,
                                     .two_copy_gbps = 11, .cma_gbps = 12,
                                     .cma_threshold = 1000001}; /* not a multiple of 1K */
    c = &p.cls[TOPO_SAME_NUMA];
    *c = (struct topo_profile_class){.measured = 1, .cpu_a = 2, .cpu_b = 5,
                                     .cma_threshold = 3u << 20};
    return p;
}

static int near(double a, double b) { return a - b < 0.006 && b - a < 0.006; }

static void test_roundtrip(void)
{
    struct topo_profile p = sample_profile(), q;
    char path[512], why[256];
    snprintf(path, sizeof(path), "%s/nested/deeper/profile.txt", dir);
    CHECK(topo_profile_write(path, &p, why, sizeof(why)) == 0, "write: %s", why);
    topo_profile_defaults(&q);
    CHECK(topo_profile_read(path, &q, stderr) == 0, "read back rejected lines");
    CHECK(strcmp(q.source, path) == 0, "source '%s'", q.source);
    CHECK(q.cpus == p.cpus, "cpus %d vs %d", q.cpus, p.cpus);
    for (int i = 0; i < TOPO_PROFILE_CACHE_LEVELS; i++)
        CHECK(q.cache_bytes[i] == p.cache_bytes[i], "cache %d: %zu", i, q.cache_bytes[i]);
    CHECK(near(q.memcpy_gbps, p.memcpy_gbps) && near(q.memory_gbps_alone, 9.5) &&
              near(q.memory_gbps_shared, 6.75), "global doubles");
    for (int d = 0; d < TOPO_DISTANCE_CLASSES; d++) {
        const struct topo_profile_class *x = &p.cls[d], *y = &q.cls[d];
        CHECK(x->measured == y->measured, "class %d measured %d", d, y->measured);
        if (!x->measured) {
            CHECK(y->cma_threshold == x->cma_threshold, "unmeasured class %d changed", d);
            continue;
        }
        CHECK(y->cpu_a == x->cpu_a && y->cpu_b == x->cpu_b, "class %d pair", d);
        CHECK(near(y->latency_ns, x->latency_ns) && near(y->latency_min_ns, x->latency_min_ns) &&
                  near(y->latency_max_ns, x->latency_max_ns), "class %d latency", d);
        CHECK(near(y->two_copy_gbps, x->two_copy_gbps) && near(y->cma_gbps, x->cma_gbps) &&
                  near(y->two_copy_stream_gbps, x->two_copy_stream_gbps),
              "class %d bandwidth", d);
        CHECK(y->cma_threshold_stream == x->cma_threshold_stream, "class %d stream threshold",
              d);
        CHECK(y->cma_threshold == x->cma_threshold, "class %d threshold %zu vs %zu", d,
              y->cma_threshold, x->cma_threshold);
    }

    /* The same file as the process profile. */
    reload_with(path);
    CHECK(strcmp(topo_profile_current()->source, path) == 0, "process profile source");
    CHECK(topo_profile_cma_threshold(TOPO_SHARED_L3) == TOPO_THRESHOLD_NEVER, "never");
    CHECK(topo_profile_cma_threshold_stream(TOPO_SHARED_L3) == 16384, "stream threshold");
    /* The measured L3 (16 MiB) caps what hwloc says the pair shares. */
    int a, b;
    if (topo_distance_example(TOPO_SHARED_L3, &a, &b) == 0 &&
        topo_hw_cache_bytes(a, 3) >= (16u << 20))
        CHECK(topo_shared_cache_bytes(a, b) == 16u << 20, "effective L3 %zu",
              topo_shared_cache_bytes(a, b));
    CHECK(topo_profile_cma_threshold(TOPO_SAME_CORE) == 1000001, "same_core");
    CHECK(topo_profile_cma_threshold(TOPO_SAME_NUMA) == 3u << 20, "same_numa");
    CHECK(topo_profile_cma_threshold(TOPO_UNKNOWN) ==
              topo_profile_cma_threshold(topo_distance_unbound()), "unknown follows unbound");
    unlink(path);
}

/* Writes text to a file in dir and reads it over defaults; returns the rejected count and the
 * diagnostics in diag_text. */
static int read_text_profile(const char *text, struct topo_profile *p, char *diag_text,
                             size_t diag_len)
{
    char path[512];
    snprintf(path, sizeof(path), "%s/text.txt", dir);
    FILE *f = fopen(path, "w");
    fputs(text, f);
    fclose(f);
    FILE *diag = tmpfile();
    topo_profile_defaults(p);
    int rejected = topo_profile_read(path, p, diag);
    rewind(diag);
    size_t n = fread(diag_text, 1, diag_len - 1, diag);
    diag_text[n] = '\0';
    fclose(diag);
    unlink(path);
    return rejected;
}

static void test_malformed(void)
{
    struct topo_profile defaults, p;
    topo_profile_defaults(&defaults);
    char diag[4096];
    const char *text = "# comment\n"
                       "\n"
                       "shared_l3.cma_threshold = 256K\n"       /* valid, spaces allowed */
                       "garbage line\n"                         /* 4: no '=' */
                       "same_core.cma_threshold=abc\n"          /* 5: bad value */
                       "bogus.cma_threshold=1K\n"               /* 6: unknown class */
                       "shared_l3.colour=blue\n"                /* 7: unknown key */
                       "same_numa.latency_ns=-5\n"              /* 8: negative */
                       "other_numa.cma_threshold=12Q\n"         /* 9: bad unit */
                       "version=99\n"                           /* 10: future version */
                       "memcpy_gbps=\n"                         /* 11: empty value */
                       "same_core.pair=1\n"                     /* 12: half a pair */
                       "memory.alone_gbps=8.5\n";               /* valid */
    int rejected = read_text_profile(text, &p, diag, sizeof(diag));
    CHECK(rejected == 9, "rejected %d lines, expected 9; diagnostics:\n%s", rejected, diag);
    const char *expected[] = {"line 4: expected key=value: 'garbage line'",
                              "line 5: invalid value: 'same_core.cma_threshold=abc'",
                              "line 6: unknown key", "line 7: unknown key",
                              "line 8: invalid value", "line 9: invalid value",
                              "line 10: unsupported version", "line 11: empty value",
                              "line 12: invalid value", "default kept"};
    for (size_t i = 0; i < sizeof(expected) / sizeof(expected[0]); i++)
        CHECK(strstr(diag, expected[i]), "no '%s' in diagnostics:\n%s", expected[i], diag);
    CHECK(strstr(diag, "text.txt"), "diagnostics do not name the file:\n%s", diag);
    CHECK(p.cls[TOPO_SHARED_L3].cma_threshold == 256 << 10 && p.cls[TOPO_SHARED_L3].measured,
          "valid line not applied");
    CHECK(p.memory_gbps_alone == 8.5, "valid last line not applied");
    CHECK(p.cls[TOPO_SAME_CORE].cma_threshold == defaults.cls[TOPO_SAME_CORE].cma_threshold &&
              !p.cls[TOPO_SAME_CORE].measured, "bad same_core value changed the default");
    CHECK(p.cls[TOPO_OTHER_NUMA].cma_threshold == defaults.cls[TOPO_OTHER_NUMA].cma_threshold,
          "bad other_numa value changed the default");
    CHECK(p.cls[TOPO_SAME_NUMA].latency_ns == 0, "negative latency accepted");
    CHECK(p.cls[TOPO_SAME_CORE].cpu_a == defaults.cls[TOPO_SAME_CORE].cpu_a, "half pair");

    /* A profile of another machine is ignored whole. */
    char other[128];
    snprintf(other, sizeof(other), "cpus=%d\nshared_l3.cma_threshold=1K\n", topo_hw_pus() + 7);
    rejected = read_text_profile(other, &p, diag, sizeof(diag));
    CHECK(rejected == 1 && strstr(diag, "CPUs"), "foreign profile: %d, '%s'", rejected, diag);
    CHECK(p.cls[TOPO_SHARED_L3].cma_threshold == defaults.cls[TOPO_SHARED_L3].cma_threshold &&
              p.source[0] == '\0', "foreign profile applied");

    /* Unreadable file. */
    topo_profile_defaults(&p);
    CHECK(topo_profile_read("/nonexistent/x/profile.txt", &p, NULL) == -1, "missing file");
}

static void test_malformed_process_profile(void)
{
    char path[512];
    snprintf(path, sizeof(path), "%s/bad.txt", dir);
    FILE *f = fopen(path, "w");
    fputs("shared_l3.cma_threshold=lots\nsame_core.cma_threshold=never\n", f);
    fclose(f);
    struct topo_profile defaults;
    topo_profile_defaults(&defaults);
    reload_with(path); /* prints one rejection on stderr */
    CHECK(topo_profile_cma_threshold(TOPO_SHARED_L3) ==
              defaults.cls[TOPO_SHARED_L3].cma_threshold, "bad line changed the threshold");
    CHECK(topo_profile_cma_threshold(TOPO_SAME_CORE) == TOPO_THRESHOLD_NEVER, "good line lost");
    unlink(path);
}

static void test_threshold_text(void)
{
    char buf[32];
    CHECK(strcmp(topo_profile_threshold_text(TOPO_THRESHOLD_NEVER, buf, sizeof(buf)),
                 "never") == 0, "never");
    CHECK(strcmp(topo_profile_threshold_text(65536, buf, sizeof(buf)), "64K") == 0, "64K");
    CHECK(strcmp(topo_profile_threshold_text(32u << 20, buf, sizeof(buf)), "32M") == 0, "32M");
    CHECK(strcmp(topo_profile_threshold_text(1000, buf, sizeof(buf)), "1000") == 0, "1000");
}

static void test_default_path(void)
{
    char path[512];
    unsetenv("NODEMPI_PROFILE");
    setenv("XDG_CACHE_HOME", "/var/cache/test", 1);
    CHECK(topo_profile_path(path, sizeof(path)) == 0 &&
              strncmp(path, "/var/cache/test/nodempi/profile-", 32) == 0, "xdg path %s", path);
    unsetenv("XDG_CACHE_HOME");
    setenv("HOME", "/home/someone", 1);
    CHECK(topo_profile_path(path, sizeof(path)) == 0 &&
              strncmp(path, "/home/someone/.cache/nodempi/profile-", 37) == 0, "home path %s",
          path);
    setenv("NODEMPI_PROFILE", "/tmp/x.txt", 1);
    CHECK(topo_profile_path(path, sizeof(path)) == 1 && strcmp(path, "/tmp/x.txt") == 0,
          "NODEMPI_PROFILE path %s", path);
}

int main(void)
{
    snprintf(dir, sizeof(dir), "/tmp/nodempi-test-profile-%ld", (long)getpid());
    mkdir(dir, 0700);
    test_defaults();
    test_roundtrip();
    test_malformed();
    test_malformed_process_profile();
    test_threshold_text();
    test_default_path();
    topo_hw_finalize();
    char cmd[300];
    snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
    if (failures) {
        fprintf(stderr, "%d failures\n", failures);
        return 1;
    }
    printf("ok\n");
    return 0;
}
