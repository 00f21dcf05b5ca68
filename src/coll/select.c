/* select.c - algorithm selection: one table per collective, as data. A table lists the
 * algorithms (in the order of the NODEMPI_COLL_<OP> choices of select.h) and rules tried top to
 * bottom: the first rule whose rank and byte limits hold and whose algorithm is usable for the
 * call wins. NODEMPI_COLL_<OP>=<name> forces an algorithm when it is usable.
 *
 * Every input to a decision must be the same on all ranks (size, op commutativity, counts the
 * standard makes global, whether the job is oversubscribed): never a datatype's layout, which
 * may differ between ranks. A table may list rules for oversubscribed jobs (more ranks than
 * cores), tried before its general rules: there every rank that waits gives its core away, so
 * the algorithm that moves fewer bytes in total and needs fewer rounds of wake-ups wins over
 * the one that spreads the work (measurements: docs/benchmarks.md). The thresholds are first
 * estimates for one node; the shared-memory algorithms of the next collectives issue slot in
 * as further table entries. */
#include <limits.h>
#include <stdint.h>

#include "coll/algorithms.h"
#include "coll/select.h"
#include "core/config.h"
#include "core/state.h"
#include "core/tool_event.h"

struct coll_algorithm {
    const char *name;
    coll_build_fn *build;
    int (*usable)(const struct coll_args *a); /* NULL: always usable */
};

struct coll_rule {
    int max_ranks;
    size_t max_bytes;
    int algorithm; /* index into the table's algorithms */
};

struct coll_table {
    const char *choices;
    const struct coll_algorithm *algorithms;
    int nalgorithms;
    const struct coll_rule *rules;
    int nrules;
    size_t (*bytes)(const struct coll_args *a);
    const struct coll_rule *oversubscribed_rules; /* tried first when ranks outnumber cores */
    int noversubscribed_rules;
};

#define ANY_RANKS INT_MAX
#define ANY_BYTES SIZE_MAX
#define COUNT_OF(array) ((int)(sizeof(array) / sizeof((array)[0])))
#define TABLE(choices_, algorithms_, rules_, bytes_)                                           \
    {(choices_), (algorithms_), COUNT_OF(algorithms_), (rules_), COUNT_OF(rules_), (bytes_),    \
     NULL, 0}
#define TABLE_OVERSUBSCRIBED(choices_, algorithms_, rules_, bytes_, oversubscribed_rules_)      \
    {(choices_), (algorithms_), COUNT_OF(algorithms_), (rules_), COUNT_OF(rules_), (bytes_),    \
     (oversubscribed_rules_), COUNT_OF(oversubscribed_rules_)}

/* ------------------------------------------------------------------------------------------ */
/* Message-size measures (identical on every rank by the standard's matching rules).           */

static size_t no_bytes(const struct coll_args *a)
{
    (void)a;
    return 0;
}

static size_t vector_bytes(const struct coll_args *a)
{
    return dt_packed_size(a->type, a->count);
}

/* One rank's block: gather/scatter/allgather/alltoall. The root of a gather may pass
 * MPI_IN_PLACE, so its recv side is the reliable one; non-roots only know their send side. */
static size_t gather_block_bytes(const struct coll_args *a)
{
    if (a->comm->rank == a->root)
        return dt_packed_size(a->recvtype, a->recvcount);
    return dt_packed_size(a->sendtype, a->sendcount);
}

size_t coll_scatter_block_bytes(const struct coll_args *a)
{
    if (a->comm->rank == a->root)
        return dt_packed_size(a->sendtype, a->sendcount);
    return dt_packed_size(a->recvtype, a->recvcount);
}

static size_t recv_block_bytes(const struct coll_args *a)
{
    return dt_packed_size(a->recvtype, a->recvcount);
}

static size_t allgatherv_bytes(const struct coll_args *a)
{
    MPI_Count total = 0;
    for (int i = 0; i < a->comm->size; i++)
        total += a->recvcounts[i];
    return dt_packed_size(a->recvtype, total);
}

static size_t reduce_scatter_bytes(const struct coll_args *a)
{
    MPI_Count total = 0;
    for (int i = 0; i < a->comm->size; i++)
        total += a->recvcounts[i];
    return dt_packed_size(a->type, total);
}

static size_t reduce_scatter_block_bytes(const struct coll_args *a)
{
    return dt_packed_size(a->type, a->count * a->comm->size);
}

