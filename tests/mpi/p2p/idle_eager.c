/* idle_eager: a message above the eager limit that fits one ring record goes eagerly when the
 * pair's ring is idle (src/p2p/send.c, NODEMPI_IDLE_EAGER), seen through the MPI_T send
 * counters: an 8 KiB MPI_Send to a receiver that has taken everything is eager and returns while
 * the receiver is still asleep outside MPI; a burst of 8 KiB Isends finds the ring busy after the
 * first few and sends the rest by rendezvous; MPI_Ssend never goes eagerly; messages keep their
 * order and contents across the switches; a message of 16 KiB + 64 B (more than one record) never goes
 * in one eager record. Oversubscribed (NODEMPI_NCORES below the rank count), a message that finds
 * room in the ring goes eagerly even when the ring is not idle: the burst's first several sends
 * are eager. A one-way burst (the sender has no receive posted that the peer's messages could
 * match, NODEMPI_STREAM_EAGER) into a receiver that takes records waits for room (tests/mpi/p2p/
 * stream_switch counts that); into a sleeping receiver, once the ring is full, the rest go
 * rendezvous, as in an exchange (the sender waits for a message of the receiver).
 * With NODEMPI_IDLE_EAGER=off (or the queue designs without pair rings) every
 * message above the limit is a rendezvous, which the test checks too. */
#include "mpitest.h"
#include "mt_mpit.h"

#include <stdlib.h>
#include <string.h>

enum { SIZE = 8192, BURST = 32, TAG = 5 };

static MPI_T_pvar_session session;

static MPI_T_pvar_handle eager, cma, rndv;

static unsigned long long eager_count(void) { return mt_pvar_read(session, eager); }
static unsigned long long rndv_count(void)
{
    return mt_pvar_read(session, cma) + mt_pvar_read(session, rndv);
}

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

/* Do one-way streams go eagerly? (follows idle eager unless NODEMPI_STREAM_EAGER says) */
static int expect_stream_eager(int idle)
{
    const char *sw = getenv("NODEMPI_STREAM_EAGER");
    if (sw && strcmp(sw, "off") == 0)
        return 0;
    if (sw && strcmp(sw, "on") == 0)
        return 1;
    return idle && !expect_room_eager(idle); /* auto: not when oversubscribed */
}

/* Rank 0 sends BURST messages while rank 1 sleeps outside MPI; in an exchange rank 0 has first
 * posted a receive for a reply rank 1 sends after the burst. Returns rank 0's eager count. */
