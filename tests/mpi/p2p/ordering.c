/* ordering: non-overtaking. (1) One sender, one receiver (pairs; self when unpaired): 40
 * messages of mixed sizes (0 B..1 MiB+1, small after large) arrive in send order when received
 * with a specific source, with MPI_ANY_SOURCE, with MPI_ANY_TAG (tags vary), and into
 * pre-posted wildcard receives. (2) All other ranks send 30 mixed-size messages each to rank 0,
 * which receives with MPI_ANY_SOURCE (ANY_TAG, then a fixed tag) and checks per-sender order. */
#include "../common/mpitest.h"

#define NSEQ 40
static const int pat1[] = {1 << 18, 8, 0, 65536, 3, (1 << 20) + 1, 16, 100000};
#define SIZE1(i) pat1[(i) % 8]
#define MAX1 ((1 << 20) + 1)
#define NMANY 30
static const int pat2[] = {8, 100, 8, 65537, 8, 300000};
#define SIZE2(i) pat2[(i) % 6]
#define MAX2 300000

static void one_to_one(void)
{
    int peer = mt_peer();
    int i_send = mt_is_first() || peer == mt_rank;
    int i_recv = !mt_is_first() || peer == mt_rank;
    unsigned char *sbuf[NSEQ], *rbuf[NSEQ];
    MPI_Request sreq[NSEQ], rreq[NSEQ];
    MPI_Status st[NSEQ];
    char what[128];
    for (int i = 0; i < NSEQ; i++) {
        sbuf[i] = mt_malloc((size_t)SIZE1(i));
        rbuf[i] = mt_malloc(MAX1);
        sreq[i] = rreq[i] = MPI_REQUEST_NULL;
    }
    for (int mode = 0; mode < 4; mode++) {
        /* mode 0: Recv(peer, tag 0); 1: Recv(ANY_SOURCE, tag 0); 2: Recv(peer, ANY_TAG) with
         * tags seq % 5; 3: pre-posted Irecv(ANY_SOURCE, ANY_TAG) with tags seq % 5 */
        int vary_tag = mode >= 2;
        if (mode == 3 && i_recv) {
            int ready = 1;
            for (int i = 0; i < NSEQ; i++)
                MPI_Irecv(rbuf[i], MAX1, MPI_BYTE, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD,
                          &rreq[i]);
            if (peer != mt_rank)
                MPI_Send(&ready, 1, MPI_INT, peer, 999, MPI_COMM_WORLD);
        }
        if (i_send) {
            if (mode == 3 && peer != mt_rank) {
                int ready = 0;
                MPI_Recv(&ready, 1, MPI_INT, peer, 999, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            }
            for (int i = 0; i < NSEQ; i++) {
                mt_fill(sbuf[i], (size_t)SIZE1(i), (uint64_t)(mode * 100 + i));
                MPI_Isend(sbuf[i], SIZE1(i), MPI_BYTE, peer, vary_tag ? i % 5 : 0, MPI_COMM_WORLD,
                          &sreq[i]);
            }
        }
        if (i_recv) {
            for (int i = 0; i < NSEQ; i++) {
                if (mode == 0)
                    MPI_Recv(rbuf[i], MAX1, MPI_BYTE, peer, 0, MPI_COMM_WORLD, &st[i]);
                else if (mode == 1)
                    MPI_Recv(rbuf[i], MAX1, MPI_BYTE, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, &st[i]);
                else if (mode == 2)
                    MPI_Recv(rbuf[i], MAX1, MPI_BYTE, peer, MPI_ANY_TAG, MPI_COMM_WORLD, &st[i]);
            }
            if (mode == 3)
                MPI_Waitall(NSEQ, rreq, st);
            for (int i = 0; i < NSEQ; i++) {
                snprintf(what, sizeof what, "mode %d: message %d (%d bytes)", mode, i, SIZE1(i));
                MT_CHECK_STATUS(&st[i], peer, vary_tag ? i % 5 : 0, MPI_BYTE, SIZE1(i), what);
                MT_VERIFY(rbuf[i], (size_t)SIZE1(i), (uint64_t)(mode * 100 + i), what);
            }
        }
        if (i_send)
            MPI_Waitall(NSEQ, sreq, MPI_STATUSES_IGNORE);
        MPI_Barrier(MPI_COMM_WORLD);
    }
    for (int i = 0; i < NSEQ; i++) {
        free(sbuf[i]);
        free(rbuf[i]);
    }
}

static void many_to_one(void)
{
    unsigned char *buf = mt_malloc(MAX2);
    int *next = mt_malloc(sizeof(int) * (size_t)mt_size);
    MPI_Status st;
    char what[128];
    for (int mode = 0; mode < 2; mode++) { /* 0: ANY_TAG (tags seq % 3), 1: tag 0 */
        if (mt_rank != 0) {
            for (int i = 0; i < NMANY; i++) {
                int hdr[2] = {mt_rank, i};
                mt_fill(buf, (size_t)SIZE2(i), (uint64_t)(mt_rank * 1000 + i));
                memcpy(buf, hdr, sizeof hdr);
                MPI_Send(buf, SIZE2(i), MPI_BYTE, 0, mode ? 0 : i % 3, MPI_COMM_WORLD);
            }
        } else {
            memset(next, 0, sizeof(int) * (size_t)mt_size);
            for (int k = 0; k < NMANY * (mt_size - 1); k++) {
                int hdr[2];
                MPI_Recv(buf, MAX2, MPI_BYTE, MPI_ANY_SOURCE, mode ? 0 : MPI_ANY_TAG,
                         MPI_COMM_WORLD, &st);
                int src = st.MPI_SOURCE;
                if (src < 1 || src >= mt_size) {
                    mt_fail(__FILE__, __LINE__, "mode %d: status.MPI_SOURCE %d out of range", mode,
                            src);
                    continue;
                }
                int seq = next[src]++;
                snprintf(what, sizeof what, "mode %d: message %d of sender %d", mode, seq, src);
                if (seq >= NMANY) {
                    mt_fail(__FILE__, __LINE__, "%s: too many messages", what);
                    continue;
                }
                MT_CHECK_STATUS(&st, src, mode ? 0 : seq % 3, MPI_BYTE, SIZE2(seq), what);
                memcpy(hdr, buf, sizeof hdr);
                MT_CHECK(hdr[0] == src && hdr[1] == seq,
                         "%s: overtaken, got message %d of sender %d instead", what, hdr[1],
                         hdr[0]);
                unsigned char *ref = mt_malloc((size_t)SIZE2(seq));
                mt_fill(ref, (size_t)SIZE2(seq), (uint64_t)(src * 1000 + seq));
                MT_CHECK(memcmp(ref + 8, buf + 8, (size_t)SIZE2(seq) - 8) == 0, "%s: wrong data",
                         what);
                free(ref);
            }
        }
        MPI_Barrier(MPI_COMM_WORLD);
    }
    free(buf);
    free(next);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    one_to_one();
    if (mt_size > 1)
        many_to_one();
    return mt_finish();
}
