/* barrier: MPI_Barrier on MPI_COMM_WORLD. No rank leaves a barrier before the last rank has
 * entered it: the late rank (first, middle and last rank in turn) sleeps 0.2 s before entering,
 * the others send it a message as soon as they leave, and the late rank must not see any such
 * message before it enters. Also 100 back-to-back barriers and MPI_Barrier on MPI_COMM_SELF. */
#include "../common/mpitest.h"

#define LATE 0.2
#define TAG 77

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    mt_set_errors_return(MPI_COMM_WORLD);

    for (int i = 0; i < 100; i++)
        MT_MPI(MPI_Barrier(MPI_COMM_WORLD));
    MT_MPI(MPI_Barrier(MPI_COMM_SELF));

    int late[3] = {0, mt_size / 2, mt_size - 1};
    for (int k = 0; k < 3; k++) {
        if (k > 0 && late[k] == late[k - 1])
            continue;
        MPI_Barrier(MPI_COMM_WORLD);
        if (mt_rank == late[k]) {
            int flag = 1;
            MPI_Status st;
            mt_sleep(LATE);
            MPI_Iprobe(MPI_ANY_SOURCE, TAG, MPI_COMM_WORLD, &flag, &st);
            MT_CHECK(!flag, "rank %d left the barrier before rank %d entered it", st.MPI_SOURCE,
                     mt_rank);
            MT_MPI(MPI_Barrier(MPI_COMM_WORLD));
            for (int i = 0; i < mt_size - 1; i++) {
                int token = -1;
                MPI_Recv(&token, 1, MPI_INT, MPI_ANY_SOURCE, TAG, MPI_COMM_WORLD, &st);
                MT_CHECK_INT(st.MPI_SOURCE, token, "token value");
            }
        } else {
            MT_MPI(MPI_Barrier(MPI_COMM_WORLD));
            MPI_Send(&mt_rank, 1, MPI_INT, late[k], TAG, MPI_COMM_WORLD);
        }
    }
    return mt_finish();
}
