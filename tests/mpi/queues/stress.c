/* stress.c - every queue design (run under NODEMPI_QUEUE=pair|orq|cor|hybrid by the testlist)
 * under random traffic: each rank sends messages of random sizes across every protocol switch
 * point (fastbox cell, inline, eager limit, single-copy threshold, pipeline fragments, up to 256 KiB) to
 * random peers with random tags, all at once (Isend/Issend); receivers take them with a random
 * mix of exact, MPI_ANY_SOURCE and MPI_ANY_TAG receives, probes and Irecv+Wait. Every rank can
 * regenerate every rank's schedule, so each receive is checked exactly: the message received
 * from source s must be the oldest one s sent us that the receive accepts (the non-overtaking
 * rule), with intact contents. Arguments: [rounds] [messages per rank per round]. */
#include "mpitest.h"

static const size_t sizes[] = {0,     1,     8,     31,    32,    33,    64,    65,
                               100,   1000,  1023,  1024,  4095,  4096,  4097,  8191,
                               8192,  8193,  16383, 16384, 16385, 32768, 65536, 65537,
                               100000};
#define NSIZES (int)(sizeof(sizes) / sizeof(sizes[0]))
#define NTAGS 4
#define BIG (256 * 1024 + 7)

static uint64_t rng_next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

struct msg {
    int dest;
    int tag;
    size_t size;
    int seq;      /* index in the sender's schedule */
    int received; /* receiver side: already taken */
};

/* Rank r's schedule for one round; the same on every rank. */
static void schedule(int r, int round, int n, int size, struct msg *out)
{
    uint64_t s = 0x9e3779b97f4a7c15ull ^ ((uint64_t)(r + 1) << 20) ^ (uint64_t)(round + 1);
    for (int k = 0; k < 8; k++)
        rng_next(&s);
    for (int m = 0; m < n; m++) {
        uint64_t x = rng_next(&s);
        int dest = (int)(x % (uint64_t)(size - 1));
        out[m].dest = dest >= r ? dest + 1 : dest;
        out[m].tag = (int)((x >> 16) % NTAGS);
        uint64_t pick = (x >> 24) % 100;
        if (pick < 60)
            out[m].size = sizes[(x >> 32) % 10];          /* small: 0 .. 1023 */
        else if (pick < 97)
            out[m].size = sizes[(x >> 32) % NSIZES];      /* anything in the table */
        else
            out[m].size = BIG;
        out[m].seq = m;
        out[m].received = 0;
    }
}

static unsigned char byte_of(int src, int round, int seq, size_t k)
{
    return (unsigned char)(src * 131 + round * 17 + seq * 7 + (int)k * 13 + 1);
}

static void fill(unsigned char *buf, int src, int round, int seq, size_t size)
{
    for (size_t k = 0; k < size; k++)
        buf[k] = byte_of(src, round, seq, k);
}

/* The oldest message src sent to me that a receive for tag accepts (MPI_ANY_TAG: any). */
static struct msg *oldest(struct msg *sent, int n, int me, int tag)
{
    for (int m = 0; m < n; m++)
        if (sent[m].dest == me && !sent[m].received && (tag == MPI_ANY_TAG || sent[m].tag == tag))
            return &sent[m];
    return NULL;
}

static void check_received(struct msg **all, int n, int round, int source, int tag,
                           const MPI_Status *st, const unsigned char *buf)
{
    int src = st->MPI_SOURCE;
    if (src < 0 || src >= mt_size || src == mt_rank) {
        MT_CHECK(0, "round %d: status source %d", round, src);
        return;
    }
    if (source != MPI_ANY_SOURCE && src != source)
        MT_CHECK(0, "round %d: asked for source %d, got %d", round, source, src);
    struct msg *want = oldest(all[src], n, mt_rank, tag);
    if (!want) {
        MT_CHECK(0, "round %d: message from %d tag %d that was never sent", round, src,
                 st->MPI_TAG);
        return;
    }
    want->received = 1;
    int count = -1;
    MPI_Get_count(st, MPI_BYTE, &count);
    if (st->MPI_TAG != want->tag || (size_t)count != want->size) {
        MT_CHECK(0, "round %d: from %d expected seq %d (tag %d, %zu bytes), got tag %d, %d bytes"
                 " (overtaken or lost)", round, src, want->seq, want->tag, want->size,
                 st->MPI_TAG, count);
        return;
    }
    for (size_t k = 0; k < want->size; k++)
        if (buf[k] != byte_of(src, round, want->seq, k)) {
            MT_CHECK(0, "round %d: from %d seq %d: byte %zu is %d, expected %d", round, src,
                     want->seq, k, buf[k], byte_of(src, round, want->seq, k));
            return;
        }
}

