/* dpm_errors: wrong arguments to the dynamic-process calls get the standard's error classes
 * (with MPI_ERRORS_RETURN) and leave nothing behind: a command that cannot be run and a host
 * that is not this node are MPI_ERR_SPAWN with every errcode set; maxprocs < 0 is MPI_ERR_ARG,
 * a bad root MPI_ERR_ROOT, an intercommunicator MPI_ERR_COMM; a port nobody opened is
 * MPI_ERR_PORT for connect and close; the name service answers MPI_ERR_NAME for an unknown
 * name and MPI_ERR_SERVICE for a second publish or a wrong unpublish. Arguments only the root
 * uses are ignored elsewhere (MPI_Comm_spawn_multiple with count -7 at the other ranks). */
#include <string.h>
#include <unistd.h>

#include "../common/mpitest.h"

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    MPI_Comm parent;
    MPI_Comm_get_parent(&parent);
    if (parent != MPI_COMM_NULL) { /* the one successful spawn below */
        MT_MPI(MPI_Comm_disconnect(&parent));
        MPI_Finalize();
        return 0;
    }
    mt_set_errors_return(MPI_COMM_WORLD);
    mt_set_errors_return(MPI_COMM_SELF);
    MPI_Comm inter = MPI_COMM_WORLD;
    int errcodes[2] = {-1, -1};

    MT_CHECK_ERRCLASS(MPI_Comm_spawn("/nonexistent/nodempi-program", MPI_ARGV_NULL, 2,
                                     MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter, errcodes),
                      MPI_ERR_SPAWN, "spawn of a missing program");
    MT_CHECK(inter == MPI_COMM_NULL, "failed spawn: intercomm not MPI_COMM_NULL");
    MT_CHECK(errcodes[0] == MPI_ERR_SPAWN && errcodes[1] == MPI_ERR_SPAWN, "errcodes %d %d",
             errcodes[0], errcodes[1]);

    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "host", "some-other-node.example");
    MT_CHECK_ERRCLASS(MPI_Comm_spawn(argv[0], MPI_ARGV_NULL, 1, info, 0, MPI_COMM_WORLD, &inter,
                                     MPI_ERRCODES_IGNORE),
                      MPI_ERR_SPAWN, "spawn on another host");
    MPI_Info_free(&info);
    MT_CHECK_ERRCLASS(MPI_Comm_spawn(argv[0], MPI_ARGV_NULL, -1, MPI_INFO_NULL, 0,
                                     MPI_COMM_WORLD, &inter, MPI_ERRCODES_IGNORE),
                      MPI_ERR_ARG, "maxprocs -1");
    MT_CHECK_ERRCLASS(MPI_Comm_spawn(argv[0], MPI_ARGV_NULL, 1, MPI_INFO_NULL, mt_size,
                                     MPI_COMM_WORLD, &inter, MPI_ERRCODES_IGNORE),
                      MPI_ERR_ROOT, "root = size");

    /* spawn_multiple: count and the arrays mean something at the root only */
    int one = 1;
    char *commands[1] = {argv[0]};
    MPI_Info no_info[1] = {MPI_INFO_NULL};
    int root_side = mt_rank == 0;
    MT_CHECK_ERRCLASS(MPI_Comm_spawn_multiple(root_side ? 1 : -7, NULL, NULL,
                                              root_side ? &one : NULL, no_info, 0,
                                              MPI_COMM_WORLD, &inter, MPI_ERRCODES_IGNORE),
                      MPI_ERR_ARG, "spawn_multiple with NULL array_of_commands at the root");
    MT_MPI(MPI_Comm_spawn_multiple(root_side ? 1 : -7, root_side ? commands : NULL,
                                   MPI_ARGVS_NULL, root_side ? &one : NULL,
                                   root_side ? no_info : NULL, 0, MPI_COMM_WORLD, &inter,
                                   MPI_ERRCODES_IGNORE));
    MT_MPI(MPI_Comm_disconnect(&inter));

    char port[MPI_MAX_PORT_NAME];
    MT_CHECK_ERRCLASS(MPI_Comm_connect("nodempi-port-0-1-999999", MPI_INFO_NULL, 0,
                                       MPI_COMM_WORLD, &inter),
                      MPI_ERR_PORT, "connect to a port nobody opened");
    MT_CHECK_ERRCLASS(MPI_Comm_connect("not a port", MPI_INFO_NULL, 0, MPI_COMM_SELF, &inter),
                      MPI_ERR_PORT, "connect to a malformed port name");
    MT_CHECK_ERRCLASS(MPI_Close_port("nodempi-port-never-opened"), MPI_ERR_PORT,
                      "close of a port never opened");
    MT_CHECK_ERRCLASS(MPI_Comm_accept("nodempi-port-never-opened", MPI_INFO_NULL, 0,
                                      MPI_COMM_SELF, &inter),
                      MPI_ERR_PORT, "accept on a port this process did not open");
    MT_CHECK_ERRCLASS(MPI_Open_port(MPI_INFO_NULL, NULL), MPI_ERR_ARG, "port_name NULL");

    char service[64], found[MPI_MAX_PORT_NAME];
    snprintf(service, sizeof(service), "dpm_errors-%d-%d", (int)getpid(), mt_rank);
    MT_CHECK_ERRCLASS(MPI_Lookup_name(service, MPI_INFO_NULL, found), MPI_ERR_NAME,
                      "lookup of a name never published");
    MT_MPI(MPI_Open_port(MPI_INFO_NULL, port));
    MT_MPI(MPI_Publish_name(service, MPI_INFO_NULL, port));
    MT_CHECK_ERRCLASS(MPI_Publish_name(service, MPI_INFO_NULL, port), MPI_ERR_SERVICE,
                      "second publish");
    MT_MPI(MPI_Lookup_name(service, MPI_INFO_NULL, found));
    MT_CHECK(strcmp(found, port) == 0, "lookup gave %s, published %s", found, port);
    MT_CHECK_ERRCLASS(MPI_Unpublish_name(service, MPI_INFO_NULL, "nodempi-port-other"),
                      MPI_ERR_SERVICE, "unpublish with another port");
    MT_MPI(MPI_Unpublish_name(service, MPI_INFO_NULL, port));
    MT_CHECK_ERRCLASS(MPI_Lookup_name(service, MPI_INFO_NULL, found), MPI_ERR_NAME,
                      "lookup after unpublish");
    MT_CHECK_ERRCLASS(MPI_Unpublish_name(service, MPI_INFO_NULL, port), MPI_ERR_SERVICE,
                      "second unpublish");
    MT_MPI(MPI_Close_port(port));
    MT_CHECK_ERRCLASS(MPI_Close_port(port), MPI_ERR_PORT, "second close");

    /* spawn and accept need an intracommunicator */
    if (mt_size >= 2) {
        MPI_Comm half, ic;
        MPI_Comm_split(MPI_COMM_WORLD, mt_rank % 2, mt_rank, &half);
        MT_MPI(MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, mt_rank % 2 ? 0 : 1, 5, &ic));
        mt_set_errors_return(ic);
        MT_CHECK_ERRCLASS(MPI_Comm_spawn(argv[0], MPI_ARGV_NULL, 1, MPI_INFO_NULL, 0, ic,
                                         &inter, MPI_ERRCODES_IGNORE),
                          MPI_ERR_COMM, "spawn over an intercommunicator");
        MPI_Comm_free(&ic);
        MPI_Comm_free(&half);
    }
    MT_CHECK_ERRCLASS(MPI_Comm_disconnect(NULL), MPI_ERR_ARG, "disconnect(NULL)");
    MPI_Comm world = MPI_COMM_WORLD;
    MT_CHECK_ERRCLASS(MPI_Comm_disconnect(&world), MPI_ERR_COMM, "disconnect of the world");
    return mt_finish();
}
