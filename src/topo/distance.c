/* distance.c - the distance class of two CPUs (same core, shared L2, shared L3, same NUMA node,
 * other NUMA node; seed 001 §4.1 keys its thresholds by it) and the smallest cache they share.
 * Pure lookups in the machine table of hardware.c: no hwloc call, no allocation. */
#include <string.h>

#include "topo/hardware.h"
#include "topo/hardware_internal.h"
#include "topo/profile.h"

static const char *const distance_names[TOPO_DISTANCE_CLASSES] = {
    [TOPO_SAME_CORE] = "same_core",   [TOPO_SHARED_L2] = "shared_l2",
    [TOPO_SHARED_L3] = "shared_l3",   [TOPO_SAME_NUMA] = "same_numa",
    [TOPO_OTHER_NUMA] = "other_numa", [TOPO_UNKNOWN] = "unknown",
};

const char *topo_distance_name(enum topo_distance d)
{
    return (unsigned)d < TOPO_DISTANCE_CLASSES ? distance_names[d] : "invalid";
}

int topo_distance_from_name(const char *name, size_t len, enum topo_distance *out)
{
    for (int d = 0; d < TOPO_DISTANCE_CLASSES; d++) {
        if (strlen(distance_names[d]) == len && strncmp(distance_names[d], name, len) == 0) {
            *out = (enum topo_distance)d;
            return 0;
        }
    }
    return -1;
}

/* Lowest cache level both CPUs hang under (same hwloc object), 0 when none. */
static int shared_cache_level(const struct topo_hw_cpu *a, const struct topo_hw_cpu *b)
{
    for (int level = 1; level <= TOPO_HW_CACHE_LEVELS; level++)
        if (a->cache_id[level - 1] != 0 && a->cache_id[level - 1] == b->cache_id[level - 1])
            return level;
    return 0;
}

enum topo_distance topo_distance_between_cpus(int cpu_a, int cpu_b)
{
    if (!topo_hw_cpu_present(cpu_a) || !topo_hw_cpu_present(cpu_b))
        return TOPO_UNKNOWN;
    const struct topo_hw_cpu *a = &topo_machine.cpus[cpu_a], *b = &topo_machine.cpus[cpu_b];
    if (cpu_a == cpu_b || a->core == b->core)
        return TOPO_SAME_CORE;
    int level = shared_cache_level(a, b);
    if (level == 1 || level == 2)
        return TOPO_SHARED_L2;
    if (level >= 3)
        return TOPO_SHARED_L3;
    /* A NUMA node we cannot tell (-1) counts as the same node: one-node machines often
     * report none. */
    if (a->numa == b->numa || a->numa < 0 || b->numa < 0)
        return TOPO_SAME_NUMA;
    return TOPO_OTHER_NUMA;
}

/* What a cache of `level` really holds for us: hwloc's size, unless the profile measured less
 * (nodempi-probe's pointer chase: in a VM the host's other tenants share the L3, and this
 * machine's 32 MiB L3 behaves like 4-8 MiB). */
static size_t effective_cache_bytes(int level, size_t hwloc_bytes)
{
    size_t measured = topo_profile_cache_bytes(level);
    return measured && measured < hwloc_bytes ? measured : hwloc_bytes;
}

size_t topo_distance_shared_cache(int cpu_a, int cpu_b, int *level_out)
{
    if (!topo_hw_cpu_present(cpu_a) || !topo_hw_cpu_present(cpu_b)) {
        *level_out = topo_machine.machine_cache_level;
        return topo_machine.machine_cache_bytes;
    }
    const struct topo_hw_cpu *a = &topo_machine.cpus[cpu_a], *b = &topo_machine.cpus[cpu_b];
    *level_out = shared_cache_level(a, b);
    return *level_out ? a->cache_bytes[*level_out - 1] : 0;
}

size_t topo_shared_cache_bytes(int cpu_a, int cpu_b)
{
    int level;
    size_t bytes = topo_distance_shared_cache(cpu_a, cpu_b, &level);
    return bytes ? effective_cache_bytes(level, bytes) : 0;
}

void topo_distance_classify_machine(void)
{
    for (int d = 0; d < TOPO_DISTANCE_CLASSES; d++)
        topo_machine.example[d][0] = topo_machine.example[d][1] = -1;
    enum topo_distance widest = TOPO_SAME_CORE;
    int found = 0;
    for (int a = 0; a < topo_machine.cpu_limit && found < TOPO_UNKNOWN; a++) {
        for (int b = a; b < topo_machine.cpu_limit && found < TOPO_UNKNOWN; b++) {
            enum topo_distance d = topo_distance_between_cpus(a, b);
            if (d == TOPO_UNKNOWN || topo_machine.example[d][0] >= 0)
                continue;
            topo_machine.example[d][0] = a;
            topo_machine.example[d][1] = b;
            found++;
            if (d > widest)
                widest = d;
        }
    }
    /* Nothing known about the machine: assume no shared cache. */
    if (found == 0 || widest > TOPO_SAME_NUMA)
        widest = TOPO_SAME_NUMA;
    topo_machine.unbound = widest;
}

enum topo_distance topo_distance_unbound(void) { return topo_machine.unbound; }

int topo_distance_present(enum topo_distance d)
{
    return (unsigned)d < TOPO_UNKNOWN && topo_machine.example[d][0] >= 0;
}

int topo_distance_example(enum topo_distance d, int *cpu_a, int *cpu_b)
{
    if (!topo_distance_present(d))
        return -1;
    *cpu_a = topo_machine.example[d][0];
    *cpu_b = topo_machine.example[d][1];
    return 0;
}
