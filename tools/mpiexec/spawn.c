/* spawn.c - fork and exec one rank.
 * The child starts its own session, and so its own process group (mpiexec signals the rank
 * together with anything it forks through that group). A session of its own, as Hydra gives
 * its ranks: with the kernel's autogroup scheduling (on by default in Debian and Ubuntu) the
 * CPU is shared fairly between sessions first, so ranks left in mpiexec's session got one
 * session's share between them whenever another session was busy (NPB EP class W, 2 ranks on
 * 2 loaded cores: 3.65 s in one session, 2.2 s with a session per rank). The child asks for
 * SIGKILL when mpiexec dies (a SIGKILLed mpiexec cannot clean up, its ranks must not outlive
 * it), restores the signal state mpiexec changed, and execs. Only the child runs between fork
 * and exec, and mpiexec is single-threaded, so setenv is safe. */
#include "spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

_Noreturn static void child_fail(int report_fd, int err)
{
    ssize_t ignored = write(report_fd, &err, sizeof(err));
    (void)ignored;
    _exit(127);
}

static void child_restore_signals(const sigset_t *handled)
{
    for (int sig = 1; sig < NSIG; sig++) {
        if (sigismember(handled, sig) == 1)
            signal(sig, SIG_DFL);
    }
    signal(SIGPIPE, SIG_DFL); /* mpiexec ignores it to survive a closed stdout; ranks must not */
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
}

static void child_set_number(const char *name, long value)
{
    char text[24];
    snprintf(text, sizeof(text), "%ld", value);
    setenv(name, text, 1);
}

/* Unset when not given: a job started by MPI_Comm_spawn must not report its parents' values. */
static void child_set_text(const char *name, const char *value)
{
    if (value)
        setenv(name, value, 1);
    else
        unsetenv(name);
}

/* What MPI_INFO_ENV reports beyond what a rank can find out itself (core/info.c). */
static void child_set_info(const struct app_context *app, const char *initial_errhandler)
{
    child_set_number("NODEMPI_INFO_MAXPROCS", app->maxprocs);
    child_set_text("NODEMPI_INFO_SOFT", app->soft);
    child_set_text("NODEMPI_INFO_HOST", app->host);
    child_set_text("NODEMPI_INFO_ARCH", app->arch);
    child_set_text("NODEMPI_INITIAL_ERRHANDLER", initial_errhandler);
}

/* The settings of every program (app -1), or of this rank's program. */
static void child_put_settings(const struct spawn_request *req, int app)
{
    for (int i = 0; i < req->extra_env_count; i++) {
        if (req->extra_env[i].app == app)
            putenv(req->extra_env[i].assignment);
    }
}

/* The ranks look for the MPI-5.0 standard ABI's library, libmpi_abi.so.0, in this launcher's
 * library directory first: a program built against another MPI's ABI library (its NEEDED entry
 * names libmpi_abi.so.0, the file name every ABI MPI installs) then runs on the library that goes
 * with this launcher, as the ABI intends. Programs of other MPIs' own ABIs name other files
 * (libmpi.so.12, libmpi.so.40), which that directory does not hold, so they are unaffected.
 * The directory: <mpiexec's directory>/../<libdir>, lib/ in the build tree, the installation's
 * CMAKE_INSTALL_LIBDIR once installed; nothing changes if neither holds the library. */
static void child_prefer_own_library(const char *self)
{
    const char *slash = strrchr(self, '/');
    if (!slash)
        return;
    static const char *const libdirs[] = {NODEMPI_INSTALL_LIBDIR, "lib"};
    for (size_t i = 0; i < sizeof(libdirs) / sizeof(libdirs[0]); i++) {
        char dir[4200];
        char lib[4300];
        int n = snprintf(dir, sizeof(dir), "%.*s/../%s", (int)(slash - self), self, libdirs[i]);
        if (n < 0 || (size_t)n >= sizeof(dir))
            return;
        snprintf(lib, sizeof(lib), "%s/libmpi_abi.so.0", dir);
        if (access(lib, F_OK) != 0)
            continue;
        const char *old = getenv("LD_LIBRARY_PATH");
        if (!old || !*old) {
            setenv("LD_LIBRARY_PATH", dir, 1);
            return;
        }
        size_t len = strlen(dir) + 1 + strlen(old) + 1;
        char *path = malloc(len);
        if (!path)
            return;
        snprintf(path, len, "%s:%s", dir, old);
        setenv("LD_LIBRARY_PATH", path, 1); /* copies it */
        free(path);
        return;
    }
}

/* -genvnone/-envnone empty the environment first; then -genv/-x, then -env (a program's own
 * setting wins over the job's, as in MPICH), then the NODEMPI_* contract with the runtime,
 * which no option can override by accident. */
