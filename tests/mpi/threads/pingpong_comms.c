/* pingpong_comms: NTHREADS threads per rank ping-pong with the partner rank at once, first each
 * on its own communicator (MPI_Comm_dup per thread), then all on MPI_COMM_WORLD each with its
 * own tag, receiving from MPI_ANY_SOURCE. Each message carries (thread, round), so a message
 * delivered to the wrong thread is caught. Ranks pair up 0-1, 2-3, ... */
#include "threads_common.h"

enum { NTHREADS = 4, ROUNDS = 400 };

struct arg {
    int id;
    MPI_Comm comm;
    int tag;
};

static void *pingpong(void *p)
{
    struct arg *a = p;
    int partner = mt_rank ^ 1, first = (mt_rank & 1) == 0;
    int out[2], in[2];
    for (int r = 0; r < ROUNDS; r++) {
        out[0] = a->id;
        out[1] = r;
        MPI_Status status;
        if (first) {
            MPI_Send(out, 2, MPI_INT, partner, a->tag, a->comm);
            MPI_Recv(in, 2, MPI_INT, MPI_ANY_SOURCE, a->tag, a->comm, &status);
        } else {
            MPI_Recv(in, 2, MPI_INT, MPI_ANY_SOURCE, a->tag, a->comm, &status);
            MPI_Send(out, 2, MPI_INT, partner, a->tag, a->comm);
        }
        TC_CHECK(in[0] == a->id && in[1] == r, "thread %d round %d: got (%d, %d)", a->id, r,
                 in[0], in[1]);
        TC_CHECK(status.MPI_SOURCE == partner && status.MPI_TAG == a->tag,
                 "thread %d: status source %d tag %d", a->id, status.MPI_SOURCE, status.MPI_TAG);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    tc_init_multiple(&argc, &argv);
    MT_ASSERT(mt_size % 2 == 0, "needs an even number of ranks");
    struct arg args[NTHREADS];
    for (int i = 0; i < NTHREADS; i++) {
        args[i] = (struct arg){i, MPI_COMM_NULL, 0};
        MT_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &args[i].comm));
    }
    tc_run(NTHREADS, pingpong, args, sizeof(args[0]));
    for (int i = 0; i < NTHREADS; i++) {
        MPI_Comm_free(&args[i].comm);
        args[i] = (struct arg){i, MPI_COMM_WORLD, 100 + i};
    }
    tc_run(NTHREADS, pingpong, args, sizeof(args[0]));
    return mt_finish();
}
