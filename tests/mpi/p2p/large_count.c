/* large_count.c - the MPI-4 large-count (_c) point-to-point forms: every send mode, blocking,
 * nonblocking and persistent, Sendrecv(_replace)_c and Mrecv_c/Imrecv_c, between ranks 0 and 1
 * with MPI_Count counts (small and past the eager limit), each message's contents and its
 * MPI_Get_count_c checked. Message sizes > 2^31 are covered by p2p_huge. */
#include "mpitest.h"

#include <string.h>

enum { N_SMALL = 10, N_BIG = 50000 }; /* ints: 40 B and 200 kB (eager and rendezvous) */

static void fill(int *v, MPI_Count n, int seed)
{
    for (MPI_Count i = 0; i < n; i++)
        v[i] = seed * 1000003 + (int)i;
}

static void expect(const int *v, MPI_Count n, int seed, const char *what)
{
    for (MPI_Count i = 0; i < n; i++)
        if (v[i] != seed * 1000003 + (int)i) {
            MT_CHECK(0, "%s: element %lld is %d, expected %d", what, (long long)i, v[i],
                     seed * 1000003 + (int)i);
            return;
        }
}

static void check_count(const MPI_Status *st, MPI_Count n, const char *what)
{
    MPI_Count got = -1;
    MT_MPI(MPI_Get_count_c(st, MPI_INT, &got));
    MT_CHECK(got == n, "%s: MPI_Get_count_c %lld, expected %lld", what, (long long)got,
             (long long)n);
}

