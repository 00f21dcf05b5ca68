/* pvar_session: performance variables, sessions and handles (src/mpi/mpit_pvar.c).
 * Counters start at 0 in a handle, count only while started, and count exactly the messages
 * and bytes this rank sends (small ones eagerly or through a fastbox, large ones by rendezvous,
 * to itself), the collectives it starts; write/reset/readreset move one handle's value only.
 * Levels: the unexpected and posted queues of one communicator (and of the process), open
 * windows; they cannot be started, stopped, written or reset. Bad sessions, handles, indices
 * and names get their MPI_T_ERR_* class. */
#include "mpitest.h"

enum { SMALL = 16, NSMALL = 20, LARGE = 1 << 20 };

static MPI_T_pvar_session session;

static int pvar_index(const char *name, int var_class)
{
    int index = -1;
    MT_CHECK_INT(MPI_SUCCESS, MPI_T_pvar_get_index(name, var_class, &index), name);
    return index;
}

static MPI_T_pvar_handle handle_for(MPI_T_pvar_session s, const char *name, int var_class,
                                    void *object)
{
    MPI_T_pvar_handle handle = MPI_T_PVAR_HANDLE_NULL;
    int count = 0;
    MT_CHECK_INT(MPI_SUCCESS, MPI_T_pvar_handle_alloc(s, pvar_index(name, var_class), object,
                                                      &handle, &count),
                 name);
    MT_CHECK_INT(1, count, name);
    return handle;
}

static MPI_T_pvar_handle counter(const char *name)
{
    return handle_for(session, name, MPI_T_PVAR_CLASS_COUNTER, NULL);
}

static unsigned long long value_of(MPI_T_pvar_handle handle)
{
    unsigned long long value = ~0ull;
    MT_CHECK_INT(MPI_SUCCESS, MPI_T_pvar_read(session, handle, &value), "pvar_read");
    return value;
}

static void check_info(void)
{
    int num = 0;
    MT_CHECK_INT(MPI_SUCCESS, MPI_T_pvar_get_num(&num), "pvar_get_num");
    MT_CHECK(num >= 10, "%d performance variables", num);
    for (int i = 0; i < num; i++) {
        char name[128], desc[512];
        int name_len = sizeof(name), desc_len = sizeof(desc), verbosity, var_class, bind;
        int readonly, continuous, atomic, index = -1;
        MPI_Datatype type;
        MPI_T_enum enumtype;
        MT_CHECK_INT(MPI_SUCCESS,
                     MPI_T_pvar_get_info(i, name, &name_len, &verbosity, &var_class, &type,
                                         &enumtype, desc, &desc_len, &bind, &readonly,
                                         &continuous, &atomic),
                     "pvar_get_info");
        MT_CHECK(strncmp(name, "nodempi_", 8) == 0 && desc_len > 10, "pvar %d: %s", i, name);
        MT_CHECK(type == MPI_UNSIGNED_LONG_LONG && enumtype == MPI_T_ENUM_NULL, "%s type", name);
        MT_CHECK(bind == MPI_T_BIND_NO_OBJECT || bind == MPI_T_BIND_MPI_COMM, "%s bind", name);
        if (var_class == MPI_T_PVAR_CLASS_COUNTER)
            MT_CHECK(!readonly && !continuous && atomic, "%s: counter flags", name);
        else
            MT_CHECK(var_class == MPI_T_PVAR_CLASS_LEVEL && readonly && continuous,
                     "%s: class %d", name, var_class);
        MT_CHECK_INT(MPI_SUCCESS, MPI_T_pvar_get_index(name, var_class, &index), name);
        MT_CHECK_INT(i, index, "pvar_get_index gives the index back");
        MT_CHECK_INT(MPI_T_ERR_INVALID_NAME,
                     MPI_T_pvar_get_index(name, var_class == MPI_T_PVAR_CLASS_LEVEL
                                                    ? MPI_T_PVAR_CLASS_COUNTER
                                                    : MPI_T_PVAR_CLASS_LEVEL,
                                          &index),
                     "pvar_get_index with the wrong class");
    }
    int index;
    MT_CHECK_INT(MPI_T_ERR_INVALID_INDEX,
                 MPI_T_pvar_get_info(num, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
                                     NULL, NULL, NULL),
                 "pvar_get_info past the end");
    MT_CHECK_INT(MPI_T_ERR_INVALID_NAME,
                 MPI_T_pvar_get_index("no_such", MPI_T_PVAR_CLASS_COUNTER, &index),
                 "pvar_get_index of an unknown name");
    MT_CHECK_INT(MPI_T_ERR_INVALID, MPI_T_pvar_get_num(NULL), "pvar_get_num(NULL)");
}

