/* test_group.c - unit test of src/core/group.c: the set operations, rank lists, ranges,
 * translate and compare against straightforward reference implementations on random groups. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/group.h"
#include "core/state.h"

static int failures;

#define CHECK(cond, ...)                                                                      \
    do {                                                                                      \
        if (!(cond)) {                                                                        \
            failures++;                                                                       \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);                              \
            fprintf(stderr, __VA_ARGS__);                                                     \
            fputc('\n', stderr);                                                              \
        }                                                                                     \
    } while (0)

enum { WORLD = 24 };

static unsigned rng = 12345;
static int next_rand(int n)
{
    rng = rng * 1103515245u + 12345u;
    return (int)((rng >> 8) % (unsigned)n);
}

/* A random group: a random subset of the world in random order. */
static struct core_group *random_group(int *size_out)
{
    int perm[WORLD];
    for (int i = 0; i < WORLD; i++)
        perm[i] = i;
    for (int i = WORLD - 1; i > 0; i--) {
        int j = next_rand(i + 1), t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
    int n = next_rand(WORLD + 1);
    *size_out = n;
    return core_group_new(n, perm, nodempi.world_rank);
}

static int contains(const struct core_group *g, int w)
{
    for (int i = 0; i < g->size; i++)
        if (g->world_ranks[i] == w)
            return 1;
    return 0;
}

static void expect_members(const struct core_group *g, const int *ref, int n, const char *what)
{
    CHECK(g->size == n, "%s: size %d, expected %d", what, g->size, n);
    if (g->size == n)
        CHECK(n == 0 || memcmp(g->world_ranks, ref, sizeof(int) * (size_t)n) == 0,
              "%s: members differ", what);
    int rank = MPI_UNDEFINED;
    for (int i = 0; i < n; i++)
        if (ref[i] == nodempi.world_rank)
            rank = i;
    CHECK(g->rank == rank, "%s: rank %d, expected %d", what, g->rank, rank);
}

static void test_set_ops(void)
{
    for (int iter = 0; iter < 400; iter++) {
        int na, nb;
        struct core_group *a = random_group(&na), *b = random_group(&nb);
        int ref[2 * WORLD], n;
        struct core_group *r;

        n = 0;
        for (int i = 0; i < a->size; i++)
            ref[n++] = a->world_ranks[i];
        for (int i = 0; i < b->size; i++)
            if (!contains(a, b->world_ranks[i]))
                ref[n++] = b->world_ranks[i];
        CHECK(core_group_union(a, b, &r) == MPI_SUCCESS, "union failed");
        expect_members(r, ref, n, "union");
        core_group_release(r);

        n = 0;
        for (int i = 0; i < a->size; i++)
            if (contains(b, a->world_ranks[i]))
                ref[n++] = a->world_ranks[i];
        CHECK(core_group_intersection(a, b, &r) == MPI_SUCCESS, "intersection failed");
        expect_members(r, ref, n, "intersection");
        if (n == 0)
            CHECK(r == core_group_empty(), "empty intersection is not MPI_GROUP_EMPTY");
        core_group_release(r);

        n = 0;
        for (int i = 0; i < a->size; i++)
            if (!contains(b, a->world_ranks[i]))
                ref[n++] = a->world_ranks[i];
        CHECK(core_group_difference(a, b, &r) == MPI_SUCCESS, "difference failed");
        expect_members(r, ref, n, "difference");
        core_group_release(r);

        /* translate a -> b */
        int ranks_a[WORLD + 1], ranks_b[WORLD + 1];
        for (int i = 0; i < a->size; i++)
            ranks_a[i] = i;
        ranks_a[a->size] = MPI_PROC_NULL;
        CHECK(core_group_translate(a, a->size + 1, ranks_a, b, ranks_b) == MPI_SUCCESS,
              "translate failed");
        for (int i = 0; i < a->size; i++) {
            int expect = core_group_rank_of_world(b, a->world_ranks[i]);
            CHECK(ranks_b[i] == expect, "translate[%d] = %d, expected %d", i, ranks_b[i],
                  expect);
        }
        CHECK(ranks_b[a->size] == MPI_PROC_NULL, "translate of MPI_PROC_NULL");
        if (a->size > 0) {
            int bad = a->size;
            CHECK(core_group_translate(a, 1, &bad, b, ranks_b) == MPI_ERR_RANK,
                  "translate of rank == size accepted");
        }
        core_group_release(a);
        core_group_release(b);
    }
}

static void test_incl_excl_ranges(void)
{
    int world[WORLD];
    for (int i = 0; i < WORLD; i++)
        world[i] = WORLD - 1 - i; /* reversed, so group ranks != world ranks */
    struct core_group *g = core_group_new(WORLD, world, nodempi.world_rank), *r;

    int ranks[] = {5, 0, 23, 7};
    CHECK(core_group_incl(g, 4, ranks, &r) == MPI_SUCCESS, "incl failed");
    int ref_incl[] = {18, 23, 0, 16};
    expect_members(r, ref_incl, 4, "incl");
    core_group_release(r);

    CHECK(core_group_excl(g, 4, ranks, &r) == MPI_SUCCESS, "excl failed");
    CHECK(r->size == WORLD - 4, "excl size %d", r->size);
    for (int i = 0; i < r->size; i++)
        CHECK(r->world_ranks[i] != 18 && r->world_ranks[i] != 23 && r->world_ranks[i] != 0 &&
                  r->world_ranks[i] != 16, "excl kept an excluded rank");
    for (int i = 1; i < r->size; i++)
        CHECK(r->world_ranks[i] < r->world_ranks[i - 1], "excl changed the order");
    core_group_release(r);

    int repeated[] = {1, 2, 1};
    int bad = -1;
    CHECK(core_group_incl(g, 3, repeated, &r) == MPI_ERR_RANK, "repeated rank accepted");
    CHECK(core_group_check_ranks(g, 3, repeated, &bad) == MPI_ERR_RANK && bad == 2,
          "bad index %d", bad);
    int out_of_range[] = {WORLD};
    CHECK(core_group_excl(g, 1, out_of_range, &r) == MPI_ERR_RANK, "rank == size accepted");
    int negative[] = {-1};
    CHECK(core_group_incl(g, 1, negative, &r) == MPI_ERR_RANK, "negative rank accepted");

    /* ranges: (1, 10, 3) = 1 4 7 10; (20, 15, -2) = 20 18 16; (0, 0, 1) = 0 */
    int ranges[3][3] = {{1, 10, 3}, {20, 15, -2}, {0, 0, 1}};
    CHECK(core_group_range_incl(g, 3, (const int(*)[3])ranges, &r) == MPI_SUCCESS,
          "range_incl failed");
    int expect_ranks[] = {1, 4, 7, 10, 20, 18, 16, 0};
    int ref[8];
    for (int i = 0; i < 8; i++)
        ref[i] = world[expect_ranks[i]];
    expect_members(r, ref, 8, "range_incl");
    core_group_release(r);

    CHECK(core_group_range_excl(g, 3, (const int(*)[3])ranges, &r) == MPI_SUCCESS,
          "range_excl failed");
    CHECK(r->size == WORLD - 8, "range_excl size %d", r->size);
    core_group_release(r);

    int zero_stride[1][3] = {{0, 5, 0}};
    CHECK(core_group_range_incl(g, 1, (const int(*)[3])zero_stride, &r) == MPI_ERR_ARG,
          "stride 0 accepted");
    int overlap[2][3] = {{0, 5, 1}, {5, 9, 1}};
    CHECK(core_group_range_incl(g, 2, (const int(*)[3])overlap, &r) == MPI_ERR_RANK,
          "overlapping ranges accepted");
    int beyond[1][3] = {{20, 30, 5}};
    CHECK(core_group_range_incl(g, 1, (const int(*)[3])beyond, &r) == MPI_ERR_RANK,
          "range past the group accepted");
    core_group_release(g);
}

static void test_compare(void)
{
    int a[] = {3, 1, 4, 5}, b[] = {3, 1, 4, 5}, c[] = {5, 4, 3, 1}, d[] = {3, 1, 4, 6};
    struct core_group *ga = core_group_new(4, a, 0), *gb = core_group_new(4, b, 0);
    struct core_group *gc = core_group_new(4, c, 0), *gd = core_group_new(4, d, 0);
    CHECK(core_group_compare(ga, gb) == MPI_IDENT, "IDENT");
    CHECK(core_group_compare(ga, gc) == MPI_SIMILAR, "SIMILAR");
    CHECK(core_group_compare(ga, gd) == MPI_UNEQUAL, "UNEQUAL");
    CHECK(core_group_compare(ga, core_group_empty()) == MPI_UNEQUAL, "vs empty");
    CHECK(core_group_compare(core_group_empty(), core_group_empty()) == MPI_IDENT,
          "empty vs empty");
    CHECK(core_group_from_handle(MPI_GROUP_EMPTY) == core_group_empty(), "GROUP_EMPTY handle");
    CHECK(core_group_from_handle(MPI_GROUP_NULL) == NULL, "GROUP_NULL handle");
    CHECK(core_group_to_handle(ga) == (MPI_Group)ga, "heap group handle");
    core_group_release(core_group_empty()); /* predefined: must not be freed */
    CHECK(core_group_empty()->size == 0, "empty group damaged");
    core_group_release(ga);
    core_group_release(gb);
    core_group_release(gc);
    core_group_release(gd);
}

int main(void)
{
    nodempi.world_rank = 7;
    nodempi.world_size = WORLD;
    test_set_ops();
    test_incl_excl_ranges();
    test_compare();
    if (failures) {
        fprintf(stderr, "%d failure(s)\n", failures);
        return 1;
    }
    printf("test_group: all passed\n");
    return 0;
}
