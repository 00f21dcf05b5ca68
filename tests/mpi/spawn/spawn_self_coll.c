/* spawn_self_coll: rank 0 alone spawns a child over MPI_COMM_SELF and keeps it connected while
 * the parents run collectives on MPI_COMM_WORLD. Run with NODEMPI_NCORES = the parent count:
 * the job fits its cores, but rank 0 now shares them with the child (its waiting policy turns
 * oversubscribed, its peers' does not). Every parent must still choose the same algorithms
 * (src/coll/sched.h, coll_comm_oversubscribed): a rank choosing by its own view ran another
 * barrier or broadcast than its peers, and the calls did not match. */
#include "../common/mpitest.h"

static void world_collectives(void)
{
    for (int round = 0; round < 20; round++) {
        MT_MPI(MPI_Barrier(MPI_COMM_WORLD));
        int v[64];
        for (int i = 0; i < 64; i++)
            v[i] = mt_rank == round % mt_size ? round * 100 + i : -1;
        MT_MPI(MPI_Bcast(v, 64, MPI_INT, round % mt_size, MPI_COMM_WORLD));
        MT_CHECK_INT(round * 100 + 63, v[63], "broadcast value");
        int sum = 0, one = mt_rank + round;
        MT_MPI(MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
        MT_CHECK_INT(mt_size * (mt_size - 1) / 2 + mt_size * round, sum, "allreduce sum");
        int *all = mt_malloc(sizeof(int) * (size_t)mt_size * 64);
        for (int i = 0; i < 64; i++)
            v[i] = mt_rank * 1000 + i;
        MT_MPI(MPI_Gather(v, 64, MPI_INT, all, 64, MPI_INT, 0, MPI_COMM_WORLD));
        if (mt_rank == 0)
            for (int r = 0; r < mt_size; r++)
                MT_CHECK_INT(r * 1000 + 63, all[r * 64 + 63], "gathered block");
        MT_MPI(MPI_Allgather(v, 64, MPI_INT, all, 64, MPI_INT, MPI_COMM_WORLD));
        for (int r = 0; r < mt_size; r++)
            MT_CHECK_INT(r * 1000 + 5, all[r * 64 + 5], "allgathered block");
        free(all);
    }
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    MPI_Comm parent;
    MPI_Comm_get_parent(&parent);
    if (parent != MPI_COMM_NULL) {
        /* the child: stay connected until the parents are done */
        int hello = -1, done = 0;
        MT_MPI(MPI_Recv(&hello, 1, MPI_INT, 0, 8, parent, MPI_STATUS_IGNORE));
        MT_MPI(MPI_Recv(&done, 1, MPI_INT, 0, 9, parent, MPI_STATUS_IGNORE));
        MT_CHECK_INT(1, done, "the parents' word");
        MT_MPI(MPI_Comm_disconnect(&parent));
        MPI_Finalize();
        return 0;
    }
    MPI_Comm child = MPI_COMM_NULL;
    if (mt_rank == 0) {
        MT_MPI(MPI_Comm_spawn(argv[0], MPI_ARGV_NULL, 1, MPI_INFO_NULL, 0, MPI_COMM_SELF, &child,
                              MPI_ERRCODES_IGNORE));
        int hello = 0; /* a message makes the channel to the child */
        MT_MPI(MPI_Send(&hello, 1, MPI_INT, 0, 8, child));
    }
    world_collectives();
    if (mt_rank == 0) {
        int done = 1;
        MT_MPI(MPI_Send(&done, 1, MPI_INT, 0, 9, child));
        MT_MPI(MPI_Comm_disconnect(&child));
    }
    return mt_finish();
}
