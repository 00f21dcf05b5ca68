/* dpm_spawn.c - MPI_Comm_spawn(_multiple) and the parent side of a spawned job.
 * The root starts the children as a job of their own: it opens a port, forks and execs this
 * node's mpiexec for the commands (one app context each, ':'-separated, so they share one
 * MPI_COMM_WORLD and MPI_APPNUM numbers them), with NODEMPI_PARENT_PORT in the children's
 * environment, and accepts the one connection the children's MPI_Init makes to it
 * (core_dpm_init_parent). From then on parent and children talk over a connection segment
 * like any two connected jobs (dpm_connect.c).
 * Lifetime: the children's mpiexec is the root's child with a parent-death signal (SIGTERM),
 * in the root's process group, so a dead root or a killed parent job takes the children's job
 * down with it (mpiexec's own teardown then removes their segment); a root that finishes waits
 * in MPI_Finalize until the children's mpiexec has exited, keeping its MPI traffic moving. */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "coll/coll.h"
#include "core/comm.h"
#include "core/dpm.h"
#include "core/info.h"
#include "core/init.h"
#include "core/progress.h"
#include "core/state.h"
#include "datatype/datatype.h"
#include "shm/heap.h"
#include "shm/segment.h"

static struct core_comm *parent_comm;
static pid_t *launchers; /* children's mpiexec processes not yet reaped */
static int launcher_count;

/* ---- the children's side ------------------------------------------------------------------ */

int core_dpm_init_parent(void)
{
    const char *port = getenv("NODEMPI_PARENT_PORT");
    if (!port || !*port)
        return MPI_SUCCESS;
    char name[MPI_MAX_PORT_NAME];
    snprintf(name, sizeof(name), "%s", port);
    unsetenv("NODEMPI_PARENT_PORT"); /* a job this process starts is not the parents' child */
    int fd = -1, rc = MPI_SUCCESS;
    if (nodempi.world_rank == 0)
        rc = core_dpm_port_connect_fd(name, &fd);
    rc = core_dpm_connect_over_fd(nodempi.comm_world, 0, fd, rc, &parent_comm);
    if (fd >= 0)
        close(fd);
    if (parent_comm)
        snprintf(parent_comm->name, sizeof(parent_comm->name), "MPI_COMM_PARENT");
    return rc;
}

struct core_comm *core_dpm_parent(void)
{
    return parent_comm;
}

void core_dpm_forget_parent(const struct core_comm *comm)
{
    if (comm && comm == parent_comm)
        parent_comm = NULL;
}

static int env_positive(const char *name)
{
    const char *text = getenv(name);
    int value = text ? atoi(text) : 0;
    return value > 0 ? value : 0;
}

int core_dpm_universe_size(void)
{
    int size = env_positive("NODEMPI_UNIVERSE_SIZE");
    if (size)
        return size;
    return nodempi.cores > nodempi.world_size ? nodempi.cores : nodempi.world_size;
}

int core_dpm_appnum(void)
{
    return env_positive("NODEMPI_APPNUM");
}

int core_dpm_is_this_node(const char *host)
{
    size_t short_len = strcspn(nodempi.processor_name, ".");
    return strcmp(host, "localhost") == 0 || strcmp(host, "127.0.0.1") == 0 ||
           strcmp(host, nodempi.processor_name) == 0 ||
           (strlen(host) == short_len && strncmp(host, nodempi.processor_name, short_len) == 0);
}

/* ---- the root's side ---------------------------------------------------------------------- */

/* mpiexec's path: the one that started us, else the one installed beside this library
 * (lib/../bin), else whatever PATH finds. */
static void find_mpiexec(char *path, size_t len)
{
    const char *launcher = getenv("NODEMPI_MPIEXEC");
    if (launcher && *launcher) {
        snprintf(path, len, "%s", launcher);
        return;
    }
    Dl_info where;
    if (dladdr((void *)find_mpiexec, &where) && where.dli_fname) {
        char lib[PATH_MAX];
        snprintf(lib, sizeof(lib), "%s", where.dli_fname);
        char *slash = strrchr(lib, '/');
        if (slash) {
            *slash = '\0';
            snprintf(path, len, "%s/../bin/mpiexec", lib);
            if (access(path, X_OK) == 0)
                return;
        }
    }
    snprintf(path, len, "mpiexec");
}

/* The command line of the children's mpiexec, argv-style (strings owned by the caller's
 * words array: freed with free_words). */
