/* create.c - MPI_Comm_create (one group, and disjoint groups per process as MPI-2.2 allows)
 * and MPI_Comm_create_group (collective over the group only, concurrent calls told apart by
 * tag), checked against the groups they were made from, with point-to-point inside. */
#include "mpitest.h"

/* Rank order of the new communicator must be the group's; a ring proves it works. */
static void check_new_comm(MPI_Comm comm, MPI_Group group, const char *what)
{
    MPI_Group made;
    int result = -1, size = -1, rank = -1, grank = -1;
    MPI_Comm_group(comm, &made);
    MPI_Group_compare(group, made, &result);
    MT_CHECK_INT(MPI_IDENT, result, what);
    MPI_Group_free(&made);
    MPI_Comm_size(comm, &size);
    MPI_Comm_rank(comm, &rank);
    MPI_Group_rank(group, &grank);
    MT_CHECK_INT(grank, rank, what);
    int out = mt_rank, in = -1, left = (rank + size - 1) % size, left_world = -1;
    MPI_Sendrecv(&out, 1, MPI_INT, (rank + 1) % size, 1, &in, 1, MPI_INT, left, 1, comm,
                 MPI_STATUS_IGNORE);
    MPI_Group world_group;
    MPI_Comm_group(MPI_COMM_WORLD, &world_group);
    MPI_Group_translate_ranks(group, 1, &left, world_group, &left_world);
    MPI_Group_free(&world_group);
    MT_CHECK_INT(left_world, in, what);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    MPI_Group world_group, evens, odds, reversed;
    MPI_Comm_group(MPI_COMM_WORLD, &world_group);
    int neven = (mt_size + 1) / 2, nodd = mt_size / 2;
    int *ranks = mt_malloc(sizeof(int) * (size_t)mt_size);
    for (int i = 0; i < neven; i++)
        ranks[i] = 2 * i;
    MPI_Group_incl(world_group, neven, ranks, &evens);
    for (int i = 0; i < nodd; i++)
        ranks[i] = 2 * i + 1;
    MPI_Group_incl(world_group, nodd, ranks, &odds);
    for (int i = 0; i < mt_size; i++)
        ranks[i] = mt_size - 1 - i;
    MPI_Group_incl(world_group, mt_size, ranks, &reversed);

    /* one group for everyone: non-members get MPI_COMM_NULL */
    MPI_Comm comm;
    MT_MPI(MPI_Comm_create(MPI_COMM_WORLD, evens, &comm));
    if (mt_rank % 2 == 0) {
        MT_ASSERT(comm != MPI_COMM_NULL, "even rank got MPI_COMM_NULL");
        check_new_comm(comm, evens, "MPI_Comm_create(evens)");
        MPI_Comm_free(&comm);
    } else {
        MT_CHECK(comm == MPI_COMM_NULL, "odd rank got a communicator");
    }

    /* the whole world in reverse order */
    MT_MPI(MPI_Comm_create(MPI_COMM_WORLD, reversed, &comm));
    check_new_comm(comm, reversed, "MPI_Comm_create(reversed)");
    MPI_Comm reversed_comm = comm;

    /* disjoint groups: evens pass evens, odds pass odds */
    MT_MPI(MPI_Comm_create(MPI_COMM_WORLD, mt_rank % 2 ? odds : evens, &comm));
    MT_ASSERT(comm != MPI_COMM_NULL, "disjoint create gave MPI_COMM_NULL");
    check_new_comm(comm, mt_rank % 2 ? odds : evens, "MPI_Comm_create(disjoint)");
    MPI_Comm_free(&comm);

    /* MPI_GROUP_EMPTY: nobody is in it */
    MT_MPI(MPI_Comm_create(MPI_COMM_WORLD, MPI_GROUP_EMPTY, &comm));
    MT_CHECK(comm == MPI_COMM_NULL, "create(MPI_GROUP_EMPTY) gave a communicator");

    /* create_group: only members call; evens and odds at the same time with different tags,
     * and from a parent that is not MPI_COMM_WORLD */
    MPI_Comm sub;
    MT_MPI(MPI_Comm_create_group(MPI_COMM_WORLD, mt_rank % 2 ? odds : evens, mt_rank % 2 ? 11 : 12,
                                 &sub));
    check_new_comm(sub, mt_rank % 2 ? odds : evens, "MPI_Comm_create_group");
    MPI_Comm_free(&sub);
    if (mt_rank % 2 == 0) {
        MT_MPI(MPI_Comm_create_group(reversed_comm, evens, 0, &sub));
        check_new_comm(sub, evens, "MPI_Comm_create_group on a reordered parent");
        MPI_Comm_free(&sub);
    }
    /* a group of one */
    MPI_Group me;
    MPI_Group_incl(world_group, 1, &mt_rank, &me);
    MT_MPI(MPI_Comm_create_group(MPI_COMM_WORLD, me, 99, &sub));
    check_new_comm(sub, me, "create_group of one");
    MPI_Comm_free(&sub);
    MPI_Group_free(&me);

    MPI_Comm_free(&reversed_comm);
    MPI_Group_free(&evens);
    MPI_Group_free(&odds);
    MPI_Group_free(&reversed);
    MPI_Group_free(&world_group);
    free(ranks);
    return mt_finish();
}
