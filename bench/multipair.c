/* multipair.c - multi-pair bandwidth and latency, with and without buffer reuse
 * (seed 001 sections 3.1-3.2; OSU osu_mbw_mr). Rank i < n/2 pairs with rank i + n/2; all pairs
 * run at once. bw: each sender posts a window of -w messages from distinct buffers, the receiver
 * acks the whole window; aggregate MB/s = pairs * window * size / slowest window time.
 * lat: every pair ping-pongs; mean one-way time over pairs.
 * noreuse: each window (or ping) uses the next slice of a pool >= 4x the last-level cache, so
 * buffers are cold, as in 3.1 where every message has its own buffer. reuse: the same buffers every
 * iteration, the sender rewriting them first (untimed), as in 3.2.
 * Output: multipair,<bytes>,<ranks>,{bw_noreuse_MBps,bw_reuse_MBps,lat_noreuse_us,lat_reuse_us},v */
#include "common.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    char *sbuf, *rbuf;      /* pools */
    size_t pool, size;      /* pool bytes, message bytes */
    size_t slots;           /* units (windows or messages) that fit in the pool */
    size_t k;               /* iteration counter, picks the slice */
    int window, reuse;
    int peer, sender;       /* peer < 0: odd rank out, idle */
    MPI_Request *req;
} ctx_t;

static char *slice(ctx_t *c, char *pool, size_t unit)
{
    return c->reuse ? pool : pool + (c->k % c->slots) * unit;
}

static void rewrite_window(void *p)
{
    ctx_t *c = p;
    if (c->sender && c->peer >= 0)
        memset(c->sbuf, (int)(c->k & 0x7f) + 1, c->size * (size_t)c->window);
}

static void rewrite_one(void *p)
{
    ctx_t *c = p;
    if (c->peer >= 0)
        memset(c->sbuf, (int)(c->k & 0x7f) + 1, c->size);
}

static void bw_window(void *p)
{
    ctx_t *c = p;
    size_t unit = c->size * (size_t)c->window;
    int n = (int)c->size, ack = 0;
    if (c->peer < 0)
        return;
    if (c->sender) {
        char *b = slice(c, c->sbuf, unit);
        for (int w = 0; w < c->window; w++)
            MPI_Isend(b + (size_t)w * c->size, n, MPI_BYTE, c->peer, 1, MPI_COMM_WORLD, &c->req[w]);
        nb_waitall(c->window, c->req);
        MPI_Recv(&ack, 1, MPI_INT, c->peer, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
        char *b = slice(c, c->rbuf, unit);
        for (int w = 0; w < c->window; w++)
            MPI_Irecv(b + (size_t)w * c->size, n, MPI_BYTE, c->peer, 1, MPI_COMM_WORLD, &c->req[w]);
        nb_waitall(c->window, c->req);
        MPI_Send(&ack, 1, MPI_INT, c->peer, 2, MPI_COMM_WORLD);
    }
    c->k++;
}

static void pingpong(void *p)
{
    ctx_t *c = p;
    int n = (int)c->size;
    if (c->peer < 0)
        return;
    char *s = slice(c, c->sbuf, c->size), *r = slice(c, c->rbuf, c->size);
    if (c->sender) {
        MPI_Send(s, n, MPI_BYTE, c->peer, 3, MPI_COMM_WORLD);
        MPI_Recv(r, n, MPI_BYTE, c->peer, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
        MPI_Recv(r, n, MPI_BYTE, c->peer, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(s, n, MPI_BYTE, c->peer, 3, MPI_COMM_WORLD);
    }
    c->k++;
}

int main(int argc, char **argv)
{
    nb_opts o;
    nb_init(&argc, &argv, &o, "1:4M", 0, "  -c  bw,lat (default both)\n");
    nb_require_ranks(&o, 2, "multipair");
    int pairs = o.nranks / 2;
    ctx_t c;
    memset(&c, 0, sizeof c);
    c.window = o.window;
    c.sender = o.rank < pairs;
    c.peer = o.rank < pairs ? o.rank + pairs : o.rank < 2 * pairs ? o.rank - pairs : -1;
    c.req = malloc((size_t)o.window * sizeof(MPI_Request));

    /* Pool: at least 4x the LLC so a slice is evicted before it comes round again, at least one
     * full window of the largest size; 256 MiB per rank is the most we ask for cold buffers. */
    size_t maxwin = o.sizes[o.nsizes - 1] * (size_t)o.window, cold = 4 * nb_llc_bytes();
    if (cold > ((size_t)256 << 20))
        cold = (size_t)256 << 20;
    c.pool = maxwin > cold ? maxwin : cold;
    c.sbuf = nb_alloc(c.pool);
    c.rbuf = nb_alloc(c.pool);

    static const char *const bw_metric[2] = {"bw_noreuse_MBps", "bw_reuse_MBps"};
    static const char *const lat_metric[2] = {"lat_noreuse_us", "lat_reuse_us"};
    for (int i = 0; i < o.nsizes; i++) {
        c.size = o.sizes[i] ? o.sizes[i] : 1;
        for (c.reuse = 0; c.reuse < 2; c.reuse++) {
            if (nb_selected(&o, "bw")) {
                c.slots = c.pool / (c.size * (size_t)o.window);
                c.k = 0;
                double t = nb_max(nb_time(&o, MPI_COMM_WORLD, c.reuse ? rewrite_window : NULL,
                                          bw_window, &c), MPI_COMM_WORLD);
                nb_emit(&o, "multipair", (double)o.sizes[i], bw_metric[c.reuse],
                        (double)pairs * o.window * (double)c.size / t / 1e6);
            }
            if (nb_selected(&o, "lat")) {
                c.slots = c.pool / c.size;
                c.k = 0;
                double t = nb_time(&o, MPI_COMM_WORLD, c.reuse ? rewrite_one : NULL, pingpong, &c);
                double mine = c.sender && c.peer >= 0 ? t / 2 : 0, sum = 0;
                MPI_Reduce(&mine, &sum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
                nb_emit(&o, "multipair", (double)o.sizes[i], lat_metric[c.reuse],
                        sum / pairs * 1e6);
            }
        }
    }
    nb_finalize();
    return 0;
}
