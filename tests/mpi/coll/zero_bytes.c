/* zero_bytes: a blocking collective that moves no data returns without sending (src/coll/coll.c,
 * moves_no_data): 0-count MPI_Bcast, MPI_Reduce, MPI_Allreduce, MPI_Scan, MPI_Exscan, MPI_Gather,
 * MPI_Scatter, MPI_Allgather and MPI_Alltoall - also with MPI_IN_PLACE, a zero-size datatype,
 * and a leaf whose send side is 0 while the root names a nonempty buffer it never reads - and
 * the v forms with every count 0 send no message (the MPI_T send counters stay put), leave the
 * buffers alone, and the collectives after them still match and deliver (IMB's 0-byte rows:
 * docs/external-tests.md). The v forms with some parts empty skip those parts and deliver the
 * rest. */
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

    /* The v forms whose every part is empty. */
    int zeros[64] = {0}, displs[64] = {0};
    MPI_Datatype types[64];
    for (int r = 0; r < 64; r++)
        types[r] = MPI_INT;
    NO_DATA("MPI_Gatherv", MPI_Gatherv(buf, 0, MPI_INT, out, zeros, displs, MPI_INT, root, w));
    NO_DATA("MPI_Scatterv", MPI_Scatterv(buf, zeros, displs, MPI_INT, out, 0, MPI_INT, 0, w));
    NO_DATA("MPI_Allgatherv", MPI_Allgatherv(buf, 0, MPI_INT, out, zeros, displs, MPI_INT, w));
    NO_DATA("MPI_Alltoallv",
            MPI_Alltoallv(buf, zeros, displs, MPI_INT, out, zeros, displs, MPI_INT, w));
    NO_DATA("MPI_Alltoallw",
            MPI_Alltoallw(buf, zeros, displs, types, out, zeros, displs, types, w));
    NO_DATA("MPI_Reduce_scatter",
            MPI_Reduce_scatter(buf, out, zeros, MPI_INT, MPI_SUM, w));
    NO_DATA("MPI_Reduce_scatter_block",
            MPI_Reduce_scatter_block(buf, out, 0, MPI_INT, MPI_SUM, w));

    /* Some parts empty, some not: rank r contributes r % 2 ints. The ranks with an empty part
     * send nothing, the others still deliver (src/coll/gather.c, alltoall.c, pair.c). */
    int counts[64], offsets[64], total = 0, mine_n = mt_rank % 2, vals[64], got[64];
    for (int r = 0; r < mt_size && r < 64; r++) {
        counts[r] = r % 2;
        offsets[r] = total;
        total += counts[r];
    }
    for (int i = 0; i < 64; i++)
        got[i] = -1;
    vals[0] = 100 + mt_rank;
    unsigned long long before = sent();
    MT_MPI(MPI_Gatherv(vals, mine_n, MPI_INT, got, counts, offsets, MPI_INT, root, w));
    if (mt_rank != root && !mine_n)
        MT_CHECK(sent() == before, "MPI_Gatherv: an empty leaf sent %llu messages",
                 sent() - before);
    if (mt_rank == root)
        for (int r = 1; r < mt_size; r += 2)
            MT_CHECK(got[offsets[r]] == 100 + r, "MPI_Gatherv with empty parts: rank %d's int is "
                     "%d", r, got[offsets[r]]);
    for (int i = 0; i < total; i++)
        vals[i] = 200 + i;
    got[0] = -1;
    MT_MPI(MPI_Scatterv(vals, counts, offsets, MPI_INT, got, mine_n, MPI_INT, root, w));
    if (mine_n)
        MT_CHECK_INT(200 + offsets[mt_rank], got[0], "MPI_Scatterv with empty parts");
    /* alltoallv: rank i sends (i + j) % 2 ints to rank j */
    int scounts[64], sdispls[64], rcounts[64], rdispls[64];
    for (int j = 0; j < mt_size && j < 64; j++) {
        scounts[j] = rcounts[j] = (mt_rank + j) % 2;
        sdispls[j] = rdispls[j] = j;
        vals[j] = 1000 * mt_rank + j;
        got[j] = -1;
    }
    MT_MPI(MPI_Alltoallv(vals, scounts, sdispls, MPI_INT, got, rcounts, rdispls, MPI_INT, w));
    for (int j = 0; j < mt_size && j < 64; j++)
        MT_CHECK(got[j] == (rcounts[j] ? 1000 * j + mt_rank : -1),
                 "MPI_Alltoallv with empty parts: from %d got %d", j, got[j]);

    /* Every rank's part nonempty again: the ranks that returned early drew the same tags as
     * the others (a Gatherv, Scatterv, Alltoallv after the ones above must match them). */
    for (int r = 0; r < mt_size && r < 64; r++) {
        counts[r] = 1;
        offsets[r] = r;
        got[r] = -1;
    }
    vals[0] = 300 + mt_rank;
    MT_MPI(MPI_Gatherv(vals, 1, MPI_INT, got, counts, offsets, MPI_INT, root, w));
    if (mt_rank == root)
        for (int r = 0; r < mt_size && r < 64; r++)
            MT_CHECK(got[r] == 300 + r, "MPI_Gatherv after empty parts: rank %d's int is %d", r,
                     got[r]);
    for (int r = 0; r < mt_size && r < 64; r++)
        vals[r] = 400 + r;
    got[0] = -1;
    MT_MPI(MPI_Scatterv(vals, counts, offsets, MPI_INT, got, 1, MPI_INT, root, w));
    MT_CHECK_INT(400 + mt_rank, got[0], "MPI_Scatterv after empty parts");
    for (int j = 0; j < mt_size && j < 64; j++) {
        vals[j] = 2000 * mt_rank + j;
        got[j] = -1;
    }
    MT_MPI(MPI_Alltoallv(vals, counts, offsets, MPI_INT, got, counts, offsets, MPI_INT, w));
    for (int j = 0; j < mt_size && j < 64; j++)
        MT_CHECK(got[j] == 2000 * j + mt_rank, "MPI_Alltoallv after empty parts: from %d got %d",
                 j, got[j]);

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
