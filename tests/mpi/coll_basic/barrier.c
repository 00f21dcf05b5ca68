/* barrier: MPI_Barrier on MPI_COMM_WORLD. No rank leaves a barrier before the last rank has
 * entered it (one rank sleeps 0.2 s before entering; everyone else must spend >= 0.1 s inside;
 * checked for the first, middle and last rank as the late one), and 100 back-to-back barriers
 * complete. Also MPI_Barrier on MPI_COMM_SELF. */
#include "../common/mpitest.h"

#define LATE 0.2

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
        if (mt_rank == late[k])
            mt_sleep(LATE);
        double t0 = MPI_Wtime();
        MT_MPI(MPI_Barrier(MPI_COMM_WORLD));
        double dt = MPI_Wtime() - t0;
        /* the late rank left the previous barrier at about the same time as everyone else
         * (skew well below LATE / 2), so the others must have waited about LATE */
        if (mt_rank != late[k])
            MT_CHECK(dt >= LATE / 2,
                     "left the barrier after %.3f s although rank %d entered it %.1f s late", dt,
                     late[k], LATE);
    }
    return mt_finish();
}
