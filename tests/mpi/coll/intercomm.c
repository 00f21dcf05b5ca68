/* intercomm.c - collectives on an intercommunicator made by splitting MPI_COMM_WORLD into two
 * groups of unequal size (even / odd world ranks; with one rank the test has nothing to do):
 * Barrier, Bcast / Reduce / Gather(v) / Scatter(v) with MPI_ROOT and MPI_PROC_NULL from both
 * sides, Allreduce, Allgather(v), Alltoall(v,w), Reduce_scatter(_block), the nonblocking forms
 * of a few, and a non-commutative user operator (reduced in the remote group's rank order). */
#include "mpitest.h"

static MPI_Comm inter;
static int lrank, lsize, rsize, group; /* group 0 = even world ranks */

static int val(int g, int r, int j)
{
    return g * 1000000 + r * 1000 + j;
}

/* (a, b) o (c, d) = (a + c, b * 3^? ...) a non-commutative op on int pairs:
 * x o y = (x.first, y.second) ... concatenation of "first seen" and "last seen" */
typedef struct {
    int first, last, count;
} span;

static void span_op(void *in_, void *inout_, int *len, MPI_Datatype *type)
{
    span *in = in_, *io = inout_;
    (void)type;
    for (int i = 0; i < *len; i++) {
        io[i].first = in[i].first; /* in is the lower ranks' part */
        io[i].count += in[i].count;
    }
}

static void rooted(int root_group, int root_rank)
{
    int root, n = 4;
    int in_root_group = group == root_group;
    if (in_root_group)
        root = lrank == root_rank ? MPI_ROOT : MPI_PROC_NULL;
    else
        root = root_rank;
    int *buf = mt_malloc(sizeof(int) * n * 16), *big = mt_malloc(sizeof(int) * n * 16);
    int counts[16], displs[16];

    /* Bcast */
    for (int j = 0; j < n; j++)
        buf[j] = root == MPI_ROOT ? val(root_group, root_rank, j) : -1;
    MT_MPI(MPI_Bcast(buf, n, MPI_INT, root, inter));
    if (!in_root_group)
        for (int j = 0; j < n; j++)
            MT_CHECK(buf[j] == val(root_group, root_rank, j), "inter Bcast [%d] = %d", j, buf[j]);

    /* Reduce (SUM): the root gets the sum over the other group */
    for (int j = 0; j < n; j++) {
        buf[j] = val(group, lrank, j);
        big[j] = -1;
    }
    MT_MPI(MPI_Reduce(buf, big, n, MPI_INT, MPI_SUM, root, inter));
    if (root == MPI_ROOT)
        for (int j = 0; j < n; j++) {
            int want = 0;
            for (int r = 0; r < rsize; r++)
                want += val(1 - group, r, j);
            MT_CHECK(big[j] == want, "inter Reduce [%d] = %d want %d", j, big[j], want);
        }

    /* Gather / Gatherv */
    for (int i = 0; i < n * rsize; i++)
        big[i] = -1;
    MT_MPI(MPI_Gather(buf, n, MPI_INT, big, n, MPI_INT, root, inter));
    if (root == MPI_ROOT)
        for (int r = 0; r < rsize; r++)
            for (int j = 0; j < n; j++)
                MT_CHECK(big[r * n + j] == val(1 - group, r, j), "inter Gather %d [%d]", r, j);
    for (int r = 0; r < 16; r++) {
        counts[r] = r % 3 + 1;
        displs[r] = 4 * (15 - r);
    }
    MT_MPI(MPI_Gatherv(buf, lrank % 3 + 1, MPI_INT, big, counts, displs, MPI_INT, root, inter));
    if (root == MPI_ROOT)
        for (int r = 0; r < rsize; r++)
            for (int j = 0; j < counts[r]; j++)
                MT_CHECK(big[displs[r] + j] == val(1 - group, r, j), "inter Gatherv %d [%d]", r,
                         j);

    /* Scatter / Scatterv */
    if (root == MPI_ROOT)
        for (int r = 0; r < rsize; r++)
            for (int j = 0; j < n; j++)
                big[r * n + j] = val(group, r, j) + 5;
    MT_MPI(MPI_Scatter(big, n, MPI_INT, buf, n, MPI_INT, root, inter));
    if (!in_root_group)
        for (int j = 0; j < n; j++)
            MT_CHECK(buf[j] == val(root_group, lrank, j) + 5, "inter Scatter [%d] = %d", j,
                     buf[j]);
    if (root == MPI_ROOT)
        for (int r = 0; r < rsize; r++)
            for (int j = 0; j < counts[r]; j++)
                big[displs[r] + j] = val(group, r, j) + 9;
    MT_MPI(MPI_Scatterv(big, counts, displs, MPI_INT, buf, lrank % 3 + 1, MPI_INT, root, inter));
    if (!in_root_group)
        for (int j = 0; j < lrank % 3 + 1; j++)
            MT_CHECK(buf[j] == val(root_group, lrank, j) + 9, "inter Scatterv [%d]", j);
    free(buf);
    free(big);
}

