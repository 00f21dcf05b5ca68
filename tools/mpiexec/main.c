/* main.c - mpiexec (alias mpirun): start an MPI job of N ranks on this node and wait for it.
 * Order matters: check the program before creating anything, block the handled signals
 * before the first fork (so no SIGCHLD or Ctrl-C is missed), create the segment before the
 * ranks start, and remove it after the last rank is gone. The pieces: options.c (command
 * line), placement.c (binding), job_segment.c (segment life), reaper.c (cleanup after a
 * SIGKILL of mpiexec), job.c (running), spawn.c, forward.c. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <unistd.h>

#include "job.h"
#include "job_segment.h"
#include "options.h"
#include "placement.h"
#include "reaper.h"

/* The same statuses a shell uses, so scripts can treat mpiexec like the program it runs. */
enum { EXIT_USAGE = 2, EXIT_CANNOT_RUN = 127 };

/* Signals mpiexec turns into events of its loop; the terminating ones reach the ranks. */
static const int handled_signal_list[] = {SIGCHLD, SIGINT, SIGTERM, SIGHUP,
                                          SIGQUIT, SIGTSTP, SIGCONT};

/* A closed fd 0-2 would be handed out again by pipe2(), and a rank would then write its
 * output into its own stdin pipe; /dev/null in the gap keeps 0, 1 and 2 what they mean. */
static void open_missing_standard_fds(void)
{
    for (int fd = 0; fd <= 2; fd++) {
        if (fcntl(fd, F_GETFD) < 0 && open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY) < 0)
            exit(EXIT_CANNOT_RUN);
    }
}

static int check_executable(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return errno;
    if (S_ISDIR(st.st_mode))
        return EISDIR;
    if (!S_ISREG(st.st_mode) || access(path, X_OK) != 0)
        return EACCES;
    return 0;
}

/* Searches dirs (-path) or PATH as execvp would; ENOENT when no directory has the name at all,
 * otherwise the first candidate's reason (path then names it). */
static int search_path(const char *name, const char *dirs, char *path, size_t path_len)
{
    const char *dir = dirs ? dirs : getenv("PATH");
    if (!dir || !*dir)
        dir = "/usr/local/bin:/usr/bin:/bin";
    char first_unusable[PATH_MAX] = "";
    int first_err = ENOENT;
    for (;;) {
        size_t dir_len = strcspn(dir, ":");
        snprintf(path, path_len, "%.*s%s%s", (int)dir_len, dir, dir_len ? "/" : "", name);
        int err = check_executable(path);
        if (err == 0)
            return 0;
        if (err != ENOENT && err != ENOTDIR && first_err == ENOENT) {
            first_err = err;
            snprintf(first_unusable, sizeof(first_unusable), "%s", path);
        }
        if (dir[dir_len] == '\0')
            break;
        dir += dir_len + 1;
    }
    snprintf(path, path_len, "%s", first_unusable);
    return first_err;
}

/* Finds the program (a name with '/' is a path, else the -path directories or PATH are
 * searched) and explains, naming it, when it cannot be run. */
static bool resolve_program(const char *name, const char *dirs, char *path, size_t path_len)
{
    int err;
    if (strchr(name, '/')) {
        snprintf(path, path_len, "%s", name);
        err = check_executable(path);
    } else {
        err = search_path(name, dirs, path, path_len);
    }
    /* Absolute, so that a rank's -wdir does not change which program it runs. */
    char cwd[PATH_MAX];
    if (err == 0 && path[0] != '/' && getcwd(cwd, sizeof(cwd))) {
        char relative[PATH_MAX];
        snprintf(relative, sizeof(relative), "%s", path);
        if ((size_t)snprintf(path, path_len, "%s/%s", cwd, relative) >= path_len)
            err = ENAMETOOLONG;
    }
    if (err == ENOENT && !strchr(name, '/') && dirs)
        fprintf(stderr, "mpiexec: %s: not found in -path %s\n", name, dirs);
    else if (err == ENOENT && !strchr(name, '/'))
        fprintf(stderr, "mpiexec: %s: command not found\n", name);
    else if (err != 0)
        fprintf(stderr, "mpiexec: cannot run %s: %s\n", path, strerror(err));
    return err == 0;
}

/* Blocks the handled signals and returns a signalfd for them (-1 with a message on failure). */
static int take_over_signals(sigset_t *handled)
{
    sigemptyset(handled);
    for (size_t i = 0; i < sizeof(handled_signal_list) / sizeof(handled_signal_list[0]); i++) {
        /* An inherited SIG_IGN would make the kernel reap children or drop Ctrl-C unseen
         * (a script's background jobs ignore SIGINT): mpiexec handles these itself. */
        signal(handled_signal_list[i], SIG_DFL);
        sigaddset(handled, handled_signal_list[i]);
    }
    sigset_t blocked = *handled;
    sigaddset(&blocked, SIGTTIN); /* a background read of a terminal fails instead of stopping */
    sigprocmask(SIG_BLOCK, &blocked, NULL);
    signal(SIGPIPE, SIG_IGN); /* a closed stdout is an EPIPE to handle, not a reason to die */
    int fd = signalfd(-1, handled, SFD_NONBLOCK | SFD_CLOEXEC);
    if (fd < 0)
        fprintf(stderr, "mpiexec: signalfd: %s\n", strerror(errno));
    return fd;
}

