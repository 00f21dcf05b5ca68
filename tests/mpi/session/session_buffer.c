/* session_buffer: MPI-4.1 session buffers (MPI_Session_attach_buffer[_c],
 * MPI_Session_detach_buffer[_c], MPI_Session_flush_buffer, MPI_Session_iflush_buffer). A
 * buffered send uses the communicator's own buffer, else the buffer of the session the
 * communicator derives from (made from a group of the session, or duplicated / built from such
 * a communicator), else the process's (MPI 4.1 3.6). Here the process buffer is too small for
 * the large messages, so a large MPI_Bsend succeeds exactly where the session buffer applies.
 * Also: detach hands back buffer and size (MPI_BUFFER_AUTOMATIC too) and waits until the
 * messages in it are received, flush/iflush, MPI_Session_finalize detaching implicitly, and
 * the argument errors. Every rank sends to its right neighbour and receives from its left. */
#include "../common/mpitest.h"

#if MPI_VERSION > 4 || (MPI_VERSION == 4 && MPI_SUBVERSION >= 1)
enum { NMSG = 3, BIG = 200000, SMALL = 64 };

static int bsend_class(MPI_Comm comm, int bytes, int tag)
{
    static char out[BIG];
    return mt_errclass(MPI_Bsend(out, bytes, MPI_BYTE, mt_right(), tag, comm));
}

/* NMSG large buffered messages on comm, received and checked, then flushed the way asked
 * (0: MPI_Session_flush_buffer, 1: MPI_Comm_flush_buffer, which leaves the session's buffer
 * alone, then MPI_Session_iflush_buffer; 2: MPI_Session_iflush_buffer started before the
 * receives). A flush is needed before the buffer is reused: a message received by my left
 * neighbour says nothing about mine to the right. */
static void exchange(MPI_Session session, MPI_Comm comm, int seed, int how)
{
    static char out[NMSG][BIG], in[BIG];
    for (int i = 0; i < NMSG; i++) {
        mt_fill(out[i], BIG, (uint64_t)(mt_rank * 100 + seed + i));
        MT_MPI(MPI_Bsend(out[i], BIG, MPI_BYTE, mt_right(), i, comm));
        memset(out[i], 0, BIG); /* the buffered copy must not depend on this memory */
    }
    if (how == 2) { /* started before the receives: completes only once they have matched */
        MPI_Request req = MPI_REQUEST_NULL;
        MT_MPI(MPI_Session_iflush_buffer(session, &req));
        for (int i = 0; i < NMSG; i++) {
            MT_MPI(MPI_Recv(in, BIG, MPI_BYTE, mt_left(), i, comm, MPI_STATUS_IGNORE));
            MT_VERIFY(in, BIG, (uint64_t)(mt_left() * 100 + seed + i), "buffered message");
        }
        MT_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
        MT_CHECK(req == MPI_REQUEST_NULL, "iflush request not freed by MPI_Wait");
        return;
    }
    for (int i = 0; i < NMSG; i++) {
        MT_MPI(MPI_Recv(in, BIG, MPI_BYTE, mt_left(), i, comm, MPI_STATUS_IGNORE));
        MT_VERIFY(in, BIG, (uint64_t)(mt_left() * 100 + seed + i), "buffered message");
    }
    if (how == 0) {
        MT_MPI(MPI_Session_flush_buffer(session));
        return;
    }
    MT_MPI(MPI_Comm_flush_buffer(comm));
    MPI_Request req = MPI_REQUEST_NULL;
    MT_MPI(MPI_Session_iflush_buffer(session, &req));
    MT_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
}

static MPI_Comm comm_from_group(MPI_Group group, const char *tag)
{
    MPI_Comm comm = MPI_COMM_NULL;
    MT_MPI(MPI_Comm_create_from_group(group, tag, MPI_INFO_NULL, MPI_ERRORS_RETURN, &comm));
    return comm;
}

/* Communicators from the session's group, from a group derived from it, and a duplicate all
 * use the session buffer; MPI_COMM_WORLD does not; a communicator buffer comes first. */
