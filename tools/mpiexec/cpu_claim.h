/* cpu_claim.h - which CPUs other nodempi jobs on this machine have bound ranks to. A job
 * placed by default claims the CPUs it binds to for as long as its mpiexec lives, so that
 * jobs started side by side (ctest -j, a batch of test programs) spread over the machine
 * instead of all binding to its first cores. */
#ifndef NODEMPI_MPIEXEC_CPU_CLAIM_H
#define NODEMPI_MPIEXEC_CPU_CLAIM_H

#include <sched.h> /* cpu_set_t: needs _GNU_SOURCE, set for the whole target */
#include <stdbool.h>

struct cpu_claims {
    int *fds; /* one socket per claimed CPU */
    int count;
    int capacity;
};

/* Claims every CPU of set, or none of them: false when another job holds one of them (or
 * the claim cannot be made: then nothing is known and the caller may as well go ahead). */
bool cpu_claim_set(struct cpu_claims *claims, const cpu_set_t *set, bool *unknown);
/* Gives every claim back (also done by the kernel when mpiexec ends, however it ends). */
void cpu_claims_release(struct cpu_claims *claims);

#endif