/* Dies of the signal that ended the job, so the shell sees what it would see without mpiexec. */
static void die_of_signal(int sig)
{
    signal(sig, SIG_DFL);
    sigset_t only;
    sigemptyset(&only);
    sigaddset(&only, sig);
    raise(sig);
    sigprocmask(SIG_UNBLOCK, &only, NULL);
    exit(128 + sig);
}

static struct job_outcome launch_resolved(const struct launch_options *opts,
                                          char **program_paths);

/* Everything between a parsed command line and the end of the job. */
static struct job_outcome launch(const struct launch_options *opts)
{
    struct job_outcome failed = {.exit_status = 1};
    char (*paths)[PATH_MAX] = calloc((size_t)opts->napps, PATH_MAX);
    char **program_paths = calloc((size_t)opts->napps, sizeof(char *));
    if (!paths || !program_paths) {
        free(paths);
        free(program_paths);
        return failed;
    }
    for (int a = 0; a < opts->napps; a++) {
        program_paths[a] = paths[a];
        if (!resolve_program(opts->apps[a].argv[0], opts->apps[a].path, paths[a], PATH_MAX)) {
            free(paths);
            free(program_paths);
            return (struct job_outcome){.exit_status = EXIT_CANNOT_RUN};
        }
    }
    struct job_outcome outcome = launch_resolved(opts, program_paths);
    free(paths);
    free(program_paths);
    return outcome;
}

/* The default MPI_UNIVERSE_SIZE: the job, or the cores when there are more of them (what
 * MPI_Comm_spawn can add without oversubscribing). */
static int universe_size(const struct launch_options *opts, const struct job_placement *plan)
{
    if (opts->universe_size > 0)
        return opts->universe_size;
    return plan->cpus_available > opts->nranks ? plan->cpus_available : opts->nranks;
}

/* Open MPI's --display-allocation table, on stdout as Open MPI prints it; this node's slots
 * are the CPUs the job may use. */
static void display_allocation(const struct job_placement *plan)
{
    char host[256] = "localhost";
    gethostname(host, sizeof(host) - 1);
    host[strcspn(host, ".")] = '\0';
    printf("\n======================   ALLOCATED NODES   ======================\n"
           "\t%s: slots=%d max_slots=0 slots_inuse=0 state=UP\n"
           "=================================================================\n",
           host, plan->cpus_available);
    fflush(stdout);
}

/* --nooversubscribe: as in Open MPI, more ranks (times CPUs per rank) than slots is an error
 * before anything starts. */
static bool fits_without_oversubscribing(const struct launch_options *opts,
                                         const struct job_placement *plan)
{
    int per_rank = opts->cpus_per_rank > 1 ? opts->cpus_per_rank : 1;
    if ((long)opts->nranks * per_rank <= plan->cpus_available)
        return true;
    fprintf(stderr,
            "mpiexec: --nooversubscribe: %d ranks%s need more than the %d CPUs this node "
            "gives the job\n",
            opts->nranks, per_rank > 1 ? " (with their CPUs per rank)" : "",
            plan->cpus_available);
    return false;
}

static struct job_outcome launch_resolved(const struct launch_options *opts,
                                          char **program_paths)
{
    struct job_outcome failed = {.exit_status = 1};
    sigset_t handled;
    int signal_fd = take_over_signals(&handled);
    if (signal_fd < 0)
        return failed;
    job_segment_remove_stale();
    /* Orphans of the ranks become mpiexec's children, so it can make sure they are gone. */
    prctl(PR_SET_CHILD_SUBREAPER, 1);
    struct job_placement placement;
    char segment_name[64];
    struct shm_header *segment = NULL;
    bool planned = placement_plan(opts->nranks, opts->bind, opts->cpus_per_rank, &placement);
    if (planned && opts->display_allocation)
        display_allocation(&placement);
    if (planned && (opts->report_bindings || opts->verbose))
        placement_report(&placement, opts->nranks);
    if (planned && opts->no_oversubscribe && !fits_without_oversubscribing(opts, &placement))
        planned = false;
    if (planned)
        segment = job_segment_create(opts->nranks, segment_name, sizeof(segment_name));
    if (segment)
        reaper_start(); /* cleans up if this process is SIGKILLed (reaper.c) */
    struct job_outcome outcome = failed;
    if (segment) {
        struct job_setup setup = {.opts = opts, .program_paths = program_paths,
                                  .universe_size = universe_size(opts, &placement),
                                  .placement = &placement, .segment = segment,
                                  .segment_name = segment_name, .signal_fd = signal_fd,
                                  .handled_signals = &handled};
        outcome = job_run(&setup);
        shm_segment_detach(segment);
        job_segment_remove();
        reaper_finish();
        /* A job the ranks spawned, and their connection segments, may have been killed
         * before their own cleanup (job.c kills whatever the ranks left). */
        job_segment_remove_stale();
    }
    placement_free(&placement);
    close(signal_fd);
    return outcome;
}

int main(int argc, char **argv)
{
    open_missing_standard_fds();
    struct launch_options opts;
    enum options_outcome parsed = options_parse(argc, argv, &opts);
    struct job_outcome outcome = {.exit_status = parsed == OPTIONS_DONE ? 0 : EXIT_USAGE};
    if (parsed == OPTIONS_LAUNCH)
        outcome = launch(&opts);
    options_free(&opts);
    if (outcome.launcher_signal)
        die_of_signal(outcome.launcher_signal);
    return outcome.exit_status;
}
