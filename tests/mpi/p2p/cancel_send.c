/* cancel_send: MPI_Cancel of sends nobody has received. Around a ring (one rank: to itself),
 * for MPI_Isend, Issend, Ibsend and Irsend at 8 B (fastbox), 3000 B (one ring record) and
 * 100000 B (rendezvous; eager-long with NODEMPI_EAGER_LIMIT=262144), the receiver posting
 * nothing for the tag: the cancel succeeds (MPI_Wait or an MPI_Test loop returns, and
 * MPI_Test_cancelled is true), the buffered send's space is free again (a second MPI_Bsend of
 * the same size fits the exact-size buffer), and a receive posted afterwards gets the NEXT
 * message with that tag, never the cancelled one. A send cancelled after its receive completed
 * is not cancelled. Persistent sends (Send_init, Bsend_init): cancelled, then restarted and
 * received. At the end no message is left over. */
#include "../common/mpitest.h"

enum { NSIZES = 3, NMODES = 4 };
static const int sizes[NSIZES] = {8, 3000, 100000};
static const char *mode_names[NMODES] = {"Isend", "Issend", "Ibsend", "Irsend"};

static void start_send(int mode, void *buf, int n, int dest, int tag, MPI_Request *req)
{
    switch (mode) {
    case 0: MPI_Isend(buf, n, MPI_BYTE, dest, tag, MPI_COMM_WORLD, req); break;
    case 1: MPI_Issend(buf, n, MPI_BYTE, dest, tag, MPI_COMM_WORLD, req); break;
    case 2: MPI_Ibsend(buf, n, MPI_BYTE, dest, tag, MPI_COMM_WORLD, req); break;
    default: MPI_Irsend(buf, n, MPI_BYTE, dest, tag, MPI_COMM_WORLD, req); break;
    }
}

static int cancelled_of(MPI_Request *req, int use_test)
{
    MPI_Status st;
    int flag = 0, canc = -1;
    if (use_test) {
        while (!flag)
            MPI_Test(req, &flag, &st);
    } else {
        MPI_Wait(req, &st);
    }
    MT_CHECK(*req == MPI_REQUEST_NULL, "completed send request not freed");
    MPI_Test_cancelled(&st, &canc);
    return canc;
}

