/* bsend_flush: MPI-4.1 buffered-send additions. MPI_Buffer_flush and MPI_Buffer_iflush drain
 * the attached buffer and leave it attached; with MPI_BUFFER_AUTOMATIC the library finds the
 * memory for any number of messages and MPI_Buffer_detach hands MPI_BUFFER_AUTOMATIC back.
 * (mpi4py's test_buffer expects these of an MPI reporting version >= 4.1.) */
#include "../common/mpitest.h"

#if MPI_VERSION > 4 || (MPI_VERSION == 4 && MPI_SUBVERSION >= 1)
enum { NMSG = 8, BIG = 200000 };

/* Buffer NMSG messages to the peer (sizes up to BIG), flush, then receive them all. */
static void exchange(int peer, int use_iflush)
{
    static char out[NMSG][BIG], in[BIG];
    for (int i = 0; i < NMSG; i++) {
        int n = i * (BIG / NMSG);
        mt_fill(out[i], (size_t)n, (uint64_t)(mt_rank * 100 + i));
        MT_MPI(MPI_Bsend(out[i], n, MPI_BYTE, peer, i, MPI_COMM_WORLD));
        memset(out[i], 0, (size_t)n); /* the buffered copy must not depend on this memory */
    }
    if (mt_size == 1) { /* to self: the receives must come before the flush can finish */
        for (int i = 0; i < NMSG; i++) {
            int n = i * (BIG / NMSG);
            MT_MPI(MPI_Recv(in, n, MPI_BYTE, peer, i, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            MT_VERIFY(in, (size_t)n, (uint64_t)(peer * 100 + i), "buffered message");
        }
    }
    MPI_Request req = MPI_REQUEST_NULL;
    if (use_iflush)
        MT_MPI(MPI_Buffer_iflush(&req));
    else if (mt_size == 1)
        MT_MPI(MPI_Buffer_flush());
    if (mt_size > 1) {
        for (int i = 0; i < NMSG; i++) {
            int n = i * (BIG / NMSG);
            MT_MPI(MPI_Recv(in, n, MPI_BYTE, peer, i, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            MT_VERIFY(in, (size_t)n, (uint64_t)(peer * 100 + i), "buffered message");
        }
        if (!use_iflush)
            MT_MPI(MPI_Buffer_flush());
    }
    MT_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
}
#endif

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    mt_set_errors_return(MPI_COMM_WORLD);
#if MPI_VERSION > 4 || (MPI_VERSION == 4 && MPI_SUBVERSION >= 1)
    int peer = mt_size == 1 ? 0 : mt_peer();
    if (mt_size == 1 || peer != mt_rank) {
        int size = NMSG * (BIG + MPI_BSEND_OVERHEAD);
        char *mem = malloc((size_t)size);
        MT_MPI(MPI_Buffer_attach(mem, size));
        exchange(peer, 0);
        exchange(peer, 1);
        void *back;
        int back_size;
        MT_MPI(MPI_Buffer_detach(&back, &back_size));
        MT_CHECK(back == mem && back_size == size, "user buffer detached as %p/%d", back,
                 back_size);
        free(mem);

        MT_MPI(MPI_Buffer_attach(MPI_BUFFER_AUTOMATIC, 0));
        exchange(peer, 0);
        exchange(peer, 1);
        MT_MPI(MPI_Buffer_detach(&back, &back_size));
        MT_CHECK(back == MPI_BUFFER_AUTOMATIC, "automatic buffer detached as %p", back);
    }
#endif
    return mt_finish();
}
