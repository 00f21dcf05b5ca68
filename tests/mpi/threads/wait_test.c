/* wait_test: a request completed by another thread's progress is seen by its owner. On rank 0
 * thread A waits (MPI_Wait) on a receive while thread B polls MPI_Test on a receive of its own
 * and MPI_Iprobe, which drive the progress that matches A's message; rank 1 sends A's message
 * first, then, after A reports completion through rank 0's reply, B's. A must return from
 * MPI_Wait with the right data. Repeated with A in MPI_Waitall and B in MPI_Testany. */
#include "threads_common.h"

#include <stdatomic.h>

enum { ROUNDS = 200, TAG_A = 1, TAG_B = 2, TAG_DONE = 3 };

static atomic_int a_done;

static void *waiter(void *p)
{
    int use_waitall = *(int *)p;
    for (int r = 0; r < ROUNDS; r++) {
        int value = -1;
        MPI_Request req;
        MPI_Irecv(&value, 1, MPI_INT, 1, TAG_A, MPI_COMM_WORLD, &req);
        if (use_waitall)
            MPI_Waitall(1, &req, MPI_STATUSES_IGNORE);
        else
            MPI_Wait(&req, MPI_STATUS_IGNORE);
        TC_CHECK(value == r, "round %d: A got %d", r, value);
        TC_CHECK(req == MPI_REQUEST_NULL, "round %d: request not freed", r);
        /* relaxed is enough: B only needs to see it eventually; the data went through MPI */
        atomic_store_explicit(&a_done, r + 1, memory_order_relaxed);
        MPI_Send(&r, 1, MPI_INT, 1, TAG_DONE, MPI_COMM_WORLD);
    }
    return NULL;
}

static void *tester(void *p)
{
    int use_testany = *(int *)p;
    for (int r = 0; r < ROUNDS; r++) {
        int value = -1, flag = 0, index, probed;
        MPI_Request req;
        MPI_Irecv(&value, 1, MPI_INT, 1, TAG_B, MPI_COMM_WORLD, &req);
        while (!flag) {
            if (use_testany)
                MPI_Testany(1, &req, &index, &flag, MPI_STATUS_IGNORE);
            else
                MPI_Test(&req, &flag, MPI_STATUS_IGNORE);
            MPI_Iprobe(1, TAG_A, MPI_COMM_WORLD, &probed, MPI_STATUS_IGNORE);
        }
        TC_CHECK(value == -r, "round %d: B got %d", r, value);
        TC_CHECK(atomic_load_explicit(&a_done, memory_order_relaxed) >= r + 1,
                 "round %d: B's message came before A finished", r);
    }
    return NULL;
}

static void run(int variant)
{
    atomic_store(&a_done, 0);
    if (mt_rank == 0) {
        pthread_t a, b;
        pthread_create(&a, NULL, waiter, &variant);
        pthread_create(&b, NULL, tester, &variant);
        pthread_join(a, NULL);
        pthread_join(b, NULL);
    } else if (mt_rank == 1) {
        for (int r = 0; r < ROUNDS; r++) {
            int minus = -r, done;
            MPI_Send(&r, 1, MPI_INT, 0, TAG_A, MPI_COMM_WORLD);
            MPI_Recv(&done, 1, MPI_INT, 0, TAG_DONE, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(&minus, 1, MPI_INT, 0, TAG_B, MPI_COMM_WORLD);
        }
    }
    MPI_Barrier(MPI_COMM_WORLD);
}

int main(int argc, char **argv)
{
    tc_init_multiple(&argc, &argv);
    mt_require_ranks(2);
    run(0);
    run(1);
    return mt_finish();
}
