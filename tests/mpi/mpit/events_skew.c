/* events_skew: the skew watch (src/p2p/skew.c) seen through its MPI_T events. Rank 1 falls
 * behind a stream of 64 KiB MPI_Isends from rank 0 (as tests/mpi/p2p/skew_watch.c drives it):
 * within a few rounds rank 1 raises nodempi_p2p_skew_request (peer 0, raise, a backlog above the
 * high mark of 8) and rank 0 nodempi_p2p_skew_threshold (peer 1, from the pair's eager limit up
 * to NODEMPI_SKEW_EAGER_LIMIT, read through its control variable). Then 80 ms of a ping-pong
 * rank 1 keeps up with: a lower request and the threshold back where it was. Timestamps of
 * the instances never decrease. Other ranks only join the barriers and see no skew events. */
#include "mpitest.h"
#include "mt_mpit.h"

#include <stdlib.h>

enum { LARGE = 65536, NLARGE = 48, ROUNDS = 5, TAG = 9 };

static struct record {
    int type; /* 0 request, 1 threshold */
    int peer;
    long long a, b; /* request: raise, backlog; threshold: old, new */
    MPI_Count ts;
} records[32];
static int nrecords;
static MPI_Count last_ts;

static void on_event(MPI_T_event_instance inst, MPI_T_event_registration reg,
                     MPI_T_cb_safety level, void *user_data)
{
    (void)reg, (void)level;
    int type = *(int *)user_data;
    struct record r = {.type = type};
    MPI_T_event_read(inst, 0, &r.peer);
    if (type == 0) {
        int raise = -1, backlog = -1;
        MPI_T_event_read(inst, 1, &raise);
        MPI_T_event_read(inst, 2, &backlog);
        r.a = raise;
        r.b = backlog;
    } else {
        MPI_Count old_limit = -1, new_limit = -1;
        MPI_T_event_read(inst, 1, &old_limit);
        MPI_T_event_read(inst, 2, &new_limit);
        r.a = old_limit;
        r.b = new_limit;
    }
    MPI_T_event_get_timestamp(inst, &r.ts);
    MT_CHECK(r.ts >= last_ts, "timestamps decrease");
    last_ts = r.ts;
    if (nrecords < 32)
        records[nrecords++] = r;
}

static void spin(double seconds)
{
    double until = MPI_Wtime() + seconds;
    while (MPI_Wtime() < until)
        ;
}

