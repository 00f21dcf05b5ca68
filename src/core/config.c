/* config.c - the table of NODEMPI_* tunables (name, default, meaning) and its parser.
 * The runtime reads core_config after core_config_load(); nodempi-info --config prints the same
 * table, so a tunable documented here is a tunable that exists. */
#include "core/config.h"

#include <mpi.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

struct core_config core_config;

/* Short names for the table below. */
#define CONFIG_SIZE CORE_CONFIG_SIZE
#define CONFIG_UNSIGNED CORE_CONFIG_UNSIGNED
#define CONFIG_CHOICE CORE_CONFIG_CHOICE
#define CONFIG_STRING CORE_CONFIG_STRING
#define AT_INIT CORE_CONFIG_AT_INIT
#define LOCAL CORE_CONFIG_RUNTIME_LOCAL
#define ALL_EQUAL CORE_CONFIG_RUNTIME_ALL_EQUAL

/* The change column: LOCAL settings are read by their owner at each use or re-applied by
 * p2p_config_changed, and only steer this rank's own sends or waits (a peer handles whatever
 * protocol arrives); ALL_EQUAL ones must agree between ranks; AT_INIT ones shape structures
 * built at MPI_Init (queues, per-pair state, the sleep/wake protocol). */
static const struct core_config_entry config_table[] = {
    {"NODEMPI_SINGLE_COPY", CONFIG_CHOICE, "auto", "auto|cma|none", &core_config.single_copy, AT_INIT,
     "rendezvous copy: cma (process_vm_readv), none (pipelined through cells), auto (cma when "
     "the kernel allows it)"},
    {"NODEMPI_WAIT", CONFIG_CHOICE, "auto", "auto|spin|yield|block", &core_config.wait, AT_INIT,
     "how blocked ranks wait: auto spins when ranks <= cores, else yields then sleeps"},
    {"NODEMPI_EAGER_LIMIT", CONFIG_SIZE, "4096", NULL, &core_config.eager_limit, LOCAL,
     "largest message sent eagerly through the ring (seed 000 §4.2: 4 KB); unset, 16 KiB while "
     "ranks fit the cores (p2p/progress.c)"},
    {"NODEMPI_CMA_THRESHOLD", CONFIG_SIZE, "16384", NULL, &core_config.cma_threshold, LOCAL,
     "smallest rendezvous message copied with CMA, for every pair when set; unset, each pair "
     "uses its distance class's threshold (nodempi-info shows them)"},
    {"NODEMPI_PIPELINE_CHUNK", CONFIG_SIZE, "16k", NULL, &core_config.pipeline_chunk, AT_INIT,
     "fragment size of the pipelined rendezvous (capped by the largest ring record, and by a "
     "32nd of the cache the pair shares): 16 KiB moved 1.1-1.3x the bytes of 8 KiB (bench/effects)"},
    {"NODEMPI_SPIN_ROUNDS", CONFIG_UNSIGNED, "2000", NULL, &core_config.spin_rounds, LOCAL,
     "empty progress rounds a waiter spins before yielding"},
    {"NODEMPI_YIELD_ROUNDS", CONFIG_UNSIGNED, "50", NULL, &core_config.yield_rounds, LOCAL,
     "yields before a waiter sleeps on its futex (block, or auto when oversubscribed)"},
    {"NODEMPI_SPIN_WHILE_RUNNING", CONFIG_CHOICE, "auto", "auto|on|off",
     &core_config.spin_while_running, AT_INIT,
     "oversubscribed, a waiter spins (up to NODEMPI_SPIN_ROUNDS) instead of yielding while the "
     "rank it waits for is running in MPI on another core (core/running.c): auto = with "
     "NODEMPI_WAIT=auto; on = also with yield or block"},
    {"NODEMPI_QUEUE", CONFIG_CHOICE, "auto", "auto|pair|orq|cor|hybrid", &core_config.queue, AT_INIT,
     "queue design (docs/queues.md): pair rings, one receiving queue (orq), pair rings polled "
     "only where expected (cor), inbox + busy-pair rings + doorbells (hybrid); auto: by ranks"},
    {"NODEMPI_COLL_SHM_BARRIER", CONFIG_CHOICE, "auto", "auto|root|last|off",
     &core_config.coll_shm_barrier, ALL_EQUAL,
     "blocking MPI_Barrier of 3+ ranks of this job on a counter in the job segment instead of "
     "messages (coll/shm_barrier.c): root = rank 0 releases the others once all arrived (it "
     "leaves first), last = the last to arrive releases; auto (when oversubscribed and "
     "NODEMPI_COLL_BARRIER is auto) = the root of the rooted collective that followed the "
     "previous barrier releases, else the last to arrive"},
    {"NODEMPI_COLL_SHM_ALLREDUCE", CONFIG_CHOICE, "auto", "auto|on|off",
     &core_config.coll_shm_allreduce, ALL_EQUAL,
     "blocking MPI_Allreduce of 3+ ranks of this job and a contiguous vector that fits a cell "
     "of the barrier slot (8 KiB up to 8 ranks, 4 KiB at 16, halving with each doubling, "
     "256 bytes at 256 ranks): each rank deposits its vector, the last to arrive reduces "
     "them (coll/shm_allreduce.c); MPI_Allgather of blocks that fit a cell likewise "
     "(shm_allgather.c), MPI_Alltoall of send vectors that fit (shm_alltoall.c) and "
     "MPI_Reduce_scatter(_block) of vectors that fit where recursive halving applies "
     "(shm_reduce_scatter.c); auto = when oversubscribed"},
    /* Collective algorithms (src/coll/select.c): auto = the selection table decides. */
    {"NODEMPI_COLL_BARRIER", CONFIG_CHOICE, "auto", COLL_BARRIER_CHOICES,
     &core_config.coll_algorithm[0], ALL_EQUAL, "barrier algorithm (auto: by message size and ranks)"},
    {"NODEMPI_COLL_BCAST", CONFIG_CHOICE, "auto", COLL_BCAST_CHOICES,
     &core_config.coll_algorithm[1], ALL_EQUAL, "bcast algorithm (auto: by message size and ranks)"},
    {"NODEMPI_COLL_REDUCE", CONFIG_CHOICE, "auto", COLL_REDUCE_CHOICES,
     &core_config.coll_algorithm[2], ALL_EQUAL, "reduce algorithm (auto: by message size and ranks)"},
    {"NODEMPI_COLL_ALLREDUCE", CONFIG_CHOICE, "auto", COLL_ALLREDUCE_CHOICES,
     &core_config.coll_algorithm[3], ALL_EQUAL, "allreduce algorithm (auto: by message size and ranks)"},
    {"NODEMPI_COLL_GATHER", CONFIG_CHOICE, "auto", COLL_GATHER_CHOICES,
     &core_config.coll_algorithm[4], ALL_EQUAL, "gather algorithm (auto: by message size and ranks)"},
    {"NODEMPI_COLL_GATHERV", CONFIG_CHOICE, "auto", COLL_GATHERV_CHOICES,
     &core_config.coll_algorithm[5], ALL_EQUAL, "gatherv algorithm (auto: by message size and ranks)"},
    {"NODEMPI_COLL_SCATTER", CONFIG_CHOICE, "auto", COLL_SCATTER_CHOICES,
     &core_config.coll_algorithm[6], ALL_EQUAL, "scatter algorithm (auto: by message size and ranks)"},
    {"NODEMPI_COLL_SCATTERV", CONFIG_CHOICE, "auto", COLL_SCATTERV_CHOICES,
     &core_config.coll_algorithm[7], ALL_EQUAL, "scatterv algorithm (auto: by message size and ranks)"},
    {"NODEMPI_COLL_ALLGATHER", CONFIG_CHOICE, "auto", COLL_ALLGATHER_CHOICES,
     &core_config.coll_algorithm[8], ALL_EQUAL, "allgather algorithm (auto: by message size and ranks)"},
    {"NODEMPI_COLL_ALLGATHERV", CONFIG_CHOICE, "auto", COLL_ALLGATHERV_CHOICES,
     &core_config.coll_algorithm[9], ALL_EQUAL, "allgatherv algorithm (auto: by message size and ranks)"},
    {"NODEMPI_COLL_ALLTOALL", CONFIG_CHOICE, "auto", COLL_ALLTOALL_CHOICES,
     &core_config.coll_algorithm[10], ALL_EQUAL, "alltoall algorithm (auto: by message size and ranks)"},
    {"NODEMPI_COLL_ALLTOALLV", CONFIG_CHOICE, "auto", COLL_ALLTOALLV_CHOICES,
     &core_config.coll_algorithm[11], ALL_EQUAL, "alltoallv algorithm (auto: by message size and ranks)"},
    {"NODEMPI_COLL_ALLTOALLW", CONFIG_CHOICE, "auto", COLL_ALLTOALLW_CHOICES,
     &core_config.coll_algorithm[12], ALL_EQUAL, "alltoallw algorithm (auto: by message size and ranks)"},
    {"NODEMPI_COLL_REDUCE_SCATTER", CONFIG_CHOICE, "auto", COLL_REDUCE_SCATTER_CHOICES,
     &core_config.coll_algorithm[13], ALL_EQUAL, "reduce_scatter algorithm (auto: by message size and ranks)"},
    {"NODEMPI_COLL_REDUCE_SCATTER_BLOCK", CONFIG_CHOICE, "auto", COLL_REDUCE_SCATTER_BLOCK_CHOICES,
     &core_config.coll_algorithm[14], ALL_EQUAL, "reduce_scatter_block algorithm (auto: by message size and ranks)"},
    {"NODEMPI_COLL_SCAN", CONFIG_CHOICE, "auto", COLL_SCAN_CHOICES,
     &core_config.coll_algorithm[15], ALL_EQUAL, "scan algorithm (auto: by message size and ranks)"},
    {"NODEMPI_COLL_EXSCAN", CONFIG_CHOICE, "auto", COLL_EXSCAN_CHOICES,
     &core_config.coll_algorithm[16], ALL_EQUAL, "exscan algorithm (auto: by message size and ranks)"},
    {"NODEMPI_REDUCE_SEGMENT", CONFIG_SIZE, "64k", NULL, &core_config.reduce_segment, ALL_EQUAL,
     "a two-rank MPI_Reduce of more than twice this many bytes moves its vector in segments of "
     "this size, the root combining one while the next arrives (0 = one message)"},
    {"NODEMPI_STREAM_COPY", CONFIG_CHOICE, "off", "auto|on|off", &core_config.stream_copy, AT_INIT,
     "write large ring fragments with streaming stores: auto = for pairs on different CPUs. "
     "Off by default: through the library's own pipeline they moved 0.55-0.95x the bytes of "
     "memcpy here (vCPUs close / far; nodempi-probe's ring model had said 7-8x faster)"},
    {"NODEMPI_COPY_PIECES", CONFIG_CHOICE, "auto", "auto|on|off", &core_config.copy_pieces,
     AT_INIT,
     "message data glibc's memcpy would copy slowly is copied another way: 4 KiB-512 KiB with the "
     "destination 1-63 bytes past the source modulo 4 KiB by a vector loop (`rep movsb` moved "
     "1.6-2.8 GB/s there against 20-35), such messages outside the sender's shared heap through "
     "the pipeline instead of process_vm_readv (whose copy is `rep movsb` too), one-sided "
     "transfers there through a bounce buffer at distance 0, and blocks above "
     "512 KiB in 512 KiB pieces (which stay in cache): auto = on; off = one memcpy per block"},
    {"NODEMPI_RING_LAP", CONFIG_SIZE, "8k", NULL, &core_config.ring_lap, AT_INIT,
     "a pair-ring record that would end past this many bytes into the ring goes back to its "
     "start when the consumer has taken everything, so a light stream reuses lines both caches "
     "hold (0 = use the whole ring every lap)"},
    {"NODEMPI_FASTBOX", CONFIG_CHOICE, "auto", "auto|on|off", &core_config.fastbox, AT_INIT,
     "records of up to 64 bytes (messages, protocol replies) go through 16 cells per pair "
     "instead of the pair ring: auto = on in the pair and cor queue designs (the only ones that "
     "use it; on = the same)"},
    {"NODEMPI_FASTBOX_PACK", CONFIG_CHOICE, "auto", "auto|on|off", &core_config.fastbox_pack,
     LOCAL,
     "eager messages of up to 8 bytes sent while the receiver has not answered since the last "
     "one (a stream) take a quarter of a fastbox cell each instead of a whole one (auto = on; "
     "needs NODEMPI_FASTBOX)"},
    {"NODEMPI_RECV_IN_PLACE", CONFIG_CHOICE, "auto", "auto|on|off", &core_config.recv_in_place, LOCAL,
     "a blocking MPI_Recv from one source, with nothing posted or unexpected in its "
     "communicator, watches that peer's queues alone and copies an eager message straight "
     "into the buffer; MPI_Wait / MPI_Waitall on a receive from one source that is the oldest "
     "posted in its communicator does the same into the request: auto = on = when no rank "
     "may sleep (not oversubscribed)"},
    {"NODEMPI_FASTBOX_TAIL", CONFIG_CHOICE, "auto", "auto|on|off", &core_config.fastbox_tail,
     LOCAL,
     "a receive waiting for a peer (in place, NODEMPI_RECV_IN_PLACE, or in a progress round) "
     "asks for the expected fastbox cell's second line too, when the last record taken from "
     "that peer used it: a 33-64 B payload then arrives with one line transfer instead of two "
     "in a row (auto = on)"},
    {"NODEMPI_RECV_PARTIAL_DRAIN", CONFIG_CHOICE, "auto", "auto|on|off",
     &core_config.recv_partial_drain, LOCAL,
     "a blocking MPI_Recv that has to wait drains a peer's queue only up to the message that "
     "completes it, leaving the rest for the next receive instead of the unexpected queue "
     "(auto = on)"},
    {"NODEMPI_SPLIT_COPY", CONFIG_CHOICE, "auto", "auto|on|off", &core_config.split_copy, AT_INIT,
     "single-copy messages of at least NODEMPI_SPLIT_COPY_MIN are copied by both sides at once "
     "(the sender writes chunks with process_vm_writev while the receiver reads others): auto "
     "= when every rank has a core of its own"},
    {"NODEMPI_SHARED_HEAP", CONFIG_CHOICE, "auto", "auto|on|off", &core_config.shared_heap,
     AT_INIT,
     "blocks of 128 KiB or more that a rank of a multi-rank job gets from malloc, calloc, "
     "realloc or posix_memalign live in a memfd the other ranks map, so messages and one-sided "
     "operations on them copy with memcpy instead of process_vm_readv/writev: auto = on = "
     "when the program calls the library's malloc (not under a sanitizer, nor when loaded with "
     "dlopen); read when the library is loaded"},
    {"NODEMPI_SPLIT_COPY_MIN", CONFIG_SIZE, "64k", NULL, &core_config.split_copy_min, LOCAL,
     "smallest message the sender helps to copy"},
    {"NODEMPI_COPY_ADAPT", CONFIG_CHOICE, "auto", "auto|on|off", &core_config.copy_adapt, AT_INIT,
     "the receiver of a rendezvous message of 8 KiB - 1 MiB picks single copy or pipeline by "
     "what its recent receives from that peer of that size class took (the loser is retried "
     "every 50 ms or more), except in exchanges (it sends to that peer too), which keep the "
     "fixed threshold; blocking reductions pipeline (coll/copy_choice.c): auto = on unless "
     "NODEMPI_CMA_THRESHOLD or NODEMPI_SINGLE_COPY is set"},
    {"NODEMPI_IDLE_EAGER", CONFIG_CHOICE, "auto", "auto|on|off", &core_config.idle_eager, LOCAL,
     "a message above the eager limit that fits one ring record goes eagerly when the pair's "
     "ring is idle (the receiver has taken everything): one record instead of RTS, pull and "
     "FIN (pair queue design); auto = on unless NODEMPI_EAGER_LIMIT is set"},
    {"NODEMPI_STREAM_EAGER", CONFIG_CHOICE, "auto", "auto|on|off", &core_config.stream_eager,
     LOCAL, "a message above the eager limit that fits one ring record goes eagerly (waiting for "
     "room if need be) when no receive is posted that the peer's messages could match: a "
     "one-way stream, where the two copies run on two cores; exchanges keep the single copy; "
     "auto = as NODEMPI_IDLE_EAGER, but not when oversubscribed (a send that finds the ring "
     "full then goes rendezvous)"},
    {"NODEMPI_SKEW", CONFIG_CHOICE, "on", "off|on", &core_config.skew, LOCAL,
     "skew-aware thresholds (seed 001 §4.2): a lagging receiver makes its sender raise the "
     "pair's eager limit"},
    {"NODEMPI_SKEW_EAGER_LIMIT", CONFIG_SIZE, "256k", NULL, &core_config.skew_eager_limit, LOCAL,
     "a pair's eager limit while its receiver lags (messages up to it never wait for a match)"},
    {"NODEMPI_PROFILE", CONFIG_STRING, "", NULL, &core_config.profile, AT_INIT,
     "hardware profile written by nodempi-probe (per-class single-copy thresholds); default "
     "$XDG_CACHE_HOME or ~/.cache/nodempi/profile-<host>.txt (src/topo/profile.h)"},
};

