/* options.c - parse mpiexec's command line into struct launch_options.
 * Options are looked up in one table (spellings, whether a value follows, what applies it);
 * the first word that is not an option, or the word after "--", starts the program. A value
 * can follow as the next word or after '=' (-n 4, -n=4, --timeout=10). */
#include "options.h"

#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Far above what one node can run; it only keeps rank arithmetic away from int overflow. */
enum { RANKS_MAX = 1 << 20 };

struct option_spec {
    const char *spellings[5]; /* NULL-terminated */
    bool takes_value;
    /* Returns false after printing why the value is unusable. */
    bool (*apply)(struct launch_options *opts, const char *spelling, const char *value);
};

static const char usage_text[] =
    "usage: mpiexec [options] [--] program [args...] [: [-n N] [-wdir DIR] program [args...]]...\n"
    "\n"
    "Starts program as an MPI job of N ranks on this node and waits for it; programs\n"
    "separated by ':' share one MPI_COMM_WORLD (MPI_APPNUM numbers them from 0).\n"
    "\n"
    "  -n N, -np N, --n N     number of ranks (default 1)\n"
    "  --bind-to core|none    bind each rank to its own core (default while ranks fit on\n"
    "                         the cores; ranks are left unbound when they outnumber them)\n"
    "  --map-by core|none     same as --bind-to\n"
    "  -wdir DIR, --wdir DIR  working directory of this program's ranks\n"
    "  --universe-size N      MPI_UNIVERSE_SIZE (env NODEMPI_UNIVERSE_SIZE; default: the\n"
    "                         larger of N and the cores; a spawned job inherits it)\n"
    "  --tag-output           prefix every output line with [rank]\n"
    "  --timeout SEC          kill the job after SEC seconds, exit 124 (env NODEMPI_TIMEOUT)\n"
    "  -x VAR[=value]         pass VAR (with this value, or mpiexec's own) to the ranks\n"
    "  --env VAR=value        set VAR=value for the ranks\n"
    "  --oversubscribe        accepted for compatibility (nodempi always allows it)\n"
    "  --allow-run-as-root    accepted for compatibility (nodempi always allows it)\n"
    "  -h, --help             this text\n"
    "  --version              print the nodempi version\n"
    "\n"
    "Exit status: 0 when every rank exits 0; otherwise the first failing rank's status,\n"
    "128+signal for a rank killed by a signal, the code given to MPI_Abort, 124 on timeout,\n"
    "127 when the program cannot be run, 2 for a usage error.\n"
    "stdin goes to rank 0; each rank's stdout and stderr are forwarded line by line.\n";

static bool apply_nranks(struct launch_options *opts, const char *spelling, const char *value)
{
    char *end = NULL;
    long n = strtol(value, &end, 10);
    if (end == value || *end != '\0' || n < 1 || n > RANKS_MAX) {
        fprintf(stderr, "mpiexec: %s needs a rank count from 1 to %d, not '%s'\n", spelling,
                RANKS_MAX, value);
        return false;
    }
    opts->nranks = (int)n;
    return true;
}

/* The option section of a program ends in a context; these values belong to it. */
static const char *pending_wdir;

static bool apply_wdir(struct launch_options *opts, const char *spelling, const char *value)
{
    (void)opts;
    if (!value[0]) {
        fprintf(stderr, "mpiexec: %s needs a directory\n", spelling);
        return false;
    }
    pending_wdir = value;
    return true;
}

static bool apply_universe(struct launch_options *opts, const char *spelling, const char *value)
{
    char *end = NULL;
    long n = strtol(value, &end, 10);
    if (end == value || *end != '\0' || n < 1 || n > RANKS_MAX) {
        fprintf(stderr, "mpiexec: %s needs a process count from 1 to %d, not '%s'\n", spelling,
                RANKS_MAX, value);
        return false;
    }
    opts->universe_size = (int)n;
    return true;
}

static bool apply_bind(struct launch_options *opts, const char *spelling, const char *value)
{
    if (strcmp(value, "core") == 0) {
        opts->bind = BIND_CORE;
    } else if (strcmp(value, "none") == 0) {
        opts->bind = BIND_NONE;
    } else {
        fprintf(stderr, "mpiexec: %s accepts 'core' or 'none', not '%s'\n", spelling, value);
        return false;
    }
    return true;
}

static bool apply_tag_output(struct launch_options *opts, const char *spelling, const char *value)
{
    (void)spelling;
    (void)value;
    opts->tag_output = true;
    return true;
}

