/* allgather_alltoall.c - MPI_Allgather, Allgatherv, Alltoall, Alltoallv and Alltoallw with
 * counts 0, 1, odd and large (each algorithm of the selection tables is reached at some size),
 * MPI_IN_PLACE, uneven v counts with gaps, a per-peer datatype in Alltoallw (ints to even
 * ranks, doubles to odd ranks, a strided type on receive), and a receive layout that differs
 * from the send layout. Element j of the block rank `from` sends to rank `to` is
 * value(from, to, j) (to = -1 for allgather, where every rank gets the same block). */
#include "mpitest.h"

static int value(int from, int to, int j)
{
    return from * 100000 + (to + 1) * 1000 + j;
}

static void allgather(int count, int in_place)
{
    int *send = mt_malloc(sizeof(int) * (count + 1));
    int *recv = mt_malloc(sizeof(int) * (count * mt_size + 1));
    for (int j = 0; j < count; j++)
        send[j] = value(mt_rank, -1, j);
    for (int i = 0; i < count * mt_size; i++)
        recv[i] = -1;
    const void *sb = send;
    if (in_place) {
        memcpy(recv + mt_rank * count, send, sizeof(int) * count);
        sb = MPI_IN_PLACE;
    }
    MT_MPI(MPI_Allgather(sb, count, MPI_INT, recv, count, MPI_INT, MPI_COMM_WORLD));
    for (int r = 0; r < mt_size; r++)
        for (int j = 0; j < count; j++)
            if (recv[r * count + j] != value(r, -1, j)) {
                mt_fail(__FILE__, __LINE__, "Allgather%s count %d: block %d [%d] = %d",
                        in_place ? " IN_PLACE" : "", count, r, j, recv[r * count + j]);
                return;
            }
    free(send);
    free(recv);
}

static int vcount(int r, int scale)
{
    return ((r * 7) % 5) * scale + (r % 2);
}

static void allgatherv(int scale, int in_place)
{
    int *counts = mt_malloc(sizeof(int) * mt_size), *displs = mt_malloc(sizeof(int) * mt_size);
    int total = 0;
    for (int r = 0; r < mt_size; r++) {
        counts[r] = vcount(r, scale);
        displs[r] = total + 1;
        total += counts[r] + 1;
    }
    int *recv = mt_malloc(sizeof(int) * (total + 1)), *send = mt_malloc(sizeof(int) * (counts[mt_rank] + 1));
    for (int i = 0; i < total; i++)
        recv[i] = -1;
    for (int j = 0; j < counts[mt_rank]; j++)
        send[j] = value(mt_rank, -1, j);
    const void *sb = send;
    if (in_place) {
        memcpy(recv + displs[mt_rank], send, sizeof(int) * counts[mt_rank]);
        sb = MPI_IN_PLACE;
    }
    MT_MPI(MPI_Allgatherv(sb, counts[mt_rank], MPI_INT, recv, counts, displs, MPI_INT,
                          MPI_COMM_WORLD));
    for (int r = 0; r < mt_size; r++) {
        MT_CHECK(recv[displs[r] - 1] == -1, "Allgatherv wrote the gap before block %d", r);
        for (int j = 0; j < counts[r]; j++)
            if (recv[displs[r] + j] != value(r, -1, j)) {
                mt_fail(__FILE__, __LINE__, "Allgatherv%s scale %d: block %d [%d] = %d",
                        in_place ? " IN_PLACE" : "", scale, r, j, recv[displs[r] + j]);
                break;
            }
    }
    free(counts);
    free(displs);
    free(recv);
    free(send);
}

/* Allgather of count ints into blocks laid out as vector(count, 1, 2) resized to 2*count. */
static void allgather_derived(int count)
{
    MPI_Datatype strided, block;
    MPI_Type_vector(count, 1, 2, MPI_INT, &strided);
    MPI_Type_create_resized(strided, 0, (MPI_Aint)(2 * count * sizeof(int)), &block);
    MPI_Type_commit(&block);
    int *send = mt_malloc(sizeof(int) * count), *recv = mt_malloc(sizeof(int) * 2 * count *
                                                                    mt_size);
    for (int j = 0; j < count; j++)
        send[j] = value(mt_rank, -1, j);
    for (int i = 0; i < 2 * count * mt_size; i++)
        recv[i] = -1;
    MT_MPI(MPI_Allgather(send, count, MPI_INT, recv, 1, block, MPI_COMM_WORLD));
    for (int r = 0; r < mt_size; r++)
        for (int j = 0; j < count; j++)
            if (recv[2 * (r * count + j)] != value(r, -1, j) || recv[2 * (r * count + j) + 1] != -1) {
                mt_fail(__FILE__, __LINE__, "derived Allgather count %d: block %d [%d]", count, r,
                        j);
                r = mt_size;
                break;
            }
    MPI_Type_free(&strided);
    MPI_Type_free(&block);
    free(send);
    free(recv);
}

