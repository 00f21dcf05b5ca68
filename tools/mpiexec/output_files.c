/* output_files.c - per-rank output files. Open MPI's files are created before any rank
 * starts (both exist even when empty, as Open MPI leaves them); Hydra's are created at the
 * rank's first write, so a silent rank leaves none and %t is the time of that write, but
 * their directories are checked first, so that a bad pattern stops the job before it starts
 * instead of losing output. Modes copy the originals: directories 0750 and files 0644 for
 * Open MPI, files 0600 for Hydra (before the umask). */
#include "output_files.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "forward.h"

struct rank_file {
    struct output_sink sink; /* first: open_file gets the sink and finds the rest */
    struct output_files *files;
    int rank;
    const char *pattern; /* Hydra's pattern, NULL for Open MPI's files (opened up front) */
};

bool output_request_set_directory(struct output_request *req, const char *spelling,
                                  const char *value)
{
    const char *colon = strchr(value, ':');
    size_t dir_len = colon ? (size_t)(colon - value) : strlen(value);
    if (dir_len == 0) {
        fprintf(stderr, "mpiexec: %s needs a directory\n", spelling);
        return false;
    }
    req->directory_copy = true;
    req->directory_job_level = true;
    /* Open MPI ignores a directive it does not know; a misspelt nocopy would then copy
     * everything to the terminal, so nodempi refuses it. */
    for (const char *p = colon; p && *p;) {
        p++;
        size_t len = strcspn(p, ",");
        if (len == 6 && strncasecmp(p, "nocopy", 6) == 0) {
            req->directory_copy = false;
        } else if (len == 7 && strncasecmp(p, "nojobid", 7) == 0) {
            req->directory_job_level = false;
        } else {
            fprintf(stderr, "mpiexec: %s %s: unknown directive '%.*s' (nocopy, nojobid)\n",
                    spelling, value, (int)len, p);
            return false;
        }
        p += len;
    }
    free(req->directory);
    req->directory = strndup(value, dir_len);
    if (!req->directory) {
        fprintf(stderr, "mpiexec: out of memory\n");
        return false;
    }
    return true;
}

bool output_pattern_check(const char *spelling, const char *pattern, bool allow_time)
{
    for (const char *p = strchr(pattern, '%'); p; p = strchr(p + 2, '%')) {
        if (p[1] == '\0' || !strchr("rgpht%", p[1]) || (p[1] == 't' && !allow_time)) {
            fprintf(stderr, "mpiexec: %s %s: unknown substitution '%%%.1s' (%s)\n", spelling,
                    pattern, p + 1, allow_time ? "%r %g %p %h %t %%" : "%r %g %p %h %%");
            return false;
        }
    }
    return true;
}

void output_pattern_expand(const char *pattern, int rank, long seconds, char *out, size_t len)
{
    char host[256] = "";
    size_t used = 0;
    out[0] = '\0';
    for (const char *p = pattern; *p && used + 1 < len; p++) {
        int n = 0;
        if (*p != '%') {
            out[used] = *p;
            out[used + 1] = '\0';
            n = 1;
        } else if (*++p == '\0') {
            break; /* output_pattern_check refuses a lone '%' at the end */
        } else if (*p == 'r') {
            n = snprintf(out + used, len - used, "%d", rank);
        } else if (*p == 'g' || *p == 'p') {
            n = snprintf(out + used, len - used, "0"); /* one job, one node */
        } else if (*p == 'h') {
            if (!host[0] && gethostname(host, sizeof(host) - 1) != 0)
                snprintf(host, sizeof(host), "localhost");
            n = snprintf(out + used, len - used, "%s", host);
        } else if (*p == 't') {
            n = snprintf(out + used, len - used, "%ld", seconds);
        } else {
            n = snprintf(out + used, len - used, "%%");
        }
        used += n > 0 ? (size_t)n : 0;
    }
}

void output_request_free(struct output_request *req)
{
    free(req->directory);
    req->directory = NULL;
}

static double monotonic_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* mkdir -p with Open MPI's mode; an existing directory is fine. */
static bool make_directories(const char *path)
{
    char partial[PATH_MAX];
    if (snprintf(partial, sizeof(partial), "%s", path) >= (int)sizeof(partial)) {
        errno = ENAMETOOLONG;
        return false;
    }
    for (char *slash = partial + 1;; slash++) {
        slash = strchr(slash, '/');
        if (slash)
            *slash = '\0';
        if (partial[0] && mkdir(partial, S_IRWXU | S_IRGRP | S_IXGRP) != 0 && errno != EEXIST)
            return false;
        if (!slash)
            return true;
        *slash = '/';
    }
}

