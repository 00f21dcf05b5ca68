/* options_foreign.c - Open MPI's and Hydra's options that have nothing to act on when every
 * rank runs on this node (accepted and ignored, each with the reason), and those nodempi
 * refuses because ignoring them would change what the user asked for (each with the reason
 * and, where there is one, what to do instead). mpiexec --help lists both. */
#include <stdio.h>
#include <string.h>

#include "options_table.h"

/* Hydra's -launcher chooses how proxies start on other nodes (ssh, a batch system's own
 * starter): nodempi forks every rank itself here. "manual" and "persist" expect the user to
 * start proxies by hand, which no nodempi job would ever connect to. */
static bool apply_launcher(struct launch_options *opts, const char *spelling, const char *value,
                           const char *second)
{
    (void)opts;
    (void)second;
    static const char *const remote_only[] = {"ssh", "rsh", "fork", "slurm", "ll", "lsf",
                                              "sge", "pbs", "cobalt"};
    for (size_t i = 0; i < sizeof(remote_only) / sizeof(remote_only[0]); i++) {
        if (strcmp(value, remote_only[i]) == 0)
            return true;
    }
    fprintf(stderr, "mpiexec: %s %s: not supported (nodempi starts every rank itself on this "
                    "node; ssh, rsh, fork, slurm, ll, lsf, sge, pbs and cobalt are accepted)\n",
            spelling, value);
    return false;
}

static const struct option_spec foreign_specs[] = {
    /* Accepted and ignored: they concern other nodes, or another launcher's internals. */
    {{"--prefix", "-prefix", NULL}, VALUES_ONE, .apply = options_apply_nothing},
    {{"--noprefix", "-noprefix", NULL}, VALUES_NONE, .apply = options_apply_nothing},
    {{"-s", "--preload-binary", "-preload-binary", NULL}, VALUES_NONE,
     .apply = options_apply_nothing},
    {{"--preload-files", "-preload-files", NULL}, VALUES_ONE, .apply = options_apply_nothing},
    {{"-q", "--quiet", "-quiet", NULL}, VALUES_NONE, .apply = options_apply_nothing},
    {{"-am", "--am", "--tune", "-tune", NULL}, VALUES_ONE, .apply = options_apply_nothing},
    {{"-iface", "--iface", "-netif", NULL}, VALUES_ONE, .apply = options_apply_nothing},
    {{"-launcher", "--launcher", "-bootstrap", "--bootstrap", NULL}, VALUES_ONE,
     .apply = apply_launcher},
    {{"-launcher-exec", "--launcher-exec", "-bootstrap-exec", "--bootstrap-exec",
      "--launch-agent", "-launch-agent", NULL},
     VALUES_ONE, .apply = options_apply_nothing},
    {{"-rmk", "--rmk", "-demux", "--demux", "-topolib", "--topolib", NULL}, VALUES_ONE,
     .apply = options_apply_nothing},
    {{"-enable-x", "-disable-x", "--enable-x", "--disable-x", NULL}, VALUES_NONE,
     .apply = options_apply_nothing},
    {{"-enable-auto-cleanup", "--enable-auto-cleanup", NULL}, VALUES_NONE,
     .apply = options_apply_nothing},
    {{"-pmi-port", "--pmi-port", "-disable-hostname-propagation",
      "-enable-hostname-propagation", NULL},
     VALUES_NONE, .apply = options_apply_nothing},
    {{"-order-nodes", "--order-nodes", NULL}, VALUES_ONE, .apply = options_apply_nothing},
};

const struct option_table foreign_option_table = {
    foreign_specs, sizeof(foreign_specs) / sizeof(foreign_specs[0])};

/* Refused: ignoring them would run something other than what was asked for. */
static const struct {
    const char *spellings[8]; /* NULL-terminated */
    const char *reason;
} refused_options[] = {
    {{"--rankfile", "-rankfile", "-rf", NULL},
     "nodempi places ranks itself, in core order (choose with --bind-to, --cpus-per-rank)"},
    {{"--cpu-set", "-cpu-set", "--cpu-list", "-cpu-list", NULL},
     "start mpiexec under 'taskset -c LIST': the job uses the CPUs mpiexec may use"},
    {{"-npersocket", "--npersocket", NULL},
     "give the rank count with -n, and --bind-to socket to keep each rank in its socket"},
    {{"--timestamp-output", "-timestamp-output", NULL},
     "nodempi does not time-stamp output lines (pipe the output through 'ts')"},
    {{"--xml", "-xml", "--xml-file", "-xml-file", "--xterm", "-xterm", NULL},
     "nodempi writes plain text output to its own stdout and stderr"},
    {{"--debug", "-debug", "-tv", "--tv", "--debugger", "-debugger", NULL},
     "start the debugger as the program instead: mpiexec -n N gdb --args prog"},
    {{"-disable-auto-cleanup", "--disable-auto-cleanup", "--enable-recovery",
      "-enable-recovery", "--max-restarts", "-max-restarts", NULL},
     "a failed rank always ends the whole nodempi job"},
    {{"-skip-launch-node", "--skip-launch-node", "-nolocal", "--nolocal", NULL},
     "every rank of a nodempi job runs on this node"},
    {{"--get-stack-traces", "-get-stack-traces", "--report-state-on-timeout",
      "-report-state-on-timeout", NULL},
     "on --timeout nodempi ends the job without collecting rank states"},
    {{"-membind", "--membind", NULL},
     "nodempi binds CPUs only; a bound rank's memory is allocated near it by first touch"},
};

const char *options_refusal(const char *name, size_t name_len)
{
    for (size_t i = 0; i < sizeof(refused_options) / sizeof(refused_options[0]); i++) {
        for (const char *const *s = refused_options[i].spellings; *s; s++) {
            if (strlen(*s) == name_len && strncmp(*s, name, name_len) == 0)
                return refused_options[i].reason;
        }
    }
    return NULL;
}