static void large_backlog(unsigned char *buf)
{
    if (mt_rank == 0) {
        MPI_Request req[NLARGE];
        for (int i = 0; i < NLARGE; i++) {
            MPI_Isend(buf + (size_t)i * LARGE, LARGE, MPI_BYTE, 1, TAG, MPI_COMM_WORLD, &req[i]);
            spin(20e-6);
        }
        MPI_Waitall(NLARGE, req, MPI_STATUSES_IGNORE);
    } else if (mt_rank == 1) {
        mt_sleep(0.0002);
        for (int i = 0; i < NLARGE; i++) {
            MPI_Recv(buf, LARGE, MPI_BYTE, 0, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            spin(50e-6);
        }
    }
    MPI_Barrier(MPI_COMM_WORLD);
}

static void calm(unsigned char *buf)
{
    double until = MPI_Wtime() + 0.08; /* 4x the watch's 20 ms hold before it lowers */
    int more = 1;
    while (more) {
        if (mt_rank == 0) {
            more = MPI_Wtime() < until;
            MPI_Send(&more, 1, MPI_INT, 1, TAG, MPI_COMM_WORLD);
            MPI_Recv(buf, 8, MPI_BYTE, 1, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else if (mt_rank == 1) {
            MPI_Recv(&more, 1, MPI_INT, 0, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(buf, 8, MPI_BYTE, 0, TAG, MPI_COMM_WORLD);
        } else {
            more = 0;
        }
    }
    MPI_Barrier(MPI_COMM_WORLD);
}

static int count(int type, int raise_or_new, long long value)
{
    int n = 0;
    for (int i = 0; i < nrecords; i++)
        n += records[i].type == type && (raise_or_new ? records[i].b : records[i].a) == value;
    return n;
}

int main(int argc, char **argv)
{
    mt_init_with_mpit(&argc, &argv);
    mt_require_ranks(2);
    unsigned long skew_limit = 0;
    long long base = -1;
    MPI_T_cvar_handle cvar = mt_cvar_handle("NODEMPI_SKEW_EAGER_LIMIT");
    MPI_T_cvar_read(cvar, &skew_limit);
    MPI_T_cvar_handle_free(&cvar);

    static int type_request = 0, type_threshold = 1;
    int index;
    MPI_T_event_registration request, threshold;
    MT_CHECK_INT(MPI_SUCCESS, MPI_T_event_get_index("nodempi_p2p_skew_request", &index), "index");
    MT_CHECK_INT(MPI_SUCCESS, MPI_T_event_handle_alloc(index, NULL, MPI_INFO_NULL, &request),
                 "handle_alloc request");
    MT_CHECK_INT(MPI_SUCCESS, MPI_T_event_register_callback(request, MPI_T_CB_REQUIRE_NONE,
                                                            MPI_INFO_NULL, &type_request,
                                                            on_event),
                 "register request");
    MT_CHECK_INT(MPI_SUCCESS, MPI_T_event_get_index("nodempi_p2p_skew_threshold", &index),
                 "index");
    MT_CHECK_INT(MPI_SUCCESS, MPI_T_event_handle_alloc(index, NULL, MPI_INFO_NULL, &threshold),
                 "handle_alloc threshold");
    MT_CHECK_INT(MPI_SUCCESS, MPI_T_event_register_callback(threshold, MPI_T_CB_REQUIRE_NONE,
                                                            MPI_INFO_NULL, &type_threshold,
                                                            on_event),
                 "register threshold");

    unsigned char *buf = mt_malloc((size_t)LARGE * NLARGE);
    int raised = 0;
    for (int round = 0; round < ROUNDS && !raised; round++) {
        large_backlog(buf);
        raised = mt_rank == 0 && count(1, 1, (long long)skew_limit) > 0;
        MPI_Bcast(&raised, 1, MPI_INT, 0, MPI_COMM_WORLD);
    }
    if (mt_rank == 0) {
        MT_CHECK(raised, "%d rounds of 64 KiB into a receiver behind: no threshold event", ROUNDS);
        MT_CHECK_INT(1, count(1, 1, (long long)skew_limit), "raises of the threshold");
        for (int i = 0; i < nrecords; i++) {
            MT_CHECK_INT(1, records[i].type, "rank 0 asked nobody");
            MT_CHECK_INT(1, records[i].peer, "the receiver that asked");
            if (records[i].b == (long long)skew_limit) {
                MT_CHECK(records[i].a < records[i].b, "raised from %lld", records[i].a);
                base = records[i].a;
            }
        }
    } else if (mt_rank == 1 && raised) {
        MT_CHECK_INT(1, count(0, 0, 1), "raise requests");
        for (int i = 0; i < nrecords; i++) {
            MT_CHECK_INT(0, records[i].type, "rank 1's limit changed");
            MT_CHECK_INT(0, records[i].peer, "the sender asked");
            if (records[i].a == 1)
                MT_CHECK(records[i].b > 8, "a raise with a backlog of %lld", records[i].b);
        }
    }
    if (raised) {
        calm(buf);
        if (mt_rank == 0)
            MT_CHECK_INT(1, count(1, 1, base), "the threshold lowered back");
        else if (mt_rank == 1)
            MT_CHECK_INT(1, count(0, 0, 0), "lower requests");
    }
    if (mt_rank > 1)
        MT_CHECK_INT(0, nrecords, "skew events on a rank outside the pair");
    free(buf);
    MPI_T_event_handle_free(request, NULL, NULL);
    MPI_T_event_handle_free(threshold, NULL, NULL);
    int rc = mt_finish();
    MPI_T_finalize();
    return rc;
}
