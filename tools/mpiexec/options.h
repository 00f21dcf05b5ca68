/* options.h - mpiexec's command line: what the user asked for, parsed and checked.
 * Owns the option grammar (the MPI standard's keys and the Open MPI and MPICH spellings
 * nodempi accepts) and the NODEMPI_TIMEOUT default; it does not look at the program, the
 * machine's cores or the segment. */
#ifndef NODEMPI_MPIEXEC_OPTIONS_H
#define NODEMPI_MPIEXEC_OPTIONS_H

#include <stdbool.h>

#include "configfile.h"
#include "output_files.h"

enum bind_policy {
    BIND_DEFAULT,  /* one core per rank while ranks fit, unbound when oversubscribed */
    BIND_CORE,     /* asked for explicitly: same placement, but oversubscription is reported */
    BIND_HWTHREAD, /* one hardware thread per rank */
    BIND_L3CACHE,  /* each rank to the L3 cache (NUMA node, socket) holding the core it */
    BIND_NUMA,     /* would get with BIND_CORE: it may move between that object's CPUs */
    BIND_SOCKET,
    BIND_NONE,
};

/* One program of the command line; "mpiexec -n 1 a : -n 2 b" has two (MPMD). Ranks are
 * numbered through the contexts in order; MPI_APPNUM is a rank's context index. */
struct app_context {
    int nranks;
    const char *wdir;   /* -wdir: the ranks' working directory, NULL: mpiexec's own */
    const char *path;   /* -path: directories searched for the program instead of PATH */
    char **argv;        /* program and its arguments, NULL-terminated, inside argv */
    bool env_none;      /* -envnone: the ranks start from an empty environment */
    /* What MPI_INFO_ENV reports for the keys of the MPI standard (NULL: not given). */
    int maxprocs;       /* -n as given, else nranks */
    const char *soft;
    const char *host;
    const char *arch;
};

/* An environment setting for the ranks: of every program (-genv, -x, --env) or of one
 * (Hydra's -env and -envlist apply to the program they precede). */
struct rank_env_setting {
    char *assignment; /* "VAR=value", malloc'd */
    int app;          /* index of the app context, -1: every one */
};

struct launch_options {
    int nranks;               /* all contexts together */
    enum bind_policy bind;
    bool tag_output;
    bool report_bindings;     /* --report-bindings: print where each rank runs */
    bool env_none;            /* -genvnone: every rank starts from an empty environment */
    double timeout_seconds;   /* 0: no timeout */
    const char *timeout_text; /* as the user wrote it, for the timeout message */
    const char *initial_errhandler; /* -initial-errhandler: "return", "fatal", "abort" or NULL */
    struct rank_env_setting *rank_env;
    int rank_env_count;
    char **program_argv;      /* the first context's program and arguments */
    struct app_context *apps; /* napps contexts (malloc'd) */
    int napps;
    int universe_size;        /* --universe-size: MPI_UNIVERSE_SIZE, 0: the default */
    int cpus_per_rank;        /* --cpus-per-rank, --map-by X:PE=n, -bind-to core:n; 0: one */
    bool no_oversubscribe;    /* --nooversubscribe: more ranks than CPUs is an error */
    bool hwthread_slots;      /* --use-hwthread-cpus: by default a rank per hardware thread */
    bool verbose;             /* -v, -verbose: say what is started */
    bool display_allocation;  /* --display-allocation: Open MPI's table of this node's slots */
    bool print_exit_codes;    /* -print-all-exitcodes (Hydra) */
    /* Output and input (options_output.c). */
    struct output_request output; /* --output-filename, -outfile-pattern, -errfile-pattern */
    bool merge_stderr;        /* --merge-stderr-to-stdout */
    const char *prepend_pattern; /* -prepend-pattern: each line's prefix, NULL: see tag_output */
    int stdin_rank;           /* --stdin: the rank reading mpiexec's stdin (default 0), or: */
    struct configfile configfile; /* -configfile: the program sections' words, if given */
};

enum { STDIN_NONE = -1, STDIN_ALL = -2 }; /* launch_options.stdin_rank: none, every rank */

enum options_outcome {
    OPTIONS_LAUNCH,     /* run the job */
    OPTIONS_DONE,       /* --help or --version printed: exit 0 */
    OPTIONS_BAD_USAGE,  /* message printed: exit 2 */
};

/* Fills opts from argv (and NODEMPI_TIMEOUT). Messages go to stderr, help to stdout. */
enum options_outcome options_parse(int argc, char **argv, struct launch_options *opts);
/* Frees what options_parse allocated, whatever its outcome. */
void options_free(struct launch_options *opts);

#endif
