/* group_ops.c - group functions against locally computed references: incl/excl, range
 * incl/excl, union/intersection/difference, translate_ranks, compare, rank/size, the empty
 * group, and the error classes of bad rank arguments (MPI_ERR_RANK) and of MPI_GROUP_NULL. */
#include "mpitest.h"

static MPI_Group world_group;

/* World ranks of the members of g, in group order. */
static int members(MPI_Group g, int *out)
{
    int n = 0;
    MPI_Group_size(g, &n);
    for (int r = 0; r < n; r++)
        MPI_Group_translate_ranks(g, 1, &r, world_group, &out[r]);
    return n;
}

static void expect_group(MPI_Group g, const int *ref, int n, const char *what)
{
    int *got = mt_malloc(sizeof(int) * (size_t)(mt_size + 1));
    int size = members(g, got);
    MT_CHECK(size == n, "%s: size %d, expected %d", what, size, n);
    for (int i = 0; i < n && i < size; i++)
        MT_CHECK(got[i] == ref[i], "%s: member %d is %d, expected %d", what, i, got[i], ref[i]);
    int rank = -5, expect = MPI_UNDEFINED;
    for (int i = 0; i < n; i++)
        if (ref[i] == mt_rank)
            expect = i;
    MPI_Group_rank(g, &rank);
    MT_CHECK(rank == expect, "%s: rank %d, expected %d", what, rank, expect);
    free(got);
}

static int in_list(const int *list, int n, int x)
{
    for (int i = 0; i < n; i++)
        if (list[i] == x)
            return 1;
    return 0;
}

/* A pseudo-random subset of the world in pseudo-random order (same on all ranks). */
static int random_subset(uint64_t seed, int *ranks)
{
    int n = 0;
    for (int r = 0; r < mt_size; r++)
        if (mt_mix(seed, (uint64_t)r) % 3)
            ranks[n++] = r;
    for (int i = n - 1; i > 0; i--) {
        int j = (int)(mt_mix(seed + 1, (uint64_t)i) % (uint64_t)(i + 1)), t = ranks[i];
        ranks[i] = ranks[j];
        ranks[j] = t;
    }
    return n;
}

static void test_set_ops(void)
{
    int *ra = mt_malloc(sizeof(int) * (size_t)mt_size);
    int *rb = mt_malloc(sizeof(int) * (size_t)mt_size);
    int *ref = mt_malloc(sizeof(int) * 2 * (size_t)mt_size);
    for (uint64_t seed = 1; seed < 40; seed++) {
        int na = random_subset(seed * 17, ra), nb = random_subset(seed * 31 + 5, rb), n;
        MPI_Group a, b, r;
        MT_MPI(MPI_Group_incl(world_group, na, ra, &a));
        MT_MPI(MPI_Group_incl(world_group, nb, rb, &b));
        expect_group(a, ra, na, "incl");

        n = 0;
        for (int i = 0; i < na; i++)
            ref[n++] = ra[i];
        for (int i = 0; i < nb; i++)
            if (!in_list(ra, na, rb[i]))
                ref[n++] = rb[i];
        MT_MPI(MPI_Group_union(a, b, &r));
        expect_group(r, ref, n, "union");
        MPI_Group_free(&r);

        n = 0;
        for (int i = 0; i < na; i++)
            if (in_list(rb, nb, ra[i]))
                ref[n++] = ra[i];
        MT_MPI(MPI_Group_intersection(a, b, &r));
        expect_group(r, ref, n, "intersection");
        if (n == 0) {
            int result = -1;
            MPI_Group_compare(r, MPI_GROUP_EMPTY, &result);
            MT_CHECK_INT(MPI_IDENT, result, "empty intersection vs MPI_GROUP_EMPTY");
        }
        MPI_Group_free(&r);

        n = 0;
        for (int i = 0; i < na; i++)
            if (!in_list(rb, nb, ra[i]))
                ref[n++] = ra[i];
        MT_MPI(MPI_Group_difference(a, b, &r));
        expect_group(r, ref, n, "difference");
        MPI_Group_free(&r);

        /* excl of a's members from the world: the rest in world order */
        n = 0;
        for (int w = 0; w < mt_size; w++)
            if (!in_list(ra, na, w))
                ref[n++] = w;
        MT_MPI(MPI_Group_excl(world_group, na, ra, &r));
        expect_group(r, ref, n, "excl");
        MPI_Group_free(&r);

        /* translate a -> b, including MPI_PROC_NULL */
        int *from = mt_malloc(sizeof(int) * (size_t)(na + 1));
        int *to = mt_malloc(sizeof(int) * (size_t)(na + 1));
        for (int i = 0; i < na; i++)
            from[i] = i;
        from[na] = MPI_PROC_NULL;
        MT_MPI(MPI_Group_translate_ranks(a, na + 1, from, b, to));
        for (int i = 0; i < na; i++) {
            int expect = MPI_UNDEFINED;
            for (int j = 0; j < nb; j++)
                if (rb[j] == ra[i])
                    expect = j;
            MT_CHECK(to[i] == expect, "translate %d: %d, expected %d", i, to[i], expect);
        }
#ifndef OPEN_MPI /* Open MPI 4.1 answers MPI_UNDEFINED, against MPI-2.2 and later */
        MT_CHECK_INT(MPI_PROC_NULL, to[na], "translate MPI_PROC_NULL");
#endif
        free(from);
        free(to);

        /* compare: a with itself reordered is SIMILAR (unless order is the same) */
        int result = -1;
        MPI_Group_compare(a, a, &result);
        MT_CHECK_INT(MPI_IDENT, result, "compare with itself");
        MPI_Group_compare(a, b, &result);
        int same_set = na == nb;
        for (int i = 0; i < na && same_set; i++)
            same_set = in_list(rb, nb, ra[i]);
        int same_order = same_set && (na == 0 || memcmp(ra, rb, sizeof(int) * (size_t)na) == 0);
        MT_CHECK_INT(same_order ? MPI_IDENT : same_set ? MPI_SIMILAR : MPI_UNEQUAL, result,
                     "compare a with b");
        MPI_Group_free(&a);
        MPI_Group_free(&b);
        MT_CHECK(a == MPI_GROUP_NULL, "MPI_Group_free did not set MPI_GROUP_NULL");
    }
    free(ra);
    free(rb);
    free(ref);
}

