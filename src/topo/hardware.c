/* hardware.c - loads the hwloc topology once per process and keeps only what the runtime asks
 * about (per OS CPU: core, NUMA node, the data cache of each level and its size) in a small
 * table, then frees hwloc's tree. Distance classes (distance.c) and the profile defaults
 * (profile.c) read this table. Must not bind, migrate or otherwise disturb the process. */
#include "topo/hardware.h"

#include <hwloc.h>
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "topo/hardware_internal.h"
#include "topo/hwloc_lean.h"
#include "topo/profile.h"

/* The machine table: immutable facts about the hardware, filled once by topo_hw_init. Like
 * core_config it is file-level state outside struct nodempi_state because tools and unit tests
 * use it without MPI_Init. */
struct topo_machine topo_machine;

static int cache_level_of(hwloc_obj_t obj)
{
    if (!hwloc_obj_type_is_dcache(obj->type)) /* data or unified caches, not memory-side */
        return 0;
    int level = (int)obj->attr->cache.depth;
    return level >= 1 && level <= TOPO_HW_CACHE_LEVELS ? level : 0;
}

static void record_cpu(hwloc_topology_t topology, hwloc_obj_t pu)
{
    struct topo_hw_cpu *cpu = &topo_machine.cpus[pu->os_index];
    cpu->present = 1;
    hwloc_obj_t core = hwloc_get_ancestor_obj_by_type(topology, HWLOC_OBJ_CORE, pu);
    /* Without a core object (rare VMs) every PU is its own core. */
    cpu->core = core ? (int)core->logical_index : (int)pu->logical_index + (1 << 20);
    cpu->numa = pu->nodeset && !hwloc_bitmap_iszero(pu->nodeset) ?
                    hwloc_bitmap_first(pu->nodeset) : -1;
    for (hwloc_obj_t obj = pu->parent; obj; obj = obj->parent) {
        int level = cache_level_of(obj);
        if (level == 0 || cpu->cache_id[level - 1] != 0)
            continue;
        cpu->cache_id[level - 1] = obj->gp_index + 1; /* 0 means "no cache at this level" */
        cpu->cache_bytes[level - 1] = (size_t)obj->attr->cache.size;
        if (level > topo_machine.cache_levels)
            topo_machine.cache_levels = level;
        /* The smallest cache whose CPU set is the whole machine: shared by any two CPUs. */
        if (hwloc_bitmap_isequal(obj->cpuset, hwloc_topology_get_topology_cpuset(topology)) &&
            (topo_machine.machine_cache_bytes == 0 ||
             obj->attr->cache.size < topo_machine.machine_cache_bytes)) {
            topo_machine.machine_cache_bytes = (size_t)obj->attr->cache.size;
            topo_machine.machine_cache_level = level;
        }
    }
}

static int load_table(hwloc_topology_t topology)
{
    int pus = hwloc_get_nbobjs_by_type(topology, HWLOC_OBJ_PU);
    if (pus <= 0)
        return -1;
    int limit = 0;
    for (hwloc_obj_t pu = NULL; (pu = hwloc_get_next_obj_by_type(topology, HWLOC_OBJ_PU, pu));)
        if ((int)pu->os_index + 1 > limit)
            limit = (int)pu->os_index + 1;
    topo_machine.cpus = calloc((size_t)limit, sizeof(*topo_machine.cpus));
    if (!topo_machine.cpus)
        return -1;
    topo_machine.cpu_limit = limit;
    topo_machine.pus = pus;
    topo_machine.cores = hwloc_get_nbobjs_by_type(topology, HWLOC_OBJ_CORE);
    if (topo_machine.cores <= 0)
        topo_machine.cores = pus;
    topo_machine.numa_nodes = hwloc_get_nbobjs_by_type(topology, HWLOC_OBJ_NUMANODE);
    for (hwloc_obj_t pu = NULL; (pu = hwloc_get_next_obj_by_type(topology, HWLOC_OBJ_PU, pu));)
        record_cpu(topology, pu);
    return 0;
}

/* hwloc with only what we read (topo/hwloc_lean.c): no plugins, no x86 CPUID backend (which
 * would migrate a rank that is already bound), no instruction caches, no I/O devices. */
static int load_hwloc(char *why, size_t why_len)
{
    hwloc_topology_t topology;
    if (topo_hwloc_lean_init(&topology) != 0) {
        snprintf(why, why_len, "hwloc_topology_init failed");
        return -1;
    }
    int rc = -1;
    if (hwloc_topology_load(topology) != 0)
        snprintf(why, why_len, "hwloc_topology_load failed");
    else if ((rc = load_table(topology)) != 0)
        snprintf(why, why_len, "hwloc reported no processing units");
    hwloc_topology_destroy(topology);
    return rc;
}

int topo_hw_init(void)
{
    if (topo_machine.loaded)
        return MPI_SUCCESS;
    char why[128] = "";
    if (load_hwloc(why, sizeof(why)) != 0) {
        fprintf(stderr, "nodempi: topology: %s; CPU distances unknown, default thresholds\n",
                why);
        free(topo_machine.cpus);
        memset(&topo_machine, 0, sizeof(topo_machine));
    }
    topo_machine.loaded = 1;
    topo_distance_classify_machine();
    topo_profile_init();
    return MPI_SUCCESS;
}

