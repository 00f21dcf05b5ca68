/* shm_allreduce.c - small MPI_Allreduce, MPI_Allgather and MPI_Alltoall calls back to back
 * under contention (at 3+ ranks of an oversubscribed job nodempi passes them through shared
 * cells, src/coll/shm_allreduce.c, shm_allgather.c, shm_alltoall.c): an allgather right after
 * an allreduce, an alltoall after it, and the other way round (they must not write cells the
 * other's ranks still read), blocks received
 * through a strided type on some ranks (they travel packed),
 * a non-commutative user op must combine in rank order, every round's values differ (a rank
 * that read a stale result or a cell of the next call would see it), MPI_IN_PLACE, sizes on
 * both sides of every cell size (128 bytes to 8 KiB by the job's rank count: every fourth
 * round goes up to ~10 KiB), interleaved with barriers and with calls on a duplicate.
 * Portable MPI. */
#include "mpitest.h"

#include <sched.h>

enum { ROUNDS = 2000 };

/* Every fourth round is a large one: a size drawn up to ~10 KiB, past the largest cell. */
static int large_round(int round)
{
    return round % 4 == 1;
}

/* 1..small elements, or 1..large in a large round. */
static int draw_count(int round, uint64_t salt, int small, int large)
{
    return 1 + (int)(mt_mix((uint64_t)round, salt) % (uint64_t)(large_round(round) ? large : small));
}

/* An affine map x -> a x + b (mod 2^32); composition is associative, not commutative. */
typedef struct {
    uint32_t a, b;
} affine;

static affine compose(affine f, affine g) /* f after g */
{
    affine h = {f.a * g.a, f.a * g.b + f.b};
    return h;
}

/* inout = in op inout, MPI's order: rank order c0 op c1 op ... comes out when op(x, y) = x o y */
static void compose_fn(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)type;
    affine *x = in, *y = inout;
    for (int i = 0; i < *len; i++)
        y[i] = compose(x[i], y[i]);
}

static affine contribution(int rank, int round, int i)
{
    affine f = {(uint32_t)mt_mix((uint64_t)round * 131 + (uint64_t)i, (uint64_t)rank) | 1,
                (uint32_t)mt_mix((uint64_t)round, (uint64_t)rank * 7 + (uint64_t)i)};
    return f;
}

static void dawdle(int round)
{
    uint64_t x = mt_mix((uint64_t)round, (uint64_t)mt_rank + 1000);
    if (x % 5 == 0)
        sched_yield();
    else if (x % 11 == 0)
        for (volatile int i = 0; i < 3000; i++)
            ;
}

static void check_affine(MPI_Comm comm, MPI_Op op, MPI_Datatype pair, int count, int round,
                         int in_place)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    affine *mine = mt_malloc(sizeof(affine) * (size_t)count);
    affine *got = mt_malloc(sizeof(affine) * (size_t)count);
    for (int i = 0; i < count; i++)
        mine[i] = got[i] = contribution(rank, round, i);
    if (in_place)
        MT_MPI(MPI_Allreduce(MPI_IN_PLACE, got, count, pair, op, comm));
    else
        MT_MPI(MPI_Allreduce(mine, got, count, pair, op, comm));
    for (int i = 0; i < count; i++) {
        affine want = contribution(0, round, i);
        for (int r = 1; r < size; r++)
            want = compose(want, contribution(r, round, i));
        if (got[i].a != want.a || got[i].b != want.b) {
            mt_fail(__FILE__, __LINE__, "round %d count %d [%d]: (%u, %u), want (%u, %u)", round,
                    count, i, got[i].a, got[i].b, want.a, want.b);
            break;
        }
    }
    free(mine);
    free(got);
}

static int block_value(int rank, int round, int i)
{
    return (int)(mt_mix((uint64_t)round * 977 + (uint64_t)i, (uint64_t)rank) & 0x7fffffff);
}

/* MPI_Allgather of k ints (4-160 bytes, up to 9600 in a large round) right after an allreduce on
 * the same communicator; odd ranks receive through a strided type of the same signature, so
 * the blocks must travel packed; every third round in place. */
static void check_allgather(MPI_Comm comm, int round)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    int k = draw_count(round, 17, 40, 2400);
    int strided = rank % 2 == 1;
    MPI_Datatype vec;
    MT_MPI(MPI_Type_vector(k, 1, 2, MPI_INT, &vec));
    MT_MPI(MPI_Type_commit(&vec));
    int stride = strided ? 2 * k - 1 : k; /* ints per received block */
    int *buf = mt_malloc(sizeof(int) * (size_t)(size * stride + 1));
    for (int i = 0; i < size * stride + 1; i++)
        buf[i] = -1;
    int *mine = mt_malloc(sizeof(int) * (size_t)k);
    for (int i = 0; i < k; i++)
        mine[i] = block_value(rank, round, i);
    int in_place = round % 3 == 2;
    if (in_place)
        for (int i = 0; i < k; i++)
            buf[rank * stride + (strided ? 2 * i : i)] = mine[i];
    MT_MPI(MPI_Allgather(in_place ? MPI_IN_PLACE : mine, k, MPI_INT, buf, strided ? 1 : k,
                         strided ? vec : MPI_INT, comm));
    for (int r = 0; r < size; r++)
        for (int i = 0; i < k; i++) {
            int got = buf[r * stride + (strided ? 2 * i : i)];
            if (got != block_value(r, round, i)) {
                mt_fail(__FILE__, __LINE__, "round %d allgather block %d [%d] = %d, want %d",
                        round, r, i, got, block_value(r, round, i));
                r = size;
                break;
            }
            if (strided && i + 1 < k && buf[r * stride + 2 * i + 1] != -1) {
                mt_fail(__FILE__, __LINE__, "round %d allgather wrote a gap", round);
                r = size;
                break;
            }
        }
    free(mine);
    free(buf);
    MPI_Type_free(&vec);
}