static void test_ranges(void)
{
    /* every third rank from the top down, and the first two */
    int ranges[2][3] = {{mt_size - 1, 2, -3}, {0, 1, 1}};
    int nranges = mt_size >= 3 ? 2 : 1;
    if (mt_size < 3) {
        ranges[0][0] = 0;
        ranges[0][1] = mt_size - 1;
        ranges[0][2] = 1;
    }
    int *ref = mt_malloc(sizeof(int) * (size_t)mt_size), n = 0;
    for (int k = 0; k < nranges; k++)
        for (int r = ranges[k][0]; ranges[k][2] > 0 ? r <= ranges[k][1] : r >= ranges[k][1];
             r += ranges[k][2])
            ref[n++] = r;
    /* the two ranges overlap for small sizes: keep the test valid by dropping repeats */
    int distinct = 1;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < i; j++)
            if (ref[i] == ref[j])
                distinct = 0;
    if (distinct) {
        MPI_Group g;
        MT_MPI(MPI_Group_range_incl(world_group, nranges, ranges, &g));
        expect_group(g, ref, n, "range_incl");
        MPI_Group_free(&g);
        int *rest = mt_malloc(sizeof(int) * (size_t)mt_size), m = 0;
        for (int w = 0; w < mt_size; w++)
            if (!in_list(ref, n, w))
                rest[m++] = w;
        MT_MPI(MPI_Group_range_excl(world_group, nranges, ranges, &g));
        expect_group(g, rest, m, "range_excl");
        MPI_Group_free(&g);
        free(rest);
    }
    free(ref);
}

static void test_errors(void)
{
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    MPI_Group g = MPI_GROUP_NULL;
    int bad = mt_size;
    MT_CHECK_ERRCLASS(MPI_Group_incl(world_group, 1, &bad, &g), MPI_ERR_RANK,
                      "incl of rank == size");
    int neg = -1;
    MT_CHECK_ERRCLASS(MPI_Group_excl(world_group, 1, &neg, &g), MPI_ERR_RANK,
                      "excl of rank -1");
#ifndef OPEN_MPI /* Open MPI 4.1 checks neither repeated ranks nor translate's input */
    if (mt_size >= 2) {
        int twice[2] = {1, 1};
        MT_CHECK_ERRCLASS(MPI_Group_incl(world_group, 2, twice, &g), MPI_ERR_RANK,
                          "incl of a repeated rank");
    }
    int out[1], in[1] = {mt_size + 3};
    MT_CHECK_ERRCLASS(MPI_Group_translate_ranks(world_group, 1, in, world_group, out),
                      MPI_ERR_RANK, "translate of an invalid rank");
#endif
    int range[1][3] = {{0, mt_size, 1}};
    MT_CHECK_ERRCLASS(MPI_Group_range_incl(world_group, 1, range, &g), MPI_ERR_RANK,
                      "range past the group");
    int size;
    MT_CHECK_ERRCLASS(MPI_Group_size(MPI_GROUP_NULL, &size), MPI_ERR_GROUP,
                      "size of MPI_GROUP_NULL");
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_ARE_FATAL);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    MPI_Comm_group(MPI_COMM_WORLD, &world_group);
    int size = -1, rank = -1;
    MPI_Group_size(world_group, &size);
    MPI_Group_rank(world_group, &rank);
    MT_CHECK_INT(mt_size, size, "world group size");
    MT_CHECK_INT(mt_rank, rank, "world group rank");
    MPI_Group_size(MPI_GROUP_EMPTY, &size);
    MPI_Group_rank(MPI_GROUP_EMPTY, &rank);
    MT_CHECK_INT(0, size, "MPI_GROUP_EMPTY size");
    MT_CHECK_INT(MPI_UNDEFINED, rank, "MPI_GROUP_EMPTY rank");
    MPI_Group self_group;
    MPI_Comm_group(MPI_COMM_SELF, &self_group);
    MPI_Group_size(self_group, &size);
    MT_CHECK_INT(1, size, "self group size");
    int zero = 0, mine = -1;
    MPI_Group_translate_ranks(self_group, 1, &zero, world_group, &mine);
    MT_CHECK_INT(mt_rank, mine, "self group member");
    MPI_Group_free(&self_group);
    test_set_ops();
    test_ranges();
    test_errors();
    MPI_Group_free(&world_group);
    return mt_finish();
}