/* ------------------------------------------------------------------------------------------ */
/* Usability conditions.                                                                       */

static int commutative(const struct coll_args *a)
{
    return a->op->commutative;
}

static int commutative_and_count_covers_pof2(const struct coll_args *a)
{
    return a->op->commutative && a->count >= coll_pof2_floor(a->comm->size);
}

static int commutative_and_count_covers_ranks(const struct coll_args *a)
{
    return a->op->commutative && a->count >= a->comm->size;
}

static int pof2_ranks(const struct coll_args *a)
{
    return coll_is_pof2(a->comm->size);
}

static int commutative_pof2(const struct coll_args *a)
{
    return a->op->commutative && coll_is_pof2(a->comm->size);
}

/* Recursive halving for reduce_scatter: it runs all log p rounds whatever the counts, so it
 * needs, besides a commutative op and 2^k ranks, about an element per rank; with fewer most
 * ranks' blocks are empty and leave the reduce + scatterv right after their part of the
 * reduce (4 ranks on 2 cores, IMB 4-8 B: 1.6-2.4 us against 4.1-4.4). */
static int halving_pays(const struct coll_args *a)
{
    MPI_Count total = 0;
    for (int i = 0; i < a->comm->size; i++)
        total += a->recvcounts[i];
    return commutative_pof2(a) && total >= a->comm->size;
}

/* ------------------------------------------------------------------------------------------ */
/* The tables.                                                                                 */

static const struct coll_algorithm barrier_algorithms[] = {
    {"dissemination", coll_barrier_dissemination, NULL},
    {"linear", coll_barrier_linear, NULL},
    {"tree", coll_barrier_tree, NULL},
};
static const struct coll_rule barrier_rules[] = {
    {ANY_RANKS, ANY_BYTES, 0},
};
/* Oversubscribed, up to 8 ranks: the tree, whose rank 0 leaves first, so that a collective
 * rooted at 0 right after it finds its data sent (barrier.c). It costs the barrier itself one
 * step more: 8 ranks on 2 cores, OSU medians of 3 runs, barrier 15.8 -> 22.7 us (Open MPI
 * 14.8), but bcast 5.6 -> 0.20, scatter 5.4 -> 0.18, reduce 8.6 -> 4.8, gather 7.0 -> 4.7
 * (Open MPI 6.5, 10.7, 7.8, 7.0), allreduce 19.1 -> 18.2. Past 8 ranks rank 0's direct release
 * grows with p and dissemination stays. */
static const struct coll_rule barrier_oversubscribed_rules[] = {
    {8, ANY_BYTES, 2},
    {ANY_RANKS, ANY_BYTES, 0},
};

static const struct coll_algorithm bcast_algorithms[] = {
    {"binomial", coll_bcast_binomial, NULL},
    {"scatter_allgather", coll_bcast_scatter_allgather, NULL},
    {"linear", coll_bcast_linear, NULL},
};
static const struct coll_rule bcast_rules[] = {
    {3, ANY_BYTES, 0},
    {ANY_RANKS, 64 << 10, 0},
    {ANY_RANKS, ANY_BYTES, 1},
};
/* Oversubscribed, the binomial tree copies the message p-1 times in log p rounds; scatter +
 * ring allgather copies it about twice as often in p rounds (4 and 8 ranks on 2 cores,
 * 256 KiB-4 MiB: binomial takes 0.3-0.9 of the time). Up to 8 ranks and below 256 KiB the root
 * sending to everyone does the same p-1 copies in one round, each receiver pulling when it
 * runs, with no rank waiting for a forwarder to be scheduled (2 cores, load 7-8 from other
 * tenants, 3 interleaved repetitions: 4 ranks 16 KiB 12.4-12.6 us vs 16.8-24.0; 8 ranks 16 KiB
 * 88-170 vs 133-135; docs/benchmarks.md "Session 5"). From 256 KiB the tree wins (2026-11-23,
 * 8 rounds, medians, linear -> binomial: 8 ranks 512 KiB 220 -> 194 us, 1 MiB 420 -> 356,
 * 4 MiB 2180 -> 2072; 4 ranks 1 MiB 190 -> 158; another 5 rounds: 8 ranks 256 KiB 189 ->
 * 137, 1 MiB 663 -> 461). */
static const struct coll_rule bcast_oversubscribed_rules[] = {
    {8, (256 << 10) - 1, 2},
    {ANY_RANKS, ANY_BYTES, 0},
};

