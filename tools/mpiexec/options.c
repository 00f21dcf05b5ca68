/* options.c - parse mpiexec's command line into struct launch_options.
 * Options are looked up in one table (spellings, how many values follow, what applies it);
 * the first word that is not an option, or the word after "--", starts the program. A value
 * can follow as the next word or after '=' (-n 4, -n=4, --timeout=10). Options of a program's
 * own section (-n, -soft, -host, -wdir, -env, ...) go to a pending context request that
 * becomes an app context at the program; the rest apply to the whole job. */
#include "options.h"

#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/utsname.h>

#include "configfile.h"
#include "hosts.h"
#include "soft.h"

/* Far above what one node can run; it only keeps rank arithmetic away from int overflow. */
enum { RANKS_MAX = 1 << 20 };

enum option_values {
    VALUES_NONE,
    VALUES_ONE,
    VALUES_TWO,        /* -genv VAR VALUE, --mca KEY VALUE */
    VALUES_ASSIGNMENT, /* -env VAR=value (one word) or -env VAR VALUE (Hydra's two) */
};

struct option_spec {
    const char *spellings[8]; /* NULL-terminated */
    enum option_values values;
    /* second is NULL unless a second value was given. Returns false after printing why. */
    bool (*apply)(struct launch_options *opts, const char *spelling, const char *value,
                  const char *second);
};

static const char usage_text[] =
    "usage: mpiexec [options] [--] program [args...] [: [-n N] [-wdir DIR] program [args...]]...\n"
    "\n"
    "Starts program as an MPI job of N ranks on this node and waits for it; programs\n"
    "separated by ':' share one MPI_COMM_WORLD (MPI_APPNUM numbers them from 0).\n"
    "\n"
    "Options of one program (before it; they start afresh after each ':'):\n"
    "  -n N, -np N, -c N      number of ranks (default 1, or what -soft, -ppn or the\n"
    "                         hosts' slots give)\n"
    "  -soft LIST             acceptable rank counts: comma-separated a, a:b or a:b:c\n"
    "                         (MPI standard); the largest one not above -n is started\n"
    "  -host LIST, -hosts LIST, --host LIST, -H LIST\n"
    "                         hosts as host or host:slots, comma-separated; each must be\n"
    "                         this node (localhost, 127.0.0.1, its hostname); without -n,\n"
    "                         the ranks are the slots (1 per host without :slots)\n"
    "  -f FILE, -hostfile FILE, --hostfile FILE, -machinefile FILE\n"
    "                         the same from a file: 'host', 'host:N' or 'host slots=N'\n"
    "  -ppn N, -N N, --npernode N\n"
    "                         ranks per node; on one node, the rank count (-n, if given,\n"
    "                         must equal it)\n"
    "  -arch NAME             accepted when NAME is this machine's (uname -m)\n"
    "  -wdir DIR, --wdir DIR  working directory of this program's ranks\n"
    "  -path DIRS             colon-separated directories searched for the program\n"
    "                         instead of PATH\n"
    "  -env VAR VALUE, -env VAR=value\n"
    "                         set VAR for this program's ranks\n"
    "  -envlist A,B           pass mpiexec's A and B to this program's ranks\n"
    "  -envnone               this program's ranks start from an empty environment\n"
    "  -envall                every variable of mpiexec's environment (the default)\n"
    "\n"
    "Options of the whole job:\n"
    "  -genv VAR VALUE, -x VAR[=value], --env VAR=value\n"
    "                         set VAR (-x VAR: mpiexec's own value) for every rank\n"
    "  -genvlist A,B          pass mpiexec's A and B to every rank\n"
    "  -genvnone              every rank starts from an empty environment (plus what\n"
    "                         -genv, -x, -env and the lists pass)\n"
    "  -genvall               every variable of mpiexec's environment (the default)\n"
    "  --bind-to core|hwthread|l3cache|numa|socket|none, -bind-to ...\n"
    "                         core: its own core per rank (default while ranks fit on the\n"
    "                         cores; unbound when they outnumber them); hwthread: its own\n"
    "                         hardware thread; l3cache, numa, socket: the CPUs of the one\n"
    "                         holding the core it would get\n"
    "  --map-by ...           same as --bind-to\n"
    "  --report-bindings, --display-map, -print-rank-map\n"
    "                         print each rank's CPUs on stderr before the job starts\n"
    "  --tag-output, -l, -prepend-rank\n"
    "                         prefix every output line with [rank]\n"
    "  -initial-errhandler mpi_errors_are_fatal|mpi_errors_return|mpi_errors_abort\n"
    "                         error handler of MPI_COMM_WORLD and MPI_COMM_SELF (and of\n"
    "                         errors outside any object) when MPI_Init returns\n"
    "  --universe-size N      MPI_UNIVERSE_SIZE (env NODEMPI_UNIVERSE_SIZE; default: the\n"
    "                         larger of N and the cores; a spawned job inherits it)\n"
    "  --timeout SEC          kill the job after SEC seconds, exit 124 (env NODEMPI_TIMEOUT)\n"
    "  --mca KEY VALUE, -mca, --gmca, --prtemca, --pmixmca\n"
    "                         Open MPI component parameters: accepted and ignored\n"
    "  --oversubscribe        accepted for compatibility (nodempi always allows it)\n"
    "  --allow-run-as-root    accepted for compatibility (nodempi always allows it)\n"
    "  -h, --help             this text\n"
    "  --version              print the nodempi version\n"
    "\n"
    "  -configfile FILE       the program sections from FILE, one a line ('#' comments,\n"
    "                         '\\' continues a line, quotes keep blanks); the last option\n"
    "\n"
    "-file (the MPI standard leaves its format to the implementation) is not supported.\n"
    "Exit status: 0 when every rank exits 0; otherwise the first failing rank's status,\n"
    "128+signal for a rank killed by a signal, the code given to MPI_Abort, 124 on timeout,\n"
    "127 when the program cannot be run, 2 for a usage error.\n"
    "stdin goes to rank 0; each rank's stdout and stderr are forwarded line by line.\n";

