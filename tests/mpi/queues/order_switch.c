/* order_switch.c - non-overtaking when one sender's messages travel different queues: every
 * rank but 0 fires a burst of messages at rank 0 while rank 0 is still asleep, so its inbox
 * (orq, hybrid) fills and senders fall back to their outgoing queues; within each burst sizes
 * grow past 1 KiB and the count passes the point where hybrid opens a pair ring, so messages of
 * one sender are split between inbox and ring while earlier ones are still unread. Rank 0 then
 * receives everything with MPI_ANY_SOURCE (and half the rounds MPI_ANY_TAG) and checks that each
 * sender's messages come in send order with intact contents. The other ranks do the same to
 * their right neighbour at the same time, so every rank is both a flooded receiver and a sender.
 * Argument: [rounds]. */
#include "mpitest.h"

#define BURST 40
#define MAXSIZE 6000

static size_t size_of(int k) { return k < 10 ? (size_t)(k * 8) : (size_t)(k * 150) % MAXSIZE; }

static unsigned char byte_of(int src, int round, int k, size_t i)
{
    return (unsigned char)(src * 7 + round * 3 + k * 11 + (int)i);
}

static void check(int src, int round, int k, const unsigned char *buf, int count)
{
    MT_CHECK(count == (int)size_of(k), "from %d round %d message %d: %d bytes, expected %zu",
             src, round, k, count, size_of(k));
    for (int i = 0; i < count && i < (int)size_of(k); i++)
        if (buf[i] != byte_of(src, round, k, (size_t)i)) {
            MT_CHECK(0, "from %d round %d message %d: byte %d corrupt", src, round, k, i);
            return;
        }
}

/* Receive n messages from the given senders (any source), checking per-sender order. */
static void receive_all(int round, int n, int *next, int any_tag)
{
    unsigned char *buf = mt_malloc(MAXSIZE);
    for (int got = 0; got < n; got++) {
        MPI_Status st;
        MPI_Recv(buf, MAXSIZE, MPI_BYTE, MPI_ANY_SOURCE, any_tag ? MPI_ANY_TAG : 5,
                 MPI_COMM_WORLD, &st);
        int count;
        MPI_Get_count(&st, MPI_BYTE, &count);
        int src = st.MPI_SOURCE;
        int k = next[src]++;
        MT_CHECK(st.MPI_TAG == 5, "tag %d", st.MPI_TAG);
        if (k >= BURST) {
            MT_CHECK(0, "round %d: too many messages from %d", round, src);
            continue;
        }
        check(src, round, k, buf, count);
    }
    free(buf);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    mt_require_ranks(3);
    int rounds = argc > 1 ? atoi(argv[1]) : 4;
    unsigned char *out = mt_malloc((size_t)BURST * MAXSIZE);
    MPI_Request *reqs = mt_malloc(sizeof(MPI_Request) * 2 * BURST);
    int *next = mt_malloc(sizeof(int) * (size_t)mt_size);
    int right = (mt_rank + 1) % mt_size;
    if (right == 0)
        right = 1 % mt_size; /* rank 0 is flooded by everyone already */
    for (int round = 0; round < rounds; round++) {
        memset(next, 0, sizeof(int) * (size_t)mt_size);
        int nreq = 0;
        if (mt_rank == 0)
            mt_sleep(0.05); /* let the senders fill its queues first */
        if (mt_rank != 0) {
            for (int k = 0; k < BURST; k++) {
                unsigned char *p = out + (size_t)k * MAXSIZE;
                for (size_t i = 0; i < size_of(k); i++)
                    p[i] = byte_of(mt_rank, round, k, i);
                MPI_Isend(p, (int)size_of(k), MPI_BYTE, 0, 5, MPI_COMM_WORLD, &reqs[nreq++]);
            }
            /* and the same burst to the right neighbour (not rank 0) */
            if (right != mt_rank)
                for (int k = 0; k < BURST; k++)
                    MPI_Isend(out + (size_t)k * MAXSIZE, (int)size_of(k), MPI_BYTE, right, 5,
                              MPI_COMM_WORLD, &reqs[nreq++]);
        }
        int incoming = mt_rank == 0 ? (mt_size - 1) * BURST : 0;
        /* ranks 2.. receive from their left neighbour; rank 1 from rank size-1 */
        if (mt_rank != 0 && mt_size > 2)
            incoming += BURST;
        receive_all(round, incoming, next, round % 2);
        MPI_Waitall(nreq, reqs, MPI_STATUSES_IGNORE);
        for (int r = 0; r < mt_size; r++) {
            int want = 0;
            if (mt_rank == 0)
                want = r != 0 ? BURST : 0;
            else if (r != 0 && r != mt_rank) {
                int r_right = (r + 1) % mt_size == 0 ? 1 : (r + 1) % mt_size;
                want = r_right == mt_rank ? BURST : 0;
            }
            MT_CHECK(next[r] == want, "round %d: %d messages from %d, expected %d", round,
                     next[r], r, want);
        }
        MPI_Barrier(MPI_COMM_WORLD); /* the next round's bursts must not mix with this one's */
    }
    free(out);
    free(reqs);
    free(next);
    return mt_finish();
}
