/* reduce_segmented: MPI_Reduce of vectors long enough that a two-rank reduce moves them in
 * segments (src/coll/pair.c, NODEMPI_REDUCE_SEGMENT; the testlist also runs it with tiny
 * segments, so many segments are in flight, and at 3 ranks, where the schedules run): every
 * element checked for SUM on int, MAXLOC on MPI_DOUBLE_INT (extent 16, size 12), a contiguous
 * derived type, a vector type whose gaps must stay untouched, a non-commutative user operation
 * (left projection: the result is rank 0's vector whatever the root), MPI_IN_PLACE at the root,
 * and both roots. */
#include "mpitest.h"

#include <string.h>

enum { N = 100003 }; /* 400 KB of int: more than six 64 KiB segments and a remainder */

static int value(int rank, int i)
{
    return (rank + 1) * (i % 1000) - 7 * rank;
}

static void left_projection(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)type;
    memcpy(inout, in, (size_t)*len * sizeof(int));
}

static void check_sum(int root, int in_place)
{
    int *send = mt_malloc(sizeof(int) * N), *recv = mt_malloc(sizeof(int) * N);
    for (int i = 0; i < N; i++)
        send[i] = recv[i] = value(mt_rank, i);
    const void *sbuf = in_place && mt_rank == root ? MPI_IN_PLACE : send;
    MT_MPI(MPI_Reduce(sbuf, recv, N, MPI_INT, MPI_SUM, root, MPI_COMM_WORLD));
    if (mt_rank == root) {
        for (int i = 0; i < N; i++) {
            int want = 0;
            for (int r = 0; r < mt_size; r++)
                want += value(r, i);
            if (recv[i] != want) {
                mt_fail(__FILE__, __LINE__, "SUM root %d in_place %d: element %d is %d, want %d",
                        root, in_place, i, recv[i], want);
                break;
            }
        }
    }
    free(send);
    free(recv);
}

static void check_maxloc(int root)
{
    struct { double v; int loc; } *send = mt_malloc(sizeof(*send) * N),
                                  *recv = mt_malloc(sizeof(*recv) * N);
    for (int i = 0; i < N; i++) {
        send[i].v = (double)((i + mt_rank) % mt_size); /* the max moves from rank to rank */
        send[i].loc = mt_rank * 1000000 + i;
    }
    MT_MPI(MPI_Reduce(send, recv, N, MPI_DOUBLE_INT, MPI_MAXLOC, root, MPI_COMM_WORLD));
    if (mt_rank == root) {
        for (int i = 0; i < N; i++) {
            int winner = ((mt_size - 1 - i) % mt_size + mt_size) % mt_size;
            if (recv[i].v != (double)(mt_size - 1) || recv[i].loc != winner * 1000000 + i) {
                mt_fail(__FILE__, __LINE__, "MAXLOC root %d: element %d is (%g, %d)", root, i,
                        recv[i].v, recv[i].loc);
                break;
            }
        }
    }
    free(send);
    free(recv);
}

/* Three ints per element (contiguous type) and two of every three ints (vector type). */
static void check_derived(int root)
{
    enum { M = N / 3 };
    MPI_Datatype triple, strided;
    MPI_Type_contiguous(3, MPI_INT, &triple);
    MPI_Type_commit(&triple);
    MPI_Type_vector(2, 1, 2, MPI_INT, &strided); /* ints 0 and 2 of each 3, extent 12 */
    MPI_Type_commit(&strided);
    int *send = mt_malloc(sizeof(int) * 3 * M), *recv = mt_malloc(sizeof(int) * 3 * M);
    for (int i = 0; i < 3 * M; i++)
        send[i] = value(mt_rank, i);
    MT_MPI(MPI_Reduce(send, recv, M, triple, MPI_SUM, root, MPI_COMM_WORLD));
    for (int i = 0; mt_rank == root && i < 3 * M; i++) {
        int want = 0;
        for (int r = 0; r < mt_size; r++)
            want += value(r, i);
        if (recv[i] != want) {
            mt_fail(__FILE__, __LINE__, "contiguous type root %d: int %d is %d, want %d", root,
                    i, recv[i], want);
            break;
        }
    }
    for (int i = 0; i < 3 * M; i++)
        recv[i] = -12345;
    MT_MPI(MPI_Reduce(send, recv, M, strided, MPI_MAX, root, MPI_COMM_WORLD));
    for (int i = 0; mt_rank == root && i < 3 * M; i++) {
        int want = -12345;
        if (i % 3 != 1) {
            want = value(0, i);
            for (int r = 1; r < mt_size; r++)
                if (value(r, i) > want)
                    want = value(r, i);
        }
        if (recv[i] != want) {
            mt_fail(__FILE__, __LINE__, "vector type root %d: int %d is %d, want %d", root, i,
                    recv[i], want);
            break;
        }
    }
    free(send);
    free(recv);
    MPI_Type_free(&triple);
    MPI_Type_free(&strided);
}

static void check_noncommutative(int root, MPI_Op left)
{
    int *send = mt_malloc(sizeof(int) * N), *recv = mt_malloc(sizeof(int) * N);
    for (int i = 0; i < N; i++)
        send[i] = value(mt_rank, i);
    MT_MPI(MPI_Reduce(send, recv, N, MPI_INT, left, root, MPI_COMM_WORLD));
    for (int i = 0; mt_rank == root && i < N; i++) {
        if (recv[i] != value(0, i)) {
            mt_fail(__FILE__, __LINE__, "left projection root %d: element %d is %d, want %d",
                    root, i, recv[i], value(0, i));
            break;
        }
    }
    free(send);
    free(recv);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    MPI_Op left;
    MT_MPI(MPI_Op_create(left_projection, 0, &left));
    for (int root = 0; root < mt_size && root < 2; root++) {
        check_sum(root, 0);
        check_sum(root, 1);
        check_maxloc(root);
        check_derived(root);
        check_noncommutative(root, left);
    }
    MPI_Op_free(&left);
    return mt_finish();
}
