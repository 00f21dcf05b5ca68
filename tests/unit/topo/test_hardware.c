/* test_hardware.c - unit test of src/topo/hardware.c and distance.c: the distance class and the
 * shared cache of every CPU pair against an independent reading of Linux sysfs (cache/index*,
 * topology/core_cpus_list, nodeN links), symmetry, unbound CPUs, names, init cost and re-init.
 * On this machine (2 vCPUs, private L2, one L3) it also checks the expected answer literally:
 * same CPU -> same_core, CPUs 0 and 1 -> shared_l3 with 32 MiB shared. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "topo/hardware.h"

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

/* ---- sysfs oracle --------------------------------------------------------------------------*/

static int read_text(const char *path, char *buf, size_t len)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    int ok = fgets(buf, (int)len, f) != NULL;
    fclose(f);
    if (!ok)
        return -1;
    buf[strcspn(buf, "\n")] = '\0';
    return 0;
}

/* 1 when cpu is in a list such as "0-3,8,10-11". */
static int list_contains(const char *list, int cpu)
{
    for (const char *p = list; *p;) {
        char *end;
        long lo = strtol(p, &end, 10), hi = lo;
        if (*end == '-')
            hi = strtol(end + 1, &end, 10);
        if (cpu >= lo && cpu <= hi)
            return 1;
        p = *end == ',' ? end + 1 : end + (*end != '\0');
    }
    return 0;
}

struct sysfs_cache {
    int level;
    size_t bytes;
    char shared[256];
};

/* Data and unified caches of cpu (sysfs cache/index*); returns how many. */
static int sysfs_caches(int cpu, struct sysfs_cache *out, int max)
{
    int n = 0;
    for (int index = 0; index < 16 && n < max; index++) {
        char path[256], text[256];
        snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/cache/index%d/type", cpu,
                 index);
        if (read_text(path, text, sizeof(text)) != 0)
            break;
        if (strcmp(text, "Instruction") == 0)
            continue;
        snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/cache/index%d/level", cpu,
                 index);
        read_text(path, text, sizeof(text));
        out[n].level = atoi(text);
        snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/cache/index%d/size", cpu,
                 index);
        read_text(path, text, sizeof(text));
        char *unit;
        out[n].bytes = strtoull(text, &unit, 10);
        if (*unit == 'K')
            out[n].bytes <<= 10;
        else if (*unit == 'M')
            out[n].bytes <<= 20;
        snprintf(path, sizeof(path),
                 "/sys/devices/system/cpu/cpu%d/cache/index%d/shared_cpu_list", cpu, index);
        read_text(path, out[n].shared, sizeof(out[n].shared));
        n++;
    }
    return n;
}

static int sysfs_node(int cpu)
{
    char path[128];
    snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d", cpu);
    DIR *dir = opendir(path);
    int node = -1;
    for (struct dirent *e; dir && (e = readdir(dir));)
        if (strncmp(e->d_name, "node", 4) == 0 && e->d_name[4] >= '0' && e->d_name[4] <= '9')
            node = atoi(e->d_name + 4);
    if (dir)
        closedir(dir);
    return node;
}

/* The class and smallest shared cache by sysfs; -1 when sysfs lacks the cache information. */
static int sysfs_distance(int a, int b, size_t *shared_bytes)
{
    struct sysfs_cache caches[8];
    int n = sysfs_caches(a, caches, 8);
    if (n == 0)
        return -1;
    int level = 0;
    *shared_bytes = 0;
    for (int i = 0; i < n; i++)
        if (list_contains(caches[i].shared, b) && (level == 0 || caches[i].level < level)) {
            level = caches[i].level;
            *shared_bytes = caches[i].bytes;
        }
    char path[128], siblings[256];
    snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/topology/thread_siblings_list",
             a);
    if (a == b || (read_text(path, siblings, sizeof(siblings)) == 0 &&
                   list_contains(siblings, b)))
        return TOPO_SAME_CORE;
    if (level == 1 || level == 2)
        return TOPO_SHARED_L2;
    if (level >= 3)
        return TOPO_SHARED_L3;
    int na = sysfs_node(a), nb = sysfs_node(b);
    return na == nb || na < 0 || nb < 0 ? TOPO_SAME_NUMA : TOPO_OTHER_NUMA;
}

