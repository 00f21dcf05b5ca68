/* nonblocking.c - the nonblocking (MPI_I...) and persistent (..._init + MPI_Start) forms of
 * every collective, each checked against a local reference; several nonblocking collectives
 * in flight at once on the same communicator, completed in a different order than started;
 * progress while a rank computes (completion driven by MPI_Test only); persistent requests
 * restarted with new input, started together with MPI_Startall, and freed. */
#include "mpitest.h"

enum form { NONBLOCKING, PERSISTENT };

#define N 5 /* elements per block */

static int val(int from, int to, int j, int round)
{
    return from * 10000 + (to + 1) * 100 + j + round * 1000000;
}

/* Complete a request of either form; persistent ones are started `rounds` times, refilling
 * the input through `refill` before each start after the first. */
typedef void refill_fn(int round);
typedef void verify_fn(int round, const char *what);

static void drive(enum form form, MPI_Request req, refill_fn *refill, verify_fn *verify,
                  const char *what)
{
    if (form == NONBLOCKING) {
        MT_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
        MT_CHECK(req == MPI_REQUEST_NULL, "%s: Wait did not free the request", what);
        verify(0, what);
        return;
    }
    for (int round = 0; round < 3; round++) {
        if (round > 0)
            refill(round);
        MT_MPI(MPI_Start(&req));
        if (round == 1) { /* complete through Test only */
            int flag = 0;
            while (!flag)
                MT_MPI(MPI_Test(&req, &flag, MPI_STATUS_IGNORE));
        } else {
            MT_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
        }
        MT_CHECK(req != MPI_REQUEST_NULL, "%s: persistent request freed by completion", what);
        verify(round, what);
    }
    MT_MPI(MPI_Request_free(&req));
}

static int sbuf[N * 64], rbuf[N * 64], scounts[64], sdispls[64], rcounts[64], rdispls[64];
static MPI_Datatype stypes[64], rtypes[64];
static int root;

static void clear(void)
{
    for (int i = 0; i < N * 64; i++)
        rbuf[i] = -1;
}

/* ---- bcast ---- */
static void bcast_refill(int round)
{
    clear();
    if (mt_rank == root)
        for (int j = 0; j < N; j++)
            rbuf[j] = val(root, -1, j, round);
}
static void bcast_verify(int round, const char *what)
{
    for (int j = 0; j < N; j++)
        MT_CHECK(rbuf[j] == val(root, -1, j, round), "%s round %d [%d] = %d", what, round, j,
                 rbuf[j]);
}

/* ---- reductions: element j of rank r is val(r, -1, j, round); SUM ---- */
static void red_refill(int round)
{
    clear();
    for (int j = 0; j < N * mt_size; j++)
        sbuf[j] = val(mt_rank, -1, j, round);
}
static int sum_upto(int ranks, int j, int round)
{
    int s = 0;
    for (int r = 0; r < ranks; r++)
        s += val(r, -1, j, round);
    return s;
}
static void reduce_verify(int round, const char *what)
{
    if (mt_rank == root)
        for (int j = 0; j < N; j++)
            MT_CHECK(rbuf[j] == sum_upto(mt_size, j, round), "%s round %d [%d]", what, round, j);
}
static void allreduce_verify(int round, const char *what)
{
    for (int j = 0; j < N; j++)
        MT_CHECK(rbuf[j] == sum_upto(mt_size, j, round), "%s round %d [%d]", what, round, j);
}
static void scan_verify(int round, const char *what)
{
    for (int j = 0; j < N; j++)
        MT_CHECK(rbuf[j] == sum_upto(mt_rank + 1, j, round), "%s round %d [%d]", what, round, j);
}
static void exscan_verify(int round, const char *what)
{
    for (int j = 0; j < N && mt_rank > 0; j++)
        MT_CHECK(rbuf[j] == sum_upto(mt_rank, j, round), "%s round %d [%d]", what, round, j);
}
static void rsb_verify(int round, const char *what)
{
    for (int j = 0; j < N; j++)
        MT_CHECK(rbuf[j] == sum_upto(mt_size, mt_rank * N + j, round), "%s round %d [%d]", what,
                 round, j);
}

