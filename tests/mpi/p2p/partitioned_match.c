/* partitioned_match: matching of MPI_Psend_init with MPI_Precv_init by (source, tag, comm) in
 * the order of initialization: two partitioned sends with one tag and a third with another
 * tag, received by requests initialized in a different tag order (after a barrier, so the
 * sends were initialized first) and on a duplicated communicator with the same tags; user
 * messages with the same tags on the same communicator during the rounds stay untouched;
 * MPI_Startall / MPI_Waitall / MPI_Test over several rounds; an intercommunicator; a receiver
 * that starts before its sender exists, an unmatched receive freed; MPI_Parrived on null and
 * inactive requests; MPI_PROC_NULL peers (not
 * under MPICH 4.0.2, which crashes there). */
#include "../common/mpitest.h"

#define ROUNDS 3
#define NCH 3

/* channel c: tag, send layout, receive layout (ints in all: 8 * (c + 1)) */
static const int ch_tag[NCH] = {7, 7, 9};
static const int ch_send_parts[NCH] = {2, 4, 3};
static const int ch_recv_parts[NCH] = {4, 2, 8};

static int ints(int c)
{
    return 24 * (c + 1);
}

static int value(int comm_index, int c, int round, int sender, int i)
{
    return comm_index * 50000000 + c * 10000000 + round * 100000 + sender * 1000 + i;
}

static void run(MPI_Comm comm, int comm_index)
{
    int right = mt_right(), left = mt_left();
    int *sbuf[NCH], *rbuf[NCH];
    MPI_Request sreq[NCH], rreq[NCH];
    for (int c = 0; c < NCH; c++) {
        sbuf[c] = mt_malloc(sizeof(int) * (size_t)ints(c));
        rbuf[c] = mt_malloc(sizeof(int) * (size_t)ints(c));
        MT_MPI(MPI_Psend_init(sbuf[c], ch_send_parts[c], ints(c) / ch_send_parts[c], MPI_INT,
                              right, ch_tag[c], comm, MPI_INFO_NULL, &sreq[c]));
    }
    MPI_Barrier(comm);
    /* receive in the order tag 9, then the two tag 7 channels in their send order */
    const int order[NCH] = {2, 0, 1};
    for (int k = 0; k < NCH; k++) {
        int c = order[k];
        MT_MPI(MPI_Precv_init(rbuf[c], ch_recv_parts[c], ints(c) / ch_recv_parts[c], MPI_INT,
                              left, ch_tag[c], comm, MPI_INFO_NULL, &rreq[c]));
    }
    char what[128];
    for (int round = 0; round < ROUNDS; round++) {
        for (int c = 0; c < NCH; c++) {
            for (int i = 0; i < ints(c); i++) {
                sbuf[c][i] = value(comm_index, c, round, mt_rank, i);
                rbuf[c][i] = -1;
            }
        }
        MT_MPI(MPI_Startall(NCH, rreq));
        MT_MPI(MPI_Startall(NCH, sreq));
        /* a user message with a partitioned tag, between the partitions */
        int user_out = 4242 + round * 10 + mt_rank, user_in = -1;
        MT_MPI(MPI_Pready(ch_send_parts[0] - 1, sreq[0]));
        MT_MPI(MPI_Sendrecv(&user_out, 1, MPI_INT, right, 7, &user_in, 1, MPI_INT, left, 7, comm,
                            MPI_STATUS_IGNORE));
        MT_CHECK_INT(4242 + round * 10 + left, user_in, "user message with tag 7");
        for (int c = NCH - 1; c >= 0; c--)
            for (int p = 0; p < ch_send_parts[c]; p++)
                if (c != 0 || p != ch_send_parts[0] - 1)
                    MT_MPI(MPI_Pready(p, sreq[c]));
        if (round == 1) { /* complete the receives by testing */
            for (int c = 0; c < NCH; c++) {
                int flag = 0;
                long tries = 0;
                MPI_Status st;
                while (!flag) {
                    MT_MPI(MPI_Test(&rreq[c], &flag, &st));
                    MT_ASSERT(++tries < 100000000L, "MPI_Test never completed");
                }
                snprintf(what, sizeof what, "comm %d round %d channel %d status", comm_index,
                         round, c);
                MT_CHECK_STATUS(&st, left, ch_tag[c], MPI_INT, ints(c), what);
            }
        } else {
            MPI_Status st[NCH];
            MT_MPI(MPI_Waitall(NCH, rreq, st));
            for (int c = 0; c < NCH; c++) {
                snprintf(what, sizeof what, "comm %d round %d channel %d status", comm_index,
                         round, c);
                MT_CHECK_STATUS(&st[c], left, ch_tag[c], MPI_INT, ints(c), what);
            }
        }
        MT_MPI(MPI_Waitall(NCH, sreq, MPI_STATUSES_IGNORE));
        for (int c = 0; c < NCH; c++) {
            int bad = 0;
            for (int i = 0; i < ints(c); i++) {
                if (rbuf[c][i] != value(comm_index, c, round, left, i) && bad++ < 3) {
                    snprintf(what, sizeof what, "comm %d round %d channel %d int %d",
                             comm_index, round, c, i);
                    MT_CHECK_INT(value(comm_index, c, round, left, i), rbuf[c][i], what);
                }
            }
        }
    }
    for (int c = 0; c < NCH; c++) {
        MT_MPI(MPI_Request_free(&sreq[c]));
        MT_MPI(MPI_Request_free(&rreq[c]));
        free(sbuf[c]);
        free(rbuf[c]);
    }
}

