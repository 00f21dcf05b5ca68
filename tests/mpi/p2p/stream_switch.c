/* stream_switch: one-way streams of messages around the ring record size (4 KiB + 1 .. 16 KiB,
 * and 16 KiB + 1 beyond it) go eagerly and wait in the sender's queue while the receiver takes
 * records; when it stops, those waiting switch to the rendezvous in their places in the queue
 * (src/p2p/send.c, NODEMPI_STREAM_EAGER). The first rank of each pair sends rounds of Isends
 * while the receiver alternates between receiving at once, sleeping before it receives, and
 * stopping in the middle of a round, with MPI_ANY_SOURCE/MPI_ANY_TAG receives in some rounds;
 * every message must arrive in order with its size and contents, and with a receive posted from
 * the peer (an exchange) as well. In the default configuration (pair rings, stream eager on,
 * not oversubscribed) the sender must have sent messages above the eager limit both ways (MPI_T
 * counters), or the test would not test what it is for. */
#include "mpitest.h"
#include "mt_mpit.h"

#include <stdlib.h>
#include <string.h>

enum { ROUNDS = 6, PER_ROUND = 40, TAG = 3 };
static const int sizes[] = {4097, 8192, 12288, 16384, 16385, 100, 16352, 9000};
#define NSIZES (int)(sizeof(sizes) / sizeof(sizes[0]))
#define SIZE_OF(round, i) sizes[((round) * 3 + (i)) % NSIZES]

static MPI_T_pvar_session session;

int main(int argc, char **argv)
{
    mt_init_with_mpit(&argc, &argv);
    session = mt_pvar_session_create();
    mt_require_ranks(2);
    /* The skew watch would raise the eager limit after a sleeping round (skew.c) and make
     * messages eager for that reason: off here, so that the counts show the stream's choices. */
    mt_cvar_write_item("NODEMPI_SKEW", "off");
    MPI_T_pvar_handle eager_sent = mt_pvar_counter(session, "nodempi_p2p_sent_eager");
    MPI_T_pvar_handle cma_sent = mt_pvar_counter(session, "nodempi_p2p_sent_single_copy");
    MPI_T_pvar_handle rndv_sent = mt_pvar_counter(session, "nodempi_p2p_sent_rendezvous");
    int peer = mt_peer();
    unsigned char *buf = mt_malloc((size_t)PER_ROUND * 16385);
    int ack = 0;
    for (int round = 0; round < ROUNDS; round++) {
        int exchange = round % 3 == 2; /* the sender has a receive posted from its peer */
        if (peer != mt_rank && mt_is_first()) {
            MPI_Request req[PER_ROUND + 1];
            if (exchange)
                MPI_Irecv(&ack, 1, MPI_INT, peer, TAG + 1, MPI_COMM_WORLD, &req[PER_ROUND]);
            size_t off = 0;
            for (int i = 0; i < PER_ROUND; i++) {
                int n = SIZE_OF(round, i);
                mt_fill(buf + off, (size_t)n, (uint64_t)(round * 1000 + i));
                MPI_Isend(buf + off, n, MPI_BYTE, peer, TAG, MPI_COMM_WORLD, &req[i]);
                off += (size_t)n;
            }
            MPI_Waitall(PER_ROUND, req, MPI_STATUSES_IGNORE);
            if (exchange) {
                MPI_Wait(&req[PER_ROUND], MPI_STATUS_IGNORE);
                MT_CHECK_INT(round, ack, "exchange reply");
            }
        } else if (peer != mt_rank) {
            if (round % 3 == 1)
                mt_sleep(0.05); /* the sender's ring fills and stays full */
            for (int i = 0; i < PER_ROUND; i++) {
                int n = SIZE_OF(round, i), count = -1;
                MPI_Status st;
                int any = round % 2 == 1 && i % 2 == 1;
                MPI_Recv(buf, 16385, MPI_BYTE, any ? MPI_ANY_SOURCE : peer,
                         any ? MPI_ANY_TAG : TAG, MPI_COMM_WORLD, &st);
                MPI_Get_count(&st, MPI_BYTE, &count);
                MT_CHECK_INT(n, count, "message size");
                MT_CHECK_INT(peer, st.MPI_SOURCE, "source");
                if (MT_VERIFY(buf, (size_t)n, (uint64_t)(round * 1000 + i), "stream message"))
                    break;
                if (i == PER_ROUND / 2 && round % 3 == 0)
                    mt_sleep(0.02); /* stop taking records in the middle of a round */
            }
            if (exchange) {
                ack = round;
                MPI_Send(&ack, 1, MPI_INT, peer, TAG + 1, MPI_COMM_WORLD);
            }
        }
        MPI_Barrier(MPI_COMM_WORLD);
    }
    const char *queue = getenv("NODEMPI_QUEUE"), *stream = getenv("NODEMPI_STREAM_EAGER");
    const char *ncores = getenv("NODEMPI_NCORES"); /* set by mpiexec; fewer: oversubscribed */
    int by_default = (!queue || strcmp(queue, "pair") == 0) && !stream &&
                     (!ncores || atoi(ncores) >= mt_size);
    if (by_default && peer != mt_rank && mt_is_first()) {
        unsigned long long eager = mt_pvar_read(session, eager_sent);
        unsigned long long rndv =
            mt_pvar_read(session, cma_sent) + mt_pvar_read(session, rndv_sent);
        /* Of each round's 40 messages 5 are of 100 B (eager anyway: 30 in all, and all the
         * eager ones without stream eager); the others are above the 4 KiB eager limit: more
         * than a ring's worth of them went eagerly (79-89 of 210 on a quiet machine), some went
         * rendezvous */
        MT_CHECK(eager > ROUNDS * PER_ROUND / 8 + 8 && rndv > 0,
                 "stream messages: %llu eager, %llu rendezvous", eager, rndv);
    }
    free(buf);
    return mt_finish_with_mpit(&session);
}
