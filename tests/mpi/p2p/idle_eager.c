/* idle_eager: a message above the eager limit that fits one ring record goes eagerly when the
 * pair's ring is idle (src/p2p/send.c, NODEMPI_IDLE_EAGER), seen through the MPI_T send
 * counters: an 8 KiB MPI_Send to a receiver that has taken everything is eager and returns while
 * the receiver is still asleep outside MPI; a burst of 8 KiB Isends finds the ring busy after the
 * first few and sends the rest by rendezvous; MPI_Ssend never goes eagerly; messages keep their
 * order and contents across the switches; a 16 KiB message (more than one record) never goes
 * in one eager record. Oversubscribed (NODEMPI_NCORES below the rank count), a message that finds
 * room in the ring goes eagerly even when the ring is not idle: the burst's first several sends
 * are eager. With NODEMPI_IDLE_EAGER=off (or the queue designs without pair rings) every
 * message above the limit is a rendezvous, which the test checks too. */
#include "mpitest.h"

#include <stdlib.h>
#include <string.h>

enum { SIZE = 8192, BURST = 32, TAG = 5 };

static MPI_T_pvar_session session;

static MPI_T_pvar_handle counter(const char *name)
{
    int index = -1, count;
    MPI_T_pvar_handle handle = MPI_T_PVAR_HANDLE_NULL;
    MT_CHECK_INT(MPI_SUCCESS, MPI_T_pvar_get_index(name, MPI_T_PVAR_CLASS_COUNTER, &index), name);
    MT_CHECK_INT(MPI_SUCCESS, MPI_T_pvar_handle_alloc(session, index, NULL, &handle, &count),
                 name);
    MT_CHECK_INT(MPI_SUCCESS, MPI_T_pvar_start(session, handle), name);
    return handle;
}

static unsigned long long read_pvar(MPI_T_pvar_handle handle)
{
    unsigned long long value = 0;
    MPI_T_pvar_read(session, handle, &value);
    return value;
}

static MPI_T_pvar_handle eager, cma, rndv;

static unsigned long long eager_count(void) { return read_pvar(eager); }
static unsigned long long rndv_count(void) { return read_pvar(cma) + read_pvar(rndv); }

/* Does this run send eagerly into an idle ring? (pair design, switch not off) */
static int expect_idle_eager(void)
{
    const char *sw = getenv("NODEMPI_IDLE_EAGER"), *queue = getenv("NODEMPI_QUEUE");
    if (sw && strcmp(sw, "off") == 0)
        return 0;
    if (getenv("NODEMPI_EAGER_LIMIT"))
        return sw && strcmp(sw, "on") == 0;
    return !queue || strcmp(queue, "pair") == 0 || strcmp(queue, "auto") == 0;
}

/* Does an oversubscribed run send eagerly whenever the ring has room? */
static int expect_room_eager(int idle)
{
    const char *ncores = getenv("NODEMPI_NCORES");
    return idle && ncores && atoi(ncores) > 0 && atoi(ncores) < mt_size;
}

