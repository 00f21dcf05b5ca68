/* options_output.c - the options about what mpiexec writes and reads for the ranks: output
 * files (Open MPI's --output-filename, Hydra's -outfile-pattern and -errfile-pattern), line
 * prefixes (-prepend-pattern), merged streams, which rank reads stdin, and mpiexec's own
 * reports (-v, --display-allocation, -print-all-exitcodes). Parsing only: output_files.c,
 * job.c and main.c act on them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "options_table.h"

static bool apply_output_directory(struct launch_options *opts, const char *spelling,
                                   const char *value, const char *second)
{
    (void)second;
    return output_request_set_directory(&opts->output, spelling, value);
}

static bool apply_outfile_pattern(struct launch_options *opts, const char *spelling,
                                  const char *value, const char *second)
{
    (void)second;
    opts->output.stdout_pattern = value;
    return output_pattern_check(spelling, value, true);
}

static bool apply_errfile_pattern(struct launch_options *opts, const char *spelling,
                                  const char *value, const char *second)
{
    (void)second;
    opts->output.stderr_pattern = value;
    return output_pattern_check(spelling, value, true);
}

static bool apply_prepend_pattern(struct launch_options *opts, const char *spelling,
                                  const char *value, const char *second)
{
    (void)second;
    opts->prepend_pattern = value;
    return output_pattern_check(spelling, value, false);
}

/* --stdin none|all|N (Open MPI): no rank, every rank (each gets a copy), or rank N. */
static bool apply_stdin(struct launch_options *opts, const char *spelling, const char *value,
                        const char *second)
{
    (void)second;
    if (strcmp(value, "none") == 0 || strcmp(value, "all") == 0) {
        opts->stdin_rank = value[0] == 'n' ? STDIN_NONE : STDIN_ALL;
        return true;
    }
    char *end = NULL;
    long rank = strtol(value, &end, 10);
    if (end == value || *end != '\0' || rank < 0 || rank > 1 << 20) {
        fprintf(stderr, "mpiexec: %s accepts none, all or a rank, not '%s'\n", spelling, value);
        return false;
    }
    opts->stdin_rank = (int)rank; /* checked against the job's size once it is known */
    return true;
}

static const struct option_spec output_specs[] = {
    {{"--output-filename", "-output-filename", NULL}, VALUES_ONE, .apply = apply_output_directory},
    {{"-outfile-pattern", "--outfile-pattern", NULL}, VALUES_ONE, .apply = apply_outfile_pattern},
    {{"-errfile-pattern", "--errfile-pattern", NULL}, VALUES_ONE, .apply = apply_errfile_pattern},
    {{"-prepend-pattern", "--prepend-pattern", NULL}, VALUES_ONE, .apply = apply_prepend_pattern},
    {{"--stdin", "-stdin", NULL}, VALUES_ONE, .apply = apply_stdin},
    {{"--merge-stderr-to-stdout", "-merge-stderr-to-stdout", NULL}, VALUES_NONE,
     .flag = offsetof(struct launch_options, merge_stderr)},
    {{"-v", "--verbose", "-verbose", NULL}, VALUES_NONE,
     .flag = offsetof(struct launch_options, verbose)},
    {{"--display-allocation", "-display-allocation", NULL}, VALUES_NONE,
     .flag = offsetof(struct launch_options, display_allocation)},
    {{"-print-all-exitcodes", "--print-all-exitcodes", NULL}, VALUES_NONE,
     .flag = offsetof(struct launch_options, print_exit_codes)},
};

const struct option_table output_option_table = {
    output_specs, sizeof(output_specs) / sizeof(output_specs[0])};
