/* sendrecv: MPI_Sendrecv and MPI_Sendrecv_replace around a periodic ring (0 B to 1 MiB+3,
 * different send/receive tags and counts), along a non-periodic chain whose ends talk to
 * MPI_PROC_NULL (status and untouched buffer checked), with MPI_ANY_SOURCE/MPI_ANY_TAG,
 * and to self. */
#include "../common/mpitest.h"

static const int sizes[] = {0, 1, 4096, (1 << 20) + 3};
#define NSIZES ((int)(sizeof sizes / sizeof sizes[0]))
#define MAXSZ ((1 << 20) + 3)

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    unsigned char *sbuf = mt_malloc(MAXSZ), *rbuf = mt_malloc(MAXSZ + 16);
    MPI_Status st;
    char what[128];
    int right = mt_right(), left = mt_left();

    for (int s = 0; s < NSIZES; s++) {
        int n = sizes[s];
        /* ring: send n bytes right with tag s, receive from left (buffer larger than message) */
        mt_fill(sbuf, (size_t)n, (uint64_t)(s + 10 * mt_rank));
        memset(rbuf, 0xEE, (size_t)n + 16);
        MPI_Sendrecv(sbuf, n, MPI_BYTE, right, s, rbuf, n + 16, MPI_BYTE, left, s, MPI_COMM_WORLD,
                     &st);
        snprintf(what, sizeof what, "MPI_Sendrecv ring, %d bytes from %d", n, left);
        MT_CHECK_STATUS(&st, left, s, MPI_BYTE, n, what);
        MT_VERIFY(rbuf, (size_t)n, (uint64_t)(s + 10 * left), what);
        MT_VERIFY_CONST(rbuf + n, 16, 0xEE, what);

        /* reverse direction with ANY_SOURCE / ANY_TAG, send tag differs per rank */
        mt_fill(sbuf, (size_t)n, (uint64_t)(s + 10 * mt_rank + 5));
        MPI_Sendrecv(sbuf, n, MPI_BYTE, left, 100 + mt_rank, rbuf, n, MPI_BYTE, MPI_ANY_SOURCE,
                     MPI_ANY_TAG, MPI_COMM_WORLD, &st);
        snprintf(what, sizeof what, "MPI_Sendrecv ANY_SOURCE/ANY_TAG, %d bytes from %d", n, right);
        MT_CHECK_STATUS(&st, right, 100 + right, MPI_BYTE, n, what);
        MT_VERIFY(rbuf, (size_t)n, (uint64_t)(s + 10 * right + 5), what);
        MPI_Barrier(MPI_COMM_WORLD); /* no later message may match the wildcard receive */

        /* Sendrecv_replace around the ring */
        mt_fill(rbuf, (size_t)n, (uint64_t)(s + 10 * mt_rank + 7));
        MPI_Sendrecv_replace(rbuf, n, MPI_BYTE, right, 200 + s, left, 200 + s, MPI_COMM_WORLD, &st);
        snprintf(what, sizeof what, "MPI_Sendrecv_replace ring, %d bytes from %d", n, left);
        MT_CHECK_STATUS(&st, left, 200 + s, MPI_BYTE, n, what);
        MT_VERIFY(rbuf, (size_t)n, (uint64_t)(s + 10 * left + 7), what);

        /* non-periodic chain: rank 0 receives from / last rank sends to MPI_PROC_NULL */
        int cl = mt_rank == 0 ? MPI_PROC_NULL : mt_rank - 1;
        int cr = mt_rank == mt_size - 1 ? MPI_PROC_NULL : mt_rank + 1;
        mt_fill(sbuf, (size_t)n, (uint64_t)(s + 10 * mt_rank + 3));
        memset(rbuf, 0xEE, (size_t)n);
        MPI_Sendrecv(sbuf, n, MPI_BYTE, cr, 300, rbuf, n, MPI_BYTE, cl, 300, MPI_COMM_WORLD, &st);
        snprintf(what, sizeof what, "MPI_Sendrecv chain, %d bytes from %d", n, cl);
        if (cl == MPI_PROC_NULL) {
            MT_CHECK_PROCNULL_STATUS(&st, what);
            MT_VERIFY_CONST(rbuf, (size_t)n, 0xEE, what);
        } else {
            MT_CHECK_STATUS(&st, cl, 300, MPI_BYTE, n, what);
            MT_VERIFY(rbuf, (size_t)n, (uint64_t)(s + 10 * cl + 3), what);
        }
        mt_fill(rbuf, (size_t)n, (uint64_t)(s + 10 * mt_rank + 4));
        MPI_Sendrecv_replace(rbuf, n, MPI_BYTE, cr, 301, cl, 301, MPI_COMM_WORLD, &st);
        snprintf(what, sizeof what, "MPI_Sendrecv_replace chain, %d bytes from %d", n, cl);
        if (cl == MPI_PROC_NULL) {
            MT_CHECK_PROCNULL_STATUS(&st, what);
            MT_VERIFY(rbuf, (size_t)n, (uint64_t)(s + 10 * mt_rank + 4), what); /* unchanged */
        } else {
            MT_CHECK_STATUS(&st, cl, 301, MPI_BYTE, n, what);
            MT_VERIFY(rbuf, (size_t)n, (uint64_t)(s + 10 * cl + 4), what);
        }

        /* to self, different counts: send n bytes, receive into a larger buffer */
        mt_fill(sbuf, (size_t)n, (uint64_t)(s + 10 * mt_rank + 9));
        MPI_Sendrecv(sbuf, n, MPI_BYTE, mt_rank, 400, rbuf, MAXSZ, MPI_BYTE, mt_rank, 400,
                     MPI_COMM_WORLD, &st);
        snprintf(what, sizeof what, "MPI_Sendrecv to self, %d bytes", n);
        MT_CHECK_STATUS(&st, mt_rank, 400, MPI_BYTE, n, what);
        MT_VERIFY(rbuf, (size_t)n, (uint64_t)(s + 10 * mt_rank + 9), what);
        mt_fill(rbuf, (size_t)n, (uint64_t)(s + 10 * mt_rank + 11));
        MPI_Sendrecv_replace(rbuf, n, MPI_BYTE, mt_rank, 401, mt_rank, 401, MPI_COMM_WORLD, &st);
        snprintf(what, sizeof what, "MPI_Sendrecv_replace to self, %d bytes", n);
        MT_CHECK_STATUS(&st, mt_rank, 401, MPI_BYTE, n, what);
        MT_VERIFY(rbuf, (size_t)n, (uint64_t)(s + 10 * mt_rank + 11), what);
    }

    /* typed: ints out, ints in, count differs from the send count */
    {
        int out[7], in[10];
        for (int i = 0; i < 7; i++)
            out[i] = mt_rank * 1000 + i;
        for (int i = 0; i < 10; i++)
            in[i] = -1;
        MPI_Sendrecv(out, 7, MPI_INT, right, 500, in, 10, MPI_INT, left, 500, MPI_COMM_WORLD, &st);
        MT_CHECK_STATUS(&st, left, 500, MPI_INT, 7, "MPI_Sendrecv of 7 ints");
        for (int i = 0; i < 7; i++)
            MT_CHECK_INT(left * 1000 + i, in[i], "MPI_Sendrecv int value");
        MT_CHECK_INT(-1, in[7], "MPI_Sendrecv: int beyond the message");
    }

    free(sbuf);
    free(rbuf);
    return mt_finish();
}
