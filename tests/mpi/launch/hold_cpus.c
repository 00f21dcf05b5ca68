/* hold_cpus: holds mpiexec's claim on each CPU named on the command line (the abstract Unix
 * socket "nodempi-cpu-N", tools/mpiexec/cpu_claim.c) until its standard input ends, as a
 * running job's mpiexec would. Prints "held" once it holds them all; exits 1 if one is taken. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        int fd = socket(AF_UNIX, SOCK_DGRAM, 0);
        struct sockaddr_un addr;
        memset(&addr, 0, sizeof(addr));
        addr.sun_family = AF_UNIX;
        int len = snprintf(addr.sun_path + 1, sizeof(addr.sun_path) - 1, "nodempi-cpu-%d",
                           atoi(argv[i]));
        socklen_t addr_len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + (size_t)len);
        if (fd < 0 || bind(fd, (struct sockaddr *)&addr, addr_len) != 0) {
            perror("hold_cpus");
            return 1;
        }
    }
    printf("held\n");
    fflush(stdout);
    char c;
    while (read(STDIN_FILENO, &c, 1) > 0)
        ;
    return 0;
}