/* DIR/1/rank.N/stdout and stderr, as Open MPI 4.1's iof names them. */
static bool open_directory_files(struct output_files *files, bool merged)
{
    const struct output_request *req = files->req;
    int digits = snprintf(NULL, 0, "%d", files->nranks);
    for (int r = 0; r < files->nranks; r++) {
        char dir[PATH_MAX], path[PATH_MAX + 8];
        snprintf(dir, sizeof(dir), "%s%s/rank.%0*d", req->directory,
                 req->directory_job_level ? "/1" : "", digits, r);
        if (!make_directories(dir)) {
            fprintf(stderr, "mpiexec: --output-filename %s: cannot create %s: %s\n",
                    req->directory, dir, strerror(errno));
            return false;
        }
        for (int fd = 1; fd <= (merged ? 1 : 2); fd++) {
            snprintf(path, sizeof(path), "%s/%s", dir, fd == 1 ? "stdout" : "stderr");
            struct output_sink *sink = &files->files[2 * r + fd - 1].sink;
            sink->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
            if (sink->fd < 0) {
                fprintf(stderr, "mpiexec: --output-filename %s: cannot create %s: %s\n",
                        req->directory, path, strerror(errno));
                return false;
            }
        }
    }
    return true;
}

static const char *pattern_option(const struct rank_file *file)
{
    return file->pattern == file->files->req->stdout_pattern ? "-outfile-pattern"
                                                             : "-errfile-pattern";
}

/* The first open of a path in this job truncates it; later ones (ranks sharing a file)
 * append. */
static bool first_creation(struct output_files *files, const char *path)
{
    for (int i = 0; i < files->created_count; i++) {
        if (strcmp(files->created[i], path) == 0)
            return false;
    }
    char **grown = realloc(files->created, sizeof(char *) * (size_t)(files->created_count + 1));
    char *copy = strdup(path);
    if (grown)
        files->created = grown;
    if (!grown || !copy) {
        free(copy);
        return true;
    }
    files->created[files->created_count++] = copy;
    return true;
}

/* A pattern file at its rank's first write. A failure here (the directory was checked at the
 * start, so: removed since, or a full disk) loses that rank's stream, and says so. */
static int open_pattern_file(struct output_sink *sink)
{
    struct rank_file *file = (struct rank_file *)sink;
    struct output_files *files = file->files;
    char path[PATH_MAX];
    long seconds = (long)(monotonic_seconds() - files->started);
    output_pattern_expand(file->pattern, file->rank, seconds, path, sizeof(path));
    int flags = O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC;
    if (first_creation(files, path))
        flags |= O_TRUNC;
    int fd = open(path, flags, 0600);
    if (fd < 0)
        fprintf(stderr, "mpiexec: %s %s: cannot create %s, rank %d's output is lost: %s\n",
                pattern_option(file), file->pattern, path, file->rank, strerror(errno));
    return fd;
}

/* Hydra fails only when the first output arrives; nodempi checks that each file's directory
 * takes new files before any rank starts. */
static bool check_pattern(const struct output_files *files, const char *option,
                          const char *pattern)
{
    for (int r = 0; r < files->nranks; r++) {
        char path[PATH_MAX];
        output_pattern_expand(pattern, r, 0, path, sizeof(path));
        char *dir = dirname(path);
        if (access(dir, W_OK | X_OK) != 0) {
            fprintf(stderr, "mpiexec: %s %s: cannot create files in %s: %s\n", option, pattern,
                    dir, strerror(errno));
            return false;
        }
        if (!strstr(pattern, "%r"))
            break; /* the same directory for every rank */
    }
    return true;
}

bool output_files_open(struct output_files *files, const struct output_request *req, int nranks,
                       bool merged)
{
    *files = (struct output_files){.req = req, .nranks = nranks,
                                   .started = monotonic_seconds()};
    if (!req->directory && !req->stdout_pattern && !req->stderr_pattern)
        return true;
    files->files = calloc(2 * (size_t)nranks, sizeof(*files->files));
    if (!files->files) {
        fprintf(stderr, "mpiexec: out of memory for the output files of %d ranks\n", nranks);
        return false;
    }
    for (int i = 0; i < 2 * nranks; i++) {
        struct rank_file *file = &files->files[i];
        file->files = files;
        file->rank = i / 2;
        file->pattern = i % 2 == 0 ? req->stdout_pattern : req->stderr_pattern;
        if (file->pattern)
            output_sink_init_lazy(&file->sink, open_pattern_file);
        else
            output_sink_init(&file->sink, -1);
    }
    if (req->stdout_pattern && !check_pattern(files, "-outfile-pattern", req->stdout_pattern))
        return false;
    if (req->stderr_pattern && !check_pattern(files, "-errfile-pattern", req->stderr_pattern))
        return false;
    return !req->directory || open_directory_files(files, merged);
}

struct output_sink *output_files_sink(struct output_files *files, int rank, int fd)
{
    if (!files->files)
        return NULL;
    struct rank_file *file = &files->files[2 * rank + fd - 1];
    return file->pattern || file->sink.fd >= 0 ? &file->sink : NULL;
}

bool output_files_copy_to_terminal(const struct output_request *req, int fd)
{
    if ((fd == 1 && req->stdout_pattern) || (fd == 2 && req->stderr_pattern))
        return false;
    return !req->directory || req->directory_copy;
}

void output_files_close(struct output_files *files)
{
    for (int i = 0; files->files && i < 2 * files->nranks; i++) {
        if (files->files[i].sink.fd >= 0)
            close(files->files[i].sink.fd);
    }
    for (int i = 0; i < files->created_count; i++)
        free(files->created[i]);
    free(files->created);
    free(files->files);
    *files = (struct output_files){0};
}
