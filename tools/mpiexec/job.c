/* job.c - the launcher's event loop and its failure rules.
 *
 * One poll() waits on a signalfd (SIGCHLD and mpiexec's own signals), the ranks' output pipes
 * and the stdin pump; its timeout is the next deadline (job timeout, or SIGKILL escalation).
 * A rank's end is judged from its exit status and the state it left in its shm_rank_block:
 *   - exit 0 before MPI_Init (STARTED) or after MPI_Finalize (FINALIZED): normal;
 *   - ABORTING (MPI_Abort): the job ends with the abort code;
 *   - killed by a signal: the job ends with 128 + signal;
 *   - exit while INITIALIZED: the job ends with that status, or 1 if it was 0;
 *   - any other non-zero exit: the job ends with that status.
 * The first such end decides the status. Ending the job sends SIGTERM (or the signal mpiexec
 * got) to every rank's process group, SIGKILL 0.5 s later, and waits for every rank. */
#include "job.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "forward.h"
#include "output_files.h"
#include "reaper.h"
#include "spawn.h"

/* Grace period between SIGTERM and SIGKILL: short enough that a failure ends the job within
 * the promised second, long enough for a rank to flush its output when it handles SIGTERM. */
static const double kill_grace_seconds = 0.5;
/* A SIGKILLed process is gone within microseconds; a second is a generous bound on the time
 * mpiexec waits for what ranks forked to disappear before it exits anyway. */
static const double orphan_wait_seconds = 1.0;
/* Reads per pipe and wake-up: a chatty rank cannot starve the others' forwarding. */
enum { READS_PER_WAKEUP = 4, READS_AT_EXIT = 64 };

struct rank_slot {
    pid_t pid;   /* 0 once reaped */
    pid_t group; /* the rank's process group: kept after reaping, what it forked may live on */
    int wait_status; /* as waitpid reported it, for -print-all-exitcodes */
    struct output_stream out;
    struct output_stream err;
};

struct job {
    const struct job_setup *setup;
    int started; /* ranks forked and exec'd */
    int alive;   /* ... and not yet reaped */
    struct rank_slot *ranks;
    struct output_sink stdout_sink;
    struct output_sink stderr_sink;
    struct stdin_forwarder input;
    int *stdin_fds; /* per rank: its stdin pipe's read end until it has started, or -1 */
    struct output_files files; /* --output-filename, -outfile-pattern, -errfile-pattern */
    struct pollfd *polls; /* signalfd, stdin pump, then stdout and stderr of every rank */
    double timeout_at;    /* monotonic seconds; 0: none */
    double kill_at;       /* when SIGTERM escalates to SIGKILL; 0: not pending */
    bool ending;
    struct job_outcome outcome;
};

static double now_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void job_signal_groups(struct job *job, int sig)
{
    for (int r = 0; r < job->started; r++)
        kill(-job->ranks[r].group, sig);
}

/* Starts the end of the job (only the first call counts): message, status, signal to all. */
__attribute__((format(printf, 4, 5))) static void
job_end(struct job *job, int status, int signal_to_ranks, const char *format, ...)
{
    if (job->ending)
        return;
    job->ending = true;
    job->outcome.exit_status = status;
    char message[512];
    va_list args;
    va_start(args, format);
    vsnprintf(message, sizeof(message) - 1, format, args);
    va_end(args);
    strcat(message, "\n");
    output_sink_message(&job->stderr_sink, message);
    job_signal_groups(job, signal_to_ranks);
    job->kill_at = now_seconds() + kill_grace_seconds;
}

/* Exit statuses are 8 bits; like the runtime's own _exit, a non-zero code stays non-zero. */
static int abort_exit_status(int code)
{
    if (code & 0xff)
        return code & 0xff;
    return code ? 1 : 0;
}

static void job_judge_exit(struct job *job, int rank, pid_t pid, int status)
{
    if (job->ending)
        return; /* during teardown, ranks die because mpiexec asked them to */
    struct shm_rank_block *block = shm_rank_block(job->setup->segment, rank);
    int state = atomic_load(&block->state);
    if (state == SHM_RANK_ABORTING) {
        int code = atomic_load(&block->abort_code);
        job_end(job, abort_exit_status(code), SIGTERM,
                "mpiexec: rank %d called MPI_Abort with code %d", rank, code);
    } else if (WIFSIGNALED(status)) {
        int sig = WTERMSIG(status);
        job_end(job, 128 + sig, SIGTERM, "mpiexec: rank %d (pid %d) killed by signal %d (%s)",
                rank, (int)pid, sig, strsignal(sig));
    } else if (state == SHM_RANK_INITIALIZED) {
        int code = WEXITSTATUS(status);
        job_end(job, code ? code : 1, SIGTERM,
                "mpiexec: rank %d exited with status %d before MPI_Finalize", rank, code);
    } else if (WEXITSTATUS(status) != 0) {
        job_end(job, WEXITSTATUS(status), SIGTERM, "mpiexec: rank %d exited with status %d", rank,
                WEXITSTATUS(status));
    }
}