struct words {
    char **v;
    int n, cap;
};

static int add_word(struct words *w, const char *text)
{
    if (w->n + 2 > w->cap) {
        int cap = w->cap ? 2 * w->cap : 32;
        char **grown = realloc(w->v, sizeof(char *) * (size_t)cap);
        if (!grown)
            return MPI_ERR_NO_MEM;
        w->v = grown;
        w->cap = cap;
    }
    if (!(w->v[w->n] = strdup(text ? text : "")))
        return MPI_ERR_NO_MEM;
    w->v[++w->n] = NULL;
    return MPI_SUCCESS;
}

static void free_words(struct words *w)
{
    for (int i = 0; i < w->n; i++)
        free(w->v[i]);
    free(w->v);
}

static int add_number(struct words *w, int value)
{
    char text[16];
    snprintf(text, sizeof(text), "%d", value);
    return add_word(w, text);
}

/* One app context: -n N [-wdir D] command args... ("path" info: where a bare command is). */
static int add_context(struct words *w, const char *command, char **argv, int n,
                       const struct core_info *info)
{
    const char *wdir = info ? core_info_get(info, "wdir") : NULL;
    const char *dir = info ? core_info_get(info, "path") : NULL;
    int rc = add_word(w, "-n");
    if (rc == MPI_SUCCESS)
        rc = add_number(w, n);
    if (rc == MPI_SUCCESS && wdir) {
        rc = add_word(w, "-wdir");
        if (rc == MPI_SUCCESS)
            rc = add_word(w, wdir);
    }
    char program[PATH_MAX];
    if (dir && !strchr(command, '/'))
        snprintf(program, sizeof(program), "%s/%s", dir, command);
    else
        snprintf(program, sizeof(program), "%s", command);
    if (rc == MPI_SUCCESS)
        rc = add_word(w, program);
    for (int i = 0; argv && argv[i] && rc == MPI_SUCCESS; i++)
        rc = add_word(w, argv[i]);
    return rc;
}

static int build_command(struct words *w, const char *port, int count, char **commands,
                         char ***argvs, const int *maxprocs, struct core_info **infos)
{
    char mpiexec[PATH_MAX], port_env[MPI_MAX_PORT_NAME + 32];
    find_mpiexec(mpiexec, sizeof(mpiexec));
    snprintf(port_env, sizeof(port_env), "NODEMPI_PARENT_PORT=%s", port);
    /* Unbound: the parents already hold the first cores. */
    const char *head[] = {mpiexec, "--bind-to", "none", "-x", port_env};
    int rc = MPI_SUCCESS;
    for (size_t i = 0; i < sizeof(head) / sizeof(head[0]) && rc == MPI_SUCCESS; i++)
        rc = add_word(w, head[i]);
    int contexts = 0;
    for (int k = 0; k < count && rc == MPI_SUCCESS; k++) {
        if (maxprocs[k] == 0)
            continue;
        if (contexts++ > 0)
            rc = add_word(w, ":");
        if (rc == MPI_SUCCESS)
            rc = add_context(w, commands[k], argvs ? argvs[k] : NULL, maxprocs[k],
                             infos ? infos[k] : NULL);
    }
    return rc;
}

/* The CPUs the children may use: those of the parents' mpiexec (this rank's own affinity is
 * its one bound core, which a fork would hand down to the whole children's job), without the
 * cores the parents are bound to while others are left: a child that shares its parent's core
 * makes every exchange between them wait for a time slice (8 B ping-pong under load: 30-150 us
 * instead of ~1 us). */
static void launcher_cpus(cpu_set_t *cpus)
{
    const char *launcher = getenv("NODEMPI_LAUNCHER_PID");
    if (!launcher || sched_getaffinity((pid_t)atoi(launcher), sizeof(*cpus), cpus) != 0)
        sched_getaffinity(0, sizeof(*cpus), cpus);
    cpu_set_t free_cpus = *cpus;
    for (int r = 0; nodempi.segment && r < nodempi.world_size; r++) {
        int core = shm_rank_block(nodempi.segment, r)->core;
        if (core >= 0 && core < CPU_SETSIZE)
            CPU_CLR(core, &free_cpus);
    }
    if (CPU_COUNT(&free_cpus) > 0)
        *cpus = free_cpus;
}