/* "64k", "4M", "1g" or plain bytes. */
static int parse_size(const char *text, size_t *out)
{
    char *end;
    unsigned long long v = strtoull(text, &end, 10);
    if (end == text)
        return -1;
    switch (*end) {
    case 'k': case 'K': v <<= 10; end++; break;
    case 'm': case 'M': v <<= 20; end++; break;
    case 'g': case 'G': v <<= 30; end++; break;
    default: break;
    }
    if (*end == 'b' || *end == 'B')
        end++;
    if (*end != '\0')
        return -1;
    *out = (size_t)v;
    return 0;
}

static int parse_choice(const char *text, const char *choices, int *out)
{
    size_t len = strlen(text);
    int index = 0;
    for (const char *p = choices; *p; index++) {
        const char *bar = strchr(p, '|');
        size_t n = bar ? (size_t)(bar - p) : strlen(p);
        if (n == len && strncasecmp(p, text, n) == 0) {
            *out = index;
            return 0;
        }
        p += n + (bar ? 1 : 0);
    }
    return -1;
}

static int apply(const struct core_config_entry *e, const char *text)
{
    switch (e->kind) {
    case CONFIG_SIZE:
        return parse_size(text, e->target);
    case CONFIG_UNSIGNED: {
        char *end;
        unsigned long v = strtoul(text, &end, 10);
        if (end == text || *end)
            return -1;
        *(unsigned *)e->target = (unsigned)v;
        return 0;
    }
    case CONFIG_CHOICE:
        return parse_choice(text, e->choices, e->target);
    case CONFIG_STRING:
        *(const char **)e->target = text;
        return 0;
    }
    return -1;
}