void topo_hw_finalize(void)
{
    topo_profile_finalize();
    free(topo_machine.cpus);
    memset(&topo_machine, 0, sizeof(topo_machine));
}

int topo_hw_pus(void) { return topo_machine.pus; }
int topo_hw_cores(void) { return topo_machine.cores; }
int topo_hw_numa_nodes(void) { return topo_machine.numa_nodes; }
int topo_hw_cpu_limit(void) { return topo_machine.cpu_limit; }
int topo_hw_cache_levels(void) { return topo_machine.cache_levels; }

int topo_hw_cpu_present(int cpu)
{
    return cpu >= 0 && cpu < topo_machine.cpu_limit && topo_machine.cpus[cpu].present;
}

size_t topo_hw_cache_bytes(int cpu, int level)
{
    if (!topo_hw_cpu_present(cpu) || level < 1 || level > TOPO_HW_CACHE_LEVELS)
        return 0;
    return topo_machine.cpus[cpu].cache_bytes[level - 1];
}

/* ---- nodempi-info --------------------------------------------------------------------------*/

static const char *size_text(size_t bytes, char *buf, size_t len)
{
    if (bytes == 0)
        snprintf(buf, len, "-");
    else if (bytes % (1u << 20) == 0)
        snprintf(buf, len, "%zu MiB", bytes >> 20);
    else if (bytes % 1024 == 0)
        snprintf(buf, len, "%zu KiB", bytes >> 10);
    else
        snprintf(buf, len, "%zu B", bytes);
    return buf;
}

static void print_class(FILE *out, const struct topo_profile *p, enum topo_distance d)
{
    const struct topo_profile_class *c = &p->cls[d];
    char pair[32] = "-", shared[32], threshold[32], stream[32], latency[48] = "-";
    char bandwidth[48] = "-";
    int a, b;
    if (topo_distance_example(d, &a, &b) == 0)
        snprintf(pair, sizeof(pair), "%d-%d", a, b);
    else
        a = b = -1;
    if (c->latency_ns > 0)
        snprintf(latency, sizeof(latency), "%.0f ns (%.0f-%.0f)", c->latency_ns,
                 c->latency_min_ns, c->latency_max_ns);
    if (c->two_copy_gbps > 0 || c->cma_gbps > 0)
        snprintf(bandwidth, sizeof(bandwidth), "%.1f/%.1f/%.1f", c->two_copy_gbps,
                 c->two_copy_stream_gbps, c->cma_gbps);
    fprintf(out, "  %-11s %-6s %-8s %-22s %-15s %s (%s; streaming ring: %s)\n",
            topo_distance_name(d), pair,
            a >= 0 ? size_text(topo_shared_cache_bytes(a, b), shared, sizeof(shared)) : "-",
            latency, bandwidth,
            topo_profile_threshold_text(topo_profile_cma_threshold(d), threshold,
                                        sizeof(threshold)),
            c->measured ? "measured" : "default",
            topo_profile_threshold_text(topo_profile_cma_threshold_stream(d), stream,
                                        sizeof(stream)));
}

void topo_hw_print(FILE *out)
{
    topo_hw_init();
    const struct topo_profile *p = topo_profile_current();
    char l1[32], l2[32], l3[32], threshold[32], path[512];
    fprintf(out, "hardware (hwloc): %d PUs, %d cores, %d NUMA node(s)\n", topo_hw_pus(),
            topo_hw_cores(), topo_hw_numa_nodes());
    int cpu = topo_hw_cpu_present(0) ? 0 : -1;
    fprintf(out, "caches of CPU 0: L1d %s, L2 %s, L3 %s\n",
            size_text(topo_hw_cache_bytes(cpu, 1), l1, sizeof(l1)),
            size_text(topo_hw_cache_bytes(cpu, 2), l2, sizeof(l2)),
            size_text(topo_hw_cache_bytes(cpu, 3), l3, sizeof(l3)));
    if (p->source[0])
        fprintf(out, "profile: %s\n", p->source);
    else if (topo_profile_path(path, sizeof(path)) >= 0)
        fprintf(out, "profile: default (no profile; nodempi-probe --write creates %s)\n", path);
    else
        fprintf(out, "profile: default (no profile)\n");
    fprintf(out, "distance classes on this machine (latency: one-way median (min-max); "
                 "bandwidth GB/s:\ntwo-copy through the ring / same with streaming stores / "
                 "single copy):\n");
    fprintf(out, "  %-11s %-6s %-8s %-22s %-15s %s\n", "class", "pair", "shared", "latency",
            "bandwidth", "single-copy threshold");
    for (int d = 0; d < TOPO_UNKNOWN; d++)
        if (topo_distance_present((enum topo_distance)d))
            print_class(out, p, (enum topo_distance)d);
    fprintf(out, "  unbound ranks are treated as %s: threshold %s\n",
            topo_distance_name(topo_distance_unbound()),
            topo_profile_threshold_text(topo_profile_cma_threshold(TOPO_UNKNOWN), threshold,
                                        sizeof(threshold)));
    if (p->memory_gbps_alone > 0)
        fprintf(out, "memory bandwidth per core: %.1f GB/s alone, %.1f GB/s with two cores "
                     "streaming\n", p->memory_gbps_alone, p->memory_gbps_shared);
}