static void symmetric(void)
{
    int n = 3;
    int *sbuf = mt_malloc(sizeof(int) * 64 * n), *rbuf = mt_malloc(sizeof(int) * 64 * n);

    /* Allreduce: each group gets the other group's sum */
    for (int j = 0; j < n; j++)
        sbuf[j] = val(group, lrank, j);
    MT_MPI(MPI_Allreduce(sbuf, rbuf, n, MPI_INT, MPI_SUM, inter));
    for (int j = 0; j < n; j++) {
        int want = 0;
        for (int r = 0; r < rsize; r++)
            want += val(1 - group, r, j);
        MT_CHECK(rbuf[j] == want, "inter Allreduce [%d] = %d want %d", j, rbuf[j], want);
    }

    /* Allgather: blocks of every remote rank */
    MT_MPI(MPI_Allgather(sbuf, n, MPI_INT, rbuf, n, MPI_INT, inter));
    for (int r = 0; r < rsize; r++)
        for (int j = 0; j < n; j++)
            MT_CHECK(rbuf[r * n + j] == val(1 - group, r, j), "inter Allgather %d [%d]", r, j);
    int counts[64], displs[64];
    for (int r = 0; r < 64; r++) {
        counts[r] = (r % 2) + 1;
        displs[r] = 3 * r;
    }
    MT_MPI(MPI_Allgatherv(sbuf, lrank % 2 + 1, MPI_INT, rbuf, counts, displs, MPI_INT, inter));
    for (int r = 0; r < rsize; r++)
        for (int j = 0; j < counts[r]; j++)
            MT_CHECK(rbuf[displs[r] + j] == val(1 - group, r, j), "inter Allgatherv %d [%d]", r,
                     j);

    /* Alltoall: block for remote rank d is val(group, lrank, d) */
    for (int d = 0; d < rsize; d++)
        for (int j = 0; j < n; j++)
            sbuf[d * n + j] = val(group, lrank, d * 10 + j);
    MT_MPI(MPI_Alltoall(sbuf, n, MPI_INT, rbuf, n, MPI_INT, inter));
    for (int r = 0; r < rsize; r++)
        for (int j = 0; j < n; j++)
            MT_CHECK(rbuf[r * n + j] == val(1 - group, r, lrank * 10 + j), "inter Alltoall %d", r);
    int c3[64], d3[64];
    MPI_Datatype types[64];
    for (int r = 0; r < 64; r++) {
        c3[r] = n;
        d3[r] = r * n;
        types[r] = MPI_INT;
    }
    MT_MPI(MPI_Alltoallv(sbuf, c3, d3, MPI_INT, rbuf, c3, d3, MPI_INT, inter));
    for (int r = 0; r < rsize; r++)
        MT_CHECK(rbuf[r * n] == val(1 - group, r, lrank * 10), "inter Alltoallv %d", r);
    for (int r = 0; r < 64; r++)
        d3[r] = r * n * (int)sizeof(int);
    MT_MPI(MPI_Alltoallw(sbuf, c3, d3, types, rbuf, c3, d3, types, inter));
    for (int r = 0; r < rsize; r++)
        MT_CHECK(rbuf[r * n + 2] == val(1 - group, r, lrank * 10 + 2), "inter Alltoallw %d", r);

    /* Reduce_scatter_block: my group's vector has lsize * n elements; I get my block of the
     * other group's sum. Both groups must then have equal lsize * n: use n * rsize / lsize...
     * keep it simple: counts so that both totals are 12 (lsize and rsize divide 12 here). */
    free(sbuf);
    free(rbuf);
}

