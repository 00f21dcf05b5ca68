/* comm.h - communicator objects as every layer sees them: ranks, rank translation, context ids,
 * error handler. Creation of new communicators (dup, split, intercomms) lives in src/core/comm*.c;
 * this header is the contract p2p and coll rely on. */
#ifndef NODEMPI_CORE_COMM_H
#define NODEMPI_CORE_COMM_H

#include <stdint.h>

#include <mpi.h>

struct core_errhandler;
struct core_group;

/* Each communicator owns two consecutive context ids: context for point-to-point and
 * context + 1 for its collectives, so collective traffic never matches user receives. */
#define CORE_CONTEXT_COLL_OFFSET 1u

/* core_comm.handle_state: whether the object's address is a handle the user may pass. */
enum core_comm_handle_state {
    CORE_COMM_HANDLE_VALID = 0x636f6d6d, /* "comm" */
    CORE_COMM_HANDLE_FREED = 0x66726565, /* "free": MPI_Comm_free / disconnect done */
};

struct core_comm {
    uint32_t handle_state;       /* enum core_comm_handle_state */
    uint32_t context;            /* even; context + 1 is the collective context */
    int rank;                    /* my rank in the (local) group */
    int size;                    /* local group size */
    int *world_ranks;            /* local rank -> world rank; NULL means identity */
    int is_inter;
    int remote_size;             /* intercommunicators: the remote group */
    int *remote_world_ranks;
    struct core_errhandler *errhandler;
    int errhandler_chosen;       /* set by MPI_Comm_set_errhandler (core_error_raise asks it of
                                  * MPI_COMM_WORLD and MPI_COMM_SELF) */
    int refcount;                /* user handle + pending operations */
    int predefined;              /* MPI_COMM_WORLD / MPI_COMM_SELF */
    char name[MPI_MAX_OBJECT_NAME];
    void *attributes;            /* owned by src/core/attr.c */
    void *topology;              /* owned by src/topo (cart/graph/dist-graph) */
    void *coll_private;          /* owned by src/coll */
    struct core_comm *local_comm; /* intercommunicators: the intracomm of my local group */
    void *info_hints;            /* MPI_Comm_set_info: owned by src/core/comm_create.c */
    uint32_t idup_serial;        /* MPI_Comm_idup calls on it so far: names the tag of each
                                  * one's agreement (src/core/comm_idup.c) */
    uint64_t session;            /* serial of the session it derives from; 0: none (buffered
                                  * sends use that session's buffer: src/p2p/bsend.c) */
};

/* NULL for MPI_COMM_NULL, other small values and a freed communicator's handle (the object
 * is kept for reuse, never returned to malloc, so a stale handle reads FREED). */
struct core_comm *core_comm_from_handle(MPI_Comm handle);
/* A handle that names a communicator the program freed. */
int core_comm_handle_freed(MPI_Comm handle);
/* A zeroed object for a new communicator (a recycled one or from the heap), handle VALID. */
struct core_comm *core_comm_new_object(void);
MPI_Comm core_comm_to_handle(const struct core_comm *comm);

/* World rank of rank r of the group messages go to: the local group for intracommunicators,
 * the remote group for intercommunicators. */
static inline int core_comm_peer_world_rank(const struct core_comm *comm, int rank)
{
    const int *map = comm->is_inter ? comm->remote_world_ranks : comm->world_ranks;
    return map ? map[rank] : rank;
}

/* Size of the group a point-to-point rank argument refers to. */
static inline int core_comm_peer_count(const struct core_comm *comm)
{
    return comm->is_inter ? comm->remote_size : comm->size;
}

/* Build world/self at MPI_Init, free them at MPI_Finalize. */
int core_comm_init_predefined(void);
void core_comm_finalize_predefined(void);

/* References held by pending operations and requests (plain counts: the library runs under
 * its lock). Inline: every nonblocking request takes and drops one. core_comm_destroy frees
 * an object whose last reference went (never a predefined one). */
void core_comm_destroy(struct core_comm *comm);
static inline void core_comm_retain(struct core_comm *comm)
{
    comm->refcount++;
}

static inline void core_comm_release(struct core_comm *comm)
{
    if (--comm->refcount > 0 || comm->predefined)
        return;
    core_comm_destroy(comm);
}
/* comm_create.c: frees topology, attributes, local_comm, hints, context id (last ref). */
void core_comm_destroy_hook(struct core_comm *comm);

#endif