/* MPI_Alltoall of k ints per block (4-32 bytes; in a large round send vectors up to ~10 KiB)
 * after the allgather; odd ranks receive through a strided type; every third round
 * in place. Rank s's block for rank r differs for every (s, r, round). */
static void check_alltoall(MPI_Comm comm, int round)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    int k = draw_count(round, 23, 8, 2560 / size);
    int strided = rank % 2 == 1;
    MPI_Datatype vec;
    MT_MPI(MPI_Type_vector(k, 1, 2, MPI_INT, &vec));
    MT_MPI(MPI_Type_commit(&vec));
    int stride = strided ? 2 * k - 1 : k;
    int *buf = mt_malloc(sizeof(int) * (size_t)(size * stride + 1));
    int *mine = mt_malloc(sizeof(int) * (size_t)(size * k));
    for (int i = 0; i < size * stride + 1; i++)
        buf[i] = -1;
    for (int r = 0; r < size; r++)
        for (int i = 0; i < k; i++)
            mine[r * k + i] = block_value(rank * 1000 + r, round, i);
    int in_place = round % 3 == 1;
    if (in_place)
        for (int r = 0; r < size; r++)
            for (int i = 0; i < k; i++)
                buf[r * stride + (strided ? 2 * i : i)] = mine[r * k + i];
    MT_MPI(MPI_Alltoall(in_place ? MPI_IN_PLACE : mine, k, MPI_INT, buf, strided ? 1 : k,
                        strided ? vec : MPI_INT, comm));
    for (int r = 0; r < size; r++)
        for (int i = 0; i < k; i++) {
            int got = buf[r * stride + (strided ? 2 * i : i)];
            int want = block_value(r * 1000 + rank, round, i);
            if (got != want) {
                mt_fail(__FILE__, __LINE__, "round %d alltoall block from %d [%d] = %d, want %d",
                        round, r, i, got, want);
                r = size;
                break;
            }
            if (strided && i + 1 < k && buf[r * stride + 2 * i + 1] != -1) {
                mt_fail(__FILE__, __LINE__, "round %d alltoall wrote a gap", round);
                r = size;
                break;
            }
        }
    free(mine);
    free(buf);
    MPI_Type_free(&vec);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    MPI_Datatype pair;
    MT_MPI(MPI_Type_contiguous(2, MPI_UINT32_T, &pair));
    MT_MPI(MPI_Type_commit(&pair));
    MPI_Op op;
    MT_MPI(MPI_Op_create(compose_fn, 0, &op));
    MPI_Comm dup;
    MT_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    for (int round = 0; round < ROUNDS && !mt_errors; round++) {
        dawdle(round);
        int count = draw_count(round, 5, 17, 1200); /* 8-136 bytes, or up to 9600 */
        MPI_Comm comm = round % 4 == 3 ? dup : MPI_COMM_WORLD;
        check_affine(comm, op, pair, count, round, round % 3 == 0);
        check_allgather(comm, round);
        check_alltoall(comm, round);
        if (round % 7 == 0)
            MT_MPI(MPI_Barrier(MPI_COMM_WORLD));
        /* a predefined op on doubles: 1-16 of them, the sum is exact */
        double x[16], s[16];
        int n = 1 + round % 16;
        for (int i = 0; i < n; i++)
            x[i] = (double)(mt_rank + 1) * (round + i);
        MT_MPI(MPI_Allreduce(x, s, n, MPI_DOUBLE, MPI_SUM, comm));
        for (int i = 0; i < n; i++)
            if (s[i] != (double)mt_size * (mt_size + 1) / 2 * (round + i)) {
                mt_fail(__FILE__, __LINE__, "round %d sum [%d] = %g", round, i, s[i]);
                break;
            }
        /* MPI_MAXLOC on a pair type with padding (not contiguous: the schedule) */
        struct {
            double v;
            int i;
        } in = {(double)((mt_rank + round) % mt_size), mt_rank}, out;
        MT_MPI(MPI_Allreduce(&in, &out, 1, MPI_DOUBLE_INT, MPI_MAXLOC, comm));
        MT_CHECK(out.v == mt_size - 1, "round %d maxloc value %g", round, out.v);
    }
    MPI_Comm_free(&dup);
    MPI_Op_free(&op);
    MPI_Type_free(&pair);
    return mt_finish();
}
