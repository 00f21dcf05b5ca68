/* split.c - MPI_Comm_split with pseudo-random colors and keys (the same sequence on every
 * rank, so each rank computes the expected new communicators locally), MPI_UNDEFINED giving
 * MPI_COMM_NULL, point-to-point rings inside the new communicators (traffic on the parent in
 * flight at the same time must not mix in), MPI_Comm_split_type(SHARED) and a repeated
 * split/free loop. */
#include "mpitest.h"

static uint64_t draw(uint64_t round, int rank, int what)
{
    return mt_mix(round * 1000 + (uint64_t)what, (uint64_t)rank);
}

static int color_of(uint64_t round, int rank)
{
    int c = (int)(draw(round, rank, 0) % 4);
    return c == 3 ? MPI_UNDEFINED : c; /* about a quarter sit out */
}

static int key_of(uint64_t round, int rank)
{
    return (int)(draw(round, rank, 1) % 5) - 2; /* ties and negative keys */
}

/* Reference: world ranks of my color ordered by (key, rank). */
static int expected_members(uint64_t round, int color, int *members)
{
    int n = 0;
    for (int r = 0; r < mt_size; r++)
        if (color_of(round, r) == color)
            members[n++] = r;
    for (int i = 1; i < n; i++) /* insertion sort: stable, so ties stay in rank order */
        for (int j = i; j > 0 && key_of(round, members[j]) < key_of(round, members[j - 1]);
             j--) {
            int t = members[j];
            members[j] = members[j - 1];
            members[j - 1] = t;
        }
    return n;
}

static void check_split(uint64_t round)
{
    int color = color_of(round, mt_rank), key = key_of(round, mt_rank);
    int *members = mt_malloc(sizeof(int) * (size_t)mt_size);
    MPI_Comm comm;
    /* a message on the parent in flight across the split */
    int token = mt_rank, got = -1;
    MPI_Request req[2];
    MPI_Irecv(&got, 1, MPI_INT, mt_left(), 77, MPI_COMM_WORLD, &req[0]);
    MPI_Isend(&token, 1, MPI_INT, mt_right(), 77, MPI_COMM_WORLD, &req[1]);
    MT_MPI(MPI_Comm_split(MPI_COMM_WORLD, color, key, &comm));
    if (color == MPI_UNDEFINED) {
        MT_CHECK(comm == MPI_COMM_NULL, "round %d: MPI_UNDEFINED color gave a communicator",
                 (int)round);
    } else {
        int n = expected_members(round, color, members), size = -1, rank = -1, me = -1;
        for (int i = 0; i < n; i++)
            if (members[i] == mt_rank)
                me = i;
        MT_ASSERT(comm != MPI_COMM_NULL, "round %d: no communicator for color %d", (int)round,
                  color);
        MPI_Comm_size(comm, &size);
        MPI_Comm_rank(comm, &rank);
        MT_CHECK_INT(n, size, "split size");
        MT_CHECK_INT(me, rank, "split rank");
        /* translate every rank back to world and compare */
        MPI_Group g, world_group;
        MPI_Comm_group(comm, &g);
        MPI_Comm_group(MPI_COMM_WORLD, &world_group);
        int *ranks = mt_malloc(sizeof(int) * (size_t)n);
        int *world = mt_malloc(sizeof(int) * (size_t)n);
        for (int i = 0; i < n; i++)
            ranks[i] = i;
        MPI_Group_translate_ranks(g, n, ranks, world_group, world);
        for (int i = 0; i < n; i++)
            MT_CHECK(world[i] == members[i], "round %d: rank %d of split is world %d, expected %d",
                     (int)round, i, world[i], members[i]);
        /* ring inside the new communicator: the value identifies the sender's world rank */
        int right = (rank + 1) % size, left = (rank + size - 1) % size;
        int out = mt_rank * 1000 + (int)round, in = -1;
        MPI_Status st;
        MT_MPI(MPI_Sendrecv(&out, 1, MPI_INT, right, 5, &in, 1, MPI_INT, left, 5, comm, &st));
        MT_CHECK_INT(members[left] * 1000 + (int)round, in, "ring value in split comm");
        MT_CHECK_INT(left, st.MPI_SOURCE, "ring source in split comm");
        free(ranks);
        free(world);
        MPI_Group_free(&g);
        MPI_Group_free(&world_group);
        MT_MPI(MPI_Comm_free(&comm));
        MT_CHECK(comm == MPI_COMM_NULL, "MPI_Comm_free did not set MPI_COMM_NULL");
    }
    MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
    MT_CHECK_INT(mt_left(), got, "parent message across the split");
    free(members);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    for (uint64_t round = 1; round <= 20; round++)
        check_split(round);

    /* every rank the same color, reversed keys: the order flips */
    MPI_Comm rev;
    MT_MPI(MPI_Comm_split(MPI_COMM_WORLD, 0, mt_size - mt_rank, &rev));
    int r = -1;
    MPI_Comm_rank(rev, &r);
    MT_CHECK_INT(mt_size - 1 - mt_rank, r, "reversed-key rank");
    MPI_Comm_free(&rev);

    /* split_type SHARED: one node, so everyone */
    MPI_Comm shared;
    MT_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, mt_rank, MPI_INFO_NULL,
                               &shared));
    int size = -1, result = -1;
    MPI_Comm_size(shared, &size);
    MT_CHECK_INT(mt_size, size, "MPI_COMM_TYPE_SHARED size");
    MPI_Comm_compare(shared, MPI_COMM_WORLD, &result);
    MT_CHECK_INT(MPI_CONGRUENT, result, "SHARED vs world compare");
    MPI_Comm_free(&shared);
    MPI_Comm none;
    MT_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_UNDEFINED, 0, MPI_INFO_NULL, &none));
    MT_CHECK(none == MPI_COMM_NULL, "split_type MPI_UNDEFINED gave a communicator");

