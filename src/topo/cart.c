/* cart.c - Cartesian topology arithmetic (row-major ranks, as MPI defines) and
 * MPI_Dims_create. No communication: create.c builds the communicators.
 * Dims_create searches all non-increasing factorisations of the free part over the divisors
 * of nnodes and keeps the most balanced one (smallest max - min), which is what "as close to
 * each other as possible" means; a greedy prime split can miss it. Among equally balanced
 * ones it takes MPICH's choice, so that programs tuned on MPICH get the same grid: the largest
 * smallest factor, then the largest second-smallest, and so on (5040 in 3: 21 x 16 x 15, not
 * 20 x 18 x 14; found to hold for the 75,000 cases of MPICH's test topo/dims5). */
#include "topo/topo.h"

#include <stdlib.h>
#include <string.h>

static int wrap(int value, int size)
{
    int r = value % size;
    return r < 0 ? r + size : r;
}

void topo_cart_coords(const struct topo *topo, int rank, int *coords)
{
    for (int d = topo->ndims - 1; d >= 0; d--) {
        coords[d] = rank % topo->dims[d];
        rank /= topo->dims[d];
    }
}

int topo_cart_rank(const struct topo *topo, const int *coords, int *rank)
{
    int r = 0;
    for (int d = 0; d < topo->ndims; d++) {
        int c = coords[d];
        if (c < 0 || c >= topo->dims[d]) {
            if (!topo->periods[d])
                return MPI_ERR_ARG;
            c = wrap(c, topo->dims[d]);
        }
        r = r * topo->dims[d] + c;
    }
    *rank = r;
    return MPI_SUCCESS;
}

/* The rank `disp` steps along `direction` from coords, MPI_PROC_NULL off a non-periodic edge. */
static int neighbor_rank(const struct topo *topo, const int *coords, int direction, int disp)
{
    int *moved = malloc(sizeof(int) * (size_t)(topo->ndims > 0 ? topo->ndims : 1));
    if (!moved)
        return MPI_PROC_NULL;
    memcpy(moved, coords, sizeof(int) * (size_t)topo->ndims);
    long long c = (long long)coords[direction] + disp;
    int rank = MPI_PROC_NULL;
    if (topo->periods[direction] || (c >= 0 && c < topo->dims[direction])) {
        moved[direction] = (int)(((c % topo->dims[direction]) + topo->dims[direction]) %
                                 topo->dims[direction]);
        topo_cart_rank(topo, moved, &rank);
    }
    free(moved);
    return rank;
}

void topo_cart_shift(const struct topo *topo, int rank, int direction, int disp, int *source,
                     int *dest)
{
    (void)rank;
    *dest = neighbor_rank(topo, topo->coords, direction, disp);
    *source = neighbor_rank(topo, topo->coords, direction, -disp);
}

int topo_cart_new(int ndims, const int *dims, const int *periods, int rank, struct topo **out)
{
    struct topo *topo = calloc(1, sizeof(*topo));
    if (!topo)
        return MPI_ERR_NO_MEM;
    size_t n = (size_t)(ndims > 0 ? ndims : 1);
    topo->kind = MPI_CART;
    topo->ndims = ndims;
    topo->dims = malloc(sizeof(int) * n);
    topo->periods = malloc(sizeof(int) * n);
    topo->coords = malloc(sizeof(int) * n);
    topo->indegree = topo->outdegree = 2 * ndims;
    topo->sources = malloc(sizeof(int) * 2 * n);
    topo->destinations = malloc(sizeof(int) * 2 * n);
    if (!topo->dims || !topo->periods || !topo->coords || !topo->sources ||
        !topo->destinations) {
        topo_free(topo);
        return MPI_ERR_NO_MEM;
    }
    for (int d = 0; d < ndims; d++) {
        topo->dims[d] = dims[d];
        topo->periods[d] = periods[d] ? 1 : 0;
    }
    topo_cart_coords(topo, rank, topo->coords);
    /* Neighborhood collective order: per dimension, the -1 then the +1 neighbor. */
    for (int d = 0; d < ndims; d++) {
        topo->sources[2 * d] = neighbor_rank(topo, topo->coords, d, -1);
        topo->sources[2 * d + 1] = neighbor_rank(topo, topo->coords, d, 1);
    }
    memcpy(topo->destinations, topo->sources, sizeof(int) * 2 * (size_t)ndims);
    *out = topo;
    return MPI_SUCCESS;
}

/* ---- MPI_Dims_create ---------------------------------------------------------------------- */