static bool apply_nothing(struct launch_options *opts, const char *spelling, const char *value)
{
    (void)opts;
    (void)spelling;
    (void)value;
    return true;
}

/* Shared by --timeout and NODEMPI_TIMEOUT: seconds, fractions allowed, 0 means none. */
static bool parse_timeout(struct launch_options *opts, const char *source, const char *value)
{
    char *end = NULL;
    double seconds = strtod(value, &end);
    if (end == value || *end != '\0' || !isfinite(seconds) || seconds < 0) {
        fprintf(stderr, "mpiexec: %s needs a number of seconds, not '%s'\n", source, value);
        return false;
    }
    opts->timeout_seconds = seconds;
    opts->timeout_text = value;
    return true;
}

static bool apply_timeout(struct launch_options *opts, const char *spelling, const char *value)
{
    return parse_timeout(opts, spelling, value);
}

/* Takes ownership of assignment (malloc'd). */
static bool add_rank_env(struct launch_options *opts, char *assignment)
{
    size_t bytes = sizeof(char *) * (size_t)(opts->rank_env_count + 1);
    char **grown = assignment ? realloc(opts->rank_env, bytes) : NULL;
    if (!grown) { /* the old array stays valid: options_free releases it */
        free(assignment);
        fprintf(stderr, "mpiexec: out of memory\n");
        return false;
    }
    opts->rank_env = grown;
    opts->rank_env[opts->rank_env_count++] = assignment;
    return true;
}

/* -x VAR=value sets VAR; -x VAR passes mpiexec's own VAR on, if it has one. Ranks inherit
 * mpiexec's environment anyway, so -x VAR matters only to scripts written for Open MPI. */
static bool apply_export(struct launch_options *opts, const char *spelling, const char *value)
{
    if (value[0] == '\0' || value[0] == '=') {
        fprintf(stderr, "mpiexec: %s needs VAR or VAR=value, not '%s'\n", spelling, value);
        return false;
    }
    if (strchr(value, '='))
        return add_rank_env(opts, strdup(value));
    const char *current = getenv(value);
    if (!current)
        return true;
    size_t bytes = strlen(value) + strlen(current) + 2;
    char *assignment = malloc(bytes);
    if (assignment)
        snprintf(assignment, bytes, "%s=%s", value, current);
    return add_rank_env(opts, assignment);
}

static bool apply_env(struct launch_options *opts, const char *spelling, const char *value)
{
    const char *equals = strchr(value, '=');
    if (!equals || equals == value) {
        fprintf(stderr, "mpiexec: %s needs VAR=value, not '%s'\n", spelling, value);
        return false;
    }
    return add_rank_env(opts, strdup(value));
}

static const struct option_spec option_table[] = {
    {{"-n", "-np", "--n", "--np", NULL}, true, apply_nranks},
    {{"--bind-to", "-bind-to", NULL}, true, apply_bind},
    {{"--map-by", "-map-by", NULL}, true, apply_bind},
    {{"--tag-output", "-tag-output", NULL}, false, apply_tag_output},
    {{"-wdir", "--wdir", "-wd", "--wd", NULL}, true, apply_wdir},
    {{"--universe-size", "-universe-size", "-usize", NULL}, true, apply_universe},
    {{"--timeout", "-timeout", NULL}, true, apply_timeout},
    {{"-x", NULL}, true, apply_export},
    {{"--env", "-env", NULL}, true, apply_env},
    {{"--oversubscribe", "-oversubscribe", "--allow-run-as-root", NULL}, false, apply_nothing},
};

static const struct option_spec *find_option(const char *name, size_t name_len)
{
    size_t count = sizeof(option_table) / sizeof(option_table[0]);
    for (size_t i = 0; i < count; i++) {
        for (const char *const *s = option_table[i].spellings; *s; s++) {
            if (strlen(*s) == name_len && strncmp(*s, name, name_len) == 0)
                return &option_table[i];
        }
    }
    return NULL;
}

/* Applies the option at argv[*index] (advancing *index past a separate value). */
static bool apply_option(int argc, char **argv, int *index, struct launch_options *opts)
{
    const char *word = argv[*index];
    const char *equals = strchr(word, '=');
    size_t name_len = equals ? (size_t)(equals - word) : strlen(word);
    const struct option_spec *spec = find_option(word, name_len);
    if (!spec) {
        fprintf(stderr, "mpiexec: unknown option '%.*s' (see mpiexec --help)\n", (int)name_len,
                word);
        return false;
    }
    const char *value = NULL;
    if (equals) {
        value = equals + 1;
    } else if (spec->takes_value) {
        if (*index + 1 >= argc) {
            fprintf(stderr, "mpiexec: option %s needs a value\n", word);
            return false;
        }
        value = argv[++*index];
    }
    if (value && !spec->takes_value) {
        fprintf(stderr, "mpiexec: option %.*s takes no value\n", (int)name_len, word);
        return false;
    }
    char spelling[64];
    snprintf(spelling, sizeof(spelling), "%.*s", (int)name_len, word);
    return spec->apply(opts, spelling, value ? value : "");
}