#if MPI_VERSION >= 4
    /* hardware-guided splits: shared memory means everyone; a hwloc level may give a
     * communicator or MPI_COMM_NULL, unguided may give MPI_COMM_NULL; none may fail */
    MPI_Info hw;
    MPI_Info_create(&hw);
    MPI_Info_set(hw, "mpi_hw_resource_type", "mpi_shared_memory");
    MPI_Comm guided;
    MT_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_HW_GUIDED, 0, hw, &guided));
    MT_ASSERT(guided != MPI_COMM_NULL, "HW_GUIDED mpi_shared_memory gave MPI_COMM_NULL");
    MPI_Comm_size(guided, &size);
    MT_CHECK_INT(mt_size, size, "HW_GUIDED mpi_shared_memory size");
    MPI_Comm_free(&guided);
    MPI_Info_set(hw, "mpi_hw_resource_type", "Package");
    MT_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_HW_GUIDED, 0, hw, &guided));
    if (guided != MPI_COMM_NULL)
        MPI_Comm_free(&guided);
    MPI_Info_free(&hw);
    MT_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_HW_UNGUIDED, 0, MPI_INFO_NULL,
                               &guided));
    if (guided != MPI_COMM_NULL) {
        MPI_Comm_size(guided, &size);
        MT_CHECK(size < mt_size, "HW_UNGUIDED gave a communicator that is not a strict subset");
        MPI_Comm_free(&guided);
    }
#endif

    /* split of a split, and a loop that would run out of context ids if free leaked them */
    for (int i = 0; i < 300; i++) {
        MPI_Comm a, b;
        MT_MPI(MPI_Comm_split(MPI_COMM_WORLD, mt_rank % 2, mt_rank, &a));
        MT_MPI(MPI_Comm_split(a, 0, -mt_rank, &b));
        int sa, sb;
        MPI_Comm_size(a, &sa);
        MPI_Comm_size(b, &sb);
        if (sa != sb || sa != (mt_size + 1 - mt_rank % 2) / 2) {
            MT_CHECK(0, "iteration %d: sizes %d %d", i, sa, sb);
            break;
        }
        MPI_Comm_free(&b);
        MPI_Comm_free(&a);
    }
    return mt_finish();
}
