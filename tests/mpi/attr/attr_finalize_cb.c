/* attr_finalize_cb.c - delete callbacks of MPI_COMM_SELF attributes run inside MPI_Finalize,
 * before anything else is torn down (MPI 4.1 11.2.4), so there MPI_Finalized must still say
 * false and MPI calls still work; after MPI_Finalize returns it says true. */
#include "mpitest.h"

static int calls, finalized_inside = -1, rank_inside = -1;

static int self_delete(MPI_Comm comm, int keyval, void *value, void *extra)
{
    (void)comm;
    (void)keyval;
    (void)value;
    (void)extra;
    calls++;
    MPI_Finalized(&finalized_inside);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_inside);
    return MPI_SUCCESS;
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    int key, flag = -1, rank = mt_rank;
    MT_MPI(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, self_delete, &key, NULL));
    MT_MPI(MPI_Comm_set_attr(MPI_COMM_SELF, key, NULL));
    MT_MPI(MPI_Comm_free_keyval(&key));
    MPI_Finalized(&flag);
    MT_CHECK_INT(0, flag, "MPI_Finalized before MPI_Finalize");
    MPI_Finalize();
    MPI_Finalized(&flag);
    MT_CHECK_INT(1, flag, "MPI_Finalized after MPI_Finalize");
    MT_CHECK_INT(1, calls, "MPI_COMM_SELF delete callbacks run by MPI_Finalize");
    MT_CHECK_INT(0, finalized_inside, "MPI_Finalized inside the delete callback");
    MT_CHECK_INT(rank, rank_inside, "MPI_Comm_rank inside the delete callback");
    if (mt_errors == 0 && rank == 0)
        printf("No errors\n");
    return mt_errors ? 1 : 0;
}