static const struct coll_algorithm reduce_algorithms[] = {
    {"binomial", coll_reduce_binomial, NULL},
    {"reduce_scatter_gather", coll_reduce_scatter_gather, commutative_and_count_covers_pof2},
    {"linear", coll_reduce_linear, NULL},
};
static const struct coll_rule reduce_rules[] = {
    {ANY_RANKS, 64 << 10, 0},
    {ANY_RANKS, ANY_BYTES, 1},
    {ANY_RANKS, ANY_BYTES, 0},
};
/* Oversubscribed, reduce-scatter + gather moves twice the bytes of the binomial tree for the
 * same reductions (4 and 8 ranks on 2 cores, 256 KiB-4 MiB: binomial takes 0.45-0.67). */
static const struct coll_rule reduce_oversubscribed_rules[] = {
    {ANY_RANKS, ANY_BYTES, 0},
};

static const struct coll_algorithm allreduce_algorithms[] = {
    {"recursive_doubling", coll_allreduce_recursive_doubling, NULL},
    {"rabenseifner", coll_allreduce_rabenseifner, commutative_and_count_covers_pof2},
    {"ring", coll_allreduce_ring, commutative_and_count_covers_ranks},
    {"reduce_bcast", coll_allreduce_reduce_bcast, NULL},
};
static const struct coll_rule allreduce_rules[] = {
    {ANY_RANKS, 8 << 10, 0},
    {ANY_RANKS, ANY_BYTES, 1},
    {ANY_RANKS, ANY_BYTES, 0},
};
/* Oversubscribed, vectors from 1 MiB take the ring: its rounds move 1/p of the vector each,
 * which a rank descheduled between rounds holds up less than Rabenseifner's halvings (quiet
 * machine, 3 rounds, 4 MiB, us, Rabenseifner -> ring: 4 ranks 2803-3124 -> 2294-2937, 8 ranks
 * 7377-8062 -> 5509-6666; 2026-11-23, 6 rounds, medians: 4 ranks 512 KiB / 1 / 2 MiB 276 /
 * 563 / 1317 -> 300 / 478 / 953, 8 ranks 663 / 1457 / 3374 -> 802 / 1422 / 2588). Rules that
 * do not apply (ring needs a commutative op and a count covering the ranks) fall to the
 * general ones; a rule has no lower size bound, so the general rules below 1 MiB are repeated
 * first. */
static const struct coll_rule allreduce_oversubscribed_rules[] = {
    {8, 8 << 10, 0}, /* below 1 MiB: the general rules, repeated */
    {8, (1 << 20) - 1, 1},
    {8, (1 << 20) - 1, 0},
    {8, ANY_BYTES, 2},
};

static const struct coll_algorithm gather_algorithms[] = {
    {"binomial", coll_gather_binomial, NULL},
    {"linear", coll_gather_linear, NULL},
};
static const struct coll_rule gather_rules[] = {
    {ANY_RANKS, 4 << 10, 0},
    {ANY_RANKS, ANY_BYTES, 1},
};
/* Oversubscribed, the root receiving every block itself beats forwarding through the tree,
 * except for tiny blocks from many ranks (on 2 cores, linear over binomial: 4 and 6 ranks,
 * 4 B-1 KiB 0.4-0.9; 8 ranks, 128 B-1 KiB 0.3-0.8 but 16-64 B 1.5-1.6). */
static const struct coll_rule gather_oversubscribed_rules[] = {
    {6, ANY_BYTES, 1},
    {ANY_RANKS, 64, 0},
    {ANY_RANKS, ANY_BYTES, 1},
};

static const struct coll_algorithm gatherv_algorithms[] = {
    {"linear", coll_gatherv_linear, NULL},
};
static const struct coll_rule gatherv_rules[] = {
    {ANY_RANKS, ANY_BYTES, 0},
};

static const struct coll_algorithm scatter_algorithms[] = {
    {"binomial", coll_scatter_binomial, NULL},
    {"linear", coll_scatter_linear, NULL},
};
static const struct coll_rule scatter_rules[] = {
    {ANY_RANKS, 4 << 10, 0},
    {ANY_RANKS, ANY_BYTES, 1},
};
/* Oversubscribed, the root sending every block itself (one round of sends) beats forwarding
 * through the tree (4, 6 and 8 ranks on 2 cores, 4 B-1 KiB: linear takes 0.5-1.0). */
