/* cpu_claim.c - a claim on a CPU is an abstract-namespace Unix socket named after it, bound by
 * the mpiexec whose ranks run there. Binding is atomic (two launchers cannot both get one CPU)
 * and the name disappears with the socket: when mpiexec exits, is killed by SIGKILL or
 * crashes, the kernel closes it, so nothing is left behind in /dev/shm or /tmp and no stale
 * claim survives its job. The sockets are close-on-exec, and the reaper (reaper.c) closes
 * every descriptor but its pipe: only mpiexec holds them. Abstract names are shared by every
 * process of one network namespace, so jobs of other users on the machine are seen too. */
#include "cpu_claim.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

/* The socket holding cpu's claim, -1 with *taken set when another job holds it, -1 with
 * *taken clear when no claim can be made at all. */
static int claim_one(int cpu, bool *taken)
{
    *taken = false;
    int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return -1;
    struct sockaddr_un addr;
    memset(&addr, 0, sizeof(addr));
    addr.sun_family = AF_UNIX;
    /* sun_path[0] == '\0': the abstract namespace; the name is the bytes after it. */
    int len = snprintf(addr.sun_path + 1, sizeof(addr.sun_path) - 1, "nodempi-cpu-%d", cpu);
    socklen_t addr_len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + (size_t)len);
    if (bind(fd, (struct sockaddr *)&addr, addr_len) == 0)
        return fd;
    *taken = errno == EADDRINUSE;
    close(fd);
    return -1;
}

static bool remember(struct cpu_claims *claims, int fd)
{
    if (claims->count == claims->capacity) {
        int capacity = claims->capacity ? 2 * claims->capacity : 16;
        int *fds = realloc(claims->fds, (size_t)capacity * sizeof(*fds));
        if (!fds)
            return false;
        claims->fds = fds;
        claims->capacity = capacity;
    }
    claims->fds[claims->count++] = fd;
    return true;
}

bool cpu_claim_set(struct cpu_claims *claims, const cpu_set_t *set, bool *unknown)
{
    *unknown = false;
    int before = claims->count;
    for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
        if (!CPU_ISSET(cpu, set))
            continue;
        bool taken;
        int fd = claim_one(cpu, &taken);
        if (fd >= 0 && remember(claims, fd))
            continue;
        if (fd >= 0)
            close(fd);
        *unknown = !taken;
        while (claims->count > before) /* all or nothing */
            close(claims->fds[--claims->count]);
        return false;
    }
    return true;
}

void cpu_claims_release(struct cpu_claims *claims)
{
    for (int i = 0; i < claims->count; i++)
        close(claims->fds[i]);
    free(claims->fds);
    *claims = (struct cpu_claims){0};
}
