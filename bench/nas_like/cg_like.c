/* cg_like.c - the communication of NAS CG (seed 000 Table 6.1, "CG"), without the sparse
 * matrix: ranks form an nprows x npcols grid (npcols = nprows, or 2 * nprows when log2(np) is
 * odd, as NAS does). One iteration = one CG step: the matrix-vector product's row reduction
 * (recursive halving: log2(npcols) exchanges with partners col XOR 2^i, halving sizes), the
 * transpose exchange with the mirror rank, and two dot products (log2(npcols) exchanges of one
 * double each). Every received value is checked. Usage: cg_like [iters] [na] (na: vector length,
 * NAS class A = 14000). Needs a power-of-two rank count. */
#include "nas_like.h"

static int rank, size, nprows, npcols, row, col, l2npcols;

static double value(int src, int iter, int step, int k)
{
    return (double)src * 1000003.0 + iter * 31.0 + step * 7.0 + k;
}

/* NAS CG's transpose partner (makea/setup_proc_info in cg.f). */
static int transpose_partner(void)
{
    if (npcols == nprows)
        return (rank % nprows) * nprows + rank / nprows;
    return 2 * (((rank / 2) % nprows) * nprows + rank / 2 / nprows) + rank % 2;
}

static long exchange(int partner, int iter, int step, int len, double *out, double *in)
{
    long errors = 0;
    for (int k = 0; k < len; k++)
        out[k] = value(rank, iter, step, k);
    if (partner == rank) {
        memcpy(in, out, sizeof(double) * (size_t)len);
        return 0;
    }
    MPI_Request req;
    MPI_Irecv(in, len, MPI_DOUBLE, partner, step, MPI_COMM_WORLD, &req);
    MPI_Send(out, len, MPI_DOUBLE, partner, step, MPI_COMM_WORLD);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    for (int k = 0; k < len; k++)
        errors += in[k] != value(partner, iter, step, k);
    return errors;
}

/* Sum of (r + 1) over my row by butterfly exchange of one double, as NAS's dot products do. */
static long row_dot(int iter, int step)
{
    double sum = rank + 1.0;
    for (int i = 0; i < l2npcols; i++) {
        int partner = row * npcols + (col ^ (1 << i));
        double in;
        MPI_Sendrecv(&sum, 1, MPI_DOUBLE, partner, 100 + step, &in, 1, MPI_DOUBLE, partner,
                     100 + step, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        sum += in;
    }
    double want = 0;
    for (int c = 0; c < npcols; c++)
        want += row * npcols + c + 1.0;
    (void)iter;
    return sum != want;
}

static long cg_step(int iter, int seg, double *out, double *in, double *x)
{
    long errors = 0;
    int len = seg;
    for (int i = 0; i < l2npcols; i++) {
        len = len / 2 > 0 ? len / 2 : 1;
        errors += exchange(row * npcols + (col ^ (1 << i)), iter, i, len, out, in);
    }
    int mine = seg / npcols > 0 ? seg / npcols : 1;
    errors += exchange(transpose_partner(), iter, 50, mine, out, in);
    /* the local vector updates of a CG step, on this rank's part */
    for (int k = 0; k < mine; k++)
        x[k] = 0.5 * x[k] + 1e-9 * in[k];
    errors += row_dot(iter, 0);
    for (int k = 0; k < mine; k++)
        x[k] += 1e-9 * out[k];
    errors += row_dot(iter, 1);
    return errors;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int iters = nl_arg(argc, argv, 1, 100);
    int na = nl_arg(argc, argv, 2, 14000);
    if (!nl_is_pow2(size)) {
        if (rank == 0)
            fprintf(stderr, "cg_like: needs a power-of-two number of ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    int l2np = nl_log2(size);
    nprows = 1 << (l2np / 2);
    npcols = size / nprows;
    l2npcols = nl_log2(npcols);
    row = rank / npcols;
    col = rank % npcols;
    int seg = na / nprows;
    double *out = nl_malloc(sizeof(double) * (size_t)seg);
    double *in = nl_malloc(sizeof(double) * (size_t)seg);
    double *x = calloc((size_t)seg, sizeof(double));
    long errors = 0;
    for (int w = 0; w < 3; w++)
        errors += cg_step(-1 - w, seg, out, in, x);
    MPI_Barrier(MPI_COMM_WORLD);
    double start = MPI_Wtime();
    for (int it = 0; it < iters; it++)
        errors += cg_step(it, seg, out, in, x);
    double seconds = MPI_Wtime() - start;
    int rc = nl_report("cg", iters, seconds, errors);
    free(out);
    free(in);
    free(x);
    MPI_Finalize();
    return rc;
}