static const struct coll_rule scatter_oversubscribed_rules[] = {
    {ANY_RANKS, ANY_BYTES, 1},
};

static const struct coll_algorithm scatterv_algorithms[] = {
    {"linear", coll_scatterv_linear, NULL},
};
static const struct coll_rule scatterv_rules[] = {
    {ANY_RANKS, ANY_BYTES, 0},
};

static const struct coll_algorithm allgather_algorithms[] = {
    {"recursive_doubling", coll_allgather_recursive_doubling, pof2_ranks},
    {"bruck", coll_allgather_bruck, NULL},
    {"ring", coll_allgather_ring, NULL},
    {"linear", coll_allgather_linear, NULL},
};
static const struct coll_rule allgather_rules[] = {
    {ANY_RANKS, 8 << 10, 0},
    {ANY_RANKS, 2 << 10, 1},
    {ANY_RANKS, ANY_BYTES, 2},
};
/* Oversubscribed, blocks above 4 KiB go in one round of p-1 messages: the ring's and recursive
 * doubling's rounds each wait for a partner to be scheduled (quiet machine, 3 rounds, us, ring
 * or recursive doubling -> linear: 4 ranks 64 KiB 66-101 / 52-73 -> 47-49, 256 KiB 158-165 ->
 * 157-160 (Open MPI 176-223); 8 ranks 16 KiB 98-104 / 87-138 -> 79-80, 64 KiB 570-760 /
 * 467-543 -> 238, 256 KiB 1586-1596 / 1709-2001 -> 745-916). Up to 4 KiB the general rules stay
 * (4 ranks: recursive doubling 1-4 KiB 5.9-8.3 us, linear 6.2-9.5). */
static const struct coll_rule allgather_oversubscribed_rules[] = {
    {8, 4 << 10, 0},
    {8, 2 << 10, 1},
    {8, ANY_BYTES, 3},
};

static const struct coll_algorithm allgatherv_algorithms[] = {
    {"ring", coll_allgatherv_ring, NULL},
    {"linear", coll_allgatherv_linear, NULL},
};
static const struct coll_rule allgatherv_rules[] = {
    {ANY_RANKS, ANY_BYTES, 0},
};

static const struct coll_algorithm alltoall_algorithms[] = {
    {"bruck", coll_alltoall_bruck, NULL},
    {"linear", coll_alltoall_linear, NULL},
    {"pairwise", coll_alltoall_pairwise, NULL},
};
/* Up to 8 ranks, one round of p-1 messages beats Bruck's log p rounds of packing (8 ranks on
 * 2 cores, 4-256 B: linear takes 0.7-0.9 of the time). */
static const struct coll_rule alltoall_rules[] = {
    {8, 32 << 10, 1},
    {ANY_RANKS, 256, 0},
    {ANY_RANKS, 32 << 10, 1},
    {ANY_RANKS, ANY_BYTES, 2},
};
/* Oversubscribed, pairwise's p-1 rounds each wait for one partner to be scheduled; linear's
 * one round lets whichever rank runs move its messages (4 ranks on 2 cores, quiet machine, 3
 * rounds, us, pairwise -> linear: 256 KiB 176-183 -> 156-159, 1 MiB 960-974 -> 834-884, Open
 * MPI 159-172 and 805-894; 8 ranks the same within the noise). */
static const struct coll_rule alltoall_oversubscribed_rules[] = {
    {8, ANY_BYTES, 1},
};

/* alltoallv/w: each rank knows only its own counts, so only the rank count may decide */
static const struct coll_algorithm alltoallv_algorithms[] = {
    {"linear", coll_alltoallv_linear, NULL},
    {"pairwise", coll_alltoallv_pairwise, NULL},
};
static const struct coll_rule alltoallv_rules[] = {
    {64, ANY_BYTES, 0},
    {ANY_RANKS, ANY_BYTES, 1},
};

static const struct coll_algorithm alltoallw_algorithms[] = {
    {"linear", coll_alltoallw_linear, NULL},
    {"pairwise", coll_alltoallw_pairwise, NULL},
};
static const struct coll_rule alltoallw_rules[] = {
    {64, ANY_BYTES, 0},
    {ANY_RANKS, ANY_BYTES, 1},
};