/* Rank 0 sends with `kind`, rank 1 receives with MPI_Recv_c (or its own pick). */
static void one_send(int kind, MPI_Count n, int *buf, int seed)
{
    const char *names[] = {"Bsend_c", "Ssend_c", "Rsend_c", "Ibsend_c", "Issend_c", "Irsend_c",
                           "Send_init_c", "Bsend_init_c", "Ssend_init_c", "Rsend_init_c"};
    MPI_Request req;
    MPI_Status st;
    if (mt_rank == 0) {
        fill(buf, n, seed);
        /* Rsend needs the receive posted: rank 1 says so first */
        int ready;
        MT_MPI(MPI_Recv(&ready, 1, MPI_INT, 1, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        switch (kind) {
        case 0: MT_MPI(MPI_Bsend_c(buf, n, MPI_INT, 1, kind, MPI_COMM_WORLD)); break;
        case 1: MT_MPI(MPI_Ssend_c(buf, n, MPI_INT, 1, kind, MPI_COMM_WORLD)); break;
        case 2: MT_MPI(MPI_Rsend_c(buf, n, MPI_INT, 1, kind, MPI_COMM_WORLD)); break;
        case 3: MT_MPI(MPI_Ibsend_c(buf, n, MPI_INT, 1, kind, MPI_COMM_WORLD, &req)); break;
        case 4: MT_MPI(MPI_Issend_c(buf, n, MPI_INT, 1, kind, MPI_COMM_WORLD, &req)); break;
        case 5: MT_MPI(MPI_Irsend_c(buf, n, MPI_INT, 1, kind, MPI_COMM_WORLD, &req)); break;
        case 6: MT_MPI(MPI_Send_init_c(buf, n, MPI_INT, 1, kind, MPI_COMM_WORLD, &req)); break;
        case 7: MT_MPI(MPI_Bsend_init_c(buf, n, MPI_INT, 1, kind, MPI_COMM_WORLD, &req)); break;
        case 8: MT_MPI(MPI_Ssend_init_c(buf, n, MPI_INT, 1, kind, MPI_COMM_WORLD, &req)); break;
        case 9: MT_MPI(MPI_Rsend_init_c(buf, n, MPI_INT, 1, kind, MPI_COMM_WORLD, &req)); break;
        }
        if (kind >= 6)
            MT_MPI(MPI_Start(&req));
        if (kind >= 3)
            MT_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
        if (kind >= 6)
            MT_MPI(MPI_Request_free(&req));
    } else if (mt_rank == 1) {
        memset(buf, 0, sizeof(int) * (size_t)n);
        if (kind == 9) { /* persistent receive for the persistent ready send */
            MT_MPI(MPI_Recv_init_c(buf, n, MPI_INT, 0, kind, MPI_COMM_WORLD, &req));
            MT_MPI(MPI_Start(&req));
        } else {
            MT_MPI(MPI_Irecv_c(buf, n, MPI_INT, 0, kind, MPI_COMM_WORLD, &req));
        }
        int ready = 1;
        MT_MPI(MPI_Send(&ready, 1, MPI_INT, 0, 99, MPI_COMM_WORLD));
        MT_MPI(MPI_Wait(&req, &st));
        if (kind == 9)
            MT_MPI(MPI_Request_free(&req));
        expect(buf, n, seed, names[kind]);
        check_count(&st, n, names[kind]);
    }
}

static void sendrecv_forms(MPI_Count n, int *a, int *b)
{
    if (mt_rank > 1)
        return;
    int peer = 1 - mt_rank;
    MPI_Status st;
    fill(a, n, 7 + mt_rank);
    memset(b, 0, sizeof(int) * (size_t)n);
    MT_MPI(MPI_Sendrecv_c(a, n, MPI_INT, peer, 20, b, n, MPI_INT, peer, 20, MPI_COMM_WORLD, &st));
    expect(b, n, 7 + peer, "Sendrecv_c");
    check_count(&st, n, "Sendrecv_c");
    fill(a, n, 11 + mt_rank);
    MT_MPI(MPI_Sendrecv_replace_c(a, n, MPI_INT, peer, 21, peer, 21, MPI_COMM_WORLD, &st));
    expect(a, n, 11 + peer, "Sendrecv_replace_c");
    check_count(&st, n, "Sendrecv_replace_c");
    /* matched probe + Mrecv_c, then Improbe + Imrecv_c */
    fill(a, n, 13 + mt_rank);
    MPI_Request sreq, rreq;
    MPI_Message msg;
    MT_MPI(MPI_Isend_c(a, n, MPI_INT, peer, 22, MPI_COMM_WORLD, &sreq));
    MT_MPI(MPI_Mprobe(peer, 22, MPI_COMM_WORLD, &msg, &st));
    MT_MPI(MPI_Mrecv_c(b, n, MPI_INT, &msg, &st));
    MT_MPI(MPI_Wait(&sreq, MPI_STATUS_IGNORE));
    expect(b, n, 13 + peer, "Mrecv_c");
    check_count(&st, n, "Mrecv_c");
    MT_MPI(MPI_Isend_c(a, n, MPI_INT, peer, 23, MPI_COMM_WORLD, &sreq));
    MT_MPI(MPI_Mprobe(peer, 23, MPI_COMM_WORLD, &msg, &st));
    MT_MPI(MPI_Imrecv_c(b, n, MPI_INT, &msg, &rreq));
    MT_MPI(MPI_Wait(&rreq, &st));
    MT_MPI(MPI_Wait(&sreq, MPI_STATUS_IGNORE));
    expect(b, n, 13 + peer, "Imrecv_c");
    check_count(&st, n, "Imrecv_c");
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    mt_require_ranks(2);
    int *a = mt_malloc(sizeof(int) * N_BIG), *b = mt_malloc(sizeof(int) * N_BIG);
    int bsize = (int)sizeof(int) * N_BIG + 4 * MPI_BSEND_OVERHEAD;
    void *attached = mt_malloc((size_t)bsize);
    MT_MPI(MPI_Buffer_attach(attached, bsize));
    const MPI_Count counts[] = {N_SMALL, N_BIG};
    for (int c = 0; c < 2; c++) {
        for (int kind = 0; kind < 10; kind++) {
            one_send(kind, counts[c], a, 100 * c + kind);
            MT_MPI(MPI_Barrier(MPI_COMM_WORLD));
        }
        sendrecv_forms(counts[c], a, b);
    }
    void *detached;
    int dsize;
    MT_MPI(MPI_Buffer_detach(&detached, &dsize));
    free(attached);
    free(a);
    free(b);
    return mt_finish();
}
