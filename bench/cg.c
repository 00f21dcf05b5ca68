/* cg.c - application kernel: conjugate gradient on the 1-D Poisson matrix tridiag(-1, 2, -1),
 * n unknowns per rank in a chain of ranks. One iteration = matrix-vector product needing one
 * double from each neighbour (MPI_Sendrecv twice), two dot products (MPI_Allreduce of one
 * double each) and three vector updates: the latency-bound mix of NAS CG on a small scale.
 * The solve restarts when the residual has fallen 1e-20 so values never go denormal.
 * Output: cg,<n>,<ranks>,iter_us,<slowest rank's mean time per iteration> */
#include "common.h"

#include <stdlib.h>

typedef struct {
    double *x, *r, *p, *q; /* p has a ghost cell at each end: p[0], p[n+1] */
    double rr, rr0;
    int n, left, right;
} ctx_t;

static void restart(ctx_t *c)
{
    double local = 0;
    for (int i = 0; i < c->n; i++) {
        c->x[i] = 0;
        c->r[i] = 1.0; /* b = 1, x0 = 0 -> r = b */
        c->p[i + 1] = c->r[i];
        local += c->r[i] * c->r[i];
    }
    MPI_Allreduce(&local, &c->rr, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    c->rr0 = c->rr;
}

static void iterate(void *v)
{
    ctx_t *c = v;
    int n = c->n;
    double *p = c->p, pq = 0, rr = 0, g;
    MPI_Sendrecv(&p[1], 1, MPI_DOUBLE, c->left, 0, &p[n + 1], 1, MPI_DOUBLE, c->right, 0,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Sendrecv(&p[n], 1, MPI_DOUBLE, c->right, 1, &p[0], 1, MPI_DOUBLE, c->left, 1,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    for (int i = 1; i <= n; i++) {
        c->q[i - 1] = 2 * p[i] - p[i - 1] - p[i + 1];
        pq += p[i] * c->q[i - 1];
    }
    MPI_Allreduce(&pq, &g, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    double alpha = c->rr / g;
    for (int i = 0; i < n; i++) {
        c->x[i] += alpha * p[i + 1];
        c->r[i] -= alpha * c->q[i];
        rr += c->r[i] * c->r[i];
    }
    MPI_Allreduce(&rr, &g, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    double beta = g / c->rr;
    c->rr = g;
    for (int i = 0; i < n; i++)
        p[i + 1] = c->r[i] + beta * p[i + 1];
    if (c->rr < 1e-20 * c->rr0) /* every rank sees the same rr: restarts stay collective */
        restart(c);
}

int main(int argc, char **argv)
{
    nb_opts o;
    nb_init(&argc, &argv, &o, "1K,16K,256K", 0, "  -s  unknowns per rank\n");
    ctx_t c;
    /* chain, not ring: the ends have MPI_PROC_NULL neighbours and a zero ghost value */
    c.left = o.rank > 0 ? o.rank - 1 : MPI_PROC_NULL;
    c.right = o.rank < o.nranks - 1 ? o.rank + 1 : MPI_PROC_NULL;
    for (int i = 0; i < o.nsizes; i++) {
        c.n = (int)o.sizes[i];
        c.x = nb_alloc(sizeof(double) * (size_t)c.n);
        c.r = nb_alloc(sizeof(double) * (size_t)c.n);
        c.q = nb_alloc(sizeof(double) * (size_t)c.n);
        c.p = nb_alloc(sizeof(double) * (size_t)(c.n + 2));
        c.p[0] = c.p[c.n + 1] = 0;
        restart(&c);
        double t = nb_max(nb_time(&o, MPI_COMM_WORLD, NULL, iterate, &c), MPI_COMM_WORLD);
        nb_emit(&o, "cg", c.n, "iter_us", t * 1e6);
        free(c.x);
        free(c.r);
        free(c.q);
        free(c.p);
    }
    nb_finalize();
    return 0;
}
