/* sizes: MPI_Send/MPI_Recv of MPI_BYTE messages from 0 B to 64 MiB (powers of two, 2^k+1 and
 * odd sizes such as 1, 3, 1000003) between rank pairs, alternating direction, with data, status
 * and guard-byte verification. The first pair goes up to 64 MiB, other pairs up to 4 MiB; an
 * unpaired rank sends to itself (Isend/Recv/Wait). */
#include "../common/mpitest.h"

#define GUARD 64
#define BIG_MAX ((size_t)64 << 20)
#define OTHER_MAX ((size_t)4 << 20)

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);

    size_t sizes[80];
    int nsizes = 0;
    const size_t odd[] = {1, 3, 7, 1000, 4097, 65537, 1000003, 1048577, 16777259};
    sizes[nsizes++] = 0;
    for (int k = 0; k <= 26; k++)
        sizes[nsizes++] = (size_t)1 << k;
    for (size_t i = 0; i < sizeof odd / sizeof odd[0]; i++)
        sizes[nsizes++] = odd[i];

    int peer = mt_peer();
    size_t maxsz = (mt_rank < 2) ? BIG_MAX : OTHER_MAX;
    unsigned char *sbuf = mt_malloc(maxsz);
    unsigned char *rbuf = mt_malloc(maxsz + GUARD);

    for (int s = 0; s < nsizes; s++) {
        size_t n = sizes[s];
        char what[96];
        if (n > maxsz)
            continue;
        /* even sizes index: first -> second, odd index: second -> first */
        int i_send = (peer == mt_rank) || ((s % 2 == 0) == mt_is_first());
        int i_recv = (peer == mt_rank) || !i_send;
        int src = peer;
        int tag = s;
        uint64_t seed = 1000 + (uint64_t)n + (uint64_t)src * 7;
        MPI_Request req = MPI_REQUEST_NULL;

        if (i_send) {
            mt_fill(sbuf, n, 1000 + (uint64_t)n + (uint64_t)mt_rank * 7);
            if (peer == mt_rank)
                MPI_Isend(sbuf, (int)n, MPI_BYTE, peer, tag, MPI_COMM_WORLD, &req);
            else
                MPI_Send(sbuf, (int)n, MPI_BYTE, peer, tag, MPI_COMM_WORLD);
        }
        if (i_recv) {
            MPI_Status st;
            memset(rbuf, 0xEE, n + GUARD);
            MPI_Recv(rbuf, (int)(n + GUARD), MPI_BYTE, src, tag, MPI_COMM_WORLD, &st);
            snprintf(what, sizeof what, "message of %zu bytes from %d", n, src);
            MT_CHECK_STATUS(&st, src, tag, MPI_BYTE, (int)n, what);
            MT_VERIFY(rbuf, n, seed, what);
            snprintf(what, sizeof what, "guard bytes after message of %zu bytes", n);
            MT_VERIFY_CONST(rbuf + n, GUARD, 0xEE, what);
        }
        if (req != MPI_REQUEST_NULL)
            MPI_Wait(&req, MPI_STATUS_IGNORE);
    }

    free(sbuf);
    free(rbuf);
    return mt_finish();
}
