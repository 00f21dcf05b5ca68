/* group.c - API: process groups (size, rank, translate, compare, set operations, rank lists,
 * free). The algebra is src/core/group.c; errors go to MPI_COMM_SELF's handler (a group has
 * no communicator). */
#include <stdlib.h>

#include "mpi/comm_api.h"

static int begin_group(MPI_Group handle, struct core_group **group, const char *function)
{
    int rc = mpi_check_initialized(function);
    if (rc == MPI_SUCCESS)
        rc = mpi_get_group(handle, group, function);
    return rc;
}

static int begin_two_groups(MPI_Group h1, MPI_Group h2, struct core_group **g1,
                            struct core_group **g2, const void *out, const char *function)
{
    int rc = begin_group(h1, g1, function);
    if (rc == MPI_SUCCESS)
        rc = mpi_get_group(h2, g2, function);
    if (rc == MPI_SUCCESS)
        rc = mpi_check_pointer(NULL, out, "output argument", function);
    return rc;
}

/* Publish a new group or raise the operation's error. */
static int finish_new_group(int rc, struct core_group *made, MPI_Group *newgroup,
                            const char *function, const char *what)
{
    if (rc != MPI_SUCCESS)
        return core_error_raise(NULL, rc, function, "%s",
                                rc == MPI_ERR_NO_MEM ? "out of memory" : what);
    *newgroup = core_group_to_handle(made);
    return MPI_SUCCESS;
}

int PMPI_Group_size(MPI_Group group, int *size)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    struct core_group *g;
    int rc = begin_group(group, &g, "MPI_Group_size");
    if (rc == MPI_SUCCESS)
        rc = mpi_check_pointer(NULL, size, "size", "MPI_Group_size");
    if (rc == MPI_SUCCESS)
        *size = g->size;
    return rc;
}
#pragma weak MPI_Group_size = PMPI_Group_size

int PMPI_Group_rank(MPI_Group group, int *rank)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    struct core_group *g;
    int rc = begin_group(group, &g, "MPI_Group_rank");
    if (rc == MPI_SUCCESS)
        rc = mpi_check_pointer(NULL, rank, "rank", "MPI_Group_rank");
    if (rc == MPI_SUCCESS)
        *rank = g->rank;
    return rc;
}
#pragma weak MPI_Group_rank = PMPI_Group_rank

int PMPI_Group_translate_ranks(MPI_Group group1, int n, const int ranks1[], MPI_Group group2,
                               int ranks2[])
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    const char *fn = "MPI_Group_translate_ranks";
    struct core_group *a, *b;
    int rc = begin_two_groups(group1, group2, &a, &b, n > 0 ? ranks2 : (void *)1, fn);
    if (rc == MPI_SUCCESS && n < 0)
        rc = core_error_raise(NULL, MPI_ERR_ARG, fn, "invalid n %d", n);
    if (rc == MPI_SUCCESS && n > 0)
        rc = mpi_check_pointer(NULL, ranks1, "ranks1", fn);
    if (rc != MPI_SUCCESS)
        return rc;
    for (int i = 0; i < n; i++)
        if (ranks1[i] != MPI_PROC_NULL && (ranks1[i] < 0 || ranks1[i] >= a->size))
            return core_error_raise(NULL, MPI_ERR_RANK, fn,
                                    "invalid rank ranks1[%d] = %d (group1 size %d)", i,
                                    ranks1[i], a->size);
    rc = core_group_translate(a, n, ranks1, b, ranks2);
    return rc == MPI_SUCCESS ? rc : core_error_raise(NULL, rc, fn, "out of memory");
}
#pragma weak MPI_Group_translate_ranks = PMPI_Group_translate_ranks

int PMPI_Group_compare(MPI_Group group1, MPI_Group group2, int *result)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    struct core_group *a, *b;
    int rc = begin_two_groups(group1, group2, &a, &b, result, "MPI_Group_compare");
    if (rc == MPI_SUCCESS)
        *result = core_group_compare(a, b);
    return rc;
}
#pragma weak MPI_Group_compare = PMPI_Group_compare

int PMPI_Group_union(MPI_Group group1, MPI_Group group2, MPI_Group *newgroup)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    struct core_group *a, *b, *made = NULL;
    int rc = begin_two_groups(group1, group2, &a, &b, newgroup, "MPI_Group_union");
    if (rc != MPI_SUCCESS)
        return rc;
    rc = core_group_union(a, b, &made);
    return finish_new_group(rc, made, newgroup, "MPI_Group_union", "failed");
}
#pragma weak MPI_Group_union = PMPI_Group_union

int PMPI_Group_intersection(MPI_Group group1, MPI_Group group2, MPI_Group *newgroup)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    struct core_group *a, *b, *made = NULL;
    int rc = begin_two_groups(group1, group2, &a, &b, newgroup, "MPI_Group_intersection");
    if (rc != MPI_SUCCESS)
        return rc;
    rc = core_group_intersection(a, b, &made);
    return finish_new_group(rc, made, newgroup, "MPI_Group_intersection", "failed");
}
#pragma weak MPI_Group_intersection = PMPI_Group_intersection

int PMPI_Group_difference(MPI_Group group1, MPI_Group group2, MPI_Group *newgroup)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    struct core_group *a, *b, *made = NULL;
    int rc = begin_two_groups(group1, group2, &a, &b, newgroup, "MPI_Group_difference");
    if (rc != MPI_SUCCESS)
        return rc;
    rc = core_group_difference(a, b, &made);
    return finish_new_group(rc, made, newgroup, "MPI_Group_difference", "failed");
}
#pragma weak MPI_Group_difference = PMPI_Group_difference

