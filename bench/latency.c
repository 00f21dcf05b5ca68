/* latency.c - ping-pong latency between ranks 0 and 1 (seed 001 section 3; OSU osu_latency).
 * Rank 0 sends size bytes, rank 1 sends them back; one-way latency = round trip / 2, averaged
 * over as many round trips as fill the time budget. The same two buffers are reused, so this
 * is the in-cache case. Other ranks, if any, only join the timing agreement.
 * -c picks the forms (default: blocking alone):
 *   blocking     MPI_Send / MPI_Recv                                   -> lat_us
 *   irecv        MPI_Irecv posted first, MPI_Send, MPI_Wait            -> irecv_lat_us
 *   nonblocking  MPI_Irecv, MPI_Isend, MPI_Waitall (a halo exchange's) -> nb_lat_us
 *                (the answering rank waits for the receive, then sends)
 *   test         MPI_Irecv, MPI_Send, MPI_Test until done (a program that polls to
 *                overlap work)                                          -> test_lat_us
 *   waitany      MPI_Irecv, MPI_Isend, MPI_Waitany until both are done -> waitany_lat_us
 * Output: latency,<bytes>,<ranks>,<metric>,<one-way microseconds> */
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

static void pingpong_irecv(void *p)
{
    ctx_t *c = p;
    MPI_Request r;
    if (c->rank > 1)
        return;
    MPI_Irecv(c->rbuf, c->count, MPI_BYTE, 1 - c->rank, 0, MPI_COMM_WORLD, &r);
    if (c->rank == 0) {
        MPI_Send(c->sbuf, c->count, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
    } else {
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        MPI_Send(c->sbuf, c->count, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
    }
}

static void pingpong_nonblocking(void *p)
{
    ctx_t *c = p;
    MPI_Request r[2];
    MPI_Status st[2]; /* not MPI_STATUSES_IGNORE: gcc 12 warns on MPICH's prototype */
    if (c->rank > 1)
        return;
    MPI_Irecv(c->rbuf, c->count, MPI_BYTE, 1 - c->rank, 0, MPI_COMM_WORLD, &r[0]);
    if (c->rank == 0) {
        MPI_Isend(c->sbuf, c->count, MPI_BYTE, 1, 0, MPI_COMM_WORLD, &r[1]);
        MPI_Waitall(2, r, st);
    } else {
        MPI_Wait(&r[0], MPI_STATUS_IGNORE);
        MPI_Isend(c->sbuf, c->count, MPI_BYTE, 0, 0, MPI_COMM_WORLD, &r[1]);
        MPI_Wait(&r[1], MPI_STATUS_IGNORE);
    }
}

static void pingpong_test(void *p)
{
    ctx_t *c = p;
    MPI_Request r;
    int done = 0;
    if (c->rank > 1)
        return;
    MPI_Irecv(c->rbuf, c->count, MPI_BYTE, 1 - c->rank, 0, MPI_COMM_WORLD, &r);
    if (c->rank == 0)
        MPI_Send(c->sbuf, c->count, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
    while (!done)
        MPI_Test(&r, &done, MPI_STATUS_IGNORE);
    if (c->rank == 1)
        MPI_Send(c->sbuf, c->count, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
}

static void pingpong_waitany(void *p)
{
    ctx_t *c = p;
    MPI_Request r[2];
    MPI_Status st;
    int index;
    if (c->rank > 1)
        return;
    MPI_Irecv(c->rbuf, c->count, MPI_BYTE, 1 - c->rank, 0, MPI_COMM_WORLD, &r[0]);
    if (c->rank == 0) {
        MPI_Isend(c->sbuf, c->count, MPI_BYTE, 1, 0, MPI_COMM_WORLD, &r[1]);
        MPI_Waitany(2, r, &index, &st);
        MPI_Waitany(2, r, &index, &st);
    } else {
        MPI_Waitany(1, r, &index, &st);
        MPI_Isend(c->sbuf, c->count, MPI_BYTE, 0, 0, MPI_COMM_WORLD, &r[1]);
        MPI_Wait(&r[1], MPI_STATUS_IGNORE);
    }
}

static const struct {
    const char *name, *metric;
    void (*fn)(void *);
} forms[] = {
    {"blocking", "lat_us", pingpong},
    {"irecv", "irecv_lat_us", pingpong_irecv},
    {"nonblocking", "nb_lat_us", pingpong_nonblocking},
    {"test", "test_lat_us", pingpong_test},
    {"waitany", "waitany_lat_us", pingpong_waitany},
};

int main(int argc, char **argv)
{
    nb_opts o;
    nb_init(&argc, &argv, &o, "1:4M", 0, "  -c blocking,irecv,nonblocking,test,waitany  forms to time (default blocking)\n");
    nb_require_ranks(&o, 2, "latency");
    size_t max = o.sizes[o.nsizes - 1];
    ctx_t c = {nb_alloc(max), nb_alloc_offset(max, o.recv_offset), 0, o.rank};
    for (int i = 0; i < o.nsizes; i++) {
        c.count = (int)o.sizes[i];
        for (size_t f = 0; f < sizeof forms / sizeof forms[0]; f++) {
            if (o.select ? !nb_selected(&o, forms[f].name) : f > 0)
                continue;
            double t = nb_time(&o, MPI_COMM_WORLD, NULL, forms[f].fn, &c);
            nb_emit(&o, "latency", (double)o.sizes[i], forms[f].metric, t / 2 * 1e6);
        }
    }
    nb_finalize();
    return 0;
}
