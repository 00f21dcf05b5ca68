/* job_segment.c - unique naming, guaranteed removal and stale cleanup of job segments.
 * The name to remove lives in static storage (not in a struct passed around) because atexit
 * handlers and fatal-signal handlers take no arguments; it is written once, before any rank
 * starts. The segment of a SIGKILLed mpiexec cannot be removed by that mpiexec: its ranks die
 * with it (PR_SET_PDEATHSIG) and the next mpiexec of the same user removes the segment. */
#include "job_segment.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

/* Two attempts would do; more only matter if the random half keeps colliding. */
enum { CREATE_ATTEMPTS = 8, NAME_BYTES = 64 };

static char segment_path[NAME_BYTES + 16]; /* "/dev/shm/nodempi-...", empty when none */
static const int fatal_signals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};

unsigned long long job_segment_new_id(void)
{
    uint32_t salt;
    if (getrandom(&salt, sizeof(salt), GRND_NONBLOCK) != (ssize_t)sizeof(salt)) {
        struct timespec now;
        clock_gettime(CLOCK_REALTIME, &now);
        salt = (uint32_t)now.tv_nsec ^ (uint32_t)now.tv_sec;
    }
    return ((unsigned long long)(uint32_t)getpid() << 32) | salt;
}

void job_segment_remove(void)
{
    if (segment_path[0]) {
        unlink(segment_path); /* shm_unlink is not async-signal-safe; unlink is */
        segment_path[0] = '\0';
    }
}

/* A crash of mpiexec itself must not leave the segment; the default action follows (the
 * handler is reset on entry, so the faulting instruction or abort() kills the process). */
static void remove_on_fatal_signal(int sig)
{
    (void)sig;
    job_segment_remove();
}

static void arrange_removal(const char *name)
{
    snprintf(segment_path, sizeof(segment_path), "/dev/shm%s", name);
    atexit(job_segment_remove);
    struct sigaction action = {.sa_handler = remove_on_fatal_signal, .sa_flags = SA_RESETHAND};
    sigemptyset(&action.sa_mask);
    for (size_t i = 0; i < sizeof(fatal_signals) / sizeof(fatal_signals[0]); i++)
        sigaction(fatal_signals[i], &action, NULL);
}

struct shm_header *job_segment_create(int nranks, char *name, size_t name_len)
{
    for (int attempt = 0; attempt < CREATE_ATTEMPTS; attempt++) {
        shm_segment_name(name, name_len, job_segment_new_id());
        struct shm_header *segment = shm_segment_create(name, nranks);
        if (segment) {
            arrange_removal(name);
            return segment;
        }
        if (errno != EEXIST)
            break;
    }
    fprintf(stderr, "mpiexec: cannot create the job segment %s for %d ranks: %s\n", name, nranks,
            strerror(errno));
    return NULL;
}

/* The launcher pid embedded in a directory entry's name, or 0 if the name is not exactly what
 * shm_segment_name makes of some job id. */
static pid_t launcher_of(const char *entry)
{
    const char *suffix = strrchr(entry, '-');
    if (!suffix || !suffix[1])
        return 0;
    char *end = NULL;
    unsigned long long id = strtoull(suffix + 1, &end, 16);
    if (*end != '\0')
        return 0;
    char expected[NAME_BYTES];
    shm_segment_name(expected, sizeof(expected), id);
    if (expected[0] != '/' || strcmp(expected + 1, entry) != 0)
        return 0;
    return (pid_t)(id >> 32);
}

static bool launcher_is_gone(pid_t pid)
{
    return pid > 0 && kill(pid, 0) != 0 && errno == ESRCH;
}

/* Unlinks this user's segments whose launcher pid passes the test. */
static void remove_matching(bool (*launcher_matches)(pid_t launcher, pid_t wanted), pid_t wanted)
{
    char prefix[NAME_BYTES];
    snprintf(prefix, sizeof(prefix), "nodempi-%u-", (unsigned)getuid());
    DIR *dir = opendir("/dev/shm");
    if (!dir)
        return;
    struct dirent *entry;
    while ((entry = readdir(dir)) != NULL) {
        if (strncmp(entry->d_name, prefix, strlen(prefix)) != 0)
            continue;
        if (!launcher_matches(launcher_of(entry->d_name), wanted))
            continue;
        char name[sizeof(entry->d_name) + 2];
        snprintf(name, sizeof(name), "/%s", entry->d_name);
        shm_unlink(name);
    }
    closedir(dir);
}

static bool launcher_gone(pid_t launcher, pid_t unused)
{
    (void)unused;
    return launcher_is_gone(launcher);
}

static bool launcher_is(pid_t launcher, pid_t wanted)
{
    return launcher > 0 && launcher == wanted;
}

void job_segment_remove_stale(void)
{
    remove_matching(launcher_gone, 0);
}

void job_segment_remove_launched_by(pid_t launcher)
{
    remove_matching(launcher_is, launcher);
}