/* Checks shared by incl/excl: n in [0, size], the rank list valid and without repeats. */
static int check_rank_list(const struct core_group *g, int n, const int ranks[],
                           const void *newgroup, const char *function)
{
    int rc = mpi_check_pointer(NULL, newgroup, "newgroup", function);
    if (rc == MPI_SUCCESS && (n < 0 || n > g->size))
        rc = core_error_raise(NULL, MPI_ERR_ARG, function, "invalid n %d (group size %d)", n,
                              g->size);
    if (rc == MPI_SUCCESS && n > 0)
        rc = mpi_check_pointer(NULL, ranks, "ranks", function);
    if (rc != MPI_SUCCESS)
        return rc;
    int bad = 0;
    rc = core_group_check_ranks(g, n, ranks, &bad);
    if (rc == MPI_ERR_RANK)
        return core_error_raise(NULL, rc, function,
                                "invalid or repeated rank ranks[%d] = %d (group size %d)", bad,
                                ranks[bad], g->size);
    return rc == MPI_SUCCESS ? rc : core_error_raise(NULL, rc, function, "out of memory");
}

int PMPI_Group_incl(MPI_Group group, int n, const int ranks[], MPI_Group *newgroup)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    struct core_group *g, *made = NULL;
    int rc = begin_group(group, &g, "MPI_Group_incl");
    if (rc == MPI_SUCCESS)
        rc = check_rank_list(g, n, ranks, newgroup, "MPI_Group_incl");
    if (rc != MPI_SUCCESS)
        return rc;
    rc = core_group_incl(g, n, ranks, &made);
    return finish_new_group(rc, made, newgroup, "MPI_Group_incl", "invalid ranks");
}
#pragma weak MPI_Group_incl = PMPI_Group_incl

int PMPI_Group_excl(MPI_Group group, int n, const int ranks[], MPI_Group *newgroup)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    struct core_group *g, *made = NULL;
    int rc = begin_group(group, &g, "MPI_Group_excl");
    if (rc == MPI_SUCCESS)
        rc = check_rank_list(g, n, ranks, newgroup, "MPI_Group_excl");
    if (rc != MPI_SUCCESS)
        return rc;
    rc = core_group_excl(g, n, ranks, &made);
    return finish_new_group(rc, made, newgroup, "MPI_Group_excl", "invalid ranks");
}
#pragma weak MPI_Group_excl = PMPI_Group_excl

/* Range lists: expand (checking strides, bounds and repeats), then incl or excl. */
static int range_op(MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup, int exclude,
                    const char *function)
{
    struct core_group *g, *made = NULL;
    int rc = begin_group(group, &g, function);
    if (rc == MPI_SUCCESS)
        rc = mpi_check_pointer(NULL, newgroup, "newgroup", function);
    if (rc == MPI_SUCCESS && n < 0)
        rc = core_error_raise(NULL, MPI_ERR_ARG, function, "invalid n %d", n);
    if (rc == MPI_SUCCESS && n > 0)
        rc = mpi_check_pointer(NULL, ranges, "ranges", function);
    if (rc != MPI_SUCCESS)
        return rc;
    int *ranks = NULL, count = 0, bad = 0;
    rc = core_group_expand_ranges(g, n, (const int(*)[3])ranges, &ranks, &count, &bad);
    if (rc == MPI_ERR_ARG)
        return core_error_raise(NULL, rc, function, "ranges[%d] has stride 0", bad);
    if (rc == MPI_ERR_RANK)
        return core_error_raise(NULL, rc, function,
                                "ranges[%d] = (%d, %d, %d) names an invalid or repeated rank "
                                "(group size %d)", bad, ranges[bad][0], ranges[bad][1],
                                ranges[bad][2], g->size);
    if (rc != MPI_SUCCESS)
        return core_error_raise(NULL, rc, function, "out of memory");
    rc = exclude ? core_group_excl(g, count, ranks, &made) : core_group_incl(g, count, ranks,
                                                                             &made);
    free(ranks);
    return finish_new_group(rc, made, newgroup, function, "invalid ranges");
}

int PMPI_Group_range_incl(MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return range_op(group, n, ranges, newgroup, 0, "MPI_Group_range_incl");
}
#pragma weak MPI_Group_range_incl = PMPI_Group_range_incl

int PMPI_Group_range_excl(MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return range_op(group, n, ranges, newgroup, 1, "MPI_Group_range_excl");
}
#pragma weak MPI_Group_range_excl = PMPI_Group_range_excl

int PMPI_Group_free(MPI_Group *group)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    struct core_group *g;
    int rc = mpi_check_initialized("MPI_Group_free");
    if (rc == MPI_SUCCESS)
        rc = mpi_check_pointer(NULL, group, "group", "MPI_Group_free");
    if (rc == MPI_SUCCESS)
        rc = mpi_get_group(*group, &g, "MPI_Group_free");
    if (rc != MPI_SUCCESS)
        return rc;
    core_group_release(g); /* MPI_GROUP_EMPTY is predefined: release is a no-op */
    *group = MPI_GROUP_NULL;
    return MPI_SUCCESS;
}
#pragma weak MPI_Group_free = PMPI_Group_free
