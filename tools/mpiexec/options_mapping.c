/* options_mapping.c - where ranks go, in Open MPI's and Hydra's words: --bind-to, --map-by,
 * --rank-by, --cpus-per-rank, --use-hwthread-cpus, --nooversubscribe, --pernode. On one node a
 * mapping only decides the binding and the count per node; a ranking that would number ranks
 * in another order than their cores' (by socket, by NUMA node) is refused rather than
 * silently ignored. Parsing only: placement.c places. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "options_table.h"

static const struct {
    const char *name;
    enum bind_policy policy;
} bind_names[] = {
    {"core", BIND_CORE},       {"hwthread", BIND_HWTHREAD}, {"l3cache", BIND_L3CACHE},
    {"l3", BIND_L3CACHE},      {"numa", BIND_NUMA},         {"socket", BIND_SOCKET},
    {"none", BIND_NONE},
    {"machine", BIND_NONE}, /* Hydra: the whole machine, i.e. any CPU */
};

/* Whether the len bytes at p are word, in any case (Open MPI's modifiers are upper case). */
static bool word_is(const char *p, size_t len, const char *word)
{
    return strlen(word) == len && strncasecmp(p, word, len) == 0;
}

/* The object word (before any ':') of a --bind-to or --map-by value, as a binding. */
static bool find_bind_word(const char *word, size_t len, enum bind_policy *policy)
{
    for (size_t i = 0; i < sizeof(bind_names) / sizeof(bind_names[0]); i++) {
        if (word_is(word, len, bind_names[i].name)) {
            *policy = bind_names[i].policy;
            return true;
        }
    }
    return false;
}

static bool parse_cpus_per_rank(struct launch_options *opts, const char *spelling,
                                const char *value)
{
    return options_parse_count(spelling, value, "CPU count per rank", &opts->cpus_per_rank);
}

/* Open MPI's qualifiers (overload-allowed, if-supported, ordered) change nothing here: an
 * oversubscribed rank is left unbound anyway. Hydra's "core:2" binds each rank to 2 cores. */
static bool apply_bind(struct launch_options *opts, const char *spelling, const char *value,
                       const char *second)
{
    (void)second;
    size_t len = strcspn(value, ":");
    if (!find_bind_word(value, len, &opts->bind)) {
        fprintf(stderr,
                "mpiexec: %s accepts core, hwthread, l3cache, numa, socket, machine or none, "
                "not '%s'\n",
                spelling, value);
        return false;
    }
    for (const char *q = value + len; *q;) {
        q++;
        size_t qlen = strcspn(q, ",:");
        bool counted = q[0] >= '0' && q[0] <= '9' &&
                       (opts->bind == BIND_CORE || opts->bind == BIND_HWTHREAD);
        if (counted) {
            char count[16];
            snprintf(count, sizeof(count), "%.*s", (int)(qlen < 15 ? qlen : 15), q);
            if (!parse_cpus_per_rank(opts, spelling, count))
                return false;
        } else if (!word_is(q, qlen, "overload-allowed") && !word_is(q, qlen, "if-supported") &&
                   !word_is(q, qlen, "ordered")) {
            fprintf(stderr, "mpiexec: %s %s: unknown qualifier '%.*s'\n", spelling, value,
                    (int)qlen, q);
            return false;
        }
        q += qlen;
    }
    return true;
}

/* --map-by's modifiers after the object: PE=n (CPUs per rank), [NO]OVERSUBSCRIBE, SPAN (all
 * nodes as one: this node is all of them). */
static bool apply_map_modifier(struct launch_options *opts, const char *spelling,
                               const char *value, const char *modifier, size_t len)
{
    if (len > 3 && strncasecmp(modifier, "PE=", 3) == 0) {
        char count[16];
        snprintf(count, sizeof(count), "%.*s", (int)(len - 3 < 15 ? len - 3 : 15), modifier + 3);
        return parse_cpus_per_rank(opts, spelling, count);
    }
    if (word_is(modifier, len, "NOOVERSUBSCRIBE")) {
        opts->no_oversubscribe = true;
        return true;
    }
    if (word_is(modifier, len, "OVERSUBSCRIBE") || word_is(modifier, len, "SPAN"))
        return true;
    fprintf(stderr, "mpiexec: %s %s: unknown modifier '%.*s' (PE=n, OVERSUBSCRIBE, "
                    "NOOVERSUBSCRIBE, SPAN)\n",
            spelling, value, (int)len, modifier);
    return false;
}

/* ppr:N:node is N ranks per node, Open MPI's -npernode; N per socket or core would need that
 * object's count here, which scripts rarely ask of one node: refused with the alternative. */