static int job_rank_of(const struct job *job, pid_t pid)
{
    for (int r = 0; r < job->started; r++) {
        if (job->ranks[r].pid == pid)
            return r;
    }
    return -1;
}

/* The rank's last output is forwarded before mpiexec says why the rank ended. */
static void job_reap(struct job *job)
{
    int status;
    pid_t pid;
    while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
        int rank = job_rank_of(job, pid);
        if (rank < 0)
            continue;
        struct rank_slot *slot = &job->ranks[rank];
        slot->pid = 0;
        slot->wait_status = status;
        job->alive--;
        output_stream_drain(&slot->out, READS_AT_EXIT);
        output_stream_drain(&slot->err, READS_AT_EXIT);
        job_judge_exit(job, rank, pid, status);
    }
}

static void job_on_launcher_signal(struct job *job, int sig)
{
    if (job->ending) {
        job_signal_groups(job, SIGKILL); /* asked twice: stop waiting for the grace period */
        job->kill_at = 0;
        return;
    }
    job->outcome.launcher_signal = sig;
    job_end(job, 128 + sig, sig, "mpiexec: received signal %d (%s), ending the job", sig,
            strsignal(sig));
}

static void job_handle_signals(struct job *job)
{
    struct signalfd_siginfo info;
    while (read(job->setup->signal_fd, &info, sizeof(info)) == (ssize_t)sizeof(info)) {
        int sig = (int)info.ssi_signo;
        if (sig == SIGCHLD) {
            job_reap(job);
        } else if (sig == SIGTSTP) { /* Ctrl-Z: the ranks are in other groups, stop them too */
            job_signal_groups(job, SIGSTOP);
            raise(SIGSTOP);
        } else if (sig == SIGCONT) {
            job_signal_groups(job, SIGCONT);
        } else {
            job_on_launcher_signal(job, sig);
        }
    }
}

static void job_check_deadlines(struct job *job)
{
    double now = now_seconds();
    if (job->kill_at && now >= job->kill_at) {
        job_signal_groups(job, SIGKILL);
        job->kill_at = 0;
    }
    if (job->timeout_at && now >= job->timeout_at) {
        job->timeout_at = 0;
        job_end(job, 124, SIGTERM, "mpiexec: timeout after %s s", job->setup->opts->timeout_text);
    }
}

static int job_poll_timeout_ms(const struct job *job)
{
    double next = job->kill_at;
    if (job->timeout_at && (!next || job->timeout_at < next))
        next = job->timeout_at;
    if (!next)
        return -1;
    double ms = (next - now_seconds()) * 1000.0;
    if (ms <= 0)
        return 0;
    return ms > 60000.0 ? 60000 : (int)ms + 1; /* long waits are re-planned each minute */
}

static int job_fill_polls(struct job *job)
{
    struct pollfd *p = job->polls;
    p[0] = (struct pollfd){.fd = job->setup->signal_fd, .events = POLLIN};
    p[1] = (struct pollfd){.fd = -1};
    p[1].fd = stdin_forwarder_poll_fd(&job->input, &p[1].events);
    for (int r = 0; r < job->started; r++) {
        p[2 + 2 * r] = (struct pollfd){.fd = job->ranks[r].out.fd, .events = POLLIN};
        p[3 + 2 * r] = (struct pollfd){.fd = job->ranks[r].err.fd, .events = POLLIN};
    }
    return 2 + 2 * job->started;
}

static void job_handle_io(struct job *job)
{
    if (job->polls[1].fd >= 0 && job->polls[1].revents)
        stdin_forwarder_step(&job->input);
    for (int r = 0; r < job->started; r++) {
        if (job->polls[2 + 2 * r].revents)
            output_stream_drain(&job->ranks[r].out, READS_PER_WAKEUP);
        if (job->polls[3 + 2 * r].revents)
            output_stream_drain(&job->ranks[r].err, READS_PER_WAKEUP);
    }
}

