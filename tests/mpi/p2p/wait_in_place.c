/* wait_in_place: MPI_Wait / MPI_Waitall on posted receives from one source, the case nodempi
 * completes by watching that peer alone (p2p_wait_recv_in_place), and the calls that take the
 * same path: MPI_Test loops (one look, p2p_test_recv_in_place), MPI_Waitany, Waitsome and
 * Testany over one pending request among null ones. The receiver's rounds cycle through the
 * five ways of completing; the ping-pong mixes them too. Pairs of ranks (even rank
 * sends, odd receives; a rank without partner talks to itself). Each round checks what the
 * in-place completion must keep of the general path:
 *  - order: two receives for the same tag, waited on newest first, still get the messages in
 *    send order (the newest is not the oldest posted: it must not take the first message); the
 *    sender sends when told the receiver waits, so that the messages arrive during the wait;
 *  - tags: receives for tags 2 and 1 posted, messages sent with tags 1 then 2, waited in post
 *    order (the record for the other tag comes first);
 *  - MPI_ANY_TAG and the status (source, tag, count) of every size 0..200 B (fastbox cells,
 *    ring records) and of 40 KiB (beyond the eager record: the general path);
 *  - another communicator's message ahead of the awaited one;
 *  - truncation: a 64 B message into a 16 B receive gives MPI_ERR_TRUNCATE from MPI_Wait;
 *  - a ping-pong of Irecv + Send + Wait and Irecv + Isend + Waitall, payload checked.
 * The testlist also runs it with the in-place receive switched off and with every queue design. */
#include "../common/mpitest.h"

#include <string.h>

enum { ROUNDS = 30, BIG = 40 * 1024, PINGS = 500, GO = 8 };

static void check_bytes(const unsigned char *buf, size_t n, unsigned char v, const char *what)
{
    for (size_t i = 0; i < n; i++)
        if (buf[i] != (unsigned char)(v + i)) {
            MT_CHECK(0, "%s: byte %zu is %u, expected %u", what, i, buf[i],
                     (unsigned char)(v + i));
            return;
        }
}

static void fill_bytes(unsigned char *buf, size_t n, unsigned char v)
{
    for (size_t i = 0; i < n; i++)
        buf[i] = (unsigned char)(v + i);
}

enum { BY_WAIT, BY_TEST, BY_WAITANY, BY_WAITSOME, BY_TESTANY, WAYS };

/* Complete *r the given way; st may be MPI_STATUS_IGNORE. Returns the call's error code (for
 * Waitsome the request's own, from its status). */
static int complete(MPI_Request *r, MPI_Status *st, int way)
{
    MPI_Status local[2];
    int rc = MPI_SUCCESS, flag = 0, index = -1, out = 0, indices[2];
    switch (way) {
    case BY_WAIT:
        return MPI_Wait(r, st);
    case BY_TEST:
        while (rc == MPI_SUCCESS && !flag)
            rc = MPI_Test(r, &flag, st);
        return rc;
    case BY_WAITANY: {
        MPI_Request a[3] = {MPI_REQUEST_NULL, *r, MPI_REQUEST_NULL};
        rc = MPI_Waitany(3, a, &index, st);
        *r = a[1];
        MT_CHECK_INT(1, index, "MPI_Waitany's index");
        return rc;
    }
    case BY_WAITSOME: {
        MPI_Request a[2] = {*r, MPI_REQUEST_NULL};
        while (rc == MPI_SUCCESS && out == 0)
            rc = MPI_Waitsome(2, a, &out, indices, local);
        *r = a[0];
        MT_CHECK(out == 1 && indices[0] == 0, "MPI_Waitsome: %d done, index %d", out, indices[0]);
        if (st != MPI_STATUS_IGNORE)
            *st = local[0];
        return rc == MPI_ERR_IN_STATUS ? local[0].MPI_ERROR : rc;
    }
    default: {
        MPI_Request a[2] = {MPI_REQUEST_NULL, *r};
        while (rc == MPI_SUCCESS && !flag)
            rc = MPI_Testany(2, a, &index, &flag, st);
        *r = a[1];
        MT_CHECK_INT(1, index, "MPI_Testany's index");
        return rc;
    }
    }
}

