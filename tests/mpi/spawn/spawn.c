/* spawn: MPI_Comm_spawn of 1, 2, then 3 children (this program, argument "child") from every
 * rank of MPI_COMM_WORLD as parents; over each parent intercommunicator: point-to-point both
 * ways, MPI_Bcast, MPI_Allreduce and MPI_Barrier across the groups, MPI_Intercomm_merge (also
 * with equal high values) and traffic on the merged communicator, then MPI_Comm_disconnect.
 * Children check their MPI_COMM_WORLD (the spawned group), MPI_Comm_get_parent before and
 * after the disconnect, MPI_APPNUM and their arguments, and hand their failure count to the
 * parents. */
#include <string.h>

#include "../common/mpitest.h"

static void exercise(MPI_Comm inter, int parents, int children, int am_parent)
{
    int local, remote_size;
    MPI_Comm_rank(inter, &local);
    MPI_Comm_remote_size(inter, &remote_size);
    MT_CHECK_INT(am_parent ? children : parents, remote_size, "remote group size");
    /* point to point: parent 0 <-> every child */
    if (am_parent && local == 0) {
        for (int c = 0; c < children; c++) {
            int v = 100 + c, back = -1;
            MT_MPI(MPI_Send(&v, 1, MPI_INT, c, 7, inter));
            MT_MPI(MPI_Recv(&back, 1, MPI_INT, c, 8, inter, MPI_STATUS_IGNORE));
            MT_CHECK_INT(2 * v, back, "child's answer");
        }
    } else if (!am_parent) {
        int v = -1;
        MPI_Status st;
        MT_MPI(MPI_Recv(&v, 1, MPI_INT, 0, 7, inter, &st));
        MT_CHECK_INT(100 + local, v, "value from parent 0");
        MT_CHECK_INT(0, st.MPI_SOURCE, "status source");
        v *= 2;
        MT_MPI(MPI_Send(&v, 1, MPI_INT, 0, 8, inter));
    }
    /* a large message (rendezvous) from the last child to parent 0 */
    enum { BIG = 1 << 18 };
    int *big = mt_malloc(BIG * sizeof(int));
    if (!am_parent && local == children - 1) {
        for (int i = 0; i < BIG; i++)
            big[i] = i ^ 0x5a5a;
        MT_MPI(MPI_Send(big, BIG, MPI_INT, 0, 9, inter));
    } else if (am_parent && local == 0) {
        memset(big, 0, BIG * sizeof(int));
        MT_MPI(MPI_Recv(big, BIG, MPI_INT, children - 1, 9, inter, MPI_STATUS_IGNORE));
        int bad = 0;
        for (int i = 0; i < BIG; i++)
            bad += big[i] != (i ^ 0x5a5a);
        MT_CHECK_INT(0, bad, "wrong ints in the 1 MiB message");
    }
    free(big);
    /* collectives across the groups */
    int token = am_parent ? 4242 : -1;
    if (am_parent)
        MT_MPI(MPI_Bcast(&token, 1, MPI_INT, local == 0 ? MPI_ROOT : MPI_PROC_NULL, inter));
    else
        MT_MPI(MPI_Bcast(&token, 1, MPI_INT, 0, inter));
    if (!am_parent)
        MT_CHECK_INT(4242, token, "bcast from parent 0");
    int mine = am_parent ? local + 1 : 10 * (local + 1), sum = 0;
    MT_MPI(MPI_Allreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, inter));
    int expect = am_parent ? 10 * children * (children + 1) / 2 : parents * (parents + 1) / 2;
    MT_CHECK_INT(expect, sum, "inter allreduce (the other group's sum)");
    MT_MPI(MPI_Barrier(inter));
    /* merge: parents first */
    MPI_Comm merged;
    MT_MPI(MPI_Intercomm_merge(inter, am_parent ? 0 : 1, &merged));
    int mrank, msize;
    MPI_Comm_rank(merged, &mrank);
    MPI_Comm_size(merged, &msize);
    MT_CHECK_INT(parents + children, msize, "merged size");
    MT_CHECK_INT(am_parent ? local : parents + local, mrank, "merged rank");
    int total = 0;
    MT_MPI(MPI_Allreduce(&mrank, &total, 1, MPI_INT, MPI_SUM, merged));
    MT_CHECK_INT(msize * (msize - 1) / 2, total, "merged allreduce");
    int right = (mrank + 1) % msize, left = (mrank + msize - 1) % msize, got = -1;
    MT_MPI(MPI_Sendrecv(&mrank, 1, MPI_INT, right, 3, &got, 1, MPI_INT, left, 3, merged,
                        MPI_STATUS_IGNORE));
    MT_CHECK_INT(left, got, "ring on the merged communicator");
    MT_MPI(MPI_Comm_free(&merged));
    /* The same high value on both sides: the groups must still agree on one order (the
     * tie-break compares processes of two jobs). */
    MT_MPI(MPI_Intercomm_merge(inter, 0, &merged));
    MPI_Comm_rank(merged, &mrank);
    int first_parent = am_parent ? mrank : msize, first = msize;
    MT_MPI(MPI_Allreduce(&first_parent, &first, 1, MPI_INT, MPI_MIN, merged));
    MT_CHECK(first == 0 || first == children, "parents start at merged rank %d", first);
    MT_CHECK_INT(am_parent ? first + local : (first == 0 ? parents : 0) + local, mrank,
                 "merged rank with equal high values");
    MT_MPI(MPI_Comm_free(&merged));
}

