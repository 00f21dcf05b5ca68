/* coll.c - collective latency (IMB/OSU style): each operation is called back to back on
 * MPI_COMM_WORLD, root 0, as many times as fill the budget; the result is the slowest rank's
 * mean time per call (IMB t_max). Reductions use MPI_FLOAT / MPI_SUM. x is bytes: the whole
 * vector for bcast/reduce/allreduce/scan/exscan/reduce_local, each rank's block for the
 * gathers, scatters, alltoalls and reduce_scatters (v-variants with all counts equal and
 * displacements packed, as IMB-MPI1 does); barrier has x = 0.
 * Nonblocking forms (IMB-NBC, OSU osu_i*) are timed as post + MPI_Wait (lat_us); with "overlap"
 * selected (or no -c) also as post, compute for the slowest rank's lat_us, MPI_Wait: metric
 * exposed_us is that total minus the compute, the communication time the compute did not hide.
 * Output: <op>,<bytes>,<ranks>,lat_us|exposed_us,<microseconds> */
#include "common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct ctx ctx_t;
typedef void post_fn(ctx_t *c, MPI_Request *req);

struct ctx {
    float *s, *r;
    int count, n;
    int *counts, *displs;
    post_fn *post;  /* the nonblocking operation being timed */
    double compute; /* seconds of compute between post and wait (overlap) */
};

#define W MPI_COMM_WORLD
static void barrier(void *p) { (void)p; MPI_Barrier(W); }
static void bcast(void *p) { ctx_t *c = p; MPI_Bcast(c->s, c->count, MPI_FLOAT, 0, W); }
/* IMB-MPI1's Bcast: the root moves to the next rank every call, so call i starts only once
 * rank i has received call i - 1 (every rank makes the same calls, so the counters agree). */
static void bcast_rotating(void *p)
{
    ctx_t *c = p;
    static int calls;
    int size;
    MPI_Comm_size(W, &size);
    MPI_Bcast(c->s, c->count, MPI_FLOAT, calls++ % size, W);
}
static void reduce(void *p)
{
    ctx_t *c = p;
    MPI_Reduce(c->s, c->r, c->count, MPI_FLOAT, MPI_SUM, 0, W);
}
static void allreduce(void *p)
{
    ctx_t *c = p;
    MPI_Allreduce(c->s, c->r, c->count, MPI_FLOAT, MPI_SUM, W);
}
static void allgather(void *p)
{
    ctx_t *c = p;
    MPI_Allgather(c->s, c->count, MPI_FLOAT, c->r, c->count, MPI_FLOAT, W);
}
static void alltoall(void *p)
{
    ctx_t *c = p;
    MPI_Alltoall(c->s, c->count, MPI_FLOAT, c->r, c->count, MPI_FLOAT, W);
}
static void reduce_scatter(void *p)
{
    ctx_t *c = p;
    MPI_Reduce_scatter(c->s, c->r, c->counts, MPI_FLOAT, MPI_SUM, W);
}
static void gather(void *p)
{
    ctx_t *c = p;
    MPI_Gather(c->s, c->count, MPI_FLOAT, c->r, c->count, MPI_FLOAT, 0, W);
}
static void scatter(void *p)
{
    ctx_t *c = p;
    MPI_Scatter(c->s, c->count, MPI_FLOAT, c->r, c->count, MPI_FLOAT, 0, W);
}
static void allgatherv(void *p)
{
    ctx_t *c = p;
    MPI_Allgatherv(c->s, c->count, MPI_FLOAT, c->r, c->counts, c->displs, MPI_FLOAT, W);
}
static void gatherv(void *p)
{
    ctx_t *c = p;
    MPI_Gatherv(c->s, c->count, MPI_FLOAT, c->r, c->counts, c->displs, MPI_FLOAT, 0, W);
}
static void scatterv(void *p)
{
    ctx_t *c = p;
    MPI_Scatterv(c->s, c->counts, c->displs, MPI_FLOAT, c->r, c->count, MPI_FLOAT, 0, W);
}
static void alltoallv(void *p)
{
    ctx_t *c = p;
    MPI_Alltoallv(c->s, c->counts, c->displs, MPI_FLOAT, c->r, c->counts, c->displs, MPI_FLOAT,
                  W);
}
static void reduce_scatter_block(void *p)
{
    ctx_t *c = p;
    MPI_Reduce_scatter_block(c->s, c->r, c->count, MPI_FLOAT, MPI_SUM, W);
}
static void scan(void *p)
{
    ctx_t *c = p;
    MPI_Scan(c->s, c->r, c->count, MPI_FLOAT, MPI_SUM, W);
}
static void exscan(void *p)
{
    ctx_t *c = p;
    MPI_Exscan(c->s, c->r, c->count, MPI_FLOAT, MPI_SUM, W);
}
static void reduce_local(void *p)
{
    ctx_t *c = p;
    MPI_Reduce_local(c->s, c->r, c->count, MPI_FLOAT, MPI_SUM);
}

