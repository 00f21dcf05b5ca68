/* nb_complete: MPI_Isend/MPI_Irecv around a ring completed with every completion function:
 * Wait, Waitall, Waitany, Waitsome, Test, Testall, Testany, Testsome, on request arrays that
 * mix receives, sends and MPI_REQUEST_NULL (data, statuses, index uniqueness verified);
 * all-null/empty arrays (MPI_UNDEFINED index/outcount, empty statuses); and the "not yet
 * complete" answers of the Test family for a receive whose message is not sent yet. */
#include "../common/mpitest.h"

#define NMSG 6
#define NREQ (3 * NMSG) /* entry 3k: receive k, 3k+1: MPI_REQUEST_NULL, 3k+2: send k */
static const int msg_size[NMSG] = {0, 8, 1000, 65536, 1 << 20, 3};

static unsigned char *sbuf[NMSG], *rbuf[NMSG];
static MPI_Request req[NREQ];
static int round_no;

static uint64_t seed_of(int rank, int k) { return (uint64_t)(round_no * 1000 + rank * 100 + k); }

/* post receives from the left and sends to the right for a new round */
static void post(void)
{
    round_no++;
    for (int k = 0; k < NMSG; k++) {
        memset(rbuf[k], 0xEE, (size_t)msg_size[k]);
        MPI_Irecv(rbuf[k], msg_size[k], MPI_BYTE, mt_left(), k, MPI_COMM_WORLD, &req[3 * k]);
        req[3 * k + 1] = MPI_REQUEST_NULL;
    }
    for (int k = 0; k < NMSG; k++) {
        mt_fill(sbuf[k], (size_t)msg_size[k], seed_of(mt_rank, k));
        MPI_Isend(sbuf[k], msg_size[k], MPI_BYTE, mt_right(), k, MPI_COMM_WORLD, &req[3 * k + 2]);
    }
}

/* check a completed entry i (status of receives/nulls; receive data) */
static void check_entry(const char *fn, int i, const MPI_Status *st)
{
    char what[96];
    int k = i / 3;
    if (i % 3 == 0) {
        snprintf(what, sizeof what, "%s: receive %d (%d bytes) from %d", fn, k, msg_size[k],
                 mt_left());
        if (st)
            MT_CHECK_STATUS(st, mt_left(), k, MPI_BYTE, msg_size[k], what);
        MT_VERIFY(rbuf[k], (size_t)msg_size[k], seed_of(mt_left(), k), what);
    } else if (i % 3 == 1 && st) {
        snprintf(what, sizeof what, "%s: status of MPI_REQUEST_NULL entry %d", fn, i);
        MT_CHECK_EMPTY_STATUS(st, what);
    }
}

static void check_all_null(const char *fn)
{
    for (int i = 0; i < NREQ; i++)
        MT_CHECK(req[i] == MPI_REQUEST_NULL, "%s: request %d not MPI_REQUEST_NULL after completion",
                 fn, i);
}

/* any-style loop: seen[] must receive each non-null index exactly once */
static void note_index(const char *fn, int idx, int *seen)
{
    if (idx < 0 || idx >= NREQ) {
        mt_fail(__FILE__, __LINE__, "%s: index %d out of range", fn, idx);
        return;
    }
    MT_CHECK(idx % 3 != 1, "%s: returned index %d of a MPI_REQUEST_NULL entry", fn, idx);
    MT_CHECK(!seen[idx], "%s: index %d returned twice", fn, idx);
    MT_CHECK(req[idx] == MPI_REQUEST_NULL, "%s: completed request %d not set to MPI_REQUEST_NULL",
             fn, idx);
    seen[idx] = 1;
}

