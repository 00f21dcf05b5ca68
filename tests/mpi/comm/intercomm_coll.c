/* intercomm_coll.c - collectives on an intercommunicator made by MPI_Intercomm_create:
 * barrier, bcast (MPI_ROOT / MPI_PROC_NULL), allreduce (each side gets the reduction of the
 * other side's data) and allgather (each side gets the other side's blocks). Needs 2+ ranks. */
#include "mpitest.h"

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    mt_require_ranks(2);
    int na = (mt_size + 1) / 2, in_a = mt_rank < na;
    int nb = mt_size - na;
    MPI_Comm local, inter;
    MPI_Comm_split(MPI_COMM_WORLD, in_a, mt_rank, &local);
    MT_MPI(MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, in_a ? na : 0, 5, &inter));
    int lrank;
    MPI_Comm_rank(inter, &lrank);

    MT_MPI(MPI_Barrier(inter));

    /* bcast from A's rank 1 (or 0) to all of B */
    int root = na > 1 ? 1 : 0, value = -1;
    if (in_a) {
        value = 1234;
        MT_MPI(MPI_Bcast(&value, 1, MPI_INT, lrank == root ? MPI_ROOT : MPI_PROC_NULL, inter));
    } else {
        MT_MPI(MPI_Bcast(&value, 1, MPI_INT, root, inter));
        MT_CHECK_INT(1234, value, "intercomm bcast value");
    }

    /* allreduce: each side receives the sum of the other side's world ranks */
    int mine = mt_rank, sum = -1;
    MT_MPI(MPI_Allreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, inter));
    int sum_a = na * (na - 1) / 2, sum_b = mt_size * (mt_size - 1) / 2 - sum_a;
    MT_CHECK_INT(in_a ? sum_b : sum_a, sum, "intercomm allreduce");

    /* allgather: each side receives the other side's world ranks in rank order */
    int rsize = in_a ? nb : na;
    int *all = mt_malloc(sizeof(int) * (size_t)rsize);
    MT_MPI(MPI_Allgather(&mine, 1, MPI_INT, all, 1, MPI_INT, inter));
    for (int r = 0; r < rsize; r++)
        MT_CHECK_INT(in_a ? na + r : r, all[r], "intercomm allgather block");
    free(all);

    MPI_Comm_free(&inter);
    MPI_Comm_free(&local);
    return mt_finish();
}