/* What one program's options asked for; add_context decides its rank count from it. */
struct context_request {
    int nranks;       /* -n, 0: not given */
    int per_node;     /* -ppn, 0: not given */
    char per_node_spelling[16];
    int host_slots;   /* summed over -host lists and hostfiles, 0: no host named */
    const char *host; /* the last host list as written, for MPI_INFO_ENV */
    const char *soft;
    const char *arch;
    const char *wdir;
    const char *path;
    bool env_none;
};

static struct context_request pending;

static bool parse_count(const char *spelling, const char *value, const char *what, int *count)
{
    char *end = NULL;
    long n = strtol(value, &end, 10);
    if (end == value || *end != '\0' || n < 1 || n > RANKS_MAX) {
        fprintf(stderr, "mpiexec: %s needs a %s from 1 to %d, not '%s'\n", spelling, what,
                RANKS_MAX, value);
        return false;
    }
    *count = (int)n;
    return true;
}

static bool apply_nranks(struct launch_options *opts, const char *spelling, const char *value,
                         const char *second)
{
    (void)opts;
    (void)second;
    return parse_count(spelling, value, "rank count", &pending.nranks);
}

static bool apply_soft(struct launch_options *opts, const char *spelling, const char *value,
                       const char *second)
{
    (void)opts;
    (void)second;
    int ignored; /* checked now so the message names the option; chosen in add_context */
    if (!soft_pick_largest(value, RANKS_MAX, spelling, &ignored))
        return false;
    pending.soft = value;
    return true;
}

static bool apply_per_node(struct launch_options *opts, const char *spelling, const char *value,
                           const char *second)
{
    (void)opts;
    (void)second;
    snprintf(pending.per_node_spelling, sizeof(pending.per_node_spelling), "%s", spelling);
    return parse_count(spelling, value, "rank count per node", &pending.per_node);
}

static bool apply_host_list(struct launch_options *opts, const char *spelling,
                            const char *value, const char *second)
{
    (void)opts;
    (void)second;
    pending.host = value;
    return hosts_add_list(value, spelling, &pending.host_slots);
}

