/* imb_p2p.c - IMB-MPI1's point-to-point patterns that latency.c and bw.c do not cover, with
 * IMB's timing (slowest rank's mean time per iteration, t_max):
 *   pingping  ranks paired (0,1), (2,3), ...: both partners MPI_Isend, MPI_Recv, MPI_Wait at
 *             once (an odd last rank only joins the timing agreement);
 *   sendrecv  periodic chain: MPI_Sendrecv to the right neighbour, from the left one;
 *   exchange  MPI_Isend to left and right, MPI_Recv from left and right, MPI_Waitall.
 * x is the message bytes (IMB's 0 B - 4 MiB by default).
 * Output: <pattern>,<bytes>,<ranks>,lat_us,<microseconds> */
#include "common.h"

typedef struct {
    char *s, *r;
    int count, rank, n;
} ctx_t;

#define W MPI_COMM_WORLD

static void pingping(void *p)
{
    ctx_t *c = p;
    int partner = c->rank ^ 1;
    if (partner >= c->n)
        return;
    MPI_Request q;
    MPI_Isend(c->s, c->count, MPI_BYTE, partner, 0, W, &q);
    MPI_Recv(c->r, c->count, MPI_BYTE, partner, 0, W, MPI_STATUS_IGNORE);
    MPI_Wait(&q, MPI_STATUS_IGNORE);
}

static void sendrecv(void *p)
{
    ctx_t *c = p;
    int right = (c->rank + 1) % c->n, left = (c->rank + c->n - 1) % c->n;
    MPI_Sendrecv(c->s, c->count, MPI_BYTE, right, 0, c->r, c->count, MPI_BYTE, left, 0, W,
                 MPI_STATUS_IGNORE);
}

/* Two receive buffers, as IMB: from the left into the first half, from the right the second. */
static void exchange(void *p)
{
    ctx_t *c = p;
    int right = (c->rank + 1) % c->n, left = (c->rank + c->n - 1) % c->n;
    MPI_Request q[2];
    MPI_Isend(c->s, c->count, MPI_BYTE, left, 0, W, &q[0]);
    MPI_Isend(c->s, c->count, MPI_BYTE, right, 0, W, &q[1]);
    MPI_Recv(c->r, c->count, MPI_BYTE, left, 0, W, MPI_STATUS_IGNORE);
    MPI_Recv(c->r + c->count, c->count, MPI_BYTE, right, 0, W, MPI_STATUS_IGNORE);
    nb_waitall(2, q);
}

static const struct {
    const char *name;
    void (*fn)(void *);
} patterns[] = {
    {"pingping", pingping},
    {"sendrecv", sendrecv},
    {"exchange", exchange},
};

int main(int argc, char **argv)
{
    nb_opts o;
    nb_init(&argc, &argv, &o, "0,1:4M", 0, "  -c  pingping,sendrecv,exchange\n");
    nb_require_ranks(&o, 2, "imb_p2p");
    size_t max = o.sizes[o.nsizes - 1];
    ctx_t c = {nb_alloc(max), nb_alloc(2 * max), 0, o.rank, o.nranks};
    for (size_t k = 0; k < sizeof patterns / sizeof patterns[0]; k++) {
        if (!nb_selected(&o, patterns[k].name))
            continue;
        for (int i = 0; i < o.nsizes; i++) {
            c.count = (int)o.sizes[i];
            double t = nb_max(nb_time(&o, W, NULL, patterns[k].fn, &c), W);
            nb_emit(&o, patterns[k].name, (double)o.sizes[i], "lat_us", t * 1e6);
        }
    }
    nb_finalize();
    return 0;
}
