/* dpm_names.c - the name service of MPI_Publish_name / _Lookup_name / _Unpublish_name for the
 * processes of one user on this node: one file per service name in a private directory,
 * $TMPDIR/nodempi-names-<uid> (mode 0700), holding the port name and the publisher's pid.
 * A name whose publisher has died is stale: lookups remove it. What a process published is
 * removed again at its MPI_Finalize, and the directory with the last name. File names are the
 * service name in hex, so any service string is a valid and distinct file name. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/dpm.h"
#include "core/init.h"
#include "core/state.h"

struct published {
    struct published *next;
    char path[4096];
};
static struct published *published;

static void directory(char *dir, size_t len)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, len, "%s/nodempi-names-%u", tmp && *tmp ? tmp : "/tmp", (unsigned)getuid());
}

static int service_path(const char *service, char *path, size_t len)
{
    char dir[1024];
    directory(dir, sizeof(dir));
    size_t at = (size_t)snprintf(path, len, "%s/", dir);
    for (const unsigned char *c = (const unsigned char *)service; *c; c++) {
        if (at + 3 >= len || at + 3 > strlen(dir) + 1 + 254) /* NAME_MAX */
            return MPI_ERR_ARG;
        at += (size_t)snprintf(path + at, len - at, "%02x", *c);
    }
    return MPI_SUCCESS;
}

/* port name and publisher pid, or MPI_ERR_NAME when there is no live entry. */
static int read_entry(const char *path, char *port_name, int *pid)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return MPI_ERR_NAME;
    char line[MPI_MAX_PORT_NAME + 2] = "";
    int ok = fgets(line, sizeof(line), f) != NULL && fscanf(f, "%d", pid) == 1;
    fclose(f);
    if (!ok)
        return MPI_ERR_NAME;
    line[strcspn(line, "\n")] = '\0';
    if (kill(*pid, 0) != 0 && errno == ESRCH) {
        unlink(path); /* its publisher died without unpublishing */
        return MPI_ERR_NAME;
    }
    line[MPI_MAX_PORT_NAME - 1] = '\0'; /* a port name never fills the line */
    if (port_name)
        memcpy(port_name, line, strlen(line) + 1);
    return MPI_SUCCESS;
}

static void remove_directory_if_empty(void)
{
    char dir[1024];
    directory(dir, sizeof(dir));
    rmdir(dir); /* fails, harmlessly, while other names are published */
}

static void unpublish_all(void)
{
    while (published) {
        struct published *p = published;
        published = p->next;
        unlink(p->path);
        free(p);
    }
    remove_directory_if_empty();
}

int core_dpm_publish(const char *service, const char *port_name)
{
    char path[4096], dir[1024];
    if (service_path(service, path, sizeof(path)) != MPI_SUCCESS)
        return MPI_ERR_ARG;
    directory(dir, sizeof(dir));
    int pid, fd = -1;
    read_entry(path, NULL, &pid); /* removes a stale entry */
    /* Another process's unpublish may remove the empty directory between our mkdir and open
     * (ENOENT; seen with 3 ranks publishing and unpublishing at once): make it again. */
    for (int attempt = 0; attempt < 16; attempt++) {
        if (mkdir(dir, 0700) != 0 && errno != EEXIST)
            return MPI_ERR_SERVICE;
        fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
        if (fd >= 0 || errno != ENOENT)
            break;
    }
    if (fd < 0)
        return MPI_ERR_SERVICE; /* published already, by a live process */
    char text[MPI_MAX_PORT_NAME + 32];
    int len = snprintf(text, sizeof(text), "%s\n%d\n", port_name, (int)nodempi.pid);
    int ok = write(fd, text, (size_t)len) == len;
    close(fd);
    struct published *p = ok ? calloc(1, sizeof(*p)) : NULL;
    if (!p) {
        unlink(path);
        return ok ? MPI_ERR_NO_MEM : MPI_ERR_SERVICE;
    }
    if (!published)
        core_at_finalize(unpublish_all);
    snprintf(p->path, sizeof(p->path), "%s", path);
    p->next = published;
    published = p;
    return MPI_SUCCESS;
}

int core_dpm_unpublish(const char *service, const char *port_name)
{
    char path[4096], current[MPI_MAX_PORT_NAME];
    int pid = 0;
    if (service_path(service, path, sizeof(path)) != MPI_SUCCESS ||
        read_entry(path, current, &pid) != MPI_SUCCESS || strcmp(current, port_name) != 0)
        return MPI_ERR_SERVICE; /* not published (with this port) */
    unlink(path);
    for (struct published **p = &published; *p; p = &(*p)->next)
        if (strcmp((*p)->path, path) == 0) {
            struct published *gone = *p;
            *p = gone->next;
            free(gone);
            break;
        }
    remove_directory_if_empty();
    return MPI_SUCCESS;
}

int core_dpm_lookup(const char *service, char *port_name)
{
    char path[4096];
    int pid;
    if (service_path(service, path, sizeof(path)) != MPI_SUCCESS)
        return MPI_ERR_NAME;
    return read_entry(path, port_name, &pid);
}