static void alltoall(int count, int in_place)
{
    int n = count * mt_size;
    int *send = mt_malloc(sizeof(int) * (n + 1)), *recv = mt_malloc(sizeof(int) * (n + 1));
    for (int d = 0; d < mt_size; d++)
        for (int j = 0; j < count; j++)
            send[d * count + j] = value(mt_rank, d, j);
    for (int i = 0; i < n; i++)
        recv[i] = -1;
    const void *sb = send;
    if (in_place) {
        memcpy(recv, send, sizeof(int) * n);
        sb = MPI_IN_PLACE;
    }
    MT_MPI(MPI_Alltoall(sb, count, MPI_INT, recv, count, MPI_INT, MPI_COMM_WORLD));
    for (int r = 0; r < mt_size; r++)
        for (int j = 0; j < count; j++)
            if (recv[r * count + j] != value(r, mt_rank, j)) {
                mt_fail(__FILE__, __LINE__, "Alltoall%s count %d: from %d [%d] = %d",
                        in_place ? " IN_PLACE" : "", count, r, j, recv[r * count + j]);
                r = mt_size;
                break;
            }
    free(send);
    free(recv);
}

/* rank `from` sends pair_count(from, to) ints to rank `to` */
static int pair_count(int from, int to, int scale)
{
    return ((from * 3 + to * 5) % 4) * scale + ((from + to) % 2);
}

static void alltoallv(int scale, int in_place)
{
    int *sc = mt_malloc(sizeof(int) * mt_size), *sd = mt_malloc(sizeof(int) * mt_size);
    int *rc = mt_malloc(sizeof(int) * mt_size), *rd = mt_malloc(sizeof(int) * mt_size);
    int stotal = 0, rtotal = 0;
    for (int p = mt_size - 1; p >= 0; p--) {
        sc[p] = pair_count(mt_rank, p, scale);
        sd[p] = stotal;
        stotal += sc[p] + 2;
        rc[p] = pair_count(p, mt_rank, scale);
        rd[p] = rtotal + 1;
        rtotal += rc[p] + 1;
    }
    if (in_place) { /* the receive layout carries the send data: symmetric counts needed */
        for (int p = 0; p < mt_size; p++)
            sc[p] = rc[p] = pair_count(mt_rank < p ? mt_rank : p, mt_rank < p ? p : mt_rank,
                                       scale);
        rtotal = 0;
        for (int p = 0; p < mt_size; p++) {
            rd[p] = rtotal + 1;
            rtotal += rc[p] + 1;
        }
    }
    int *send = mt_malloc(sizeof(int) * (stotal + 1)), *recv = mt_malloc(sizeof(int) * (rtotal + 1));
    for (int p = 0; p < mt_size && !in_place; p++)
        for (int j = 0; j < sc[p]; j++)
            send[sd[p] + j] = value(mt_rank, p, j);
    for (int i = 0; i < rtotal; i++)
        recv[i] = -1;
    if (in_place) {
        for (int p = 0; p < mt_size; p++)
            for (int j = 0; j < rc[p]; j++)
                recv[rd[p] + j] = value(mt_rank, p, j);
        MT_MPI(MPI_Alltoallv(MPI_IN_PLACE, NULL, NULL, MPI_DATATYPE_NULL, recv, rc, rd, MPI_INT,
                             MPI_COMM_WORLD));
    } else {
        MT_MPI(MPI_Alltoallv(send, sc, sd, MPI_INT, recv, rc, rd, MPI_INT, MPI_COMM_WORLD));
    }
    for (int p = 0; p < mt_size; p++) {
        MT_CHECK(recv[rd[p] - 1] == -1, "Alltoallv wrote the gap before block %d", p);
        for (int j = 0; j < rc[p]; j++)
            if (recv[rd[p] + j] != value(p, mt_rank, j)) {
                mt_fail(__FILE__, __LINE__, "Alltoallv%s scale %d: from %d [%d] = %d",
                        in_place ? " IN_PLACE" : "", scale, p, j, recv[rd[p] + j]);
                break;
            }
    }
    free(sc);
    free(sd);
    free(rc);
    free(rd);
    free(send);
    free(recv);
}

