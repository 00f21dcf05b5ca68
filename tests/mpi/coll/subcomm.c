/* subcomm.c - collectives on sub-communicators: MPI_Comm_split by parity and in reverse key
 * order, MPI_Comm_dup; nonblocking collectives in flight on MPI_COMM_WORLD, a dup and a split
 * at the same time (each must match only its own traffic), blocking collectives on the split
 * meanwhile, and user point-to-point traffic with the same tags that collectives must not
 * intercept. */
#include "mpitest.h"

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    MPI_Comm half, dup, rev;
    MPI_Comm_split(MPI_COMM_WORLD, mt_rank % 2, mt_rank, &half);
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Comm_split(MPI_COMM_WORLD, 0, mt_size - mt_rank, &rev); /* rank order reversed */
    int hrank, hsize, rrank;
    MPI_Comm_rank(half, &hrank);
    MPI_Comm_size(half, &hsize);
    MPI_Comm_rank(rev, &rrank);
    MT_CHECK(rrank == mt_size - 1 - mt_rank, "reverse split rank %d", rrank);

    for (int iter = 0; iter < 20; iter++) {
        MPI_Request reqs[3];
        int w = mt_rank + iter, wsum = -1, d = 1, dsum = -1;
        int hb = hrank == 0 ? 1000 * (mt_rank % 2) + iter : -1;
        /* user message on world with tag 0, received after the collectives */
        int token = mt_rank * 7 + iter, got = -1;
        MPI_Request sreq;
        MPI_Isend(&token, 1, MPI_INT, mt_right(), 0, MPI_COMM_WORLD, &sreq);
        MT_MPI(MPI_Iallreduce(&w, &wsum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &reqs[0]));
        MT_MPI(MPI_Iallreduce(&d, &dsum, 1, MPI_INT, MPI_SUM, dup, &reqs[1]));
        MT_MPI(MPI_Ibcast(&hb, 1, MPI_INT, 0, half, &reqs[2]));

        /* blocking scan on the reversed communicator meanwhile */
        int one = rrank, prefix = -1;
        MT_MPI(MPI_Scan(&one, &prefix, 1, MPI_INT, MPI_SUM, rev));
        MT_CHECK(prefix == rrank * (rrank + 1) / 2, "Scan on reversed comm = %d", prefix);

        /* gather on half to its root, with half's ranks */
        int *all = mt_malloc(sizeof(int) * hsize);
        MT_MPI(MPI_Gather(&mt_rank, 1, MPI_INT, all, 1, MPI_INT, 0, half));
        if (hrank == 0)
            for (int r = 0; r < hsize; r++)
                MT_CHECK(all[r] == 2 * r + mt_rank % 2, "Gather on half: [%d] = %d", r, all[r]);
        free(all);

        MT_MPI(MPI_Waitall(3, reqs, MPI_STATUSES_IGNORE));
        MPI_Recv(&got, 1, MPI_INT, mt_left(), 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Wait(&sreq, MPI_STATUS_IGNORE);
        MT_CHECK(got == mt_left() * 7 + iter, "user message = %d", got);
        MT_CHECK(wsum == mt_size * (mt_size - 1) / 2 + mt_size * iter, "world Iallreduce = %d",
                 wsum);
        MT_CHECK(dsum == mt_size, "dup Iallreduce = %d", dsum);
        MT_CHECK(hb == 1000 * (mt_rank % 2) + iter, "half Ibcast = %d", hb);
    }
    MPI_Comm_free(&half);
    MPI_Comm_free(&dup);
    MPI_Comm_free(&rev);

    /* communicators created and freed repeatedly keep working (state reuse) */
    for (int k = 0; k < 10; k++) {
        MPI_Comm c;
        int v = 1, s = 0;
        MPI_Comm_split(MPI_COMM_WORLD, mt_rank % 3, -mt_rank, &c);
        MT_MPI(MPI_Allreduce(&v, &s, 1, MPI_INT, MPI_SUM, c));
        int csize;
        MPI_Comm_size(c, &csize);
        MT_CHECK(s == csize, "Allreduce on split %d: %d", k, s);
        MPI_Comm_free(&c);
    }
    return mt_finish();
}