static unsigned long long burst(unsigned char *buf, int exchange, int idle)
{
    unsigned long long e = 0, r = 0;
    int reply = 0;
    if (mt_rank == 0) {
        MPI_Request req[BURST + 1];
        if (exchange)
            MPI_Irecv(&reply, 1, MPI_INT, 1, TAG + 1, MPI_COMM_WORLD, &req[BURST]);
        e = eager_count();
        r = rndv_count();
        for (int i = 0; i < BURST; i++) {
            mt_fill(buf + (size_t)i * SIZE, SIZE, (uint64_t)(100 + i));
            MPI_Isend(buf + (size_t)i * SIZE, SIZE, MPI_BYTE, 1, TAG, MPI_COMM_WORLD, &req[i]);
        }
        MPI_Waitall(BURST, req, MPI_STATUSES_IGNORE); /* each rendezvous counted by now */
        e = eager_count() - e;
        r = rndv_count() - r;
        if (exchange) {
            MPI_Wait(&req[BURST], MPI_STATUS_IGNORE);
            MT_CHECK_INT(42, reply, "reply after the burst");
        }
        MPI_Barrier(MPI_COMM_WORLD); /* the receiver has everything: the ring is idle again */
        const char *what = exchange ? "exchange burst" : "one-way burst";
        MT_CHECK(e + r == BURST, "%s: %llu eager + %llu rendezvous of %d", what, e, r, BURST);
        if (!idle && !expect_stream_eager(idle))
            MT_CHECK_INT(0, e, "eager sends in the burst with idle eager off");
        if (expect_room_eager(idle))
            MT_CHECK(e >= 3, "oversubscribed: only %llu of the %s went into the ring's room", e,
                     what);
        if (!expect_room_eager(idle) || exchange)
            MT_CHECK(r >= 1, "%s into a sleeping receiver's ring was all eager (%llu)", what, e);
    } else if (mt_rank == 1) {
        mt_sleep(0.2);
        for (int i = 0; i < BURST; i++) {
            MPI_Recv(buf, SIZE, MPI_BYTE, 0, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            if (MT_VERIFY(buf, SIZE, (uint64_t)(100 + i), "burst message"))
                break;
        }
        reply = 42;
        if (exchange)
            MPI_Send(&reply, 1, MPI_INT, 0, TAG + 1, MPI_COMM_WORLD);
        MPI_Barrier(MPI_COMM_WORLD);
    } else {
        MPI_Barrier(MPI_COMM_WORLD);
    }
    return e;
}

/* A one-way burst while the receiver takes records (its receives posted, waiting in
 * MPI_Waitall): stream eager sends wait for room in the sender's queue; every message must
 * arrive intact and in order. */
static void draining_burst(unsigned char *buf)
{
    MPI_Request req[BURST];
    if (mt_rank == 1)
        for (int i = 0; i < BURST; i++)
            MPI_Irecv(buf + (size_t)i * SIZE, SIZE, MPI_BYTE, 0, TAG, MPI_COMM_WORLD, &req[i]);
    MPI_Barrier(MPI_COMM_WORLD);
    if (mt_rank == 0) {
        for (int i = 0; i < BURST; i++) {
            mt_fill(buf + (size_t)i * SIZE, SIZE, (uint64_t)(300 + i));
            MPI_Isend(buf + (size_t)i * SIZE, SIZE, MPI_BYTE, 1, TAG, MPI_COMM_WORLD, &req[i]);
        }
        MPI_Waitall(BURST, req, MPI_STATUSES_IGNORE);
    } else if (mt_rank == 1) {
        MPI_Waitall(BURST, req, MPI_STATUSES_IGNORE);
        for (int i = 0; i < BURST; i++)
            if (MT_VERIFY(buf + (size_t)i * SIZE, SIZE, (uint64_t)(300 + i),
                          "draining burst message"))
                break;
    }
    MPI_Barrier(MPI_COMM_WORLD);
}

int main(int argc, char **argv)
{
    mt_init_with_mpit(&argc, &argv);
    mt_require_ranks(2);
    session = mt_pvar_session_create();
    eager = mt_pvar_counter(session, "nodempi_p2p_sent_eager");
    cma = mt_pvar_counter(session, "nodempi_p2p_sent_single_copy");
    rndv = mt_pvar_counter(session, "nodempi_p2p_sent_rendezvous");
    int idle = expect_idle_eager();
    /* A burst into a sleeping receiver makes its skew watch ask for a raised eager limit
     * (skew.c), which would make a later burst eager for that reason: off here, so the counts
     * show the ring's choices alone. */
    mt_cvar_write_item("NODEMPI_SKEW", "off");
    unsigned char *buf = mt_malloc((size_t)SIZE * BURST * 2 + 64);

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
        if (idle || expect_stream_eager(idle)) { /* (no receive posted: one-way too) */
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

    /* 2. Bursts while the receiver sleeps (one-way, then in an exchange): all arrive in order;
     * then a synchronous send (never eager) and a 16 KiB one. */
    burst(buf, 0, idle);
    burst(buf, 1, idle);
    draining_burst(buf);
    if (mt_rank == 0) {
        unsigned long long e, r;
        e = eager_count();
        r = rndv_count();
        MPI_Ssend(buf, SIZE, MPI_BYTE, 1, TAG, MPI_COMM_WORLD);
        MT_CHECK(eager_count() == e && rndv_count() == r + 1, "MPI_Ssend went eagerly");
        MPI_Barrier(MPI_COMM_WORLD);
        /* More than one record: a rendezvous, or eager in several records if the receiver's
         * sleep made it ask for a raised eager limit (skew.c); never one eager record. */
        e = eager_count();
        MPI_Send(buf, 2 * SIZE + 64, MPI_BYTE, 1, TAG, MPI_COMM_WORLD);
        MT_CHECK(eager_count() == e, "16 KiB + 64 B went in one eager record");
        MPI_Barrier(MPI_COMM_WORLD);
    } else if (mt_rank == 1) {
        MPI_Recv(buf, SIZE, MPI_BYTE, 0, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Recv(buf, 2 * SIZE + 64, MPI_BYTE, 0, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Barrier(MPI_COMM_WORLD);
    } else {
        for (int i = 0; i < 2; i++)
            MPI_Barrier(MPI_COMM_WORLD);
    }
    free(buf);
    return mt_finish_with_mpit(&session);
}
