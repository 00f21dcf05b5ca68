/* tool_event.h - raising MPI_T events (MPI-4.1 §15.3.8) from the layers that do the things
 * tools observe. The event types are fixed (below, in the index order MPI_T_event_get_info
 * reports); registrations, buffering and callback delivery are src/mpi/mpit_event.c's.
 *
 * Cost: a place that raises an event first asks core_event_wanted(type), one relaxed atomic load
 * of a byte written only when a registration for the type is made or freed, and does nothing
 * else when it is 0. Relaxed is enough: every raise site runs inside an MPI call, and a
 * registration made by another thread is ordered with it by the big lock anyway (events are
 * only for MPI_THREAD_MULTIPLE programs under the lock, or one thread at a time otherwise); a
 * stale 0 just misses an event raised while the registration was being made.
 *
 * core_event_raise records the instance (its elements, in the layout of the type, and a
 * timestamp) for every matching registration. It never calls a tool: callbacks run later, when
 * the thread leaves its outermost MPI call (mpit_event.c explains why). Call it from inside an
 * MPI call only, with the big lock held if MPI_THREAD_MULTIPLE is on (every layer below the API
 * runs so). */
#ifndef NODEMPI_CORE_TOOL_EVENT_H
#define NODEMPI_CORE_TOOL_EVENT_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include <mpi.h>

enum core_event_type {
    CORE_EVENT_P2P_UNEXPECTED,     /* a message went to the unexpected queue (p2p/match.c) */
    CORE_EVENT_P2P_SKEW_REQUEST,   /* the skew watch asks a sender to raise/lower (p2p/skew.c) */
    CORE_EVENT_P2P_SKEW_THRESHOLD, /* a pair's eager limit changed on the sender (p2p/skew.c) */
    CORE_EVENT_COLL_PATH,          /* a collective call took its path/algorithm (coll/) */
    CORE_EVENT_SHM_HYBRID_RING,    /* hybrid queue: a sender opened its pair ring (p2p/queue.c) */
    CORE_EVENT_TYPES
};

/* The elements of each type, in that order, as the structs below lay them out in memory (the
 * displacements MPI_T_event_get_info reports are these structs' offsets). */
struct core_event_unexpected {
    int source;        /* rank in the communicator */
    int tag;
    MPI_Count bytes;   /* the whole message (a rendezvous: what the sender offers) */
    unsigned context;  /* context id: the communicator's, + 1 for its collective traffic */
    int world_source;  /* rank in MPI_COMM_WORLD (the job's numbering) */
    int protocol;      /* 0 eager, 1 rendezvous (a request to send), 2 to itself */
};
struct core_event_skew_request {
    int peer;          /* the sender asked (world rank) */
    int raise;         /* 1 raise its eager limit to ours, 0 back to the base */
    int backlog;       /* messages above the eager limit from it waiting unexpected */
};
struct core_event_skew_threshold {
    int peer;          /* the receiver that asked (world rank) */
    MPI_Count old_limit;
    MPI_Count new_limit;
};
struct core_event_coll_path {
    int collective;    /* enum coll_kind (src/coll/coll.h; the event's description lists them) */
    int path;          /* enum core_event_coll_path_kind */
    int algorithm;     /* schedule: index in the collective's algorithm list, else -1 */
    int comm_size;
    unsigned context;  /* the communicator's context id */
    MPI_Count bytes;   /* the size the selection looked at (0 where it looks at none) */
};
enum core_event_coll_path_kind {
    CORE_COLL_PATH_NO_DATA,     /* nothing to move: returned at once */
    CORE_COLL_PATH_PAIR,        /* two ranks: the exchange itself (coll/pair.c) */
    CORE_COLL_PATH_SHM_BARRIER, /* shared counters (coll/shm_*.c) */
    CORE_COLL_PATH_SHM_ALLREDUCE,
    CORE_COLL_PATH_SHM_ALLGATHER,
    CORE_COLL_PATH_SHM_ALLTOALL,
    CORE_COLL_PATH_SHM_REDUCE_SCATTER,
    CORE_COLL_PATH_LINEAR_DIRECT, /* linear without a schedule (coll/linear_direct.c) */
    CORE_COLL_PATH_SCHEDULE,      /* a schedule of the algorithm the table chose */
    CORE_COLL_PATH_INTER,         /* an intercommunicator's schedule */
    CORE_COLL_PATH_NEIGHBOR,      /* a neighbourhood collective's schedule */
};
struct core_event_hybrid_ring {
    int peer;              /* the receiver (world rank) */
    MPI_Count inbox_records; /* records sent through its inbox before the ring opened */
    MPI_Count record_bytes;  /* payload of the record that opened it */
};

/* No communicator: the event cannot be bound to one. */
#define CORE_EVENT_NO_CONTEXT UINT32_MAX

extern _Atomic unsigned char core_event_active[CORE_EVENT_TYPES];

static inline int core_event_wanted(enum core_event_type type)
{
    return atomic_load_explicit(&core_event_active[type], memory_order_relaxed) != 0;
}

/* Record one instance: data is the type's struct above; context the communicator's context id
 * the instance belongs to (a registration bound to a communicator sees its context and
 * context + 1), or CORE_EVENT_NO_CONTEXT. */
void core_event_raise(enum core_event_type type, uint32_t context, const void *data);

#endif