static void job_step(struct job *job)
{
    int count = job_fill_polls(job);
    if (poll(job->polls, (nfds_t)count, job_poll_timeout_ms(job)) < 0) {
        for (int i = 0; i < count; i++)
            job->polls[i].revents = 0;
    }
    job_handle_signals(job);
    job_handle_io(job);
    job_check_deadlines(job);
}

/* stdin_fds[r]: the read end of rank r's stdin pipe, -1 for the ranks --stdin leaves on
 * /dev/null (all but rank 0 by default). Without pipes the job still runs, on /dev/null. */
static void job_stdin_pipes(struct job *job, int *stdin_fds)
{
    const struct launch_options *opts = job->setup->opts;
    int nranks = opts->nranks;
    for (int r = 0; r < nranks; r++)
        stdin_fds[r] = -1;
    if (opts->stdin_rank == STDIN_ALL)
        stdin_forwarder_open(&job->input, nranks, stdin_fds);
    else if (opts->stdin_rank >= 0)
        stdin_forwarder_open(&job->input, 1, &stdin_fds[opts->stdin_rank]);
}

/* What precedes each of the rank's lines: Hydra's -prepend-pattern, or "[rank] " (-l,
 * --tag-output), or nothing. */
static void job_rank_tag(const struct launch_options *opts, int rank, char *tag, size_t len)
{
    tag[0] = '\0';
    if (opts->prepend_pattern)
        output_pattern_expand(opts->prepend_pattern, rank, 0, tag, len);
    else if (opts->tag_output)
        snprintf(tag, len, "[%d] ", rank);
}

/* The rank's two output streams, each to the terminal and its file as the options say. */
static void job_connect_output(struct job *job, struct rank_slot *slot, int rank,
                               const struct spawned_rank *spawned)
{
    const struct launch_options *opts = job->setup->opts;
    char tag[FORWARD_TAG_BYTES];
    job_rank_tag(opts, rank, tag, sizeof(tag));
    bool copy_out = output_files_copy_to_terminal(&opts->output, 1);
    bool copy_err = output_files_copy_to_terminal(&opts->output, 2);
    output_stream_init(&slot->out, spawned->stdout_fd, tag, copy_out ? &job->stdout_sink : NULL,
                       output_files_sink(&job->files, rank, 1));
    output_stream_init(&slot->err, spawned->stderr_fd, tag, copy_err ? &job->stderr_sink : NULL,
                       output_files_sink(&job->files, rank, 2));
}

/* -v, -verbose: what was started, on stderr (Open MPI prints nothing here, Hydra pages of its
 * internals; this is what helps on one node). */
static void job_verbose(struct job *job, int rank, int app, pid_t pid)
{
    const struct rank_placement *place = &job->setup->placement->ranks[rank];
    char line[512];
    snprintf(line, sizeof(line), "mpiexec: started rank %d (pid %d, app %d): %s%s\n", rank,
             (int)pid, app, job->setup->program_paths[app],
             place->bound ? "" : " (not bound)");
    output_sink_message(&job->stderr_sink, line);
}

static void job_start_ranks(struct job *job)
{
    const struct job_setup *setup = job->setup;
    const struct launch_options *opts = setup->opts;
    int dev_null = open("/dev/null", O_RDONLY | O_CLOEXEC);
    job_stdin_pipes(job, job->stdin_fds);
    int app = 0, app_end = opts->apps[0].nranks;
    for (int r = 0; r < opts->nranks && !job->ending; r++) {
        while (r >= app_end)
            app_end += opts->apps[++app].nranks;
        const struct rank_placement *place = &setup->placement->ranks[r];
        shm_rank_block(setup->segment, r)->core = place->bound ? place->first_cpu : -1;
        struct spawn_request req = {
            .rank = r, .nranks = opts->nranks, .program_path = setup->program_paths[app],
            .argv = opts->apps[app].argv, .wdir = opts->apps[app].wdir, .appnum = app,
            .universe_size = setup->universe_size, .job_name = setup->segment_name,
            .cpus_available = setup->placement->cpus_available, .placement = place,
            .app = &opts->apps[app], .env_none = opts->env_none,
            .extra_env = opts->rank_env, .extra_env_count = opts->rank_env_count,
            .initial_errhandler = opts->initial_errhandler,
            .stdin_fd = job->stdin_fds[r] >= 0 ? job->stdin_fds[r] : dev_null,
            .merge_stderr = opts->merge_stderr, .handled_signals = setup->handled_signals};
        struct spawned_rank spawned;
        char why[512];
        if (spawn_rank(&req, &spawned, why, sizeof(why)) != 0) {
            job_end(job, 127, SIGTERM, "mpiexec: %s", why);
            break;
        }
        struct rank_slot *slot = &job->ranks[r];
        slot->pid = slot->group = spawned.pid;
        reaper_watch_group(spawned.pid);
        job_connect_output(job, slot, r, &spawned);
        if (opts->verbose)
            job_verbose(job, r, app, spawned.pid);
        job->started++;
        job->alive++;
    }
    for (int r = 0; r < opts->nranks; r++) {
        if (job->stdin_fds[r] >= 0)
            close(job->stdin_fds[r]);
    }
    if (dev_null >= 0)
        close(dev_null);
}