struct dims_search {
    const int *divisors;       /* ascending divisors of the free product */
    int ndivisors;
    int k;                     /* free dimensions */
    int *current, *best;
    int best_spread; /* < 0: none yet */
};

static int int_pow_at_least(long long base, int k, long long target)
{
    long long v = 1;
    for (int i = 0; i < k; i++) {
        v *= base;
        if (v >= target)
            return 1;
    }
    return v >= target;
}

/* Equal spread: a beats b when, from the smallest factor up, the first that differs is larger. */
static int larger_from_the_end(const int *a, const int *b, int k)
{
    for (int i = k - 1; i >= 0; i--)
        if (a[i] != b[i])
            return a[i] > b[i];
    return 0;
}

/* Fill current[depth..k-1] with non-increasing factors <= max whose product is m. */
static void dims_search_rec(struct dims_search *s, int depth, long long m, int max)
{
    int left = s->k - depth;
    if (left == 1) {
        if (m > max)
            return;
        s->current[depth] = (int)m;
        int spread = s->current[0] - (int)m;
        if (s->best_spread < 0 || spread < s->best_spread ||
            (spread == s->best_spread && larger_from_the_end(s->current, s->best, s->k))) {
            s->best_spread = spread;
            memcpy(s->best, s->current, sizeof(int) * (size_t)s->k);
        }
        return;
    }
    for (int i = s->ndivisors - 1; i >= 0; i--) {
        int f = s->divisors[i];
        if (f > max || m % f)
            continue;
        if (!int_pow_at_least(f, left, m)) /* f is the largest remaining: f^left >= m */
            break;
        /* the last factor is <= f, so the spread is at least current[0] - f */
        if (s->best_spread >= 0 && depth > 0 && s->current[0] - f > s->best_spread)
            break;
        s->current[depth] = f;
        dims_search_rec(s, depth + 1, m / f, f);
    }
}

static int *divisors_of(int m, int *count)
{
    int cap = 64, n = 0;
    int *list = malloc(sizeof(int) * (size_t)cap);
    if (!list)
        return NULL;
    int *high = malloc(sizeof(int) * (size_t)cap);
    int nh = 0;
    if (!high) {
        free(list);
        return NULL;
    }
    for (long long d = 1; d * d <= m; d++) {
        if (m % d)
            continue;
        if (n == cap || nh == cap) {
            cap *= 2;
            int *a = realloc(list, sizeof(int) * (size_t)cap);
            int *b = a ? realloc(high, sizeof(int) * (size_t)cap) : NULL;
            if (!a || !b) {
                free(a ? a : list);
                free(high);
                return NULL;
            }
            list = a;
            high = b;
        }
        list[n++] = (int)d;
        if (d * d != m)
            high[nh++] = (int)(m / d);
    }
    int *all = malloc(sizeof(int) * (size_t)(n + nh));
    if (all) {
        memcpy(all, list, sizeof(int) * (size_t)n);
        for (int i = 0; i < nh; i++)
            all[n + i] = high[nh - 1 - i];
        *count = n + nh;
    }
    free(list);
    free(high);
    return all;
}

int topo_dims_create(int nnodes, int ndims, int *dims)
{
    long long fixed = 1;
    int k = 0;
    for (int d = 0; d < ndims; d++) {
        if (dims[d] < 0)
            return MPI_ERR_DIMS;
        if (dims[d] > 0) {
            fixed *= dims[d];
            if (fixed > nnodes) /* also keeps the product from overflowing */
                return MPI_ERR_DIMS;
        } else
            k++;
    }
    if (nnodes <= 0 || nnodes % fixed != 0)
        return MPI_ERR_DIMS;
    int m = (int)(nnodes / fixed);
    if (k == 0)
        return m == 1 ? MPI_SUCCESS : MPI_ERR_DIMS;
    struct dims_search s = {0};
    int ndiv = 0;
    int *divisors = divisors_of(m, &ndiv);
    s.current = malloc(sizeof(int) * (size_t)k);
    s.best = malloc(sizeof(int) * (size_t)k);
    if (!divisors || !s.current || !s.best) {
        free(divisors);
        free(s.current);
        free(s.best);
        return MPI_ERR_NO_MEM;
    }
    s.divisors = divisors;
    s.ndivisors = ndiv;
    s.k = k;
    s.best_spread = -1;
    dims_search_rec(&s, 0, m, m);
    for (int d = 0, j = 0; d < ndims; d++)
        if (dims[d] == 0)
            dims[d] = s.best[j++];
    free(divisors);
    free(s.current);
    free(s.best);
    return MPI_SUCCESS;
}
