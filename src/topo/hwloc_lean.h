/* hwloc_lean.h - a hwloc topology holding only what nodempi reads (CPUs, caches, NUMA nodes),
 * shared by the runtime (topo/hardware.c) and the launcher (tools/mpiexec/placement.c), which
 * compiles hwloc_lean.c itself. */
#ifndef NODEMPI_TOPO_HWLOC_LEAN_H
#define NODEMPI_TOPO_HWLOC_LEAN_H

#include <hwloc.h>

/* hwloc_topology_init without loading hwloc's plugins, then the settings that keep the x86
 * CPUID backend, instruction caches and I/O objects out; the caller loads and destroys the
 * topology. Returns hwloc_topology_init's result. Not thread-safe (it sets and removes an
 * environment variable around the init): call it before the process starts threads. */
int topo_hwloc_lean_init(hwloc_topology_t *topology);

#endif