static bool apply_ppr(const char *spelling, const char *value, const char **rest)
{
    const char *count_text = value + 3 + (value[3] == ':');
    size_t count_len = strcspn(count_text, ":");
    const char *object = count_text + count_len;
    size_t object_len = *object ? strcspn(object + 1, ":") : 0;
    if (!*object || !word_is(object + 1, object_len, "node")) {
        fprintf(stderr,
                "mpiexec: %s %s: only ppr:N:node is supported on one node (N ranks; "
                "use -n with --bind-to socket or numa to spread them)\n",
                spelling, value);
        return false;
    }
    char count_word[16];
    snprintf(count_word, sizeof(count_word), "%.*s", (int)(count_len < 15 ? count_len : 15),
             count_text);
    int count;
    if (!options_parse_count(spelling, count_word, "rank count per node", &count))
        return false;
    *rest = object + 1 + object_len;
    return options_set_per_node(spelling, count);
}

/* --map-by OBJECT[:modifiers] or ppr:N:node[:modifiers]. slot, node and board order ranks
 * as nodempi does on one node; core, hwthread, socket, numa and l3cache also bind to that
 * object, as Open MPI does when no --bind-to is given. */
static bool apply_map_by(struct launch_options *opts, const char *spelling, const char *value,
                         const char *second)
{
    (void)second;
    size_t len = strcspn(value, ":");
    const char *rest = value + len;
    enum bind_policy policy;
    if (word_is(value, len, "ppr")) {
        if (!apply_ppr(spelling, value, &rest))
            return false;
    } else if (find_bind_word(value, len, &policy)) {
        if (opts->bind == BIND_DEFAULT)
            opts->bind = policy;
    } else if (!word_is(value, len, "slot") && !word_is(value, len, "node") &&
               !word_is(value, len, "board")) {
        fprintf(stderr,
                "mpiexec: %s accepts slot, node, board, core, hwthread, l3cache, numa, socket "
                "or ppr:N:node, not '%s'\n",
                spelling, value);
        return false;
    }
    while (*rest) {
        rest++;
        size_t mlen = strcspn(rest, ":,");
        if (!apply_map_modifier(opts, spelling, value, rest, mlen))
            return false;
        rest += mlen;
    }
    return true;
}

/* Ranks are numbered in the order of the cores they get; slot, node, board, core and hwthread
 * ranking all give that order on one node. */
static bool apply_rank_by(struct launch_options *opts, const char *spelling, const char *value,
                          const char *second)
{
    (void)opts;
    (void)second;
    static const char *const same_order[] = {"slot", "node", "board", "core", "hwthread"};
    size_t len = strcspn(value, ":");
    for (size_t i = 0; i < sizeof(same_order) / sizeof(same_order[0]); i++) {
        if (word_is(value, len, same_order[i]))
            return true;
    }
    fprintf(stderr,
            "mpiexec: %s %s: not supported (nodempi numbers ranks in the order of their "
            "cores; slot, node, board, core and hwthread ranking give that order)\n",
            spelling, value);
    return false;
}

static bool apply_cpus_per_rank(struct launch_options *opts, const char *spelling,
                                const char *value, const char *second)
{
    (void)second;
    return parse_cpus_per_rank(opts, spelling, value);
}

static bool apply_pernode(struct launch_options *opts, const char *spelling, const char *value,
                          const char *second)
{
    (void)opts;
    (void)value;
    (void)second;
    return options_set_per_node(spelling, 1);
}

static const struct option_spec mapping_specs[] = {
    {{"--bind-to", "-bind-to", NULL}, VALUES_ONE, .apply = apply_bind},
    {{"--map-by", "-map-by", NULL}, VALUES_ONE, .apply = apply_map_by},
    {{"--rank-by", "-rank-by", NULL}, VALUES_ONE, .apply = apply_rank_by},
    {{"--cpus-per-rank", "-cpus-per-rank", "--cpus-per-proc", "-cpus-per-proc", NULL},
     VALUES_ONE, .apply = apply_cpus_per_rank},
    {{"--use-hwthread-cpus", "-use-hwthread-cpus", NULL}, VALUES_NONE,
     .flag = offsetof(struct launch_options, hwthread_slots)},
    {{"--nooversubscribe", "-nooversubscribe", NULL}, VALUES_NONE,
     .flag = offsetof(struct launch_options, no_oversubscribe)},
    {{"--pernode", "-pernode", NULL}, VALUES_NONE, .apply = apply_pernode},
};

const struct option_table mapping_option_table = {
    mapping_specs, sizeof(mapping_specs) / sizeof(mapping_specs[0])};