static const struct coll_algorithm reduce_scatter_algorithms[] = {
    {"ring", coll_reduce_scatter_ring, commutative},
    {"reduce_scatterv", coll_reduce_scatter_reduce_scatterv, NULL},
    {"recursive_halving", coll_reduce_scatter_recursive_halving, halving_pays},
};
/* Small vectors from 3 ranks on: a binomial reduce and one scatter round (log p + 1 rounds)
 * beat the ring's p-1 rounds (4 and 8 ranks on 2 cores, up to 2 KiB in all: 0.5-0.75 of the
 * ring's time); at 2 ranks the ring is the one exchange. Recursive halving (2^k ranks,
 * commutative, an element per rank) beats both up to 32 KiB: its log p exchange rounds keep
 * every rank busy where the reduce funnels the whole vector into rank 0 (2026-11-23, IMB
 * Reduce_scatter, 3 runs, us, reduce + scatterv / ring -> halving: 4 ranks 16 B-2 KiB 5.1-7.5 /
 * 4.8-9.4 -> 3.7-4.8, 8-32 KiB 8-29 / 7-14 -> 5.6-11.7, Open MPI 4.7-6.5 and 17-30; 8 ranks
 * 32 B-1 KiB 19-26 / 30-38 -> 16-19, Open MPI 14-21; docs/benchmarks.md "Session 13"). */
static const struct coll_rule reduce_scatter_rules[] = {
    {2, ANY_BYTES, 0},
    {ANY_RANKS, 32 << 10, 2},
    {ANY_RANKS, 2 << 10, 1},
    {ANY_RANKS, ANY_BYTES, 0},
    {ANY_RANKS, ANY_BYTES, 1},
};

static const struct coll_algorithm reduce_scatter_block_algorithms[] = {
    {"recursive_halving", coll_reduce_scatter_block_recursive_halving, commutative_pof2},
    {"ring", coll_reduce_scatter_block_ring, commutative},
    {"reduce_scatter", coll_reduce_scatter_block_reduce_scatter, NULL},
};
static const struct coll_rule reduce_scatter_block_rules[] = {
    {ANY_RANKS, 64 << 10, 0},
    {ANY_RANKS, ANY_BYTES, 1},
    {ANY_RANKS, ANY_BYTES, 2},
};

static const struct coll_algorithm scan_algorithms[] = {
    {"recursive_doubling", coll_scan_recursive_doubling, NULL},
    {"linear", coll_scan_linear, NULL},
};
static const struct coll_rule scan_rules[] = {
    {2, ANY_BYTES, 1},
    {ANY_RANKS, ANY_BYTES, 0},
};
/* The chain wakes each rank once and moves the vector once per rank; recursive doubling wakes
 * every rank log p times and sends log p vectors from each. Oversubscribed, those wake-ups are
 * the cost, and back to back the chain pipelines (rank 0 never waits): MPI_Scan 4 B at 4 ranks
 * on 2 cores 0.23 us vs 9.6, at 8 ranks 0.20 vs 71; Open MPI (a chain too) 0.47 and 1.1;
 * 1 MiB at 8 ranks 19.5 ms vs 63.5 (docs/benchmarks.md "Session 7"). At 2 ranks the chain is
 * one message where recursive doubling sends two. */
static const struct coll_rule scan_oversubscribed_rules[] = {
    {ANY_RANKS, ANY_BYTES, 1},
};

static const struct coll_algorithm exscan_algorithms[] = {
    {"recursive_doubling", coll_exscan_recursive_doubling, NULL},
    {"linear", coll_exscan_linear, NULL},
};
static const struct coll_rule exscan_rules[] = {
    {2, ANY_BYTES, 1},
    {ANY_RANKS, ANY_BYTES, 0},
};

