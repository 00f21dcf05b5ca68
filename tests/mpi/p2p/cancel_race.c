/* cancel_race: MPI_Cancel of a send racing with the matching receive, many times around a ring
 * (Isend, Issend and Ibsend at 8 B, 3000 B and 100000 B; the receive posted before or after the
 * sender's cancel). Every time, either the send is cancelled and the receive never sees it (it
 * gets the filler message sent next with the same tag), or it is not cancelled and the receive
 * gets it exactly once. The sender tells the receiver which through a second tag; the counts of
 * delivered and not-cancelled messages must agree, and nothing may be left over. */
#include "../common/mpitest.h"

enum { ITERATIONS = 900, NSIZES = 3, TAG_RESULT = 5000 };
static const int sizes[NSIZES] = {8, 3000, 100000};

static void spin(int rounds)
{
    volatile int x = 0;
    for (int i = 0; i < rounds * 200; i++)
        x += i;
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    int right = mt_right(), left = mt_left();
    int maxn = sizes[NSIZES - 1];
    unsigned char *sbuf = mt_malloc((size_t)maxn), *fbuf = mt_malloc((size_t)maxn);
    unsigned char *rbuf = mt_malloc((size_t)maxn);
    int bsize = 4 * (maxn + MPI_BSEND_OVERHEAD); /* a few may still be in flight */
    char *bbuf = mt_malloc((size_t)bsize);
    MPI_Buffer_attach(bbuf, bsize);
    long cancelled = 0, not_cancelled = 0, delivered = 0, fillers = 0;

    for (int i = 0; i < ITERATIONS; i++) {
        int n = sizes[i % NSIZES], mode = (i / NSIZES) % 3, tag = 10 + i % 1000;
        int post_first = i % 4 == 0;
        MPI_Request rreq, sreq, freq = MPI_REQUEST_NULL;
        MPI_Status st;
        if (post_first)
            MPI_Irecv(rbuf, n, MPI_BYTE, left, tag, MPI_COMM_WORLD, &rreq);
        mt_fill(sbuf, (size_t)n, (uint64_t)(2 * (mt_rank * ITERATIONS + i)));
        if (mode == 0)
            MPI_Isend(sbuf, n, MPI_BYTE, right, tag, MPI_COMM_WORLD, &sreq);
        else if (mode == 1)
            MPI_Issend(sbuf, n, MPI_BYTE, right, tag, MPI_COMM_WORLD, &sreq);
        else
            MPI_Ibsend(sbuf, n, MPI_BYTE, right, tag, MPI_COMM_WORLD, &sreq);
        spin(i % 7);
        MPI_Cancel(&sreq);
        MPI_Wait(&sreq, &st);
        int canc = 0;
        MPI_Test_cancelled(&st, &canc);
        if (!post_first)
            MPI_Irecv(rbuf, n, MPI_BYTE, left, tag, MPI_COMM_WORLD, &rreq);
        MPI_Send(&canc, 1, MPI_INT, right, TAG_RESULT, MPI_COMM_WORLD);
        if (canc) { /* the receive posted for tag gets this filler instead */
            cancelled++;
            mt_fill(fbuf, (size_t)n, (uint64_t)(2 * (mt_rank * ITERATIONS + i) + 1));
            MPI_Isend(fbuf, n, MPI_BYTE, right, tag, MPI_COMM_WORLD, &freq);
        } else {
            not_cancelled++;
        }
        int left_cancelled = -1;
        MPI_Recv(&left_cancelled, 1, MPI_INT, left, TAG_RESULT, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
        MPI_Wait(&rreq, &st);
        MT_CHECK_STATUS(&st, left, tag, MPI_BYTE, n, "raced receive");
        uint64_t seed = (uint64_t)(2 * (left * ITERATIONS + i) + (left_cancelled ? 1 : 0));
        if (MT_VERIFY(rbuf, (size_t)n, seed, left_cancelled ? "filler after a cancelled send"
                                                           : "send not cancelled") != 0)
            mt_fail(__FILE__, __LINE__, "iteration %d (%d B, mode %d, %s): wrong message",
                    i, n, mode, left_cancelled ? "cancelled" : "not cancelled");
        if (left_cancelled)
            fillers++;
        else
            delivered++;
        MPI_Wait(&freq, MPI_STATUS_IGNORE);
    }

    /* nothing left over, and the two sides' counts agree */
    MPI_Barrier(MPI_COMM_WORLD);
    int flag = 1;
    MPI_Status st;
    MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
    MT_CHECK(!flag, "a message is left over (tag %d from %d)", st.MPI_TAG, st.MPI_SOURCE);
    long mine[2] = {not_cancelled, cancelled}, theirs[2] = {delivered, fillers}, sum[4];
    long both[4] = {mine[0], mine[1], theirs[0], theirs[1]};
    MPI_Allreduce(both, sum, 4, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    MT_CHECK(sum[0] == sum[2], "%ld sends not cancelled but %ld delivered", sum[0], sum[2]);
    MT_CHECK(sum[1] == sum[3], "%ld sends cancelled but %ld fillers received", sum[1], sum[3]);
    if (mt_rank == 0 && getenv("CANCEL_RACE_VERBOSE"))
        printf("cancel_race: %ld cancelled, %ld delivered\n", sum[1], sum[0]);
    void *b;
    int bs;
    MPI_Buffer_detach(&b, &bs);
    free(bbuf);
    free(sbuf);
    free(fbuf);
    free(rbuf);
    return mt_finish();
}
