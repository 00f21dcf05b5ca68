/* user_ops.c - user-defined operators (MPI_Op_create, commutative and not) through every
 * reducing collective: Reduce (every root), Allreduce, Reduce_scatter, Reduce_scatter_block,
 * Scan and Exscan, each also with MPI_IN_PLACE, plus MPI_Reduce_local, MPI_Op_commutative and
 * MPI_Op_free. The non-commutative operator multiplies 2x2 matrices (mod 2^32), so any
 * combination out of rank order gives a different answer; the datatype handed to the user
 * function must be the one the program passed. */
#include "mpitest.h"

static MPI_Datatype mat_type;
static int wrong_type_seen;

typedef struct {
    unsigned a, b, c, d;
} mat;

/* inout = in x inout */
static void matmul(void *in_, void *inout_, int *len, MPI_Datatype *type)
{
    const mat *x = in_;
    mat *y = inout_;
    if (*type != mat_type)
        wrong_type_seen = 1;
    for (int i = 0; i < *len; i++) {
        mat r = {x[i].a * y[i].a + x[i].b * y[i].c, x[i].a * y[i].b + x[i].b * y[i].d,
                 x[i].c * y[i].a + x[i].d * y[i].c, x[i].c * y[i].b + x[i].d * y[i].d};
        y[i] = r;
    }
}

#if MPI_VERSION >= 4
static void matmul_c(void *in, void *inout, MPI_Count *len, MPI_Datatype *type)
{
    int n = (int)*len;
    matmul(in, inout, &n, type);
}
#endif

static void addmat(void *in_, void *inout_, int *len, MPI_Datatype *type)
{
    const mat *x = in_;
    mat *y = inout_;
    (void)type;
    for (int i = 0; i < *len; i++) {
        y[i].a += x[i].a;
        y[i].b += x[i].b;
        y[i].c += x[i].c;
        y[i].d += x[i].d;
    }
}

static mat input(int rank, int i)
{
    mat m = {(unsigned)((rank + i) % 3 + 1), (unsigned)(rank % 2 + i % 3),
             (unsigned)((rank + 2 * i) % 2), 1u + (unsigned)(rank * 7 + i) % 5};
    return m;
}

static mat combine(int commutative, mat x, mat y) /* x op y, x the lower ranks */
{
    int one = 1;
    if (commutative)
        addmat(&x, &y, &one, &mat_type);
    else
        matmul(&x, &y, &one, &mat_type);
    return y;
}

static int same(mat x, mat y)
{
    return x.a == y.a && x.b == y.b && x.c == y.c && x.d == y.d;
}

/* reference: ranks [from, to) folded in order for element i */
static mat fold(int commutative, int from, int to, int i)
{
    mat acc = input(from, i);
    for (int r = from + 1; r < to; r++)
        acc = combine(commutative, acc, input(r, i));
    return acc;
}

static void fill(mat *buf, int count)
{
    for (int i = 0; i < count; i++)
        buf[i] = input(mt_rank, i);
}

static void check(const mat *got, int count, int commutative, int from, int to, int offset,
                  const char *what)
{
    for (int i = 0; i < count; i++)
        if (!same(got[i], fold(commutative, from, to, offset + i))) {
            mt_fail(__FILE__, __LINE__, "%s (%s): element %d wrong", what,
                    commutative ? "commutative" : "non-commutative", i);
            return;
        }
}