/* Pick a receive that some remaining message satisfies: (source, tag) with wildcards. */
static void pick_receive(struct msg **all, int n, uint64_t *s, int *source, int *tag)
{
    for (;;) {
        int src = (int)(rng_next(s) % (uint64_t)mt_size);
        if (src == mt_rank)
            continue;
        struct msg *m = oldest(all[src], n, mt_rank, MPI_ANY_TAG);
        if (!m)
            continue;
        /* a tag src still owes us: any remaining one, not only the oldest's */
        int t = m->tag;
        for (int k = 0; k < 3; k++) {
            struct msg *other = oldest(all[src], n, mt_rank, (int)(rng_next(s) % NTAGS));
            if (other)
                t = other->tag;
        }
        switch (rng_next(s) % 4) {
        case 0: *source = src; *tag = t; break;
        case 1: *source = src; *tag = MPI_ANY_TAG; break;
        case 2: *source = MPI_ANY_SOURCE; *tag = t; break;
        default: *source = MPI_ANY_SOURCE; *tag = MPI_ANY_TAG; break;
        }
        return;
    }
}

static void receive_one(struct msg **all, int n, int round, uint64_t *s, unsigned char *buf)
{
    int source, tag;
    pick_receive(all, n, s, &source, &tag);
    MPI_Status st;
    switch (rng_next(s) % 4) {
    case 0: { /* probe first, then receive exactly what was probed */
        MPI_Probe(source, tag, MPI_COMM_WORLD, &st);
        MPI_Recv(buf, BIG, MPI_BYTE, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD, &st);
        break;
    }
    case 1: {
        int flag = 0;
        while (!flag)
            MPI_Iprobe(source, tag, MPI_COMM_WORLD, &flag, &st);
        MPI_Recv(buf, BIG, MPI_BYTE, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD, &st);
        break;
    }
    case 2: {
        MPI_Request req;
        MPI_Irecv(buf, BIG, MPI_BYTE, source, tag, MPI_COMM_WORLD, &req);
        MPI_Wait(&req, &st);
        break;
    }
    default:
        MPI_Recv(buf, BIG, MPI_BYTE, source, tag, MPI_COMM_WORLD, &st);
        break;
    }
    check_received(all, n, round, source, tag, &st, buf);
}

static void run_round(int round, int n, struct msg **all, unsigned char **sendbufs,
                      unsigned char *recvbuf)
{
    for (int r = 0; r < mt_size; r++)
        schedule(r, round, n, mt_size, all[r]);
    struct msg *mine = all[mt_rank];
    MPI_Request *reqs = mt_malloc(sizeof(MPI_Request) * (size_t)n);
    uint64_t s = 12345 + (uint64_t)mt_rank * 777 + (uint64_t)round;
    for (int m = 0; m < n; m++) {
        fill(sendbufs[m], mt_rank, round, m, mine[m].size);
        if (rng_next(&s) % 5 == 0)
            MPI_Issend(sendbufs[m], (int)mine[m].size, MPI_BYTE, mine[m].dest, mine[m].tag,
                       MPI_COMM_WORLD, &reqs[m]);
        else
            MPI_Isend(sendbufs[m], (int)mine[m].size, MPI_BYTE, mine[m].dest, mine[m].tag,
                      MPI_COMM_WORLD, &reqs[m]);
    }
    int expected = 0;
    for (int r = 0; r < mt_size; r++)
        for (int m = 0; m < n; m++)
            expected += r != mt_rank && all[r][m].dest == mt_rank;
    for (int k = 0; k < expected; k++)
        receive_one(all, n, round, &s, recvbuf);
    MPI_Waitall(n, reqs, MPI_STATUSES_IGNORE);
    free(reqs);
    MPI_Barrier(MPI_COMM_WORLD); /* the next round's messages must not meet this one's receives */
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    mt_require_ranks(2);
    int rounds = argc > 1 ? atoi(argv[1]) : 3;
    int n = argc > 2 ? atoi(argv[2]) : 24;
    struct msg **all = mt_malloc(sizeof(*all) * (size_t)mt_size);
    for (int r = 0; r < mt_size; r++)
        all[r] = mt_malloc(sizeof(struct msg) * (size_t)n);
    unsigned char **sendbufs = mt_malloc(sizeof(*sendbufs) * (size_t)n);
    for (int m = 0; m < n; m++)
        sendbufs[m] = mt_malloc(BIG);
    unsigned char *recvbuf = mt_malloc(BIG);
    for (int round = 0; round < rounds; round++)
        run_round(round, n, all, sendbufs, recvbuf);
    for (int m = 0; m < n; m++)
        free(sendbufs[m]);
    free(sendbufs);
    free(recvbuf);
    for (int r = 0; r < mt_size; r++)
        free(all[r]);
    free(all);
    return mt_finish();
}
