/* events_threads: MPI_T events in an MPI_THREAD_MULTIPLE program (src/mpi/mpit_event.c). Ranks
 * 0 and 1 run THREADS threads each, every thread on its own duplicate of their pair's
 * communicator: rank 1 sends N messages rank 0 has not asked for, both join a barrier on that
 * communicator (its message comes behind them, so rank 0 has queued them all by its end), and
 * rank 0 receives them. Rank 0 watches nodempi_p2p_unexpected on each thread's communicator,
 * rank 1 nodempi_coll_path; meanwhile one more thread on every rank allocates, registers and
 * frees handles in a loop. Each registration sees exactly its own communicator's events, a
 * callback of MPI_T_CB_REQUIRE_NONE is never running twice at once (one thread delivers at a
 * time), and every free callback runs once. Run under ThreadSanitizer too. */
#include "mpitest.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

enum { THREADS = 2, ROUNDS = 20, N = 5, TAG = 3 };

static MPI_Comm pair_comm;
static MPI_Comm comms[THREADS];
static int counts[THREADS];    /* written by callbacks, which never run at once */
static atomic_int in_callback; /* ...checked here */
static atomic_int overlaps;
static int unexpected_index, coll_index;
static atomic_int churn_done;
static atomic_int free_calls;

static void on_event(MPI_T_event_instance inst, MPI_T_event_registration reg,
                     MPI_T_cb_safety level, void *user_data)
{
    (void)reg;
    if (atomic_fetch_add(&in_callback, 1) != 0)
        atomic_fetch_add(&overlaps, 1);
    MT_CHECK(level == MPI_T_CB_REQUIRE_NONE, "safety level %d", (int)level);
    int t = (int)(intptr_t)user_data, tag = -1;
    if (t >= 0 && mt_rank == 0) {
        unsigned context = 1;
        MPI_T_event_read(inst, 3, &context);
        if (context % 2 == 0) { /* not the barriers' (the communicator's collective context) */
            MPI_T_event_read(inst, 1, &tag);
            MT_CHECK(tag >= TAG && tag < TAG + N, "tag %d", tag);
            counts[t]++;
        }
    } else if (t >= 0) {
        counts[t]++;
    }
    atomic_fetch_sub(&in_callback, 1);
}

static void on_free(MPI_T_event_registration reg, MPI_T_cb_safety level, void *user_data)
{
    (void)reg, (void)level, (void)user_data;
    atomic_fetch_add(&free_calls, 1);
}

static void *traffic(void *arg)
{
    int t = (int)(intptr_t)arg;
    MPI_Comm comm = comms[t];
    int buf[N];
    for (int round = 0; round < ROUNDS; round++) {
        if (mt_rank == 1)
            for (int i = 0; i < N; i++) {
                buf[i] = round * N + i;
                MPI_Send(&buf[i], 1, MPI_INT, 0, TAG + i, comm);
            }
        MPI_Barrier(comm);
        if (mt_rank == 0)
            for (int i = 0; i < N; i++) {
                int v = -1;
                MPI_Recv(&v, 1, MPI_INT, 1, TAG + i, comm, MPI_STATUS_IGNORE);
                MT_CHECK_INT(round * N + i, v, "message");
            }
    }
    return NULL;
}

/* Handles come and go while the traffic threads run. */
static void *churn(void *arg)
{
    (void)arg;
    int made = 0;
    while (!atomic_load(&churn_done)) {
        MPI_T_event_registration reg;
        int index = made % 2 ? coll_index : unexpected_index;
        MPI_Comm world = MPI_COMM_WORLD;
        if (MPI_T_event_handle_alloc(index, &world, MPI_INFO_NULL, &reg) != MPI_SUCCESS) {
            MT_CHECK(0, "handle_alloc in the churn thread");
            break;
        }
        MPI_T_event_register_callback(reg, MPI_T_CB_REQUIRE_NONE, MPI_INFO_NULL,
                                      (void *)(intptr_t)-1, on_event);
        int flag;
        MPI_Iprobe(MPI_ANY_SOURCE, 999, MPI_COMM_SELF, &flag, MPI_STATUS_IGNORE);
        MT_CHECK_INT(MPI_SUCCESS, MPI_T_event_handle_free(reg, NULL, on_free), "handle_free");
        made++;
    }
    return (void *)(intptr_t)made;
}

int main(int argc, char **argv)
{
    int provided;
    MT_ASSERT(MPI_T_init_thread(MPI_THREAD_MULTIPLE, &provided) == MPI_SUCCESS, "MPI_T_init");
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    mt_setup();
    mt_require_ranks(2);
    MT_ASSERT(provided == MPI_THREAD_MULTIPLE, "MPI_THREAD_MULTIPLE");
    MPI_T_event_get_index("nodempi_p2p_unexpected", &unexpected_index);
    MPI_T_event_get_index("nodempi_coll_path", &coll_index);
    MPI_Comm_split(MPI_COMM_WORLD, mt_rank < 2 ? 0 : MPI_UNDEFINED, mt_rank, &pair_comm);
    MPI_T_event_registration regs[THREADS];
    if (mt_rank < 2)
        for (int t = 0; t < THREADS; t++) {
            MPI_Comm_dup(pair_comm, &comms[t]);
            MT_CHECK_INT(MPI_SUCCESS,
                         MPI_T_event_handle_alloc(mt_rank == 0 ? unexpected_index : coll_index,
                                                  &comms[t], MPI_INFO_NULL, &regs[t]),
                         "handle_alloc");
            MT_CHECK_INT(MPI_SUCCESS,
                         MPI_T_event_register_callback(regs[t], MPI_T_CB_REQUIRE_NONE,
                                                       MPI_INFO_NULL, (void *)(intptr_t)t,
                                                       on_event),
                         "register");
        }
    pthread_t churner, threads[THREADS];
    pthread_create(&churner, NULL, churn, NULL);
    if (mt_rank < 2) {
        for (int t = 0; t < THREADS; t++)
            pthread_create(&threads[t], NULL, traffic, (void *)(intptr_t)t);
        for (int t = 0; t < THREADS; t++)
            pthread_join(threads[t], NULL);
    } else {
        mt_sleep(0.05);
    }
    atomic_store(&churn_done, 1);
    void *made;
    pthread_join(churner, &made);
    MPI_Barrier(MPI_COMM_SELF); /* the last free callbacks' turn */
    MT_CHECK_INT((intptr_t)made, atomic_load(&free_calls), "free callbacks");
    MT_CHECK_INT(0, atomic_load(&overlaps), "callbacks running at once");
    if (mt_rank < 2) {
        for (int t = 0; t < THREADS; t++) {
            if (mt_rank == 0)
                MT_CHECK_INT(ROUNDS * N, counts[t], "unexpected messages of the thread's comm");
            else
                MT_CHECK(counts[t] >= ROUNDS, "collectives of the thread's comm: %d",
                         counts[t]);
            MT_CHECK_INT(MPI_SUCCESS, MPI_T_event_handle_free(regs[t], NULL, NULL), "free");
            MPI_Comm_free(&comms[t]);
        }
        MPI_Comm_free(&pair_comm);
    }
    int rc = mt_finish();
    MPI_T_finalize();
    return rc;
}
