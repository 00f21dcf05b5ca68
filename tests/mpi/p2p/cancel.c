/* cancel: MPI_Cancel of a posted receive that has no message (specific and ANY_SOURCE,
 * completed with MPI_Wait and with MPI_Test) gives MPI_Test_cancelled true and does not consume
 * a message sent later; cancel of a receive that already matched (seen complete through
 * MPI_Request_get_status) is not cancelled and delivers the data; a cancelled persistent
 * receive can be started again. Around a ring. */
#include "../common/mpitest.h"

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    int left = mt_left(), right = mt_right();
    MPI_Request req, sreq;
    MPI_Status st;
    int flag, canc, val, out;

    /* receives with nothing to match, cancelled */
    for (int mode = 0; mode < 3; mode++) {
        /* 0: specific source + Wait; 1: ANY_SOURCE + Wait; 2: specific source + Test loop */
        val = -1;
        MPI_Irecv(&val, 1, MPI_INT, mode == 1 ? MPI_ANY_SOURCE : left, 10 + mode, MPI_COMM_WORLD,
                  &req);
        MPI_Cancel(&req);
        MT_CHECK(req != MPI_REQUEST_NULL, "MPI_Cancel freed the request");
        if (mode == 2) {
            flag = 0;
            while (!flag)
                MPI_Test(&req, &flag, &st);
        } else {
            MPI_Wait(&req, &st);
        }
        MT_CHECK(req == MPI_REQUEST_NULL, "cancelled request not freed by completion");
        canc = 0;
        MPI_Test_cancelled(&st, &canc);
        MT_CHECK(canc, "mode %d: MPI_Test_cancelled false for a cancelled unmatched receive", mode);
        MT_CHECK_INT(-1, val, "buffer of a cancelled receive");
    }
    /* now send the messages: a fresh receive gets each of them */
    MPI_Barrier(MPI_COMM_WORLD);
    for (int mode = 0; mode < 3; mode++) {
        out = 100 * mt_rank + mode;
        MPI_Isend(&out, 1, MPI_INT, right, 10 + mode, MPI_COMM_WORLD, &sreq);
        MPI_Recv(&val, 1, MPI_INT, left, 10 + mode, MPI_COMM_WORLD, &st);
        MT_CHECK_INT(100 * left + mode, val, "message sent after a cancelled receive");
        canc = 1;
        MPI_Test_cancelled(&st, &canc);
        MT_CHECK(!canc, "MPI_Test_cancelled true for a normal receive");
        MPI_Wait(&sreq, MPI_STATUS_IGNORE);
    }

    /* cancel after the receive matched and completed: not cancelled */
    {
        unsigned char *rbuf = mt_malloc(100000), *sbuf = mt_malloc(100000);
        const int sizes[2] = {4, 100000};
        for (int s = 0; s < 2; s++) {
            memset(rbuf, 0, (size_t)sizes[s]);
            MPI_Irecv(rbuf, sizes[s], MPI_BYTE, left, 20 + s, MPI_COMM_WORLD, &req);
            mt_fill(sbuf, (size_t)sizes[s], (uint64_t)(mt_rank * 10 + s));
            MPI_Isend(sbuf, sizes[s], MPI_BYTE, right, 20 + s, MPI_COMM_WORLD, &sreq);
            flag = 0;
            while (!flag)
                MPI_Request_get_status(req, &flag, &st);
            MT_CHECK(req != MPI_REQUEST_NULL, "MPI_Request_get_status freed the request");
            MPI_Cancel(&req);
            MPI_Wait(&req, &st);
            canc = 1;
            MPI_Test_cancelled(&st, &canc);
            MT_CHECK(!canc, "MPI_Test_cancelled true for a receive that completed before cancel");
            MT_CHECK_STATUS(&st, left, 20 + s, MPI_BYTE, sizes[s],
                            "completed-then-cancelled receive");
            MT_VERIFY(rbuf, (size_t)sizes[s], (uint64_t)(left * 10 + s),
                      "completed-then-cancelled receive");
            MPI_Wait(&sreq, MPI_STATUS_IGNORE);
        }
        free(rbuf);
        free(sbuf);
    }

    /* persistent receive: start, cancel, start again and match */
    MPI_Recv_init(&val, 1, MPI_INT, left, 30, MPI_COMM_WORLD, &req);
    MPI_Start(&req);
    MPI_Cancel(&req);
    MPI_Wait(&req, &st);
    MT_CHECK(req != MPI_REQUEST_NULL, "persistent request freed by MPI_Wait after cancel");
    canc = 0;
    MPI_Test_cancelled(&st, &canc);
    MT_CHECK(canc, "MPI_Test_cancelled false for a cancelled persistent receive");
    MPI_Barrier(MPI_COMM_WORLD);
    val = -1;
    out = 3000 + mt_rank;
    MPI_Start(&req);
    MPI_Isend(&out, 1, MPI_INT, right, 30, MPI_COMM_WORLD, &sreq);
    MPI_Wait(&req, &st);
    canc = 1;
    MPI_Test_cancelled(&st, &canc);
    MT_CHECK(!canc, "restarted persistent receive reported cancelled");
    MT_CHECK_INT(3000 + left, val, "restarted persistent receive value");
    MPI_Wait(&sreq, MPI_STATUS_IGNORE);
    MPI_Request_free(&req);

    return mt_finish();
}
