/* dpm_port.c - MPI ports: a port is a listening Unix socket in the abstract namespace (Linux),
 * named after the user, the pid and a counter, so nothing is left in the file system when a
 * process dies; the port name is that socket name. MPI_Comm_accept takes one connection on it,
 * MPI_Comm_connect makes one, MPI_Comm_join uses the caller's socket; either way the rest is
 * core_dpm_connect_over_fd. Only the process that opened a port can accept on it. A peer of
 * another user is refused (SO_PEERCRED). */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/comm.h"
#include "core/dpm.h"
#include "core/progress.h"
#include "core/state.h"

#define PORT_PREFIX "nodempi-port-"

struct open_port {
    struct open_port *next;
    int fd;
    char name[MPI_MAX_PORT_NAME];
};
static struct open_port *open_ports;
static unsigned port_serial;

/* The abstract socket address of a port name ("@name" in ss output). */
static socklen_t port_address(const char *name, struct sockaddr_un *addr)
{
    memset(addr, 0, sizeof(*addr));
    addr->sun_family = AF_UNIX;
    size_t len = strnlen(name, sizeof(addr->sun_path) - 2);
    memcpy(addr->sun_path + 1, name, len);
    return (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + len);
}

int core_dpm_open_port(char *port_name)
{
    struct open_port *port = calloc(1, sizeof(*port));
    if (!port)
        return MPI_ERR_NO_MEM;
    snprintf(port->name, sizeof(port->name), PORT_PREFIX "%u-%d-%u", (unsigned)getuid(),
             (int)nodempi.pid, ++port_serial);
    struct sockaddr_un addr;
    socklen_t len = port_address(port->name, &addr);
    port->fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (port->fd < 0 || bind(port->fd, (struct sockaddr *)&addr, len) != 0 ||
        listen(port->fd, 64) != 0) {
        if (port->fd >= 0)
            close(port->fd);
        free(port);
        return MPI_ERR_NO_MEM; /* out of descriptors or socket memory */
    }
    port->next = open_ports;
    open_ports = port;
    snprintf(port_name, MPI_MAX_PORT_NAME, "%s", port->name);
    return MPI_SUCCESS;
}

static struct open_port **find_port(const char *port_name)
{
    for (struct open_port **p = &open_ports; *p; p = &(*p)->next)
        if (strcmp((*p)->name, port_name) == 0)
            return p;
    return NULL;
}

int core_dpm_close_port(const char *port_name)
{
    struct open_port **p = find_port(port_name);
    if (!p)
        return MPI_ERR_PORT;
    struct open_port *port = *p;
    *p = port->next;
    close(port->fd);
    free(port);
    return MPI_SUCCESS;
}

static int same_user(int fd)
{
    struct ucred cred;
    socklen_t len = sizeof(cred);
    return getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) == 0 && cred.uid == getuid();
}

/* Waits for a connection, keeping this process's MPI traffic moving (other jobs' processes
 * may wait for it) and, for a spawn, watching the children's launcher. */
int core_dpm_port_accept_fd(const char *port_name, int watch_pid, int *fd)
{
    struct open_port **p = find_port(port_name);
    if (!p)
        return MPI_ERR_PORT;
    int listen_fd = (*p)->fd;
    for (;;) {
        struct pollfd pfd = {.fd = listen_fd, .events = POLLIN};
        int ready = poll(&pfd, 1, 5);
        if (ready > 0) {
            int conn = accept4(listen_fd, NULL, NULL, SOCK_CLOEXEC);
            if (conn >= 0 && same_user(conn)) {
                *fd = conn;
                return MPI_SUCCESS;
            }
            if (conn >= 0)
                close(conn);
        } else if (ready < 0 && errno != EINTR) {
            return MPI_ERR_PORT;
        }
        if (watch_pid > 0 && waitpid(watch_pid, NULL, WNOHANG) == watch_pid)
            return MPI_ERR_SPAWN; /* the launcher ended before the children connected */
        core_progress();
    }
}

int core_dpm_port_connect_fd(const char *port_name, int *fd)
{
    if (strncmp(port_name, PORT_PREFIX, strlen(PORT_PREFIX)) != 0)
        return MPI_ERR_PORT;
    struct sockaddr_un addr;
    socklen_t len = port_address(port_name, &addr);
    int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (s < 0)
        return MPI_ERR_NO_MEM;
    if (connect(s, (struct sockaddr *)&addr, len) != 0 || !same_user(s)) {
        close(s);
        return MPI_ERR_PORT; /* no such port (closed, or its process is gone) */
    }
    *fd = s;
    return MPI_SUCCESS;
}

int core_dpm_accept(const char *port_name, int root, struct core_comm *comm,
                    struct core_comm **out)
{
    int fd = -1, rc = MPI_SUCCESS;
    if (comm->rank == root)
        rc = core_dpm_port_accept_fd(port_name, 0, &fd);
    rc = core_dpm_connect_over_fd(comm, root, fd, rc, out);
    if (fd >= 0)
        close(fd);
    return rc;
}

int core_dpm_connect(const char *port_name, int root, struct core_comm *comm,
                     struct core_comm **out)
{
    int fd = -1, rc = MPI_SUCCESS;
    if (comm->rank == root)
        rc = core_dpm_port_connect_fd(port_name, &fd);
    rc = core_dpm_connect_over_fd(comm, root, fd, rc, out);
    if (fd >= 0)
        close(fd);
    return rc;
}

int core_dpm_join(int fd, struct core_comm **out)
{
    int type = 0;
    socklen_t len = sizeof(type);
    int rc = getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &len) == 0 && type == SOCK_STREAM
                 ? MPI_SUCCESS
                 : MPI_ERR_ARG;
    return core_dpm_connect_over_fd(nodempi.comm_self, 0, fd, rc, out);
}
