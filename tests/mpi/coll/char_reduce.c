/* char_reduce: MPI_CHAR in reductions and accumulates, as MPICH allows (MPI-4.1 lists MPI_CHAR
 * in no reduction group; nodempi reduces it as the platform's char, src/datatype/predefined.c):
 * MPI_Allreduce with SUM, MIN, MAX and BAND, MPI_Reduce_local, MPI_Accumulate and
 * MPI_Fetch_and_op with MPI_SUM, checked against the values; Fortran's MPI_CHARACTER still has no
 * arithmetic (MPI_ERR_OP). */
#include "mpitest.h"

#include <limits.h>

enum { N = 5 };

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    char mine[N], got[N];
    for (int i = 0; i < N; i++)
        mine[i] = (char)((mt_rank + 1) * (i - 2)); /* negative, zero and positive entries */

    MT_CHECK_INT(MPI_SUCCESS, MPI_Allreduce(mine, got, N, MPI_CHAR, MPI_SUM, MPI_COMM_WORLD),
                 "MPI_Allreduce(MPI_CHAR, MPI_SUM)");
    int ranks_sum = mt_size * (mt_size + 1) / 2;
    for (int i = 0; i < N; i++)
        MT_CHECK_INT((char)(ranks_sum * (i - 2)), got[i], "MPI_CHAR sum");
    MT_CHECK_INT(MPI_SUCCESS, MPI_Allreduce(mine, got, N, MPI_CHAR, MPI_MIN, MPI_COMM_WORLD),
                 "MPI_Allreduce(MPI_CHAR, MPI_MIN)");
    if (CHAR_MIN < 0)
        MT_CHECK_INT((char)(-2 * mt_size), got[0], "MPI_CHAR min (signed char)");
    MT_CHECK_INT(MPI_SUCCESS, MPI_Allreduce(mine, got, N, MPI_CHAR, MPI_MAX, MPI_COMM_WORLD),
                 "MPI_Allreduce(MPI_CHAR, MPI_MAX)");
    MT_CHECK_INT((char)(2 * mt_size), got[4], "MPI_CHAR max");
    char ones[N] = {1, 3, 7, 15, 31};
    MT_CHECK_INT(MPI_SUCCESS, MPI_Allreduce(ones, got, N, MPI_CHAR, MPI_BAND, MPI_COMM_WORLD),
                 "MPI_Allreduce(MPI_CHAR, MPI_BAND)");
    MT_CHECK_INT(31, got[4], "MPI_CHAR band");

    char inout[N] = {10, 20, 30, 40, 50};
    MT_CHECK_INT(MPI_SUCCESS, MPI_Reduce_local(ones, inout, N, MPI_CHAR, MPI_SUM),
                 "MPI_Reduce_local(MPI_CHAR)");
    MT_CHECK_INT(81, inout[4], "MPI_Reduce_local sum");

    /* RMA: every rank adds its rank+1 to rank 0's counter, then fetch-and-adds 1. */
    char *base;
    MPI_Win win;
    MPI_Win_allocate(2, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
    base[0] = base[1] = 0;
    MPI_Win_fence(0, win);
    char add = (char)(mt_rank + 1), one = 1, old = -1;
    MT_CHECK_INT(MPI_SUCCESS, MPI_Accumulate(&add, 1, MPI_CHAR, 0, 0, 1, MPI_CHAR, MPI_SUM, win),
                 "MPI_Accumulate(MPI_CHAR, MPI_SUM)");
    MPI_Win_fence(0, win);
    MT_CHECK_INT(MPI_SUCCESS, MPI_Fetch_and_op(&one, &old, MPI_CHAR, 0, 1, MPI_SUM, win),
                 "MPI_Fetch_and_op(MPI_CHAR, MPI_SUM)");
    MPI_Win_fence(0, win);
    MT_CHECK(old >= 0 && old < mt_size, "fetch_and_op returned %d", old);
    if (mt_rank == 0) {
        MT_CHECK_INT((char)ranks_sum, base[0], "accumulated MPI_CHAR");
        MT_CHECK_INT(mt_size, base[1], "fetch-and-added MPI_CHAR");
    }
    MPI_Win_free(&win);

    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int err = MPI_Allreduce(mine, got, N, MPI_CHARACTER, MPI_SUM, MPI_COMM_WORLD);
    int cls = MPI_SUCCESS;
    MPI_Error_class(err, &cls);
    MT_CHECK_INT(MPI_ERR_OP, cls, "MPI_SUM on MPI_CHARACTER");
    return mt_finish();
}