static bool apply_hostfile(struct launch_options *opts, const char *spelling, const char *value,
                           const char *second)
{
    (void)opts;
    (void)second;
    return hosts_add_file(value, spelling, &pending.host_slots);
}

static bool apply_arch(struct launch_options *opts, const char *spelling, const char *value,
                       const char *second)
{
    (void)opts;
    (void)second;
    struct utsname names;
    if (uname(&names) != 0 || strcmp(names.machine, value) != 0) {
        fprintf(stderr, "mpiexec: %s %s: this node's architecture is %s\n", spelling, value,
                names.machine);
        return false;
    }
    pending.arch = value;
    return true;
}

static bool apply_wdir(struct launch_options *opts, const char *spelling, const char *value,
                       const char *second)
{
    (void)opts;
    (void)second;
    if (!value[0]) {
        fprintf(stderr, "mpiexec: %s needs a directory\n", spelling);
        return false;
    }
    pending.wdir = value;
    return true;
}

static bool apply_path(struct launch_options *opts, const char *spelling, const char *value,
                       const char *second)
{
    (void)opts;
    (void)second;
    if (!value[0]) {
        fprintf(stderr, "mpiexec: %s needs a list of directories\n", spelling);
        return false;
    }
    pending.path = value;
    return true;
}

static bool apply_file(struct launch_options *opts, const char *spelling, const char *value,
                       const char *second)
{
    (void)opts;
    (void)second;
    fprintf(stderr,
            "mpiexec: %s %s: not supported (the MPI standard leaves this file's format to the "
            "implementation; nodempi has none: give the options on the command line, "
            "programs separated by ':')\n",
            spelling, value);
    return false;
}

/* The program sections continue from the file's words (parse_context_options switches). */
static bool apply_configfile(struct launch_options *opts, const char *spelling,
                             const char *value, const char *second)
{
    (void)second;
    if (opts->configfile.words) {
        fprintf(stderr, "mpiexec: %s %s: only one configuration file, not inside another\n",
                spelling, value);
        return false;
    }
    return configfile_read(value, spelling, &opts->configfile);
}

static bool apply_universe(struct launch_options *opts, const char *spelling, const char *value,
                           const char *second)
{
    (void)second;
    return parse_count(spelling, value, "process count", &opts->universe_size);
}

static const struct {
    const char *name;
    enum bind_policy policy;
} bind_names[] = {
    {"core", BIND_CORE},       {"hwthread", BIND_HWTHREAD}, {"l3cache", BIND_L3CACHE},
    {"l3", BIND_L3CACHE},      {"numa", BIND_NUMA},         {"socket", BIND_SOCKET},
    {"none", BIND_NONE},
};

static bool apply_bind(struct launch_options *opts, const char *spelling, const char *value,
                       const char *second)
{
    (void)second;
    for (size_t i = 0; i < sizeof(bind_names) / sizeof(bind_names[0]); i++) {
        if (strcmp(value, bind_names[i].name) == 0) {
            opts->bind = bind_names[i].policy;
            return true;
        }
    }
    fprintf(stderr,
            "mpiexec: %s accepts core, hwthread, l3cache, numa, socket or none, not '%s'\n",
            spelling, value);
    return false;
}

static bool apply_tag_output(struct launch_options *opts, const char *spelling,
                             const char *value, const char *second)
{
    (void)spelling;
    (void)value;
    (void)second;
    opts->tag_output = true;
    return true;
}

static bool apply_report_bindings(struct launch_options *opts, const char *spelling,
                                  const char *value, const char *second)
{
    (void)spelling;
    (void)value;
    (void)second;
    opts->report_bindings = true;
    return true;
}

static const struct {
    const char *name;
    const char *setting; /* NODEMPI_INITIAL_ERRHANDLER, read by core/init.c */
} errhandler_names[] = {
    {"mpi_errors_are_fatal", "fatal"},
    {"mpi_errors_return", "return"},
    {"mpi_errors_abort", "abort"},
};