/* ---- tests ---------------------------------------------------------------------------------*/

static void test_pairs_against_sysfs(void)
{
    int limit = topo_hw_cpu_limit(), compared = 0;
    for (int a = 0; a < limit; a++) {
        if (!topo_hw_cpu_present(a))
            continue;
        CHECK(topo_distance_between_cpus(a, a) == TOPO_SAME_CORE, "cpu %d with itself", a);
        CHECK(topo_distance_between_cpus(a, -1) == TOPO_UNKNOWN, "cpu %d with -1", a);
        CHECK(topo_distance_between_cpus(-1, a) == TOPO_UNKNOWN, "-1 with cpu %d", a);
        CHECK(topo_distance_between_cpus(a, limit + 3) == TOPO_UNKNOWN, "cpu beyond limit");
        for (int b = 0; b < limit; b++) {
            if (!topo_hw_cpu_present(b))
                continue;
            enum topo_distance d = topo_distance_between_cpus(a, b);
            CHECK(d == topo_distance_between_cpus(b, a), "class of %d,%d not symmetric", a, b);
            CHECK(topo_shared_cache_bytes(a, b) == topo_shared_cache_bytes(b, a),
                  "shared cache of %d,%d not symmetric", a, b);
            CHECK(topo_distance_present(d), "class %s of %d,%d not marked present",
                  topo_distance_name(d), a, b);
            size_t sys_shared;
            int expected = sysfs_distance(a, b, &sys_shared);
            if (expected < 0)
                continue;
            compared++;
            CHECK((int)d == expected, "cpus %d,%d: hwloc says %s, sysfs says %s", a, b,
                  topo_distance_name(d), topo_distance_name((enum topo_distance)expected));
            CHECK(topo_shared_cache_bytes(a, b) == sys_shared,
                  "cpus %d,%d: shared cache %zu, sysfs %zu", a, b, topo_shared_cache_bytes(a, b),
                  sys_shared);
        }
    }
    printf("compared %d CPU pairs with sysfs\n", compared);
}

static void test_cache_sizes_against_sysfs(void)
{
    for (int cpu = 0; cpu < topo_hw_cpu_limit(); cpu++) {
        struct sysfs_cache caches[8];
        int n = topo_hw_cpu_present(cpu) ? sysfs_caches(cpu, caches, 8) : 0;
        for (int i = 0; i < n; i++)
            CHECK(topo_hw_cache_bytes(cpu, caches[i].level) == caches[i].bytes,
                  "cpu %d L%d: %zu, sysfs %zu", cpu, caches[i].level,
                  topo_hw_cache_bytes(cpu, caches[i].level), caches[i].bytes);
    }
    CHECK(topo_hw_cache_bytes(-1, 1) == 0, "cache of an unbound CPU");
    CHECK(topo_hw_cache_bytes(0, 0) == 0 && topo_hw_cache_bytes(0, 9) == 0, "bad levels");
}

