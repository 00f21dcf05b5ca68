/* vcoll_scan.c - MPI_Gatherv, Scatterv, Allgatherv, Alltoallv, Scan and Exscan on the world and
 * on pairs of ranks (MPI_Comm_split by rank / 2: two-rank communicators take src/coll/pair.c),
 * with uneven counts including zeros, gaps between blocks, equal packed counts (what IMB and
 * OSU time; allgatherv then runs allgather's algorithms), MPI_IN_PLACE, and scans with MPI_SUM
 * (commutative) and a non-commutative user op (2x2 matrix product mod a prime), counts 0 to
 * past the 2 KiB pair limit. Every element is a function of (source, destination, index). */
#include "mpitest.h"

#include <stdint.h>

enum { PRIME = 1000003 };

static int value(int from, int to, int j)
{
    return from * 100000 + to * 1000 + j % 1000;
}

/* Uneven counts with zeros: rank r's block for peer p. */
static int uneven(int r, int p, int scale)
{
    return ((r * 3 + p * 5) % 4) * scale;
}

static void check_block(const int *got, int from, int to, int n, const char *what, int size)
{
    for (int j = 0; j < n; j++)
        if (got[j] != value(from, to, j)) {
            mt_fail(__FILE__, __LINE__, "%s size %d: block from %d to %d [%d] = %d, want %d",
                    what, size, from, to, j, got[j], value(from, to, j));
            return;
        }
}

/* counts[r] and displs[r] of a v-collective: equal packed (scale > 0, uniform) or uneven with
 * a gap of r + 1 elements before each block. Returns the total span. */
static int layout(int size, int key, int scale, int uniform, int *counts, int *displs)
{
    int at = 0;
    for (int r = 0; r < size; r++) {
        counts[r] = uniform ? scale : uneven(r, key, scale);
        if (!uniform)
            at += r + 1;
        displs[r] = at;
        at += counts[r];
    }
    return at;
}

static void gatherv_scatterv(MPI_Comm comm, int scale, int uniform, int in_place)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    int *counts = mt_malloc(sizeof(int) * size), *displs = mt_malloc(sizeof(int) * size);
    for (int root = 0; root < size; root++) {
        int span = layout(size, root, scale, uniform, counts, displs);
        int mine = counts[rank];
        int *big = mt_malloc(sizeof(int) * (span + 1)), *small = mt_malloc(sizeof(int) * (mine + 1));
        for (int j = 0; j < mine; j++)
            small[j] = value(rank, root, j);
        for (int i = 0; i < span; i++)
            big[i] = -7;
        const void *sb = small;
        if (in_place && rank == root) {
            memcpy(big + displs[root], small, sizeof(int) * mine);
            sb = MPI_IN_PLACE;
        }
        MT_MPI(MPI_Gatherv(sb, mine, MPI_INT, big, counts, displs, MPI_INT, root, comm));
        if (rank == root)
            for (int r = 0; r < size; r++)
                check_block(big + displs[r], r, root, counts[r], "Gatherv", size);
        /* Scatterv: root's block r holds value(root, r, j) */
        if (rank == root)
            for (int r = 0; r < size; r++)
                for (int j = 0; j < counts[r]; j++)
                    big[displs[r] + j] = value(root, r, j);
        for (int j = 0; j < mine; j++)
            small[j] = -7;
        void *rb = in_place && rank == root ? MPI_IN_PLACE : small;
        MT_MPI(MPI_Scatterv(big, counts, displs, MPI_INT, rb, mine, MPI_INT, root, comm));
        check_block(rb == MPI_IN_PLACE ? big + displs[root] : small, root, rank, mine, "Scatterv",
                    size);
        free(big);
        free(small);
    }
    free(counts);
    free(displs);
}

