/* options_table.h - how mpiexec's option grammar is split over files: options.c holds the
 * table of the MPI standard's keys, hosts, counts and environment and the parser;
 * options_output.c the output and input options; options_mapping.c Open MPI's and Hydra's
 * mapping and ranking words; options_foreign.c what other launchers take that is accepted
 * and ignored or refused on one node, each with its reason. Only the parser includes this. */
#ifndef NODEMPI_MPIEXEC_OPTIONS_TABLE_H
#define NODEMPI_MPIEXEC_OPTIONS_TABLE_H

#include <stdbool.h>
#include <stddef.h>

#include "options.h"

enum option_values {
    VALUES_NONE,
    VALUES_ONE,
    VALUES_TWO,        /* -genv VAR VALUE, --mca KEY VALUE */
    VALUES_ASSIGNMENT, /* -env VAR=value (one word) or -env VAR VALUE (Hydra's two) */
};

/* An option is applied by a function, or, when all it does is turn one setting on (--verbose,
 * --tag-output), names that setting: apply NULL, flag = offsetof(struct launch_options, the
 * bool), and the parser sets it; such an option needs no function of its own. Entries say
 * which member they give (.apply = or .flag =): -Wextra warns of a positional entry that
 * leaves a member out. */
struct option_spec {
    const char *spellings[8]; /* NULL-terminated */
    enum option_values values;
    /* second is NULL unless a second value was given. Returns false after printing why. */
    bool (*apply)(struct launch_options *opts, const char *spelling, const char *value,
                  const char *second);
    size_t flag; /* with apply NULL (and VALUES_NONE): the bool this option sets */
};

struct option_table {
    const struct option_spec *specs;
    size_t count;
};

extern const struct option_table output_option_table;
extern const struct option_table mapping_option_table;
extern const struct option_table foreign_option_table;

/* Why the option name (name_len bytes) is refused, if it is one options_foreign.c refuses
 * with a reason; NULL otherwise. */
const char *options_refusal(const char *name, size_t name_len);

/* The applier of options accepted and ignored. */
bool options_apply_nothing(struct launch_options *opts, const char *spelling, const char *value,
                           const char *second);

/* A count from 1 to the rank limit; false after a message naming spelling and what. */
bool options_parse_count(const char *spelling, const char *value, const char *what, int *count);
/* Ranks per node for the whole job (-ppn, -N, --npernode, --pernode, --map-by ppr:N:node):
 * on one node, each program's rank count. */
bool options_set_per_node(const char *spelling, int count);

#endif
