/* from_group: MPI-4.0 MPI_Comm_create_from_group and MPI_Intercomm_create_from_groups in the
 * World model: groups taken from MPI_COMM_WORLD, string tags, the error handler argument set
 * on the result. Even and odd world ranks form two groups that build intracommunicators at the
 * same time with the same tag, then one intercommunicator. (mpi4py's test_comm expects these
 * of an MPI reporting version >= 4.0.) */
#include "../common/mpitest.h"

#if MPI_VERSION >= 4
static void whole_world(void)
{
    MPI_Group world_group;
    MPI_Comm comm;
    MT_MPI(MPI_Comm_group(MPI_COMM_WORLD, &world_group));
    MT_MPI(MPI_Comm_create_from_group(world_group, "nodempi.test.world", MPI_INFO_NULL,
                                      MPI_ERRORS_RETURN, &comm));
    int result = -1;
    MT_MPI(MPI_Comm_compare(MPI_COMM_WORLD, comm, &result));
    MT_CHECK_INT(MPI_CONGRUENT, result, "compare with MPI_COMM_WORLD");
    MPI_Errhandler eh;
    MT_MPI(MPI_Comm_get_errhandler(comm, &eh));
    MT_CHECK(eh == MPI_ERRORS_RETURN, "error handler argument not applied");
    MPI_Errhandler_free(&eh);
    int sum = 0, one = 1;
    MT_MPI(MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, comm));
    MT_CHECK_INT(mt_size, sum, "allreduce over the new communicator");
    MT_MPI(MPI_Comm_free(&comm));
    MT_MPI(MPI_Group_free(&world_group));
}

static void halves(void)
{
    MPI_Group world_group, evens, odds;
    MT_MPI(MPI_Comm_group(MPI_COMM_WORLD, &world_group));
    int n_even = (mt_size + 1) / 2, n_odd = mt_size / 2;
    int ranks[64];
    for (int i = 0; i < n_even; i++)
        ranks[i] = 2 * i;
    MT_MPI(MPI_Group_incl(world_group, n_even, ranks, &evens));
    for (int i = 0; i < n_odd; i++)
        ranks[i] = 2 * i + 1;
    MT_MPI(MPI_Group_incl(world_group, n_odd, ranks, &odds));
    MPI_Group mine = mt_rank % 2 ? odds : evens, other = mt_rank % 2 ? evens : odds;
    MPI_Comm half;
    MT_MPI(MPI_Comm_create_from_group(mine, "nodempi.test.half", MPI_INFO_NULL,
                                      MPI_ERRORS_RETURN, &half));
    int size = -1, rank = -1;
    MPI_Comm_size(half, &size);
    MPI_Comm_rank(half, &rank);
    MT_CHECK_INT(mt_rank % 2 ? n_odd : n_even, size, "half size");
    MT_CHECK_INT(mt_rank / 2, rank, "half rank");
    if (n_odd > 0) {
        MPI_Comm inter;
        MT_MPI(MPI_Intercomm_create_from_groups(mine, 0, other, 0, "nodempi.test.inter",
                                                MPI_INFO_NULL, MPI_ERRORS_RETURN, &inter));
        int remote = -1, flag = 0;
        MPI_Comm_test_inter(inter, &flag);
        MPI_Comm_remote_size(inter, &remote);
        MT_CHECK(flag, "MPI_Intercomm_create_from_groups made an intracommunicator");
        MT_CHECK_INT(mt_rank % 2 ? n_even : n_odd, remote, "remote group size");
        /* rank 0 of each side sends its world rank to the other side's rank 0 */
        if (rank == 0) {
            int theirs = -1;
            MT_MPI(MPI_Sendrecv(&mt_rank, 1, MPI_INT, 0, 0, &theirs, 1, MPI_INT, 0, 0, inter,
                                MPI_STATUS_IGNORE));
            MT_CHECK_INT(mt_rank % 2 ? 0 : 1, theirs, "remote leader's world rank");
        }
        MT_MPI(MPI_Comm_free(&inter));
    }
    MT_MPI(MPI_Comm_free(&half));
    MPI_Group_free(&evens);
    MPI_Group_free(&odds);
    MPI_Group_free(&world_group);
}
#endif

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    mt_set_errors_return(MPI_COMM_WORLD);
#if MPI_VERSION >= 4
    whole_world();
    halves();
#endif
    return mt_finish();
}
