/* bw.c - windowed bandwidth between ranks 0 and 1, unidirectional and bidirectional
 * (seed 001 section 3.1 window of 64; OSU osu_bw / osu_bibw). Uni: rank 0 posts -w Isends,
 * rank 1 -w Irecvs into distinct buffers, then a 4-byte ack closes the window. Bi: both ranks
 * post -w Irecvs and -w Isends at once. Bandwidth = bytes moved / window time, MB = 1e6 bytes.
 * Every receive of a window has its own buffer; with -c uni_onebuf / bi_onebuf (only when named)
 * all of them land in one buffer, as osu_bw and osu_bibw do, so the destination stays in cache.
 * Output: bw,<bytes>,<ranks>,{uni,bi,uni_onebuf,bi_onebuf}_MBps,<MB/s> */
#include "common.h"

#include <stdlib.h>

typedef struct {
    char *sbuf, *rbuf; /* one send buffer (read concurrently, fine since MPI-3), window recv buffers */
    MPI_Request *req;
    size_t size;
    int window, rank;
    int onebuf; /* every receive into rbuf itself (OSU) */
} ctx_t;

static char *recv_slot(const ctx_t *c, int w)
{
    return c->onebuf ? c->rbuf : c->rbuf + (size_t)w * c->size;
}

static void uni(void *p)
{
    ctx_t *c = p;
    int ack = 0, n = (int)c->size;
    if (c->rank == 0) {
        for (int w = 0; w < c->window; w++)
            MPI_Isend(c->sbuf, n, MPI_BYTE, 1, 1, MPI_COMM_WORLD, &c->req[w]);
        nb_waitall(c->window, c->req);
        MPI_Recv(&ack, 1, MPI_INT, 1, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (c->rank == 1) {
        for (int w = 0; w < c->window; w++)
            MPI_Irecv(recv_slot(c, w), n, MPI_BYTE, 0, 1, MPI_COMM_WORLD, &c->req[w]);
        nb_waitall(c->window, c->req);
        MPI_Send(&ack, 1, MPI_INT, 0, 2, MPI_COMM_WORLD);
    }
}

static void bi(void *p)
{
    ctx_t *c = p;
    int n = (int)c->size;
    if (c->rank > 1)
        return;
    int peer = 1 - c->rank;
    for (int w = 0; w < c->window; w++)
        MPI_Irecv(recv_slot(c, w), n, MPI_BYTE, peer, 1, MPI_COMM_WORLD, &c->req[w]);
    for (int w = 0; w < c->window; w++)
        MPI_Isend(c->sbuf, n, MPI_BYTE, peer, 1, MPI_COMM_WORLD, &c->req[c->window + w]);
    nb_waitall(2 * c->window, c->req);
}

int main(int argc, char **argv)
{
    nb_opts o;
    nb_init(&argc, &argv, &o, "1:4M", 0, "  -c  uni,bi (default both), uni_onebuf,bi_onebuf (OSU: one receive buffer)\n");
    nb_require_ranks(&o, 2, "bw");
    size_t max = o.sizes[o.nsizes - 1];
    ctx_t c = {nb_alloc(max), nb_alloc_offset(max * (size_t)o.window, o.recv_offset),
               malloc(2 * (size_t)o.window * sizeof(MPI_Request)), 0, o.window, o.rank, 0};
    for (int i = 0; i < o.nsizes; i++) {
        c.size = o.sizes[i];
        double bytes = (double)c.size * o.window;
        if (nb_selected(&o, "uni")) {
            double t = nb_time(&o, MPI_COMM_WORLD, NULL, uni, &c);
            nb_emit(&o, "bw", (double)c.size, "uni_MBps", bytes / t / 1e6);
        }
        if (nb_selected(&o, "bi")) {
            double t = nb_time(&o, MPI_COMM_WORLD, NULL, bi, &c);
            nb_emit(&o, "bw", (double)c.size, "bi_MBps", 2 * bytes / t / 1e6);
        }
        /* OSU's single receive buffer: only when asked for by name */
        c.onebuf = 1;
        if (o.select && nb_selected(&o, "uni_onebuf")) {
            double t = nb_time(&o, MPI_COMM_WORLD, NULL, uni, &c);
            nb_emit(&o, "bw", (double)c.size, "uni_onebuf_MBps", bytes / t / 1e6);
        }
        if (o.select && nb_selected(&o, "bi_onebuf")) {
            double t = nb_time(&o, MPI_COMM_WORLD, NULL, bi, &c);
            nb_emit(&o, "bw", (double)c.size, "bi_onebuf_MBps", 2 * bytes / t / 1e6);
        }
        c.onebuf = 0;
    }
    nb_finalize();
    return 0;
}
