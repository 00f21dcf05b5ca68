/* recv_send_echo: the classic MPI_THREAD_MULTIPLE deadlock check. On rank 0 thread A blocks
 * in MPI_Recv from rank 1 while thread B sends to rank 1, which echoes each message back: A's
 * receive completes only if A lets B into MPI while it waits. Then the same with A in
 * MPI_Wait and B in blocking MPI_Send of messages larger than the eager limit. */
#include "threads_common.h"

enum { ROUNDS = 300 };

struct side {
    MPI_Comm comm;
    int count; /* ints per message */
    int use_wait;
};

static void *receiver(void *p)
{
    struct side *s = p;
    int *buf = mt_malloc(sizeof(int) * (size_t)s->count);
    for (int r = 0; r < ROUNDS; r++) {
        MPI_Status status;
        if (s->use_wait) {
            MPI_Request req;
            MPI_Irecv(buf, s->count, MPI_INT, 1, 0, s->comm, &req);
            MPI_Wait(&req, &status);
        } else {
            MPI_Recv(buf, s->count, MPI_INT, 1, 0, s->comm, &status);
        }
        TC_CHECK(buf[0] == r && buf[s->count - 1] == -r, "round %d: got %d..%d", r, buf[0],
                 buf[s->count - 1]);
        TC_CHECK(status.MPI_SOURCE == 1 && status.MPI_TAG == 0, "round %d: status %d/%d", r,
                 status.MPI_SOURCE, status.MPI_TAG);
    }
    free(buf);
    return NULL;
}

static void *sender(void *p)
{
    struct side *s = p;
    int *buf = mt_malloc(sizeof(int) * (size_t)s->count);
    mt_sleep(0.02); /* let the receiver block first */
    for (int r = 0; r < ROUNDS; r++) {
        buf[0] = r;
        buf[s->count - 1] = -r;
        MPI_Send(buf, s->count, MPI_INT, 1, 0, s->comm);
    }
    free(buf);
    return NULL;
}

static void run(int count, int use_wait)
{
    struct side s = {MPI_COMM_WORLD, count, use_wait};
    if (mt_rank == 0) {
        pthread_t a, b;
        pthread_create(&a, NULL, receiver, &s);
        pthread_create(&b, NULL, sender, &s);
        pthread_join(a, NULL);
        pthread_join(b, NULL);
    } else if (mt_rank == 1) {
        int *buf = mt_malloc(sizeof(int) * (size_t)count);
        for (int r = 0; r < ROUNDS; r++) {
            MPI_Recv(buf, count, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(buf, count, MPI_INT, 0, 0, MPI_COMM_WORLD);
        }
        free(buf);
    }
    MPI_Barrier(MPI_COMM_WORLD);
}

int main(int argc, char **argv)
{
    tc_init_multiple(&argc, &argv);
    mt_require_ranks(2);
    run(2, 0);           /* 8 bytes: eager, blocking receive */
    run(2, 1);           /* the same through MPI_Irecv + MPI_Wait */
    run(64 * 1024, 0);   /* 256 KiB: rendezvous, blocking receive */
    run(64 * 1024, 1);
    return mt_finish();
}
