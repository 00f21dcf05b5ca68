/* cancel_queued: sends still waiting in the sender's outgoing queue are cancelled locally. Rank 1
 * sleeps outside MPI while rank 0 fills the queue to it with numbered messages, then starts X
 * (Isend 3000 B), Y (Issend 100000 B) and Z (Isend 100000 B: rendezvous, or a long eager message
 * with NODEMPI_EAGER_LIMIT=262144) behind them and cancels them: with the queue backed up, each
 * completes cancelled while rank 1 is still asleep. Then W follows. Rank 1 wakes up and receives
 * every numbered message in order and then W: never X, Y or Z. */
#include "../common/mpitest.h"

enum { FILLERS = 2000, FILLER_BYTES = 3000, BIG = 100000, TAG = 7 };
static const double sleep_seconds = 2.0;

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    mt_require_ranks(2);
    unsigned char *buf = mt_malloc(BIG);
    if (mt_rank == 0) {
        MPI_Request *fill = mt_malloc(sizeof(MPI_Request) * FILLERS);
        unsigned char *fbuf = mt_malloc((size_t)FILLERS * FILLER_BYTES);
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        for (int i = 0; i < FILLERS; i++) {
            mt_fill(fbuf + (size_t)i * FILLER_BYTES, FILLER_BYTES, (uint64_t)i);
            MPI_Isend(fbuf + (size_t)i * FILLER_BYTES, FILLER_BYTES, MPI_BYTE, 1, TAG,
                      MPI_COMM_WORLD, &fill[i]);
        }
        int backed_up = 0;
        MPI_Request_get_status(fill[FILLERS - 1], &backed_up, MPI_STATUS_IGNORE);
        backed_up = !backed_up;
        memset(buf, 0xee, BIG);
        MPI_Request x[3];
        MPI_Isend(buf, FILLER_BYTES, MPI_BYTE, 1, TAG, MPI_COMM_WORLD, &x[0]);
        MPI_Issend(buf, BIG, MPI_BYTE, 1, TAG, MPI_COMM_WORLD, &x[1]);
        MPI_Isend(buf, BIG, MPI_BYTE, 1, TAG, MPI_COMM_WORLD, &x[2]);
        for (int k = 0; k < 3; k++)
            MPI_Cancel(&x[k]);
        for (int k = 0; k < 3; k++) {
            MPI_Status st;
            int flag = 0, canc = 0;
            if (backed_up) /* local: done long before rank 1 wakes */
                while (!flag && MPI_Wtime() - t0 < sleep_seconds / 2)
                    MPI_Test(&x[k], &flag, &st);
            if (backed_up)
                MT_CHECK(flag, "queued send %d not cancelled locally while the receiver sleeps",
                         k);
            if (!flag)
                MPI_Wait(&x[k], &st);
            MPI_Test_cancelled(&st, &canc);
            MT_CHECK(canc, "send %d behind %d queued messages not cancelled", k, FILLERS);
        }
        if (!backed_up && mt_rank == 0)
            printf("cancel_queued: the queue never backed up; only the exchange was tested\n");
        int w = 4242;
        MPI_Send(&w, 1, MPI_INT, 1, TAG, MPI_COMM_WORLD);
        MPI_Waitall(FILLERS, fill, MPI_STATUSES_IGNORE);
        free(fill);
        free(fbuf);
    } else if (mt_rank == 1) {
        MPI_Barrier(MPI_COMM_WORLD);
        mt_sleep(sleep_seconds);
        for (int i = 0; i < FILLERS; i++) {
            MPI_Status st;
            MPI_Recv(buf, FILLER_BYTES, MPI_BYTE, 0, TAG, MPI_COMM_WORLD, &st);
            MT_CHECK_STATUS(&st, 0, TAG, MPI_BYTE, FILLER_BYTES, "numbered message");
            if (MT_VERIFY(buf, FILLER_BYTES, (uint64_t)i, "numbered message"))
                break;
        }
        MPI_Status st;
        int w = 0;
        MPI_Recv(&w, 1, MPI_INT, 0, TAG, MPI_COMM_WORLD, &st);
        MT_CHECK_STATUS(&st, 0, TAG, MPI_INT, 1, "message after the cancelled ones");
        MT_CHECK_INT(4242, w, "message after the cancelled ones");
    } else {
        MPI_Barrier(MPI_COMM_WORLD);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    int flag = 1;
    MPI_Status st;
    MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
    MT_CHECK(!flag, "a message is left over (tag %d from %d)", st.MPI_TAG, st.MPI_SOURCE);
    free(buf);
    return mt_finish();
}