static void allgatherv(MPI_Comm comm, int scale, int uniform, int in_place)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    int *counts = mt_malloc(sizeof(int) * size), *displs = mt_malloc(sizeof(int) * size);
    int span = layout(size, 1, scale, uniform, counts, displs);
    int mine = counts[rank];
    int *recv = mt_malloc(sizeof(int) * (span + 1)), *send = mt_malloc(sizeof(int) * (mine + 1));
    for (int i = 0; i < span; i++)
        recv[i] = -7;
    for (int j = 0; j < mine; j++)
        send[j] = value(rank, 0, j);
    const void *sb = send;
    if (in_place) {
        memcpy(recv + displs[rank], send, sizeof(int) * mine);
        sb = MPI_IN_PLACE;
    }
    MT_MPI(MPI_Allgatherv(sb, mine, MPI_INT, recv, counts, displs, MPI_INT, comm));
    for (int r = 0; r < size; r++)
        check_block(recv + displs[r], r, 0, counts[r], uniform ? "Allgatherv equal" : "Allgatherv",
                    size);
    free(counts);
    free(displs);
    free(recv);
    free(send);
}

static void alltoallv(MPI_Comm comm, int scale, int uniform)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    int *sc = mt_malloc(sizeof(int) * size), *sd = mt_malloc(sizeof(int) * size);
    int *rc = mt_malloc(sizeof(int) * size), *rd = mt_malloc(sizeof(int) * size);
    int sat = 0, rat = 0;
    for (int p = 0; p < size; p++) {
        sc[p] = uniform ? scale : uneven(rank, p, scale);
        rc[p] = uniform ? scale : uneven(p, rank, scale);
        sat += uniform ? 0 : 2;
        rat += uniform ? 0 : 1;
        sd[p] = sat;
        rd[p] = rat;
        sat += sc[p];
        rat += rc[p];
    }
    int *send = mt_malloc(sizeof(int) * (sat + 1)), *recv = mt_malloc(sizeof(int) * (rat + 1));
    for (int p = 0; p < size; p++)
        for (int j = 0; j < sc[p]; j++)
            send[sd[p] + j] = value(rank, p, j);
    for (int i = 0; i < rat; i++)
        recv[i] = -7;
    MT_MPI(MPI_Alltoallv(send, sc, sd, MPI_INT, recv, rc, rd, MPI_INT, comm));
    for (int p = 0; p < size; p++)
        check_block(recv + rd[p], p, rank, rc[p], "Alltoallv", size);
    free(sc);
    free(sd);
    free(rc);
    free(rd);
    free(send);
    free(recv);
}

/* A 2x2 matrix mod PRIME per element: the product is associative, not commutative. */
typedef struct {
    int m[4];
} mat;

static void mat_mul(const mat *x, mat *y) /* y = x * y */
{
    int64_t r[4];
    r[0] = ((int64_t)x->m[0] * y->m[0] + (int64_t)x->m[1] * y->m[2]) % PRIME;
    r[1] = ((int64_t)x->m[0] * y->m[1] + (int64_t)x->m[1] * y->m[3]) % PRIME;
    r[2] = ((int64_t)x->m[2] * y->m[0] + (int64_t)x->m[3] * y->m[2]) % PRIME;
    r[3] = ((int64_t)x->m[2] * y->m[1] + (int64_t)x->m[3] * y->m[3]) % PRIME;
    for (int i = 0; i < 4; i++)
        y->m[i] = (int)r[i];
}

static void mat_op(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)type;
    for (int i = 0; i < *len; i++)
        mat_mul((const mat *)in + i, (mat *)inout + i);
}

static mat mat_of(int rank, int j)
{
    mat a = {{rank + 2, j % 7 + 1, rank * j % 5, 3}};
    return a;
}

/* inclusive = 1: M(0, j) ... M(upto, j); the identity for upto < 0 */
static mat mat_prefix(int upto, int j)
{
    mat acc = {{1, 0, 0, 1}};
    for (int r = upto; r >= 0; r--) {
        mat a = mat_of(r, j);
        mat_mul(&a, &acc);
    }
    return acc;
}

