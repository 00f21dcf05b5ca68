/* hardware_internal.h - the machine table hardware.c fills and distance.c / profile.c read.
 * Private to src/topo: other layers use the functions of hardware.h. */
#ifndef NODEMPI_TOPO_HARDWARE_INTERNAL_H
#define NODEMPI_TOPO_HARDWARE_INTERNAL_H

#include <stddef.h>

#include "topo/hardware.h"

#define TOPO_HW_CACHE_LEVELS 4

struct topo_hw_cpu {
    int present;
    int core;                                             /* hwloc logical index of the core */
    int numa;                                             /* first near NUMA node, -1 unknown */
    unsigned long long cache_id[TOPO_HW_CACHE_LEVELS];    /* [level - 1]; 0 = no such cache */
    size_t cache_bytes[TOPO_HW_CACHE_LEVELS];
};

struct topo_machine {
    int loaded;
    int pus, cores, numa_nodes, cache_levels;
    int cpu_limit;                 /* cpus[] covers OS CPU numbers 0 .. cpu_limit - 1 */
    struct topo_hw_cpu *cpus;
    size_t machine_cache_bytes;    /* smallest cache covering every CPU, 0 if none */
    int machine_cache_level;
    /* Filled by topo_distance_classify_machine: */
    int example[TOPO_DISTANCE_CLASSES][2]; /* first CPU pair of each class, -1 if absent */
    enum topo_distance unbound;
};

extern struct topo_machine topo_machine;

/* distance.c: the smallest cache two CPUs share as hwloc reports it (topo_shared_cache_bytes
 * without the profile's measured cap), and its level. */
size_t topo_distance_shared_cache(int cpu_a, int cpu_b, int *level);

/* distance.c: find the classes present and an example pair of each (O(cpus^2), once). */
void topo_distance_classify_machine(void);

#endif