int main(int argc, char **argv)
{
    int provided;
    MT_ASSERT(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided) == MPI_SUCCESS, "MPI_T_init");
    mt_init(&argc, &argv);
    mt_require_ranks(2);
    MT_CHECK_INT(MPI_SUCCESS, MPI_T_pvar_session_create(&session), "session_create");
    eager = counter("nodempi_p2p_sent_eager");
    cma = counter("nodempi_p2p_sent_single_copy");
    rndv = counter("nodempi_p2p_sent_rendezvous");
    int idle = expect_idle_eager();
    unsigned char *buf = mt_malloc((size_t)SIZE * BURST * 2);

    /* 1. One message into an idle ring while the receiver sleeps outside MPI. */
    MPI_Barrier(MPI_COMM_WORLD);
    if (mt_rank == 0) {
        mt_fill(buf, SIZE, 1);
        unsigned long long e = eager_count(), r = rndv_count();
        double t0 = MPI_Wtime();
        MPI_Send(buf, SIZE, MPI_BYTE, 1, TAG, MPI_COMM_WORLD);
        double took = MPI_Wtime() - t0;
        e = eager_count() - e;
        r = rndv_count() - r;
        if (idle) {
            MT_CHECK(e == 1 && r == 0, "8 KiB into an idle ring: %llu eager, %llu rendezvous", e,
                     r);
            MT_CHECK(took < 0.45, "the eager MPI_Send waited %.3f s for the sleeping receiver",
                     took);
        } else {
            MT_CHECK(e == 0 && r == 1, "idle eager off: %llu eager, %llu rendezvous", e, r);
        }
    } else if (mt_rank == 1) {
        mt_sleep(0.5);
        MPI_Recv(buf, SIZE, MPI_BYTE, 0, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MT_VERIFY(buf, SIZE, 1, "message sent into the idle ring");
    }
    MPI_Barrier(MPI_COMM_WORLD);

    /* 2. A burst while the receiver sleeps: the ring fills, later sends are rendezvous; all
     * arrive in order; then a synchronous send (never eager) and a 16 KiB one. */
    if (mt_rank == 0) {
        MPI_Request req[BURST];
        unsigned long long e = eager_count(), r = rndv_count();
        for (int i = 0; i < BURST; i++) {
            mt_fill(buf + (size_t)i * SIZE, SIZE, (uint64_t)(100 + i));
            MPI_Isend(buf + (size_t)i * SIZE, SIZE, MPI_BYTE, 1, TAG, MPI_COMM_WORLD, &req[i]);
        }
        MPI_Waitall(BURST, req, MPI_STATUSES_IGNORE); /* each rendezvous counted by now */
        e = eager_count() - e;
        r = rndv_count() - r;
        MPI_Barrier(MPI_COMM_WORLD); /* the receiver has everything: the ring is idle again */
        MT_CHECK(e + r == BURST, "burst: %llu eager + %llu rendezvous of %d", e, r, BURST);
        MT_CHECK(r >= 1, "a burst into a sleeping receiver's ring was all eager (%llu)", e);
        if (!idle)
            MT_CHECK_INT(0, e, "eager sends in the burst with idle eager off");
        if (expect_room_eager(idle))
            MT_CHECK(e >= 3, "oversubscribed: only %llu of the burst went into the ring's room",
                     e);
        e = eager_count();
        r = rndv_count();
        MPI_Ssend(buf, SIZE, MPI_BYTE, 1, TAG, MPI_COMM_WORLD);
        MT_CHECK(eager_count() == e && rndv_count() == r + 1, "MPI_Ssend went eagerly");
        MPI_Barrier(MPI_COMM_WORLD);
        /* More than one record: a rendezvous, or eager in several records if the receiver's
         * sleep made it ask for a raised eager limit (skew.c); never one eager record. */
        e = eager_count();
        MPI_Send(buf, 2 * SIZE, MPI_BYTE, 1, TAG, MPI_COMM_WORLD);
        MT_CHECK(eager_count() == e, "16 KiB went in one eager record");
        MPI_Barrier(MPI_COMM_WORLD);
    } else if (mt_rank == 1) {
        mt_sleep(0.2);
        for (int i = 0; i < BURST; i++) {
            MPI_Recv(buf, SIZE, MPI_BYTE, 0, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            if (MT_VERIFY(buf, SIZE, (uint64_t)(100 + i), "burst message"))
                break;
        }
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Recv(buf, SIZE, MPI_BYTE, 0, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Recv(buf, 2 * SIZE, MPI_BYTE, 0, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Barrier(MPI_COMM_WORLD);
    } else {
        for (int i = 0; i < 3; i++)
            MPI_Barrier(MPI_COMM_WORLD);
    }
    free(buf);
    MPI_T_pvar_session_free(&session);
    MPI_T_finalize();
    return mt_finish();
}
