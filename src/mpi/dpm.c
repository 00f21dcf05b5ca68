/* dpm.c - API: dynamic process management (MPI 4.1 ch. 11): MPI_Comm_spawn(_multiple),
 * MPI_Comm_get_parent, ports (open, close, accept, connect), the name service, MPI_Comm_join
 * and MPI_Comm_disconnect. Argument checks and error messages; the work is src/core/dpm*.c.
 * Arguments only the root uses are checked at the root, which then fails the collective call
 * on every member alike (the others cannot know its arguments were wrong). */
#include <stdlib.h>
#include <string.h>

#include "coll/coll.h"
#include "core/comm_create.h"
#include "core/dpm.h"
#include "mpi/comm_api.h"

static int check_root(struct core_comm *comm, int root, const char *function)
{
    int rc = mpi_check_intracomm(comm, function);
    if (rc == MPI_SUCCESS && (root < 0 || root >= comm->size))
        rc = core_error_raise(comm, MPI_ERR_ROOT, function,
                              "invalid root %d (communicator size %d)", root, comm->size);
    return rc;
}

/* The collective's outcome at a member that did not cause it. */
static int collective_outcome(struct core_comm *comm, int rc, const char *what,
                              const char *function)
{
    if (rc == MPI_SUCCESS)
        return rc;
    return core_error_raise(comm, rc, function, "%s", what);
}

/* ---- spawn -------------------------------------------------------------------------------- */

/* Root: one command's arguments. The message is raised here, on comm's handler; the caller
 * still takes part in the collective with the class. */
static int check_command(struct core_comm *comm, const char *command, int maxprocs,
                         MPI_Info info, struct core_info **out, int k, const char *function)
{
    if (!command || !*command)
        return core_error_raise(comm, MPI_ERR_ARG, function, "command %d is %s", k,
                                command ? "empty" : "NULL");
    if (maxprocs < 0)
        return core_error_raise(comm, MPI_ERR_ARG, function,
                                "invalid maxprocs %d for command %d (must be >= 0)", maxprocs, k);
    int rc = mpi_get_optional_info(info, out, function);
    if (rc != MPI_SUCCESS)
        return rc;
    const char *host = *out ? core_info_get(*out, "host") : NULL;
    if (host && !core_dpm_is_this_node(host))
        return core_error_raise(comm, MPI_ERR_SPAWN, function,
                                "host \"%s\" of command %d is not this node (nodempi runs on "
                                "one node: %s)",
                                host, k, nodempi.processor_name);
    return MPI_SUCCESS;
}

static int spawn(int count, char **commands, char ***argvs, const int *maxprocs,
                 const MPI_Info *infos, int root, MPI_Comm comm, MPI_Comm *intercomm,
                 int *errcodes, const char *function)
{
    struct core_comm *c;
    int rc = mpi_begin_comm(comm, &c, function);
    if (rc == MPI_SUCCESS)
        rc = check_root(c, root, function);
    if (rc == MPI_SUCCESS)
        rc = mpi_check_pointer(c, intercomm, "intercomm", function);
    if (rc != MPI_SUCCESS)
        return rc;
    /* count, commands, argvs, maxprocs and infos mean something at the root only */
    int root_rc = MPI_SUCCESS, total = 0;
    struct core_info **info_objects = NULL;
    if (c->rank == root) {
        if (count < 1)
            root_rc = core_error_raise(c, MPI_ERR_ARG, function, "invalid count %d", count);
        else if (!commands || !maxprocs || !infos)
            root_rc = core_error_raise(c, MPI_ERR_ARG, function, "%s is NULL",
                                       !commands   ? "array_of_commands"
                                       : !maxprocs ? "array_of_maxprocs"
                                                   : "array_of_info");
        else if (!(info_objects = calloc((size_t)count, sizeof(*info_objects))))
            root_rc = core_error_raise(c, MPI_ERR_NO_MEM, function, "out of memory");
        for (int k = 0; k < count && root_rc == MPI_SUCCESS; k++) {
            root_rc = check_command(c, commands[k], maxprocs[k], infos[k], &info_objects[k], k,
                                    function);
            total += maxprocs[k];
        }
        if (root_rc == MPI_SUCCESS && total < 1)
            root_rc = core_error_raise(c, MPI_ERR_ARG, function, "no process to start "
                                                                 "(maxprocs are all 0)");
    }
    struct core_comm *made = NULL;
    rc = core_dpm_spawn(count, commands, argvs, maxprocs, info_objects, root, root_rc, c, &made,
                        errcodes);
    free(info_objects);
    *intercomm = made ? core_comm_to_handle(made) : MPI_COMM_NULL;
    if (rc == root_rc && c->rank == root)
        return rc; /* raised above, with the argument named */
    return collective_outcome(c, rc,
                              rc == MPI_ERR_SPAWN ? "the children's job could not be started "
                                                    "(see the launcher's message)"
                                                  : "spawning failed",
                              function);
}

