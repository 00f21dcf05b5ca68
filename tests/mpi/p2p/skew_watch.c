/* skew_watch: the receiver's skew watch (src/p2p/skew.c) asks its sender to raise the pair's
 * eager limit only for a backlog of messages above the eager limit, the messages a raise
 * changes. Seen through the MPI_T send counters on rank 0:
 *  1. rank 1 falls behind a stream of 64 B messages for milliseconds (polling with MPI_Iprobe
 *     between its receives, so the watch sees the backlog); a 64 KiB MPI_Send after
 *     it must still be a rendezvous (a raise here would push it through the ring);
 *  2. rank 1 falls behind a stream of 64 KiB MPI_Isends; within a few rounds some of them must
 *     go eagerly (the raise), and every message arrives intact and in order across the switch;
 *  3. then 80 ms of a small-message ping-pong (rank 1 keeps up: receives nodempi takes in place,
 *     without a progress round) must lower the limit again: a 64 KiB MPI_Send after it is a
 *     rendezvous once more.
 * Other ranks only join the barriers. */
#include "mpitest.h"
#include "mt_mpit.h"

#include <stdlib.h>
#include <string.h>

enum { SMALL = 64, NSMALL = 800, LARGE = 65536, NLARGE = 48, ROUNDS = 5, TAG = 9 };

static MPI_T_pvar_session session;
static MPI_T_pvar_handle eager, eager_long;

/* Messages sent through the ring: in one record, or (above a record) as a long eager one. */
static unsigned long long eager_count(void)
{
    return mt_pvar_read(session, eager) + mt_pvar_read(session, eager_long);
}

/* Busy for a while inside the process but outside MPI (the receiver "computing"). */
static void spin(double seconds)
{
    double until = MPI_Wtime() + seconds;
    while (MPI_Wtime() < until)
        ;
}

static void small_backlog(unsigned char *buf)
{
    if (mt_rank == 0) {
        for (int i = 0; i < NSMALL; i++) {
            mt_fill(buf, SMALL, (uint64_t)(1000 + i));
            MPI_Send(buf, SMALL, MPI_BYTE, 1, TAG, MPI_COMM_WORLD);
            spin(5e-6);
        }
    } else if (mt_rank == 1) {
        mt_sleep(0.001);
        for (int i = 0; i < NSMALL; i++) {
            MPI_Recv(buf, SMALL, MPI_BYTE, 0, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            if (MT_VERIFY(buf, SMALL, (uint64_t)(1000 + i), "small message"))
                break;
            spin(10e-6);
            int flag; /* a progress poll while behind: the watch sees the backlog */
            MPI_Iprobe(0, TAG + 1, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
        }
    }
    MPI_Barrier(MPI_COMM_WORLD); /* rank 0 has seen any SKEW record rank 1 sent by now */
    if (mt_rank == 0) {
        unsigned long long e = eager_count();
        mt_fill(buf, LARGE, 7);
        MPI_Send(buf, LARGE, MPI_BYTE, 1, TAG, MPI_COMM_WORLD);
        MT_CHECK(eager_count() == e,
                 "a backlog of 64 B messages raised the eager limit: 64 KiB went eagerly");
    } else if (mt_rank == 1) {
        MPI_Recv(buf, LARGE, MPI_BYTE, 0, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MT_VERIFY(buf, LARGE, 7, "64 KiB after the small backlog");
    }
    MPI_Barrier(MPI_COMM_WORLD);
}

/* One round of large messages into a receiver that falls behind; returns (on rank 0) how many
 * went eagerly. */
static unsigned long long large_backlog(unsigned char *buf, int round)
{
    unsigned long long e = 0;
    uint64_t seed = (uint64_t)(round * NLARGE) + 5000;
    if (mt_rank == 0) {
        MPI_Request req[NLARGE];
        e = eager_count();
        for (int i = 0; i < NLARGE; i++) {
            unsigned char *m = buf + (size_t)i * LARGE;
            mt_fill(m, LARGE, seed + (uint64_t)i);
            MPI_Isend(m, LARGE, MPI_BYTE, 1, TAG, MPI_COMM_WORLD, &req[i]);
            spin(20e-6);
        }
        MPI_Waitall(NLARGE, req, MPI_STATUSES_IGNORE);
        e = eager_count() - e;
    } else if (mt_rank == 1) {
        /* late, then slower than the sender: the backlog grows while its RTS records keep
         * arriving (the watch looks when records come in) */
        mt_sleep(0.0002);
        for (int i = 0; i < NLARGE; i++) {
            MPI_Recv(buf, LARGE, MPI_BYTE, 0, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            if (MT_VERIFY(buf, LARGE, seed + (uint64_t)i, "large message"))
                break;
            spin(50e-6);
        }
    }
    MPI_Barrier(MPI_COMM_WORLD);
    return e;
}

/* Rank 1 keeps up for a while: a ping-pong of 8 B messages; then (rank 0) does a 64 KiB send go
 * eagerly? */
static int eager_after_calm(unsigned char *buf)
{
    int eagerly = 0;
    double until = MPI_Wtime() + 0.08; /* 4x the watch's 20 ms hold before it lowers */
    int more = 1;
    while (more) {
        if (mt_rank == 0) {
            more = MPI_Wtime() < until;
            MPI_Send(&more, 1, MPI_INT, 1, TAG, MPI_COMM_WORLD);
            MPI_Recv(buf, 8, MPI_BYTE, 1, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else if (mt_rank == 1) {
            MPI_Recv(&more, 1, MPI_INT, 0, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(buf, 8, MPI_BYTE, 0, TAG, MPI_COMM_WORLD);
        } else {
            more = 0;
        }
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (mt_rank == 0) {
        unsigned long long e = eager_count();
        mt_fill(buf, LARGE, 11);
        MPI_Send(buf, LARGE, MPI_BYTE, 1, TAG, MPI_COMM_WORLD);
        eagerly = eager_count() != e;
    } else if (mt_rank == 1) {
        MPI_Recv(buf, LARGE, MPI_BYTE, 0, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MT_VERIFY(buf, LARGE, 11, "64 KiB after the calm");
    }
    MPI_Barrier(MPI_COMM_WORLD);
    return eagerly;
}

int main(int argc, char **argv)
{
    mt_init_with_mpit(&argc, &argv);
    mt_require_ranks(2);
    session = mt_pvar_session_create();
    eager = mt_pvar_counter(session, "nodempi_p2p_sent_eager");
    eager_long = mt_pvar_counter(session, "nodempi_p2p_sent_eager_long");
    unsigned char *buf = mt_malloc((size_t)LARGE * NLARGE);

    small_backlog(buf);

    int raised = 0;
    for (int round = 0; round < ROUNDS && !raised; round++) {
        unsigned long long e = large_backlog(buf, round);
        raised = mt_rank == 0 && e > 0;
        MPI_Bcast(&raised, 1, MPI_INT, 0, MPI_COMM_WORLD);
    }
    if (mt_rank == 0)
        MT_CHECK(raised, "%d rounds of 64 KiB into a receiver behind: none went eagerly", ROUNDS);
    MPI_Bcast(&raised, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (raised && eager_after_calm(buf))
        MT_CHECK(0, "80 ms of a ping-pong the receiver keeps up with did not lower the raised "
                    "limit: 64 KiB still went eagerly");

    free(buf);
    MPI_T_pvar_handle_free(session, &eager);
    MPI_T_pvar_handle_free(session, &eager_long);
    return mt_finish_with_mpit(&session);
}