static int child_main(int argc, char **argv)
{
    MPI_Comm parent;
    MT_MPI(MPI_Comm_get_parent(&parent));
    MT_ASSERT(parent != MPI_COMM_NULL, "a spawned child has no parent");
    int parents, children = mt_size;
    MPI_Comm_remote_size(parent, &parents);
    MT_CHECK(argc == 3 && strcmp(argv[1], "child") == 0, "arguments: argc %d", argc);
    if (argc == 3)
        MT_CHECK_INT(children, atoi(argv[2]), "children announced by the parent");
    int *appnum, flag = 0;
    MT_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_APPNUM, &appnum, &flag));
    MT_CHECK(flag && *appnum == 0, "MPI_APPNUM");
    exercise(parent, parents, children, 0);
    long errors = 0;
    MT_MPI(MPI_Reduce(&mt_errors, &errors, 1, MPI_LONG, MPI_SUM, 0, parent));
    MT_MPI(MPI_Comm_disconnect(&parent));
    MT_CHECK(parent == MPI_COMM_NULL, "disconnect did not set MPI_COMM_NULL");
    MT_MPI(MPI_Comm_get_parent(&parent));
    MT_CHECK(parent == MPI_COMM_NULL, "parent still there after the disconnect");
    MPI_Finalize();
    return mt_errors ? 1 : 0;
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    MPI_Comm parent;
    MPI_Comm_get_parent(&parent);
    if (parent != MPI_COMM_NULL)
        return child_main(argc, argv);
    for (int n = 1; n <= 3; n++) {
        char count[8];
        snprintf(count, sizeof(count), "%d", n);
        char *args[] = {"child", count, NULL};
        int errcodes[3] = {-1, -1, -1};
        MPI_Comm inter;
        MT_MPI(MPI_Comm_spawn(argv[0], args, n, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter,
                              errcodes));
        for (int i = 0; i < n; i++)
            MT_CHECK_INT(MPI_SUCCESS, errcodes[i], "errcode of a child");
        int is_inter = 0;
        MPI_Comm_test_inter(inter, &is_inter);
        MT_CHECK(is_inter, "spawn did not return an intercommunicator");
        exercise(inter, mt_size, n, 1);
        long child_errors = 0, none = 0;
        MT_MPI(MPI_Reduce(&none, &child_errors, 1, MPI_LONG, MPI_SUM,
                          mt_rank == 0 ? MPI_ROOT : MPI_PROC_NULL, inter));
        MT_CHECK(child_errors == 0, "%ld check(s) failed in the %d children", child_errors, n);
        MT_MPI(MPI_Comm_disconnect(&inter));
    }
    return mt_finish();
}
