/* init_thread: MPI_Init_thread with the level named by env MT_THREAD_REQUIRED
 * (single|funneled|serialized|multiple, default multiple): provided is a valid level,
 * levels are ordered, MPI_Query_thread agrees, MPI_Is_thread_main is true on the main
 * thread and (if provided >= SERIALIZED) false on another thread. */
#include "../common/mpitest.h"

#if !defined(__STDC_NO_THREADS__)
#include <threads.h>

static int other_thread_flag = -1;
static int other_thread_main(void *arg)
{
    (void)arg;
    MPI_Is_thread_main(&other_thread_flag);
    return 0;
}
#endif

int main(int argc, char **argv)
{
    const char *req_s = getenv("MT_THREAD_REQUIRED");
    int required = MPI_THREAD_MULTIPLE, provided = -1, queried = -1, flag = -1;

    if (req_s && strcmp(req_s, "single") == 0)
        required = MPI_THREAD_SINGLE;
    else if (req_s && strcmp(req_s, "funneled") == 0)
        required = MPI_THREAD_FUNNELED;
    else if (req_s && strcmp(req_s, "serialized") == 0)
        required = MPI_THREAD_SERIALIZED;

    MT_ASSERT(MPI_Init_thread(&argc, &argv, required, &provided) == MPI_SUCCESS,
              "MPI_Init_thread failed");
    mt_setup();

    MT_CHECK(MPI_THREAD_SINGLE < MPI_THREAD_FUNNELED &&
                 MPI_THREAD_FUNNELED < MPI_THREAD_SERIALIZED &&
                 MPI_THREAD_SERIALIZED < MPI_THREAD_MULTIPLE,
             "thread level constants are not monotonic: %d %d %d %d", MPI_THREAD_SINGLE,
             MPI_THREAD_FUNNELED, MPI_THREAD_SERIALIZED, MPI_THREAD_MULTIPLE);
    MT_CHECK(provided == MPI_THREAD_SINGLE || provided == MPI_THREAD_FUNNELED ||
                 provided == MPI_THREAD_SERIALIZED || provided == MPI_THREAD_MULTIPLE,
             "MPI_Init_thread(required=%d) provided invalid level %d", required, provided);

    MPI_Query_thread(&queried);
    MT_CHECK_INT(provided, queried, "MPI_Query_thread vs provided of MPI_Init_thread");

    flag = -1;
    MPI_Initialized(&flag);
    MT_CHECK_INT(1, flag, "MPI_Initialized after MPI_Init_thread");
    flag = -1;
    MPI_Is_thread_main(&flag);
    MT_CHECK_INT(1, flag, "MPI_Is_thread_main on the main thread");

#if !defined(__STDC_NO_THREADS__)
    if (provided >= MPI_THREAD_SERIALIZED) {
        thrd_t t;
        MT_ASSERT(thrd_create(&t, other_thread_main, NULL) == thrd_success, "thrd_create failed");
        thrd_join(t, NULL);
        MT_CHECK_INT(0, other_thread_flag, "MPI_Is_thread_main on a second thread");
    }
#endif

    /* communication works at this level */
    int one = 1, sum = 0;
    MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MT_CHECK_INT(mt_size, sum, "Allreduce after MPI_Init_thread");

    /* all ranks requested the same level; report it once */
    if (mt_rank == 0 && getenv("MT_VERBOSE"))
        printf("required %d provided %d\n", required, provided);
    return mt_finish();
}
