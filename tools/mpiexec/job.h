/* job.h - one running job: starts the ranks, forwards their stdio, reaps them, receives
 * mpiexec's signals and enforces the timeout; decides when the job ends and with what status.
 * What counts as a failed rank and how teardown escalates are written down in job.c. */
#ifndef NODEMPI_MPIEXEC_JOB_H
#define NODEMPI_MPIEXEC_JOB_H

#include <signal.h>

#include "options.h"
#include "placement.h"
#include "shm/segment.h"

struct job_setup {
    const struct launch_options *opts;
    char **program_paths;            /* resolved, one per app context (opts->apps) */
    int universe_size;               /* MPI_UNIVERSE_SIZE the ranks report */
    const struct job_placement *placement;
    struct shm_header *segment;
    const char *segment_name;
    int signal_fd;                   /* signalfd (non-blocking) of handled_signals, blocked */
    const sigset_t *handled_signals; /* SIGCHLD and the signals mpiexec passes on */
};

struct job_outcome {
    int exit_status;
    int launcher_signal; /* terminating signal mpiexec received (it should die of it), or 0 */
};

/* Runs the job to its end. On return no rank and nothing a rank forked in its process group
 * is left; the segment is still there (the caller removes it). */
struct job_outcome job_run(const struct job_setup *setup);

#endif
