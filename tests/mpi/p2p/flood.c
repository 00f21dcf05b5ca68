/* flood: the first rank of each pair sends 10000 small messages (1..32 bytes) with blocking
 * MPI_Send while the receiver sleeps 0.5 s before receiving, so they pile up as unexpected
 * messages; must not deadlock; all arrive in order with correct size and contents (half of them
 * received with MPI_ANY_SOURCE/MPI_ANY_TAG). Needs >= 2 ranks; an unpaired rank idles. */
#include "../common/mpitest.h"

#define NMSG 10000
#define msg_len(i) (1 + (i) % 32)

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    mt_require_ranks(2);
    int peer = mt_peer();
    unsigned char buf[64];
    MPI_Status st;

    if (peer != mt_rank && mt_is_first()) {
        for (int i = 0; i < NMSG; i++) {
            mt_fill(buf, (size_t)msg_len(i), (uint64_t)i);
            MPI_Send(buf, msg_len(i), MPI_BYTE, peer, i % 7, MPI_COMM_WORLD);
        }
    } else if (peer != mt_rank) {
        mt_sleep(0.5);
        for (int i = 0; i < NMSG; i++) {
            char what[64];
            int any = i % 2;
            MPI_Recv(buf, sizeof buf, MPI_BYTE, any ? MPI_ANY_SOURCE : peer,
                     any ? MPI_ANY_TAG : i % 7, MPI_COMM_WORLD, &st);
            snprintf(what, sizeof what, "flood message %d", i);
            if (!MT_CHECK_STATUS(&st, peer, i % 7, MPI_BYTE, msg_len(i), what) ||
                MT_VERIFY(buf, (size_t)msg_len(i), (uint64_t)i, what))
                MT_ASSERT(0, "flood messages out of order or corrupted at %d", i);
        }
    }
    return mt_finish();
}