#define CONFIG_COUNT (sizeof(config_table) / sizeof(config_table[0]))

/* Entries a tool has written (MPI_T_cvar_write): they count as explicitly set. */
static unsigned char written[CONFIG_COUNT];
static int loaded;

int core_config_load(void)
{
    int rc = MPI_SUCCESS;
    loaded = 1;
    memset(written, 0, sizeof(written));
    for (size_t i = 0; i < CONFIG_COUNT; i++) {
        const struct core_config_entry *e = &config_table[i];
        apply(e, e->default_value);
        const char *text = getenv(e->name);
        if (text && *text && apply(e, text) != 0) {
            fprintf(stderr, "nodempi: MPI_Init: invalid value '%s' for %s%s%s%s; using %s\n",
                    text, e->name, e->choices ? " (expected " : "",
                    e->choices ? e->choices : "", e->choices ? ")" : "", e->default_value);
            apply(e, e->default_value);
            rc = MPI_ERR_ARG;
        }
    }
    return rc;
}

static void print_value(FILE *out, const struct core_config_entry *e)
{
    switch (e->kind) {
    case CONFIG_SIZE:
        fprintf(out, "%zu", *(size_t *)e->target);
        break;
    case CONFIG_UNSIGNED:
        fprintf(out, "%u", *(unsigned *)e->target);
        break;
    case CONFIG_CHOICE: {
        int index = *(int *)e->target;
        const char *p = e->choices;
        for (int i = 0; i < index && p; i++) {
            p = strchr(p, '|');
            p = p ? p + 1 : NULL;
        }
        const char *bar = p ? strchr(p, '|') : NULL;
        fprintf(out, "%.*s", p ? (int)(bar ? bar - p : (long)strlen(p)) : 1, p ? p : "?");
        break;
    }
    case CONFIG_STRING:
        fprintf(out, "%s", **(const char **)e->target ? *(const char **)e->target : "(unset)");
        break;
    }
}