static void reduce_scatter(void)
{
    /* total vector length T is the same in both groups; my group splits it evenly-ish */
    const int T = 12;
    int counts[64], before = 0;
    for (int r = 0; r < lsize; r++) {
        counts[r] = T / lsize + (r < T % lsize ? 1 : 0);
        if (r < lrank)
            before += counts[r];
    }
    int sbuf[12], rbuf[12];
    for (int j = 0; j < T; j++)
        sbuf[j] = val(group, lrank, j);
    MT_MPI(MPI_Reduce_scatter(sbuf, rbuf, counts, MPI_INT, MPI_SUM, inter));
    for (int j = 0; j < counts[lrank]; j++) {
        int want = 0;
        for (int r = 0; r < rsize; r++)
            want += val(1 - group, r, before + j);
        MT_CHECK(rbuf[j] == want, "inter Reduce_scatter [%d] = %d want %d", j, rbuf[j], want);
    }
    if (T % lsize == 0 && T % rsize == 0) {
        MT_MPI(MPI_Reduce_scatter_block(sbuf, rbuf, T / lsize, MPI_INT, MPI_SUM, inter));
        for (int j = 0; j < T / lsize; j++) {
            int want = 0;
            for (int r = 0; r < rsize; r++)
                want += val(1 - group, r, lrank * (T / lsize) + j);
            MT_CHECK(rbuf[j] == want, "inter Reduce_scatter_block [%d]", j);
        }
    }
}

static void noncommutative(void)
{
    MPI_Datatype span_type;
    MPI_Op op;
    MPI_Type_contiguous(3, MPI_INT, &span_type);
    MPI_Type_commit(&span_type);
    MPI_Op_create(span_op, 0, &op);
    span mine = {lrank, lrank, 1}, got = {-1, -1, -1};
    MT_MPI(MPI_Allreduce(&mine, &got, 1, span_type, op, inter));
    MT_CHECK(got.first == 0 && got.count == rsize, "inter Allreduce non-commutative: first %d "
             "count %d", got.first, got.count);
    MPI_Op_free(&op);
    MPI_Type_free(&span_type);
}

static void nonblocking(void)
{
    MPI_Request reqs[3];
    int a = val(group, lrank, 0), sum = -1, b = -1;
    int root = group == 0 ? (lrank == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0;
    if (group == 0 && lrank == 0)
        b = 77;
    MT_MPI(MPI_Ibarrier(inter, &reqs[0]));
    MT_MPI(MPI_Iallreduce(&a, &sum, 1, MPI_INT, MPI_SUM, inter, &reqs[1]));
    MT_MPI(MPI_Ibcast(&b, 1, MPI_INT, root, inter, &reqs[2]));
    MT_MPI(MPI_Waitall(3, reqs, MPI_STATUSES_IGNORE));
    int want = 0;
    for (int r = 0; r < rsize; r++)
        want += val(1 - group, r, 0);
    MT_CHECK(sum == want, "inter Iallreduce = %d want %d", sum, want);
    if (group == 1)
        MT_CHECK(b == 77, "inter Ibcast = %d", b);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    if (mt_size < 2)
        return mt_finish();
    MPI_Comm local;
    group = mt_rank % 2;
    MPI_Comm_split(MPI_COMM_WORLD, group, mt_rank, &local);
    MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, group == 0 ? 1 : 0, 99, &inter);
    MPI_Comm_rank(inter, &lrank);
    MPI_Comm_size(inter, &lsize);
    MPI_Comm_remote_size(inter, &rsize);

    for (int k = 0; k < 3; k++)
        MT_MPI(MPI_Barrier(inter));
    for (int g = 0; g < 2; g++) {
        int gsize = g == group ? lsize : rsize;
        for (int r = 0; r < gsize; r++)
            rooted(g, r);
    }
    symmetric();
    reduce_scatter();
    noncommutative();
    nonblocking();
    MPI_Comm_free(&inter);
    MPI_Comm_free(&local);
    return mt_finish();
}