/* The nonblocking forms: the post alone; nb_post_wait and nb_post_compute_wait time them. */
static void ibarrier(ctx_t *c, MPI_Request *q) { (void)c; MPI_Ibarrier(W, q); }
static void ibcast(ctx_t *c, MPI_Request *q) { MPI_Ibcast(c->s, c->count, MPI_FLOAT, 0, W, q); }
static void ireduce(ctx_t *c, MPI_Request *q)
{
    MPI_Ireduce(c->s, c->r, c->count, MPI_FLOAT, MPI_SUM, 0, W, q);
}
static void iallreduce(ctx_t *c, MPI_Request *q)
{
    MPI_Iallreduce(c->s, c->r, c->count, MPI_FLOAT, MPI_SUM, W, q);
}
static void iallgather(ctx_t *c, MPI_Request *q)
{
    MPI_Iallgather(c->s, c->count, MPI_FLOAT, c->r, c->count, MPI_FLOAT, W, q);
}
static void iallgatherv(ctx_t *c, MPI_Request *q)
{
    MPI_Iallgatherv(c->s, c->count, MPI_FLOAT, c->r, c->counts, c->displs, MPI_FLOAT, W, q);
}
static void ialltoall(ctx_t *c, MPI_Request *q)
{
    MPI_Ialltoall(c->s, c->count, MPI_FLOAT, c->r, c->count, MPI_FLOAT, W, q);
}
static void ialltoallv(ctx_t *c, MPI_Request *q)
{
    MPI_Ialltoallv(c->s, c->counts, c->displs, MPI_FLOAT, c->r, c->counts, c->displs, MPI_FLOAT,
                   W, q);
}
static void igather(ctx_t *c, MPI_Request *q)
{
    MPI_Igather(c->s, c->count, MPI_FLOAT, c->r, c->count, MPI_FLOAT, 0, W, q);
}
static void igatherv(ctx_t *c, MPI_Request *q)
{
    MPI_Igatherv(c->s, c->count, MPI_FLOAT, c->r, c->counts, c->displs, MPI_FLOAT, 0, W, q);
}
static void iscatter(ctx_t *c, MPI_Request *q)
{
    MPI_Iscatter(c->s, c->count, MPI_FLOAT, c->r, c->count, MPI_FLOAT, 0, W, q);
}
static void iscatterv(ctx_t *c, MPI_Request *q)
{
    MPI_Iscatterv(c->s, c->counts, c->displs, MPI_FLOAT, c->r, c->count, MPI_FLOAT, 0, W, q);
}
static void ireduce_scatter(ctx_t *c, MPI_Request *q)
{
    MPI_Ireduce_scatter(c->s, c->r, c->counts, MPI_FLOAT, MPI_SUM, W, q);
}
static void ireduce_scatter_block(ctx_t *c, MPI_Request *q)
{
    MPI_Ireduce_scatter_block(c->s, c->r, c->count, MPI_FLOAT, MPI_SUM, W, q);
}
static void iscan(ctx_t *c, MPI_Request *q)
{
    MPI_Iscan(c->s, c->r, c->count, MPI_FLOAT, MPI_SUM, W, q);
}
static void iexscan(ctx_t *c, MPI_Request *q)
{
    MPI_Iexscan(c->s, c->r, c->count, MPI_FLOAT, MPI_SUM, W, q);
}

static void nb_post_wait(void *p)
{
    ctx_t *c = p;
    MPI_Request q;
    c->post(c, &q);
    MPI_Wait(&q, MPI_STATUS_IGNORE);
}

/* IMB-NBC / OSU overlap: compute between post and wait, no MPI call in between (no test
 * calls), so only an MPI that progresses on its own hides the communication. */
static void nb_post_compute_wait(void *p)
{
    ctx_t *c = p;
    MPI_Request q;
    c->post(c, &q);
    nb_spin(c->compute);
    MPI_Wait(&q, MPI_STATUS_IGNORE);
}

enum { SIZED = 0, UNSIZED = 1 }; /* barrier and ibarrier have one point, x = 0 */

