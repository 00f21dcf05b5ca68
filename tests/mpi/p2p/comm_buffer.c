/* comm_buffer: MPI-4.1 communicator buffers (MPI_Comm_attach_buffer, MPI_Comm_detach_buffer,
 * MPI_Comm_flush_buffer, MPI_Comm_iflush_buffer; mpi4py's testBuffering). A buffered send on a
 * communicator with a buffer of its own uses that buffer, any other uses the process's; only
 * one buffer per communicator; detaching hands the buffer (or MPI_BUFFER_AUTOMATIC) back and
 * detaching none gives NULL / 0; MPI_Comm_free with messages still buffered sends them first.
 * Every rank sends to its right neighbour (itself when alone) and receives from its left. */
#include "../common/mpitest.h"

#if MPI_VERSION > 4 || (MPI_VERSION == 4 && MPI_SUBVERSION >= 1)
enum { NMSG = 4, BIG = 100000, SMALL = 64 };

/* Buffer NMSG messages of `bytes` on comm, receive them, then flush the way asked. */
static void exchange(MPI_Comm comm, int bytes, int how)
{
    static char out[NMSG][BIG], in[BIG];
    for (int i = 0; i < NMSG; i++) {
        mt_fill(out[i], (size_t)bytes, (uint64_t)(mt_rank * 100 + i + how));
        MT_MPI(MPI_Bsend(out[i], bytes, MPI_BYTE, mt_right(), i, comm));
        memset(out[i], 0, (size_t)bytes); /* the buffered copy must not depend on this memory */
    }
    for (int i = 0; i < NMSG; i++) {
        MT_MPI(MPI_Recv(in, bytes, MPI_BYTE, mt_left(), i, comm, MPI_STATUS_IGNORE));
        MT_VERIFY(in, (size_t)bytes, (uint64_t)(mt_left() * 100 + i + how), "buffered message");
    }
    if (how == 0) {
        MT_MPI(MPI_Comm_flush_buffer(comm));
    } else {
        MPI_Request req = MPI_REQUEST_NULL;
        MT_MPI(MPI_Comm_iflush_buffer(comm, &req));
        MT_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
    }
}

static MPI_Comm dup_world(void)
{
    MPI_Comm comm;
    MT_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &comm));
    mt_set_errors_return(comm);
    return comm;
}

static int bsend_error(MPI_Comm comm, int bytes)
{
    static char out[BIG];
    return mt_errclass(MPI_Bsend(out, bytes, MPI_BYTE, mt_right(), 99, comm));
}

/* A user buffer on a duplicate of MPI_COMM_WORLD while the process has none. */
static void user_buffer(void)
{
    MPI_Comm comm = dup_world();
    int size = NMSG * (BIG + MPI_BSEND_OVERHEAD);
    char *mem = mt_malloc((size_t)size);
    MT_MPI(MPI_Comm_attach_buffer(comm, mem, size));
    MT_CHECK_ERRCLASS(MPI_Comm_attach_buffer(comm, mem, size), MPI_ERR_BUFFER,
                      "second buffer on one communicator");
    exchange(comm, BIG, 0);
    exchange(comm, BIG, 1);
    /* the process has no buffer: buffered sends elsewhere still fail */
    MT_CHECK_ERRCLASS(bsend_error(MPI_COMM_WORLD, SMALL), MPI_ERR_BUFFER,
                      "MPI_Bsend on MPI_COMM_WORLD without a process buffer");
    void *back = NULL;
    int back_size = -1;
    MT_MPI(MPI_Comm_detach_buffer(comm, &back, &back_size));
    MT_CHECK(back == mem && back_size == size, "user buffer detached as %p/%d", back,
             back_size);
    MT_MPI(MPI_Comm_detach_buffer(comm, &back, &back_size));
    MT_CHECK(back == NULL && back_size == 0, "nothing attached: detached %p/%d", back,
             back_size);
    MT_CHECK_ERRCLASS(bsend_error(comm, SMALL), MPI_ERR_BUFFER, "MPI_Bsend after detach");
    free(mem);
    MT_MPI(MPI_Comm_free(&comm));
}

