/* hwloc_lean.c - see hwloc_lean.h. */
#include "topo/hwloc_lean.h"

#include <stdlib.h>

/* hwloc_topology_init dlopens every hwloc plugin installed (Debian's libhwloc-plugins: PCI,
 * OpenCL, GL, libxml2, with about 11 libraries behind them) although nodempi uses none of
 * them: 2.5 ms on an idle machine and tens of ms while other ranks start, and in mpiexec about
 * 6 of the 11 ms of CPU it spends on a 1-rank job (perf stat, 2026-11-29). The environment is
 * hwloc's only switch, so it is set for the duration of the call unless the user set it, then
 * removed (ranks must not inherit it from mpiexec as if the user had set it). */
static const char hwloc_unused_plugins[] =
    "hwloc_pci,hwloc_opencl,hwloc_gl,hwloc_xml_libxml,hwloc_cuda,hwloc_nvml,hwloc_rsmi,"
    "hwloc_levelzero";

static int init_without_plugins(hwloc_topology_t *topology)
{
    if (getenv("HWLOC_PLUGINS_BLACKLIST"))
        return hwloc_topology_init(topology);
    setenv("HWLOC_PLUGINS_BLACKLIST", hwloc_unused_plugins, 0);
    int rc = hwloc_topology_init(topology);
    unsetenv("HWLOC_PLUGINS_BLACKLIST");
    return rc;
}

/* Without the x86 CPUID backend, which migrates the calling thread to every CPU in turn (slow
 * on loaded CPUs, and it would disturb a rank that is already bound): Linux sysfs gives the
 * same cores and caches. */
int topo_hwloc_lean_init(hwloc_topology_t *topology)
{
    int rc = init_without_plugins(topology);
    if (rc != 0)
        return rc;
#if HWLOC_API_VERSION >= 0x00020100
    hwloc_topology_set_components(*topology, HWLOC_TOPOLOGY_COMPONENTS_FLAG_BLACKLIST, "x86");
#endif
    hwloc_topology_set_icache_types_filter(*topology, HWLOC_TYPE_FILTER_KEEP_NONE);
    hwloc_topology_set_io_types_filter(*topology, HWLOC_TYPE_FILTER_KEEP_NONE);
    return 0;
}
