/* comm_create.h - making and freeing communicators: dup, split, create, create_group,
 * intercommunicators (create, merge), comparison, and the context-id map the agreement on new
 * context ids works from. Every constructor is collective over its parent and returns an MPI
 * error class; a process that ends up in no new communicator gets *out = NULL. */
#ifndef NODEMPI_CORE_COMM_CREATE_H
#define NODEMPI_CORE_COMM_CREATE_H

#include <stdint.h>

#include <mpi.h>

struct core_comm;
struct core_group;
struct core_info;
struct core_request;

/* ---- context ids ---------------------------------------------------------------------------
 * Context ids come in pairs (context, context + 1); pair p is context 2p. Each process keeps a
 * bitmap of the pairs it does not use (bit set = free); a new communicator takes the lowest pair
 * free in every member, found by a bitwise-AND allreduce of the bitmaps over the parent (blocking
 * constructors look in the lower half of the map first; MPI_Comm_idup offers a few pairs of the
 * upper half per round: comm_idup.c). Pairs 0 and 1 are MPI_COMM_WORLD and MPI_COMM_SELF. Ids
 * are unique per process, not per job: two communicators with no common member may share one
 * (split gives every color the same id). */
enum { CORE_CONTEXT_PAIRS = 8192, CORE_CONTEXT_WORDS = CORE_CONTEXT_PAIRS / 64 };

struct core_context_map {
    uint64_t free_bits[CORE_CONTEXT_WORDS];
};

void core_context_map_init(struct core_context_map *map);
/* The n lowest pairs set in mask, written to pairs[]; returns how many were found (< n when
 * the map ran out). */
int core_context_lowest(const uint64_t *mask, int n, int *pairs);
void core_context_map_take(struct core_context_map *map, int pair);
void core_context_map_put(struct core_context_map *map, int pair);
int core_context_map_is_free(const struct core_context_map *map, int pair);

/* Reservation (comm_create.c explains it): the pairs free in this process's map and offered by
 * no agreement under way; reserve/unreserve mark and release an offer. */
void core_context_offerable(uint64_t *mask);
void core_context_free_mask(uint64_t *mask); /* free, reserved or not */
void core_context_reserve(const uint64_t *mask);
void core_context_unreserve(const uint64_t *mask);

/* ---- constructors ------------------------------------------------------------------------- */

/* Dup (attributes copied by their callbacks, topology and error handler kept). info == NULL
 * keeps comm's hints; otherwise the new communicator gets a copy of info. */
int core_comm_dup(struct core_comm *comm, struct core_info *info, struct core_comm **out);
/* The same group and a new context, nothing else (topology constructors start from it). */
int core_comm_dup_bare(struct core_comm *comm, struct core_comm **out);
/* The same groups on pairs already agreed (pairs[1]: the local_comm of an intercommunicator);
 * takes them from the map. */
int core_comm_dup_on(struct core_comm *comm, const int *pairs, struct core_comm **out);
/* MPI_Comm_idup(_with_info) (comm_idup.c): attributes, topology and hints are copied now, the
 * agreement runs under *out, a generic request; at its completion *newcomm is written (the new
 * communicator, or MPI_COMM_NULL when the agreement failed). info == NULL keeps comm's hints. */
int core_comm_idup(struct core_comm *comm, struct core_info *info, MPI_Comm *newcomm,
                   struct core_request **out);
int core_comm_split(struct core_comm *comm, int color, int key, struct core_comm **out);
/* MPI_Comm_split_type; info may be NULL. */
int core_comm_split_type(struct core_comm *comm, int split_type, int key,
                         struct core_info *info, struct core_comm **out);
/* MPI_Get_hw_resource_info: fill info with the resource names a guided split understands. */
int core_hw_resource_info(struct core_info *info);
/* MPI_Comm_create (collective over comm; disjoint groups allowed for intracommunicators). */
int core_comm_create(struct core_comm *comm, struct core_group *group, struct core_comm **out);
/* MPI_Comm_create_group (collective over the group's members only). */
int core_comm_create_group(struct core_comm *comm, struct core_group *group, int tag,
                           struct core_comm **out);
int core_intercomm_create(struct core_comm *local_comm, int local_leader,
                          struct core_comm *peer_comm, int remote_leader, int tag,
                          struct core_comm **out);
int core_intercomm_merge(struct core_comm *inter, int high, struct core_comm **out);

/* MPI_IDENT, MPI_CONGRUENT, MPI_SIMILAR or MPI_UNEQUAL. */
int core_comm_compare(const struct core_comm *a, const struct core_comm *b);

/* MPI_Comm_free: run the attribute delete callbacks, then drop the user's reference. */
int core_comm_free(struct core_comm *comm);

/* Info hints (MPI_Comm_set_info / get_info). get returns a new object. */
int core_comm_set_info(struct core_comm *comm, struct core_info *info);
int core_comm_get_info(struct core_comm *comm, struct core_info **out);

/* Called by core_comm_release when the last reference goes: topology, attributes left over,
 * local_comm, hints, and the context pair back to the map. */
void core_comm_destroy_hook(struct core_comm *comm);
/* Called by MPI_Finalize first thing: deletes the attributes of MPI_COMM_SELF, then of
 * MPI_COMM_WORLD (MPI requires the SELF callbacks to run before anything is torn down). */
int core_comm_finalize_hook(void);

#endif