int PMPI_Comm_spawn(const char *command, char *argv[], int maxprocs, MPI_Info info, int root,
                    MPI_Comm comm, MPI_Comm *intercomm, int array_of_errcodes[])
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    char *commands[1] = {(char *)command};
    char **argvs[1] = {argv};
    return spawn(1, commands, argvs, &maxprocs, &info, root, comm, intercomm,
                 array_of_errcodes, "MPI_Comm_spawn");
}
#pragma weak MPI_Comm_spawn = PMPI_Comm_spawn

int PMPI_Comm_spawn_multiple(int count, char *array_of_commands[], char **array_of_argv[],
                             const int array_of_maxprocs[], const MPI_Info array_of_info[],
                             int root, MPI_Comm comm, MPI_Comm *intercomm,
                             int array_of_errcodes[])
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    const char *function = "MPI_Comm_spawn_multiple";
    return spawn(count, array_of_commands, array_of_argv, array_of_maxprocs, array_of_info,
                 root, comm, intercomm, array_of_errcodes, function);
}
#pragma weak MPI_Comm_spawn_multiple = PMPI_Comm_spawn_multiple

/* A process not started by MPI_Comm_spawn has MPI_COMM_NULL for its parent (MPI 4.1 11.8.2);
 * so has a child that freed or disconnected it. */
int PMPI_Comm_get_parent(MPI_Comm *parent)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    int rc = mpi_check_initialized("MPI_Comm_get_parent");
    if (rc == MPI_SUCCESS)
        rc = mpi_check_pointer(NULL, parent, "parent", "MPI_Comm_get_parent");
    if (rc == MPI_SUCCESS)
        *parent = core_dpm_parent() ? core_comm_to_handle(core_dpm_parent()) : MPI_COMM_NULL;
    return rc;
}
#pragma weak MPI_Comm_get_parent = PMPI_Comm_get_parent

/* ---- ports -------------------------------------------------------------------------------- */

int PMPI_Open_port(MPI_Info info, char *port_name)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    const char *function = "MPI_Open_port";
    struct core_info *i;
    int rc = mpi_check_initialized(function);
    if (rc == MPI_SUCCESS)
        rc = mpi_get_optional_info(info, &i, function);
    if (rc == MPI_SUCCESS)
        rc = mpi_check_pointer(NULL, port_name, "port_name", function);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = core_dpm_open_port(port_name);
    return rc == MPI_SUCCESS ? rc
                             : core_error_raise(NULL, rc, function, "cannot open a listening "
                                                                    "socket");
}
#pragma weak MPI_Open_port = PMPI_Open_port

int PMPI_Close_port(const char *port_name)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    const char *function = "MPI_Close_port";
    int rc = mpi_check_initialized(function);
    if (rc == MPI_SUCCESS)
        rc = mpi_check_pointer(NULL, port_name, "port_name", function);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = core_dpm_close_port(port_name);
    return rc == MPI_SUCCESS ? rc
                             : core_error_raise(NULL, rc, function,
                                                "port \"%s\" is not open in this process",
                                                port_name);
}
#pragma weak MPI_Close_port = PMPI_Close_port

typedef int dpm_link_fn(const char *port_name, int root, struct core_comm *comm,
                        struct core_comm **out);

static int accept_or_connect(dpm_link_fn *link, const char *port_name, MPI_Info info, int root,
                             MPI_Comm comm, MPI_Comm *newcomm, const char *function)
{
    struct core_comm *c;
    struct core_info *i;
    int rc = mpi_begin_comm(comm, &c, function);
    if (rc == MPI_SUCCESS)
        rc = check_root(c, root, function);
    if (rc == MPI_SUCCESS)
        rc = mpi_check_pointer(c, newcomm, "newcomm", function);
    if (rc == MPI_SUCCESS && c->rank == root)
        rc = mpi_get_optional_info(info, &i, function);
    if (rc == MPI_SUCCESS && c->rank == root)
        rc = mpi_check_pointer(c, port_name, "port_name", function);
    if (rc != MPI_SUCCESS)
        return rc;
    struct core_comm *made = NULL;
    rc = link(port_name, root, c, &made);
    *newcomm = made ? core_comm_to_handle(made) : MPI_COMM_NULL;
    if (rc == MPI_SUCCESS)
        return rc;
    if (rc == MPI_ERR_PORT && c->rank == root)
        return core_error_raise(c, rc, function, "no usable port \"%s\" (%s)", port_name,
                                link == core_dpm_accept ? "not opened by this process"
                                                        : "closed, or its process is gone");
    return collective_outcome(c, rc, "the connection to the other group failed", function);
}

int PMPI_Comm_accept(const char *port_name, MPI_Info info, int root, MPI_Comm comm,
                     MPI_Comm *newcomm)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return accept_or_connect(core_dpm_accept, port_name, info, root, comm, newcomm,
                             "MPI_Comm_accept");
}
#pragma weak MPI_Comm_accept = PMPI_Comm_accept

