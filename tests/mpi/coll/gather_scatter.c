/* gather_scatter.c - MPI_Gather, Gatherv, Scatter, Scatterv from every root, with counts 0, 1,
 * odd and large (past the binomial/linear switch), MPI_IN_PLACE at the root, v forms with
 * uneven counts and gaps between blocks, and a receive type that differs in layout from the
 * send type (contiguous ints in, vector of ints out). Every element is a function of
 * (source rank, destination rank, index). */
#include "mpitest.h"

static int value(int from, int to, int j)
{
    return from * 100000 + to * 1000 + j;
}

static void gather(int count, int root, int in_place)
{
    int *send = mt_malloc(sizeof(int) * (count + 1));
    int *recv = mt_malloc(sizeof(int) * (count * mt_size + 1));
    for (int j = 0; j < count; j++)
        send[j] = value(mt_rank, root, j);
    for (int i = 0; i < count * mt_size; i++)
        recv[i] = -1;
    const void *sb = send;
    if (in_place && mt_rank == root) {
        memcpy(recv + root * count, send, sizeof(int) * count);
        sb = MPI_IN_PLACE;
    }
    MT_MPI(MPI_Gather(sb, count, MPI_INT, recv, count, MPI_INT, root, MPI_COMM_WORLD));
    if (mt_rank == root)
        for (int r = 0; r < mt_size; r++)
            for (int j = 0; j < count; j++)
                if (recv[r * count + j] != value(r, root, j)) {
                    mt_fail(__FILE__, __LINE__, "Gather%s count %d root %d: block %d [%d] = %d",
                            in_place ? " IN_PLACE" : "", count, root, r, j, recv[r * count + j]);
                    r = mt_size;
                    break;
                }
    free(send);
    free(recv);
}

static void scatter(int count, int root, int in_place)
{
    int *send = mt_malloc(sizeof(int) * (count * mt_size + 1));
    int *recv = mt_malloc(sizeof(int) * (count + 1));
    for (int r = 0; r < mt_size; r++)
        for (int j = 0; j < count; j++)
            send[r * count + j] = value(root, r, j);
    for (int j = 0; j < count; j++)
        recv[j] = -1;
    void *rb = in_place && mt_rank == root ? MPI_IN_PLACE : recv;
    MT_MPI(MPI_Scatter(send, count, MPI_INT, rb, count, MPI_INT, root, MPI_COMM_WORLD));
    const int *got = rb == MPI_IN_PLACE ? send + root * count : recv;
    for (int j = 0; j < count; j++)
        if (got[j] != value(root, mt_rank, j)) {
            mt_fail(__FILE__, __LINE__, "Scatter%s count %d root %d: [%d] = %d",
                    in_place ? " IN_PLACE" : "", count, root, j, got[j]);
            break;
        }
    free(send);
    free(recv);
}

/* rank r contributes r % 4 * 3 + 1 elements (some ranks 1, some 10); blocks sit 2 apart. */
static int vcount(int r)
{
    return (r % 4) * 3 + 1;
}

