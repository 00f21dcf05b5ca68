/* group.c - group objects and MPI's group algebra over lists of world ranks.
 * MPI_GROUP_EMPTY is one static object; every other group is a heap object whose address is
 * its handle. Membership tests use a temporary world-rank -> group-rank table (world sizes on
 * one node are small), so each operation is linear. Nothing here communicates. */
#include "core/group.h"

#include <stdlib.h>
#include <string.h>

#include "core/comm.h"
#include "core/state.h"

static struct core_group empty_group = {1, 1, 0, MPI_UNDEFINED, NULL, 0};

struct core_group *core_group_empty(void)
{
    return &empty_group;
}

struct core_group *core_group_from_handle(MPI_Group handle)
{
    if (handle == MPI_GROUP_EMPTY)
        return &empty_group;
    if ((uintptr_t)handle < 0x1000)
        return NULL;
    return (struct core_group *)handle;
}

MPI_Group core_group_to_handle(const struct core_group *group)
{
    if (group == &empty_group)
        return MPI_GROUP_EMPTY;
    return group ? (MPI_Group)group : MPI_GROUP_NULL;
}

struct core_group *core_group_new(int n, const int *world_ranks, int my_world_rank)
{
    if (n == 0)
        return &empty_group;
    struct core_group *group = malloc(sizeof(*group));
    int *ranks = malloc(sizeof(int) * (size_t)n);
    if (!group || !ranks) {
        free(group);
        free(ranks);
        return NULL;
    }
    memcpy(ranks, world_ranks, sizeof(int) * (size_t)n);
    group->refcount = 1;
    group->predefined = 0;
    group->size = n;
    group->world_ranks = ranks;
    group->rank = MPI_UNDEFINED;
    for (int i = 0; i < n; i++)
        if (ranks[i] == my_world_rank)
            group->rank = i;
    return group;
}

void core_group_retain(struct core_group *group)
{
    if (!group->predefined)
        group->refcount++;
}

void core_group_release(struct core_group *group)
{
    if (group->predefined || --group->refcount > 0)
        return;
    free(group->world_ranks);
    free(group);
}

/* A group made from a session's group (or communicator) derives from that session too. */
static void inherit_session(struct core_group *made, uint64_t session)
{
    if (made && !made->predefined)
        made->session = session;
}

static int group_from_map(int n, const int *map, struct core_group **out)
{
    if (n == 0) {
        *out = &empty_group;
        return MPI_SUCCESS;
    }
    if (map) {
        *out = core_group_new(n, map, nodempi.world_rank);
        return *out ? MPI_SUCCESS : MPI_ERR_NO_MEM;
    }
    /* NULL map: the identity (MPI_COMM_WORLD) */
    int *ids = malloc(sizeof(int) * (size_t)n);
    if (!ids)
        return MPI_ERR_NO_MEM;
    for (int i = 0; i < n; i++)
        ids[i] = i;
    *out = core_group_new(n, ids, nodempi.world_rank);
    free(ids);
    return *out ? MPI_SUCCESS : MPI_ERR_NO_MEM;
}

int core_group_of_comm(const struct core_comm *comm, struct core_group **out)
{
    int rc = group_from_map(comm->size, comm->world_ranks, out);
    inherit_session(rc == MPI_SUCCESS ? *out : NULL, comm->session);
    return rc;
}

int core_group_remote_of_comm(const struct core_comm *comm, struct core_group **out)
{
    int rc = group_from_map(comm->remote_size, comm->remote_world_ranks, out);
    inherit_session(rc == MPI_SUCCESS ? *out : NULL, comm->session);
    return rc;
}

/* The largest world rank in either group + 1: the size of a world -> group table. */
static int table_size(const struct core_group *a, const struct core_group *b)
{
    int max = -1;
    for (int i = 0; i < a->size; i++)
        if (a->world_ranks[i] > max)
            max = a->world_ranks[i];
    for (int i = 0; b && i < b->size; i++)
        if (b->world_ranks[i] > max)
            max = b->world_ranks[i];
    return max + 1;
}