/* ---- data movement: element j of the block from r to d is val(r, d, j, round) ---- */
static void move_refill(int round)
{
    clear();
    for (int d = 0; d < mt_size; d++)
        for (int j = 0; j < N; j++)
            sbuf[d * N + j] = val(mt_rank, d, j, round);
}
static void gather_verify(int round, const char *what) /* sent: block for root */
{
    if (mt_rank == root)
        for (int r = 0; r < mt_size; r++)
            for (int j = 0; j < N; j++)
                MT_CHECK(rbuf[r * N + j] == val(r, root, j, round), "%s round %d", what, round);
}
static void scatter_verify(int round, const char *what)
{
    for (int j = 0; j < N; j++)
        MT_CHECK(rbuf[j] == val(root, mt_rank, j, round), "%s round %d [%d] = %d", what, round, j,
                 rbuf[j]);
}
static void allgather_verify(int round, const char *what) /* each sends its block for rank 0 */
{
    for (int r = 0; r < mt_size; r++)
        for (int j = 0; j < N; j++)
            MT_CHECK(rbuf[r * N + j] == val(r, 0, j, round), "%s round %d", what, round);
}
static void alltoall_verify(int round, const char *what)
{
    for (int r = 0; r < mt_size; r++)
        for (int j = 0; j < N; j++)
            MT_CHECK(rbuf[r * N + j] == val(r, mt_rank, j, round), "%s round %d", what, round);
}
static void barrier_refill(int round)
{
    (void)round;
}
static void barrier_verify(int round, const char *what)
{
    (void)round;
    (void)what;
}

