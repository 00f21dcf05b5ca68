/* options.c - parse mpiexec's command line into struct launch_options.
 * Options are looked up in one table (spellings, how many values follow, what applies it or
 * the setting it turns on); the first word that is not an option, or the word after "--",
 * starts the program. A value can follow as the next word or after '=' (-n 4, -n=4,
 * --timeout=10). Options of a program's own section (-n, -soft, -host, -wdir, -env, ...) go to
 * a pending context request that becomes an app context at the program; the rest apply to the
 * whole job. */
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
#include "options_table.h"
#include "soft.h"

/* Far above what one node can run; it only keeps rank arithmetic away from int overflow. */
enum { RANKS_MAX = 1 << 20 };

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
    "  -host LIST, --host LIST, -H LIST\n"
    "                         hosts as host or host:slots, comma-separated; each must be\n"
    "                         this node (localhost, 127.0.0.1, its hostname); without -n,\n"
    "                         the ranks are the slots (1 per host without :slots)\n"
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
    "Options of the whole job (anywhere on the command line):\n"
    "  -hosts LIST            the job's hosts (Hydra), as -host: a program without -n or\n"
    "                         -host of its own gets the slots as its rank count\n"
    "  -f FILE, -hostfile FILE, --hostfile FILE, -machinefile FILE\n"
    "                         the same from a file: 'host', 'host:N' or 'host slots=N'\n"
    "  -ppn N, -N N, --npernode N, --pernode (N=1), --map-by ppr:N:node\n"
    "                         ranks per node; on one node, each program's rank count (-n,\n"
    "                         if given, must equal it)\n"
    "  -genv VAR VALUE, -x VAR[=value], --env VAR=value\n"
    "                         set VAR (-x VAR: mpiexec's own value) for every rank\n"
    "  -genvlist A,B          pass mpiexec's A and B to every rank\n"
    "  -genvnone              every rank starts from an empty environment (plus what\n"
    "                         -genv, -x, -env and the lists pass)\n"
    "  -genvall               every variable of mpiexec's environment (the default)\n"
    "  -initial-errhandler mpi_errors_are_fatal|mpi_errors_return|mpi_errors_abort\n"
    "                         error handler of MPI_COMM_WORLD and MPI_COMM_SELF (and of\n"
    "                         errors outside any object) when MPI_Init returns\n"
    "  --universe-size N, -usize N|SYSTEM\n"
    "                         MPI_UNIVERSE_SIZE (env NODEMPI_UNIVERSE_SIZE; default and\n"
    "                         SYSTEM: the larger of N and the cores; a spawned job inherits it)\n"
    "  --timeout SEC          kill the job after SEC seconds, exit 124 (env NODEMPI_TIMEOUT,\n"
    "                         else MPIEXEC_TIMEOUT; Open MPI exits 110 and Hydra 255 there)\n"
    "\n"
    "Placement:\n"
    "  --bind-to core|hwthread|l3cache|numa|socket|machine|none, -bind-to ...\n"
    "                         core: its own core per rank (default while ranks fit on the\n"
    "                         cores; unbound when they outnumber them); hwthread: its own\n"
    "                         hardware thread; l3cache, numa, socket: the CPUs of the one\n"
    "                         holding the core it would get; machine, none: unbound.\n"
    "                         Open MPI's :overload-allowed, :if-supported, :ordered are\n"
    "                         accepted; Hydra's core:n or hwthread:n is --cpus-per-rank n\n"
    "  --map-by slot|node|board|core|hwthread|l3cache|numa|socket|ppr:N:node[:mods]\n"
    "                         slot, node, board: the default order (one node); an object\n"
    "                         binds to it unless --bind-to says otherwise; mods: PE=n (=\n"
    "                         --cpus-per-rank n), OVERSUBSCRIBE, SPAN, NOOVERSUBSCRIBE\n"
    "  --rank-by slot|node|board|core|hwthread\n"
    "                         accepted: ranks are numbered in their cores' order, which\n"
    "                         these give on one node; by socket, numa or cache is refused\n"
    "  --cpus-per-rank N, --cpus-per-proc N\n"
    "                         bind each rank to N cores (unbound if they do not all fit)\n"
    "  --use-hwthread-cpus    hardware threads are the slots: bind a rank per thread\n"
    "  --nooversubscribe      more ranks than CPUs is an error (exit 1) before any starts\n"
    "  --oversubscribe        accepted (nodempi always allows it)\n"
    "\n"
    "Output and input:\n"
    "  --tag-output, -l, -prepend-rank\n"
    "                         prefix every output line with [rank]\n"
    "  -prepend-pattern PAT   prefix every line with PAT (%r rank, %h host, %g, %p: 0)\n"
    "  --output-filename DIR[:nocopy,nojobid], -output-filename ...\n"
    "                         as Open MPI 4.1: each rank's output also in\n"
    "                         DIR/1/rank.N/stdout and DIR/1/rank.N/stderr (N padded to the\n"
    "                         digits of the rank count; created before the ranks start,\n"
    "                         overwritten); nocopy: not on the terminal; nojobid: no 1/\n"
    "  -outfile-pattern PAT, -errfile-pattern PAT\n"
    "                         as Hydra: that stream of each rank into the file PAT names\n"
    "                         instead of the terminal (%r rank, %h host, %g and %p 0, %t\n"
    "                         seconds from the start to the rank's first write, %% %);\n"
    "                         created at the first write, mode 0600; ranks sharing a name\n"
    "                         share the file. Tags (-l) go into the files too\n"
    "  --merge-stderr-to-stdout\n"
    "                         each rank's stderr joins its stdout (one pipe: order kept)\n"
    "  --stdin N|all|none, -stdin ...\n"
    "                         the rank that reads mpiexec's stdin (default 0); all: every\n"
    "                         rank reads a copy; none: no rank (all read /dev/null)\n"
    "\n"
    "Reports:\n"
    "  --report-bindings, --display-map, -print-rank-map\n"
    "                         print each rank's CPUs on stderr before the job starts\n"
    "  --display-allocation   Open MPI's table of this node's slots, on stdout\n"
    "  -v, --verbose, -verbose\n"
    "                         the bindings, and each rank's pid and program when started\n"
    "  -print-all-exitcodes   Hydra's line of every rank's wait status, on stdout\n"
    "  -h, --help             this text\n"
    "  --version, -V          print the nodempi version\n"
    "  -info                  what this mpiexec can do (Hydra's build information)\n"
    "\n"
    "  -configfile FILE, --app FILE\n"
    "                         the program sections from FILE, one a line ('#' comments,\n"
    "                         '\\' continues a line, quotes keep blanks); the last option.\n"
    "                         As in Hydra, the whole job's options given before it apply\n"
    "                         to every line, a program's options (-n, -env, -wdir, ...) to\n"
    "                         the first line only; giving one again on that line is an\n"
    "                         error (Hydra's 'duplicate setting')\n"
    "\n"
    "Accepted and ignored, because on one node there is nothing for them to do:\n"
    "  --mca KEY VALUE, -mca, --gmca, --prtemca, --pmixmca, -am FILE, --tune FILE\n"
    "                         Open MPI's component parameters: nodempi has no components\n"
    "  --prefix DIR, --noprefix, -s/--preload-binary, --preload-files LIST\n"
    "                         install paths and copies for remote nodes: there are none\n"
    "  -launcher/-bootstrap ssh|rsh|fork|slurm|ll|lsf|sge|pbs|cobalt, -launcher-exec,\n"
    "  --launch-agent         how remote proxies start: nodempi forks each rank itself\n"
    "                         (manual and persist are refused: nothing would connect)\n"
    "  -iface IF, -netif IF   network interface: ranks talk through shared memory\n"
    "  -rmk, -demux, -topolib, -enable-x, -disable-x, -pmi-port, -order-nodes,\n"
    "  -enable/disable-hostname-propagation\n"
    "                         Hydra's internal engines and remote-node settings\n"
    "  -enable-auto-cleanup   the default: a failed rank ends the job\n"
    "  -q, --quiet            nodempi prints only one-line messages about failures\n"
    "  --allow-run-as-root    nodempi always allows it\n"
    "\n"
    "Refused (exit 2, with the reason): --rankfile, --cpu-set, --cpu-list, -npersocket,\n"
    "--timestamp-output, --xml, --xterm, --debug, -tv, -disable-auto-cleanup,\n"
    "--enable-recovery, --max-restarts, -skip-launch-node, --nolocal, --get-stack-traces,\n"
    "--report-state-on-timeout, -membind; -file (the MPI standard leaves its format to the\n"
    "implementation; nodempi has none). Any other unknown option is a usage error too.\n"
    "\n"
    "Exit status: 0 when every rank exits 0; otherwise the first failing rank's status,\n"
    "128+signal for a rank killed by a signal, the code given to MPI_Abort, 124 on timeout,\n"
    "127 when the program cannot be run, 2 for a usage error or an output file that cannot\n"
    "be created (before any rank starts), 1 for --nooversubscribe.\n"
    "stdin goes to rank 0 (see --stdin); each rank's stdout and stderr are forwarded line by\n"
    "line.\n";