static void precedence(MPI_Session session, MPI_Group sgroup)
{
    MPI_Comm scomm = comm_from_group(sgroup, "org.nodempi.sbuf.precedence");
    int ssize = NMSG * (BIG + MPI_BSEND_OVERHEAD);
    char *smem = mt_malloc((size_t)ssize);
    MT_MPI(MPI_Session_attach_buffer(session, smem, ssize));
    MT_CHECK_ERRCLASS(MPI_Session_attach_buffer(session, smem, ssize), MPI_ERR_BUFFER,
                      "second buffer on one session");

    exchange(session, scomm, 1, 0);
    MT_CHECK_ERRCLASS(bsend_class(MPI_COMM_WORLD, BIG, 9), MPI_ERR_BUFFER,
                      "large MPI_Bsend on MPI_COMM_WORLD (small process buffer)");

    MPI_Comm dup;
    MT_MPI(MPI_Comm_dup(scomm, &dup));
    exchange(session, dup, 2, 1);
    MPI_Group all_but_none; /* a group derived from the session's group */
    MT_MPI(MPI_Group_excl(sgroup, 0, NULL, &all_but_none));
    MPI_Comm derived = comm_from_group(all_but_none, "org.nodempi.sbuf.derived");
    exchange(session, derived, 3, 2);

    /* The communicator's own buffer (too small here) wins over the session's. */
    int csize = SMALL + MPI_BSEND_OVERHEAD;
    char *cmem = mt_malloc((size_t)csize);
    MT_MPI(MPI_Comm_attach_buffer(dup, cmem, csize));
    MT_CHECK_ERRCLASS(bsend_class(dup, BIG, 9), MPI_ERR_BUFFER,
                      "large MPI_Bsend on a communicator with a small buffer of its own");
    exchange(session, scomm, 4, 1); /* the other communicators still use the session's */
    void *back = NULL;
    int back_size = -1;
    MT_MPI(MPI_Comm_detach_buffer(dup, &back, &back_size));
    MT_CHECK(back == cmem && back_size == csize, "communicator buffer detached as %p/%d", back,
             back_size);
    exchange(session, dup, 5, 0); /* back to the session's buffer */

    MT_MPI(MPI_Session_detach_buffer(session, &back, &back_size));
    MT_CHECK(back == smem && back_size == ssize, "session buffer detached as %p/%d", back,
             back_size);
    MT_MPI(MPI_Session_detach_buffer(session, &back, &back_size));
    MT_CHECK(back == NULL && back_size == 0, "nothing attached: detached %p/%d", back,
             back_size);
    /* without a session buffer, the session's communicators use the process buffer */
    MT_CHECK_ERRCLASS(bsend_class(scomm, BIG, 9), MPI_ERR_BUFFER,
                      "large MPI_Bsend after the session buffer is detached");
    static char one[SMALL], in[SMALL];
    mt_fill(one, SMALL, 77);
    MT_MPI(MPI_Bsend(one, SMALL, MPI_BYTE, mt_right(), 6, scomm));
    MT_MPI(MPI_Recv(in, SMALL, MPI_BYTE, mt_left(), 6, scomm, MPI_STATUS_IGNORE));
    MT_VERIFY(in, SMALL, 77, "small message through the process buffer");

    free(cmem);
    free(smem);
    MT_MPI(MPI_Group_free(&all_but_none));
    MT_MPI(MPI_Comm_free(&derived));
    MT_MPI(MPI_Comm_free(&dup));
    MT_MPI(MPI_Comm_free(&scomm));
}

/* Detach returns only after the buffered messages left the buffer: the receiver takes its time
 * and the sender scribbles over the buffer right after detaching. */
static void detach_waits(MPI_Session session, MPI_Group sgroup)
{
    MPI_Comm scomm = comm_from_group(sgroup, "org.nodempi.sbuf.detach");
    MPI_Count size = BIG + MPI_BSEND_OVERHEAD;
    char *mem = mt_malloc((size_t)size);
    MT_MPI(MPI_Session_attach_buffer_c(session, mem, size));
    static char out[BIG], in[BIG];
    mt_fill(out, BIG, (uint64_t)(mt_rank + 500));
    MPI_Request req;
    MT_MPI(MPI_Irecv(in, BIG, MPI_BYTE, mt_left(), 0, scomm, &req));
    MT_MPI(MPI_Bsend(out, BIG, MPI_BYTE, mt_right(), 0, scomm));
    if (mt_size > 1 && mt_rank % 2 == 0)
        mt_sleep(0.2); /* odd ranks detach while their message is still unreceived */
    void *back = NULL;
    MPI_Count back_size = -1;
    MT_MPI(MPI_Session_detach_buffer_c(session, &back, &back_size));
    MT_CHECK(back == mem && back_size == size, "session buffer detached as %p/%lld", back,
             (long long)back_size);
    memset(mem, 0xff, (size_t)size);
    MT_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
    MT_VERIFY(in, BIG, (uint64_t)(mt_left() + 500), "message buffered before detach");
    free(mem);
    MT_MPI(MPI_Comm_free(&scomm));
}