static bool is_help(const char *word)
{
    return strcmp(word, "-h") == 0 || strcmp(word, "--help") == 0 || strcmp(word, "-help") == 0;
}

void options_free(struct launch_options *opts)
{
    for (int i = 0; i < opts->rank_env_count; i++)
        free(opts->rank_env[i]);
    free(opts->rank_env);
    free(opts->apps);
    opts->apps = NULL;
    opts->rank_env = NULL;
    opts->rank_env_count = 0;
}

/* Parses one context's options from argv[*index] to its program; OPTIONS_LAUNCH with *index
 * at the program word. */
static enum options_outcome parse_context_options(int argc, char **argv, int *index,
                                                  struct launch_options *opts)
{
    int i = *index;
    for (; i < argc; i++) {
        const char *word = argv[i];
        if (strcmp(word, "--") == 0) {
            i++;
            break;
        }
        if (word[0] != '-' || word[1] == '\0')
            break;
        if (is_help(word)) {
            fputs(usage_text, stdout);
            return OPTIONS_DONE;
        }
        if (strcmp(word, "--version") == 0 || strcmp(word, "-version") == 0) {
            printf("mpiexec (nodempi) %s\n", NODEMPI_VERSION_STRING);
            return OPTIONS_DONE;
        }
        if (!apply_option(argc, argv, &i, opts))
            return OPTIONS_BAD_USAGE;
    }
    if (i >= argc || strcmp(argv[i], ":") == 0) {
        fprintf(stderr, "mpiexec: no program given (see mpiexec --help)\n");
        return OPTIONS_BAD_USAGE;
    }
    *index = i;
    return OPTIONS_LAUNCH;
}

static bool add_context(struct launch_options *opts, char **program_argv)
{
    struct app_context *grown =
        realloc(opts->apps, sizeof(*grown) * (size_t)(opts->napps + 1));
    if (!grown) {
        fprintf(stderr, "mpiexec: out of memory\n");
        return false;
    }
    opts->apps = grown;
    opts->apps[opts->napps++] =
        (struct app_context){.nranks = opts->nranks, .wdir = pending_wdir, .argv = program_argv};
    return true;
}

/* Contexts are separated by a ":" word, which is replaced by NULL to end the previous
 * program's arguments; -n and -wdir belong to the context they precede. */
enum options_outcome options_parse(int argc, char **argv, struct launch_options *opts)
{
    *opts = (struct launch_options){.nranks = 1, .bind = BIND_DEFAULT};
    const char *env_timeout = getenv("NODEMPI_TIMEOUT");
    if (env_timeout && env_timeout[0] && !parse_timeout(opts, "NODEMPI_TIMEOUT", env_timeout))
        return OPTIONS_BAD_USAGE;
    /* Also how a spawned job learns its parents' universe: mpiexec sets it for every rank. */
    const char *env_universe = getenv("NODEMPI_UNIVERSE_SIZE");
    if (env_universe && env_universe[0] &&
        !apply_universe(opts, "NODEMPI_UNIVERSE_SIZE", env_universe))
        return OPTIONS_BAD_USAGE;
    int total = 0;
    for (int i = 1;;) {
        opts->nranks = 1;
        pending_wdir = NULL;
        enum options_outcome outcome = parse_context_options(argc, argv, &i, opts);
        if (outcome != OPTIONS_LAUNCH)
            return outcome;
        if (!add_context(opts, &argv[i]))
            return OPTIONS_BAD_USAGE;
        total += opts->nranks;
        while (i < argc && strcmp(argv[i], ":") != 0)
            i++;
        if (i >= argc)
            break;
        argv[i++] = NULL;
        if (total > RANKS_MAX) {
            fprintf(stderr, "mpiexec: more than %d ranks in all\n", RANKS_MAX);
            return OPTIONS_BAD_USAGE;
        }
    }
    opts->nranks = total;
    opts->program_argv = opts->apps[0].argv;
    return OPTIONS_LAUNCH;
}