static void all_forms(enum form f)
{
    MPI_Request req;
    MPI_Info info = MPI_INFO_NULL;
    (void)info;
    const char *tag = f == NONBLOCKING ? "I" : "init";
    char what[64];
    for (int r = 0; r < mt_size; r++) {
        scounts[r] = rcounts[r] = N;
        sdispls[r] = rdispls[r] = r * N;
        stypes[r] = rtypes[r] = MPI_INT;
    }
    root = mt_size - 1;

/* Persistent collectives are MPI-4: an MPI-3 library runs the nonblocking half only. */
#if MPI_VERSION >= 4
#define INIT_CALL(call) call
#else
#define INIT_CALL(call) MPI_ERR_OTHER
#endif
#define RUN(name, refill, verify, call_nb, call_init)                                          \
    do {                                                                                       \
        snprintf(what, sizeof what, "%s %s", name, tag);                                       \
        refill(0);                                                                             \
        if (f == NONBLOCKING)                                                                  \
            MT_MPI(call_nb);                                                                   \
        else                                                                                   \
            MT_MPI(INIT_CALL(call_init));                                                      \
        drive(f, req, refill, verify, what);                                                   \
    } while (0)

    RUN("barrier", barrier_refill, barrier_verify, MPI_Ibarrier(MPI_COMM_WORLD, &req),
        MPI_Barrier_init(MPI_COMM_WORLD, info, &req));
    RUN("bcast", bcast_refill, bcast_verify,
        MPI_Ibcast(rbuf, N, MPI_INT, root, MPI_COMM_WORLD, &req),
        MPI_Bcast_init(rbuf, N, MPI_INT, root, MPI_COMM_WORLD, info, &req));
    RUN("reduce", red_refill, reduce_verify,
        MPI_Ireduce(sbuf, rbuf, N, MPI_INT, MPI_SUM, root, MPI_COMM_WORLD, &req),
        MPI_Reduce_init(sbuf, rbuf, N, MPI_INT, MPI_SUM, root, MPI_COMM_WORLD, info, &req));
    RUN("allreduce", red_refill, allreduce_verify,
        MPI_Iallreduce(sbuf, rbuf, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req),
        MPI_Allreduce_init(sbuf, rbuf, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD, info, &req));
    RUN("scan", red_refill, scan_verify,
        MPI_Iscan(sbuf, rbuf, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req),
        MPI_Scan_init(sbuf, rbuf, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD, info, &req));
    RUN("exscan", red_refill, exscan_verify,
        MPI_Iexscan(sbuf, rbuf, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req),
        MPI_Exscan_init(sbuf, rbuf, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD, info, &req));
    RUN("reduce_scatter_block", red_refill, rsb_verify,
        MPI_Ireduce_scatter_block(sbuf, rbuf, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req),
        MPI_Reduce_scatter_block_init(sbuf, rbuf, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD, info,
                                      &req));
    RUN("reduce_scatter", red_refill, rsb_verify,
        MPI_Ireduce_scatter(sbuf, rbuf, rcounts, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req),
        MPI_Reduce_scatter_init(sbuf, rbuf, rcounts, MPI_INT, MPI_SUM, MPI_COMM_WORLD, info,
                                &req));
    RUN("gather", move_refill, gather_verify,
        MPI_Igather(sbuf + root * N, N, MPI_INT, rbuf, N, MPI_INT, root, MPI_COMM_WORLD, &req),
        MPI_Gather_init(sbuf + root * N, N, MPI_INT, rbuf, N, MPI_INT, root, MPI_COMM_WORLD,
                        info, &req));
    RUN("gatherv", move_refill, gather_verify,
        MPI_Igatherv(sbuf + root * N, N, MPI_INT, rbuf, rcounts, rdispls, MPI_INT, root,
                     MPI_COMM_WORLD, &req),
        MPI_Gatherv_init(sbuf + root * N, N, MPI_INT, rbuf, rcounts, rdispls, MPI_INT, root,
                         MPI_COMM_WORLD, info, &req));
    RUN("scatter", move_refill, scatter_verify,
        MPI_Iscatter(sbuf, N, MPI_INT, rbuf, N, MPI_INT, root, MPI_COMM_WORLD, &req),
        MPI_Scatter_init(sbuf, N, MPI_INT, rbuf, N, MPI_INT, root, MPI_COMM_WORLD, info, &req));
    RUN("scatterv", move_refill, scatter_verify,
        MPI_Iscatterv(sbuf, scounts, sdispls, MPI_INT, rbuf, N, MPI_INT, root, MPI_COMM_WORLD,
                      &req),
        MPI_Scatterv_init(sbuf, scounts, sdispls, MPI_INT, rbuf, N, MPI_INT, root,
                          MPI_COMM_WORLD, info, &req));
    RUN("allgather", move_refill, allgather_verify,
        MPI_Iallgather(sbuf, N, MPI_INT, rbuf, N, MPI_INT, MPI_COMM_WORLD, &req),
        MPI_Allgather_init(sbuf, N, MPI_INT, rbuf, N, MPI_INT, MPI_COMM_WORLD, info, &req));
    RUN("allgatherv", move_refill, allgather_verify,
        MPI_Iallgatherv(sbuf, N, MPI_INT, rbuf, rcounts, rdispls, MPI_INT, MPI_COMM_WORLD, &req),
        MPI_Allgatherv_init(sbuf, N, MPI_INT, rbuf, rcounts, rdispls, MPI_INT, MPI_COMM_WORLD,
                            info, &req));
    RUN("alltoall", move_refill, alltoall_verify,
        MPI_Ialltoall(sbuf, N, MPI_INT, rbuf, N, MPI_INT, MPI_COMM_WORLD, &req),
        MPI_Alltoall_init(sbuf, N, MPI_INT, rbuf, N, MPI_INT, MPI_COMM_WORLD, info, &req));
    RUN("alltoallv", move_refill, alltoall_verify,
        MPI_Ialltoallv(sbuf, scounts, sdispls, MPI_INT, rbuf, rcounts, rdispls, MPI_INT,
                       MPI_COMM_WORLD, &req),
        MPI_Alltoallv_init(sbuf, scounts, sdispls, MPI_INT, rbuf, rcounts, rdispls, MPI_INT,
                           MPI_COMM_WORLD, info, &req));
    for (int r = 0; r < mt_size; r++)
        sdispls[r] = rdispls[r] = r * N * (int)sizeof(int);
    RUN("alltoallw", move_refill, alltoall_verify,
        MPI_Ialltoallw(sbuf, scounts, sdispls, stypes, rbuf, rcounts, rdispls, rtypes,
                       MPI_COMM_WORLD, &req),
        MPI_Alltoallw_init(sbuf, scounts, sdispls, stypes, rbuf, rcounts, rdispls, rtypes,
                           MPI_COMM_WORLD, info, &req));
#undef RUN
}

