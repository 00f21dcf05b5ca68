/* partial_drain: a blocking MPI_Recv that has to wait drains its peer's queue only up to the
 * message that completes it (NODEMPI_RECV_PARTIAL_DRAIN); what stays behind must still arrive,
 * in order, whatever the next call is. Rank 1 sends bursts of small messages with tags 0-2, a
 * large (rendezvous) one in the middle, and answers rank 0's synchronous sends; rank 0 waits
 * first so the burst piles up, then takes it back in a scrambled order: one blocking receive
 * per tag (the rest left in the queue), a wildcard receive, nonblocking receives, a probe, and
 * a synchronous send of its own whose completion record queues behind the burst. Every message
 * is checked (tag order per tag, payload). The testlist runs it with every queue design. */
#include "mpitest.h"

#include <string.h>

enum { BURST = 300, ROUNDS = 20, BIG = 256 * 1024 };

static int payload(int round, int i)
{
    return round * 100000 + i;
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    mt_require_ranks(2);
    char *big = mt_malloc(BIG);
    if (mt_rank == 1) {
        for (int round = 0; round < ROUNDS; round++) {
            MPI_Barrier(MPI_COMM_WORLD);
            for (int i = 0; i < BURST; i++) {
                int v = payload(round, i);
                MT_MPI(MPI_Send(&v, 1, MPI_INT, 0, i % 3, MPI_COMM_WORLD));
                if (i == BURST / 2) {
                    memset(big, round & 0x7f, BIG);
                    MT_MPI(MPI_Send(big, BIG, MPI_BYTE, 0, 7, MPI_COMM_WORLD));
                }
            }
            int token;
            MT_MPI(MPI_Recv(&token, 1, MPI_INT, 0, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            MT_CHECK_INT(round, token, "synchronous token from rank 0");
        }
    } else if (mt_rank == 0) {
        for (int round = 0; round < ROUNDS; round++) {
            MPI_Barrier(MPI_COMM_WORLD);
            mt_sleep(0.002); /* let the burst fill the queue */
            int next[3] = {0, 1, 2}; /* the next index expected per tag */
            int got = 0;
            /* one blocking receive per tag, in reverse tag order */
            for (int tag = 2; tag >= 0; tag--) {
                int v = -1;
                MT_MPI(MPI_Recv(&v, 1, MPI_INT, 1, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
                MT_CHECK_INT(payload(round, next[tag]), v, "first message of a tag");
                next[tag] += 3;
                got++;
            }
            MT_MPI(MPI_Recv(big, BIG, MPI_BYTE, 1, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            MT_CHECK_INT(round & 0x7f, big[BIG - 1], "large message");
            /* the synchronous send's answer queues behind the rest of the burst */
            MT_MPI(MPI_Ssend(&round, 1, MPI_INT, 1, 9, MPI_COMM_WORLD));
            while (got < BURST) {
                int v = -1;
                MPI_Status st;
                if (got % 5 == 0) { /* a wildcard receive */
                    MT_MPI(MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD,
                                    &st));
                } else if (got % 5 == 1) { /* a nonblocking one, of a tag with some left */
                    MPI_Request r;
                    int tag = got % 3;
                    while (next[tag] >= BURST)
                        tag = (tag + 1) % 3;
                    MT_MPI(MPI_Irecv(&v, 1, MPI_INT, 1, tag, MPI_COMM_WORLD, &r));
                    MT_MPI(MPI_Wait(&r, &st));
                } else if (got % 5 == 2) { /* probe, then receive what it saw */
                    MT_MPI(MPI_Probe(1, MPI_ANY_TAG, MPI_COMM_WORLD, &st));
                    MT_MPI(MPI_Recv(&v, 1, MPI_INT, 1, st.MPI_TAG, MPI_COMM_WORLD, &st));
                } else { /* a blocking receive of the tag with the most left */
                    int tag = 0;
                    for (int t = 1; t < 3; t++)
                        if (next[t] < next[tag])
                            tag = t;
                    MT_MPI(MPI_Recv(&v, 1, MPI_INT, 1, tag, MPI_COMM_WORLD, &st));
                }
                int tag = st.MPI_TAG;
                if (tag < 0 || tag > 2 || next[tag] >= BURST) {
                    mt_fail(__FILE__, __LINE__, "round %d: unexpected tag %d", round, tag);
                    break;
                }
                MT_CHECK_INT(payload(round, next[tag]), v, "message order within a tag");
                next[tag] += 3;
                got++;
            }
        }
    } else {
        for (int round = 0; round < ROUNDS; round++)
            MPI_Barrier(MPI_COMM_WORLD);
    }
    free(big);
    return mt_finish();
}