/* What this machine is known to be (see lscpu): checked only when it is that machine. */
static void test_this_machine(void)
{
    if (topo_hw_pus() != 2 || topo_hw_cache_bytes(0, 3) != ((size_t)32 << 20) ||
        topo_hw_cache_bytes(0, 2) == topo_hw_cache_bytes(0, 3))
        return;
    CHECK(topo_distance_between_cpus(0, 1) == TOPO_SHARED_L3, "cpus 0,1: %s",
          topo_distance_name(topo_distance_between_cpus(0, 1)));
    CHECK(topo_shared_cache_bytes(0, 1) == ((size_t)32 << 20), "0,1 share %zu",
          topo_shared_cache_bytes(0, 1));
    CHECK(topo_shared_cache_bytes(-1, 1) == ((size_t)32 << 20), "unbound share %zu",
          topo_shared_cache_bytes(-1, 1));
    CHECK(topo_distance_unbound() == TOPO_SHARED_L3, "unbound class %s",
          topo_distance_name(topo_distance_unbound()));
    CHECK(topo_hw_cores() == 2 && topo_hw_numa_nodes() == 1, "cores %d nodes %d",
          topo_hw_cores(), topo_hw_numa_nodes());
    int a, b;
    CHECK(topo_distance_example(TOPO_SHARED_L3, &a, &b) == 0 && a == 0 && b == 1,
          "example pair of shared_l3");
    CHECK(!topo_distance_present(TOPO_SHARED_L2) && !topo_distance_present(TOPO_OTHER_NUMA),
          "classes absent here reported present");
    printf("this machine: cpus 0,1 %s, sharing %zu MiB\n",
           topo_distance_name(topo_distance_between_cpus(0, 1)),
           topo_shared_cache_bytes(0, 1) >> 20);
}

static void test_names(void)
{
    for (int d = 0; d < TOPO_DISTANCE_CLASSES; d++) {
        const char *name = topo_distance_name((enum topo_distance)d);
        enum topo_distance back;
        CHECK(topo_distance_from_name(name, strlen(name), &back) == 0 && (int)back == d,
              "name roundtrip of %d (%s)", d, name);
    }
    enum topo_distance back;
    CHECK(topo_distance_from_name("shared_l3x", 10, &back) != 0, "bad name accepted");
    CHECK(topo_distance_from_name("shared_l3x", 9, &back) == 0 && back == TOPO_SHARED_L3,
          "prefix with length not accepted");
    CHECK(strcmp(topo_distance_name((enum topo_distance)42), "invalid") == 0, "out of range");
}

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

int main(void)
{
    setenv("NODEMPI_PROFILE", "/nonexistent/nodempi-test-profile.txt", 1);
    double start = now_ms();
    CHECK(topo_hw_init() == 0, "topo_hw_init failed");
    double first = now_ms() - start;
    CHECK(getenv("HWLOC_PLUGINS_BLACKLIST") == NULL, "hwloc plugin switch left in environment");
    start = now_ms();
    topo_hw_init(); /* cached: free */
    double again = now_ms() - start;
    printf("topo_hw_init %.2f ms, again %.4f ms: %d PUs, %d cores\n", first, again,
           topo_hw_pus(), topo_hw_cores());
    /* The budget is 5 ms on an idle machine; a loaded one (tests run in parallel) gets slack. */
    CHECK(first < 200, "topo_hw_init took %.1f ms", first);
    CHECK(again < 0.1, "second topo_hw_init took %.3f ms", again);
    CHECK(topo_hw_pus() >= 1 && topo_hw_cores() >= 1 && topo_hw_cores() <= topo_hw_pus(),
          "pus %d cores %d", topo_hw_pus(), topo_hw_cores());
    CHECK(topo_distance_present(TOPO_SAME_CORE), "same_core must always be present");
    CHECK(topo_distance_between_cpus(-1, -1) == TOPO_UNKNOWN, "both unbound");
    test_names();
    test_pairs_against_sysfs();
    test_cache_sizes_against_sysfs();
    test_this_machine();
    topo_hw_finalize();
    CHECK(topo_hw_pus() == 0, "finalize keeps the table");
    CHECK(topo_distance_between_cpus(0, 0) == TOPO_UNKNOWN, "distance after finalize");
    topo_hw_init();
    CHECK(topo_hw_pus() >= 1 && topo_distance_between_cpus(0, 0) == TOPO_SAME_CORE,
          "re-init after finalize");
    topo_hw_finalize();
    if (failures) {
        fprintf(stderr, "%d failures\n", failures);
        return 1;
    }
    printf("ok\n");
    return 0;
}