/* What one program's options asked for; decide_rank_counts turns it into a rank count once
 * the whole command line is read (job-wide options may come after the program). */
struct context_request {
    int nranks;       /* -n, 0: not given */
    int host_slots;   /* summed over the program's -host lists, 0: no host named */
    const char *host; /* the last host list as written, for MPI_INFO_ENV */
    const char *soft;
    const char *arch;
    const char *wdir;
    const char *path;
    bool env_none;
};

/* Hydra's global host and count options (-hosts, -f, -ppn) and Open MPI's (--hostfile, -N,
 * --npernode): every program without its own -n or -host gets its count from them, wherever
 * they are on the command line (before -configfile too). */
struct job_request {
    int per_node; /* 0: not given */
    char per_node_spelling[32];
    int host_slots; /* summed over -hosts lists and hostfiles, 0: none */
    const char *hosts; /* the last -hosts list as written, for MPI_INFO_ENV */
};

static struct context_request pending;
static struct context_request *requests; /* one per app context, in order */
static struct job_request job_wide;
/* The program options given before -configfile: as in Hydra they belong to the file's first
 * program, and giving one there again is an error. */
static struct context_request before_configfile;

bool options_parse_count(const char *spelling, const char *value, const char *what, int *count)
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
    return options_parse_count(spelling, value, "rank count", &pending.nranks);
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