static void check_seen(const char *fn, const int *seen)
{
    for (int i = 0; i < NREQ; i++)
        MT_CHECK(seen[i] == (i % 3 != 1), "%s: entry %d completed %d times", fn, i, seen[i]);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    for (int k = 0; k < NMSG; k++) {
        sbuf[k] = mt_malloc((size_t)msg_size[k]);
        rbuf[k] = mt_malloc((size_t)msg_size[k]);
    }
    MPI_Status st[NREQ], one;
    int idx, flag, outcount, indices[NREQ], seen[NREQ];

    /* MPI_Wait on each request */
    post();
    for (int i = 0; i < NREQ; i++) {
        mt_poison_status(&one);
        MPI_Wait(&req[i], &one);
        MT_CHECK(req[i] == MPI_REQUEST_NULL, "MPI_Wait: request %d not freed", i);
        check_entry("MPI_Wait", i, i % 3 == 2 ? NULL : &one);
    }

    /* MPI_Waitall */
    post();
    for (int i = 0; i < NREQ; i++)
        mt_poison_status(&st[i]);
    MPI_Waitall(NREQ, req, st);
    check_all_null("MPI_Waitall");
    for (int i = 0; i < NREQ; i++)
        check_entry("MPI_Waitall", i, i % 3 == 2 ? NULL : &st[i]);

    /* MPI_Waitany until MPI_UNDEFINED */
    post();
    memset(seen, 0, sizeof seen);
    for (int n = 0;; n++) {
        mt_poison_status(&one);
        MPI_Waitany(NREQ, req, &idx, &one);
        if (idx == MPI_UNDEFINED) {
            MT_CHECK_INT(2 * NMSG, n, "MPI_Waitany completions before MPI_UNDEFINED");
            MT_CHECK_EMPTY_STATUS(&one, "MPI_Waitany with no active request");
            break;
        }
        MT_ASSERT(n < 2 * NMSG, "MPI_Waitany: more completions than active requests");
        note_index("MPI_Waitany", idx, seen);
        check_entry("MPI_Waitany", idx, idx % 3 == 2 ? NULL : &one);
    }
    check_seen("MPI_Waitany", seen);

    /* MPI_Waitsome until MPI_UNDEFINED */
    post();
    memset(seen, 0, sizeof seen);
    for (int n = 0;; n++) {
        MPI_Waitsome(NREQ, req, &outcount, indices, st);
        if (outcount == MPI_UNDEFINED)
            break;
        MT_ASSERT(n < 2 * NMSG, "MPI_Waitsome: too many calls with completions");
        MT_CHECK(outcount >= 1 && outcount <= NREQ, "MPI_Waitsome: outcount %d", outcount);
        for (int j = 0; j < outcount; j++) {
            note_index("MPI_Waitsome", indices[j], seen);
            check_entry("MPI_Waitsome", indices[j], indices[j] % 3 == 2 ? NULL : &st[j]);
        }
    }
    check_seen("MPI_Waitsome", seen);

    /* MPI_Test on each request, spinning */
    post();
    for (int i = 0; i < NREQ; i++) {
        flag = 0;
        mt_poison_status(&one);
        while (!flag)
            MPI_Test(&req[i], &flag, &one);
        MT_CHECK(req[i] == MPI_REQUEST_NULL, "MPI_Test: request %d not freed", i);
        check_entry("MPI_Test", i, i % 3 == 2 ? NULL : &one);
    }

    /* MPI_Testall, spinning */
    post();
    for (int i = 0; i < NREQ; i++)
        mt_poison_status(&st[i]);
    flag = 0;
    while (!flag)
        MPI_Testall(NREQ, req, &flag, st);
    check_all_null("MPI_Testall");
    for (int i = 0; i < NREQ; i++)
        check_entry("MPI_Testall", i, i % 3 == 2 ? NULL : &st[i]);

    /* MPI_Testany until flag && MPI_UNDEFINED */
    post();
    memset(seen, 0, sizeof seen);
    for (int n = 0;;) {
        mt_poison_status(&one);
        MPI_Testany(NREQ, req, &idx, &flag, &one);
        if (!flag) {
            MT_CHECK(idx == MPI_UNDEFINED, "MPI_Testany: flag false but index %d", idx);
            continue;
        }
        if (idx == MPI_UNDEFINED) {
            MT_CHECK_INT(2 * NMSG, n, "MPI_Testany completions before MPI_UNDEFINED");
            MT_CHECK_EMPTY_STATUS(&one, "MPI_Testany with no active request");
            break;
        }
        MT_ASSERT(++n <= 2 * NMSG, "MPI_Testany: more completions than active requests");
        note_index("MPI_Testany", idx, seen);
        check_entry("MPI_Testany", idx, idx % 3 == 2 ? NULL : &one);
    }
    check_seen("MPI_Testany", seen);

    /* MPI_Testsome until MPI_UNDEFINED */
    post();
    memset(seen, 0, sizeof seen);
    for (int n = 0;;) {
        MPI_Testsome(NREQ, req, &outcount, indices, st);
        if (outcount == MPI_UNDEFINED)
            break;
        MT_CHECK(outcount >= 0 && outcount <= NREQ, "MPI_Testsome: outcount %d", outcount);
        n += outcount;
        MT_ASSERT(n <= 2 * NMSG, "MPI_Testsome: more completions than active requests");
        for (int j = 0; j < outcount; j++) {
            note_index("MPI_Testsome", indices[j], seen);
            check_entry("MPI_Testsome", indices[j], indices[j] % 3 == 2 ? NULL : &st[j]);
        }
    }
    check_seen("MPI_Testsome", seen);

    /* all-null and empty arrays */
    MPI_Request nulls[3] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL, MPI_REQUEST_NULL};
    MPI_Status nst[3];
    mt_poison_status(&one);
    MPI_Wait(&nulls[0], &one);
    MT_CHECK_EMPTY_STATUS(&one, "MPI_Wait(MPI_REQUEST_NULL)");
    flag = 0;
    mt_poison_status(&one);
    MPI_Test(&nulls[0], &flag, &one);
    MT_CHECK_INT(1, flag, "MPI_Test(MPI_REQUEST_NULL) flag");
    MT_CHECK_EMPTY_STATUS(&one, "MPI_Test(MPI_REQUEST_NULL)");
    idx = -12345;
    mt_poison_status(&one);
    MPI_Waitany(3, nulls, &idx, &one);
    MT_CHECK_INT(MPI_UNDEFINED, idx, "MPI_Waitany on all-null array: index");
    MT_CHECK_EMPTY_STATUS(&one, "MPI_Waitany on all-null array");
    idx = -12345;
    MPI_Waitany(0, nulls, &idx, MPI_STATUS_IGNORE);
    MT_CHECK_INT(MPI_UNDEFINED, idx, "MPI_Waitany with count 0: index");
    idx = -12345;
    flag = 0;
    mt_poison_status(&one);
    MPI_Testany(3, nulls, &idx, &flag, &one);
    MT_CHECK_INT(1, flag, "MPI_Testany on all-null array: flag");
    MT_CHECK_INT(MPI_UNDEFINED, idx, "MPI_Testany on all-null array: index");
    MT_CHECK_EMPTY_STATUS(&one, "MPI_Testany on all-null array");
    outcount = -12345;
    MPI_Waitsome(3, nulls, &outcount, indices, nst);
    MT_CHECK_INT(MPI_UNDEFINED, outcount, "MPI_Waitsome on all-null array: outcount");
    outcount = -12345;
    MPI_Testsome(3, nulls, &outcount, indices, nst);
    MT_CHECK_INT(MPI_UNDEFINED, outcount, "MPI_Testsome on all-null array: outcount");
    for (int i = 0; i < 3; i++)
        mt_poison_status(&nst[i]);
    MPI_Waitall(3, nulls, nst);
    for (int i = 0; i < 3; i++)
        MT_CHECK_EMPTY_STATUS(&nst[i], "MPI_Waitall on all-null array");
    flag = 0;
    for (int i = 0; i < 3; i++)
        mt_poison_status(&nst[i]);
    MPI_Testall(3, nulls, &flag, nst);
    MT_CHECK_INT(1, flag, "MPI_Testall on all-null array: flag");
    for (int i = 0; i < 3; i++)
        MT_CHECK_EMPTY_STATUS(&nst[i], "MPI_Testall on all-null array");
    MPI_Waitall(0, nulls, MPI_STATUSES_IGNORE);
    flag = 0;
    MPI_Testall(0, nulls, &flag, MPI_STATUSES_IGNORE);
    MT_CHECK_INT(1, flag, "MPI_Testall with count 0: flag");

    /* pending receive: its message is only sent after the barrier */
    {
        int val = -1, sval = 4242 + mt_rank;
        MPI_Request pend[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL}, sreq;
        MPI_Irecv(&val, 1, MPI_INT, mt_left(), 99, MPI_COMM_WORLD, &pend[1]);
        for (int rep = 0; rep < 3; rep++) {
            flag = -1;
            MPI_Test(&pend[1], &flag, &one);
            MT_CHECK_INT(0, flag, "MPI_Test on receive whose message is not sent: flag");
            idx = -12345;
            flag = -1;
            MPI_Testany(2, pend, &idx, &flag, &one);
            MT_CHECK_INT(0, flag, "MPI_Testany on pending receive: flag");
            MT_CHECK_INT(MPI_UNDEFINED, idx, "MPI_Testany on pending receive: index");
            outcount = -12345;
            MPI_Testsome(2, pend, &outcount, indices, nst);
            MT_CHECK_INT(0, outcount, "MPI_Testsome on pending receive: outcount");
            flag = -1;
            MPI_Testall(2, pend, &flag, nst);
            MT_CHECK_INT(0, flag, "MPI_Testall on pending receive: flag");
            MT_CHECK(pend[1] != MPI_REQUEST_NULL, "pending request freed by a Test function");
            mt_sleep(0.002);
        }
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Isend(&sval, 1, MPI_INT, mt_right(), 99, MPI_COMM_WORLD, &sreq);
        MPI_Waitany(2, pend, &idx, &one);
        MT_CHECK_INT(1, idx, "MPI_Waitany index of the pending receive");
        MT_CHECK_STATUS(&one, mt_left(), 99, MPI_INT, 1, "pending receive");
        MT_CHECK_INT(4242 + mt_left(), val, "pending receive value");
        MPI_Wait(&sreq, MPI_STATUS_IGNORE);
    }

    for (int k = 0; k < NMSG; k++) {
        free(sbuf[k]);
        free(rbuf[k]);
    }
    return mt_finish();
}
