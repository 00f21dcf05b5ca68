/* mg_like.c - the communication of NAS MG (seed 000 Table 6.1, "MG"): a V-cycle over levels of
 * a 3-D grid split across a px x py x pz grid of ranks. Each grid operation ends with comm3, a
 * face exchange with both neighbours along each axis (Irecv both, Send both, Waitall). Face
 * sizes shrink by four per level; on coarse levels where a dimension has fewer points than
 * ranks only every d-th rank holds points and exchanges with the active ranks d away: the
 * multi-distance exchanges of NAS MG. One iteration = one V-cycle (down: one comm3 per level;
 * bottom: one; up: two per level; top: one) plus a light 7-point sweep per level so data is
 * touched. Every face received is checked. Usage: mg_like [iters] [log2 global grid] (NAS class
 * S = 5, W = 7). Needs a power-of-two rank count. */
#include "nas_like.h"

static int rank, size;
static int dims[3], coord[3];

static int rank_of(const int c[3]) { return (c[0] * dims[1] + c[1]) * dims[2] + c[2]; }

struct level {
    int active;   /* this rank holds points on the level */
    int n[3];     /* local points per dimension */
    int dist[3];  /* distance to the neighbouring active rank per dimension */
};

static void level_info(int lvl, struct level *L)
{
    int global = 1 << lvl;
    L->active = 1;
    for (int d = 0; d < 3; d++) {
        if (global >= dims[d]) {
            L->n[d] = global / dims[d];
            L->dist[d] = 1;
        } else {
            L->n[d] = 1;
            L->dist[d] = dims[d] / global;
            if (coord[d] % L->dist[d] != 0)
                L->active = 0;
        }
    }
}

static double value(int src, int lvl, int axis, int dir, int iter, int k)
{
    return src * 1e6 + lvl * 1e4 + axis * 1e3 + dir * 500.0 + iter * 3.0 + k * 1e-3;
}

/* comm3: both faces along every axis; returns data errors. */
static long comm3(int lvl, int iter, double *out, double *in)
{
    struct level L;
    level_info(lvl, &L);
    if (!L.active)
        return 0;
    long errors = 0;
    for (int axis = 0; axis < 3; axis++) {
        if (dims[axis] / L.dist[axis] < 2)
            continue; /* one active rank along this axis: periodic with itself */
        int face = L.n[(axis + 1) % 3] * L.n[(axis + 2) % 3];
        int nb[2];
        for (int dir = 0; dir < 2; dir++) {
            int c[3] = {coord[0], coord[1], coord[2]};
            int step = dir ? L.dist[axis] : dims[axis] - L.dist[axis];
            c[axis] = (c[axis] + step) % dims[axis];
            nb[dir] = rank_of(c);
        }
        MPI_Request req[2];
        for (int dir = 0; dir < 2; dir++) /* from nb[dir] comes what it sent towards us */
            MPI_Irecv(in + dir * face, face, MPI_DOUBLE, nb[dir], lvl * 8 + axis * 2 + !dir,
                      MPI_COMM_WORLD, &req[dir]);
        for (int dir = 0; dir < 2; dir++) {
            for (int k = 0; k < face; k++)
                out[dir * face + k] = value(rank, lvl, axis, dir, iter, k);
            MPI_Send(out + dir * face, face, MPI_DOUBLE, nb[dir], lvl * 8 + axis * 2 + dir,
                     MPI_COMM_WORLD);
        }
        MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
        for (int dir = 0; dir < 2; dir++)
            for (int k = 0; k < face; k++)
                errors += in[dir * face + k] != value(nb[dir], lvl, axis, !dir, iter, k);
    }
    return errors;
}

/* A 7-point-like sweep over the level's local points (the grid operation before comm3). */
static void sweep(int lvl, double *u)
{
    struct level L;
    level_info(lvl, &L);
    if (!L.active)
        return;
    long n = (long)L.n[0] * L.n[1] * L.n[2];
    for (long i = 1; i + 1 < n; i++)
        u[i] = 0.25 * (u[i - 1] + u[i + 1]) + 0.5 * u[i];
}

static long v_cycle(int lt, int iter, double *out, double *in, double *u)
{
    long errors = 0;
    for (int k = lt - 1; k >= 1; k--) { /* restriction */
        sweep(k, u);
        errors += comm3(k, iter, out, in);
    }
    sweep(1, u); /* smoothing on the coarsest level */
    errors += comm3(1, iter, out, in);
    for (int k = 2; k <= lt; k++) { /* interpolation, residual, smoothing */
        sweep(k, u);
        errors += comm3(k, iter, out, in);
        sweep(k, u);
        errors += comm3(k, iter, out, in);
    }
    sweep(lt, u); /* residual on the finest level */
    errors += comm3(lt, iter, out, in);
    return errors;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int iters = nl_arg(argc, argv, 1, 20);
    int lt = nl_arg(argc, argv, 2, 6);
    if (!nl_is_pow2(size) || (1 << lt) < 2) {
        if (rank == 0)
            fprintf(stderr, "mg_like: needs a power-of-two number of ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    int e[3] = {0, 0, 0};
    for (int i = 0; i < nl_log2(size); i++)
        e[i % 3]++;
    for (int d = 0; d < 3; d++)
        dims[d] = 1 << e[d];
    coord[0] = rank / (dims[1] * dims[2]);
    coord[1] = (rank / dims[2]) % dims[1];
    coord[2] = rank % dims[2];
    struct level top;
    level_info(lt, &top);
    size_t volume = (size_t)top.n[0] * top.n[1] * top.n[2];
    size_t face = 1;
    for (int d = 0; d < 3; d++)
        face = face > (size_t)top.n[(d + 1) % 3] * top.n[(d + 2) % 3]
                   ? face : (size_t)top.n[(d + 1) % 3] * top.n[(d + 2) % 3];
    double *out = nl_malloc(sizeof(double) * 2 * face);
    double *in = nl_malloc(sizeof(double) * 2 * face);
    double *u = calloc(volume + 1, sizeof(double));
    long errors = 0;
    for (int w = 0; w < 2; w++)
        errors += v_cycle(lt, -1 - w, out, in, u);
    MPI_Barrier(MPI_COMM_WORLD);
    double start = MPI_Wtime();
    for (int it = 0; it < iters; it++)
        errors += v_cycle(lt, it, out, in, u);
    double seconds = MPI_Wtime() - start;
    int rc = nl_report("mg", iters, seconds, errors);
    free(out);
    free(in);
    free(u);
    MPI_Finalize();
    return rc;
}