static void gatherv_scatterv(int root, int in_place)
{
    int *counts = mt_malloc(sizeof(int) * mt_size), *displs = mt_malloc(sizeof(int) * mt_size);
    int total = 0;
    for (int r = mt_size - 1; r >= 0; r--) { /* blocks in reverse rank order */
        counts[r] = vcount(r);
        displs[r] = total + 2;
        total += counts[r] + 2;
    }
    int *big = mt_malloc(sizeof(int) * total), *mine = mt_malloc(sizeof(int) * 16);
    for (int i = 0; i < total; i++)
        big[i] = -1;
    for (int j = 0; j < vcount(mt_rank); j++)
        mine[j] = value(mt_rank, root, j);
    const void *sb = mine;
    if (in_place && mt_rank == root) {
        memcpy(big + displs[root], mine, sizeof(int) * counts[root]);
        sb = MPI_IN_PLACE;
    }
    MT_MPI(MPI_Gatherv(sb, vcount(mt_rank), MPI_INT, big, counts, displs, MPI_INT, root,
                       MPI_COMM_WORLD));
    if (mt_rank == root) {
        for (int r = 0; r < mt_size; r++)
            for (int j = 0; j < counts[r]; j++)
                MT_CHECK(big[displs[r] + j] == value(r, root, j),
                         "Gatherv root %d: block %d [%d] = %d", root, r, j, big[displs[r] + j]);
        for (int r = 0; r < mt_size; r++)
            MT_CHECK(big[displs[r] - 1] == -1 && big[displs[r] - 2] == -1,
                     "Gatherv root %d wrote into the gap before block %d", root, r);
    }
    /* scatterv back: block r goes to rank r */
    if (mt_rank == root)
        for (int r = 0; r < mt_size; r++)
            for (int j = 0; j < counts[r]; j++)
                big[displs[r] + j] = value(root, r, j) + 7;
    for (int j = 0; j < 16; j++)
        mine[j] = -1;
    void *rb = in_place && mt_rank == root ? MPI_IN_PLACE : mine;
    MT_MPI(MPI_Scatterv(big, counts, displs, MPI_INT, rb, vcount(mt_rank), MPI_INT, root,
                        MPI_COMM_WORLD));
    const int *got = rb == MPI_IN_PLACE ? big + displs[root] : mine;
    for (int j = 0; j < vcount(mt_rank); j++)
        MT_CHECK(got[j] == value(root, mt_rank, j) + 7, "Scatterv root %d: [%d] = %d", root, j,
                 got[j]);
    if (rb != MPI_IN_PLACE)
        MT_CHECK(mine[vcount(mt_rank)] == -1, "Scatterv wrote past the block");
    free(counts);
    free(displs);
    free(big);
    free(mine);
}

/* Non-roots send `count` contiguous ints; the root receives each block as vector(count,1,2). */
static void gather_scatter_derived(int count, int root)
{
    MPI_Datatype strided, block;
    MPI_Type_vector(count, 1, 2, MPI_INT, &strided);
    MPI_Type_create_resized(strided, 0, (MPI_Aint)(2 * count * sizeof(int)), &block);
    MPI_Type_commit(&block);
    int *send = mt_malloc(sizeof(int) * count), *recv = mt_malloc(sizeof(int) * 2 * count *
                                                                    mt_size);
    for (int j = 0; j < count; j++)
        send[j] = value(mt_rank, root, j);
    for (int i = 0; i < 2 * count * mt_size; i++)
        recv[i] = -1;
    MT_MPI(MPI_Gather(send, count, MPI_INT, recv, 1, block, root, MPI_COMM_WORLD));
    if (mt_rank == root)
        for (int r = 0; r < mt_size; r++)
            for (int j = 0; j < count; j++) {
                MT_CHECK(recv[2 * (r * count + j)] == value(r, root, j),
                         "derived Gather count %d root %d: block %d [%d]", count, root, r, j);
                MT_CHECK(recv[2 * (r * count + j) + 1] == -1, "derived Gather wrote a gap");
            }
    /* and back out with Scatter */
    for (int j = 0; j < count; j++)
        send[j] = -1;
    MT_MPI(MPI_Scatter(recv, 1, block, send, count, MPI_INT, root, MPI_COMM_WORLD));
    for (int j = 0; j < count; j++)
        MT_CHECK(send[j] == value(mt_rank, root, j), "derived Scatter count %d root %d [%d] = %d",
                 count, root, j, send[j]);
    MPI_Type_free(&strided);
    MPI_Type_free(&block);
    free(send);
    free(recv);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    const int counts[] = {0, 1, 7, 3001};
    for (int root = 0; root < mt_size; root++) {
        for (int c = 0; c < 4; c++)
            for (int in_place = 0; in_place < 2; in_place++) {
                gather(counts[c], root, in_place);
                scatter(counts[c], root, in_place);
            }
        gatherv_scatterv(root, 0);
        gatherv_scatterv(root, 1);
        gather_scatter_derived(3, root);
        gather_scatter_derived(2000, root);
    }
    return mt_finish();
}
