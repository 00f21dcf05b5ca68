/* probe: MPI_Probe/MPI_Iprobe around a ring for 0..1M ints: status source/tag/count
 * (MPI_Get_count in ints and bytes), probing does not consume the message (probe twice, then
 * receive into a buffer sized from the status), MPI_ANY_SOURCE/MPI_ANY_TAG probes, ANY_TAG
 * probe returns the earliest message of the sender, Iprobe false when nothing matches. */
#include "../common/mpitest.h"

static const int counts[] = {0, 1, 40000, 1 << 20};
#define NCOUNTS ((int)(sizeof counts / sizeof counts[0]))

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    int left = mt_left(), right = mt_right();
    int *sbuf = mt_malloc(sizeof(int) << 20);
    MPI_Status st, st2;
    MPI_Request sreq[2];
    char what[128];

    for (int c = 0; c < NCOUNTS; c++) {
        int n = counts[c], cnt = -1, flag = 0;
        mt_fill(sbuf, sizeof(int) * (size_t)n, (uint64_t)(c + 10 * mt_rank));
        MPI_Isend(sbuf, n, MPI_INT, right, 10 + c, MPI_COMM_WORLD, &sreq[0]);

        /* blocking probe with explicit source and tag, twice */
        MPI_Probe(left, 10 + c, MPI_COMM_WORLD, &st);
        snprintf(what, sizeof what, "MPI_Probe of %d ints from %d", n, left);
        MT_CHECK_STATUS(&st, left, 10 + c, MPI_INT, n, what);
        MPI_Get_count(&st, MPI_BYTE, &cnt);
        MT_CHECK_INT((int)sizeof(int) * n, cnt, "MPI_Get_count in bytes after MPI_Probe");
        MPI_Probe(left, 10 + c, MPI_COMM_WORLD, &st2);
        MT_CHECK_STATUS(&st2, left, 10 + c, MPI_INT, n, "second MPI_Probe of the same message");

        /* wildcard probe sees the same message */
        MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st2);
        MT_CHECK_STATUS(&st2, left, 10 + c, MPI_INT, n, "MPI_Probe(ANY_SOURCE, ANY_TAG)");

        /* nonblocking probe (spinning) */
        while (!flag)
            MPI_Iprobe(left, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st2);
        MT_CHECK_STATUS(&st2, left, 10 + c, MPI_INT, n, "MPI_Iprobe(left, ANY_TAG)");

        /* receive into a buffer sized from the probed status */
        MPI_Get_count(&st, MPI_INT, &cnt);
        int *rbuf = mt_malloc(sizeof(int) * (size_t)cnt);
        MPI_Recv(rbuf, cnt, MPI_INT, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD, &st2);
        MT_CHECK_STATUS(&st2, left, 10 + c, MPI_INT, n, what);
        MT_VERIFY(rbuf, sizeof(int) * (size_t)n, (uint64_t)(c + 10 * left), what);
        free(rbuf);
        MPI_Wait(&sreq[0], MPI_STATUS_IGNORE);
        MPI_Barrier(MPI_COMM_WORLD);
    }

    /* Iprobe finds nothing for a tag nobody sends */
    for (int i = 0; i < 5; i++) {
        int flag = -1;
        MPI_Iprobe(MPI_ANY_SOURCE, 777, MPI_COMM_WORLD, &flag, &st);
        MT_CHECK_INT(0, flag, "MPI_Iprobe for a tag nobody sends");
        mt_sleep(0.001);
    }

    /* two messages from the left (tag 1 then tag 2): ANY_TAG probe gives the first;
     * after receiving tag 2 selectively, ANY_TAG probe still gives tag 1 */
    {
        int a = 100 + mt_rank, b = 200 + mt_rank, x = -1;
        MPI_Isend(&a, 1, MPI_INT, right, 1, MPI_COMM_WORLD, &sreq[0]);
        MPI_Isend(&b, 1, MPI_INT, right, 2, MPI_COMM_WORLD, &sreq[1]);
        MPI_Probe(left, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
        MT_CHECK_STATUS(&st, left, 1, MPI_INT, 1, "ANY_TAG probe with two queued messages");
        MPI_Recv(&x, 1, MPI_INT, left, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MT_CHECK_INT(200 + left, x, "value of tag-2 message");
        MPI_Probe(left, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
        MT_CHECK_STATUS(&st, left, 1, MPI_INT, 1, "ANY_TAG probe after receiving tag 2");
        MPI_Recv(&x, 1, MPI_INT, left, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MT_CHECK_INT(100 + left, x, "value of tag-1 message");
        MPI_Waitall(2, sreq, MPI_STATUSES_IGNORE);
    }

    free(sbuf);
    return mt_finish();
}