/* Over an intercommunicator between even and odd world ranks: each rank exchanges with the
 * rank of the same local rank in the other group. */
static void intercomm(void)
{
    MPI_Comm local, inter;
    MPI_Comm_split(MPI_COMM_WORLD, mt_rank % 2, mt_rank, &local);
    MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, 1 - mt_rank % 2, 5, &inter);
    int me, sbuf[12], rbuf[12];
    MPI_Comm_rank(local, &me);
    MPI_Request s, r;
    MT_MPI(MPI_Psend_init(sbuf, 4, 3, MPI_INT, me, 3, inter, MPI_INFO_NULL, &s));
    MT_MPI(MPI_Precv_init(rbuf, 3, 4, MPI_INT, me, 3, inter, MPI_INFO_NULL, &r));
    int peer = mt_rank % 2 ? mt_rank - 1 : mt_rank + 1;
    for (int round = 0; round < 2; round++) {
        for (int i = 0; i < 12; i++) {
            sbuf[i] = mt_rank * 1000 + round * 100 + i;
            rbuf[i] = -1;
        }
        MT_MPI(MPI_Start(&r));
        MT_MPI(MPI_Start(&s));
        MT_MPI(MPI_Pready_range(2, 3, s));
        MT_MPI(MPI_Pready_range(0, 1, s));
        MT_MPI(MPI_Wait(&s, MPI_STATUS_IGNORE));
        MT_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
        for (int i = 0; i < 12; i++)
            MT_CHECK_INT(peer * 1000 + round * 100 + i, rbuf[i], "intercommunicator data");
    }
    MT_MPI(MPI_Request_free(&s));
    MT_MPI(MPI_Request_free(&r));
    MPI_Comm_free(&inter);
    MPI_Comm_free(&local);
}

/* The receiver starts (and polls) before the sender has initialized its side; an unmatched
 * receive request is freed on the way. */
