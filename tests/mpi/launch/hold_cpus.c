/* hold_cpus: holds the claim mpiexec makes on each CPU named on the command line
 * (tools/mpiexec/cpu_claim.c, compiled in) until its standard input ends, as a running job's
 * mpiexec would. Prints "held" once it holds them all; exits 1 if one is taken. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "cpu_claim.h"

int main(int argc, char **argv)
{
    struct cpu_claims claims = {0};
    for (int i = 1; i < argc; i++) {
        cpu_set_t set;
        CPU_ZERO(&set);
        CPU_SET(atoi(argv[i]), &set);
        bool unknown;
        if (!cpu_claim_set(&claims, &set, &unknown)) {
            fprintf(stderr, "hold_cpus: CPU %s %s\n", argv[i],
                    unknown ? "cannot be claimed here" : "is held by another job");
            return 1;
        }
    }
    printf("held\n");
    fflush(stdout);
    char c;
    while (read(STDIN_FILENO, &c, 1) > 0)
        ;
    cpu_claims_release(&claims);
    return 0;
}
