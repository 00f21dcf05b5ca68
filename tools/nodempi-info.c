/* nodempi-info - prints nodempi's version, configuration (every NODEMPI_* tunable with its
 * current value and default) and what this machine offers (cores, caches, distance classes,
 * single copy and its threshold per class).
 * Usage: nodempi-info [--config] */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <mpi.h>

#include "core/config.h"
#include "shm/cma.h"
#include "topo/hardware.h"

int main(int argc, char **argv)
{
    int config_only = argc > 1 && strcmp(argv[1], "--config") == 0;
    if (argc > 1 && !config_only) {
        fprintf(stderr, "usage: nodempi-info [--config]\n");
        return 2;
    }
    core_config_load();
    if (!config_only) {
        printf("nodempi %s, MPI %d.%d standard ABI\n", NODEMPI_VERSION_STRING, MPI_VERSION,
               MPI_SUBVERSION);
        printf("cores online: %ld\n", sysconf(_SC_NPROCESSORS_ONLN));
        printf("single copy (process_vm_readv): %s\n",
               shm_cma_probe() ? "available" : "not permitted");
        printf("\n");
        topo_hw_print(stdout);
        printf("\nconfiguration (NODEMPI_* environment variables):\n");
    }
    core_config_print(stdout);
    return 0;
}