static void scans(MPI_Comm comm, int count, int in_place, MPI_Datatype mat_type, MPI_Op mat_prod)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    int *isend = mt_malloc(sizeof(int) * (count + 1)), *irecv = mt_malloc(sizeof(int) * (count + 1));
    mat *msend = mt_malloc(sizeof(mat) * (count + 1)), *mrecv = mt_malloc(sizeof(mat) * (count + 1));
    for (int exclusive = 0; exclusive < 2; exclusive++) {
        for (int j = 0; j < count; j++) {
            isend[j] = rank * 7 + j;
            irecv[j] = in_place ? isend[j] : -7;
            msend[j] = mat_of(rank, j);
            mrecv[j] = in_place ? msend[j] : (mat){{-7, -7, -7, -7}};
        }
        const void *is = in_place ? MPI_IN_PLACE : isend, *ms = in_place ? MPI_IN_PLACE : msend;
        if (exclusive) {
            MT_MPI(MPI_Exscan(is, irecv, count, MPI_INT, MPI_SUM, comm));
            MT_MPI(MPI_Exscan(ms, mrecv, count, mat_type, mat_prod, comm));
        } else {
            MT_MPI(MPI_Scan(is, irecv, count, MPI_INT, MPI_SUM, comm));
            MT_MPI(MPI_Scan(ms, mrecv, count, mat_type, mat_prod, comm));
        }
        if (exclusive && rank == 0)
            continue; /* undefined there */
        int upto = exclusive ? rank - 1 : rank;
        for (int j = 0; j < count; j++) {
            int want = 7 * upto * (upto + 1) / 2 + (upto + 1) * j;
            mat m = mat_prefix(upto, j);
            if (irecv[j] != want || memcmp(&mrecv[j], &m, sizeof m)) {
                mt_fail(__FILE__, __LINE__, "%s%s size %d count %d rank %d [%d]: sum %d want %d, "
                        "matrix %d want %d", exclusive ? "Exscan" : "Scan",
                        in_place ? " IN_PLACE" : "", size, count, rank, j, irecv[j], want,
                        mrecv[j].m[1], m.m[1]);
                break;
            }
        }
    }
    free(isend);
    free(irecv);
    free(msend);
    free(mrecv);
}

static void all_on(MPI_Comm comm, MPI_Datatype mat_type, MPI_Op mat_prod)
{
    static const int scales[] = {1, 3, 700}; /* 700 ints per block: past the pair limit */
    for (int k = 0; k < 3; k++)
        for (int uniform = 0; uniform < 2; uniform++) {
            for (int in_place = 0; in_place < 2; in_place++) {
                gatherv_scatterv(comm, scales[k], uniform, in_place);
                allgatherv(comm, scales[k], uniform, in_place);
            }
            alltoallv(comm, scales[k], uniform);
        }
    static const int counts[] = {0, 1, 7, 1000};
    for (int k = 0; k < 4; k++)
        for (int in_place = 0; in_place < 2; in_place++)
            scans(comm, counts[k], in_place, mat_type, mat_prod);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    MPI_Datatype mat_type;
    MPI_Op mat_prod;
    MT_MPI(MPI_Type_contiguous(4, MPI_INT, &mat_type));
    MT_MPI(MPI_Type_commit(&mat_type));
    MT_MPI(MPI_Op_create(mat_op, 0, &mat_prod));
    all_on(MPI_COMM_WORLD, mat_type, mat_prod);
    MPI_Comm pair;
    MT_MPI(MPI_Comm_split(MPI_COMM_WORLD, mt_rank / 2, mt_rank, &pair));
    all_on(pair, mat_type, mat_prod);
    MT_MPI(MPI_Comm_free(&pair));
    MT_MPI(MPI_Op_free(&mat_prod));
    MT_MPI(MPI_Type_free(&mat_type));
    return mt_finish();
}
