/* mprobe: matched probes around a ring. MPI_Mprobe/MPI_Mrecv and MPI_Improbe/MPI_Imrecv for
 * 0 B..4 MiB (status, data, message handle reset to MPI_MESSAGE_NULL), a matched message is
 * removed from matching (a later receive gets the next message), wildcard Mprobe, Improbe
 * false when nothing matches, MPI_PROC_NULL gives MPI_MESSAGE_NO_PROC and PROC_NULL statuses. */
#include "../common/mpitest.h"

static const int sizes[] = {0, 8, 70000, 4 << 20};
#define NSIZES ((int)(sizeof sizes / sizeof sizes[0]))

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    int left = mt_left(), right = mt_right();
    unsigned char *sbuf = mt_malloc(4 << 20), *rbuf = mt_malloc(4 << 20);
    MPI_Status st;
    MPI_Message msg;
    MPI_Request sreq, rreq;
    char what[128];

    for (int s = 0; s < NSIZES; s++) {
        int n = sizes[s], cnt = -1, flag = 0;

        /* MPI_Mprobe + MPI_Mrecv */
        mt_fill(sbuf, (size_t)n, (uint64_t)(s + 10 * mt_rank));
        MPI_Isend(sbuf, n, MPI_BYTE, right, s, MPI_COMM_WORLD, &sreq);
        MPI_Mprobe(left, s, MPI_COMM_WORLD, &msg, &st);
        snprintf(what, sizeof what, "MPI_Mprobe of %d bytes from %d", n, left);
        MT_CHECK(msg != MPI_MESSAGE_NULL && msg != MPI_MESSAGE_NO_PROC, "%s: bad message handle",
                 what);
        MT_CHECK_STATUS(&st, left, s, MPI_BYTE, n, what);
        MPI_Get_count(&st, MPI_BYTE, &cnt);
        memset(rbuf, 0, (size_t)n);
        MPI_Mrecv(rbuf, cnt, MPI_BYTE, &msg, &st);
        snprintf(what, sizeof what, "MPI_Mrecv of %d bytes from %d", n, left);
        MT_CHECK(msg == MPI_MESSAGE_NULL, "%s: message not set to MPI_MESSAGE_NULL", what);
        MT_CHECK_STATUS(&st, left, s, MPI_BYTE, n, what);
        MT_VERIFY(rbuf, (size_t)n, (uint64_t)(s + 10 * left), what);
        MPI_Wait(&sreq, MPI_STATUS_IGNORE);

        /* MPI_Improbe + MPI_Imrecv */
        mt_fill(sbuf, (size_t)n, (uint64_t)(s + 10 * mt_rank + 5));
        MPI_Isend(sbuf, n, MPI_BYTE, right, 100 + s, MPI_COMM_WORLD, &sreq);
        while (!flag)
            MPI_Improbe(left, 100 + s, MPI_COMM_WORLD, &flag, &msg, &st);
        snprintf(what, sizeof what, "MPI_Improbe of %d bytes from %d", n, left);
        MT_CHECK_STATUS(&st, left, 100 + s, MPI_BYTE, n, what);
        memset(rbuf, 0, (size_t)n);
        MPI_Imrecv(rbuf, n, MPI_BYTE, &msg, &rreq);
        MT_CHECK(msg == MPI_MESSAGE_NULL, "MPI_Imrecv: message not set to MPI_MESSAGE_NULL");
        MPI_Wait(&rreq, &st);
        snprintf(what, sizeof what, "MPI_Imrecv of %d bytes from %d", n, left);
        MT_CHECK_STATUS(&st, left, 100 + s, MPI_BYTE, n, what);
        MT_VERIFY(rbuf, (size_t)n, (uint64_t)(s + 10 * left + 5), what);
        MPI_Wait(&sreq, MPI_STATUS_IGNORE);
        MPI_Barrier(MPI_COMM_WORLD);
    }

    /* a matched message is out of the matching queue: A then B with the same tag */
    {
        int a = 1000 + mt_rank, b = 2000 + mt_rank, x = -1;
        MPI_Request sr[2];
        MPI_Isend(&a, 1, MPI_INT, right, 7, MPI_COMM_WORLD, &sr[0]);
        MPI_Isend(&b, 1, MPI_INT, right, 7, MPI_COMM_WORLD, &sr[1]);
        MPI_Mprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &msg, &st); /* A */
        MT_CHECK_STATUS(&st, left, 7, MPI_INT, 1, "MPI_Mprobe(ANY_SOURCE, ANY_TAG)");
        MPI_Recv(&x, 1, MPI_INT, left, 7, MPI_COMM_WORLD, &st);
        MT_CHECK_INT(2000 + left, x, "MPI_Recv after MPI_Mprobe gets the second message");
        x = -1;
        MPI_Mrecv(&x, 1, MPI_INT, &msg, &st);
        MT_CHECK_INT(1000 + left, x, "MPI_Mrecv gets the matched (first) message");
        MPI_Waitall(2, sr, MPI_STATUSES_IGNORE);
    }

    /* Improbe finds nothing for a tag nobody sends */
    {
        int flag = -1;
        MPI_Improbe(MPI_ANY_SOURCE, 777, MPI_COMM_WORLD, &flag, &msg, &st);
        MT_CHECK_INT(0, flag, "MPI_Improbe for a tag nobody sends");
    }

    /* MPI_PROC_NULL */
    {
        int flag = 0;
        memset(rbuf, 0xEE, 16);
        msg = MPI_MESSAGE_NULL;
        mt_poison_status(&st);
        MPI_Mprobe(MPI_PROC_NULL, 3, MPI_COMM_WORLD, &msg, &st);
        MT_CHECK(msg == MPI_MESSAGE_NO_PROC, "MPI_Mprobe(MPI_PROC_NULL): not MPI_MESSAGE_NO_PROC");
        MT_CHECK_PROCNULL_STATUS(&st, "MPI_Mprobe(MPI_PROC_NULL)");
        mt_poison_status(&st);
        MPI_Mrecv(rbuf, 16, MPI_BYTE, &msg, &st);
        MT_CHECK(msg == MPI_MESSAGE_NULL, "MPI_Mrecv(MPI_MESSAGE_NO_PROC): not MPI_MESSAGE_NULL");
        MT_CHECK_PROCNULL_STATUS(&st, "MPI_Mrecv(MPI_MESSAGE_NO_PROC)");
        MT_VERIFY_CONST(rbuf, 16, 0xEE, "MPI_Mrecv(MPI_MESSAGE_NO_PROC) buffer");

        msg = MPI_MESSAGE_NULL;
        mt_poison_status(&st);
        MPI_Improbe(MPI_PROC_NULL, 3, MPI_COMM_WORLD, &flag, &msg, &st);
        MT_CHECK_INT(1, flag, "MPI_Improbe(MPI_PROC_NULL) flag");
        MT_CHECK(msg == MPI_MESSAGE_NO_PROC, "MPI_Improbe(MPI_PROC_NULL): not MPI_MESSAGE_NO_PROC");
        MT_CHECK_PROCNULL_STATUS(&st, "MPI_Improbe(MPI_PROC_NULL)");
        MPI_Imrecv(rbuf, 16, MPI_BYTE, &msg, &rreq);
        MT_CHECK(msg == MPI_MESSAGE_NULL, "MPI_Imrecv(MPI_MESSAGE_NO_PROC): not MPI_MESSAGE_NULL");
        mt_poison_status(&st);
        MPI_Wait(&rreq, &st);
        MT_CHECK_PROCNULL_STATUS(&st, "MPI_Imrecv(MPI_MESSAGE_NO_PROC)");
        MT_VERIFY_CONST(rbuf, 16, 0xEE, "MPI_Imrecv(MPI_MESSAGE_NO_PROC) buffer");
    }

    free(sbuf);
    free(rbuf);
    return mt_finish();
}