int core_config_load_once(void)
{
    return loaded ? MPI_SUCCESS : core_config_load();
}

int core_config_is_set(const char *name)
{
    for (size_t i = 0; i < CONFIG_COUNT; i++)
        if (written[i] && strcmp(config_table[i].name, name) == 0)
            return 1;
    const char *text = getenv(name);
    return text && *text;
}

const struct core_config_entry *core_config_table(size_t *count)
{
    *count = CONFIG_COUNT;
    return config_table;
}

static int choice_count(const char *choices)
{
    int n = 1;
    for (const char *p = choices; *p; p++)
        n += *p == '|';
    return n;
}

int core_config_set(const struct core_config_entry *e, const void *value)
{
    switch (e->kind) {
    case CONFIG_SIZE:
        *(size_t *)e->target = *(const size_t *)value;
        break;
    case CONFIG_UNSIGNED:
        *(unsigned *)e->target = *(const unsigned *)value;
        break;
    case CONFIG_CHOICE: {
        int index = *(const int *)value;
        if (index < 0 || index >= choice_count(e->choices))
            return MPI_ERR_ARG;
        *(int *)e->target = index;
        break;
    }
    case CONFIG_STRING:
        return MPI_ERR_ARG; /* only NODEMPI_PROFILE, read at MPI_Init */
    }
    written[e - config_table] = 1;
    return MPI_SUCCESS;
}

void core_config_print(FILE *out)
{
    static const char *const change_text[] = {
        [AT_INIT] = "set at MPI_Init",
        [LOCAL] = "MPI_T writable, per rank",
        [ALL_EQUAL] = "MPI_T writable, same value on all ranks",
    };
    for (size_t i = 0; i < CONFIG_COUNT; i++) {
        const struct core_config_entry *e = &config_table[i];
        fprintf(out, "%-24s = ", e->name);
        print_value(out, e);
        fprintf(out, "  (default %s; %s)\n    %s\n", e->default_value, change_text[e->change],
                e->meaning);
    }
}