static uint64_t seed_of(int rank, int s, int mode, int which)
{
    return (uint64_t)(((rank * NSIZES + s) * NMODES + mode) * 4 + which);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    int right = mt_right(), left = mt_left();
    int maxn = sizes[NSIZES - 1];
    unsigned char *sbuf = mt_malloc((size_t)maxn), *rbuf = mt_malloc((size_t)maxn);
    MPI_Request req, rreq;

    for (int s = 0; s < NSIZES; s++) {
        int n = sizes[s];
        for (int mode = 0; mode < NMODES; mode++) {
            int tag = 100 + 10 * s + mode;
            int bsize = n + MPI_BSEND_OVERHEAD;
            char *bbuf = mode == 2 ? mt_malloc((size_t)bsize) : NULL;
            if (bbuf)
                MPI_Buffer_attach(bbuf, bsize);
            /* message A: cancelled while nobody has posted for tag */
            mt_fill(sbuf, (size_t)n, seed_of(mt_rank, s, mode, 1));
            start_send(mode, sbuf, n, right, tag, &req);
            MPI_Cancel(&req);
            int canc = cancelled_of(&req, (s + mode) & 1);
            MT_CHECK(canc == 1, "%s of %d B: not cancelled (the receiver never posted)",
                     mode_names[mode], n);
            MPI_Barrier(MPI_COMM_WORLD);
            /* message B, same tag: the receive gets it, not A */
            MPI_Irecv(rbuf, n, MPI_BYTE, left, tag, MPI_COMM_WORLD, &rreq);
            mt_fill(sbuf, (size_t)n, seed_of(mt_rank, s, mode, 2));
            if (mode == 2) { /* A's space must be free: the buffer holds exactly one message */
                int rc;
                MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
                rc = MPI_Bsend(sbuf, n, MPI_BYTE, right, tag, MPI_COMM_WORLD);
                MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
                MT_CHECK(rc == MPI_SUCCESS, "Bsend of %d B after a cancelled Ibsend failed: "
                         "buffer space not released", n);
            } else {
                MPI_Send(sbuf, n, MPI_BYTE, right, tag, MPI_COMM_WORLD);
            }
            MPI_Status st;
            MPI_Wait(&rreq, &st);
            MT_CHECK_STATUS(&st, left, tag, MPI_BYTE, n, "message after a cancelled one");
            MT_VERIFY(rbuf, (size_t)n, seed_of(left, s, mode, 2),
                      "message after a cancelled one");
            if (bbuf) {
                void *b;
                int bs;
                MPI_Buffer_detach(&b, &bs);
                free(bbuf);
            }
            MPI_Barrier(MPI_COMM_WORLD);
        }
    }

    /* cancel after the receive completed: not cancelled, received once */
    for (int s = 0; s < NSIZES; s++) {
        int n = sizes[s], tag = 200 + s;
        MPI_Irecv(rbuf, n, MPI_BYTE, left, tag, MPI_COMM_WORLD, &rreq);
        mt_fill(sbuf, (size_t)n, seed_of(mt_rank, s, 0, 3));
        MPI_Isend(sbuf, n, MPI_BYTE, right, tag, MPI_COMM_WORLD, &req);
        MPI_Wait(&rreq, MPI_STATUS_IGNORE);
        MT_VERIFY(rbuf, (size_t)n, seed_of(left, s, 0, 3), "received before cancel");
        MPI_Barrier(MPI_COMM_WORLD); /* our message has been received too */
        MPI_Cancel(&req);
        MT_CHECK(cancelled_of(&req, s & 1) == 0, "%d B send received before MPI_Cancel "
                 "reported cancelled", n);
    }

    /* persistent sends: cancel, then restart and receive */
    for (int s = 0; s < NSIZES; s++) {
        int n = sizes[s];
        for (int buffered = 0; buffered < 2; buffered++) {
            int tag = 300 + 2 * s + buffered;
            int bsize = n + MPI_BSEND_OVERHEAD;
            char *bbuf = buffered ? mt_malloc((size_t)bsize) : NULL;
            if (bbuf)
                MPI_Buffer_attach(bbuf, bsize);
            if (buffered)
                MPI_Bsend_init(sbuf, n, MPI_BYTE, right, tag, MPI_COMM_WORLD, &req);
            else
                MPI_Send_init(sbuf, n, MPI_BYTE, right, tag, MPI_COMM_WORLD, &req);
            mt_fill(sbuf, (size_t)n, seed_of(mt_rank, s, buffered, 1));
            MPI_Start(&req);
            MPI_Cancel(&req);
            MPI_Status st;
            int canc = 0;
            MPI_Wait(&req, &st);
            MT_CHECK(req != MPI_REQUEST_NULL, "persistent request freed by MPI_Wait");
            MPI_Test_cancelled(&st, &canc);
            MT_CHECK(canc, "persistent %s of %d B: not cancelled", buffered ? "Bsend" : "Send",
                     n);
            MPI_Barrier(MPI_COMM_WORLD);
            MPI_Irecv(rbuf, n, MPI_BYTE, left, tag, MPI_COMM_WORLD, &rreq);
            mt_fill(sbuf, (size_t)n, seed_of(mt_rank, s, buffered, 2));
            MPI_Start(&req);
            MPI_Wait(&req, &st);
            canc = 1;
            MPI_Test_cancelled(&st, &canc);
            MT_CHECK(!canc, "restarted persistent send reported cancelled");
            MPI_Wait(&rreq, &st);
            MT_CHECK_STATUS(&st, left, tag, MPI_BYTE, n, "restarted persistent send");
            MT_VERIFY(rbuf, (size_t)n, seed_of(left, s, buffered, 2),
                      "restarted persistent send");
            MPI_Request_free(&req);
            if (bbuf) {
                void *b;
                int bs;
                MPI_Buffer_detach(&b, &bs);
                free(bbuf);
            }
            MPI_Barrier(MPI_COMM_WORLD);
        }
    }

    /* nothing left over: every cancelled message is gone */
    MPI_Barrier(MPI_COMM_WORLD);
    int flag = 1;
    MPI_Status st;
    MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
    MT_CHECK(!flag, "a message is left over (tag %d from %d)", st.MPI_TAG, st.MPI_SOURCE);
    free(sbuf);
    free(rbuf);
    return mt_finish();
}
