/* intercomm.c - intercommunicators: MPI_Intercomm_create from two halves of the world (leaders
 * talk over a peer communicator), local/remote sizes and groups, point-to-point across in both
 * directions (with MPI_ANY_SOURCE), MPI_Comm_dup and MPI_Comm_split of an intercommunicator,
 * and MPI_Intercomm_merge with both orders of `high`. Needs 2 ranks or more. */
#include "mpitest.h"

/* Group A: world ranks [0, na); group B: [na, size). */
static int na;

static int world_of(int in_a, int rank)
{
    return in_a ? rank : na + rank;
}

static void check_groups(MPI_Comm inter, int in_a)
{
    int lsize = -1, rsize = -1, flag = -1, rank = -1;
    MPI_Comm_test_inter(inter, &flag);
    MT_CHECK_INT(1, flag, "MPI_Comm_test_inter");
    MPI_Comm_size(inter, &lsize);
    MPI_Comm_remote_size(inter, &rsize);
    MPI_Comm_rank(inter, &rank);
    MT_CHECK_INT(in_a ? na : mt_size - na, lsize, "local size");
    MT_CHECK_INT(in_a ? mt_size - na : na, rsize, "remote size");
    MT_CHECK_INT(in_a ? mt_rank : mt_rank - na, rank, "local rank");
    MPI_Group local, remote, world;
    MPI_Comm_group(inter, &local);
    MPI_Comm_remote_group(inter, &remote);
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    for (int r = 0; r < rsize; r++) {
        int w = -1;
        MPI_Group_translate_ranks(remote, 1, &r, world, &w);
        MT_CHECK_INT(world_of(!in_a, r), w, "remote group member");
    }
    for (int r = 0; r < lsize; r++) {
        int w = -1;
        MPI_Group_translate_ranks(local, 1, &r, world, &w);
        MT_CHECK_INT(world_of(in_a, r), w, "local group member");
    }
    MPI_Group_free(&local);
    MPI_Group_free(&remote);
    MPI_Group_free(&world);
}

/* Every process sends its world rank to every remote process and receives from each. */
static void check_traffic(MPI_Comm inter, int in_a, int tag)
{
    int rsize, rank;
    MPI_Comm_remote_size(inter, &rsize);
    MPI_Comm_rank(inter, &rank);
    int *in = mt_malloc(sizeof(int) * (size_t)rsize);
    MPI_Request *req = mt_malloc(sizeof(MPI_Request) * 2 * (size_t)rsize);
    for (int r = 0; r < rsize; r++) {
        in[r] = -1;
        MPI_Irecv(&in[r], 1, MPI_INT, r, tag, inter, &req[r]);
    }
    for (int r = 0; r < rsize; r++)
        MPI_Isend(&mt_rank, 1, MPI_INT, r, tag, inter, &req[rsize + r]);
    MPI_Waitall(2 * rsize, req, MPI_STATUSES_IGNORE);
    for (int r = 0; r < rsize; r++)
        MT_CHECK_INT(world_of(!in_a, r), in[r], "value received across the intercommunicator");
    /* MPI_ANY_SOURCE: status.MPI_SOURCE is the sender's rank in the remote group */
    int value = -1;
    MPI_Status st;
    if (rank < rsize)
        MPI_Send(&rank, 1, MPI_INT, rank, tag + 1, inter);
    int lsize;
    MPI_Comm_size(inter, &lsize);
    if (rank < lsize && rank < rsize) {
        MPI_Recv(&value, 1, MPI_INT, MPI_ANY_SOURCE, tag + 1, inter, &st);
        MT_CHECK_INT(rank, st.MPI_SOURCE, "MPI_ANY_SOURCE status source");
        MT_CHECK_INT(rank, value, "MPI_ANY_SOURCE value");
    }
    free(in);
    free(req);
}