/* Several collectives in flight at once, completed in reverse order; rank 0 starts late. */
static void concurrent(void)
{
    int a = mt_rank, b = -1, c[64], d[64], e = -1;
    MPI_Request reqs[4];
    if (mt_rank == 0)
        mt_sleep(0.02);
    for (int r = 0; r < mt_size; r++)
        c[r] = mt_rank * 100 + r;
    if (mt_rank == 0)
        e = 4242;
    MT_MPI(MPI_Iallreduce(&a, &b, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD, &reqs[0]));
    MT_MPI(MPI_Ialltoall(c, 1, MPI_INT, d, 1, MPI_INT, MPI_COMM_WORLD, &reqs[1]));
    MT_MPI(MPI_Ibarrier(MPI_COMM_WORLD, &reqs[2]));
    MT_MPI(MPI_Ibcast(&e, 1, MPI_INT, 0, MPI_COMM_WORLD, &reqs[3]));
    for (int i = 3; i >= 0; i--)
        MT_MPI(MPI_Wait(&reqs[i], MPI_STATUS_IGNORE));
    MT_CHECK(b == mt_size - 1, "concurrent Iallreduce = %d", b);
    MT_CHECK(e == 4242, "concurrent Ibcast = %d", e);
    for (int r = 0; r < mt_size; r++)
        MT_CHECK(d[r] == r * 100 + mt_rank, "concurrent Ialltoall from %d = %d", r, d[r]);

    /* Waitall over a mix of a persistent and nonblocking collectives, twice */
#if MPI_VERSION >= 4
    MPI_Request p;
    int x = 1, y = 0;
    MT_MPI(MPI_Allreduce_init(&x, &y, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &p));
    for (int k = 0; k < 2; k++) {
        MPI_Request all[2];
        MT_MPI(MPI_Startall(1, &p));
        all[0] = p;
        MT_MPI(MPI_Ibarrier(MPI_COMM_WORLD, &all[1]));
        MT_MPI(MPI_Waitall(2, all, MPI_STATUSES_IGNORE));
        MT_CHECK(y == mt_size, "persistent Allreduce via Startall = %d", y);
        y = 0;
    }
    MT_MPI(MPI_Request_free(&p));
#endif
}

/* Rank 0 enters late; the others poll with MPI_Test, which must make progress. */
static void test_progress(void)
{
    MPI_Request req;
    int v = mt_rank + 1, sum = 0, flag = 0;
    if (mt_rank == 0)
        mt_sleep(0.05);
    MT_MPI(MPI_Iallreduce(&v, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req));
    long polls = 0;
    while (!flag) {
        MT_MPI(MPI_Test(&req, &flag, MPI_STATUS_IGNORE));
        polls++;
    }
    MT_CHECK(sum == mt_size * (mt_size + 1) / 2, "Iallreduce by Test = %d", sum);
    (void)polls;
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    MT_ASSERT(mt_size <= 64, "at most 64 ranks");
    all_forms(NONBLOCKING);
    if (MPI_VERSION >= 4)
        all_forms(PERSISTENT);
    for (int k = 0; k < 5; k++)
        concurrent();
    test_progress();
    return mt_finish();
}