static const struct coll_table tables[COLL_KIND_COUNT] = {
    [COLL_BARRIER] = TABLE_OVERSUBSCRIBED(COLL_BARRIER_CHOICES, barrier_algorithms,
                                          barrier_rules, no_bytes,
                                          barrier_oversubscribed_rules),
    [COLL_BCAST] = TABLE_OVERSUBSCRIBED(COLL_BCAST_CHOICES, bcast_algorithms, bcast_rules,
                                       vector_bytes, bcast_oversubscribed_rules),
    [COLL_REDUCE] = TABLE_OVERSUBSCRIBED(COLL_REDUCE_CHOICES, reduce_algorithms, reduce_rules,
                                        vector_bytes, reduce_oversubscribed_rules),
    [COLL_ALLREDUCE] = TABLE_OVERSUBSCRIBED(COLL_ALLREDUCE_CHOICES, allreduce_algorithms,
                                           allreduce_rules, vector_bytes,
                                           allreduce_oversubscribed_rules),
    [COLL_GATHER] = TABLE_OVERSUBSCRIBED(COLL_GATHER_CHOICES, gather_algorithms, gather_rules,
                                         gather_block_bytes, gather_oversubscribed_rules),
    [COLL_GATHERV] = TABLE(COLL_GATHERV_CHOICES, gatherv_algorithms, gatherv_rules, no_bytes),
    [COLL_SCATTER] = TABLE_OVERSUBSCRIBED(COLL_SCATTER_CHOICES, scatter_algorithms,
                                          scatter_rules, coll_scatter_block_bytes,
                                          scatter_oversubscribed_rules),
    [COLL_SCATTERV] = TABLE(COLL_SCATTERV_CHOICES, scatterv_algorithms, scatterv_rules,
                            no_bytes),
    [COLL_ALLGATHER] = TABLE_OVERSUBSCRIBED(COLL_ALLGATHER_CHOICES, allgather_algorithms,
                                           allgather_rules, recv_block_bytes,
                                           allgather_oversubscribed_rules),
    [COLL_ALLGATHERV] = TABLE(COLL_ALLGATHERV_CHOICES, allgatherv_algorithms, allgatherv_rules,
                              allgatherv_bytes),
    [COLL_ALLTOALL] = TABLE_OVERSUBSCRIBED(COLL_ALLTOALL_CHOICES, alltoall_algorithms,
                                          alltoall_rules, recv_block_bytes,
                                          alltoall_oversubscribed_rules),
    [COLL_ALLTOALLV] = TABLE(COLL_ALLTOALLV_CHOICES, alltoallv_algorithms, alltoallv_rules,
                             no_bytes),
    [COLL_ALLTOALLW] = TABLE(COLL_ALLTOALLW_CHOICES, alltoallw_algorithms, alltoallw_rules,
                             no_bytes),
    [COLL_REDUCE_SCATTER] = TABLE(COLL_REDUCE_SCATTER_CHOICES, reduce_scatter_algorithms,
                                  reduce_scatter_rules, reduce_scatter_bytes),
    [COLL_REDUCE_SCATTER_BLOCK] =
        TABLE(COLL_REDUCE_SCATTER_BLOCK_CHOICES, reduce_scatter_block_algorithms,
              reduce_scatter_block_rules, reduce_scatter_block_bytes),
    [COLL_SCAN] = TABLE_OVERSUBSCRIBED(COLL_SCAN_CHOICES, scan_algorithms, scan_rules,
                                       vector_bytes, scan_oversubscribed_rules),
    [COLL_EXSCAN] = TABLE_OVERSUBSCRIBED(COLL_EXSCAN_CHOICES, exscan_algorithms, exscan_rules,
                                         vector_bytes, scan_oversubscribed_rules),
};

_Static_assert(COLL_KIND_COUNT <= COLL_CONFIG_SLOTS, "core_config.coll_algorithm too small");

static int usable(const struct coll_algorithm *alg, const struct coll_args *a)
{
    return !alg->usable || alg->usable(a);
}

static const struct coll_algorithm *first_rule(const struct coll_table *t,
                                               const struct coll_rule *rules, int nrules,
                                               const struct coll_args *a, size_t bytes)
{
    for (int i = 0; i < nrules; i++) {
        const struct coll_rule *rule = &rules[i];
        if (a->comm->size > rule->max_ranks || bytes > rule->max_bytes)
            continue;
        if (usable(&t->algorithms[rule->algorithm], a))
            return &t->algorithms[rule->algorithm];
    }
    return NULL;
}

static const struct coll_algorithm *choose(const struct coll_table *t, const struct coll_args *a)
{
    int forced = core_config.coll_algorithm[a->kind];
    if (forced > 0 && forced <= t->nalgorithms && usable(&t->algorithms[forced - 1], a))
        return &t->algorithms[forced - 1];
    size_t bytes = t->bytes(a);
    const struct coll_algorithm *alg = NULL;
    if (coll_comm_oversubscribed(a->comm)) /* the same on every rank (sched.h) */
        alg = first_rule(t, t->oversubscribed_rules, t->noversubscribed_rules, a, bytes);
    if (!alg)
        alg = first_rule(t, t->rules, t->nrules, a, bytes);
    if (alg)
        return alg;
    /* the tables end with an always-usable rule; this keeps a wrong edit from crashing */
    for (int i = 0; i < t->nalgorithms; i++)
        if (usable(&t->algorithms[i], a))
            return &t->algorithms[i];
    return NULL;
}