static void child_set_environment(const struct spawn_request *req, int core, pid_t launcher)
{
    if (req->env_none || req->app->env_none)
        clearenv();
    child_put_settings(req, -1);
    child_put_settings(req, req->appnum);
    child_set_info(req->app, req->initial_errhandler);
    setenv("NODEMPI_JOB", req->job_name, 1);
    child_set_number("NODEMPI_RANK", req->rank);
    child_set_number("NODEMPI_SIZE", req->nranks);
    child_set_number("NODEMPI_LAUNCHER_PID", launcher);
    child_set_number("NODEMPI_CORE", core);
    child_set_number("NODEMPI_NCORES", req->cpus_available);
    child_set_number("NODEMPI_APPNUM", req->appnum);
    child_set_number("NODEMPI_UNIVERSE_SIZE", req->universe_size);
    /* What Open MPI's and MPICH's (Hydra's) launchers tell their ranks, for job scripts and
     * programs that read their rank before MPI_Init (a wrapper picking an output file or a
     * device per rank). One node: the local rank is the rank. Not PMI_FD, PMI_PORT or PMIX_*:
     * a program built with another MPI still starts as that MPI's singleton. */
    static const char *const rank_names[] = {"OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_LOCAL_RANK",
                                             "OMPI_COMM_WORLD_NODE_RANK", "PMI_RANK",
                                             "MPI_LOCALRANKID"};
    static const char *const size_names[] = {"OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_LOCAL_SIZE",
                                             "PMI_SIZE", "MPI_LOCALNRANKS"};
    for (size_t i = 0; i < sizeof(rank_names) / sizeof(rank_names[0]); i++)
        child_set_number(rank_names[i], req->rank);
    for (size_t i = 0; i < sizeof(size_names) / sizeof(size_names[0]); i++)
        child_set_number(size_names[i], req->nranks);
    /* MPI_Comm_spawn starts the children's job with this same launcher. */
    char self[4096];
    ssize_t len = readlink("/proc/self/exe", self, sizeof(self) - 1);
    if (len > 0) {
        self[len] = '\0';
        setenv("NODEMPI_MPIEXEC", self, 1);
        child_prefer_own_library(self);
    }
}

_Noreturn static void run_child(const struct spawn_request *req, int stdout_w, int stderr_w,
                                int report_fd, pid_t launcher)
{
    /* Fails only if the child already leads a process group, which mpiexec never makes it. */
    if (setsid() < 0)
        setpgid(0, 0);
    /* The parent may have died before prctl took effect: then nobody would send the signal. */
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != launcher)
        _exit(127);
    child_restore_signals(req->handled_signals);
    /* Merged as Open MPI merges: one pipe, so the two streams keep the order the rank wrote
     * them in; the stderr pipe then just reports EOF. */
    if (dup2(req->stdin_fd, STDIN_FILENO) < 0 || dup2(stdout_w, STDOUT_FILENO) < 0 ||
        dup2(req->merge_stderr ? stdout_w : stderr_w, STDERR_FILENO) < 0)
        child_fail(report_fd, errno);
    int core = -1;
    const struct rank_placement *place = req->placement;
    if (place->bound && sched_setaffinity(0, sizeof(place->cpus), &place->cpus) == 0)
        core = place->first_cpu;
    child_set_environment(req, core, launcher);
    if (req->wdir && chdir(req->wdir) != 0)
        child_fail(report_fd, errno);
    execv(req->program_path, req->argv);
    child_fail(report_fd, errno);
}

static void close_pair(int fds[2])
{
    if (fds[0] >= 0)
        close(fds[0]);
    if (fds[1] >= 0)
        close(fds[1]);
}

/* Blocks until the child has exec'd (EOF) or reported why it could not (an errno). */
static int wait_for_exec(int report_fd)
{
    int err = 0;
    ssize_t got;
    do {
        got = read(report_fd, &err, sizeof(err));
    } while (got < 0 && errno == EINTR);
    return got == (ssize_t)sizeof(err) ? err : 0;
}

int spawn_rank(const struct spawn_request *req, struct spawned_rank *out, char *why,
               size_t why_len)
{
    int out_pipe[2] = {-1, -1}, err_pipe[2] = {-1, -1}, report[2] = {-1, -1};
    if (pipe2(out_pipe, O_CLOEXEC) != 0 || pipe2(err_pipe, O_CLOEXEC) != 0 ||
        pipe2(report, O_CLOEXEC) != 0) {
        int err = errno;
        snprintf(why, why_len, "cannot create pipes for rank %d: %s", req->rank, strerror(err));
        close_pair(out_pipe);
        close_pair(err_pipe);
        close_pair(report);
        return err;
    }
    pid_t launcher = getpid();
    pid_t pid = fork();
    if (pid == 0)
        run_child(req, out_pipe[1], err_pipe[1], report[1], launcher);
    int fork_err = errno;
    close(out_pipe[1]);
    close(err_pipe[1]);
    close(report[1]);
    int exec_err = pid < 0 ? fork_err : 0;
    if (pid > 0) {
        /* No setpgid(pid, pid) from here: it would make the child a group leader, and then its
         * setsid() fails. The group exists before anyone can signal it: spawn_rank returns only
         * once the child has exec'd, and signals reach mpiexec through its signalfd, later. */
        exec_err = wait_for_exec(report[0]);
        if (exec_err)
            waitpid(pid, NULL, 0);
    }
    close(report[0]);
    if (exec_err) {
        snprintf(why, why_len, "cannot start rank %d (%s): %s", req->rank, req->program_path,
                 strerror(exec_err));
        close(out_pipe[0]);
        close(err_pipe[0]);
        return exec_err;
    }
    fcntl(out_pipe[0], F_SETFL, O_NONBLOCK);
    fcntl(err_pipe[0], F_SETFL, O_NONBLOCK);
    *out = (struct spawned_rank){.pid = pid, .stdout_fd = out_pipe[0], .stderr_fd = err_pipe[0]};
    return 0;
}