/* Alltoallw: to even ranks 3 ints, to odd ranks 2 doubles; odd ranks receive ints through a
 * strided type. Displacements in bytes, blocks in reverse order. */
static void alltoallw(void)
{
    MPI_Datatype strided;
    MPI_Type_vector(3, 1, 2, MPI_INT, &strided);
    MPI_Type_commit(&strided);
    int n = mt_size;
    int *sc = mt_malloc(sizeof(int) * n), *sd = mt_malloc(sizeof(int) * n);
    int *rc = mt_malloc(sizeof(int) * n), *rd = mt_malloc(sizeof(int) * n);
    MPI_Datatype *st = mt_malloc(sizeof(MPI_Datatype) * n), *rt = mt_malloc(sizeof(MPI_Datatype) * n);
    char *send = mt_malloc(32 * n), *recv = mt_malloc(32 * n);
    memset(recv, 0xff, 32 * n);
    for (int p = 0; p < n; p++) {
        sd[p] = rd[p] = 32 * (n - 1 - p);
        if (p % 2 == 0) {
            sc[p] = 3;
            st[p] = MPI_INT;
            for (int j = 0; j < 3; j++)
                ((int *)(send + sd[p]))[j] = value(mt_rank, p, j);
        } else {
            sc[p] = 2;
            st[p] = MPI_DOUBLE;
            for (int j = 0; j < 2; j++)
                ((double *)(send + sd[p]))[j] = value(mt_rank, p, j) + 0.5;
        }
        if (mt_rank % 2 == 0) {
            rc[p] = 3;
            rt[p] = MPI_INT;
        } else {
            rc[p] = 2;
            rt[p] = MPI_DOUBLE;
        }
    }
    /* odd ranks receive... their senders send 2 doubles; even ranks receive 3 ints, through
     * the strided type on ranks divisible by 4 */
    if (mt_rank % 4 == 0)
        for (int p = 0; p < n; p++) {
            rc[p] = 1;
            rt[p] = strided;
        }
    MT_MPI(MPI_Alltoallw(send, sc, sd, st, recv, rc, rd, rt, MPI_COMM_WORLD));
    for (int p = 0; p < n; p++) {
        const char *blk = recv + rd[p];
        if (mt_rank % 2 == 1) {
            for (int j = 0; j < 2; j++)
                MT_CHECK(((const double *)blk)[j] == value(p, mt_rank, j) + 0.5,
                         "Alltoallw from %d double [%d]", p, j);
        } else {
            int step = mt_rank % 4 == 0 ? 2 : 1;
            for (int j = 0; j < 3; j++)
                MT_CHECK(((const int *)blk)[j * step] == value(p, mt_rank, j),
                         "Alltoallw from %d int [%d] = %d", p, j, ((const int *)blk)[j * step]);
            if (step == 2)
                MT_CHECK(((const int *)blk)[1] == -1 && ((const int *)blk)[3] == -1,
                         "Alltoallw strided receive wrote a gap");
        }
    }
    MPI_Type_free(&strided);
    free(sc);
    free(sd);
    free(rc);
    free(rd);
    free(st);
    free(rt);
    free(send);
    free(recv);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    const int counts[] = {0, 1, 7, 50, 3001};
    for (int c = 0; c < 5; c++)
        for (int in_place = 0; in_place < 2; in_place++) {
            allgather(counts[c], in_place);
            alltoall(counts[c], in_place);
        }
    for (int scale = 0; scale < 3; scale++)
        for (int in_place = 0; in_place < 2; in_place++) {
            allgatherv(scale * 700 + 1, in_place);
            alltoallv(scale * 700 + 1, in_place);
        }
    allgather_derived(3);
    allgather_derived(2500);
    alltoallw();
    return mt_finish();
}