/* table[w] = rank of world rank w in group, or -1. */
static int *world_table(const struct core_group *group, int size)
{
    int *table = malloc(sizeof(int) * (size_t)(size > 0 ? size : 1));
    if (!table)
        return NULL;
    for (int w = 0; w < size; w++)
        table[w] = -1;
    for (int i = 0; i < group->size; i++)
        table[group->world_ranks[i]] = i;
    return table;
}

int core_group_rank_of_world(const struct core_group *group, int w)
{
    for (int i = 0; i < group->size; i++)
        if (group->world_ranks[i] == w)
            return i;
    return MPI_UNDEFINED;
}

int core_group_check_ranks(const struct core_group *group, int n, const int *ranks, int *bad)
{
    char *seen = calloc((size_t)group->size + 1, 1);
    if (!seen)
        return MPI_ERR_NO_MEM;
    int rc = MPI_SUCCESS;
    for (int i = 0; i < n; i++) {
        if (ranks[i] < 0 || ranks[i] >= group->size || seen[ranks[i]]) {
            *bad = i;
            rc = MPI_ERR_RANK;
            break;
        }
        seen[ranks[i]] = 1;
    }
    free(seen);
    return rc;
}

int core_group_incl(const struct core_group *group, int n, const int *ranks,
                    struct core_group **out)
{
    int bad;
    int rc = core_group_check_ranks(group, n, ranks, &bad);
    if (rc != MPI_SUCCESS)
        return rc;
    if (n <= 0) { /* n < 0 was refused by the API layer (src/mpi/group.c) */
        *out = &empty_group;
        return MPI_SUCCESS;
    }
    int *world = malloc(sizeof(int) * (size_t)n);
    if (!world)
        return MPI_ERR_NO_MEM;
    for (int i = 0; i < n; i++)
        world[i] = group->world_ranks[ranks[i]];
    *out = core_group_new(n, world, nodempi.world_rank);
    inherit_session(*out, group->session);
    free(world);
    return *out ? MPI_SUCCESS : MPI_ERR_NO_MEM;
}

int core_group_excl(const struct core_group *group, int n, const int *ranks,
                    struct core_group **out)
{
    int bad;
    int rc = core_group_check_ranks(group, n, ranks, &bad);
    if (rc != MPI_SUCCESS)
        return rc;
    char *drop = calloc((size_t)group->size + 1, 1);
    int *world = malloc(sizeof(int) * ((size_t)group->size + 1));
    if (!drop || !world) {
        free(drop);
        free(world);
        return MPI_ERR_NO_MEM;
    }
    for (int i = 0; i < n; i++)
        drop[ranks[i]] = 1;
    int count = 0;
    for (int i = 0; i < group->size; i++)
        if (!drop[i])
            world[count++] = group->world_ranks[i];
    *out = core_group_new(count, world, nodempi.world_rank);
    inherit_session(*out, group->session);
    free(drop);
    free(world);
    return *out ? MPI_SUCCESS : MPI_ERR_NO_MEM;
}

/* Ranks of one (first, last, stride) triple: first, first + stride, ... not past last. */
static int range_length(const int range[3])
{
    int first = range[0], last = range[1], stride = range[2];
    if ((stride > 0 && first > last) || (stride < 0 && first < last))
        return 0;
    return (int)(((long long)last - first) / stride) + 1;
}

int core_group_expand_ranges(const struct core_group *group, int n, const int ranges[][3],
                             int **ranks, int *count, int *bad)
{
    long long total = 0;
    for (int i = 0; i < n; i++) {
        if (ranges[i][2] == 0) {
            *bad = i;
            return MPI_ERR_ARG;
        }
        total += range_length(ranges[i]);
    }
    if (total > group->size) { /* more ranks than members: some repeat or are out of range */
        *bad = n - 1;
        return MPI_ERR_RANK;
    }
    int *list = malloc(sizeof(int) * (size_t)(total + 1));
    char *seen = calloc((size_t)group->size + 1, 1);
    if (!list || !seen) {
        free(list);
        free(seen);
        return MPI_ERR_NO_MEM;
    }
    int k = 0;
    for (int i = 0; i < n; i++) {
        int len = range_length(ranges[i]);
        for (int j = 0; j < len; j++) {
            int r = ranges[i][0] + j * ranges[i][2];
            if (r < 0 || r >= group->size || seen[r]) {
                *bad = i;
                free(list);
                free(seen);
                return MPI_ERR_RANK;
            }
            seen[r] = 1;
            list[k++] = r;
        }
    }
    free(seen);
    *ranks = list;
    *count = k;
    return MPI_SUCCESS;
}

