/* init.h - runtime start and stop. The runtime is shared by the world model (MPI_Init and
 * MPI_Finalize in src/mpi/runtime.c) and the sessions of MPI-4 (src/mpi/session.c): each holds
 * one reference, the first starts it and the last stops it. */
#ifndef NODEMPI_CORE_INIT_H
#define NODEMPI_CORE_INIT_H

/* MPI_Init / MPI_Finalize: the world model's reference (sets world_initialized/finalized). */
int core_init(int required, int *provided);
int core_finalize(void);

/* One more / one fewer holder of the runtime (a session). The last release is collective over
 * the job, like MPI_Finalize. */
int core_runtime_acquire(void);
int core_runtime_release(void);

int core_is_main_thread(void);

/* The thread level granted for a requested one (MPI_Init_thread, a session's thread_level
 * hint); granting MPI_THREAD_MULTIPLE turns the big lock on (core/thread.h). */
int core_thread_level_grant(int required);

/* Register cleanup that must run in MPI_Finalize while messaging still works. */
void core_at_finalize(void (*hook)(void));
void core_finalize_hooks_run(void);

#endif