/* A small process buffer and a large communicator buffer: each send finds its own. */
static void both_buffers(void)
{
    int psize = SMALL + MPI_BSEND_OVERHEAD;
    char *pmem = mt_malloc((size_t)psize);
    MT_MPI(MPI_Buffer_attach(pmem, psize));
    MPI_Comm comm = dup_world();
    MPI_Count csize = NMSG * (BIG + MPI_BSEND_OVERHEAD);
    char *cmem = mt_malloc((size_t)csize);
    MT_MPI(MPI_Comm_attach_buffer_c(comm, cmem, csize));
    exchange(comm, BIG, 0); /* fits the communicator's buffer only */
    MT_CHECK_ERRCLASS(bsend_error(MPI_COMM_WORLD, BIG), MPI_ERR_BUFFER,
                      "large MPI_Bsend on MPI_COMM_WORLD (small process buffer)");
    static char one[SMALL], in[SMALL];
    mt_fill(one, SMALL, 7);
    MT_MPI(MPI_Bsend(one, SMALL, MPI_BYTE, mt_right(), 5, MPI_COMM_WORLD));
    MT_MPI(MPI_Recv(in, SMALL, MPI_BYTE, mt_left(), 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    MT_VERIFY(in, SMALL, 7, "message through the process buffer");
    void *back;
    MPI_Count back_size;
    MT_MPI(MPI_Comm_detach_buffer_c(comm, &back, &back_size));
    MT_CHECK(back == cmem && back_size == csize, "communicator buffer detached as %p/%lld",
             back, (long long)back_size);
    int pback_size;
    MT_MPI(MPI_Buffer_detach(&back, &pback_size));
    MT_CHECK(back == pmem && pback_size == psize, "process buffer detached as %p/%d", back,
             pback_size);
    free(cmem);
    free(pmem);
    MT_MPI(MPI_Comm_free(&comm));
}

/* MPI_BUFFER_AUTOMATIC on a communicator; detach hands MPI_BUFFER_AUTOMATIC back. */
static void automatic_buffer(void)
{
    MPI_Comm comm = dup_world();
    MT_MPI(MPI_Comm_attach_buffer(comm, MPI_BUFFER_AUTOMATIC, 0));
    exchange(comm, BIG, 0);
    exchange(comm, SMALL, 1);
    void *back = NULL;
    int back_size;
    MT_MPI(MPI_Comm_detach_buffer(comm, &back, &back_size));
    MT_CHECK(back == MPI_BUFFER_AUTOMATIC, "automatic buffer detached as %p", back);
    MT_MPI(MPI_Comm_free(&comm));
}

/* Freeing a communicator whose buffer still holds messages: they are delivered. */
static void free_with_messages(void)
{
    MPI_Comm comm = dup_world();
    MT_MPI(MPI_Comm_attach_buffer(comm, MPI_BUFFER_AUTOMATIC, 0));
    static char out[BIG], in[BIG];
    mt_fill(out, BIG, 11);
    MT_MPI(MPI_Bsend(out, BIG, MPI_BYTE, mt_right(), 0, comm));
    memset(out, 0, BIG);
    MPI_Request req;
    MT_MPI(MPI_Irecv(in, BIG, MPI_BYTE, mt_left(), 0, comm, &req));
    MT_MPI(MPI_Comm_free(&comm));
    MT_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
    MT_VERIFY(in, BIG, 11, "message buffered before MPI_Comm_free");
}

static void argument_errors(void)
{
    MT_CHECK_ERRCLASS(MPI_Comm_attach_buffer(MPI_COMM_NULL, MPI_BUFFER_AUTOMATIC, 0),
                      MPI_ERR_COMM, "MPI_Comm_attach_buffer(MPI_COMM_NULL)");
    MT_CHECK_ERRCLASS(MPI_Comm_attach_buffer(MPI_COMM_WORLD, NULL, 10), MPI_ERR_BUFFER,
                      "MPI_Comm_attach_buffer(NULL, 10)");
    MT_CHECK_ERRCLASS(MPI_Comm_flush_buffer(MPI_COMM_NULL), MPI_ERR_COMM,
                      "MPI_Comm_flush_buffer(MPI_COMM_NULL)");
    MT_CHECK_ERRCLASS(MPI_Comm_iflush_buffer(MPI_COMM_WORLD, NULL), MPI_ERR_REQUEST,
                      "MPI_Comm_iflush_buffer(request NULL)");
}
#endif

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    mt_set_errors_return(MPI_COMM_WORLD);
    mt_set_errors_return(MPI_COMM_SELF);
#if MPI_VERSION > 4 || (MPI_VERSION == 4 && MPI_SUBVERSION >= 1)
    user_buffer();
    both_buffers();
    automatic_buffer();
    free_with_messages();
    argument_errors();
    /* MPI_COMM_WORLD's buffer is flushed and detached by MPI_Finalize */
    MT_MPI(MPI_Comm_attach_buffer(MPI_COMM_WORLD, MPI_BUFFER_AUTOMATIC, 0));
    static char last[SMALL];
    MT_MPI(MPI_Bsend(last, SMALL, MPI_BYTE, mt_right(), 1, MPI_COMM_WORLD));
    MT_MPI(MPI_Recv(last, SMALL, MPI_BYTE, mt_left(), 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
#endif
    return mt_finish();
}