static bool apply_initial_errhandler(struct launch_options *opts, const char *spelling,
                                     const char *value, const char *second)
{
    (void)second;
    for (size_t i = 0; i < sizeof(errhandler_names) / sizeof(errhandler_names[0]); i++) {
        if (strcasecmp(value, errhandler_names[i].name) == 0) {
            opts->initial_errhandler = errhandler_names[i].setting;
            return true;
        }
    }
    fprintf(stderr,
            "mpiexec: %s accepts mpi_errors_are_fatal, mpi_errors_return or "
            "mpi_errors_abort, not '%s'\n",
            spelling, value);
    return false;
}

/* Open MPI's component parameters choose among Open MPI's own components (btl, pml, ...),
 * which nodempi does not have: scripts written for Open MPI run unchanged, silently. */
static bool apply_nothing(struct launch_options *opts, const char *spelling, const char *value,
                          const char *second)
{
    (void)opts;
    (void)spelling;
    (void)value;
    (void)second;
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

static bool apply_timeout(struct launch_options *opts, const char *spelling, const char *value,
                          const char *second)
{
    (void)second;
    return parse_timeout(opts, spelling, value);
}

/* Takes ownership of assignment (malloc'd); app -1 is every program. */
static bool add_rank_env(struct launch_options *opts, char *assignment, int app)
{
    size_t bytes = sizeof(*opts->rank_env) * (size_t)(opts->rank_env_count + 1);
    struct rank_env_setting *grown = assignment ? realloc(opts->rank_env, bytes) : NULL;
    if (!grown) { /* the old array stays valid: options_free releases it */
        free(assignment);
        fprintf(stderr, "mpiexec: out of memory\n");
        return false;
    }
    opts->rank_env = grown;
    opts->rank_env[opts->rank_env_count++] = (struct rank_env_setting){assignment, app};
    return true;
}

static char *join_assignment(const char *name, size_t name_len, const char *value)
{
    size_t bytes = name_len + strlen(value) + 2;
    char *assignment = malloc(bytes);
    if (assignment)
        snprintf(assignment, bytes, "%.*s=%s", (int)name_len, name, value);
    return assignment;
}

/* Passes mpiexec's own value of the variable name (name_len bytes), if it has one. Ranks
 * inherit mpiexec's environment anyway; this matters after -genvnone or -envnone. */
static bool pass_own_variable(struct launch_options *opts, const char *name, size_t name_len,
                              int app)
{
    char copy[256];
    if (name_len >= sizeof(copy))
        return true; /* no environment variable has such a name */
    memcpy(copy, name, name_len);
    copy[name_len] = '\0';
    const char *current = getenv(copy);
    if (!current)
        return true;
    return add_rank_env(opts, join_assignment(name, name_len, current), app);
}

/* The app context the program-section options being parsed will belong to. */
static int current_app(const struct launch_options *opts)
{
    return opts->napps;
}

/* -x VAR=value sets VAR; -x VAR passes mpiexec's own VAR on, if it has one. */
static bool apply_export(struct launch_options *opts, const char *spelling, const char *value,
                         const char *second)
{
    (void)second;
    if (value[0] == '\0' || value[0] == '=') {
        fprintf(stderr, "mpiexec: %s needs VAR or VAR=value, not '%s'\n", spelling, value);
        return false;
    }
    if (strchr(value, '='))
        return add_rank_env(opts, strdup(value), -1);
    return pass_own_variable(opts, value, strlen(value), -1);
}

/* VAR=value in one word, or VAR and VALUE in two (Hydra). */
static bool set_variable(struct launch_options *opts, const char *spelling, const char *value,
                         const char *second, int app)
{
    const char *equals = strchr(value, '=');
    if (value[0] == '\0' || equals == value || (second && equals)) {
        fprintf(stderr, "mpiexec: %s needs VAR=value or VAR VALUE, not '%s'\n", spelling, value);
        return false;
    }
    if (second)
        return add_rank_env(opts, join_assignment(value, strlen(value), second), app);
    return add_rank_env(opts, strdup(value), app);
}

static bool apply_global_env(struct launch_options *opts, const char *spelling,
                             const char *value, const char *second)
{
    return set_variable(opts, spelling, value, second, -1);
}

static bool apply_local_env(struct launch_options *opts, const char *spelling, const char *value,
                            const char *second)
{
    return set_variable(opts, spelling, value, second, current_app(opts));
}

static bool pass_variable_list(struct launch_options *opts, const char *spelling,
                               const char *list, int app)
{
    for (const char *p = list;;) {
        size_t len = strcspn(p, ",");
        if (len == 0 || memchr(p, '=', len)) {
            fprintf(stderr, "mpiexec: %s needs comma-separated variable names, not '%s'\n",
                    spelling, list);
            return false;
        }
        if (!pass_own_variable(opts, p, len, app))
            return false;
        if (p[len] == '\0')
            return true;
        p += len + 1;
    }
}

static bool apply_global_env_list(struct launch_options *opts, const char *spelling,
                                  const char *value, const char *second)
{
    (void)second;
    return pass_variable_list(opts, spelling, value, -1);
}

static bool apply_local_env_list(struct launch_options *opts, const char *spelling,
                                 const char *value, const char *second)
{
    (void)second;
    return pass_variable_list(opts, spelling, value, current_app(opts));
}

static bool apply_global_env_none(struct launch_options *opts, const char *spelling,
                                  const char *value, const char *second)
{
    (void)spelling;
    (void)value;
    (void)second;
    opts->env_none = true;
    return true;
}

static bool apply_local_env_none(struct launch_options *opts, const char *spelling,
                                 const char *value, const char *second)
{
    (void)opts;
    (void)spelling;
    (void)value;
    (void)second;
    pending.env_none = true;
    return true;
}

static const struct option_spec option_table[] = {
    /* The MPI standard's keys (MPI 4.1 11.5) and their usual other spellings. */
    {{"-n", "-np", "--n", "--np", "-c", NULL}, VALUES_ONE, apply_nranks},
    {{"-soft", "--soft", NULL}, VALUES_ONE, apply_soft},
    {{"-host", "--host", "-hosts", "--hosts", "-H", NULL}, VALUES_ONE, apply_host_list},
    {{"-arch", "--arch", NULL}, VALUES_ONE, apply_arch},
    {{"-wdir", "--wdir", "-wd", "--wd", NULL}, VALUES_ONE, apply_wdir},
    {{"-path", "--path", NULL}, VALUES_ONE, apply_path},
    {{"-file", "--file", NULL}, VALUES_ONE, apply_file},
    {{"-configfile", "--configfile", NULL}, VALUES_ONE, apply_configfile},
    {{"-initial-errhandler", "--initial-errhandler", NULL}, VALUES_ONE,
     apply_initial_errhandler},
    /* Hosts and counts per node, as MPICH (Hydra) and Open MPI write them. */
    {{"-f", "-hostfile", "--hostfile", "-machinefile", "--machinefile", NULL}, VALUES_ONE,
     apply_hostfile},
    {{"-ppn", "--ppn", "-N", "--npernode", "-npernode", NULL}, VALUES_ONE, apply_per_node},
    /* Placement and output. */
    {{"--bind-to", "-bind-to", NULL}, VALUES_ONE, apply_bind},
    {{"--map-by", "-map-by", NULL}, VALUES_ONE, apply_bind},
    {{"--report-bindings", "-report-bindings", "--display-map", "-display-map",
      "-print-rank-map", "--print-rank-map", NULL},
     VALUES_NONE, apply_report_bindings},
    {{"--tag-output", "-tag-output", "-l", "-prepend-rank", "--prepend-rank", NULL},
     VALUES_NONE, apply_tag_output},
    {{"--universe-size", "-universe-size", "-usize", NULL}, VALUES_ONE, apply_universe},
    {{"--timeout", "-timeout", NULL}, VALUES_ONE, apply_timeout},
    /* The ranks' environment. */
    {{"-x", NULL}, VALUES_ONE, apply_export},
    {{"--env", "-genv", "--genv", NULL}, VALUES_ASSIGNMENT, apply_global_env},
    {{"-env", NULL}, VALUES_ASSIGNMENT, apply_local_env},
    {{"-genvlist", "--genvlist", NULL}, VALUES_ONE, apply_global_env_list},
    {{"-envlist", "--envlist", NULL}, VALUES_ONE, apply_local_env_list},
    {{"-genvnone", "--genvnone", NULL}, VALUES_NONE, apply_global_env_none},
    {{"-envnone", "--envnone", NULL}, VALUES_NONE, apply_local_env_none},
    {{"-genvall", "--genvall", "-envall", "--envall", NULL}, VALUES_NONE, apply_nothing},
    /* Accepted so that scripts written for Open MPI run; nothing to do on nodempi. */
    {{"--mca", "-mca", "--gmca", "-gmca", "--prtemca", "--pmixmca", NULL}, VALUES_TWO,
     apply_nothing},
    {{"--oversubscribe", "-oversubscribe", "--allow-run-as-root", NULL}, VALUES_NONE,
     apply_nothing},
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

/* The word after *index as the option's next value (advancing *index), or NULL. */
static const char *next_value(int argc, char **argv, int *index, const char *option)
{
    if (*index + 1 >= argc) {
        fprintf(stderr, "mpiexec: option %s needs a value\n", option);
        return NULL;
    }
    return argv[++*index];
}

/* Reads the values spec wants after the option word (first may already be "name=value"). */
static bool read_values(const struct option_spec *spec, int argc, char **argv, int *index,
                        const char *spelling, const char **first, const char **second)
{
    if (spec->values == VALUES_NONE) {
        if (*first) {
            fprintf(stderr, "mpiexec: option %s takes no value\n", spelling);
            return false;
        }
        return true;
    }
    if (!*first && !(*first = next_value(argc, argv, index, spelling)))
        return false;
    bool wants_second = spec->values == VALUES_TWO ||
                        (spec->values == VALUES_ASSIGNMENT && !strchr(*first, '='));
    if (wants_second && !(*second = next_value(argc, argv, index, spelling)))
        return false;
    return true;
}

/* Applies the option at argv[*index] (advancing *index past separate values). */
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
    char spelling[64];
    snprintf(spelling, sizeof(spelling), "%.*s", (int)name_len, word);
    const char *value = equals ? equals + 1 : NULL;
    const char *second = NULL;
    if (!read_values(spec, argc, argv, index, spelling, &value, &second))
        return false;
    return spec->apply(opts, spelling, value ? value : "", second);
}

static bool is_help(const char *word)
{
    return strcmp(word, "-h") == 0 || strcmp(word, "--help") == 0 || strcmp(word, "-help") == 0;
}

void options_free(struct launch_options *opts)
{
    for (int i = 0; i < opts->rank_env_count; i++)
        free(opts->rank_env[i].assignment);
    free(opts->rank_env);
    free(opts->apps);
    configfile_free(&opts->configfile);
    opts->apps = NULL;
    opts->rank_env = NULL;
    opts->rank_env_count = 0;
}

/* The words being parsed: the command line's, then a -configfile's. */
struct word_list {
    int count;
    char **words;
};

/* After -configfile, the command line must end: the file holds the program sections. */
static bool switch_to_configfile(struct word_list *list, int at, struct launch_options *opts)
{
    if (at + 1 < list->count) {
        fprintf(stderr, "mpiexec: -configfile must be the last option, '%s' follows it\n",
                list->words[at + 1]);
        return false;
    }
    list->count = opts->configfile.count;
    list->words = opts->configfile.words;
    return true;
}

/* Parses one context's options from list->words[*index] to its program; OPTIONS_LAUNCH with
 * *index at the program word. */
static enum options_outcome parse_context_options(struct word_list *list, int *index,
                                                  struct launch_options *opts)
{
    int i = *index;
    for (; i < list->count; i++) {
        int argc = list->count;
        char **argv = list->words;
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
        if (opts->configfile.words && list->words != opts->configfile.words) {
            if (!switch_to_configfile(list, i, opts))
                return OPTIONS_BAD_USAGE;
            i = -1; /* the loop's i++ starts at the file's first word */
        }
    }
    if (i >= list->count || strcmp(list->words[i], ":") == 0) {
        fprintf(stderr, "mpiexec: no program given (see mpiexec --help)\n");
        return OPTIONS_BAD_USAGE;
    }
    *index = i;
    return OPTIONS_LAUNCH;
}

/* The pending request's rank count. -n is the most asked for; -soft picks the largest count
 * it allows up to that; without either, -ppn or the hosts' slots give it. One node runs the
 * whole count, so a count per node must be that count. */
static bool decide_rank_count(int *count)
{
    *count = pending.nranks;
    if (pending.soft) {
        int limit = pending.nranks ? pending.nranks : RANKS_MAX;
        if (!soft_pick_largest(pending.soft, limit, "-soft", count))
            return false;
    } else if (!*count) {
        *count = pending.per_node ? pending.per_node
                 : pending.host_slots ? pending.host_slots
                                      : 1;
    }
    if (pending.per_node && *count != pending.per_node) {
        fprintf(stderr,
                "mpiexec: %s %d: this node runs all %d ranks of the program (-n/-soft), so the "
                "count per node must be %d\n",
                pending.per_node_spelling, pending.per_node, *count, *count);
        return false;
    }
    return true;
}

static bool add_context(struct launch_options *opts, char **program_argv)
{
    int count;
    if (!decide_rank_count(&count))
        return false;
    struct app_context *grown =
        realloc(opts->apps, sizeof(*grown) * (size_t)(opts->napps + 1));
    if (!grown) {
        fprintf(stderr, "mpiexec: out of memory\n");
        return false;
    }
    opts->apps = grown;
    opts->apps[opts->napps++] = (struct app_context){
        .nranks = count, .wdir = pending.wdir, .path = pending.path, .argv = program_argv,
        .env_none = pending.env_none, .maxprocs = pending.nranks ? pending.nranks : count,
        .soft = pending.soft, .host = pending.host, .arch = pending.arch};
    return true;
}

/* Contexts are separated by a ":" word, which is replaced by NULL to end the previous
 * program's arguments; the program-section options belong to the context they precede. */
enum options_outcome options_parse(int argc, char **argv, struct launch_options *opts)
{
    *opts = (struct launch_options){.bind = BIND_DEFAULT};
    const char *env_timeout = getenv("NODEMPI_TIMEOUT");
    if (env_timeout && env_timeout[0] && !parse_timeout(opts, "NODEMPI_TIMEOUT", env_timeout))
        return OPTIONS_BAD_USAGE;
    /* Also how a spawned job learns its parents' universe: mpiexec sets it for every rank. */
    const char *env_universe = getenv("NODEMPI_UNIVERSE_SIZE");
    if (env_universe && env_universe[0] &&
        !apply_universe(opts, "NODEMPI_UNIVERSE_SIZE", env_universe, NULL))
        return OPTIONS_BAD_USAGE;
    int total = 0;
    struct word_list list = {argc, argv};
    for (int i = 1;;) {
        pending = (struct context_request){0};
        enum options_outcome outcome = parse_context_options(&list, &i, opts);
        if (outcome != OPTIONS_LAUNCH)
            return outcome;
        argc = list.count;
        argv = list.words;
        if (!add_context(opts, &argv[i]))
            return OPTIONS_BAD_USAGE;
        total += opts->apps[opts->napps - 1].nranks;
        if (total > RANKS_MAX) {
            fprintf(stderr, "mpiexec: more than %d ranks in all\n", RANKS_MAX);
            return OPTIONS_BAD_USAGE;
        }
        while (i < argc && strcmp(argv[i], ":") != 0)
            i++;
        if (i >= argc)
            break;
        argv[i++] = NULL;
    }
    opts->nranks = total;
    opts->program_argv = opts->apps[0].argv;
    return OPTIONS_LAUNCH;
}
