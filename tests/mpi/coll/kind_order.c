/* kind_order.c - collectives of different kinds issued in different orders on different ranks.
 * The standard calls this erroneous, but mpi4py's testIAgree does it (Comm_iagree is an
 * Iallreduce started before a Barrier on one rank and after it on the others) and Open MPI
 * tolerates it because each collective kind has its own tag; nodempi gives every kind, and the
 * blocking / nonblocking / persistent forms, their own tag sequence, so the messages of one kind
 * never match another's. Each rank in turn is the "early" one: it starts an Iallreduce (and an
 * Ibcast, an Iallgather), then joins a Barrier (and an Allreduce), then waits; the others do the
 * blocking collectives first. All results are checked. */
#include "../common/mpitest.h"

enum { ROUNDS = 3 };

static void one_root(int early, int round)
{
    int mine = 1 << (mt_rank % 16), bit_or = 0, sum = -1, blocking_sum = -1;
    int bval = mt_rank == early ? 1000 + round : -1;
    int *gathered = mt_malloc(sizeof(int) * mt_size);
    for (int i = 0; i < mt_size; i++)
        gathered[i] = -1;
    int my_sum = mt_rank + round;
    MPI_Request req[3];
    if (mt_rank == early) {
        MT_MPI(MPI_Iallreduce(&mine, &bit_or, 1, MPI_INT, MPI_BOR, MPI_COMM_WORLD, &req[0]));
        MT_MPI(MPI_Ibcast(&bval, 1, MPI_INT, early, MPI_COMM_WORLD, &req[1]));
        MT_MPI(MPI_Iallgather(&my_sum, 1, MPI_INT, gathered, 1, MPI_INT, MPI_COMM_WORLD,
                              &req[2]));
        MT_MPI(MPI_Barrier(MPI_COMM_WORLD));
        MT_MPI(MPI_Allreduce(&my_sum, &blocking_sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    } else {
        MT_MPI(MPI_Barrier(MPI_COMM_WORLD));
        MT_MPI(MPI_Allreduce(&my_sum, &blocking_sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
        MT_MPI(MPI_Iallreduce(&mine, &bit_or, 1, MPI_INT, MPI_BOR, MPI_COMM_WORLD, &req[0]));
        MT_MPI(MPI_Ibcast(&bval, 1, MPI_INT, early, MPI_COMM_WORLD, &req[1]));
        MT_MPI(MPI_Iallgather(&my_sum, 1, MPI_INT, gathered, 1, MPI_INT, MPI_COMM_WORLD,
                              &req[2]));
    }
    MT_MPI(MPI_Waitall(3, req, MPI_STATUSES_IGNORE));
    int want_or = 0;
    for (int r = 0; r < mt_size; r++)
        want_or |= 1 << (r % 16);
    sum = mt_size * (mt_size - 1) / 2 + mt_size * round;
    MT_CHECK_INT(want_or, bit_or, "Iallreduce(MPI_BOR)");
    MT_CHECK_INT(1000 + round, bval, "Ibcast");
    MT_CHECK_INT(sum, blocking_sum, "Allreduce(MPI_SUM)");
    for (int r = 0; r < mt_size; r++)
        MT_CHECK_INT(r + round, gathered[r], "Iallgather block");
    free(gathered);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    mt_set_errors_return(MPI_COMM_WORLD);
    for (int round = 0; round < ROUNDS; round++)
        for (int early = 0; early < mt_size; early++)
            one_root(early, round);
    return mt_finish();
}
