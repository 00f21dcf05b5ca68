/* latency.c - ping-pong latency between ranks 0 and 1 (seed 001 section 3; OSU osu_latency).
 * Rank 0 sends size bytes, rank 1 sends them back; one-way latency = round trip / 2, averaged
 * over as many round trips as fill the time budget. The same two buffers are reused, so this
 * is the in-cache case. Other ranks, if any, only join the timing agreement.
 * Output: latency,<bytes>,<ranks>,lat_us,<one-way microseconds> */
#include "common.h"

typedef struct {
    char *sbuf, *rbuf;
    int count, rank;
} ctx_t;

static void pingpong(void *p)
{
    ctx_t *c = p;
    if (c->rank == 0) {
        MPI_Send(c->sbuf, c->count, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
        MPI_Recv(c->rbuf, c->count, MPI_BYTE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (c->rank == 1) {
        MPI_Recv(c->rbuf, c->count, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(c->sbuf, c->count, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
    }
}

int main(int argc, char **argv)
{
    nb_opts o;
    nb_init(&argc, &argv, &o, "1:4M", 0, NULL);
    nb_require_ranks(&o, 2, "latency");
    size_t max = o.sizes[o.nsizes - 1];
    ctx_t c = {nb_alloc(max), nb_alloc_offset(max, o.recv_offset), 0, o.rank};
    for (int i = 0; i < o.nsizes; i++) {
        c.count = (int)o.sizes[i];
        double t = nb_time(&o, MPI_COMM_WORLD, NULL, pingpong, &c);
        nb_emit(&o, "latency", (double)o.sizes[i], "lat_us", t / 2 * 1e6);
    }
    nb_finalize();
    return 0;
}
