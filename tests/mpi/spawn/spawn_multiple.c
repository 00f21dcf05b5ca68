/* spawn_multiple: MPI_Comm_spawn_multiple with two commands (this program with argument "a",
 * once, and with "b" twice, the second with info "wdir"=/tmp and "host"=localhost). The three
 * children share one MPI_COMM_WORLD; MPI_APPNUM is 0 for the first command and 1 for the
 * others; each child checks its arguments and working directory and sends the parents its
 * appnum and world rank. Also MPI_ARGV_NULL with MPI_ERRCODES_IGNORE, and MPI_UNIVERSE_SIZE. */
#include <string.h>
#include <unistd.h>

#include "../common/mpitest.h"

static int child_main(int argc, char **argv, MPI_Comm parent)
{
    int *appnum, flag = 0;
    MT_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_APPNUM, &appnum, &flag));
    MT_ASSERT(flag, "no MPI_APPNUM");
    char cwd[4096] = "";
    MT_ASSERT(getcwd(cwd, sizeof(cwd)) != NULL, "getcwd");
    if (argc == 1) { /* the MPI_ARGV_NULL spawn */
        MT_CHECK_INT(1, mt_size, "world size of the argv-less child");
    } else if (*appnum == 0) {
        MT_CHECK(argc == 2 && strcmp(argv[1], "a") == 0, "appnum 0 argument");
        MT_CHECK_INT(0, mt_rank, "world rank of command 0's child");
    } else {
        MT_CHECK(argc == 3 && strcmp(argv[1], "b") == 0 && strcmp(argv[2], "x y") == 0,
                 "appnum 1 arguments");
        MT_CHECK(strcmp(cwd, "/tmp") == 0, "wdir: cwd is %s", cwd);
        MT_CHECK(mt_rank == 1 || mt_rank == 2, "world rank %d of command 1's child", mt_rank);
    }
    if (argc > 1)
        MT_CHECK_INT(3, mt_size, "children's world size");
    int report[3] = {*appnum, mt_rank, (int)mt_errors};
    if (argc > 1)
        MT_MPI(MPI_Send(report, 3, MPI_INT, 0, 1, parent));
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
        return child_main(argc, argv, parent);

    int *universe, flag = 0;
    MT_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_UNIVERSE_SIZE, &universe, &flag));
    MT_CHECK(flag && *universe >= mt_size, "MPI_UNIVERSE_SIZE %d below the world size",
             flag ? *universe : -1);

    char *commands[2] = {argv[0], argv[0]};
    char *args_a[] = {"a", NULL}, *args_b[] = {"b", "x y", NULL};
    char **argvs[2] = {args_a, args_b};
    int maxprocs[2] = {1, 2};
    MPI_Info infos[2] = {MPI_INFO_NULL, MPI_INFO_NULL};
    MPI_Info_create(&infos[1]);
    MPI_Info_set(infos[1], "wdir", "/tmp");
    MPI_Info_set(infos[1], "host", "localhost");
    int errcodes[3] = {-1, -1, -1};
    MPI_Comm inter;
    MT_MPI(MPI_Comm_spawn_multiple(2, commands, argvs, maxprocs, infos, 0, MPI_COMM_WORLD,
                                   &inter, errcodes));
    MPI_Info_free(&infos[1]);
    for (int i = 0; i < 3; i++)
        MT_CHECK_INT(MPI_SUCCESS, errcodes[i], "errcode");
    int remote = 0;
    MPI_Comm_remote_size(inter, &remote);
    MT_CHECK_INT(3, remote, "children");
    if (mt_rank == 0) {
        int seen_app[2] = {0, 0};
        for (int c = 0; c < 3; c++) {
            int report[3] = {-1, -1, -1};
            MT_MPI(MPI_Recv(report, 3, MPI_INT, c, 1, inter, MPI_STATUS_IGNORE));
            MT_CHECK_INT(c, report[1], "child's world rank = its rank in the intercomm");
            MT_CHECK_INT(c == 0 ? 0 : 1, report[0], "child's appnum");
            if (report[0] == 0 || report[0] == 1)
                seen_app[report[0]]++;
        }
        MT_CHECK(seen_app[0] == 1 && seen_app[1] == 2, "appnums %d/%d", seen_app[0],
                 seen_app[1]);
    }
    collect(inter);
    MT_MPI(MPI_Comm_disconnect(&inter));

    /* MPI_ARGV_NULL, MPI_ERRCODES_IGNORE */
    MT_MPI(MPI_Comm_spawn(argv[0], MPI_ARGV_NULL, 1, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter,
                          MPI_ERRCODES_IGNORE));
    collect(inter);
    MT_MPI(MPI_Comm_disconnect(&inter));
    return mt_finish();
}