/* Allgatherv with every count equal and the blocks packed in rank order, as IMB and OSU call
 * it, is an allgather: every rank has every count and displacement, so all decide alike, and
 * allgather's table applies, so the v-form costs what MPI_Allgather costs by construction
 * (blocks up to 8 KiB get recursive doubling or Bruck, log p rounds, where allgatherv has only
 * the ring's p - 1; from there both are the ring). On the busy 2-core machine of session 7 the
 * difference stayed inside the noise (docs/benchmarks.md "Session 7"). */
static int allgatherv_is_allgather(const struct coll_args *a)
{
    if (a->kind != COLL_ALLGATHERV || core_config.coll_algorithm[COLL_ALLGATHERV] != 0)
        return 0;
    MPI_Count n = a->recvcounts[0];
    for (int i = 0; i < a->comm->size; i++)
        if (a->recvcounts[i] != n || a->rdispls[i] != (MPI_Aint)i * n)
            return 0;
    return 1;
}

/* The MPI_T event nodempi_coll_path (core/tool_event.h), for a tool that listens. */
void coll_raise_path(const struct coll_args *a, int path, int algorithm)
{
    int intra = a->kind < COLL_NEIGHBOR_ALLGATHER && !a->comm->is_inter;
    struct core_event_coll_path e = {
        .collective = (int)a->kind,
        .path = path,
        .algorithm = algorithm,
        .comm_size = a->comm->size,
        .context = a->comm->context,
        .bytes = path != CORE_COLL_PATH_NO_DATA && intra ? (MPI_Count)tables[a->kind].bytes(a)
                                                         : 0,
    };
    core_event_raise(CORE_EVENT_COLL_PATH, a->comm->context, &e);
}

static int build_with(const struct coll_table *t, struct coll_sched *s, const struct coll_args *a)
{
    const struct coll_algorithm *alg = choose(t, a);
    if (!alg)
        return MPI_ERR_INTERN;
    if (core_event_wanted(CORE_EVENT_COLL_PATH)) /* one relaxed load when nobody listens */
        coll_raise_path(a, CORE_COLL_PATH_SCHEDULE, (int)(alg - t->algorithms));
    return alg->build(s, a);
}

int coll_build(struct coll_sched *s, const struct coll_args *a)
{
    if (a->kind >= COLL_NEIGHBOR_ALLGATHER || a->comm->is_inter) {
        if (core_event_wanted(CORE_EVENT_COLL_PATH))
            coll_raise_path(a, a->comm->is_inter ? CORE_COLL_PATH_INTER : CORE_COLL_PATH_NEIGHBOR,
                            -1);
        return a->comm->is_inter ? coll_inter_build(s, a) : coll_neighbor_build(s, a);
    }
    if (allgatherv_is_allgather(a)) {
        struct coll_args as_allgather = *a;
        as_allgather.kind = COLL_ALLGATHER;
        as_allgather.recvcount = a->recvcounts[0];
        return build_with(&tables[COLL_ALLGATHER], s, &as_allgather);
    }
    return build_with(&tables[a->kind], s, a);
}

/* The builder the table picks for a (not an intercommunicator's, not a neighbourhood
 * collective), NULL if none: a data path outside the schedules (shm_reduce_scatter.c) asks
 * which reduction tree it has to reproduce. */
coll_build_fn *coll_selected_builder(const struct coll_args *a)
{
    const struct coll_algorithm *alg = choose(&tables[a->kind], a);
    return alg ? alg->build : NULL;
}

/* For tests and nodempi-info: the name of algorithm `index` (0-based) of a collective, NULL
 * past the end; and the choice string it must match. */
const char *coll_algorithm_name(enum coll_kind kind, int index)
{
    if (kind >= COLL_NEIGHBOR_ALLGATHER || index < 0 || index >= tables[kind].nalgorithms)
        return NULL;
    return tables[kind].algorithms[index].name;
}

const char *coll_algorithm_choices(enum coll_kind kind)
{
    return kind < COLL_NEIGHBOR_ALLGATHER ? tables[kind].choices : NULL;
}