/* mpiexec is a child subreaper (main.c): whatever the ranks forked and left behind becomes its
 * child when its parent dies, wherever its process group. Kills them and reaps them, including
 * the ones that appear while their parents die, for at most orphan_wait_seconds. The reaper
 * (reaper.c) is a child too and stays: done when no other child is left. */
static void job_kill_orphans(void)
{
    char path[64];
    snprintf(path, sizeof(path), "/proc/self/task/%d/children", (int)getpid());
    double give_up = now_seconds() + orphan_wait_seconds;
    for (;;) {
        FILE *children = fopen(path, "r");
        int pid, others = 0;
        while (children && fscanf(children, "%d", &pid) == 1) {
            if (pid == reaper_pid())
                continue;
            kill(pid, SIGKILL);
            others++;
        }
        if (children)
            fclose(children);
        pid_t reaped;
        while ((reaped = waitpid(-1, NULL, WNOHANG)) > 0)
            continue;
        if (reaped < 0 || (children && !others) || now_seconds() > give_up)
            return; /* < 0: ECHILD, nothing left */
        usleep(1000);
    }
}

/* Kills what the ranks left behind, then forwards the last output. */
static void job_finish(struct job *job)
{
    job_signal_groups(job, SIGKILL);
    job_kill_orphans();
    for (int r = 0; r < job->started; r++) {
        output_stream_drain(&job->ranks[r].out, READS_AT_EXIT);
        output_stream_drain(&job->ranks[r].err, READS_AT_EXIT);
        output_stream_close(&job->ranks[r].out);
        output_stream_close(&job->ranks[r].err);
    }
    stdin_forwarder_close(&job->input);
    output_files_close(&job->files);
}

/* Hydra's -print-all-exitcodes line, on stdout as Hydra prints it: each started rank's status
 * as waitpid reported it (256 for exit 1, 9 for SIGKILL). */
static void job_print_exit_codes(struct job *job)
{
    char host[256] = "localhost";
    gethostname(host, sizeof(host) - 1);
    host[strcspn(host, ".")] = '\0';
    output_sink_start_line(&job->stdout_sink);
    fflush(stdout);
    printf("[mpiexec@%s] Exit codes: [%s] ", host, host);
    for (int r = 0; r < job->started; r++)
        printf("%s%d", r ? "," : "", job->ranks[r].wait_status);
    printf("\n");
    fflush(stdout);
}

struct job_outcome job_run(const struct job_setup *setup)
{
    int nranks = setup->opts->nranks;
    struct job *job = calloc(1, sizeof(*job));
    if (job) {
        job->ranks = calloc((size_t)nranks, sizeof(*job->ranks));
        job->polls = calloc((size_t)(2 + 2 * nranks), sizeof(*job->polls));
        job->stdin_fds = calloc((size_t)nranks, sizeof(int));
    }
    if (!job || !job->ranks || !job->polls || !job->stdin_fds) {
        fprintf(stderr, "mpiexec: out of memory for %d ranks\n", nranks);
        if (job) {
            free(job->stdin_fds);
            free(job->polls);
            free(job->ranks);
        }
        free(job);
        return (struct job_outcome){.exit_status = 1};
    }
    job->setup = setup;
    output_sink_init(&job->stdout_sink, STDOUT_FILENO);
    output_sink_init(&job->stderr_sink, STDERR_FILENO);
    if (!output_files_open(&job->files, &setup->opts->output, nranks, setup->opts->merge_stderr))
        job->outcome.exit_status = 2; /* as a usage error: no rank has started */
    else
        job_start_ranks(job);
    if (setup->opts->timeout_seconds > 0 && !job->ending)
        job->timeout_at = now_seconds() + setup->opts->timeout_seconds;
    while (job->alive > 0)
        job_step(job);
    job_finish(job);
    if (setup->opts->print_exit_codes)
        job_print_exit_codes(job);
    struct job_outcome outcome = job->outcome;
    free(job->stdin_fds);
    free(job->polls);
    free(job->ranks);
    free(job);
    return outcome;
}
