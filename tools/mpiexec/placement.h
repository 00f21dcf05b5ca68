/* placement.h - where each rank runs: the hardware threads the job may use and one CPU set
 * per rank. Owns the placement rule (one core per rank while ranks fit on cores, one hardware
 * thread per rank while they fit on those, unbound beyond; --bind-to hwthread, l3cache, numa
 * and socket change the unit) and its report; never binds mpiexec itself. */
#ifndef NODEMPI_MPIEXEC_PLACEMENT_H
#define NODEMPI_MPIEXEC_PLACEMENT_H

#include <sched.h> /* cpu_set_t: needs _GNU_SOURCE, set for the whole target */
#include <stdbool.h>

#include "cpu_claim.h"
#include "options.h"

struct rank_placement {
    bool bound;
    int first_cpu; /* OS number of cpus' first CPU (as sched_getcpu reports it), -1 if unbound */
    cpu_set_t cpus;
};

struct job_placement {
    int cpus_available; /* hardware threads mpiexec may use: NODEMPI_NCORES for the ranks */
    struct rank_placement *ranks;
    struct cpu_claims claims; /* the CPUs this job's ranks are bound to (cpu_claim.h) */
};

/* Plans nranks placements under policy, each on cpus_per_rank cores (0 or 1: one); false
 * (message printed) only when out of memory. The default policy binds a job of several ranks
 * to the cores no other nodempi job has claimed first, claiming them, and to claimed ones (in
 * order) only when too few are free. A one-rank job is left unbound (as MPICH leaves it:
 * nothing to be close to, and its threads may use every CPU). */
bool placement_plan(int nranks, enum bind_policy policy, int cpus_per_rank,
                    struct job_placement *plan);
/* One line per rank on stderr: the CPUs it is bound to, or that it is not bound
 * (--report-bindings). */
void placement_report(const struct job_placement *plan, int nranks);
void placement_free(struct job_placement *plan);

#endif
