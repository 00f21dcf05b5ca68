/* zero_bytes: a blocking collective that moves no data returns without sending (src/coll/coll.c,
 * moves_no_data): 0-count MPI_Bcast, MPI_Reduce, MPI_Allreduce, MPI_Scan, MPI_Exscan, MPI_Gather,
 * MPI_Scatter, MPI_Allgather and MPI_Alltoall - also with MPI_IN_PLACE, a zero-size datatype,
 * and a leaf whose send side is 0 while the root names a nonempty buffer it never reads - send
 * no message (the MPI_T send counters stay put), leave the buffers alone, and the collectives
 * after them still match and deliver (IMB's 0-byte rows: docs/external-tests.md). */
#include "mpitest.h"
#include "mt_mpit.h"

#include <string.h>

static MPI_T_pvar_session session;
static MPI_T_pvar_handle counters[7];
static const char *names[7] = {"nodempi_p2p_sent_eager",        "nodempi_p2p_sent_fastbox",
                               "nodempi_p2p_sent_fastbox_packed", "nodempi_p2p_sent_eager_long",
                               "nodempi_p2p_sent_single_copy",  "nodempi_p2p_sent_rendezvous",
                               "nodempi_p2p_sent_self"};

static unsigned long long sent(void)
{
    unsigned long long n = 0;
    for (int i = 0; i < 7; i++)
        n += mt_pvar_read(session, counters[i]);
    return n;
}

/* Runs one zero-data collective and checks that this rank sent nothing and buf kept 0x5a. */
#define NO_DATA(what, call)                                                                    \
    do {                                                                                       \
        memset(buf, 0x5a, sizeof buf);                                                         \
        memset(out, 0x5a, sizeof out);                                                         \
        unsigned long long before = sent();                                                    \
        MT_MPI(call);                                                                          \
        MT_CHECK(sent() == before, "%s sent %llu messages", what, sent() - before);           \
        MT_CHECK(buf[0] == 0x5a && out[0] == 0x5a, "%s wrote a buffer", what);                 \
    } while (0)

int main(int argc, char **argv)
{
    mt_init_with_mpit(&argc, &argv);
    session = mt_pvar_session_create();
    for (int i = 0; i < 7; i++)
        counters[i] = mt_pvar_counter(session, names[i]);
    unsigned char buf[64], out[64];
    MPI_Comm w = MPI_COMM_WORLD;
    int root = mt_size - 1;
    MPI_Datatype empty;
    MT_MPI(MPI_Type_contiguous(0, MPI_INT, &empty));
    MT_MPI(MPI_Type_commit(&empty));

    NO_DATA("MPI_Bcast", MPI_Bcast(buf, 0, MPI_INT, root, w));
    NO_DATA("MPI_Bcast of a 0-size type", MPI_Bcast(buf, 4, empty, 0, w));
    NO_DATA("MPI_Reduce", MPI_Reduce(buf, out, 0, MPI_INT, MPI_SUM, root, w));
    NO_DATA("MPI_Allreduce", MPI_Allreduce(buf, out, 0, MPI_FLOAT, MPI_SUM, w));
    NO_DATA("MPI_Allreduce in place", MPI_Allreduce(MPI_IN_PLACE, out, 0, MPI_INT, MPI_MAX, w));
    NO_DATA("MPI_Scan", MPI_Scan(buf, out, 0, MPI_INT, MPI_SUM, w));
    NO_DATA("MPI_Exscan", MPI_Exscan(buf, out, 0, MPI_INT, MPI_SUM, w));
    NO_DATA("MPI_Gather", MPI_Gather(buf, 0, MPI_BYTE, out, 0, MPI_BYTE, root, w));
    NO_DATA("MPI_Gather in place",
            MPI_Gather(mt_rank == 0 ? MPI_IN_PLACE : buf, 0, MPI_BYTE, out, 0, MPI_BYTE, 0, w));
    NO_DATA("MPI_Scatter", MPI_Scatter(buf, 0, MPI_BYTE, out, 0, MPI_BYTE, 0, w));
    /* the leaves' recvcount is 0, the root's sendcount of the same signature */
    NO_DATA("MPI_Scatter of a 0-size type",
            MPI_Scatter(buf, 3, empty, out, 0, MPI_INT, root, w));
    NO_DATA("MPI_Allgather", MPI_Allgather(buf, 0, MPI_BYTE, out, 0, MPI_BYTE, w));
    NO_DATA("MPI_Allgather in place",
            MPI_Allgather(MPI_IN_PLACE, 0, MPI_BYTE, out, 0, MPI_BYTE, w));
    NO_DATA("MPI_Alltoall", MPI_Alltoall(buf, 0, MPI_INT, out, 0, MPI_INT, w));

    /* The collectives after them still match and carry data. */
    int v = mt_rank == root ? 1234 : -1, sum = 0;
    MT_MPI(MPI_Bcast(&v, 1, MPI_INT, root, w));
    MT_CHECK_INT(1234, v, "MPI_Bcast after the empty ones");
    MT_MPI(MPI_Allreduce(&mt_rank, &sum, 1, MPI_INT, MPI_SUM, w));
    MT_CHECK_INT((long long)mt_size * (mt_size - 1) / 2, sum, "MPI_Allreduce after them");
    int mine = mt_rank + 1, all[64];
    MT_MPI(MPI_Allgather(&mine, 1, MPI_INT, all, 1, MPI_INT, w));
    for (int r = 0; r < mt_size && r < 64; r++)
        MT_CHECK_INT(r + 1, all[r], "MPI_Allgather after them");

    MT_MPI(MPI_Type_free(&empty));
    return mt_finish_with_mpit(&session);
}
