/* bsend_exact: a buffer of exactly (packed size + MPI_BSEND_OVERHEAD) per message is enough,
 * as the standard's accounting promises, for every message size (odd sizes included), with
 * MPI_Bsend, MPI_Ibsend and a persistent MPI_Bsend_init. (Found by mpi4py's test_p2p_buf:
 * nodempi rounded each message up to 8 bytes and failed a 1-byte Bsend with MPI_ERR_BUFFER.) */
#include "../common/mpitest.h"

static void one_size(int bytes, int peer)
{
    int packed = 0;
    MPI_Pack_size(bytes, MPI_BYTE, MPI_COMM_WORLD, &packed);
    int size = packed + MPI_BSEND_OVERHEAD;
    char *attached = malloc((size_t)size + 1);
    char *data = malloc((size_t)bytes + 1), *in = malloc((size_t)bytes + 1);
    /* start the attached buffer on an odd address: alignment must not cost extra bytes */
    MT_MPI(MPI_Buffer_attach(attached + 1, size));
    for (int round = 0; round < 3; round++) {
        mt_fill(data, (size_t)bytes, (uint64_t)(bytes * 3 + round));
        MPI_Request req;
        if (round == 0)
            MT_MPI(MPI_Bsend(data, bytes, MPI_BYTE, peer, round, MPI_COMM_WORLD));
        if (round == 1) {
            MT_MPI(MPI_Ibsend(data, bytes, MPI_BYTE, peer, round, MPI_COMM_WORLD, &req));
            MT_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
        }
        if (round == 2) {
            MT_MPI(MPI_Bsend_init(data, bytes, MPI_BYTE, peer, round, MPI_COMM_WORLD, &req));
            MT_MPI(MPI_Start(&req));
            MT_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
            MT_MPI(MPI_Request_free(&req));
        }
        MT_MPI(MPI_Recv(in, bytes, MPI_BYTE, peer, round, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        MT_VERIFY(in, (size_t)bytes, (uint64_t)(bytes * 3 + round), "bsend payload");
        /* the receive on the other side may complete only after our next send: wait for the
         * region to drain before reusing the exact-size buffer */
        void *b;
        int s;
        MT_MPI(MPI_Buffer_detach(&b, &s));
        MT_CHECK(b == attached + 1 && s == size, "detach returned %p/%d, attached %p/%d", b, s,
                 (void *)(attached + 1), size);
        MT_MPI(MPI_Buffer_attach(attached + 1, size));
    }
    void *b;
    int s;
    MT_MPI(MPI_Buffer_detach(&b, &s));
    free(attached);
    free(data);
    free(in);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    mt_set_errors_return(MPI_COMM_WORLD);
    int peer = mt_size == 1 ? 0 : mt_peer();
    if (mt_size == 1 || peer != mt_rank) {
        static const int sizes[] = {0, 1, 3, 7, 8, 9, 63, 1001, 65537};
        for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
            one_size(sizes[i], peer);
    }
    return mt_finish();
}
