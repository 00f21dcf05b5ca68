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

#include "topo/hwloc_lean.h"

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

/* --cpus-per-rank n: the n units from first on, together (Open MPI's PE=n). */
static void bind_to_objects(hwloc_topology_t topo, hwloc_obj_type_t unit, int first, int count,
                            struct rank_placement *p)
{
    hwloc_bitmap_t set = hwloc_bitmap_alloc();
    if (!set)
        return; /* stays unbound */
    for (int i = 0; i < count; i++)
        hwloc_bitmap_or(set, set, hwloc_get_obj_by_type(topo, unit, (unsigned)(first + i))->cpuset);
    p->bound = true;
    p->first_cpu = hwloc_bitmap_first(set);
    hwloc_cpuset_to_glibc_sched_affinity(topo, set, &p->cpus, sizeof(p->cpus));
    hwloc_bitmap_free(set);
}

/* The hwloc object a wide binding policy binds to, or HWLOC_OBJ_TYPE_MAX for none. */
static hwloc_obj_type_t wide_binding_type(enum bind_policy policy)
{
    switch (policy) {
    case BIND_L3CACHE:
        return HWLOC_OBJ_L3CACHE;
    case BIND_NUMA:
        return HWLOC_OBJ_NUMANODE;
    case BIND_SOCKET:
        return HWLOC_OBJ_PACKAGE;
    default:
        return HWLOC_OBJ_TYPE_MAX;
    }
}

/* The object of type whose CPUs include obj's. NUMA nodes are memory children in hwloc 2, not
 * ancestors of cores, so the search compares CPU sets instead of walking up the tree. */
static hwloc_obj_t covering_object(hwloc_topology_t topo, hwloc_obj_type_t type, hwloc_obj_t obj)
{
    for (hwloc_obj_t o = hwloc_get_next_obj_by_type(topo, type, NULL); o;
         o = hwloc_get_next_obj_by_type(topo, type, o)) {
        if (o->cpuset && hwloc_bitmap_isincluded(obj->cpuset, o->cpuset))
            return o;
    }
    return NULL;
}

/* Widens each bound rank to the object of the policy's type holding its core; the rank may
 * then run on any of its CPUs, so no single CPU is reported (first_cpu -1). */
static void widen_bindings(hwloc_topology_t topo, enum bind_policy policy, int nranks,
                           hwloc_obj_type_t unit, int per_rank, struct job_placement *plan)
{
    hwloc_obj_type_t type = wide_binding_type(policy);
    if (type == HWLOC_OBJ_TYPE_MAX || !plan->ranks[0].bound)
        return;
    if (hwloc_get_nbobjs_by_type(topo, type) <= 0) {
        fprintf(stderr, "mpiexec: this machine has no %s objects: ranks are bound to %s\n",
                hwloc_obj_type_string(type), hwloc_obj_type_string(unit));
        return;
    }
    for (int r = 0; r < nranks; r++) {
        hwloc_obj_t own = hwloc_get_obj_by_type(topo, unit, (unsigned)(r * per_rank));
        hwloc_obj_t wide = own ? covering_object(topo, type, own) : NULL;
        if (!wide)
            continue; /* a CPU outside every such object keeps its own binding */
        bind_to_object(topo, wide, &plan->ranks[r]);
        plan->ranks[r].first_cpu = -1;
    }
}

/* The default placement of a job of several ranks: the units no other job has claimed
 * (cpu_claim.c) first, claiming them, then, when too few are free, the claimed ones in order,
 * as without claims. Two 2-rank ping-pong jobs at once on this 2-CPU machine (2M round trips
 * of 8 B each, 3 runs): both bound to both CPUs, 0.96-1.05 s until both had finished; the
 * second left unbound with NODEMPI_NCORES=1, 1.25-1.36 s. Bound side by side, the ranks of
 * the two jobs run in turns (core/running.c: a rank spins only while the one it waits for
 * runs). False when claims cannot be made at all (the caller binds in order). */
static bool bind_to_free_units(hwloc_topology_t topo, hwloc_obj_type_t unit, int nranks,
                               struct job_placement *plan)
{
    int units = hwloc_get_nbobjs_by_type(topo, unit);
    bool *mine = calloc((size_t)(units > 0 ? units : 1), sizeof(*mine));
    if (!mine)
        return false;
    int placed = 0;
    for (int u = 0; u < units && placed < nranks; u++) {
        hwloc_obj_t obj = hwloc_get_obj_by_type(topo, unit, (unsigned)u);
        cpu_set_t set;
        hwloc_cpuset_to_glibc_sched_affinity(topo, obj->cpuset, &set, sizeof(set));
        bool unknown;
        if (cpu_claim_set(&plan->claims, &set, &unknown)) {
            mine[u] = true;
            bind_to_object(topo, obj, &plan->ranks[placed++]);
        } else if (unknown) {
            cpu_claims_release(&plan->claims);
            for (int r = 0; r < placed; r++)
                leave_unbound(&plan->ranks[r]);
            free(mine);
            return false;
        }
    }
    for (int u = 0; u < units && placed < nranks; u++)
        if (!mine[u])
            bind_to_object(topo, hwloc_get_obj_by_type(topo, unit, (unsigned)u),
                           &plan->ranks[placed++]);
    free(mine);
    return true;
}

