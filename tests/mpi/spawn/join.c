/* join: MPI_Comm_join over a TCP connection on 127.0.0.1 between rank 0 and rank 1 (the
 * listener's port number travels by MPI_Send); the intercommunicator has one process on each
 * side and carries messages both ways. Then the same two ranks accept/connect on a port over
 * MPI_COMM_SELF. Pairs beyond the first two only watch (the calls are not collective for
 * them). */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include "../common/mpitest.h"

static int tcp_pair_end(int listener_side)
{
    if (listener_side) {
        int l = socket(AF_INET, SOCK_STREAM, 0);
        struct sockaddr_in addr = {.sin_family = AF_INET, .sin_port = 0};
        addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        socklen_t len = sizeof(addr);
        MT_ASSERT(l >= 0 && bind(l, (struct sockaddr *)&addr, sizeof(addr)) == 0 &&
                      listen(l, 1) == 0 && getsockname(l, (struct sockaddr *)&addr, &len) == 0,
                  "cannot listen on 127.0.0.1");
        int port = ntohs(addr.sin_port);
        MPI_Send(&port, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
        int fd = accept(l, NULL, NULL);
        close(l);
        return fd;
    }
    int port = 0;
    MPI_Recv(&port, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in addr = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    MT_ASSERT(connect(fd, (struct sockaddr *)&addr, sizeof(addr)) == 0, "connect to rank 0");
    return fd;
}

static void talk(MPI_Comm inter)
{
    int size = 0, remote = 0, v = 10 + mt_rank, got = -1;
    MPI_Comm_size(inter, &size);
    MPI_Comm_remote_size(inter, &remote);
    MT_CHECK(size == 1 && remote == 1, "sizes %d/%d", size, remote);
    MT_MPI(MPI_Sendrecv(&v, 1, MPI_INT, 0, 1, &got, 1, MPI_INT, 0, 1, inter,
                        MPI_STATUS_IGNORE));
    MT_CHECK_INT(10 + (1 - mt_rank), got, "value from the joined process");
    int sum = 0;
    MT_MPI(MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_SUM, inter));
    MT_CHECK_INT(10 + (1 - mt_rank), sum, "inter allreduce");
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    mt_require_ranks(2);
    if (mt_rank < 2) {
        int fd = tcp_pair_end(mt_rank == 0);
        MPI_Comm inter;
        MT_MPI(MPI_Comm_join(fd, &inter));
        talk(inter);
        MT_MPI(MPI_Comm_disconnect(&inter));
        close(fd);
        char port[MPI_MAX_PORT_NAME] = "";
        if (mt_rank == 0) {
            MT_MPI(MPI_Open_port(MPI_INFO_NULL, port));
            MT_MPI(MPI_Send(port, MPI_MAX_PORT_NAME, MPI_CHAR, 1, 2, MPI_COMM_WORLD));
            MT_MPI(MPI_Comm_accept(port, MPI_INFO_NULL, 0, MPI_COMM_SELF, &inter));
            MT_MPI(MPI_Close_port(port));
        } else {
            MT_MPI(MPI_Recv(port, MPI_MAX_PORT_NAME, MPI_CHAR, 0, 2, MPI_COMM_WORLD,
                            MPI_STATUS_IGNORE));
            MT_MPI(MPI_Comm_connect(port, MPI_INFO_NULL, 0, MPI_COMM_SELF, &inter));
        }
        talk(inter);
        MT_MPI(MPI_Comm_disconnect(&inter));
    }
    return mt_finish();
}
