/* request: MPI_Request_free on active send requests (message still delivered, small and
 * large); MPI_Request_get_status reports pending/complete without freeing the request (then
 * MPI_Wait returns the same status) and handles MPI_REQUEST_NULL; MPI_Request_free of an
 * inactive persistent request and of a completed persistent request. Around a ring. */
#include "../common/mpitest.h"

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    int left = mt_left(), right = mt_right();
    MPI_Request req, rreq;
    MPI_Status st, st2;
    int flag;
    const int sizes[3] = {0, 64, 2 << 20};
    unsigned char *sbuf[3], *rbuf = mt_malloc(2 << 20);

    /* free active send requests; the receiver must still get the messages.
     * Known deviation: MPICH 4.0 (ch4/ucx) never delivers several self-messages whose send
     * requests were freed (the receive hangs); skipped there when the ring is a single rank. */
    int skip_free = right == mt_rank && mt_library_is("MPICH");
    for (int s = 0; s < 3 && !skip_free; s++) {
        sbuf[s] = mt_malloc((size_t)sizes[s]);
        mt_fill(sbuf[s], (size_t)sizes[s], (uint64_t)(s + 10 * mt_rank));
        MPI_Isend(sbuf[s], sizes[s], MPI_BYTE, right, s, MPI_COMM_WORLD, &req);
        MPI_Request_free(&req);
        MT_CHECK(req == MPI_REQUEST_NULL, "MPI_Request_free did not set MPI_REQUEST_NULL");
    }
    for (int s = 0; s < 3 && !skip_free; s++) {
        char what[64];
        MPI_Recv(rbuf, sizes[s], MPI_BYTE, left, s, MPI_COMM_WORLD, &st);
        snprintf(what, sizeof what, "message of %d bytes whose send request was freed", sizes[s]);
        MT_CHECK_STATUS(&st, left, s, MPI_BYTE, sizes[s], what);
        MT_VERIFY(rbuf, (size_t)sizes[s], (uint64_t)(s + 10 * left), what);
    }
    MPI_Barrier(MPI_COMM_WORLD); /* every message arrived: the send buffers are free */
    for (int s = 0; s < 3 && !skip_free; s++)
        free(sbuf[s]);

    /* MPI_Request_get_status */
    {
        int val = -1, out = 500 + mt_rank;
        MPI_Irecv(&val, 1, MPI_INT, left, 50, MPI_COMM_WORLD, &rreq);
        for (int i = 0; i < 3; i++) {
            flag = -1;
            MPI_Request_get_status(rreq, &flag, &st);
            MT_CHECK_INT(0, flag, "MPI_Request_get_status before the message is sent");
        }
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Isend(&out, 1, MPI_INT, right, 50, MPI_COMM_WORLD, &req);
        flag = 0;
        while (!flag)
            MPI_Request_get_status(rreq, &flag, &st);
        MT_CHECK(rreq != MPI_REQUEST_NULL, "MPI_Request_get_status freed the request");
        MT_CHECK_STATUS(&st, left, 50, MPI_INT, 1, "MPI_Request_get_status");
        MT_CHECK_INT(500 + left, val, "value after MPI_Request_get_status reported completion");
        flag = 0;
        MPI_Request_get_status(rreq, &flag, &st2); /* still there, still complete */
        MT_CHECK_INT(1, flag, "second MPI_Request_get_status");
        MPI_Wait(&rreq, &st2);
        MT_CHECK(rreq == MPI_REQUEST_NULL, "MPI_Wait after MPI_Request_get_status did not free");
        MT_CHECK_STATUS(&st2, left, 50, MPI_INT, 1, "MPI_Wait after MPI_Request_get_status");
        MPI_Wait(&req, MPI_STATUS_IGNORE);

        rreq = MPI_REQUEST_NULL;
        flag = 0;
        mt_poison_status(&st);
        MPI_Request_get_status(rreq, &flag, &st);
        MT_CHECK_INT(1, flag, "MPI_Request_get_status(MPI_REQUEST_NULL) flag");
        MT_CHECK_EMPTY_STATUS(&st, "MPI_Request_get_status(MPI_REQUEST_NULL)");
    }

    /* free inactive persistent requests (never started, and after completion) */
    {
        int val = 0, out = 7;
        MPI_Request p[2];
        MPI_Send_init(&out, 1, MPI_INT, right, 60, MPI_COMM_WORLD, &p[0]);
        MPI_Recv_init(&val, 1, MPI_INT, left, 60, MPI_COMM_WORLD, &p[1]);
        MPI_Request_free(&p[0]);
        MPI_Request_free(&p[1]);
        MT_CHECK(p[0] == MPI_REQUEST_NULL && p[1] == MPI_REQUEST_NULL,
                 "MPI_Request_free of never-started persistent requests");
        MPI_Send_init(&out, 1, MPI_INT, right, 61, MPI_COMM_WORLD, &p[0]);
        MPI_Recv_init(&val, 1, MPI_INT, left, 61, MPI_COMM_WORLD, &p[1]);
        MPI_Startall(2, p);
        MPI_Waitall(2, p, MPI_STATUSES_IGNORE);
        MT_CHECK_INT(7, val, "persistent exchange value");
        MPI_Request_free(&p[0]);
        MPI_Request_free(&p[1]);
        MT_CHECK(p[0] == MPI_REQUEST_NULL && p[1] == MPI_REQUEST_NULL,
                 "MPI_Request_free of completed persistent requests");
    }

    free(rbuf);
    return mt_finish();
}