/* Cores first (hardware threads for BIND_HWTHREAD); hardware threads when ranks outnumber
 * cores but not threads. Returns the number of hardware threads, or 0 when hwloc cannot
 * describe the machine. */
static int plan_from_hwloc(int nranks, enum bind_policy policy, int per_rank,
                           struct job_placement *plan)
{
    hwloc_topology_t topo;
    /* Lean (topo/hwloc_lean.c): every job pays for this load, and the plugins hwloc would
     * dlopen were half of mpiexec's CPU time for a 1-rank job; a launcher that gets little CPU
     * (its session busy with other work) stretches that into seconds. */
    if (topo_hwloc_lean_init(&topo) != 0)
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
    long units = (long)nranks * per_rank;
    hwloc_obj_type_t unit =
        units <= cores && policy != BIND_HWTHREAD ? HWLOC_OBJ_CORE : HWLOC_OBJ_PU;
    if (threads > 0 && units <= threads) {
        if (policy == BIND_DEFAULT && per_rank == 1 &&
            bind_to_free_units(topo, unit, nranks, plan))
            ; /* placed */
        else
            for (int r = 0; r < nranks; r++)
                bind_to_objects(topo, unit, r * per_rank, per_rank, &plan->ranks[r]);
        widen_bindings(topo, policy, nranks, unit, per_rank, plan);
    }
    hwloc_topology_destroy(topo);
    return threads > 0 ? threads : 0;
}

bool placement_plan(int nranks, enum bind_policy policy, int cpus_per_rank,
                    struct job_placement *plan)
{
    int per_rank = cpus_per_rank > 1 ? cpus_per_rank : 1;
    plan->ranks = calloc((size_t)nranks, sizeof(*plan->ranks));
    if (!plan->ranks) {
        fprintf(stderr, "mpiexec: out of memory\n");
        return false;
    }
    for (int r = 0; r < nranks; r++)
        leave_unbound(&plan->ranks[r]);

    plan->claims = (struct cpu_claims){0};
    if (policy == BIND_DEFAULT && nranks == 1 && per_rank == 1)
        policy = BIND_NONE; /* see placement.h */
    /* The plan is computed even for --bind-to none: NODEMPI_NCORES is needed either way. */
    plan->cpus_available = plan_from_hwloc(nranks, policy, per_rank, plan);
    if (plan->cpus_available == 0 && per_rank == 1)
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
    } else if ((policy != BIND_DEFAULT || per_rank > 1) &&
               (long)nranks * per_rank > plan->cpus_available) {
        char each[32] = "";
        if (per_rank > 1)
            snprintf(each, sizeof(each), " of %d CPUs each", per_rank);
        fprintf(stderr, "mpiexec: %d ranks%s on %d CPUs: ranks are left unbound (oversubscribed)\n",
                nranks, each, plan->cpus_available);
    }
    return true;
}

void placement_free(struct job_placement *plan)
{
    cpu_claims_release(&plan->claims);
    free(plan->ranks);
    plan->ranks = NULL;
}

/* "0-3,6": the CPUs of set as ranges, as taskset -c and hwloc write them. */
static void format_cpu_list(const cpu_set_t *set, char *text, size_t len)
{
    size_t used = 0;
    text[0] = '\0';
    for (int cpu = 0; cpu < CPU_SETSIZE && used < len; cpu++) {
        if (!CPU_ISSET(cpu, set))
            continue;
        int last = cpu;
        while (last + 1 < CPU_SETSIZE && CPU_ISSET(last + 1, set))
            last++;
        const char *comma = used ? "," : "";
        int n = last > cpu ? snprintf(text + used, len - used, "%s%d-%d", comma, cpu, last)
                           : snprintf(text + used, len - used, "%s%d", comma, cpu);
        used += n > 0 ? (size_t)n : 0;
        cpu = last;
    }
}

void placement_report(const struct job_placement *plan, int nranks)
{
    char cpus[256];
    for (int r = 0; r < nranks; r++) {
        const struct rank_placement *p = &plan->ranks[r];
        if (!p->bound) {
            fprintf(stderr, "mpiexec: rank %d not bound (any of %d CPUs)\n", r,
                    plan->cpus_available);
            continue;
        }
        format_cpu_list(&p->cpus, cpus, sizeof(cpus));
        fprintf(stderr, "mpiexec: rank %d bound to CPU%s %s\n", r,
                CPU_COUNT(&p->cpus) > 1 ? "s" : "", cpus);
    }
}
