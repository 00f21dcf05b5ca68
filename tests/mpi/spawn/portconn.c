/* portconn: MPI_Open_port / MPI_Comm_accept / MPI_Comm_connect between two groups the parents
 * spawned separately (group A: 2 processes, group B: 1), which have no channel to each other
 * until they connect. A publishes its port under a service name and also sends it through the
 * parents; B checks that MPI_Lookup_name finds the same port, connects, and the two groups
 * exchange messages, run inter-communicator collectives and merge. Then parents and group A
 * accept/connect a second time among themselves (a pair already connected by the spawn).
 * Everyone disconnects; the children hand their failure counts to the parents. */
#include <string.h>
#include <unistd.h>

#include "../common/mpitest.h"

static void exchange(MPI_Comm inter, int accepting)
{
    int rank, remote;
    MPI_Comm_rank(inter, &rank);
    MPI_Comm_remote_size(inter, &remote);
    for (int r = 0; r < remote; r++) {
        int v = 1000 * (accepting + 1) + rank, got = -1;
        MT_MPI(MPI_Sendrecv(&v, 1, MPI_INT, r, 4, &got, 1, MPI_INT, r, 4, inter,
                            MPI_STATUS_IGNORE));
        MT_CHECK_INT(1000 * (2 - accepting) + r, got, "value from the other group");
    }
    int one = 1, count = 0;
    MT_MPI(MPI_Allreduce(&one, &count, 1, MPI_INT, MPI_SUM, inter));
    MT_CHECK_INT(remote, count, "inter allreduce counts the other group");
    MPI_Comm merged;
    MT_MPI(MPI_Intercomm_merge(inter, accepting ? 0 : 1, &merged));
    int size, sum = 0, mrank;
    MPI_Comm_size(merged, &size);
    MPI_Comm_rank(merged, &mrank);
    MT_MPI(MPI_Allreduce(&mrank, &sum, 1, MPI_INT, MPI_SUM, merged));
    MT_CHECK_INT(size * (size - 1) / 2, sum, "merged allreduce");
    MPI_Comm_free(&merged);
}

static int child_main(char **argv, MPI_Comm parent)
{
    int group_a = strcmp(argv[1], "A") == 0;
    const char *service = argv[2];
    char port[MPI_MAX_PORT_NAME] = "";
    MPI_Comm other;
    if (group_a) {
        if (mt_rank == 0) {
            MT_MPI(MPI_Open_port(MPI_INFO_NULL, port));
            MT_MPI(MPI_Publish_name(service, MPI_INFO_NULL, port));
            MT_MPI(MPI_Send(port, MPI_MAX_PORT_NAME, MPI_CHAR, 0, 1, parent));
        }
        MT_MPI(MPI_Comm_accept(port, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &other));
    } else {
        if (mt_rank == 0) {
            char found[MPI_MAX_PORT_NAME] = "";
            MT_MPI(MPI_Recv(port, MPI_MAX_PORT_NAME, MPI_CHAR, 0, 2, parent,
                            MPI_STATUS_IGNORE));
            MT_MPI(MPI_Lookup_name(service, MPI_INFO_NULL, found));
            MT_CHECK(strcmp(found, port) == 0, "lookup gave '%s', the parents sent '%s'", found,
                     port);
        }
        MT_MPI(MPI_Comm_connect(port, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &other));
    }
    int remote = 0;
    MPI_Comm_remote_size(other, &remote);
    MT_CHECK_INT(group_a ? 1 : 2, remote, "size of the connected group");
    exchange(other, group_a);
    MT_MPI(MPI_Comm_disconnect(&other));
    if (group_a) {
        if (mt_rank == 0) {
            MT_MPI(MPI_Unpublish_name(service, MPI_INFO_NULL, port));
            MT_MPI(MPI_Close_port(port));
        }
        /* second round: the parents accept, we connect */
        char parent_port[MPI_MAX_PORT_NAME] = "";
        if (mt_rank == 0)
            MT_MPI(MPI_Recv(parent_port, MPI_MAX_PORT_NAME, MPI_CHAR, 0, 3, parent,
                            MPI_STATUS_IGNORE));
        MT_MPI(MPI_Comm_connect(parent_port, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &other));
        exchange(other, 0);
        MT_MPI(MPI_Comm_disconnect(&other));
    }
    long errors = 0;
    MT_MPI(MPI_Reduce(&mt_errors, &errors, 1, MPI_LONG, MPI_SUM, 0, parent));
    MT_MPI(MPI_Comm_disconnect(&parent));
    MPI_Finalize();
    return mt_errors ? 1 : 0;
}

static void collect(MPI_Comm inter)
{
    long errors = 0, none = 0;
    MT_MPI(MPI_Reduce(&none, &errors, 1, MPI_LONG, MPI_SUM,
                      mt_rank == 0 ? MPI_ROOT : MPI_PROC_NULL, inter));
    MT_CHECK(errors == 0, "%ld check(s) failed in the children", errors);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    MPI_Comm parent;
    MPI_Comm_get_parent(&parent);
    if (parent != MPI_COMM_NULL)
        return child_main(argv, parent);
    char service[64];
    int pid = (int)getpid();
    MPI_Bcast(&pid, 1, MPI_INT, 0, MPI_COMM_WORLD);
    snprintf(service, sizeof(service), "portconn-%d", pid);
    char *args_a[] = {"A", service, NULL}, *args_b[] = {"B", service, NULL};
    MPI_Comm a, b;
    MT_MPI(MPI_Comm_spawn(argv[0], args_a, 2, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &a,
                          MPI_ERRCODES_IGNORE));
    MT_MPI(MPI_Comm_spawn(argv[0], args_b, 1, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &b,
                          MPI_ERRCODES_IGNORE));
    char port[MPI_MAX_PORT_NAME] = "";
    if (mt_rank == 0) { /* relay A's port to B */
        MT_MPI(MPI_Recv(port, MPI_MAX_PORT_NAME, MPI_CHAR, 0, 1, a, MPI_STATUS_IGNORE));
        MT_MPI(MPI_Send(port, MPI_MAX_PORT_NAME, MPI_CHAR, 0, 2, b));
        MT_MPI(MPI_Open_port(MPI_INFO_NULL, port));
        MT_MPI(MPI_Send(port, MPI_MAX_PORT_NAME, MPI_CHAR, 0, 3, a));
    }
    MPI_Comm again;
    MT_MPI(MPI_Comm_accept(port, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &again));
    exchange(again, 1);
    MT_MPI(MPI_Comm_disconnect(&again));
    if (mt_rank == 0)
        MT_MPI(MPI_Close_port(port));
    collect(a);
    collect(b);
    MT_MPI(MPI_Comm_disconnect(&a));
    MT_MPI(MPI_Comm_disconnect(&b));
    return mt_finish();
}
