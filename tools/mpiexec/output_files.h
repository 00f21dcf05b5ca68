/* output_files.h - the ranks' output in files, laid out as Open MPI 4.1 and MPICH's Hydra lay
 * it out: --output-filename DIR gives DIR/1/rank.N/stdout and .../stderr (N zero-padded to the
 * digits of the rank count; the terminal gets a copy unless DIR ends in ":nocopy"), and
 * -outfile-pattern / -errfile-pattern name one file per rank with %r, %g, %p, %h, %t (the
 * terminal gets nothing of that stream). Owns the names, the files and the sinks job.c hands to
 * forward.c; it does not read the ranks' pipes. */
#ifndef NODEMPI_MPIEXEC_OUTPUT_FILES_H
#define NODEMPI_MPIEXEC_OUTPUT_FILES_H

#include <stdbool.h>
#include <stddef.h>

/* What the command line asked for. */
struct output_request {
    char *directory;            /* --output-filename with its directives cut off (malloc'd) */
    bool directory_copy;        /* false with :nocopy: the terminal gets none of it */
    bool directory_job_level;   /* false with :nojobid: no "1/" level under DIR */
    const char *stdout_pattern; /* -outfile-pattern, NULL: none */
    const char *stderr_pattern; /* -errfile-pattern, NULL: none */
};

/* --output-filename DIR[:nocopy,nojobid]: false after a message naming spelling. */
bool output_request_set_directory(struct output_request *req, const char *spelling,
                                  const char *value);
/* Checks a Hydra pattern's % substitutions (also -prepend-pattern's, where %t is refused since
 * a prefix is fixed when the rank starts): false after a message naming spelling. */
bool output_pattern_check(const char *spelling, const char *pattern, bool allow_time);
/* pattern with %r (rank), %g (process group: 0, the job), %p (proxy: 0, this node), %h (the
 * hostname), %t (seconds since the job started), %% expanded; cut at len - 1. */
void output_pattern_expand(const char *pattern, int rank, long seconds, char *out, size_t len);
void output_request_free(struct output_request *req);

struct output_sink;
struct rank_file;

/* The files of one job. */
struct output_files {
    const struct output_request *req;
    int nranks;
    struct rank_file *files;  /* 2 per rank: stdout, stderr */
    char **created;           /* pattern files this job created: another rank's output to one
                               * of them is appended (ranks may share a file, as in Hydra) */
    int created_count;
    double started;           /* monotonic seconds, for %t */
};

/* Creates the --output-filename files and checks that the pattern files can be created (those
 * are created when their rank first writes, as Hydra does); merged: stderr goes into stdout
 * (--merge-stderr-to-stdout), so no stderr file. False after a message: no rank may start. */
bool output_files_open(struct output_files *files, const struct output_request *req, int nranks,
                       bool merged);
/* The file that gets the rank's stdout (fd 1) or stderr (fd 2), or NULL. */
struct output_sink *output_files_sink(struct output_files *files, int rank, int fd);
/* Whether the terminal also gets that stream. */
bool output_files_copy_to_terminal(const struct output_request *req, int fd);
void output_files_close(struct output_files *files);

#endif
