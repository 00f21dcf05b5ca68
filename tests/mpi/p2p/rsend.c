/* rsend: ready mode around a ring. Every rank posts its receives, a barrier guarantees they
 * are posted everywhere, then MPI_Rsend / MPI_Irsend deliver 0 B, small and large messages;
 * data and statuses verified. */
#include "../common/mpitest.h"

static const int sizes[] = {0, 8, 100000, 2 << 20};
#define NSIZES ((int)(sizeof sizes / sizeof sizes[0]))

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    unsigned char *sbuf[NSIZES], *rbuf[NSIZES];
    MPI_Request rreq[NSIZES], sreq[NSIZES];
    MPI_Status st;
    char what[96];
    for (int s = 0; s < NSIZES; s++) {
        sbuf[s] = mt_malloc((size_t)sizes[s]);
        rbuf[s] = mt_malloc((size_t)sizes[s]);
    }

    for (int mode = 0; mode < 2; mode++) { /* 0: MPI_Rsend, 1: MPI_Irsend */
        const char *fn = mode ? "MPI_Irsend" : "MPI_Rsend";
        for (int s = 0; s < NSIZES; s++) {
            memset(rbuf[s], 0, (size_t)sizes[s]);
            MPI_Irecv(rbuf[s], sizes[s], MPI_BYTE, mt_left(), s, MPI_COMM_WORLD, &rreq[s]);
        }
        MPI_Barrier(MPI_COMM_WORLD); /* all receives are posted now */
        for (int s = 0; s < NSIZES; s++) {
            mt_fill(sbuf[s], (size_t)sizes[s], (uint64_t)(mode * 100 + s + 10 * mt_rank));
            if (mode)
                MPI_Irsend(sbuf[s], sizes[s], MPI_BYTE, mt_right(), s, MPI_COMM_WORLD, &sreq[s]);
            else
                MPI_Rsend(sbuf[s], sizes[s], MPI_BYTE, mt_right(), s, MPI_COMM_WORLD);
        }
        if (mode)
            MPI_Waitall(NSIZES, sreq, MPI_STATUSES_IGNORE);
        for (int s = 0; s < NSIZES; s++) {
            MPI_Wait(&rreq[s], &st);
            snprintf(what, sizeof what, "%s of %d bytes from %d", fn, sizes[s], mt_left());
            MT_CHECK_STATUS(&st, mt_left(), s, MPI_BYTE, sizes[s], what);
            MT_VERIFY(rbuf[s], (size_t)sizes[s], (uint64_t)(mode * 100 + s + 10 * mt_left()), what);
        }
        MPI_Barrier(MPI_COMM_WORLD); /* keep the two modes' messages apart */
    }

    for (int s = 0; s < NSIZES; s++) {
        free(sbuf[s]);
        free(rbuf[s]);
    }
    return mt_finish();
}
