/* placement.c - the binding plan, from hwloc's view of the CPUs mpiexec may use.
 * hwloc already drops CPUs outside the cgroup; the topology is further restricted to
 * mpiexec's own affinity mask so that `taskset -c 0-3 mpiexec ...` confines the job. Without
 * hwloc's answer the plan falls back to one "core" per CPU of the affinity mask. */
#include "placement.h"

#include <hwloc.h>
#include <hwloc/glibc-sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void leave_unbound(struct rank_placement *rank)
{
    rank->bound = false;
    rank->first_cpu = -1;
    CPU_ZERO(&rank->cpus);
}

/* One rank per CPU of the affinity mask, in CPU order. */
static int plan_from_affinity(int nranks, struct job_placement *plan)
{
    cpu_set_t allowed;
    if (sched_getaffinity(0, sizeof(allowed), &allowed) != 0)
        return 0;
    int count = CPU_COUNT(&allowed);
    if (nranks > count)
        return count;
    int rank = 0;
    for (int cpu = 0; cpu < CPU_SETSIZE && rank < nranks; cpu++) {
        if (!CPU_ISSET(cpu, &allowed))
            continue;
        struct rank_placement *p = &plan->ranks[rank++];
        p->bound = true;
        p->first_cpu = cpu;
        CPU_ZERO(&p->cpus);
        CPU_SET(cpu, &p->cpus);
    }
    return count;
}

static void bind_to_object(hwloc_topology_t topo, hwloc_obj_t obj, struct rank_placement *p)
{
    p->bound = true;
    p->first_cpu = hwloc_bitmap_first(obj->cpuset);
    hwloc_cpuset_to_glibc_sched_affinity(topo, obj->cpuset, &p->cpus, sizeof(p->cpus));
}

/* Cores first; hardware threads when ranks outnumber cores but not threads. Returns the
 * number of hardware threads, or 0 when hwloc cannot describe the machine. */
static int plan_from_hwloc(int nranks, struct job_placement *plan)
{
    hwloc_topology_t topo;
    if (hwloc_topology_init(&topo) != 0)
        return 0;
    if (hwloc_topology_load(topo) != 0) {
        hwloc_topology_destroy(topo);
        return 0;
    }
    hwloc_bitmap_t own = hwloc_bitmap_alloc();
    if (own && hwloc_get_cpubind(topo, own, HWLOC_CPUBIND_PROCESS) == 0)
        hwloc_topology_restrict(topo, own, 0);
    hwloc_bitmap_free(own);

    int cores = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE);
    int threads = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PU);
    hwloc_obj_type_t unit = nranks <= cores ? HWLOC_OBJ_CORE : HWLOC_OBJ_PU;
    if (threads > 0 && nranks <= threads) {
        for (int r = 0; r < nranks; r++)
            bind_to_object(topo, hwloc_get_obj_by_type(topo, unit, (unsigned)r), &plan->ranks[r]);
    }
    hwloc_topology_destroy(topo);
    return threads > 0 ? threads : 0;
}

bool placement_plan(int nranks, enum bind_policy policy, struct job_placement *plan)
{
    plan->ranks = calloc((size_t)nranks, sizeof(*plan->ranks));
    if (!plan->ranks) {
        fprintf(stderr, "mpiexec: out of memory\n");
        return false;
    }
    for (int r = 0; r < nranks; r++)
        leave_unbound(&plan->ranks[r]);

    /* The plan is computed even for --bind-to none: NODEMPI_NCORES is needed either way. */
    plan->cpus_available = plan_from_hwloc(nranks, plan);
    if (plan->cpus_available == 0)
        plan->cpus_available = plan_from_affinity(nranks, plan);
    if (plan->cpus_available == 0)
        plan->cpus_available = 1;
    /* The user may declare fewer CPUs than we see (e.g. cores another job is using): the ranks
     * then wait as an oversubscribed job does (core/progress.c). Binding is unchanged. */
    const char *declared = getenv("NODEMPI_NCORES");
    if (declared && atoi(declared) > 0)
        plan->cpus_available = atoi(declared);

    if (policy == BIND_NONE) {
        for (int r = 0; r < nranks; r++)
            leave_unbound(&plan->ranks[r]);
    } else if (policy == BIND_CORE && nranks > plan->cpus_available) {
        fprintf(stderr, "mpiexec: %d ranks on %d CPUs: ranks are left unbound (oversubscribed)\n",
                nranks, plan->cpus_available);
    }
    return true;
}

void placement_free(struct job_placement *plan)
{
    free(plan->ranks);
    plan->ranks = NULL;
}