static void run(MPI_Op op, int commutative, int count)
{
    mat *send = mt_malloc(sizeof(mat) * count * mt_size + 1);
    mat *recv = mt_malloc(sizeof(mat) * count * mt_size + 1);

    for (int root = 0; root < mt_size; root++) {
        fill(send, count);
        MT_MPI(MPI_Reduce(send, recv, count, mat_type, op, root, MPI_COMM_WORLD));
        if (mt_rank == root)
            check(recv, count, commutative, 0, mt_size, 0, "Reduce");
        fill(recv, count);
        MT_MPI(MPI_Reduce(mt_rank == root ? MPI_IN_PLACE : send, recv, count, mat_type, op, root,
                          MPI_COMM_WORLD));
        if (mt_rank == root)
            check(recv, count, commutative, 0, mt_size, 0, "Reduce IN_PLACE");
    }
    fill(send, count);
    MT_MPI(MPI_Allreduce(send, recv, count, mat_type, op, MPI_COMM_WORLD));
    check(recv, count, commutative, 0, mt_size, 0, "Allreduce");
    fill(recv, count);
    MT_MPI(MPI_Allreduce(MPI_IN_PLACE, recv, count, mat_type, op, MPI_COMM_WORLD));
    check(recv, count, commutative, 0, mt_size, 0, "Allreduce IN_PLACE");

    fill(send, count);
    MT_MPI(MPI_Scan(send, recv, count, mat_type, op, MPI_COMM_WORLD));
    check(recv, count, commutative, 0, mt_rank + 1, 0, "Scan");
    fill(recv, count);
    MT_MPI(MPI_Scan(MPI_IN_PLACE, recv, count, mat_type, op, MPI_COMM_WORLD));
    check(recv, count, commutative, 0, mt_rank + 1, 0, "Scan IN_PLACE");
    MT_MPI(MPI_Exscan(send, recv, count, mat_type, op, MPI_COMM_WORLD));
    if (mt_rank > 0)
        check(recv, count, commutative, 0, mt_rank, 0, "Exscan");
    fill(recv, count);
    MT_MPI(MPI_Exscan(MPI_IN_PLACE, recv, count, mat_type, op, MPI_COMM_WORLD));
    if (mt_rank > 0)
        check(recv, count, commutative, 0, mt_rank, 0, "Exscan IN_PLACE");

    /* Reduce_scatter_block: the full vector is count * size elements, block r to rank r */
    int total = count * mt_size;
    for (int i = 0; i < total; i++)
        send[i] = input(mt_rank, i);
    MT_MPI(MPI_Reduce_scatter_block(send, recv, count, mat_type, op, MPI_COMM_WORLD));
    check(recv, count, commutative, 0, mt_size, mt_rank * count, "Reduce_scatter_block");
    for (int i = 0; i < total; i++)
        recv[i] = input(mt_rank, i);
    MT_MPI(MPI_Reduce_scatter_block(MPI_IN_PLACE, recv, count, mat_type, op, MPI_COMM_WORLD));
    check(recv, count, commutative, 0, mt_size, mt_rank * count,
          "Reduce_scatter_block IN_PLACE");

    /* Reduce_scatter with uneven counts (rank r gets r % 3 * count / 2 + 1 elements) */
    int *counts = mt_malloc(sizeof(int) * mt_size), sum = 0, before = 0;
    for (int r = 0; r < mt_size; r++) {
        counts[r] = r % 3 * count / 2 + (r % 2);
        if (r < mt_rank)
            before += counts[r];
        sum += counts[r];
    }
    mat *full = mt_malloc(sizeof(mat) * (sum + 1));
    for (int i = 0; i < sum; i++)
        full[i] = input(mt_rank, i);
    MT_MPI(MPI_Reduce_scatter(full, recv, counts, mat_type, op, MPI_COMM_WORLD));
    check(recv, counts[mt_rank], commutative, 0, mt_size, before, "Reduce_scatter");
    MT_MPI(MPI_Reduce_scatter(MPI_IN_PLACE, full, counts, mat_type, op, MPI_COMM_WORLD));
    check(full, counts[mt_rank], commutative, 0, mt_size, before, "Reduce_scatter IN_PLACE");
    free(full);
    free(counts);
    free(send);
    free(recv);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    MPI_Type_contiguous(4, MPI_UNSIGNED, &mat_type);
    MPI_Type_commit(&mat_type);
    MPI_Op noncomm, comm;
    MT_MPI(MPI_Op_create(matmul, 0, &noncomm));
    MT_MPI(MPI_Op_create(addmat, 1, &comm));
    int flag = -1;
    MPI_Op_commutative(noncomm, &flag);
    MT_CHECK(flag == 0, "Op_commutative(noncommutative) = %d", flag);
    MPI_Op_commutative(comm, &flag);
    MT_CHECK(flag == 1, "Op_commutative(commutative) = %d", flag);
    MPI_Op_commutative(MPI_SUM, &flag);
    MT_CHECK(flag == 1, "Op_commutative(MPI_SUM) = %d", flag);

    const int counts[] = {1, 5, 700};
    for (int c = 0; c < 3; c++) {
        run(noncomm, 0, counts[c]);
        run(comm, 1, counts[c]);
    }
    MT_CHECK(!wrong_type_seen, "the user function got a datatype other than the one passed");

    /* Reduce_local: inout = in op inout */
    mat x = input(1, 0), y = input(2, 0), want = combine(0, input(1, 0), input(2, 0));
    MT_MPI(MPI_Reduce_local(&x, &y, 1, mat_type, noncomm));
    MT_CHECK(same(y, want), "Reduce_local argument order");

#if MPI_VERSION >= 4
    /* the large-count form of a user function */
    MPI_Op big;
    MT_MPI(MPI_Op_create_c(matmul_c, 0, &big));
    mat m = input(mt_rank, 3), r;
    MT_MPI(MPI_Allreduce(&m, &r, 1, mat_type, big, MPI_COMM_WORLD));
    MT_CHECK(same(r, fold(0, 0, mt_size, 3)), "Allreduce with an MPI_Op_create_c operator");
    MT_MPI(MPI_Op_free(&big));
#endif
    MT_MPI(MPI_Op_free(&noncomm));
    MT_CHECK(noncomm == MPI_OP_NULL, "Op_free did not set MPI_OP_NULL");
    MT_MPI(MPI_Op_free(&comm));
    MPI_Type_free(&mat_type);
    return mt_finish();
}
