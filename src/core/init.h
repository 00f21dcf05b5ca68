/* init.h - runtime start and stop (called by MPI_Init/MPI_Finalize in src/mpi/runtime.c). */
#ifndef NODEMPI_CORE_INIT_H
#define NODEMPI_CORE_INIT_H

int core_init(int required, int *provided);
int core_finalize(void);
int core_is_main_thread(void);

/* Register cleanup that must run in MPI_Finalize while messaging still works. */
void core_at_finalize(void (*hook)(void));
void core_finalize_hooks_run(void);

#endif
