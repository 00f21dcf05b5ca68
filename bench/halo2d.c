/* halo2d.c - application kernel: 2-D Jacobi (5-point stencil) on a periodic process grid from
 * MPI_Dims_create/MPI_Cart_create. Each iteration exchanges one-cell halos with the four
 * MPI_Cart_shift neighbours (rows contiguous, columns as an MPI_Type_vector, the derived-type
 * path real codes use), then updates the local n x n block of doubles.
 * Output: halo2d,<n>,<ranks>,iter_us,<slowest rank's mean time per iteration> */
#include "common.h"

#include <stdio.h>
#include <stdlib.h>

typedef struct {
    double *u, *v; /* (n+2) x (n+2) with ghost cells, row-major */
    int n;
    MPI_Comm cart;
    MPI_Datatype col;
    int up, down, left, right;
} ctx_t;

#define AT(a, i, j) (a)[(size_t)(i) * (size_t)(c->n + 2) + (size_t)(j)]

static void iterate(void *p)
{
    ctx_t *c = p;
    int n = c->n;
    double *u = c->u;
    MPI_Request r[8];
    /* dimension 0 = rows of processes: send first/last interior row, receive ghost rows */
    MPI_Irecv(&AT(u, 0, 1), n, MPI_DOUBLE, c->up, 0, c->cart, &r[0]);
    MPI_Irecv(&AT(u, n + 1, 1), n, MPI_DOUBLE, c->down, 1, c->cart, &r[1]);
    MPI_Irecv(&AT(u, 1, 0), 1, c->col, c->left, 2, c->cart, &r[2]);
    MPI_Irecv(&AT(u, 1, n + 1), 1, c->col, c->right, 3, c->cart, &r[3]);
    MPI_Isend(&AT(u, n, 1), n, MPI_DOUBLE, c->down, 0, c->cart, &r[4]);
    MPI_Isend(&AT(u, 1, 1), n, MPI_DOUBLE, c->up, 1, c->cart, &r[5]);
    MPI_Isend(&AT(u, 1, n), 1, c->col, c->right, 2, c->cart, &r[6]);
    MPI_Isend(&AT(u, 1, 1), 1, c->col, c->left, 3, c->cart, &r[7]);
    nb_waitall(8, r);

    double *v = c->v;
    for (int i = 1; i <= n; i++)
        for (int j = 1; j <= n; j++)
            AT(v, i, j) = 0.25 * (AT(u, i - 1, j) + AT(u, i + 1, j) + AT(u, i, j - 1) +
                                  AT(u, i, j + 1));
    c->u = v;
    c->v = u;
}

int main(int argc, char **argv)
{
    nb_opts o;
    nb_init(&argc, &argv, &o, "64,256,1024", 0, "  -s  local grid edges n (n x n doubles)\n");
    int dims[2] = {0, 0}, periods[2] = {1, 1};
    ctx_t c;
    MPI_Dims_create(o.nranks, 2, dims);
    MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &c.cart);
    MPI_Cart_shift(c.cart, 0, 1, &c.up, &c.down);
    MPI_Cart_shift(c.cart, 1, 1, &c.left, &c.right);

    for (int i = 0; i < o.nsizes; i++) {
        c.n = (int)o.sizes[i];
        size_t cells = (size_t)(c.n + 2) * (size_t)(c.n + 2);
        c.u = nb_alloc(cells * sizeof(double));
        c.v = nb_alloc(cells * sizeof(double));
        for (size_t k = 0; k < cells; k++)
            c.u[k] = c.v[k] = (double)(k % 7); /* any finite, non-denormal values */
        MPI_Type_vector(c.n, 1, c.n + 2, MPI_DOUBLE, &c.col);
        MPI_Type_commit(&c.col);
        double t = nb_max(nb_time(&o, c.cart, NULL, iterate, &c), c.cart);
        nb_emit(&o, "halo2d", c.n, "iter_us", t * 1e6);
        MPI_Type_free(&c.col);
        free(c.u);
        free(c.v);
    }
    MPI_Comm_free(&c.cart);
    nb_finalize();
    return 0;
}