int core_group_range_incl(const struct core_group *group, int n, const int ranges[][3],
                          struct core_group **out)
{
    int *ranks, count, bad;
    int rc = core_group_expand_ranges(group, n, ranges, &ranks, &count, &bad);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = core_group_incl(group, count, ranks, out);
    free(ranks);
    return rc;
}

int core_group_range_excl(const struct core_group *group, int n, const int ranges[][3],
                          struct core_group **out)
{
    int *ranks, count, bad;
    int rc = core_group_expand_ranges(group, n, ranges, &ranks, &count, &bad);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = core_group_excl(group, count, ranks, out);
    free(ranks);
    return rc;
}

/* The three set operations differ only in which members of a and b they keep. */
enum set_op { SET_UNION, SET_INTERSECTION, SET_DIFFERENCE };

static int group_set_op(const struct core_group *a, const struct core_group *b, enum set_op op,
                        struct core_group **out)
{
    int tsize = table_size(a, b);
    int *in_b = world_table(b, tsize);
    int *in_a = world_table(a, tsize);
    int *world = malloc(sizeof(int) * ((size_t)a->size + (size_t)b->size + 1));
    if (!in_a || !in_b || !world) {
        free(in_a);
        free(in_b);
        free(world);
        return MPI_ERR_NO_MEM;
    }
    int count = 0;
    for (int i = 0; i < a->size; i++) {
        int member = in_b[a->world_ranks[i]] >= 0;
        if (op == SET_UNION || (op == SET_INTERSECTION) == member)
            world[count++] = a->world_ranks[i];
    }
    if (op == SET_UNION)
        for (int i = 0; i < b->size; i++)
            if (in_a[b->world_ranks[i]] < 0)
                world[count++] = b->world_ranks[i];
    *out = core_group_new(count, world, nodempi.world_rank);
    inherit_session(*out, a->session ? a->session : b->session);
    free(in_a);
    free(in_b);
    free(world);
    return *out ? MPI_SUCCESS : MPI_ERR_NO_MEM;
}

int core_group_union(const struct core_group *a, const struct core_group *b,
                     struct core_group **out)
{
    return group_set_op(a, b, SET_UNION, out);
}

int core_group_intersection(const struct core_group *a, const struct core_group *b,
                            struct core_group **out)
{
    return group_set_op(a, b, SET_INTERSECTION, out);
}

int core_group_difference(const struct core_group *a, const struct core_group *b,
                          struct core_group **out)
{
    return group_set_op(a, b, SET_DIFFERENCE, out);
}

int core_group_translate(const struct core_group *a, int n, const int *ranks_a,
                         const struct core_group *b, int *ranks_b)
{
    for (int i = 0; i < n; i++)
        if (ranks_a[i] != MPI_PROC_NULL && (ranks_a[i] < 0 || ranks_a[i] >= a->size))
            return MPI_ERR_RANK;
    int *in_b = world_table(b, table_size(a, b));
    if (!in_b)
        return MPI_ERR_NO_MEM;
    for (int i = 0; i < n; i++) {
        if (ranks_a[i] == MPI_PROC_NULL) {
            ranks_b[i] = MPI_PROC_NULL;
            continue;
        }
        int r = in_b[a->world_ranks[ranks_a[i]]];
        ranks_b[i] = r >= 0 ? r : MPI_UNDEFINED;
    }
    free(in_b);
    return MPI_SUCCESS;
}

int core_group_compare(const struct core_group *a, const struct core_group *b)
{
    if (a->size != b->size)
        return MPI_UNEQUAL;
    if (a->size == 0 ||
        memcmp(a->world_ranks, b->world_ranks, sizeof(int) * (size_t)a->size) == 0)
        return MPI_IDENT;
    int *in_b = world_table(b, table_size(a, b));
    if (!in_b)
        return MPI_UNEQUAL;
    int result = MPI_SIMILAR;
    for (int i = 0; i < a->size; i++)
        if (in_b[a->world_ranks[i]] < 0)
            result = MPI_UNEQUAL;
    free(in_b);
    return result;
}
