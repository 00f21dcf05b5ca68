/* nodempi-info - prints nodempi's version, configuration (every NODEMPI_* tunable with its
 * current value and default) and what this machine offers (cores, caches, distance classes,
 * single copy and its threshold per class); --mpit lists what tools see through the MPI_T
 * interface: the categories with their control and performance variables and event types,
 * and the event sources.
 * Usage: nodempi-info [--config | --mpit] */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <mpi.h>

#include "core/config.h"
#include "shm/cma.h"
#include "topo/hardware.h"

static const char *const class_names[] = {
    [MPI_T_PVAR_CLASS_COUNTER] = "counter",
    [MPI_T_PVAR_CLASS_LEVEL] = "level",
};

/* Through the public MPI_T calls, as a tool would (they work before MPI_Init). */
static int print_mpit(void)
{
    int provided, ncat;
    if (MPI_T_init_thread(MPI_THREAD_SINGLE, &provided) != MPI_SUCCESS)
        return 1;
    MPI_T_category_get_num(&ncat);
    for (int c = 0; c < ncat; c++) {
        char name[128], desc[2048];
        int name_len = sizeof(name), desc_len = sizeof(desc), ncvar, npvar, nsub;
        MPI_T_category_get_info(c, name, &name_len, desc, &desc_len, &ncvar, &npvar, &nsub);
        printf("%s: %s\n", name, desc);
        int indices[64];
        MPI_T_category_get_cvars(c, 64, indices);
        for (int i = 0; i < ncvar && i < 64; i++) {
            int scope;
            name_len = sizeof(name);
            MPI_T_cvar_get_info(indices[i], name, &name_len, NULL, NULL, NULL, NULL, NULL, NULL,
                                &scope);
            printf("    cvar %-34s %s\n", name,
                   scope == MPI_T_SCOPE_LOCAL    ? "writable (local)"
                   : scope == MPI_T_SCOPE_ALL_EQ ? "writable (same on all ranks)"
                                                 : "read-only");
        }
        MPI_T_category_get_pvars(c, 64, indices);
        for (int i = 0; i < npvar && i < 64; i++) {
            int var_class, bind;
            name_len = sizeof(name);
            desc_len = sizeof(desc);
            MPI_T_pvar_get_info(indices[i], name, &name_len, NULL, &var_class, NULL, NULL, desc,
                                &desc_len, &bind, NULL, NULL, NULL);
            printf("    pvar %-34s %s%s\n        %s\n", name, class_names[var_class],
                   bind == MPI_T_BIND_MPI_COMM ? ", per communicator" : "", desc);
        }
        int nevent = 0;
        MPI_T_category_get_num_events(c, &nevent);
        MPI_T_category_get_events(c, 64, indices);
        for (int i = 0; i < nevent && i < 64; i++) {
            int bind, nelements = 0;
            name_len = sizeof(name);
            desc_len = sizeof(desc);
            MPI_T_event_get_info(indices[i], name, &name_len, NULL, NULL, NULL, &nelements,
                                 NULL, NULL, desc, &desc_len, &bind);
            printf("    event %-33s %d elements%s\n        %s\n", name, nelements,
                   bind == MPI_T_BIND_MPI_COMM ? ", per communicator" : "", desc);
        }
    }
    int nsource = 0;
    MPI_T_source_get_num(&nsource);
    for (int s = 0; s < nsource; s++) {
        char name[128], desc[1024];
        int name_len = sizeof(name), desc_len = sizeof(desc);
        MPI_Count ticks, max_ticks;
        MPI_T_source_order order;
        MPI_T_source_get_info(s, name, &name_len, desc, &desc_len, &order, &ticks, &max_ticks,
                              NULL);
        printf("event source %s: %lld ticks/s, %s\n    %s\n", name, (long long)ticks,
               order == MPI_T_SOURCE_ORDERED ? "ordered" : "unordered", desc);
    }
    MPI_T_finalize();
    return 0;
}

int main(int argc, char **argv)
{
    int config_only = argc > 1 && strcmp(argv[1], "--config") == 0;
    if (argc > 1 && strcmp(argv[1], "--mpit") == 0)
        return print_mpit();
    if (argc > 1 && !config_only) {
        fprintf(stderr, "usage: nodempi-info [--config | --mpit]\n");
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
