/* coll.c - collective latency (IMB/OSU style): each operation is called back to back on
 * MPI_COMM_WORLD, root 0, as many times as fill the budget; the result is the slowest rank's
 * mean time per call (IMB t_max). Reductions use MPI_FLOAT / MPI_SUM. x is bytes: the whole
 * vector for bcast/reduce/allreduce, each rank's block for allgather, gather, scatter,
 * alltoall and reduce_scatter (recvcounts all equal); barrier has x = 0.
 * Output: <op>,<bytes>,<ranks>,lat_us,<microseconds> */
#include "common.h"

#include <stdio.h>
#include <stdlib.h>

typedef struct {
    float *s, *r;
    int count, n;
    int *counts;
} ctx_t;

#define W MPI_COMM_WORLD
static void barrier(void *p) { (void)p; MPI_Barrier(W); }
static void bcast(void *p) { ctx_t *c = p; MPI_Bcast(c->s, c->count, MPI_FLOAT, 0, W); }
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

static const struct {
    const char *name;
    void (*fn)(void *);
} ops[] = {
    {"barrier", barrier},     {"bcast", bcast},       {"reduce", reduce},
    {"allreduce", allreduce}, {"allgather", allgather}, {"alltoall", alltoall},
    {"reduce_scatter", reduce_scatter}, {"gather", gather}, {"scatter", scatter},
};

int main(int argc, char **argv)
{
    nb_opts o;
    nb_init(&argc, &argv, &o, "4:4M", 0,
            "  -c  barrier,bcast,reduce,allreduce,allgather,alltoall,reduce_scatter,gather,scatter\n");
    size_t max = o.sizes[o.nsizes - 1], all = max * (size_t)o.nranks;
    ctx_t c = {nb_alloc(all), nb_alloc(all), 0, o.nranks, malloc(sizeof(int) * (size_t)o.nranks)};

    for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++) {
        if (!nb_selected(&o, ops[k].name))
            continue;
        for (int i = 0; i < o.nsizes; i++) {
            size_t bytes = ops[k].fn == barrier ? 0 : o.sizes[i];
            c.count = (int)(bytes / sizeof(float));
            if (c.count == 0 && bytes)
                continue; /* below one float */
            for (int j = 0; j < o.nranks; j++)
                c.counts[j] = c.count;
            double t = nb_max(nb_time(&o, W, NULL, ops[k].fn, &c), W);
            nb_emit(&o, ops[k].name, (double)bytes, "lat_us", t * 1e6);
            if (ops[k].fn == barrier)
                break;
        }
    }
    nb_finalize();
    return 0;
}
