/* sendrecv_derived: point-to-point with derived datatypes around a ring (send right, receive
 * from left): a matrix column (vector) into a contiguous array and into a column, a large
 * strided vector (rendezvous sizes) against contiguous on the other side, an array of structs
 * with mixed fields (padding must stay untouched), a 2D subarray halo exchange, Get_count /
 * Get_elements on a partial receive, and Isend/Irecv with the type freed before the wait. */
#include "../common/mpitest.h"

#include <stddef.h>

static int right_rank, left_rank;

static double value(int rank, int i, int j) { return rank * 1e6 + i * 1000.0 + j; }

/* Column `col` of an n x n matrix of doubles (row-major). */
static void test_matrix_column(int n)
{
    double *a = mt_malloc(sizeof(double) * n * n), *b = mt_malloc(sizeof(double) * n * n);
    double *column = mt_malloc(sizeof(double) * n);
    MPI_Datatype col_type;
    int col = n / 3, from_col = n / 3;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            a[i * n + j] = value(mt_rank, i, j);
            b[i * n + j] = -1;
        }
    MT_MPI(MPI_Type_vector(n, 1, n, MPI_DOUBLE, &col_type));
    MT_MPI(MPI_Type_commit(&col_type));

    /* vector -> contiguous */
    MT_MPI(MPI_Sendrecv(a + col, 1, col_type, right_rank, 1, column, n, MPI_DOUBLE, left_rank, 1,
                        MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    int bad = 0;
    for (int i = 0; i < n; i++)
        bad += column[i] != value(left_rank, i, from_col);
    MT_CHECK(bad == 0, "matrix %d: column received contiguously: %d wrong", n, bad);

    /* vector -> vector (into column n-1 of b); everything else in b untouched */
    MT_MPI(MPI_Sendrecv(a + col, 1, col_type, right_rank, 2, b + n - 1, 1, col_type, left_rank,
                        2, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    bad = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            bad += b[i * n + j] != (j == n - 1 ? value(left_rank, i, from_col) : -1);
    MT_CHECK(bad == 0, "matrix %d: column received into a column: %d wrong", n, bad);

    /* contiguous -> vector */
    for (int i = 0; i < n; i++)
        column[i] = value(mt_rank, i, -7);
    MPI_Status status;
    MT_MPI(MPI_Sendrecv(column, n, MPI_DOUBLE, right_rank, 3, b, 1, col_type, left_rank, 3,
                        MPI_COMM_WORLD, &status));
    int count = -1;
    MT_MPI(MPI_Get_count(&status, col_type, &count));
    MT_CHECK_INT(1, count, "Get_count with the column type");
    bad = 0;
    for (int i = 0; i < n; i++)
        bad += b[i * n] != value(left_rank, i, -7);
    MT_CHECK(bad == 0, "matrix %d: contiguous received into a column: %d wrong", n, bad);

    MT_MPI(MPI_Type_free(&col_type));
    free(a);
    free(b);
    free(column);
}

/* Every other double of a large array, both directions against contiguous. */
static void test_large_strided(int count)
{
    double *sparse = mt_malloc(sizeof(double) * 2 * count);
    double *dense = mt_malloc(sizeof(double) * count);
    MPI_Datatype t;
    MT_MPI(MPI_Type_vector(count, 1, 2, MPI_DOUBLE, &t));
    MT_MPI(MPI_Type_commit(&t));
    for (int i = 0; i < 2 * count; i++)
        sparse[i] = i % 2 ? -1.0 : value(mt_rank, 0, i);
    MT_MPI(MPI_Sendrecv(sparse, 1, t, right_rank, 4, dense, count, MPI_DOUBLE, left_rank, 4,
                        MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    int bad = 0;
    for (int i = 0; i < count; i++)
        bad += dense[i] != value(left_rank, 0, 2 * i);
    MT_CHECK(bad == 0, "strided %d -> contiguous: %d wrong", count, bad);

    for (int i = 0; i < count; i++)
        dense[i] = value(mt_rank, 1, i);
    for (int i = 0; i < 2 * count; i++)
        sparse[i] = -2.0;
    MT_MPI(MPI_Sendrecv(dense, count, MPI_DOUBLE, right_rank, 5, sparse, 1, t, left_rank, 5,
                        MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    bad = 0;
    for (int i = 0; i < 2 * count; i++)
        bad += sparse[i] != (i % 2 ? -2.0 : value(left_rank, 1, i / 2));
    MT_CHECK(bad == 0, "contiguous -> strided %d: %d wrong", count, bad);
    MT_MPI(MPI_Type_free(&t));
    free(sparse);
    free(dense);
}

struct particle {
    int id;
    double pos[3];
    char tag;
    float weight;
};

static void test_structs(int n)
{
    struct particle *out = mt_malloc(sizeof(*out) * n), *in = mt_malloc(sizeof(*in) * n);
    MPI_Datatype t, r;
    int lens[4] = {1, 3, 1, 1};
    MPI_Aint displs[4] = {offsetof(struct particle, id), offsetof(struct particle, pos),
                          offsetof(struct particle, tag), offsetof(struct particle, weight)};
    MPI_Datatype types[4] = {MPI_INT, MPI_DOUBLE, MPI_CHAR, MPI_FLOAT};
    MT_MPI(MPI_Type_create_struct(4, lens, displs, types, &t));
    MT_MPI(MPI_Type_create_resized(t, 0, sizeof(struct particle), &r));
    MT_MPI(MPI_Type_commit(&r));
    memset(in, 0x5c, sizeof(*in) * n);
    for (int i = 0; i < n; i++) {
        out[i].id = mt_rank * 100000 + i;
        for (int k = 0; k < 3; k++)
            out[i].pos[k] = value(mt_rank, i, k);
        out[i].tag = (char)(i % 128);
        out[i].weight = (float)i * 0.5f;
    }
    MT_MPI(MPI_Sendrecv(out, n, r, right_rank, 6, in, n, r, left_rank, 6, MPI_COMM_WORLD,
                        MPI_STATUS_IGNORE));
    int bad = 0, pad_bad = 0;
    for (int i = 0; i < n; i++) {
        bad += in[i].id != left_rank * 100000 + i || in[i].tag != (char)(i % 128) ||
               in[i].weight != (float)i * 0.5f;
        for (int k = 0; k < 3; k++)
            bad += in[i].pos[k] != value(left_rank, i, k);
        const unsigned char *p = (const unsigned char *)&in[i];
        pad_bad += p[offsetof(struct particle, id) + 4] != 0x5c ||
                   p[offsetof(struct particle, tag) + 1] != 0x5c;
    }
    MT_CHECK(bad == 0, "%d structs: %d fields wrong", n, bad);
    MT_CHECK(pad_bad == 0, "%d structs: padding written in %d of them", n, pad_bad);
    MT_MPI(MPI_Type_free(&t));
    MT_MPI(MPI_Type_free(&r));
    free(out);
    free(in);
}

/* Halo exchange on a (ny + 2) x (nx + 2) local array with a periodic ring in x: my first
 * interior column goes to the left neighbour's right ghost column and vice versa. */
static void test_halo(int ny, int nx)
{
    int rows = ny + 2, cols = nx + 2;
    double *u = mt_malloc(sizeof(double) * rows * cols);
    int sizes[2] = {rows, cols}, sub[2] = {ny, 1};
    int first_interior[2] = {1, 1}, last_interior[2] = {1, nx};
    int left_ghost[2] = {1, 0}, right_ghost[2] = {1, nx + 1};
    MPI_Datatype send_left, send_right, recv_left, recv_right;
    MT_MPI(MPI_Type_create_subarray(2, sizes, sub, first_interior, MPI_ORDER_C, MPI_DOUBLE,
                                    &send_left));
    MT_MPI(MPI_Type_create_subarray(2, sizes, sub, last_interior, MPI_ORDER_C, MPI_DOUBLE,
                                    &send_right));
    MT_MPI(MPI_Type_create_subarray(2, sizes, sub, left_ghost, MPI_ORDER_C, MPI_DOUBLE,
                                    &recv_left));
    MT_MPI(MPI_Type_create_subarray(2, sizes, sub, right_ghost, MPI_ORDER_C, MPI_DOUBLE,
                                    &recv_right));
    MPI_Datatype all[4] = {send_left, send_right, recv_left, recv_right};
    for (int k = 0; k < 4; k++)
        MT_MPI(MPI_Type_commit(&all[k]));
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < cols; j++)
            u[i * cols + j] = (i == 0 || j == 0 || i == rows - 1 || j == cols - 1)
                                  ? -1.0 : value(mt_rank, i, j);
    MT_MPI(MPI_Sendrecv(u, 1, all[0], left_rank, 7, u, 1, all[3], right_rank, 7, MPI_COMM_WORLD,
                        MPI_STATUS_IGNORE));
    MT_MPI(MPI_Sendrecv(u, 1, all[1], right_rank, 8, u, 1, all[2], left_rank, 8, MPI_COMM_WORLD,
                        MPI_STATUS_IGNORE));
    int bad = 0;
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < cols; j++) {
            double expected = value(mt_rank, i, j);
            if (i == 0 || i == rows - 1)
                expected = -1.0;
            else if (j == 0)
                expected = value(left_rank, i, nx);
            else if (j == cols - 1)
                expected = value(right_rank, i, 1);
            bad += u[i * cols + j] != expected;
        }
    MT_CHECK(bad == 0, "halo %dx%d: %d values wrong", ny, nx, bad);
    for (int k = 0; k < 4; k++)
        MT_MPI(MPI_Type_free(&all[k]));
    free(u);
}

/* Receive (int, double, int) with struct {int; double} x 2: one and a half elements. */
static void test_partial_elements(void)
{
    struct { int a; double b; int c; } out = {1, 2.0, 3};
    struct { int a; double b; } in[2];
    MPI_Datatype s3, s2, types3[3] = {MPI_INT, MPI_DOUBLE, MPI_INT},
                         types2[2] = {MPI_INT, MPI_DOUBLE};
    int lens[3] = {1, 1, 1};
    MPI_Aint d3[3] = {0, 8, 16}, d2[2] = {0, 8};
    MPI_Status status;
    MT_MPI(MPI_Type_create_struct(3, lens, d3, types3, &s3));
    MT_MPI(MPI_Type_create_struct(2, lens, d2, types2, &s2));
    MT_MPI(MPI_Type_commit(&s3));
    MT_MPI(MPI_Type_commit(&s2));
    MT_MPI(MPI_Sendrecv(&out, 1, s3, right_rank, 9, in, 2, s2, left_rank, 9, MPI_COMM_WORLD,
                        &status));
    int count = -1, elements = -1;
    MT_MPI(MPI_Get_count(&status, s2, &count));
    MT_MPI(MPI_Get_elements(&status, s2, &elements));
    MT_CHECK_INT(MPI_UNDEFINED, count, "Get_count of 1.5 elements");
    MT_CHECK_INT(3, elements, "Get_elements of (int, double, int)");
    MT_CHECK(in[0].a == 1 && in[0].b == 2.0 && in[1].a == 3, "partial receive values");
    MT_MPI(MPI_Type_free(&s3));
    MT_MPI(MPI_Type_free(&s2));
}

/* The user frees the type while requests still use it. */
static void test_free_while_pending(int n)
{
    int *out = mt_malloc(sizeof(int) * 3 * n), *in = mt_malloc(sizeof(int) * 3 * n);
    MPI_Datatype send_type, recv_type;
    MPI_Request requests[2];
    int lens[2] = {1, 1}, displs[2] = {0, 2};
    MT_MPI(MPI_Type_indexed(2, lens, displs, MPI_INT, &send_type)); /* ints 0 and 2 of 3 */
    MT_MPI(MPI_Type_create_resized(send_type, 0, 3 * sizeof(int), &recv_type));
    MT_MPI(MPI_Type_free(&send_type));
    MT_MPI(MPI_Type_dup(recv_type, &send_type));
    MT_MPI(MPI_Type_commit(&send_type));
    MT_MPI(MPI_Type_commit(&recv_type));
    for (int i = 0; i < 3 * n; i++) {
        out[i] = mt_rank * 1000000 + i;
        in[i] = -1;
    }
    MT_MPI(MPI_Irecv(in, n, recv_type, left_rank, 10, MPI_COMM_WORLD, &requests[0]));
    MT_MPI(MPI_Isend(out, n, send_type, right_rank, 10, MPI_COMM_WORLD, &requests[1]));
    MT_MPI(MPI_Type_free(&recv_type));
    MT_MPI(MPI_Type_free(&send_type));
    MT_MPI(MPI_Waitall(2, requests, MPI_STATUSES_IGNORE));
    int bad = 0;
    for (int i = 0; i < 3 * n; i++)
        bad += in[i] != (i % 3 == 1 ? -1 : left_rank * 1000000 + i);
    MT_CHECK(bad == 0, "nonblocking with freed types (%d elements): %d wrong", n, bad);
    free(out);
    free(in);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    mt_set_errors_return(MPI_COMM_WORLD);
    right_rank = (mt_rank + 1) % mt_size;
    left_rank = (mt_rank + mt_size - 1) % mt_size;
    test_matrix_column(10);
    test_matrix_column(600);
    test_large_strided(7);
    test_large_strided(300000);
    test_structs(3);
    test_structs(4000);
    test_halo(8, 5);
    test_halo(700, 40);
    test_partial_elements();
    test_free_while_pending(5);
    test_free_while_pending(100000);
    return mt_finish();
}
