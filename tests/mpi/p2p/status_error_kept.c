/* status_error_kept.c - single-completion calls (probes, matched and plain receives, waits)
 * leave status.MPI_ERROR as the caller set it (MPI 4.1 3.2.5), both for MPI_PROC_NULL and for
 * a real message; only the multiple-completion calls may write it. */
#include "mpitest.h"

enum { SENTINEL = 12345 };

static void check_kept(const MPI_Status *st, const char *what)
{
    MT_CHECK_INT(SENTINEL, st->MPI_ERROR, what);
}

static void probes_proc_null(void)
{
    MPI_Status st;
    MPI_Message msg;
    int flag = 0, value = 0;
    st.MPI_ERROR = SENTINEL;
    MT_MPI(MPI_Probe(MPI_PROC_NULL, 1, MPI_COMM_WORLD, &st));
    check_kept(&st, "MPI_Probe(MPI_PROC_NULL)");
    MT_CHECK_INT(MPI_PROC_NULL, st.MPI_SOURCE, "MPI_Probe(MPI_PROC_NULL) source");
    st.MPI_ERROR = SENTINEL;
    MT_MPI(MPI_Iprobe(MPI_PROC_NULL, 1, MPI_COMM_WORLD, &flag, &st));
    check_kept(&st, "MPI_Iprobe(MPI_PROC_NULL)");
    st.MPI_ERROR = SENTINEL;
    MT_MPI(MPI_Mprobe(MPI_PROC_NULL, 1, MPI_COMM_WORLD, &msg, &st));
    check_kept(&st, "MPI_Mprobe(MPI_PROC_NULL)");
    MT_CHECK(msg == MPI_MESSAGE_NO_PROC, "MPI_Mprobe(MPI_PROC_NULL) gives MPI_MESSAGE_NO_PROC");
    st.MPI_ERROR = SENTINEL;
    MT_MPI(MPI_Mrecv(&value, 1, MPI_INT, &msg, &st));
    check_kept(&st, "MPI_Mrecv(MPI_MESSAGE_NO_PROC)");
    st.MPI_ERROR = SENTINEL;
    MT_MPI(MPI_Improbe(MPI_PROC_NULL, 1, MPI_COMM_WORLD, &flag, &msg, &st));
    check_kept(&st, "MPI_Improbe(MPI_PROC_NULL)");
    MT_CHECK_INT(1, flag, "MPI_Improbe(MPI_PROC_NULL) flag");
    MT_MPI(MPI_Mrecv(&value, 1, MPI_INT, &msg, MPI_STATUS_IGNORE));
    st.MPI_ERROR = SENTINEL;
    MT_MPI(MPI_Recv(&value, 1, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD, &st));
    check_kept(&st, "MPI_Recv(MPI_PROC_NULL)");
}

/* Every rank sends to its right neighbour and probes the message from its left one. */
static void probes_real_message(void)
{
    MPI_Status st;
    MPI_Message msg;
    MPI_Request req;
    int flag = 0, out = mt_rank, in = -1;
    MT_MPI(MPI_Isend(&out, 1, MPI_INT, mt_right(), 7, MPI_COMM_WORLD, &req));
    st.MPI_ERROR = SENTINEL;
    MT_MPI(MPI_Probe(mt_left(), 7, MPI_COMM_WORLD, &st));
    check_kept(&st, "MPI_Probe of a message");
    MT_CHECK_INT(mt_left(), st.MPI_SOURCE, "MPI_Probe source");
    st.MPI_ERROR = SENTINEL;
    while (!flag)
        MT_MPI(MPI_Improbe(mt_left(), 7, MPI_COMM_WORLD, &flag, &msg, &st));
    check_kept(&st, "MPI_Improbe of a message");
    st.MPI_ERROR = SENTINEL;
    MT_MPI(MPI_Mrecv(&in, 1, MPI_INT, &msg, &st));
    check_kept(&st, "MPI_Mrecv of a message");
    MT_CHECK_INT(mt_left(), in, "value received by MPI_Mrecv");
    st.MPI_ERROR = SENTINEL;
    MT_MPI(MPI_Wait(&req, &st));
    check_kept(&st, "MPI_Wait of a send");
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    probes_proc_null();
    probes_real_message();
    return mt_finish();
}