/* Rank 0 sends; its counters see exactly those sends, while started only. */
static void check_send_counters(void)
{
    MPI_T_pvar_handle eager = counter("nodempi_p2p_sent_eager");
    MPI_T_pvar_handle fastbox = counter("nodempi_p2p_sent_fastbox");
    MPI_T_pvar_handle cma = counter("nodempi_p2p_sent_single_copy");
    MPI_T_pvar_handle rndv = counter("nodempi_p2p_sent_rendezvous");
    MPI_T_pvar_handle bytes = counter("nodempi_p2p_sent_bytes");
    MPI_T_pvar_handle self = counter("nodempi_p2p_sent_self");
    MPI_T_pvar_handle coll = counter("nodempi_coll_operations");
    static char small[SMALL], large[LARGE];

    /* Stopped (as allocated): nothing counts. */
    if (mt_rank == 0)
        for (int i = 0; i < NSMALL; i++)
            MPI_Send(small, SMALL, MPI_BYTE, 1, 1, MPI_COMM_WORLD);
    else if (mt_rank == 1)
        for (int i = 0; i < NSMALL; i++)
            MPI_Recv(small, SMALL, MPI_BYTE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MT_CHECK_INT(0, value_of(eager) + value_of(fastbox) + value_of(bytes), "stopped counters");
    MPI_Barrier(MPI_COMM_WORLD); /* every fastbox cell read again: the next send may take one */

    MT_CHECK_INT(MPI_SUCCESS, MPI_T_pvar_start(session, MPI_T_PVAR_ALL_HANDLES), "start all");
    if (mt_rank == 0) {
        for (int i = 0; i < NSMALL; i++)
            MPI_Send(small, SMALL, MPI_BYTE, 1, 2, MPI_COMM_WORLD);
        MPI_Send(large, LARGE, MPI_BYTE, 1, 3, MPI_COMM_WORLD);
    } else if (mt_rank == 1) {
        for (int i = 0; i < NSMALL; i++)
            MPI_Recv(small, SMALL, MPI_BYTE, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(large, LARGE, MPI_BYTE, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MT_CHECK_INT(MPI_SUCCESS, MPI_T_pvar_stop(session, MPI_T_PVAR_ALL_HANDLES), "stop all");
    if (mt_rank == 0) {
        MT_CHECK_INT(NSMALL, value_of(eager) + value_of(fastbox), "small messages counted");
        MT_CHECK_INT(1, value_of(cma) + value_of(rndv), "large message counted");
        MT_CHECK_INT((unsigned long long)NSMALL * SMALL + LARGE, value_of(bytes), "bytes");
        const char *queue = getenv("NODEMPI_QUEUE");
        if (queue && strcmp(queue, "pair") == 0) /* pair design: an idle pair's fastbox */
            MT_CHECK(value_of(fastbox) > 0, "no message went through the fastbox");
    } else if (mt_rank == 1) {
        MT_CHECK_INT(0, value_of(eager) + value_of(fastbox) + value_of(bytes), "receiver");
    }

    /* Self sends, collectives. */
    MPI_T_pvar_start(session, self);
    MPI_T_pvar_start(session, coll);
    MPI_Sendrecv(small, SMALL, MPI_BYTE, 0, 4, large, SMALL, MPI_BYTE, 0, 4,
                 MPI_COMM_SELF, MPI_STATUS_IGNORE);
    int x = 1, sum = 0;
    MPI_Allreduce(&x, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Request request;
    MPI_Ibarrier(MPI_COMM_WORLD, &request);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    MT_CHECK_INT(1, value_of(self), "self send");
    MT_CHECK_INT(2, value_of(coll), "collective operations");

    /* write, reset, readreset move this handle only. */
    unsigned long long set = 1000, got = 0;
    MT_CHECK_INT(MPI_SUCCESS, MPI_T_pvar_write(session, coll, &set), "write");
    MT_CHECK_INT(1000, value_of(coll), "written value");
    MPI_Barrier(MPI_COMM_WORLD);
    MT_CHECK_INT(1001, value_of(coll), "written value counts on");
    MT_CHECK_INT(MPI_SUCCESS, MPI_T_pvar_readreset(session, coll, &got), "readreset");
    MT_CHECK_INT(1001, got, "readreset's value");
    MT_CHECK_INT(0, value_of(coll), "after readreset");
    MPI_Barrier(MPI_COMM_WORLD);
    MT_CHECK_INT(MPI_SUCCESS, MPI_T_pvar_reset(session, coll), "reset");
    MT_CHECK_INT(0, value_of(coll), "after reset");
    MT_CHECK_INT(MPI_SUCCESS, MPI_T_pvar_reset(session, MPI_T_PVAR_ALL_HANDLES), "reset all");
    MT_CHECK_INT(0, value_of(bytes), "reset all reaches every counter");

    /* A second session sees its own values. */
    MPI_T_pvar_session other;
    MT_CHECK_INT(MPI_SUCCESS, MPI_T_pvar_session_create(&other), "second session");
    MPI_T_pvar_handle coll2 = handle_for(other, "nodempi_coll_operations",
                                         MPI_T_PVAR_CLASS_COUNTER, NULL);
    MPI_T_pvar_start(other, coll2);
    MPI_Barrier(MPI_COMM_WORLD);
    unsigned long long v2 = 0;
    MPI_T_pvar_read(other, coll2, &v2);
    MT_CHECK_INT(1, v2, "second session's counter");
    MT_CHECK_INT(1, value_of(coll), "first session's counter");
    MT_CHECK_INT(MPI_T_ERR_INVALID_HANDLE, MPI_T_pvar_read(session, coll2, &v2),
                 "handle of another session");
    MT_CHECK_INT(MPI_SUCCESS, MPI_T_pvar_handle_free(other, &coll2), "handle_free");
    MT_CHECK(coll2 == MPI_T_PVAR_HANDLE_NULL, "handle_free sets NULL");
    MPI_T_pvar_session freed = other;
    MT_CHECK_INT(MPI_SUCCESS, MPI_T_pvar_session_free(&other), "session_free");
    MT_CHECK(other == MPI_T_PVAR_SESSION_NULL, "session_free sets NULL");
    MT_CHECK_INT(MPI_T_ERR_INVALID_SESSION, MPI_T_pvar_read(freed, coll, &v2), "freed session");
    MT_CHECK_INT(MPI_T_ERR_INVALID_SESSION,
                 MPI_T_pvar_handle_alloc(freed, 0, NULL, &coll2, &x), "alloc in freed session");
    MT_CHECK_INT(MPI_T_ERR_INVALID_HANDLE, MPI_T_pvar_read(session, MPI_T_PVAR_ALL_HANDLES,
                                                           &v2),
                 "read of MPI_T_PVAR_ALL_HANDLES");
    MT_CHECK_INT(MPI_T_ERR_INVALID_HANDLE,
                 MPI_T_pvar_start(session, (MPI_T_pvar_handle)&v2), "start of a non-handle");
    MT_CHECK_INT(MPI_T_ERR_INVALID_INDEX,
                 MPI_T_pvar_handle_alloc(session, -1, NULL, &coll2, &x), "alloc of index -1");
    MT_CHECK_INT(MPI_T_ERR_INVALID, MPI_T_pvar_read(session, coll, NULL), "read into NULL");
}

/* Levels: queue lengths of one communicator, of the process; open windows. */
static void check_levels(void)
{
    MPI_Comm dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Comm world = MPI_COMM_WORLD;
    MPI_T_pvar_handle unexpected = handle_for(session, "nodempi_p2p_unexpected_queue_length",
                                              MPI_T_PVAR_CLASS_LEVEL, &world);
    MPI_T_pvar_handle unexpected_dup = handle_for(
        session, "nodempi_p2p_unexpected_queue_length", MPI_T_PVAR_CLASS_LEVEL, &dup);
    MPI_T_pvar_handle posted = handle_for(session, "nodempi_p2p_posted_queue_length",
                                          MPI_T_PVAR_CLASS_LEVEL, &world);
    MPI_T_pvar_handle unexpected_all = handle_for(session, "nodempi_p2p_unexpected_total",
                                                  MPI_T_PVAR_CLASS_LEVEL, NULL);
    MPI_T_pvar_handle windows = handle_for(session, "nodempi_rma_windows",
                                           MPI_T_PVAR_CLASS_LEVEL, NULL);
    static char small[SMALL];
    MPI_Barrier(MPI_COMM_WORLD);
    if (mt_rank == 0) {
        for (int i = 0; i < NSMALL; i++)
            MPI_Send(small, SMALL, MPI_BYTE, 1, 5, MPI_COMM_WORLD);
        MPI_Send(small, SMALL, MPI_BYTE, 1, 6, MPI_COMM_WORLD);
    } else if (mt_rank == 1) {
        /* Once the last one is here, every earlier one is (messages do not overtake). */
        MPI_Probe(0, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MT_CHECK_INT(NSMALL + 1, value_of(unexpected), "unexpected queue on MPI_COMM_WORLD");
        MT_CHECK_INT(0, value_of(unexpected_dup), "unexpected queue on its duplicate");
        MT_CHECK_INT(NSMALL + 1, value_of(unexpected_all), "unexpected messages, process");
        for (int i = 0; i < NSMALL; i++)
            MPI_Recv(small, SMALL, MPI_BYTE, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(small, SMALL, MPI_BYTE, 0, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MT_CHECK_INT(0, value_of(unexpected), "unexpected queue drained");
        MPI_Request request;
        MPI_Irecv(small, SMALL, MPI_BYTE, 0, 7, MPI_COMM_WORLD, &request);
        MT_CHECK_INT(1, value_of(posted), "posted receive");
        MPI_Send(small, 0, MPI_BYTE, 0, 8, MPI_COMM_WORLD);
        MPI_Wait(&request, MPI_STATUS_IGNORE);
        MT_CHECK_INT(0, value_of(posted), "posted receive matched");
    }
    if (mt_rank == 0) {
        MPI_Recv(small, 0, MPI_BYTE, 1, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(small, SMALL, MPI_BYTE, 1, 7, MPI_COMM_WORLD);
    }
    /* Other ranks wait for rank 1's checks: their next collective would queue messages there. */
    if (mt_rank == 1)
        for (int r = 2; r < mt_size; r++)
            MPI_Send(small, 0, MPI_BYTE, r, 10, dup);
    else if (mt_rank >= 2)
        MPI_Recv(small, 0, MPI_BYTE, 1, 10, dup, MPI_STATUS_IGNORE);

    unsigned long long before = value_of(windows), value = 1;
    MPI_Win win;
    void *base;
    MPI_Win_allocate(64, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
    MT_CHECK_INT(before + 1, value_of(windows), "open windows");
    MPI_Win_free(&win);
    MT_CHECK_INT(before, value_of(windows), "window freed");

    /* Levels are continuous and read-only. */
    MT_CHECK_INT(MPI_T_ERR_PVAR_NO_STARTSTOP, MPI_T_pvar_start(session, unexpected), "start");
    MT_CHECK_INT(MPI_T_ERR_PVAR_NO_STARTSTOP, MPI_T_pvar_stop(session, unexpected), "stop");
    MT_CHECK_INT(MPI_T_ERR_PVAR_NO_WRITE, MPI_T_pvar_write(session, unexpected, &value),
                 "write");
    MT_CHECK_INT(MPI_T_ERR_PVAR_NO_WRITE, MPI_T_pvar_reset(session, unexpected), "reset");
    MT_CHECK_INT(MPI_T_ERR_PVAR_NO_WRITE, MPI_T_pvar_readreset(session, unexpected, &value),
                 "readreset");
    /* A communicator-bound variable needs a communicator. */
    MPI_T_pvar_handle h;
    int count, index = pvar_index("nodempi_p2p_posted_queue_length", MPI_T_PVAR_CLASS_LEVEL);
    MPI_Comm null = MPI_COMM_NULL;
    MT_CHECK_INT(MPI_T_ERR_INVALID_HANDLE, MPI_T_pvar_handle_alloc(session, index, NULL, &h,
                                                                   &count),
                 "bound variable without an object");
    MT_CHECK_INT(MPI_T_ERR_INVALID_HANDLE, MPI_T_pvar_handle_alloc(session, index, &null, &h,
                                                                   &count),
                 "bound to MPI_COMM_NULL");
    MPI_Comm_free(&dup);
    MT_CHECK_INT(0, value_of(unexpected_dup), "read after MPI_Comm_free stays harmless");
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    mt_require_ranks(2);
    int provided;
    MT_CHECK_INT(MPI_T_ERR_NOT_INITIALIZED, MPI_T_pvar_session_create(&session),
                 "session before MPI_T_init_thread");
    MT_ASSERT(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided) == MPI_SUCCESS, "MPI_T_init");
    check_info();
    MT_CHECK_INT(MPI_SUCCESS, MPI_T_pvar_session_create(&session), "session_create");
    check_send_counters();
    check_levels();
    /* Futex sleeps: a rank waiting 300 ms for a message sleeps when told to block (the
     * barrier first: a receiver that came late under load found the message there at once). */
    const char *wait = getenv("NODEMPI_WAIT");
    if (wait && strcmp(wait, "block") == 0) {
        MPI_T_pvar_handle sleeps = counter("nodempi_shm_futex_sleeps");
        MPI_T_pvar_start(session, sleeps);
        char byte = 0;
        MPI_Barrier(MPI_COMM_WORLD);
        if (mt_rank == 0) {
            mt_sleep(0.3);
            MPI_Send(&byte, 1, MPI_BYTE, 1, 9, MPI_COMM_WORLD);
        } else if (mt_rank == 1) {
            MPI_Recv(&byte, 1, MPI_BYTE, 0, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MT_CHECK(value_of(sleeps) > 0, "no futex sleep in a 300 ms wait");
        }
    }
    /* MPI_T_finalize frees the session and its handles. */
    MT_CHECK_INT(MPI_SUCCESS, MPI_T_finalize(), "T_finalize");
    MT_CHECK_INT(MPI_SUCCESS, MPI_T_init_thread(MPI_THREAD_SINGLE, &provided), "T_init again");
    unsigned long long v;
    MT_CHECK_INT(MPI_T_ERR_INVALID_SESSION, MPI_T_pvar_read(session, MPI_T_PVAR_HANDLE_NULL, &v),
                 "session of an earlier MPI_T_init_thread");
    MPI_T_finalize();
    return mt_finish();
}
