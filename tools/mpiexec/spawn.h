/* spawn.h - start one rank: fork, own session and process group, stdio pipes, binding,
 * NODEMPI_* environment, parent-death signal, exec. Owns everything the child does between
 * fork and exec, and reports an exec failure back to mpiexec through a close-on-exec pipe. */
#ifndef NODEMPI_MPIEXEC_SPAWN_H
#define NODEMPI_MPIEXEC_SPAWN_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "placement.h"

struct spawn_request {
    int rank;
    int nranks;
    const char *program_path; /* resolved, executable */
    char **argv;
    const char *wdir;         /* chdir here before exec; NULL: stay */
    int appnum;               /* NODEMPI_APPNUM: index of the rank's app context */
    int universe_size;        /* NODEMPI_UNIVERSE_SIZE */
    const char *job_name;     /* segment name, NODEMPI_JOB */
    int cpus_available;       /* NODEMPI_NCORES */
    const struct rank_placement *placement;
    const struct app_context *app; /* the rank's program: MPI_INFO_ENV values, -envnone */
    bool env_none;            /* -genvnone: start from an empty environment */
    const struct rank_env_setting *extra_env; /* -genv, -x, -env, ...: those of appnum apply */
    int extra_env_count;
    const char *initial_errhandler; /* NODEMPI_INITIAL_ERRHANDLER, NULL: the default */
    int stdin_fd;             /* the child's stdin (a pipe end or /dev/null) */
    bool merge_stderr;        /* --merge-stderr-to-stdout: stderr is the stdout pipe too */
    const sigset_t *handled_signals; /* mpiexec's own signals: default again in the child */
};

struct spawned_rank {
    pid_t pid;    /* also the rank's process group id */
    int stdout_fd; /* read ends, non-blocking, close-on-exec */
    int stderr_fd;
};

/* Returns 0, or an errno value with a message in why (the child, if any, is reaped). */
int spawn_rank(const struct spawn_request *req, struct spawned_rank *out, char *why,
               size_t why_len);

#endif
