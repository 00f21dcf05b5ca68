/* hardware.h - what this machine is made of, as hwloc reports it: CPUs, cores, caches, NUMA
 * nodes, and the distance class of any two CPUs (the key of every per-pair threshold).
 * Loaded once per process by topo_hw_init() into a small table; queries are array lookups with
 * no system call. Knows nothing of ranks or messages: callers pass OS CPU numbers (the
 * launcher's binding, shm_rank_block.core; -1 = unbound). */
#ifndef NODEMPI_TOPO_HARDWARE_H
#define NODEMPI_TOPO_HARDWARE_H

#include <stddef.h>
#include <stdio.h>

/* How close two CPUs are, closest first. The order matters: a larger value never shares more
 * than a smaller one, so "the widest class on this machine" is a max. */
enum topo_distance {
    TOPO_SAME_CORE,   /* same PU (oversubscribed) or hyperthreads of one core: share L1/L2 */
    TOPO_SHARED_L2,   /* different cores that share an L2 (or L1) */
    TOPO_SHARED_L3,   /* share a cache of level 3 or more, but no L2 */
    TOPO_SAME_NUMA,   /* no shared cache, same memory node */
    TOPO_OTHER_NUMA,  /* different memory nodes */
    TOPO_UNKNOWN,     /* a CPU is -1 (unbound) or not on this machine */
    TOPO_DISTANCE_CLASSES
};

/* "same_core", "shared_l2", "shared_l3", "same_numa", "other_numa", "unknown": used both for
 * printing and as the key prefix in profile files. */
const char *topo_distance_name(enum topo_distance d);
/* Inverse of topo_distance_name; returns 0, or -1 for an unknown name. */
int topo_distance_from_name(const char *name, size_t len, enum topo_distance *out);

/* Load the hwloc topology (once; later calls are free) and the profile (src/topo/profile.h).
 * About 1 ms here (hwloc's sysfs reads; its plugins are skipped). Returns MPI_SUCCESS; when
 * hwloc fails the machine is described as "unknown" (every pair TOPO_UNKNOWN, no cache sizes)
 * and the reason goes to stderr: callers need no fallback path. */
int topo_hw_init(void);
void topo_hw_finalize(void);

int topo_hw_pus(void);   /* processing units (hardware threads) hwloc sees */
int topo_hw_cores(void); /* cores */
int topo_hw_numa_nodes(void);
/* Largest OS CPU number + 1 (CPU numbers can have holes). */
int topo_hw_cpu_limit(void);
/* 1 when cpu is an OS CPU number hwloc knows. */
int topo_hw_cpu_present(int cpu);

/* Data (or unified) cache of `level` (1, 2, 3, ...) above cpu, in bytes; 0 when there is none,
 * the level is unknown or cpu is -1. */
size_t topo_hw_cache_bytes(int cpu, int level);
/* Largest cache level any CPU has (3 here), 0 when hwloc reported none. */
int topo_hw_cache_levels(void);

/* Distance class of two OS CPUs; symmetric; TOPO_UNKNOWN when either is -1 or unknown. */
enum topo_distance topo_distance_between_cpus(int cpu_a, int cpu_b);

/* Size of the smallest cache both CPUs share (the pipelined copy's working set should fit in
 * it), 0 when they share none. With an unbound CPU (-1): the smallest cache that covers every
 * CPU of the machine, since wherever the ranks run they share at least that; 0 if none.
 * hwloc's size, or less when the profile measured less (the effective size). */
size_t topo_shared_cache_bytes(int cpu_a, int cpu_b);

/* The class two unbound ranks should assume: the widest class any two CPUs of this machine
 * have, but at most TOPO_SAME_NUMA (unbound ranks on a multi-node machine are usually placed
 * on one node by the kernel; the first-touch policy keeps their memory there). */
enum topo_distance topo_distance_unbound(void);
/* 1 when some pair of CPUs of this machine has class d (TOPO_SAME_CORE is always present:
 * two ranks bound to one CPU). For printing and for the probe. */
int topo_distance_present(enum topo_distance d);
/* First CPU pair (a <= b) of class d, for the probe and nodempi-info; -1 when absent. */
int topo_distance_example(enum topo_distance d, int *cpu_a, int *cpu_b);

/* nodempi-info: the machine (CPUs, caches), the classes present with their CPU pairs and, per
 * class, the single-copy threshold from the profile (or the default and why). */
void topo_hw_print(FILE *out);

#endif
