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

struct core_comm *core_comm_from_handle(MPI_Comm handle)
{
    if (handle == MPI_COMM_WORLD)
        return nodempi.comm_world;
    if (handle == MPI_COMM_SELF)
        return nodempi.comm_self;
    if ((uintptr_t)handle < 0x1000)
        return NULL; /* MPI_COMM_NULL and other predefined values */
    return (struct core_comm *)handle;
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
}

void core_comm_retain(struct core_comm *comm)
{
    comm->refcount++;
}

void core_comm_release(struct core_comm *comm)
{
    if (--comm->refcount > 0 || comm->predefined)
        return;
    core_comm_destroy_hook(comm);
    core_errhandler_release(comm->errhandler);
    free(comm->world_ranks);
    free(comm->remote_world_ranks);
    free(comm);
}