static void check_merge(MPI_Comm inter, int in_a, int high_a)
{
    MPI_Comm merged;
    int high = in_a ? high_a : !high_a;
    MT_MPI(MPI_Intercomm_merge(inter, high, &merged));
    int size = -1, rank = -1, flag = -1;
    MPI_Comm_size(merged, &size);
    MPI_Comm_rank(merged, &rank);
    MPI_Comm_test_inter(merged, &flag);
    MT_CHECK_INT(0, flag, "merged is an intracommunicator");
    MT_CHECK_INT(mt_size, size, "merged size");
    /* the group with high = 0 comes first */
    int a_first = !high_a;
    int expect = in_a ? (a_first ? mt_rank : mt_rank + (mt_size - na))
                      : (a_first ? mt_rank : mt_rank - na);
    MT_CHECK_INT(expect, rank, "merged rank");
    int out = mt_rank, got = -1;
    MPI_Sendrecv(&out, 1, MPI_INT, (rank + 1) % size, 0, &got, 1, MPI_INT,
                 (rank + size - 1) % size, 0, merged, MPI_STATUS_IGNORE);
    int left = (rank + size - 1) % size; /* merged rank -> world rank */
    int left_world = a_first ? left : (left < mt_size - na ? left + na : left - (mt_size - na));
    MT_CHECK_INT(left_world, got, "ring in the merged communicator");
    MPI_Comm_free(&merged);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    mt_require_ranks(2);
    na = (mt_size + 1) / 2; /* odd sizes: A is larger */
    int in_a = mt_rank < na;
    MPI_Comm local;
    MPI_Comm_split(MPI_COMM_WORLD, in_a, mt_rank, &local);
    /* leaders: local rank 0 of each half; remote leader named by its world rank */
    MPI_Comm inter;
    MT_MPI(MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, in_a ? na : 0, 42, &inter));
    check_groups(inter, in_a);
    check_traffic(inter, in_a, 10);

    /* a non-zero local leader and a different peer communicator (a dup of world) */
    MPI_Comm peer, inter2;
    MPI_Comm_dup(MPI_COMM_WORLD, &peer);
    int lsize;
    MPI_Comm_size(local, &lsize);
    MT_MPI(MPI_Intercomm_create(local, lsize - 1, peer, in_a ? mt_size - 1 : na - 1, 7, &inter2));
    check_groups(inter2, in_a);
    check_traffic(inter2, in_a, 20);

    /* dup of an intercommunicator: same groups, separate traffic */
    MPI_Comm inter_dup;
    MT_MPI(MPI_Comm_dup(inter, &inter_dup));
    check_groups(inter_dup, in_a);
    check_traffic(inter_dup, in_a, 30);
    int result = -1;
    MPI_Comm_compare(inter, inter_dup, &result);
    MT_CHECK_INT(MPI_CONGRUENT, result, "compare intercomm with its dup");

    check_merge(inter, in_a, 0);
    check_merge(inter2, in_a, 1);

    /* split of an intercommunicator: color = rank parity on both sides */
    MPI_Comm halves;
    int lrank;
    MPI_Comm_rank(inter, &lrank);
    MT_MPI(MPI_Comm_split(inter, lrank % 2, lrank, &halves));
    int rsize_full;
    MPI_Comm_remote_size(inter, &rsize_full);
    int expect_remote = lrank % 2 ? rsize_full / 2 : (rsize_full + 1) / 2;
    if (expect_remote == 0) {
        MT_CHECK(halves == MPI_COMM_NULL, "split with an empty remote side gave a communicator");
    } else {
        MT_ASSERT(halves != MPI_COMM_NULL, "split of an intercommunicator gave MPI_COMM_NULL");
        int rs = -1, ls = -1, lr = -1;
        MPI_Comm_remote_size(halves, &rs);
        MPI_Comm_size(halves, &ls);
        MPI_Comm_rank(halves, &lr);
        MT_CHECK_INT(expect_remote, rs, "remote size after split");
        MT_CHECK_INT(lrank / 2, lr, "local rank after split");
        /* exchange with the same-index partner if it exists */
        if (lr < rs) {
            int v = mt_rank, got = -1;
            MPI_Sendrecv(&v, 1, MPI_INT, lr, 0, &got, 1, MPI_INT, lr, 0, halves,
                         MPI_STATUS_IGNORE);
            int partner_remote_rank = 2 * lr + lrank % 2; /* rank in the full remote group */
            MT_CHECK_INT(world_of(!in_a, partner_remote_rank), got, "traffic after split");
        }
        MPI_Comm_free(&halves);
    }

    MPI_Comm_free(&inter_dup);
    MPI_Comm_free(&inter2);
    MPI_Comm_free(&inter);
    MPI_Comm_free(&peer);
    MPI_Comm_free(&local);
    return mt_finish();
}
