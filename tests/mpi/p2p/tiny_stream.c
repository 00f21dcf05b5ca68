/* tiny_stream: streams of 0-36 byte messages (which nodempi packs two or four to a fastbox cell
 * while the receiver does not answer: src/shm/fastbox.h) arrive like any others: in send order,
 * intact, with the right status, mixed with 37-64 byte messages (whole cells), ring records and
 * rendezvous messages; across a reply in the middle of every round (the sender's next tiny
 * message then takes a whole cell, the ones after it are packed again); received by source and
 * tag, with MPI_ANY_SOURCE and MPI_ANY_TAG, pre-posted, and into a strided datatype. Pairs
 * (2k, 2k+1): the first sends, the second receives; an unpaired last rank only joins the
 * barrier. Under nodempi the MPI_T counter nodempi_p2p_sent_fastbox_packed must show packing on
 * the senders (and none anywhere with NODEMPI_FASTBOX_PACK=off or in the queue designs without
 * a fastbox). */
#include "mpitest.h"
#include "mt_mpit.h"

#include <stdlib.h>
#include <string.h>

enum { ROUNDS = 24, PER_ROUND = 64, MIDDLE = PER_ROUND / 2, ACK_TAG = 77, STRIDE = 3 };
enum { MAX_SIZE = 100000 };

/* Mostly tiny, some cell-sized, a few through the ring and by rendezvous. */
static int size_of(int i)
{
    if (i % 53 == 7)
        return MAX_SIZE;
    if (i % 17 == 5)
        return 3000;
    if (i % 7 == 3)
        return 37 + (i * 13) % 28; /* 37..64: a cell */
    if (i % 3 == 1)
        return 9 + (i * 5) % 28;   /* 9..36: two slots */
    return (i * 5) % 9;            /* 0..8: one slot */
}

static uint64_t seed_of(int round, int i) { return (uint64_t)round * 1000 + (uint64_t)i + 1; }