int PMPI_Comm_connect(const char *port_name, MPI_Info info, int root, MPI_Comm comm,
                      MPI_Comm *newcomm)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return accept_or_connect(core_dpm_connect, port_name, info, root, comm, newcomm,
                             "MPI_Comm_connect");
}
#pragma weak MPI_Comm_connect = PMPI_Comm_connect

int PMPI_Comm_join(int fd, MPI_Comm *intercomm)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    const char *function = "MPI_Comm_join";
    int rc = mpi_check_initialized(function);
    if (rc == MPI_SUCCESS)
        rc = mpi_check_pointer(NULL, intercomm, "intercomm", function);
    if (rc != MPI_SUCCESS)
        return rc;
    struct core_comm *made = NULL;
    rc = core_dpm_join(fd, &made);
    *intercomm = made ? core_comm_to_handle(made) : MPI_COMM_NULL;
    if (rc == MPI_ERR_ARG)
        return core_error_raise(NULL, rc, function, "fd %d is not a connected stream socket",
                                fd);
    return rc == MPI_SUCCESS ? rc
                             : core_error_raise(NULL, rc, function,
                                                "the process at the other end of fd %d did not "
                                                "join",
                                                fd);
}
#pragma weak MPI_Comm_join = PMPI_Comm_join

/* Collective: when it returns, the other side has called it too, so no message between the
 * groups is still under way (MPI 4.1 11.10.4); then the handle is freed as by MPI_Comm_free. */
int PMPI_Comm_disconnect(MPI_Comm *comm)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    const char *function = "MPI_Comm_disconnect";
    struct core_comm *c;
    int rc = mpi_check_initialized(function);
    if (rc == MPI_SUCCESS)
        rc = mpi_check_pointer(NULL, comm, "comm", function);
    if (rc == MPI_SUCCESS)
        rc = mpi_get_comm(*comm, &c, function);
    if (rc == MPI_SUCCESS && c->predefined)
        rc = core_error_raise(c, MPI_ERR_COMM, function, "cannot disconnect %s", c->name);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = coll_barrier(c);
    if (rc != MPI_SUCCESS)
        return core_error_raise(c, rc, function, "the barrier with the other processes failed");
    core_dpm_forget_parent(c);
    rc = core_comm_free(c);
    if (rc != MPI_SUCCESS)
        return core_error_raise(c, rc, function, "an attribute delete callback failed (code %d)",
                                rc);
    *comm = MPI_COMM_NULL;
    return MPI_SUCCESS;
}
#pragma weak MPI_Comm_disconnect = PMPI_Comm_disconnect

/* ---- name service ------------------------------------------------------------------------- */

static int begin_names(const char *service_name, MPI_Info info, const void *port_name,
                       const char *function)
{
    struct core_info *i;
    int rc = mpi_check_initialized(function);
    if (rc == MPI_SUCCESS)
        rc = mpi_check_pointer(NULL, service_name, "service_name", function);
    if (rc == MPI_SUCCESS)
        rc = mpi_get_optional_info(info, &i, function);
    if (rc == MPI_SUCCESS)
        rc = mpi_check_pointer(NULL, port_name, "port_name", function);
    if (rc == MPI_SUCCESS && !*service_name)
        rc = core_error_raise(NULL, MPI_ERR_ARG, function, "service_name is empty");
    return rc;
}

int PMPI_Publish_name(const char *service_name, MPI_Info info, const char *port_name)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    const char *function = "MPI_Publish_name";
    int rc = begin_names(service_name, info, port_name, function);
    if (rc == MPI_SUCCESS && (rc = core_dpm_publish(service_name, port_name)) != MPI_SUCCESS)
        return core_error_raise(NULL, rc, function,
                                rc == MPI_ERR_SERVICE ? "service \"%s\" is published already"
                                                      : "cannot publish service \"%s\"",
                                service_name);
    return rc;
}
#pragma weak MPI_Publish_name = PMPI_Publish_name

int PMPI_Unpublish_name(const char *service_name, MPI_Info info, const char *port_name)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    const char *function = "MPI_Unpublish_name";
    int rc = begin_names(service_name, info, port_name, function);
    if (rc == MPI_SUCCESS && (rc = core_dpm_unpublish(service_name, port_name)) != MPI_SUCCESS)
        return core_error_raise(NULL, rc, function,
                                "service \"%s\" is not published with port \"%s\"",
                                service_name, port_name);
    return rc;
}
#pragma weak MPI_Unpublish_name = PMPI_Unpublish_name

int PMPI_Lookup_name(const char *service_name, MPI_Info info, char *port_name)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    const char *function = "MPI_Lookup_name";
    int rc = begin_names(service_name, info, port_name, function);
    if (rc == MPI_SUCCESS && (rc = core_dpm_lookup(service_name, port_name)) != MPI_SUCCESS)
        return core_error_raise(NULL, rc, function, "service \"%s\" is not published",
                                service_name);
    return rc;
}
#pragma weak MPI_Lookup_name = PMPI_Lookup_name
