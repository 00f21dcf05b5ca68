/* reaper.h - a process that cleans up after a SIGKILLed mpiexec (tools/mpiexec/reaper.c). */
#ifndef NODEMPI_MPIEXEC_REAPER_H
#define NODEMPI_MPIEXEC_REAPER_H

#include <sys/types.h>

/* Forks the reaper (after the job segment exists, before any rank starts). -1 if it could not:
 * the job runs without it, as it would have before. */
int reaper_start(void);

/* A rank's process group, to kill if mpiexec dies without saying the job ended cleanly. */
void reaper_watch_group(pid_t group);

/* The reaper's pid (0 when none): mpiexec's own orphan sweep must leave it alone. */
pid_t reaper_pid(void);

/* The job ended and mpiexec removed its segment and killed the ranks' groups itself: the
 * reaper exits without killing anything, and this waits for it. */
void reaper_finish(void);

#endif
