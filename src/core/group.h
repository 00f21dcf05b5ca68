/* group.h - process groups: ordered lists of MPI_COMM_WORLD ranks, their handles and the set
 * operations of MPI (incl/excl/ranges, union, intersection, difference, translate, compare).
 * Pure bookkeeping: nothing here communicates. Communicator creation (comm_create.c) turns a
 * group into a communicator's world_ranks table. */
#ifndef NODEMPI_CORE_GROUP_H
#define NODEMPI_CORE_GROUP_H

#include <stdint.h>

#include <mpi.h>

struct core_comm;

struct core_group {
    int refcount;
    int predefined;      /* MPI_GROUP_EMPTY: never freed */
    int size;
    int rank;            /* my rank in the group or MPI_UNDEFINED */
    int *world_ranks;    /* group rank -> MPI_COMM_WORLD rank (distinct) */
    uint64_t session;    /* serial of the session it derives from (src/mpi/session.c); 0: none */
};

struct core_group *core_group_from_handle(MPI_Group handle); /* NULL for GROUP_NULL/invalid */
MPI_Group core_group_to_handle(const struct core_group *group);
struct core_group *core_group_empty(void);

/* A new group (refcount 1) of n world ranks, copied; my_world_rank fixes group->rank.
 * Returns NULL when out of memory. n == 0 gives the (shared) empty group. */
struct core_group *core_group_new(int n, const int *world_ranks, int my_world_rank);
void core_group_retain(struct core_group *group);
void core_group_release(struct core_group *group);

/* Local and remote group of a communicator. */
int core_group_of_comm(const struct core_comm *comm, struct core_group **out);
int core_group_remote_of_comm(const struct core_comm *comm, struct core_group **out);

/* Set operations: MPI_SUCCESS, MPI_ERR_RANK (bad or repeated ranks), MPI_ERR_ARG (bad range
 * stride) or MPI_ERR_NO_MEM. *out is a new reference. */
int core_group_incl(const struct core_group *group, int n, const int *ranks,
                    struct core_group **out);
int core_group_excl(const struct core_group *group, int n, const int *ranks,
                    struct core_group **out);
int core_group_range_incl(const struct core_group *group, int n, const int ranges[][3],
                          struct core_group **out);
int core_group_range_excl(const struct core_group *group, int n, const int ranges[][3],
                          struct core_group **out);
int core_group_union(const struct core_group *a, const struct core_group *b,
                     struct core_group **out);
int core_group_intersection(const struct core_group *a, const struct core_group *b,
                            struct core_group **out);
int core_group_difference(const struct core_group *a, const struct core_group *b,
                          struct core_group **out);

/* ranks_b[i] = rank in b of a's rank ranks_a[i] (MPI_UNDEFINED if absent, MPI_PROC_NULL kept).
 * MPI_ERR_RANK for an invalid rank of a. */
int core_group_translate(const struct core_group *a, int n, const int *ranks_a,
                         const struct core_group *b, int *ranks_b);
/* MPI_IDENT, MPI_SIMILAR or MPI_UNEQUAL. */
int core_group_compare(const struct core_group *a, const struct core_group *b);
/* Rank of world rank w in group, MPI_UNDEFINED if absent. */
int core_group_rank_of_world(const struct core_group *group, int w);

/* Validate a rank list for incl/excl: each in [0, size) and no repeats. The index of the
 * first offending entry goes to *bad (for the caller's message). */
int core_group_check_ranks(const struct core_group *group, int n, const int *ranks, int *bad);
/* Expand a range list into ranks (caller frees *ranks); checks stride, bounds, repeats. */
int core_group_expand_ranges(const struct core_group *group, int n, const int ranges[][3],
                             int **ranks, int *count, int *bad);

#endif