/* MPI_BUFFER_AUTOMATIC; MPI_Session_finalize detaches (after sending) what is attached. */
static void automatic_and_finalize(void)
{
    MPI_Session session;
    MPI_Group group;
    MT_MPI(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &session));
    MT_MPI(MPI_Group_from_session_pset(session, "mpi://WORLD", &group));
    MPI_Comm comm = comm_from_group(group, "org.nodempi.sbuf.automatic");
    MT_MPI(MPI_Session_attach_buffer(session, MPI_BUFFER_AUTOMATIC, 0));
    exchange(session, comm, 6, 2);
    void *back = NULL;
    int back_size = -1;
    MT_MPI(MPI_Session_detach_buffer(session, &back, &back_size));
    MT_CHECK(back == MPI_BUFFER_AUTOMATIC, "automatic buffer detached as %p", back);

    MT_MPI(MPI_Session_attach_buffer(session, MPI_BUFFER_AUTOMATIC, 0));
    static char out[BIG], in[BIG];
    mt_fill(out, BIG, (uint64_t)(mt_rank + 900));
    MT_MPI(MPI_Bsend(out, BIG, MPI_BYTE, mt_right(), 0, comm));
    MPI_Request req;
    MT_MPI(MPI_Irecv(in, BIG, MPI_BYTE, mt_left(), 0, comm, &req));
    MT_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
    MT_VERIFY(in, BIG, (uint64_t)(mt_left() + 900), "message through an automatic buffer");
    MT_MPI(MPI_Comm_free(&comm));
    MT_MPI(MPI_Group_free(&group));
    MT_MPI(MPI_Session_finalize(&session)); /* with the automatic buffer still attached */
}

static void argument_errors(MPI_Session session)
{
    static char mem[100];
    MT_CHECK_ERRCLASS(MPI_Session_attach_buffer(MPI_SESSION_NULL, mem, 100), MPI_ERR_SESSION,
                      "MPI_Session_attach_buffer(MPI_SESSION_NULL)");
    MT_CHECK_ERRCLASS(MPI_Session_attach_buffer(session, NULL, 10), MPI_ERR_BUFFER,
                      "MPI_Session_attach_buffer(NULL, 10)");
    MT_CHECK_ERRCLASS(MPI_Session_attach_buffer(session, mem, -1), MPI_ERR_COUNT,
                      "MPI_Session_attach_buffer(size -1)");
    MT_CHECK_ERRCLASS(MPI_Session_attach_buffer_c(session, mem, -5), MPI_ERR_COUNT,
                      "MPI_Session_attach_buffer_c(size -5)");
    void *back;
    MT_CHECK_ERRCLASS(MPI_Session_detach_buffer(session, &back, NULL), MPI_ERR_ARG,
                      "MPI_Session_detach_buffer(size NULL)");
    MT_CHECK_ERRCLASS(MPI_Session_detach_buffer(MPI_SESSION_NULL, &back, &(int){0}),
                      MPI_ERR_SESSION, "MPI_Session_detach_buffer(MPI_SESSION_NULL)");
    MT_CHECK_ERRCLASS(MPI_Session_flush_buffer(MPI_SESSION_NULL), MPI_ERR_SESSION,
                      "MPI_Session_flush_buffer(MPI_SESSION_NULL)");
    MT_CHECK_ERRCLASS(MPI_Session_iflush_buffer(session, NULL), MPI_ERR_REQUEST,
                      "MPI_Session_iflush_buffer(request NULL)");
    /* nothing attached: flush and iflush have nothing to wait for */
    MT_MPI(MPI_Session_flush_buffer(session));
    MPI_Request req = MPI_REQUEST_NULL;
    MT_MPI(MPI_Session_iflush_buffer(session, &req));
    MT_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
}
#endif

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    mt_set_errors_return(MPI_COMM_WORLD);
    mt_set_errors_return(MPI_COMM_SELF);
#if MPI_VERSION > 4 || (MPI_VERSION == 4 && MPI_SUBVERSION >= 1)
    int psize = SMALL + MPI_BSEND_OVERHEAD;
    char *pmem = mt_malloc((size_t)psize);
    MT_MPI(MPI_Buffer_attach(pmem, psize));
    MPI_Session session;
    MPI_Group sgroup;
    MT_MPI(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &session));
    MT_MPI(MPI_Group_from_session_pset(session, "mpi://WORLD", &sgroup));
    precedence(session, sgroup);
    detach_waits(session, sgroup);
    argument_errors(session);
    MT_MPI(MPI_Group_free(&sgroup));
    MT_MPI(MPI_Session_finalize(&session));
    automatic_and_finalize();
    void *back;
    int back_size;
    MT_MPI(MPI_Buffer_detach(&back, &back_size));
    MT_CHECK(back == pmem && back_size == psize, "process buffer detached as %p/%d", back,
             back_size);
    free(pmem);
#endif
    return mt_finish();
}
