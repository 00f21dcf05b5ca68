/* rma.c - one-sided costs between ranks 0 (origin) and 1 (target), window from MPI_Win_allocate
 * (MPI-3; built only when have_rma.c links). Passive target, the lock held across calls:
 * put/get/acc lat_us = one op + MPI_Win_flush; put/get/acc bw_MBps = -w ops then one flush
 * (OSU osu_put_latency/osu_put_bw style); fetch_and_op and cas (MPI_LONG) = op + flush.
 * Epochs: lock_unlock = MPI_Win_lock(exclusive) + 8-byte put + MPI_Win_unlock; fence = every
 * rank puts 8 bytes to the next rank + MPI_Win_fence (all ranks take part).
 * Output: {put,get,acc},<bytes>,<ranks>,{lat_us,bw_MBps},v; {fetch_and_op,cas,lock_unlock,fence},8,.. */
#include "common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    MPI_Win win;
    char *local;      /* origin buffers: window slots for get, slot 0 otherwise */
    long one, old, cmp;
    int count, window, rank, nranks;
} ctx_t;

/* Only rank 0 issues passive-target operations; the others just join the timing agreement. */
static void put_lat(void *p)
{
    ctx_t *c = p;
    if (c->rank != 0)
        return;
    MPI_Put(c->local, c->count, MPI_BYTE, 1, 0, c->count, MPI_BYTE, c->win);
    MPI_Win_flush(1, c->win);
}
static void get_lat(void *p)
{
    ctx_t *c = p;
    if (c->rank != 0)
        return;
    MPI_Get(c->local, c->count, MPI_BYTE, 1, 0, c->count, MPI_BYTE, c->win);
    MPI_Win_flush(1, c->win);
}
static void acc_lat(void *p)
{
    ctx_t *c = p;
    if (c->rank != 0)
        return;
    MPI_Accumulate(c->local, c->count / 4, MPI_FLOAT, 1, 0, c->count / 4, MPI_FLOAT, MPI_SUM, c->win);
    MPI_Win_flush(1, c->win);
}
/* Bandwidth: all puts/accs target offset 0 (OSU does the same; the data are not checked), gets
 * land in distinct local slots because concurrent writes to one origin buffer are erroneous. */
static void put_bw(void *p)
{
    ctx_t *c = p;
    if (c->rank != 0)
        return;
    for (int w = 0; w < c->window; w++)
        MPI_Put(c->local, c->count, MPI_BYTE, 1, 0, c->count, MPI_BYTE, c->win);
    MPI_Win_flush(1, c->win);
}
static void get_bw(void *p)
{
    ctx_t *c = p;
    if (c->rank != 0)
        return;
    for (int w = 0; w < c->window; w++)
        MPI_Get(c->local + (size_t)w * (size_t)c->count, c->count, MPI_BYTE, 1, 0, c->count,
                MPI_BYTE, c->win);
    MPI_Win_flush(1, c->win);
}
static void acc_bw(void *p)
{
    ctx_t *c = p;
    if (c->rank != 0)
        return;
    for (int w = 0; w < c->window; w++)
        MPI_Accumulate(c->local, c->count / 4, MPI_FLOAT, 1, 0, c->count / 4, MPI_FLOAT, MPI_SUM,
                       c->win);
    MPI_Win_flush(1, c->win);
}
static void fop(void *p)
{
    ctx_t *c = p;
    if (c->rank != 0)
        return;
    MPI_Fetch_and_op(&c->one, &c->old, MPI_LONG, 1, 0, MPI_SUM, c->win);
    MPI_Win_flush(1, c->win);
}
static void cas(void *p)
{
    ctx_t *c = p;
    if (c->rank != 0)
        return;
    MPI_Compare_and_swap(&c->one, &c->cmp, &c->old, MPI_LONG, 1, 0, c->win);
    MPI_Win_flush(1, c->win);
}
static void lock_unlock(void *p)
{
    ctx_t *c = p;
    if (c->rank != 0)
        return;
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, c->win);
    MPI_Put(&c->one, 1, MPI_LONG, 1, 0, 1, MPI_LONG, c->win);
    MPI_Win_unlock(1, c->win);
}
static void fence(void *p)
{
    ctx_t *c = p;
    MPI_Put(&c->one, 1, MPI_LONG, (c->rank + 1) % c->nranks, 0, 1, MPI_LONG, c->win);
    MPI_Win_fence(0, c->win);
}

