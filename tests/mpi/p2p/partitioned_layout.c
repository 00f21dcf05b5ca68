/* partitioned_layout: MPI_Psend_init / MPI_Precv_init around a ring with sender and receiver
 * partition counts that differ (also where partition boundaries do not line up, and with a
 * strided receive type), partitions marked ready out of order with MPI_Pready,
 * MPI_Pready_range and MPI_Pready_list, the receiver polling MPI_Parrived and checking each
 * partition's data as soon as it is flagged, several rounds through MPI_Start with new data
 * each round, small and large partitions. */
#include "../common/mpitest.h"

#define ROUNDS 4

struct layout {
    int send_parts, send_count; /* ints per send partition */
    int recv_parts, recv_count; /* receive elements per receive partition */
    int recv_kind;              /* 0: MPI_INT, 1: 5 contiguous ints, 2: vector of 5 strided ints */
};

static const struct layout layouts[] = {
    {8, 4, 4, 8, 0},        {4, 8, 8, 4, 0},    {1, 24, 24, 1, 0},   {24, 1, 1, 24, 0},
    {5, 3, 3, 5, 0},        {3, 5, 5, 3, 0},    {5, 3, 3, 1, 1},     {5, 3, 3, 1, 2},
    {4, 65536, 2, 131072, 0}, {3, 40000, 8, 15000, 0}, {7, 0, 3, 0, 0},
};
#define NLAYOUTS (int)(sizeof(layouts) / sizeof(layouts[0]))

static int value(int round, int sender, int i)
{
    return round * 1000003 + sender * 100019 + i;
}

/* Where int i of the message lives in the receive buffer (in ints). */
static size_t recv_slot(const struct layout *l, size_t i)
{
    if (l->recv_kind == 2)
        return (i / 5) * 9 + (i % 5) * 2;
    return i;
}

static size_t ints_per_recv_element(const struct layout *l)
{
    return l->recv_kind ? 5 : 1;
}

/* The order partitions are marked ready in: mode 0 reverse singles, 1 ranges of two from the
 * top, 2 a shuffled list, 3 ascending singles. */
static void mark_ready(MPI_Request req, int parts, int mode, int round)
{
    if (mode == 0) {
        for (int p = parts - 1; p >= 0; p--)
            MT_MPI(MPI_Pready(p, req));
    } else if (mode == 1) {
        for (int hi = parts - 1; hi >= 0; hi -= 2)
            MT_MPI(MPI_Pready_range(hi > 0 ? hi - 1 : 0, hi, req));
    } else if (mode == 2) {
        int list[64];
        for (int p = 0; p < parts; p++)
            list[p] = p;
        for (int p = parts - 1; p > 0; p--) { /* deterministic shuffle */
            int j = (int)((p * 7919u + (unsigned)round * 31u) % (unsigned)(p + 1));
            int t = list[p];
            list[p] = list[j];
            list[j] = t;
        }
        MT_MPI(MPI_Pready_list(parts, list, req));
    } else {
        for (int p = 0; p < parts; p++)
            MT_MPI(MPI_Pready(p, req));
    }
}

static void check_partition(const struct layout *l, const int *rbuf, int part, int round,
                            int sender, const char *what)
{
    size_t per = (size_t)l->recv_count * ints_per_recv_element(l);
    size_t bad = 0;
    for (size_t i = (size_t)part * per; i < (size_t)(part + 1) * per; i++)
        if (rbuf[recv_slot(l, i)] != value(round, sender, (int)i) && bad++ < 3)
            MT_CHECK_INT(value(round, sender, (int)i), rbuf[recv_slot(l, i)], what);
}

static void run_layout(int li)
{
    const struct layout *l = &layouts[li];
    int right = mt_right(), left = mt_left(), tag = 100 + li;
    size_t total = (size_t)l->send_parts * l->send_count;
    MT_ASSERT(total == (size_t)l->recv_parts * l->recv_count * ints_per_recv_element(l),
              "layout %d sizes differ", li);
    MPI_Datatype rtype = MPI_INT;
    if (l->recv_kind == 1)
        MPI_Type_contiguous(5, MPI_INT, &rtype);
    else if (l->recv_kind == 2)
        MPI_Type_vector(5, 1, 2, MPI_INT, &rtype);
    if (l->recv_kind)
        MPI_Type_commit(&rtype);
    size_t rints = l->recv_kind == 2 ? (size_t)l->recv_parts * l->recv_count * 9 : total;
    int *sbuf = mt_malloc(sizeof(int) * (total + 1));
    int *rbuf = mt_malloc(sizeof(int) * (rints + 1));
    MPI_Request sreq, rreq;
    MT_MPI(MPI_Precv_init(rbuf, l->recv_parts, l->recv_count, rtype, left, tag, MPI_COMM_WORLD,
                          MPI_INFO_NULL, &rreq));
    MT_MPI(MPI_Psend_init(sbuf, l->send_parts, l->send_count, MPI_INT, right, tag,
                          MPI_COMM_WORLD, MPI_INFO_NULL, &sreq));
    char what[160];
    for (int round = 0; round < ROUNDS; round++) {
        for (size_t i = 0; i < total; i++)
            sbuf[i] = value(round, mt_rank, (int)i);
        for (size_t i = 0; i < rints; i++)
            rbuf[i] = -1;
        MT_MPI(MPI_Start(&rreq));
        MT_MPI(MPI_Start(&sreq));
        mark_ready(sreq, l->send_parts, (round + li) % 4, round);
        /* poll every partition; check each one's data the moment it is flagged */
        int *seen = calloc((size_t)l->recv_parts, sizeof(int));
        int pending = l->recv_parts;
        long polls = 0;
        while (pending > 0) {
            for (int p = 0; p < l->recv_parts; p++) {
                if (seen[p])
                    continue;
                int flag = 0;
                MT_MPI(MPI_Parrived(rreq, p, &flag));
                if (flag) {
                    snprintf(what, sizeof what, "layout %d round %d partition %d", li, round, p);
                    check_partition(l, rbuf, p, round, left, what);
                    seen[p] = 1;
                    pending--;
                }
            }
            MT_ASSERT(++polls < 100000000L, "layout %d: partitions never arrived", li);
        }
        free(seen);
        MPI_Status st;
        MT_MPI(MPI_Wait(&rreq, &st));
        snprintf(what, sizeof what, "layout %d round %d receive status", li, round);
        MT_CHECK_STATUS(&st, left, tag, MPI_INT, (int)total, what);
        MT_MPI(MPI_Wait(&sreq, MPI_STATUS_IGNORE));
        for (int p = 0; p < l->recv_parts; p++) {
            snprintf(what, sizeof what, "layout %d round %d after wait partition %d", li, round,
                     p);
            check_partition(l, rbuf, p, round, left, what);
        }
    }
    MT_MPI(MPI_Request_free(&rreq));
    MT_MPI(MPI_Request_free(&sreq));
    MT_CHECK(rreq == MPI_REQUEST_NULL && sreq == MPI_REQUEST_NULL, "requests not nulled");
    if (l->recv_kind)
        MPI_Type_free(&rtype);
    free(sbuf);
    free(rbuf);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    for (int li = 0; li < NLAYOUTS; li++)
        run_layout(li);
    return mt_finish();
}