static void sender(int peer, MPI_Comm other, int round)
{
    static unsigned char buf[BIG];
    int a = 100 + round, b = 200 + round, go;
    /* order: sent when the receiver says it waits (a record already there when the wait starts
     * goes through the progress round; these must arrive while it watches in place) */
    MT_MPI(MPI_Recv(&go, 1, MPI_INT, peer, GO, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    MT_MPI(MPI_Send(&a, 1, MPI_INT, peer, 5, MPI_COMM_WORLD));
    MT_MPI(MPI_Send(&b, 1, MPI_INT, peer, 5, MPI_COMM_WORLD));
    /* tags: 1 first, then 2 */
    MT_MPI(MPI_Recv(&go, 1, MPI_INT, peer, GO, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    MT_MPI(MPI_Send(&a, 1, MPI_INT, peer, 1, MPI_COMM_WORLD));
    MT_MPI(MPI_Send(&b, 1, MPI_INT, peer, 2, MPI_COMM_WORLD));
    /* sizes with MPI_ANY_TAG */
    for (int size = 0; size <= 200; size += 8) {
        fill_bytes(buf, (size_t)size, (unsigned char)(size + round));
        MT_MPI(MPI_Send(buf, size, MPI_BYTE, peer, size % 7, MPI_COMM_WORLD));
    }
    fill_bytes(buf, BIG, (unsigned char)round);
    MT_MPI(MPI_Send(buf, BIG, MPI_BYTE, peer, 3, MPI_COMM_WORLD));
    /* another communicator first */
    MT_MPI(MPI_Send(&b, 1, MPI_INT, peer, 4, other));
    MT_MPI(MPI_Send(&a, 1, MPI_INT, peer, 4, MPI_COMM_WORLD));
    /* truncation */
    fill_bytes(buf, 64, 0);
    MT_MPI(MPI_Send(buf, 64, MPI_BYTE, peer, 6, MPI_COMM_WORLD));
}

static void receiver(int peer, MPI_Comm other, int round)
{
    static unsigned char buf[BIG];
    MPI_Request r[2];
    MPI_Status st;
    int x = -1, y = -1, go = 1, way = round % WAYS;
    /* order: wait on the newer receive first */
    MT_MPI(MPI_Irecv(&x, 1, MPI_INT, peer, 5, MPI_COMM_WORLD, &r[0]));
    MT_MPI(MPI_Irecv(&y, 1, MPI_INT, peer, 5, MPI_COMM_WORLD, &r[1]));
    MT_MPI(MPI_Send(&go, 1, MPI_INT, peer, GO, MPI_COMM_WORLD));
    MT_MPI(complete(&r[1], MPI_STATUS_IGNORE, way));
    MT_MPI(complete(&r[0], MPI_STATUS_IGNORE, way));
    MT_CHECK_INT(100 + round, x, "first of two same-tag receives");
    MT_CHECK_INT(200 + round, y, "second of two same-tag receives");
    /* tags: the tag-2 receive is the oldest posted, the tag-1 message comes first */
    x = y = -1;
    MT_MPI(MPI_Irecv(&y, 1, MPI_INT, peer, 2, MPI_COMM_WORLD, &r[0]));
    MT_MPI(MPI_Irecv(&x, 1, MPI_INT, peer, 1, MPI_COMM_WORLD, &r[1]));
    MT_MPI(MPI_Send(&go, 1, MPI_INT, peer, GO, MPI_COMM_WORLD));
    MT_MPI(complete(&r[0], &st, way));
    MT_CHECK_INT(2, st.MPI_TAG, "tag of the tag-2 receive");
    MT_MPI(complete(&r[1], &st, way));
    MT_CHECK_INT(1, st.MPI_TAG, "tag of the tag-1 receive");
    MT_CHECK_INT(100 + round, x, "tag-1 message");
    MT_CHECK_INT(200 + round, y, "tag-2 message");
    /* sizes, MPI_ANY_TAG, status */
    for (int size = 0; size <= 200; size += 8) {
        memset(buf, 0xee, 256);
        MT_MPI(MPI_Irecv(buf, 256, MPI_BYTE, peer, MPI_ANY_TAG, MPI_COMM_WORLD, &r[0]));
        MT_MPI(complete(&r[0], &st, way));
        MT_CHECK_STATUS(&st, peer, size % 7, MPI_BYTE, size, "sized message");
        check_bytes(buf, (size_t)size, (unsigned char)(size + round), "sized message");
        MT_CHECK_INT(0xee, buf[size], "byte after the message");
    }
    MT_MPI(MPI_Irecv(buf, BIG, MPI_BYTE, peer, 3, MPI_COMM_WORLD, &r[0]));
    MT_MPI(MPI_Waitall(1, r, &st));
    MT_CHECK_STATUS(&st, peer, 3, MPI_BYTE, BIG, "large message");
    check_bytes(buf, BIG, (unsigned char)round, "large message");
    /* another communicator's message ahead of the awaited one */
    x = y = -1;
    MT_MPI(MPI_Irecv(&x, 1, MPI_INT, peer, 4, MPI_COMM_WORLD, &r[0]));
    MT_MPI(complete(&r[0], &st, way));
    MT_CHECK_INT(100 + round, x, "message behind another communicator's");
    MT_MPI(MPI_Recv(&y, 1, MPI_INT, peer, 4, other, MPI_STATUS_IGNORE));
    MT_CHECK_INT(200 + round, y, "the other communicator's message");
    /* truncation */
    MT_MPI(MPI_Irecv(buf, 16, MPI_BYTE, peer, 6, MPI_COMM_WORLD, &r[0]));
    int rc = complete(&r[0], &st, way);
    MT_CHECK_ERRCLASS(rc, MPI_ERR_TRUNCATE, "64 B into a 16 B receive");
}

static void ping_pong(int peer, int first)
{
    unsigned char out[64], in[64];
    MPI_Request r[2];
    for (int i = 0; i < PINGS; i++) {
        size_t n = (size_t)(i % 65);
        memset(in, 0, sizeof in);
        MT_MPI(MPI_Irecv(in, 64, MPI_BYTE, peer, 9, MPI_COMM_WORLD, &r[0]));
        if (first) {
            fill_bytes(out, n, (unsigned char)i);
            if (i % 2)
                MT_MPI(MPI_Send(out, (int)n, MPI_BYTE, peer, 9, MPI_COMM_WORLD));
            else
                MT_MPI(MPI_Isend(out, (int)n, MPI_BYTE, peer, 9, MPI_COMM_WORLD, &r[1]));
            if (i % 2)
                MT_MPI(complete(&r[0], MPI_STATUS_IGNORE, (i / 2) % WAYS));
            else if (i % 4 == 0)
                MT_MPI(MPI_Waitall(2, r, MPI_STATUSES_IGNORE));
            else /* the send first, then the receive alone */
                for (int done = 0, out, idx[2]; done < 2; done += out)
                    MT_MPI(MPI_Waitsome(2, r, &out, idx, MPI_STATUSES_IGNORE));
            check_bytes(in, n, (unsigned char)(i + 1), "reply");
        } else {
            MT_MPI(complete(&r[0], MPI_STATUS_IGNORE, i % WAYS));
            check_bytes(in, n, (unsigned char)i, "ping");
            fill_bytes(out, n, (unsigned char)(i + 1));
            MT_MPI(MPI_Send(out, (int)n, MPI_BYTE, peer, 9, MPI_COMM_WORLD));
        }
    }
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    MPI_Comm other;
    MT_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &other));
    mt_set_errors_return(MPI_COMM_WORLD);
    int peer = mt_peer();
    for (int round = 0; round < ROUNDS; round++) {
        if (peer == mt_rank) /* the odd rank out of an odd count sits this out */
            continue;
        if (mt_is_first()) {
            sender(peer, other, round);
        } else {
            receiver(peer, other, round);
        }
    }
    if (peer != mt_rank)
        ping_pong(peer, mt_is_first());
    MT_MPI(MPI_Comm_free(&other));
    return mt_finish();
}