static void late_sender(void)
{
    int buf[16];
    MPI_Request r, unused;
    int right = mt_right(), left = mt_left();
    MT_MPI(MPI_Precv_init(buf, 2, 8, MPI_INT, left, 77, MPI_COMM_WORLD, MPI_INFO_NULL, &unused));
    MT_MPI(MPI_Request_free(&unused));
    for (int i = 0; i < 16; i++)
        buf[i] = -1;
    MT_MPI(MPI_Precv_init(buf, 4, 4, MPI_INT, left, 5, MPI_COMM_WORLD, MPI_INFO_NULL, &r));
    MT_MPI(MPI_Start(&r));
    int flag = 1;
    MT_MPI(MPI_Parrived(r, 0, &flag));
    MT_CHECK(!flag, "partition 0 arrived before the sender initialized");
    MPI_Barrier(MPI_COMM_WORLD);
    int out[16];
    MPI_Request s;
    for (int i = 0; i < 16; i++)
        out[i] = mt_rank * 100 + i;
    MT_MPI(MPI_Psend_init(out, 8, 2, MPI_INT, right, 5, MPI_COMM_WORLD, MPI_INFO_NULL, &s));
    MT_MPI(MPI_Start(&s));
    MT_MPI(MPI_Pready_range(0, 7, s));
    MT_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    MT_MPI(MPI_Wait(&s, MPI_STATUS_IGNORE));
    for (int i = 0; i < 16; i++)
        MT_CHECK_INT(left * 100 + i, buf[i], "late sender data");
    MT_MPI(MPI_Request_free(&r));
    MT_MPI(MPI_Request_free(&s));
}

static void proc_null(void)
{
    int buf[6] = {1, 2, 3, 4, 5, 6};
    MPI_Request s, r;
    MPI_Status st;
    MT_MPI(MPI_Psend_init(buf, 3, 2, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD, MPI_INFO_NULL,
                          &s));
    MT_MPI(MPI_Precv_init(buf, 2, 3, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD, MPI_INFO_NULL,
                          &r));
    for (int round = 0; round < 2; round++) {
        MT_MPI(MPI_Start(&s));
        MT_MPI(MPI_Start(&r));
        MT_MPI(MPI_Pready_range(0, 2, s));
        MT_MPI(MPI_Wait(&s, MPI_STATUS_IGNORE));
        MT_MPI(MPI_Wait(&r, &st));
        MT_CHECK_INT(MPI_PROC_NULL, st.MPI_SOURCE, "MPI_PROC_NULL receive: MPI_SOURCE");
    }
    MT_CHECK_INT(6, buf[5], "MPI_PROC_NULL receive left the buffer alone");
    MT_MPI(MPI_Request_free(&s));
    MT_MPI(MPI_Request_free(&r));
}

/* MPI_Parrived on a null request or an inactive (not yet started) receive: flag = true (MPI-4.1
 * 4.2.3); found by Open MPI's public partitioned tests (parrived1). */
static void arrived_null_inactive(void)
{
    int flag = 0, buf[4];
    MT_MPI(MPI_Parrived(MPI_REQUEST_NULL, 0, &flag));
    MT_CHECK(flag, "MPI_Parrived(MPI_REQUEST_NULL) gives flag = true");
    MPI_Request r;
    MT_MPI(MPI_Precv_init(buf, 2, 2, MPI_INT, mt_left(), 11, MPI_COMM_WORLD, MPI_INFO_NULL, &r));
    flag = 0;
    MT_MPI(MPI_Parrived(r, 1, &flag));
    MT_CHECK(flag, "MPI_Parrived on an inactive receive gives flag = true");
    MT_MPI(MPI_Request_free(&r));
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    MPI_Comm dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    run(MPI_COMM_WORLD, 0);
    run(dup, 1);
    MPI_Comm_free(&dup);
    if (mt_size % 2 == 0)
        intercomm();
    late_sender();
    if (!mt_library_is("MPICH")) /* MPICH 4.0.2 crashes on the null request */
        arrived_null_inactive();
    if (!mt_library_is("MPICH")) /* MPICH 4.0.2 crashes in MPI_Psend_init to MPI_PROC_NULL */
        proc_null();
    return mt_finish();
}