static void send_rounds(int peer, unsigned char *sbuf)
{
    MPI_Request req[PER_ROUND];
    for (int round = 0; round < ROUNDS; round++) {
        for (int i = 0; i < PER_ROUND; i++) {
            int n = size_of(round * PER_ROUND + i);
            unsigned char *p = sbuf + (size_t)i * MAX_SIZE;
            mt_fill(p, (size_t)n, seed_of(round, i));
            MPI_Isend(p, n, MPI_BYTE, peer, i % 5, MPI_COMM_WORLD, &req[i]);
            if (i == MIDDLE) { /* the receiver answers: a ping-pong for a moment */
                int ack = -1;
                MPI_Recv(&ack, 1, MPI_INT, peer, ACK_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                MT_CHECK_INT(round, ack, "ack");
            }
        }
        MPI_Waitall(PER_ROUND, req, MPI_STATUSES_IGNORE);
    }
}

static void check_message(int round, int i, int peer, const unsigned char *buf,
                          const MPI_Status *st)
{
    char what[96];
    int n = size_of(round * PER_ROUND + i);
    snprintf(what, sizeof what, "round %d message %d (%d bytes, mode %d)", round, i, n,
             round % 4);
    MT_CHECK_STATUS(st, peer, i % 5, MPI_BYTE, n, what);
    MT_VERIFY(buf, (size_t)n, seed_of(round, i), what);
}

/* Mode 3: messages of up to 8 bytes into every third byte of rbuf, then gathered back for the
 * check. */
static void recv_strided(int round, int i, int peer, unsigned char *rbuf, unsigned char *packed)
{
    int n = size_of(round * PER_ROUND + i);
    MPI_Status st;
    if (n > 8) {
        MPI_Recv(rbuf, MAX_SIZE, MPI_BYTE, peer, i % 5, MPI_COMM_WORLD, &st);
        check_message(round, i, peer, rbuf, &st);
        return;
    }
    MPI_Datatype strided;
    MPI_Type_vector(8, 1, STRIDE, MPI_BYTE, &strided);
    MPI_Type_commit(&strided);
    memset(rbuf, 0xee, 8 * STRIDE);
    MPI_Recv(rbuf, 1, strided, peer, i % 5, MPI_COMM_WORLD, &st);
    MPI_Type_free(&strided);
    int count = -1;
    MPI_Get_count(&st, MPI_BYTE, &count);
    MT_CHECK_INT(n, count, "strided receive: bytes");
    for (int k = 0; k < n; k++)
        packed[k] = rbuf[k * STRIDE];
    for (int k = n; k < 8; k++)
        MT_CHECK_INT(0xee, rbuf[k * STRIDE], "strided receive: byte past the message");
    MT_CHECK_INT(0xee, rbuf[1], "strided receive: a gap was written");
    MT_VERIFY(packed, (size_t)n, seed_of(round, i), "strided receive");
}

static void receive_rounds(int peer, unsigned char *rbuf)
{
    MPI_Request req[PER_ROUND];
    MPI_Status st[PER_ROUND];
    unsigned char packed[8];
    for (int round = 0; round < ROUNDS; round++) {
        int mode = round % 4;
        if (mode == 2) /* pre-posted, any tag */
            for (int i = 0; i < PER_ROUND; i++)
                MPI_Irecv(rbuf + (size_t)i * MAX_SIZE, MAX_SIZE, MPI_BYTE, peer, MPI_ANY_TAG,
                          MPI_COMM_WORLD, &req[i]);
        for (int i = 0; i < PER_ROUND; i++) {
            unsigned char *p = rbuf + (size_t)i * MAX_SIZE;
            if (mode == 0) {
                MPI_Recv(p, MAX_SIZE, MPI_BYTE, peer, i % 5, MPI_COMM_WORLD, &st[i]);
                check_message(round, i, peer, p, &st[i]);
            } else if (mode == 1) {
                MPI_Recv(p, MAX_SIZE, MPI_BYTE, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD,
                         &st[i]);
                check_message(round, i, peer, p, &st[i]);
            } else if (mode == 2) {
                MPI_Wait(&req[i], &st[i]);
                check_message(round, i, peer, p, &st[i]);
            } else {
                recv_strided(round, i, peer, p, packed);
            }
            if (i == MIDDLE)
                MPI_Send(&round, 1, MPI_INT, peer, ACK_TAG, MPI_COMM_WORLD);
        }
    }
}

/* Does nodempi pack here? Not when switched off or in the designs without a fastbox. */
static int packing_expected(void)
{
    const char *pack = getenv("NODEMPI_FASTBOX_PACK"), *box = getenv("NODEMPI_FASTBOX");
    const char *queue = getenv("NODEMPI_QUEUE");
    if ((pack && strcmp(pack, "off") == 0) || (box && strcmp(box, "off") == 0))
        return 0;
    return !queue || (strcmp(queue, "orq") != 0 && strcmp(queue, "hybrid") != 0);
}

int main(int argc, char **argv)
{
    mt_init_with_mpit(&argc, &argv);
    int nodempi = mt_library_is("nodempi");
    MPI_T_pvar_session session = MPI_T_PVAR_SESSION_NULL;
    MPI_T_pvar_handle packed = MPI_T_PVAR_HANDLE_NULL;
    if (nodempi) {
        session = mt_pvar_session_create();
        packed = mt_pvar_counter(session, "nodempi_p2p_sent_fastbox_packed");
    }
    int peer = mt_peer();
    unsigned char *buf = mt_malloc((size_t)PER_ROUND * MAX_SIZE);
    if (peer != mt_rank) {
        if (mt_is_first())
            send_rounds(peer, buf);
        else
            receive_rounds(peer, buf);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (nodempi) {
        unsigned long long n = mt_pvar_read(session, packed);
        if (!packing_expected())
            MT_CHECK_INT(0, (long long)n, "packed messages with packing off");
        else if (peer != mt_rank && mt_is_first())
            MT_CHECK(n > 0, "no message of a tiny stream was packed");
        MPI_T_pvar_handle_free(session, &packed);
    }
    free(buf);
    return mt_finish_with_mpit(&session);
}
