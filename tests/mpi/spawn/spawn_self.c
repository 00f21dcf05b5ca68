/* spawn_self: rank 0 alone spawns two children (over MPI_COMM_SELF), so the other parents have
 * no channel to them; MPI_Intercomm_create(MPI_COMM_WORLD, 0, <spawn intercomm>, 0, ...) on
 * both sides then joins the whole parent job with the children (the channels between the
 * other parents and the children are made inside it). Every parent exchanges a message with
 * every child, and the merged communicator runs an allreduce. */
#include "../common/mpitest.h"

static void exercise(MPI_Comm inter, int am_parent)
{
    int rank, remote;
    MPI_Comm_rank(inter, &rank);
    MPI_Comm_remote_size(inter, &remote);
    for (int r = 0; r < remote; r++) {
        int v = (am_parent ? 100 : 200) + rank, got = -1;
        MT_MPI(MPI_Sendrecv(&v, 1, MPI_INT, r, 5, &got, 1, MPI_INT, r, 5, inter,
                            MPI_STATUS_IGNORE));
        MT_CHECK_INT((am_parent ? 200 : 100) + r, got, "value from the other group");
    }
    MPI_Comm merged;
    MT_MPI(MPI_Intercomm_merge(inter, !am_parent, &merged));
    int size, mrank, sum = 0;
    MPI_Comm_size(merged, &size);
    MPI_Comm_rank(merged, &mrank);
    MT_MPI(MPI_Allreduce(&mrank, &sum, 1, MPI_INT, MPI_SUM, merged));
    MT_CHECK_INT(size * (size - 1) / 2, sum, "merged allreduce");
    MPI_Comm_free(&merged);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    MPI_Comm parent, spawned = MPI_COMM_NULL, all;
    MPI_Comm_get_parent(&parent);
    int am_parent = parent == MPI_COMM_NULL;
    if (am_parent && mt_rank == 0)
        MT_MPI(MPI_Comm_spawn(argv[0], MPI_ARGV_NULL, 2, MPI_INFO_NULL, 0, MPI_COMM_SELF,
                              &spawned, MPI_ERRCODES_IGNORE));
    MT_MPI(MPI_Intercomm_create(MPI_COMM_WORLD, 0, am_parent ? spawned : parent, 0, 77, &all));
    int remote = 0;
    MPI_Comm_remote_size(all, &remote);
    if (am_parent)
        MT_CHECK_INT(2, remote, "children in the new intercommunicator");
    exercise(all, am_parent);
    long errors = 0;
    if (am_parent)
        MT_MPI(MPI_Reduce(&mt_errors, &errors, 1, MPI_LONG, MPI_SUM,
                          mt_rank == 0 ? MPI_ROOT : MPI_PROC_NULL, all));
    else
        MT_MPI(MPI_Reduce(&mt_errors, &errors, 1, MPI_LONG, MPI_SUM, 0, all));
    MT_CHECK(errors == 0, "%ld check(s) failed in the children", errors);
    MT_MPI(MPI_Comm_disconnect(&all));
    if (am_parent && mt_rank == 0)
        MT_MPI(MPI_Comm_disconnect(&spawned));
    if (!am_parent) {
        MT_MPI(MPI_Comm_disconnect(&parent));
        MPI_Finalize();
        return 0;
    }
    return mt_finish();
}
