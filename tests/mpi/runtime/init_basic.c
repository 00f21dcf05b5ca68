/* init_basic: MPI_Init, MPI_Initialized/MPI_Finalized before init, while initialized and
 * after finalize; MPI_Comm_rank/MPI_Comm_size consistent and distinct across ranks (world
 * and self); MPI_Is_thread_main/MPI_Query_thread after plain MPI_Init; MPI_Get_version and
 * MPI_Get_library_version callable before MPI_Init and after MPI_Finalize. */
#include "../common/mpitest.h"

int main(int argc, char **argv)
{
    int flag = -1, ver = -1, subver = -1, v2 = -1, s2 = -1, len = -1, len2 = -1;
    char lib[MPI_MAX_LIBRARY_VERSION_STRING], lib2[MPI_MAX_LIBRARY_VERSION_STRING];

    /* before MPI_Init */
    MT_CHECK(MPI_Initialized(&flag) == MPI_SUCCESS, "MPI_Initialized before init failed");
    MT_CHECK_INT(0, flag, "MPI_Initialized before MPI_Init");
    flag = -1;
    MT_CHECK(MPI_Finalized(&flag) == MPI_SUCCESS, "MPI_Finalized before init failed");
    MT_CHECK_INT(0, flag, "MPI_Finalized before MPI_Init");
    MT_CHECK(MPI_Get_version(&ver, &subver) == MPI_SUCCESS, "MPI_Get_version before init failed");
    MT_CHECK(MPI_Get_library_version(lib, &len) == MPI_SUCCESS,
             "MPI_Get_library_version before init failed");

    MT_CHECK(MPI_Init(&argc, &argv) == MPI_SUCCESS, "MPI_Init failed");
    mt_setup();

    flag = -1;
    MPI_Initialized(&flag);
    MT_CHECK_INT(1, flag, "MPI_Initialized after MPI_Init");
    flag = -1;
    MPI_Finalized(&flag);
    MT_CHECK_INT(0, flag, "MPI_Finalized while initialized");

    /* version queries agree before and after init */
    MPI_Get_version(&v2, &s2);
    MT_CHECK_INT(ver, v2, "MPI_Get_version version before vs after init");
    MT_CHECK_INT(subver, s2, "MPI_Get_version subversion before vs after init");
    MPI_Get_library_version(lib2, &len2);
    MT_CHECK_INT(len, len2, "MPI_Get_library_version resultlen before vs after init");
    MT_CHECK(len == len2 && memcmp(lib, lib2, (size_t)len) == 0,
             "MPI_Get_library_version differs before/after init");

    /* rank and size */
    int rank = -1, size = -1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MT_CHECK(size >= 1, "MPI_Comm_size(WORLD) = %d < 1", size);
    MT_CHECK(rank >= 0 && rank < size, "MPI_Comm_rank(WORLD) = %d outside [0,%d)", rank, size);

    int minsize = -1, maxsize = -1;
    long ranksum = -1;
    long myrank = rank;
    MPI_Allreduce(&size, &minsize, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(&size, &maxsize, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    MT_CHECK_INT(size, minsize, "min of MPI_Comm_size over ranks");
    MT_CHECK_INT(size, maxsize, "max of MPI_Comm_size over ranks");
    MPI_Allreduce(&myrank, &ranksum, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    MT_CHECK_INT((long)size * (size - 1) / 2, ranksum, "sum of ranks");
    /* every rank appears exactly once */
    int *mark = mt_malloc(sizeof(int) * (size_t)size);
    int *seen = mt_malloc(sizeof(int) * (size_t)size);
    for (int i = 0; i < size; i++)
        mark[i] = (i == rank);
    MPI_Allreduce(mark, seen, size, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    for (int i = 0; i < size; i++)
        MT_CHECK(seen[i] == 1, "rank %d reported by %d processes (expected 1)", i, seen[i]);
    free(mark);
    free(seen);

    int srank = -1, ssize = -1;
    MPI_Comm_rank(MPI_COMM_SELF, &srank);
    MPI_Comm_size(MPI_COMM_SELF, &ssize);
    MT_CHECK_INT(0, srank, "MPI_Comm_rank(MPI_COMM_SELF)");
    MT_CHECK_INT(1, ssize, "MPI_Comm_size(MPI_COMM_SELF)");

    /* thread queries after MPI_Init */
    int provided = -1;
    MPI_Query_thread(&provided);
    MT_CHECK(provided == MPI_THREAD_SINGLE || provided == MPI_THREAD_FUNNELED ||
                 provided == MPI_THREAD_SERIALIZED || provided == MPI_THREAD_MULTIPLE,
             "MPI_Query_thread after MPI_Init returned invalid level %d", provided);
    flag = -1;
    MPI_Is_thread_main(&flag);
    MT_CHECK_INT(1, flag, "MPI_Is_thread_main on the main thread");

    /* finalize, then query again (only local checks possible now) */
    long total = 0;
    MPI_Allreduce(&mt_errors, &total, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    MT_CHECK(MPI_Finalize() == MPI_SUCCESS, "MPI_Finalize failed");
    flag = -1;
    MPI_Finalized(&flag);
    MT_CHECK_INT(1, flag, "MPI_Finalized after MPI_Finalize");
    flag = -1;
    MPI_Initialized(&flag);
    MT_CHECK_INT(1, flag, "MPI_Initialized after MPI_Finalize (stays true)");
    v2 = s2 = -1;
    MT_CHECK(MPI_Get_version(&v2, &s2) == MPI_SUCCESS, "MPI_Get_version after finalize failed");
    MT_CHECK(v2 == ver && s2 == subver, "MPI_Get_version after finalize: %d.%d, before %d.%d", v2,
             s2, ver, subver);
    len2 = -1;
    MT_CHECK(MPI_Get_library_version(lib2, &len2) == MPI_SUCCESS,
             "MPI_Get_library_version after finalize failed");
    MT_CHECK_INT(len, len2, "MPI_Get_library_version resultlen after finalize");

    if (rank == 0 && total == 0 && mt_errors == 0)
        printf("No errors\n");
    return (total || mt_errors) ? 1 : 0;
}
