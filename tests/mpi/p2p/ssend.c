/* ssend: synchronous mode. MPI_Ssend must not return before the matching receive is posted
 * (the sender reports completion with a second message that the receiver must not see while
 * it delays posting the receive), MPI_Issend's MPI_Test stays false until the receiver posts,
 * for 0 B, small and large messages; MPI_Issend to self; data verified. Needs >= 2 ranks. */
#include "../common/mpitest.h"

static const int sizes[] = {0, 8, 65536, 4 << 20};
#define NSIZES ((int)(sizeof sizes / sizeof sizes[0]))
#define DELAY 0.2

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    mt_require_ranks(2);
    int peer = mt_peer();
    int paired = peer != mt_rank;
    unsigned char *buf = mt_malloc((size_t)(4 << 20));
    MPI_Status st;
    char what[128];

    for (int s = 0; s < NSIZES && paired; s++) {
        int n = sizes[s];
        uint64_t seed = (uint64_t)(77 + s);
        /* blocking MPI_Ssend: tag 1 data, tag 2 "my Ssend returned" */
        if (mt_is_first()) {
            int done = 1;
            mt_fill(buf, (size_t)n, seed);
            MPI_Ssend(buf, n, MPI_BYTE, peer, 1, MPI_COMM_WORLD);
            MPI_Send(&done, 1, MPI_INT, peer, 2, MPI_COMM_WORLD);
        } else {
            int done = 0, flag = 0;
            MPI_Request dreq;
            MPI_Irecv(&done, 1, MPI_INT, peer, 2, MPI_COMM_WORLD, &dreq);
            mt_sleep(DELAY); /* the sender sits in MPI_Ssend meanwhile */
            MPI_Test(&dreq, &flag, MPI_STATUS_IGNORE);
            MT_CHECK(!flag, "MPI_Ssend of %d bytes returned before the receive was posted", n);
            MPI_Recv(buf, n, MPI_BYTE, peer, 1, MPI_COMM_WORLD, &st);
            snprintf(what, sizeof what, "MPI_Ssend of %d bytes", n);
            MT_CHECK_STATUS(&st, peer, 1, MPI_BYTE, n, what);
            MT_VERIFY(buf, (size_t)n, seed, what);
            MPI_Wait(&dreq, MPI_STATUS_IGNORE);
            MT_CHECK_INT(1, done, "completion flag message");
        }

        /* MPI_Issend: tag 3 data; the receiver posts only after the "go" message (tag 4) */
        if (mt_is_first()) {
            int go = 1, flag = 0;
            MPI_Request req;
            mt_fill(buf, (size_t)n, seed + 1000);
            MPI_Issend(buf, n, MPI_BYTE, peer, 3, MPI_COMM_WORLD, &req);
            for (int i = 0; i < 20; i++) {
                MPI_Test(&req, &flag, MPI_STATUS_IGNORE);
                MT_CHECK(!flag, "MPI_Issend of %d bytes completed before the receive was posted",
                         n);
                if (flag)
                    break;
                mt_sleep(0.002);
            }
            MPI_Send(&go, 1, MPI_INT, peer, 4, MPI_COMM_WORLD);
            if (!flag)
                MPI_Wait(&req, MPI_STATUS_IGNORE);
        } else {
            int go = 0;
            MPI_Recv(&go, 1, MPI_INT, peer, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            memset(buf, 0, (size_t)n);
            MPI_Recv(buf, n, MPI_BYTE, peer, 3, MPI_COMM_WORLD, &st);
            snprintf(what, sizeof what, "MPI_Issend of %d bytes", n);
            MT_CHECK_STATUS(&st, peer, 3, MPI_BYTE, n, what);
            MT_VERIFY(buf, (size_t)n, seed + 1000, what);
        }
    }

    /* MPI_Issend to self, received afterwards */
    {
        int out = 1234 + mt_rank, in = 0, flag = 0;
        MPI_Request req;
        MPI_Issend(&out, 1, MPI_INT, mt_rank, 5, MPI_COMM_WORLD, &req);
        MPI_Test(&req, &flag, MPI_STATUS_IGNORE);
        MT_CHECK(!flag, "MPI_Issend to self completed before the receive was posted");
        MPI_Recv(&in, 1, MPI_INT, mt_rank, 5, MPI_COMM_WORLD, &st);
        if (!flag)
            MPI_Wait(&req, MPI_STATUS_IGNORE);
        MT_CHECK_INT(1234 + mt_rank, in, "MPI_Issend to self: value");
        MT_CHECK_STATUS(&st, mt_rank, 5, MPI_INT, 1, "MPI_Issend to self");
    }

    free(buf);
    return mt_finish();
}