static void timed(nb_opts *o, ctx_t *c, const char *name, void (*fn)(void *), double x,
                  int window)
{
    if (!nb_selected(o, name))
        return;
    if (c->rank == 0) /* passive epoch open across all calls, as OSU's flush variants */
        MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, c->win);
    double t = nb_time(o, MPI_COMM_WORLD, NULL, fn, c);
    if (c->rank == 0)
        MPI_Win_unlock(1, c->win);
    if (window)
        nb_emit(o, name, x, "bw_MBps", x * window / t / 1e6);
    else
        nb_emit(o, name, x, "lat_us", t * 1e6);
    MPI_Barrier(MPI_COMM_WORLD);
}

int main(int argc, char **argv)
{
    nb_opts o;
    nb_init(&argc, &argv, &o, "8:1M", 0,
            "  -c  put,get,acc,fetch_and_op,cas,lock_unlock,fence\n");
    nb_require_ranks(&o, 2, "rma");
    size_t max = o.sizes[o.nsizes - 1];
    ctx_t c = {0};
    void *base;
    c.window = o.window;
    c.rank = o.rank;
    c.nranks = o.nranks;
    c.one = 1;
    c.local = nb_alloc(max * (size_t)o.window);
    size_t winbytes = max < 8 ? 8 : max;
    MPI_Win_allocate((MPI_Aint)winbytes, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &c.win);
    /* Zeroed (accumulates then never meet denormal garbage) and touched, under an epoch as the
     * separate memory model asks for local stores to window memory. */
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, o.rank, 0, c.win);
    memset(base, 0, winbytes);
    MPI_Win_unlock(o.rank, c.win);
    MPI_Barrier(MPI_COMM_WORLD);

    static const struct {
        const char *name;
        void (*lat)(void *), (*bw)(void *);
    } xfer[] = {{"put", put_lat, put_bw}, {"get", get_lat, get_bw}, {"acc", acc_lat, acc_bw}};
    for (int k = 0; k < 3; k++)
        for (int i = 0; i < o.nsizes; i++) {
            c.count = (int)o.sizes[i];
            if (c.count < 4 && k == 2)
                continue; /* accumulate works on floats */
            timed(&o, &c, xfer[k].name, xfer[k].lat, (double)c.count, 0);
            timed(&o, &c, xfer[k].name, xfer[k].bw, (double)c.count, o.window);
        }
    timed(&o, &c, "fetch_and_op", fop, 8, 0);
    timed(&o, &c, "cas", cas, 8, 0);

    if (nb_selected(&o, "lock_unlock")) { /* opens its own epochs: no lock held around it */
        double t = nb_time(&o, MPI_COMM_WORLD, NULL, lock_unlock, &c);
        nb_emit(&o, "lock_unlock", 8, "lat_us", t * 1e6);
        MPI_Barrier(MPI_COMM_WORLD);
    }
    if (nb_selected(&o, "fence")) {
        MPI_Win_fence(MPI_MODE_NOPRECEDE, c.win);
        double t = nb_max(nb_time(&o, MPI_COMM_WORLD, NULL, fence, &c), MPI_COMM_WORLD);
        MPI_Win_fence(MPI_MODE_NOSUCCEED, c.win);
        nb_emit(&o, "fence", 8, "lat_us", t * 1e6);
    }
    MPI_Win_free(&c.win);
    nb_finalize();
    return 0;
}
