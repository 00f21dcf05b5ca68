/* wtime: MPI_Wtime is monotonic (many consecutive calls never go back) and advances
 * across a 20 ms sleep by a plausible amount; MPI_Wtick is > 0 and plausible;
 * MPI_WTIME_IS_GLOBAL attribute, if present, is 0 or 1. */
#include "../common/mpitest.h"

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);

    double tick = MPI_Wtick();
    MT_CHECK(tick > 0.0 && tick <= 0.01, "MPI_Wtick() = %g not in (0, 0.01]", tick);

    double prev = MPI_Wtime(), t0 = prev;
    long backwards = 0;
    for (int i = 0; i < 200000; i++) {
        double t = MPI_Wtime();
        if (t < prev)
            backwards++;
        prev = t;
    }
    MT_CHECK(backwards == 0, "MPI_Wtime went backwards %ld times", backwards);
    MT_CHECK(prev >= t0, "MPI_Wtime end %f < start %f", prev, t0);

    double a = MPI_Wtime();
    mt_sleep(0.02);
    double b = MPI_Wtime();
    MT_CHECK(b - a >= 0.019 && b - a < 5.0, "MPI_Wtime across a 20 ms sleep advanced %g s",
             b - a);

    int *val = NULL, flag = 0;
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_WTIME_IS_GLOBAL, &val, &flag);
    if (flag)
        MT_CHECK(*val == 0 || *val == 1, "MPI_WTIME_IS_GLOBAL = %d", *val);
    return mt_finish();
}
