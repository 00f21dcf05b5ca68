/* anysource: wildcard receives. For every root, all ranks (root included, to itself) send one
 * message with a rank-specific tag and size; the root receives them with (ANY_SOURCE,
 * ANY_TAG), then with (ANY_SOURCE, specific tag) in reverse order, then with (specific source,
 * ANY_TAG); status source/tag/count filled correctly, every sender seen exactly once, data
 * verified. */
#include "../common/mpitest.h"

#define MAXSZ 200000
static int msg_size(int rank) { return rank % 3 == 0 ? MAXSZ : 8 * rank + 4; }

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    unsigned char *sbuf = mt_malloc(MAXSZ), *rbuf = mt_malloc(MAXSZ);
    int *seen = mt_malloc(sizeof(int) * (size_t)mt_size);
    MPI_Status st;
    char what[128];

    for (int root = 0; root < mt_size; root++) {
        for (int mode = 0; mode < 3; mode++) {
            MPI_Request sreq;
            uint64_t seed = (uint64_t)(mode * 1000 + root * 10);
            mt_fill(sbuf, (size_t)msg_size(mt_rank), seed + (uint64_t)mt_rank);
            MPI_Isend(sbuf, msg_size(mt_rank), MPI_BYTE, root, 100 + mt_rank, MPI_COMM_WORLD,
                      &sreq);
            if (mt_rank == root) {
                memset(seen, 0, sizeof(int) * (size_t)mt_size);
                for (int i = 0; i < mt_size; i++) {
                    int src = mt_size - 1 - i; /* expected sender in modes 1 and 2 */
                    if (mode == 0)
                        MPI_Recv(rbuf, MAXSZ, MPI_BYTE, MPI_ANY_SOURCE, MPI_ANY_TAG,
                                 MPI_COMM_WORLD, &st);
                    else if (mode == 1)
                        MPI_Recv(rbuf, MAXSZ, MPI_BYTE, MPI_ANY_SOURCE, 100 + src,
                                 MPI_COMM_WORLD, &st);
                    else
                        MPI_Recv(rbuf, MAXSZ, MPI_BYTE, src, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
                    if (mode == 0)
                        src = st.MPI_SOURCE;
                    snprintf(what, sizeof what, "root %d mode %d: message from %d", root, mode,
                             src);
                    if (src < 0 || src >= mt_size) {
                        mt_fail(__FILE__, __LINE__, "%s: status.MPI_SOURCE %d out of range",
                                what, st.MPI_SOURCE);
                        continue;
                    }
                    MT_CHECK(!seen[src], "%s: sender seen twice", what);
                    seen[src] = 1;
                    MT_CHECK_STATUS(&st, src, 100 + src, MPI_BYTE, msg_size(src), what);
                    MT_VERIFY(rbuf, (size_t)msg_size(src), seed + (uint64_t)src, what);
                }
            }
            MPI_Wait(&sreq, MPI_STATUS_IGNORE);
            MPI_Barrier(MPI_COMM_WORLD);
        }
    }

    free(sbuf);
    free(rbuf);
    free(seen);
    return mt_finish();
}
