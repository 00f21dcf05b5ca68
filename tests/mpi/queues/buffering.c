/* buffering.c - messages nobody has asked for yet must still move, in every queue design: each
 * rank sends many eager messages with blocking MPI_Send to its right neighbour before anyone
 * posts a receive (more than one pair ring or inbox share holds), then all ranks meet in a
 * barrier and receive. Strictly MPI lets such sends block, but every MPI buffers small ones, and
 * so must cor, whose receivers poll only the peers they expect (its periodic sweep drains the
 * rest into the unexpected queue). Also checks MPI_Iprobe finds a message nobody expected.
 * Argument: [messages]. */
#include "mpitest.h"

#define SIZE 4000

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    mt_require_ranks(2);
    int n = argc > 1 ? atoi(argv[1]) : 60;
    int right = (mt_rank + 1) % mt_size, left = (mt_rank + mt_size - 1) % mt_size;
    unsigned char *buf = mt_malloc(SIZE);
    for (int k = 0; k < n; k++) {
        for (int i = 0; i < SIZE; i++)
            buf[i] = (unsigned char)(mt_rank + k + i);
        MPI_Send(buf, SIZE, MPI_BYTE, right, k, MPI_COMM_WORLD);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    /* the first message is there by now: a probe for it must succeed eventually */
    int flag = 0;
    MPI_Status st;
    while (!flag)
        MPI_Iprobe(left, 0, MPI_COMM_WORLD, &flag, &st);
    MT_CHECK(st.MPI_SOURCE == left && st.MPI_TAG == 0, "probe found %d/%d", st.MPI_SOURCE,
             st.MPI_TAG);
    for (int k = 0; k < n; k++) {
        MPI_Recv(buf, SIZE, MPI_BYTE, left, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
        MT_CHECK(st.MPI_TAG == k, "message %d arrived with tag %d", k, st.MPI_TAG);
        for (int i = 0; i < SIZE; i++)
            if (buf[i] != (unsigned char)(left + k + i)) {
                MT_CHECK(0, "message %d byte %d corrupt", k, i);
                break;
            }
    }
    free(buf);
    return mt_finish();
}
