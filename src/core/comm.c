/* comm.c - the predefined communicators and communicator handles/references.
 * MPI_COMM_WORLD and MPI_COMM_SELF are objects in a small static table indexed by their ABI
 * handle value; user communicators are heap objects whose address is the handle. Creating new
 * communicators is src/core/comm_create.c's job. */
#include "core/comm.h"

#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/state.h"

enum { WORLD_CONTEXT = 0, SELF_CONTEXT = 2 };

static struct core_comm predefined_world;
static struct core_comm predefined_self;
static int self_world_rank[1];

/* Released communicator objects, kept for the next communicator instead of going back to
 * malloc: a program that uses a handle after MPI_Comm_free (a copy of it, or the same
 * handle twice) then reads FREED and gets MPI_ERR_COMM rather than reading freed memory
 * (MPICH's errors/comm/cfree segfaulted). Reused last-freed first; emptied at finalize. */
static struct core_comm *recycled;

struct core_comm *core_comm_new_object(void)
{
    struct core_comm *comm = recycled;
    if (comm) { /* zeroed by recycle() but for the link, which lives in the name */
        memcpy(&recycled, comm->name, sizeof(recycled));
        memset(comm->name, 0, sizeof(recycled));
    } else if (!(comm = calloc(1, sizeof(*comm)))) {
        return NULL;
    }
    comm->handle_state = CORE_COMM_HANDLE_VALID;
    return comm;
}

static void recycle(struct core_comm *comm)
{
    memset(comm, 0, sizeof(*comm));
    comm->handle_state = CORE_COMM_HANDLE_FREED;
    _Static_assert(sizeof(comm->name) >= sizeof(struct core_comm *), "link in the name");
    memcpy(comm->name, &recycled, sizeof(recycled));
    recycled = comm;
}

/* The heap object a handle names (live or freed), NULL for the predefined handle values
 * (MPI_COMM_NULL, WORLD, SELF and the other small integers of the ABI). */
static struct core_comm *heap_object(MPI_Comm handle)
{
    if ((uintptr_t)handle < 0x1000 || handle == MPI_COMM_WORLD || handle == MPI_COMM_SELF)
        return NULL;
    return (struct core_comm *)handle;
}

struct core_comm *core_comm_from_handle(MPI_Comm handle)
{
    if (handle == MPI_COMM_WORLD)
        return nodempi.comm_world;
    if (handle == MPI_COMM_SELF)
        return nodempi.comm_self;
    struct core_comm *comm = heap_object(handle);
    return comm && comm->handle_state == CORE_COMM_HANDLE_VALID ? comm : NULL;
}

int core_comm_handle_freed(MPI_Comm handle)
{
    struct core_comm *comm = heap_object(handle);
    return comm && comm->handle_state == CORE_COMM_HANDLE_FREED;
}

MPI_Comm core_comm_to_handle(const struct core_comm *comm)
{
    if (comm == &predefined_world)
        return MPI_COMM_WORLD;
    if (comm == &predefined_self)
        return MPI_COMM_SELF;
    return comm ? (MPI_Comm)comm : MPI_COMM_NULL;
}

static void init_predefined(struct core_comm *comm, uint32_t context, int rank, int size,
                            int *world_ranks, const char *name)
{
    memset(comm, 0, sizeof(*comm));
    comm->handle_state = CORE_COMM_HANDLE_VALID;
    comm->context = context;
    comm->rank = rank;
    comm->size = size;
    comm->world_ranks = world_ranks;
    comm->errhandler = core_errhandler_predefined(CORE_ERRHANDLER_FATAL);
    comm->refcount = 1;
    comm->predefined = 1;
    strncpy(comm->name, name, sizeof(comm->name) - 1);
}

int core_comm_init_predefined(void)
{
    self_world_rank[0] = nodempi.world_rank;
    init_predefined(&predefined_world, WORLD_CONTEXT, nodempi.world_rank, nodempi.world_size,
                    NULL, "MPI_COMM_WORLD");
    init_predefined(&predefined_self, SELF_CONTEXT, 0, 1, self_world_rank, "MPI_COMM_SELF");
    nodempi.comm_world = &predefined_world;
    nodempi.comm_self = &predefined_self;
    return MPI_SUCCESS;
}

void core_comm_finalize_predefined(void)
{
    nodempi.comm_world = NULL;
    nodempi.comm_self = NULL;
    while (recycled) {
        struct core_comm *next;
        memcpy(&next, recycled->name, sizeof(next));
        free(recycled);
        recycled = next;
    }
}

void core_comm_destroy(struct core_comm *comm)
{
    core_comm_destroy_hook(comm);
    core_errhandler_release(comm->errhandler);
    free(comm->world_ranks);
    free(comm->remote_world_ranks);
    recycle(comm);
}
