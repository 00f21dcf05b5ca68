/* config.h - the NODEMPI_* tunables: one table (config.c) read by the runtime and printed by
 * nodempi-info --config. Values are parsed once at MPI_Init. */
#ifndef NODEMPI_CORE_CONFIG_H
#define NODEMPI_CORE_CONFIG_H

#include <stddef.h>
#include <stdio.h>

#include "coll/select.h" /* COLL_CONFIG_SLOTS and the NODEMPI_COLL_<OP> choice strings */

enum core_single_copy { CORE_SINGLE_COPY_AUTO, CORE_SINGLE_COPY_CMA, CORE_SINGLE_COPY_NONE };
/* An auto|on|off switch (NODEMPI_STREAM_COPY, NODEMPI_SPLIT_COPY, NODEMPI_FASTBOX, ...). */
enum core_switch { CORE_SWITCH_AUTO, CORE_SWITCH_ON, CORE_SWITCH_OFF };
enum core_wait_policy { CORE_WAIT_AUTO, CORE_WAIT_SPIN, CORE_WAIT_YIELD, CORE_WAIT_BLOCK };
/* NODEMPI_QUEUE: auto, then enum p2p_queue_design + 1 (src/p2p/queue.h). */
enum core_queue_choice { CORE_QUEUE_AUTO, CORE_QUEUE_PAIR, CORE_QUEUE_ORQ, CORE_QUEUE_COR,
                         CORE_QUEUE_HYBRID };

struct core_config {
    enum core_single_copy single_copy;
    enum core_wait_policy wait;
    size_t eager_limit;       /* largest message sent eagerly (bytes) */
    size_t cma_threshold;     /* smallest rendezvous message pulled with CMA */
    size_t pipeline_chunk;    /* fragment size of the pipelined rendezvous */
    size_t ring_lap;          /* pair rings: soft lap while the consumer keeps up (0: whole) */
    unsigned spin_rounds;     /* empty progress rounds before a waiter yields */
    unsigned yield_rounds;    /* ...and before it sleeps (block / auto when oversubscribed) */
    int skew;                 /* skew-aware eager limits on (1) or off (0) */
    enum core_switch idle_eager; /* eager above the limit into an idle ring (p2p/send.c) */
    enum core_switch stream_eager; /* eager above the limit for one-way streams (p2p/send.c) */
    int copy_adapt;           /* enum core_switch: NODEMPI_COPY_ADAPT (p2p/adapt.c) */
    enum core_switch stream_copy;      /* streaming stores for ring data */
    enum core_switch copy_pieces;      /* message copies in pieces where glibc is slow (shm/copy.h) */
    enum core_switch split_copy;       /* sender helps the receiver copy (auto|on|off) */
    enum core_switch shared_heap;      /* large malloc blocks in a memfd peers map (shm/heap.c) */
    enum core_switch spin_while_running; /* oversubscribed: spin while the awaited rank runs */
    int coll_shm_barrier;     /* MPI_Barrier on a shared counter: auto|root|last|off */
    enum core_switch coll_shm_allreduce; /* small MPI_Allreduce through the slot's cells */
    enum core_switch fastbox;          /* small records through per-pair fixed cells */
    enum core_switch fastbox_pack;     /* tiny eager messages of a stream packed in the cells */
    enum core_switch recv_in_place;    /* MPI_Recv copies straight from the peer's queue */
    enum core_switch fastbox_tail;     /* ...and asks for a cell's second line while waiting */
    enum core_switch recv_partial_drain; /* a waiting MPI_Recv drains up to its message */
    size_t split_copy_min;    /* smallest single-copy message both sides copy */
    size_t skew_eager_limit;  /* a pair's eager limit while its receiver lags */
    size_t reduce_segment;    /* two-rank MPI_Reduce segment bytes (0: one message) */
    enum core_queue_choice queue; /* NODEMPI_QUEUE */
    const char *profile;      /* NODEMPI_PROFILE: hardware profile file, "" = per-host default */
    int coll_algorithm[COLL_CONFIG_SLOTS]; /* NODEMPI_COLL_<OP>, by enum coll_kind: 0 = auto */
};

extern struct core_config core_config;

/* One tunable as the table holds it (also read by the MPI_T control variables, src/mpi/mpit.c). */
enum core_config_kind { CORE_CONFIG_SIZE, CORE_CONFIG_UNSIGNED, CORE_CONFIG_CHOICE,
                        CORE_CONFIG_STRING };
/* When a value may change: at MPI_Init only (read from the environment), or at run time through
 * MPI_T_cvar_write, by one rank alone (each rank's choice works with any of its peers') or by
 * all ranks together with the same value (collective algorithms: every rank must pick the same). */
enum core_config_change { CORE_CONFIG_AT_INIT, CORE_CONFIG_RUNTIME_LOCAL,
                          CORE_CONFIG_RUNTIME_ALL_EQUAL };

struct core_config_entry {
    const char *name;
    enum core_config_kind kind;
    const char *default_value;
    const char *choices;       /* CORE_CONFIG_CHOICE: '|'-separated, index = enum value */
    void *target;
    enum core_config_change change;
    const char *meaning;
};

/* The table: *count entries. */
const struct core_config_entry *core_config_table(size_t *count);
/* Set a run-time tunable from a tool (MPI_T_cvar_write): value is a size_t, an unsigned or an
 * int choice index as the kind says. MPI_SUCCESS, or MPI_ERR_ARG for a value out of range. The
 * owner of the setting picks it up (p2p_config_changed, or it reads core_config each time). */
int core_config_set(const struct core_config_entry *e, const void *value);
/* core_config_load once per process: MPI_T_init_thread may read the table before MPI_Init, and
 * a tool's writes made before MPI_Init must survive it. */
int core_config_load_once(void);

/* Parse the environment into core_config; returns MPI_SUCCESS or MPI_ERR_ARG with a message
 * naming the variable printed to stderr. */
int core_config_load(void);
/* 1 when the variable is set in the environment or by a tool (an explicit choice overrides
 * measured per-pair values such as the topology-aware thresholds). */
int core_config_is_set(const char *name);
/* Print every tunable: name, current value, default, meaning. */
void core_config_print(FILE *out);

#endif