static const struct {
    const char *name;
    void (*fn)(void *);
    post_fn *post; /* nonblocking: fn is NULL */
    int unsized;
} ops[] = {
    {"barrier", barrier, NULL, UNSIZED},
    {"bcast", bcast, NULL, SIZED},
    {"bcast_rotating", bcast_rotating, NULL, SIZED},
    {"reduce", reduce, NULL, SIZED},
    {"allreduce", allreduce, NULL, SIZED},
    {"allgather", allgather, NULL, SIZED},
    {"alltoall", alltoall, NULL, SIZED},
    {"reduce_scatter", reduce_scatter, NULL, SIZED},
    {"gather", gather, NULL, SIZED},
    {"scatter", scatter, NULL, SIZED},
    {"allgatherv", allgatherv, NULL, SIZED},
    {"gatherv", gatherv, NULL, SIZED},
    {"scatterv", scatterv, NULL, SIZED},
    {"alltoallv", alltoallv, NULL, SIZED},
    {"reduce_scatter_block", reduce_scatter_block, NULL, SIZED},
    {"scan", scan, NULL, SIZED},
    {"exscan", exscan, NULL, SIZED},
    {"reduce_local", reduce_local, NULL, SIZED},
    {"ibarrier", NULL, ibarrier, UNSIZED},
    {"ibcast", NULL, ibcast, SIZED},
    {"ireduce", NULL, ireduce, SIZED},
    {"iallreduce", NULL, iallreduce, SIZED},
    {"iallgather", NULL, iallgather, SIZED},
    {"iallgatherv", NULL, iallgatherv, SIZED},
    {"ialltoall", NULL, ialltoall, SIZED},
    {"ialltoallv", NULL, ialltoallv, SIZED},
    {"igather", NULL, igather, SIZED},
    {"igatherv", NULL, igatherv, SIZED},
    {"iscatter", NULL, iscatter, SIZED},
    {"iscatterv", NULL, iscatterv, SIZED},
    {"ireduce_scatter", NULL, ireduce_scatter, SIZED},
    {"ireduce_scatter_block", NULL, ireduce_scatter_block, SIZED},
    {"iscan", NULL, iscan, SIZED},
    {"iexscan", NULL, iexscan, SIZED},
};

static double all_max(double v)
{
    double m;
    MPI_Allreduce(&v, &m, 1, MPI_DOUBLE, MPI_MAX, W);
    return m;
}

static void one_point(const nb_opts *o, int k, ctx_t *c, double bytes, int overlap)
{
    if (ops[k].fn) {
        double t = nb_max(nb_time(o, W, NULL, ops[k].fn, c), W);
        nb_emit(o, ops[k].name, bytes, "lat_us", t * 1e6);
        return;
    }
    c->post = ops[k].post;
    double pure = all_max(nb_time(o, W, NULL, nb_post_wait, c));
    nb_emit(o, ops[k].name, bytes, "lat_us", pure * 1e6);
    if (!overlap)
        return;
    c->compute = pure;
    double total = nb_max(nb_time(o, W, NULL, nb_post_compute_wait, c), W);
    nb_emit(o, ops[k].name, bytes, "exposed_us", (total - pure) * 1e6);
}

int main(int argc, char **argv)
{
    nb_opts o;
    nb_init(&argc, &argv, &o, "4:4M", 0,
            "  -c  barrier,bcast,reduce,allreduce,allgather,alltoall,reduce_scatter,gather,\n"
            "      scatter,allgatherv,gatherv,scatterv,alltoallv,reduce_scatter_block,scan,\n"
            "      exscan,reduce_local, the nonblocking i<op> of each (not reduce_local), and\n"
            "      overlap (exposed_us of the nonblocking ones; on when there is no -c)\n");
    size_t max = o.sizes[o.nsizes - 1], all = max * (size_t)o.nranks;
    ctx_t c;
    memset(&c, 0, sizeof c);
    c.s = nb_alloc(all);
    c.r = nb_alloc(all);
    c.n = o.nranks;
    c.counts = malloc(sizeof(int) * (size_t)o.nranks);
    c.displs = malloc(sizeof(int) * (size_t)o.nranks);
    int overlap = nb_selected(&o, "overlap");

    for (int k = 0; k < (int)(sizeof ops / sizeof ops[0]); k++) {
        if (!nb_selected(&o, ops[k].name))
            continue;
        for (int i = 0; i < o.nsizes; i++) {
            size_t bytes = ops[k].unsized ? 0 : o.sizes[i];
            c.count = (int)(bytes / sizeof(float));
            if (c.count == 0 && bytes)
                continue; /* below one float */
            for (int j = 0; j < o.nranks; j++) {
                c.counts[j] = c.count;
                c.displs[j] = j * c.count;
            }
            one_point(&o, k, &c, (double)bytes, overlap);
            if (ops[k].unsized)
                break;
        }
    }
    nb_finalize();
    return 0;
}
