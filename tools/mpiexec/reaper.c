/* reaper.c - what a SIGKILLed mpiexec would leave behind is removed by a small process it
 * forks before the ranks start. A SIGKILL runs no handler: the ranks die with mpiexec
 * (PR_SET_PDEATHSIG, spawn.c), but the job segment stayed in /dev/shm until the next mpiexec
 * of the user started, and a process a rank had forked (PR_SET_PDEATHSIG is not inherited
 * across fork) lived on. `timeout -s KILL mpiexec ...` and batch systems do exactly that.
 *
 * The reaper blocks reading a pipe whose only writer is mpiexec, so end-of-file means mpiexec
 * is gone, however it ended. mpiexec tells it each rank's process group as the rank starts;
 * at end-of-file the reaper kills those groups and unlinks every /dev/shm object whose name
 * carries mpiexec's pid (the job segment, a window's object not yet unlinked), then exits.
 * On a normal end mpiexec, having done all that itself, says "clean" first (the group ids
 * may be reused by then) and waits for the reaper, so nothing of the job outlives mpiexec.
 * The reaper leads a session of its own: a signal to mpiexec's process group (Ctrl-C, a
 * `timeout` that kills the group) does not end it before it has done its work. */
#include "reaper.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "job_segment.h"

/* What mpiexec writes: a rank's process group id (> 0), or REAPER_CLEAN. */
enum { REAPER_CLEAN = 0 };

static pid_t reaper;
static int reaper_fd = -1; /* mpiexec's write end */

/* Everything but the pipe (fd 3) goes: a reaper holding a rank's output pipe or mpiexec's
 * stdout would keep a reader of that pipe waiting. */
static void reaper_keep_only_fd3(void)
{
    int null_fd = open("/dev/null", O_RDWR);
    for (int fd = 0; fd <= 2; fd++) {
        if (null_fd >= 0)
            dup2(null_fd, fd);
    }
#ifdef SYS_close_range
    if (syscall(SYS_close_range, 4u, ~0u, 0u) == 0)
        return;
#endif
    long max = sysconf(_SC_OPEN_MAX);
    if (max < 0 || max > 65536)
        max = 65536;
    for (int fd = 4; fd < max; fd++)
        close(fd);
}

_Noreturn static void reaper_run(int read_fd, pid_t launcher)
{
    setsid();
    sigset_t all;
    sigfillset(&all);
    sigprocmask(SIG_SETMASK, &all, NULL); /* only SIGKILL ends it early */
    if (read_fd != 3) {
        dup2(read_fd, 3);
        read_fd = 3;
    }
    reaper_keep_only_fd3();
    pid_t *groups = NULL;
    size_t ngroups = 0, capacity = 0;
    int clean = 0;
    for (;;) {
        int32_t word;
        ssize_t got = read(read_fd, &word, sizeof(word));
        if (got < 0 && errno == EINTR)
            continue;
        if (got != (ssize_t)sizeof(word))
            break; /* end of file: mpiexec is gone (a 4-byte write to a pipe is never split) */
        if (word == REAPER_CLEAN) {
            clean = 1;
            continue;
        }
        if (ngroups == capacity) {
            size_t grown = capacity ? 2 * capacity : 64;
            pid_t *more = realloc(groups, grown * sizeof(*more));
            if (!more)
                continue; /* that group is not watched; the segment still goes */
            groups = more;
            capacity = grown;
        }
        groups[ngroups++] = (pid_t)word;
    }
    if (!clean) {
        for (size_t i = 0; i < ngroups; i++)
            kill(-groups[i], SIGKILL);
    }
    job_segment_remove_launched_by(launcher);
    _exit(0);
}

int reaper_start(void)
{
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0)
        return -1;
    pid_t launcher = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        return -1;
    }
    if (pid == 0) {
        close(fds[1]);
        reaper_run(fds[0], launcher);
    }
    close(fds[0]);
    reaper = pid;
    reaper_fd = fds[1];
    return 0;
}

void reaper_watch_group(pid_t group)
{
    if (reaper_fd < 0 || group <= 0)
        return;
    int32_t word = (int32_t)group;
    ssize_t ignored = write(reaper_fd, &word, sizeof(word));
    (void)ignored; /* a reaper that died early watches nothing; the job runs on */
}

pid_t reaper_pid(void)
{
    return reaper;
}

void reaper_finish(void)
{
    if (reaper_fd < 0)
        return;
    int32_t word = REAPER_CLEAN;
    ssize_t ignored = write(reaper_fd, &word, sizeof(word));
    (void)ignored;
    close(reaper_fd);
    reaper_fd = -1;
    while (waitpid(reaper, NULL, 0) < 0 && errno == EINTR)
        continue;
    reaper = 0;
}