_Noreturn static void exec_launcher(char **argv, pid_t parent, const cpu_set_t *cpus)
{
    sched_setaffinity(0, sizeof(*cpus), cpus);
    /* The children's job must not outlive the process that spawned it. */
    if (prctl(PR_SET_PDEATHSIG, SIGTERM) != 0 || getppid() != parent)
        _exit(127);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    int null = open("/dev/null", O_RDONLY);
    if (null >= 0)
        dup2(null, STDIN_FILENO); /* stdin belongs to the parents' job */
    if (strchr(argv[0], '/'))
        execv(argv[0], argv);
    else
        execvp(argv[0], argv);
    _exit(127);
}

static void wait_for_launchers(void)
{
    while (launcher_count > 0) {
        int did = core_progress();
        for (int i = 0; i < launcher_count; i++) {
            int status = 0;
            pid_t got = waitpid(launchers[i], &status, WNOHANG);
            if (got == launchers[i] && !(WIFEXITED(status) && WEXITSTATUS(status) == 0))
                fprintf(stderr, "nodempi: the job spawned by rank %d (mpiexec pid %d) failed: "
                                "%s %d\n",
                        nodempi.world_rank, (int)got,
                        WIFSIGNALED(status) ? "signal" : "exit status",
                        WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
            if (got == launchers[i] || (got < 0 && errno == ECHILD))
                launchers[i--] = launchers[--launcher_count];
        }
        if (!did && launcher_count > 0) {
            struct timespec nap = {0, 200 * 1000};
            nanosleep(&nap, NULL);
        }
    }
    free(launchers);
    launchers = NULL;
}

static int keep_launcher(pid_t pid)
{
    pid_t *grown = realloc(launchers, sizeof(pid_t) * (size_t)(launcher_count + 1));
    if (!grown)
        return MPI_ERR_NO_MEM;
    if (!launchers)
        core_at_finalize(wait_for_launchers);
    launchers = grown;
    launchers[launcher_count++] = pid;
    return MPI_SUCCESS;
}

/* Root: start the children's job and take its connection. */
static int launch(int count, char **commands, char ***argvs, const int *maxprocs,
                  struct core_info **infos, int *fd)
{
    char port[MPI_MAX_PORT_NAME];
    int rc = core_dpm_open_port(port);
    if (rc != MPI_SUCCESS)
        return rc;
    struct words w = {0};
    rc = build_command(&w, port, count, commands, argvs, maxprocs, infos);
    pid_t pid = -1;
    if (rc == MPI_SUCCESS) {
        fflush(NULL); /* buffered output must not be written twice */
        cpu_set_t cpus;
        launcher_cpus(&cpus);
        pid_t self = getpid();
        shm_heap_next_fork_execs(); /* the child only execs the launcher */
        pid = fork();
        if (pid == 0)
            exec_launcher(w.v, self, &cpus);
        if (pid < 0)
            rc = MPI_ERR_SPAWN;
    }
    free_words(&w);
    if (rc == MPI_SUCCESS)
        rc = core_dpm_port_accept_fd(port, pid, fd);
    core_dpm_close_port(port);
    if (rc == MPI_SUCCESS)
        rc = keep_launcher(pid);
    else if (pid > 0 && rc != MPI_ERR_SPAWN) { /* MPI_ERR_SPAWN: it has exited, reaped */
        kill(pid, SIGTERM);
        waitpid(pid, NULL, 0);
    }
    return rc;
}

int core_dpm_spawn(int count, char **commands, char ***argvs, const int *maxprocs,
                   struct core_info **infos, int root, int root_rc, struct core_comm *comm,
                   struct core_comm **out, int *errcodes)
{
    int fd = -1;
    int outcome[2] = {MPI_SUCCESS, 0}; /* the root's result and the number of children */
    if (comm->rank == root) {
        for (int k = 0; k < count; k++)
            outcome[1] += maxprocs[k];
        outcome[0] = root_rc != MPI_SUCCESS
                         ? root_rc
                         : launch(count, commands, argvs, maxprocs, infos, &fd);
    }
    int rc = coll_bcast(outcome, 2, dt_from_handle(MPI_INT), root, comm);
    if (rc == MPI_SUCCESS)
        rc = core_dpm_connect_over_fd(comm, root, fd, outcome[0], out);
    if (fd >= 0)
        close(fd);
    for (int i = 0; errcodes && i < outcome[1]; i++)
        errcodes[i] = rc == MPI_SUCCESS ? MPI_SUCCESS : MPI_ERR_SPAWN;
    return rc;
}