bool options_set_per_node(const char *spelling, int count)
{
    snprintf(job_wide.per_node_spelling, sizeof(job_wide.per_node_spelling), "%s", spelling);
    job_wide.per_node = count;
    return true;
}

static bool apply_per_node(struct launch_options *opts, const char *spelling, const char *value,
                           const char *second)
{
    (void)opts;
    (void)second;
    int count;
    return options_parse_count(spelling, value, "rank count per node", &count) &&
           options_set_per_node(spelling, count);
}

/* -host (the MPI standard's key, Open MPI's app context option): this program's hosts. */
static bool apply_host_list(struct launch_options *opts, const char *spelling,
                            const char *value, const char *second)
{
    (void)opts;
    (void)second;
    pending.host = value;
    return hosts_add_list(value, spelling, &pending.host_slots);
}

/* -hosts (Hydra's global option): the job's hosts. */
static bool apply_job_host_list(struct launch_options *opts, const char *spelling,
                                const char *value, const char *second)
{
    (void)opts;
    (void)second;
    job_wide.hosts = value;
    return hosts_add_list(value, spelling, &job_wide.host_slots);
}

static bool apply_hostfile(struct launch_options *opts, const char *spelling, const char *value,
                           const char *second)
{
    (void)opts;
    (void)second;
    return hosts_add_file(value, spelling, &job_wide.host_slots);
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
    /* Hydra's SYSTEM: the cores, nodempi's default. */
    if (strcasecmp(value, "SYSTEM") == 0) {
        opts->universe_size = 0;
        return true;
    }
    return options_parse_count(spelling, value, "process count", &opts->universe_size);
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

/* Accept and ignore (each table entry says why). Open MPI's component parameters choose
 * among Open MPI's own components (btl, pml, ...), which nodempi does not have: scripts
 * written for Open MPI run unchanged, silently. */
bool options_apply_nothing(struct launch_options *opts, const char *spelling, const char *value,
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
    {{"-n", "-np", "--n", "--np", "-c", NULL}, VALUES_ONE, .apply = apply_nranks},
    {{"-soft", "--soft", NULL}, VALUES_ONE, .apply = apply_soft},
    {{"-host", "--host", "-H", NULL}, VALUES_ONE, .apply = apply_host_list},
    {{"-arch", "--arch", NULL}, VALUES_ONE, .apply = apply_arch},
    {{"-wdir", "--wdir", "-wd", "--wd", NULL}, VALUES_ONE, .apply = apply_wdir},
    {{"-path", "--path", NULL}, VALUES_ONE, .apply = apply_path},
    {{"-file", "--file", NULL}, VALUES_ONE, .apply = apply_file},
    /* Open MPI's appfile has the same lines: a program's options and the program. */
    {{"-configfile", "--configfile", "--app", "-app", NULL}, VALUES_ONE,
     .apply = apply_configfile},
    {{"-initial-errhandler", "--initial-errhandler", NULL}, VALUES_ONE,
     .apply = apply_initial_errhandler},
    /* The job's hosts and counts per node, as MPICH (Hydra) and Open MPI write them. */
    {{"-hosts", "--hosts", NULL}, VALUES_ONE, .apply = apply_job_host_list},
    {{"-f", "-hostfile", "--hostfile", "-machinefile", "--machinefile", NULL}, VALUES_ONE,
     .apply = apply_hostfile},
    {{"-ppn", "--ppn", "-N", "--npernode", "-npernode", NULL}, VALUES_ONE,
     .apply = apply_per_node},
    /* Placement and output (more in options_mapping.c and options_output.c). */
    {{"--report-bindings", "-report-bindings", "--display-map", "-display-map",
      "-print-rank-map", "--print-rank-map", NULL},
     VALUES_NONE, .flag = offsetof(struct launch_options, report_bindings)},
    {{"--tag-output", "-tag-output", "-l", "-prepend-rank", "--prepend-rank", NULL},
     VALUES_NONE, .flag = offsetof(struct launch_options, tag_output)},
    {{"--universe-size", "-universe-size", "-usize", NULL}, VALUES_ONE, .apply = apply_universe},
    {{"--timeout", "-timeout", NULL}, VALUES_ONE, .apply = apply_timeout},
    /* The ranks' environment. */
    {{"-x", NULL}, VALUES_ONE, .apply = apply_export},
    {{"--env", "-genv", "--genv", NULL}, VALUES_ASSIGNMENT, .apply = apply_global_env},
    {{"-env", NULL}, VALUES_ASSIGNMENT, .apply = apply_local_env},
    {{"-genvlist", "--genvlist", NULL}, VALUES_ONE, .apply = apply_global_env_list},
    {{"-envlist", "--envlist", NULL}, VALUES_ONE, .apply = apply_local_env_list},
    {{"-genvnone", "--genvnone", NULL}, VALUES_NONE,
     .flag = offsetof(struct launch_options, env_none)},
    {{"-envnone", "--envnone", NULL}, VALUES_NONE, .apply = apply_local_env_none},
    {{"-genvall", "--genvall", "-envall", "--envall", NULL}, VALUES_NONE,
     .apply = options_apply_nothing},
    /* Accepted so that scripts written for Open MPI run; nothing to do on nodempi. */
    {{"--mca", "-mca", "--gmca", "-gmca", "--prtemca", "--pmixmca", NULL}, VALUES_TWO,
     .apply = options_apply_nothing},
    {{"--oversubscribe", "-oversubscribe", "--allow-run-as-root", "-allow-run-as-root", NULL},
     VALUES_NONE, .apply = options_apply_nothing},
};

static const struct option_table core_option_table = {
    option_table, sizeof(option_table) / sizeof(option_table[0])};

static const struct option_spec *find_option(const char *name, size_t name_len)
{
    const struct option_table *tables[] = {&core_option_table, &output_option_table,
                                           &mapping_option_table, &foreign_option_table};
    for (size_t t = 0; t < sizeof(tables) / sizeof(tables[0]); t++) {
        for (size_t i = 0; i < tables[t]->count; i++) {
            for (const char *const *s = tables[t]->specs[i].spellings; *s; s++) {
                if (strlen(*s) == name_len && strncmp(*s, name, name_len) == 0)
                    return &tables[t]->specs[i];
            }
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
    const char *refusal = spec ? NULL : options_refusal(word, name_len);
    if (refusal) {
        fprintf(stderr, "mpiexec: option %.*s is not supported: %s\n", (int)name_len, word,
                refusal);
        return false;
    }
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
    if (!spec->apply) { /* an option that only turns a setting on (options_table.h) */
        *(bool *)((char *)opts + spec->flag) = true;
        return true;
    }
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
    free(requests);
    requests = NULL;
    configfile_free(&opts->configfile);
    output_request_free(&opts->output);
    opts->apps = NULL;
    opts->rank_env = NULL;
    opts->rank_env_count = 0;
}

/* The words being parsed: the command line's, then a -configfile's. */
struct word_list {
    int count;
    char **words;
};

/* After -configfile, the command line must end: the file holds the program sections. The
 * program options already given wait for the file's first program (add_context). */
static bool switch_to_configfile(struct word_list *list, int at, struct launch_options *opts)
{
    if (at + 1 < list->count) {
        fprintf(stderr, "mpiexec: -configfile must be the last option, '%s' follows it\n",
                list->words[at + 1]);
        return false;
    }
    list->count = opts->configfile.count;
    list->words = opts->configfile.words;
    before_configfile = pending;
    pending = (struct context_request){0};
    return true;
}

/* -info (Hydra): what this mpiexec was built with and can do. */
static void print_build_info(void)
{
    printf("mpiexec (nodempi) %s\n"
           "    Launchers available:            none needed: every rank runs on this node\n"
           "    Topology libraries available:   hwloc\n"
           "    Binding:                        core hwthread l3cache numa socket none\n",
           NODEMPI_VERSION_STRING);
}

/* --help, --version, -info: printed, and mpiexec is done. */
static bool print_and_finish(const char *word)
{
    if (is_help(word)) {
        fputs(usage_text, stdout);
    } else if (strcmp(word, "--version") == 0 || strcmp(word, "-version") == 0 ||
               strcmp(word, "-V") == 0) {
        printf("mpiexec (nodempi) %s\n", NODEMPI_VERSION_STRING);
    } else if (strcmp(word, "-info") == 0 || strcmp(word, "--info") == 0) {
        print_build_info();
    } else {
        return false;
    }
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
        if (print_and_finish(word))
            return OPTIONS_DONE;
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

/* One field of the program options given before -configfile, merged into the first line's. */
static bool merge_carried(const char *option, const char **field, const char *carried)
{
    if (carried && *field) {
        fprintf(stderr,
                "mpiexec: %s given both before -configfile and on the file's first line (options "
                "of a program before -configfile belong to that line, as in Hydra)\n",
                option);
        return false;
    }
    if (carried)
        *field = carried;
    return true;
}

static bool merge_before_configfile(void)
{
    const struct context_request *carried = &before_configfile;
    if (carried->nranks && pending.nranks) {
        fprintf(stderr,
                "mpiexec: -n given both before -configfile and on the file's first line (options "
                "of a program before -configfile belong to that line, as in Hydra)\n");
        return false;
    }
    if (carried->nranks)
        pending.nranks = carried->nranks;
    pending.host_slots += carried->host_slots;
    pending.env_none |= carried->env_none;
    return merge_carried("-host", &pending.host, carried->host) &&
           merge_carried("-soft", &pending.soft, carried->soft) &&
           merge_carried("-arch", &pending.arch, carried->arch) &&
           merge_carried("-wdir", &pending.wdir, carried->wdir) &&
           merge_carried("-path", &pending.path, carried->path);
}

/* The program's rank count. -n is the most asked for; -soft picks the largest count it allows
 * up to that; without either, the count per node, the program's -host slots or the job's hosts'
 * slots give it. One node runs the whole count, so a count per node must be that count. */
static bool decide_rank_count(const struct context_request *req, int *count)
{
    *count = req->nranks;
    if (req->soft) {
        int limit = req->nranks ? req->nranks : RANKS_MAX;
        if (!soft_pick_largest(req->soft, limit, "-soft", count))
            return false;
    } else if (!*count) {
        *count = job_wide.per_node ? job_wide.per_node
                 : req->host_slots ? req->host_slots
                 : job_wide.host_slots ? job_wide.host_slots
                                       : 1;
    }
    if (job_wide.per_node && *count != job_wide.per_node) {
        fprintf(stderr,
                "mpiexec: %s %d: this node runs all %d ranks of the program (-n/-soft), so the "
                "count per node must be %d\n",
                job_wide.per_node_spelling, job_wide.per_node, *count, *count);
        return false;
    }
    return true;
}

/* The program at program_argv, with the options pending for it; its count comes later. */
static bool add_context(struct launch_options *opts, char **program_argv)
{
    if (opts->napps == 0 && opts->configfile.words && !merge_before_configfile())
        return false;
    size_t n = (size_t)opts->napps + 1;
    struct app_context *grown = realloc(opts->apps, sizeof(*grown) * n);
    if (grown)
        opts->apps = grown;
    struct context_request *grown_requests = realloc(requests, sizeof(*grown_requests) * n);
    if (grown_requests)
        requests = grown_requests;
    if (!grown || !grown_requests) {
        fprintf(stderr, "mpiexec: out of memory\n");
        return false;
    }
    requests[opts->napps] = pending;
    opts->apps[opts->napps++] = (struct app_context){
        .wdir = pending.wdir, .path = pending.path, .argv = program_argv,
        .env_none = pending.env_none, .soft = pending.soft, .arch = pending.arch};
    return true;
}

static bool decide_rank_counts(struct launch_options *opts)
{
    long total = 0;
    for (int a = 0; a < opts->napps; a++) {
        struct app_context *app = &opts->apps[a];
        if (!decide_rank_count(&requests[a], &app->nranks))
            return false;
        app->maxprocs = requests[a].nranks ? requests[a].nranks : app->nranks;
        app->host = requests[a].host ? requests[a].host : job_wide.hosts;
        total += app->nranks;
        if (total > RANKS_MAX) {
            fprintf(stderr, "mpiexec: more than %d ranks in all\n", RANKS_MAX);
            return false;
        }
    }
    opts->nranks = (int)total;
    return true;
}

/* Checks that need the whole command line. */
static bool check_job(struct launch_options *opts)
{
    if (opts->stdin_rank >= opts->nranks) {
        fprintf(stderr, "mpiexec: --stdin %d: the job has ranks 0 to %d\n", opts->stdin_rank,
                opts->nranks - 1);
        return false;
    }
    if (opts->output.directory && (opts->output.stdout_pattern || opts->output.stderr_pattern)) {
        fprintf(stderr, "mpiexec: --output-filename and -outfile-pattern/-errfile-pattern name "
                        "the same files two ways: give one of them\n");
        return false;
    }
    if (opts->hwthread_slots && opts->bind == BIND_DEFAULT)
        opts->bind = BIND_HWTHREAD;
    return true;
}

/* The job's timeout before the command line's --timeout: NODEMPI_TIMEOUT, else
 * MPIEXEC_TIMEOUT (read by both Open MPI and Hydra). */
static bool read_environment(struct launch_options *opts)
{
    const char *names[] = {"NODEMPI_TIMEOUT", "MPIEXEC_TIMEOUT"};
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        const char *value = getenv(names[i]);
        if (value && value[0]) {
            if (!parse_timeout(opts, names[i], value))
                return false;
            break;
        }
    }
    /* Also how a spawned job learns its parents' universe: mpiexec sets it for every rank. */
    const char *env_universe = getenv("NODEMPI_UNIVERSE_SIZE");
    return !env_universe || !env_universe[0] ||
           apply_universe(opts, "NODEMPI_UNIVERSE_SIZE", env_universe, NULL);
}

/* Contexts are separated by a ":" word, which is replaced by NULL to end the previous
 * program's arguments; the program-section options belong to the context they precede. */
enum options_outcome options_parse(int argc, char **argv, struct launch_options *opts)
{
    *opts = (struct launch_options){.bind = BIND_DEFAULT, .stdin_rank = 0};
    job_wide = (struct job_request){0};
    before_configfile = (struct context_request){0};
    if (!read_environment(opts))
        return OPTIONS_BAD_USAGE;
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
        while (i < argc && strcmp(argv[i], ":") != 0)
            i++;
        if (i >= argc)
            break;
        argv[i++] = NULL;
    }
    if (!decide_rank_counts(opts) || !check_job(opts))
        return OPTIONS_BAD_USAGE;
    opts->program_argv = opts->apps[0].argv;
    return OPTIONS_LAUNCH;
}
