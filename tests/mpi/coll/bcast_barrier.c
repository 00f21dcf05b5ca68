/* bcast_barrier.c - MPI_Bcast from every root with counts 0, 1, odd and large (past the switch
 * to scatter + allgather), with a strided derived type on some ranks and a contiguous one on
 * others (same type signature), and MPI_Barrier: no rank may leave before the last one enters
 * (each rank in turn enters late; nobody may have sent it the post-barrier message before
 * that). */
#include "mpitest.h"

static void check_bcast(int count, int root)
{
    int *buf = mt_malloc(sizeof(int) * (count ? count : 1));
    for (int i = 0; i < count; i++)
        buf[i] = mt_rank == root ? i * 31 + root : -1;
    MT_MPI(MPI_Bcast(buf, count, MPI_INT, root, MPI_COMM_WORLD));
    for (int i = 0; i < count; i++)
        if (buf[i] != i * 31 + root) {
            mt_fail(__FILE__, __LINE__, "Bcast count %d root %d: [%d] = %d, want %d", count, root,
                    i, buf[i], i * 31 + root);
            break;
        }
    free(buf);
}

/* Root sends count doubles contiguous; odd ranks receive them through vector(count, 1, 2). */
static void check_bcast_derived(int count, int root)
{
    MPI_Datatype strided;
    MPI_Type_vector(count, 1, 2, MPI_DOUBLE, &strided);
    MPI_Type_commit(&strided);
    double *buf = mt_malloc(sizeof(double) * 2 * count);
    for (int i = 0; i < 2 * count; i++)
        buf[i] = mt_rank == root ? i + 0.5 : -7;
    int use_strided = mt_rank % 2 == 1;
    if (use_strided)
        MT_MPI(MPI_Bcast(buf, 1, strided, root, MPI_COMM_WORLD));
    else
        MT_MPI(MPI_Bcast(buf, count, MPI_DOUBLE, root, MPI_COMM_WORLD));
    for (int i = 0; i < count; i++) {
        double want = mt_rank == root ? (use_strided ? 2 * i : i) + 0.5
                                      : (root % 2 == 1 ? 2 * i : i) + 0.5;
        double got = use_strided ? buf[2 * i] : buf[i];
        if (got != want) {
            mt_fail(__FILE__, __LINE__, "derived Bcast count %d root %d: [%d] = %g, want %g",
                    count, root, i, got, want);
            break;
        }
        if (use_strided && mt_rank != root && buf[2 * i + 1] != -7) {
            mt_fail(__FILE__, __LINE__, "derived Bcast wrote into the gap at %d", 2 * i + 1);
            break;
        }
    }
    free(buf);
    MPI_Type_free(&strided);
}

/* The late rank enters the barrier 50 ms after the others; the others, once out of it, send it
 * a message, which must not have arrived before it entered. Every rank is late once (the tree
 * barrier's rank 0 and its leaves leave at different times). */
static void check_barrier(int late)
{
    int token = 1, flag = 0;
    MPI_Status st;
    if (mt_rank == late) {
        mt_sleep(0.05);
        MPI_Iprobe(MPI_ANY_SOURCE, 7, MPI_COMM_WORLD, &flag, &st);
        MT_CHECK(!flag, "a rank left MPI_Barrier before rank %d entered it", late);
        MT_MPI(MPI_Barrier(MPI_COMM_WORLD));
        for (int r = 1; r < mt_size; r++)
            MPI_Recv(&token, 1, MPI_INT, MPI_ANY_SOURCE, 7, MPI_COMM_WORLD, &st);
    } else {
        MT_MPI(MPI_Barrier(MPI_COMM_WORLD));
        MPI_Send(&token, 1, MPI_INT, late, 7, MPI_COMM_WORLD);
    }
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    const int counts[] = {0, 1, 7, 1000, 40000};
    for (int root = 0; root < mt_size; root++)
        for (int c = 0; c < 5; c++)
            check_bcast(counts[c], root);
    /* the root's own type decides the reference: the root is even or odd */
    for (int root = 0; root < mt_size; root++) {
        check_bcast_derived(5, root);
        check_bcast_derived(20000, root);
    }
    for (int late = 0; late < mt_size; late++)
        check_barrier(late);
    for (int k = 0; k < 50; k++)
        MT_MPI(MPI_Barrier(MPI_COMM_WORLD));
    return mt_finish();
}
