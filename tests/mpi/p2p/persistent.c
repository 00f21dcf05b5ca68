/* persistent: MPI_Send_init, MPI_Bsend_init, MPI_Ssend_init, MPI_Rsend_init with MPI_Recv_init
 * around a ring, small and large, started repeatedly (MPI_Start and MPI_Startall, completed
 * with Wait/Waitall/Testall) with new data each iteration; requests stay allocated after
 * completion; Wait/Test on an inactive persistent request return at once with an empty
 * status; MPI_Request_free of the inactive requests. */
#include "../common/mpitest.h"

#define ITER 5
static const int counts[2] = {2, 65536}; /* ints */
static const char *kind_name[4] = {"MPI_Send_init", "MPI_Bsend_init", "MPI_Ssend_init",
                                   "MPI_Rsend_init"};

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    int left = mt_left(), right = mt_right();
    int ompi = mt_library_is("Open MPI");
    int *sbuf = mt_malloc(sizeof(int) * 65536), *rbuf = mt_malloc(sizeof(int) * 65536);
    MPI_Status st[2];
    char what[128];

    int psize = 0;
    MPI_Pack_size(65536, MPI_INT, MPI_COMM_WORLD, &psize);
    /* a rank may run all iterations ahead of its right neighbour (buffered sends are local),
     * so the buffer must hold every message of both sizes */
    int bsize = 2 * ITER * (psize + MPI_BSEND_OVERHEAD);
    void *bbuf = mt_malloc((size_t)bsize);
    MPI_Buffer_attach(bbuf, bsize);

    for (int kind = 0; kind < 4; kind++) {
        for (int c = 0; c < 2; c++) {
            int n = counts[c], tag = kind * 10 + c;
            MPI_Request req[2]; /* [0] receive, [1] send */
            MPI_Recv_init(rbuf, n, MPI_INT, left, tag, MPI_COMM_WORLD, &req[0]);
            if (kind == 0)
                MPI_Send_init(sbuf, n, MPI_INT, right, tag, MPI_COMM_WORLD, &req[1]);
            else if (kind == 1)
                MPI_Bsend_init(sbuf, n, MPI_INT, right, tag, MPI_COMM_WORLD, &req[1]);
            else if (kind == 2)
                MPI_Ssend_init(sbuf, n, MPI_INT, right, tag, MPI_COMM_WORLD, &req[1]);
            else
                MPI_Rsend_init(sbuf, n, MPI_INT, right, tag, MPI_COMM_WORLD, &req[1]);

            for (int it = 0; it < ITER; it++) {
                uint64_t seed = (uint64_t)(1000 * it + tag);
                mt_fill(sbuf, sizeof(int) * (size_t)n, seed + 100000 * (uint64_t)mt_rank);
                memset(rbuf, 0, sizeof(int) * (size_t)n);
                if (kind == 3) { /* ready mode: receive must be active everywhere first */
                    MPI_Start(&req[0]);
                    MPI_Barrier(MPI_COMM_WORLD);
                    MPI_Start(&req[1]);
                } else if (it % 2) {
                    MPI_Startall(2, req);
                } else {
                    MPI_Start(&req[0]);
                    MPI_Start(&req[1]);
                }
                if (it % 3 == 0) {
                    MPI_Wait(&req[1], &st[1]);
                    MPI_Wait(&req[0], &st[0]);
                } else if (it % 3 == 1) {
                    MPI_Waitall(2, req, st);
                } else {
                    int flag = 0;
                    while (!flag)
                        MPI_Testall(2, req, &flag, st);
                }
                MT_CHECK(req[0] != MPI_REQUEST_NULL && req[1] != MPI_REQUEST_NULL,
                         "%s: persistent request freed by completion", kind_name[kind]);
                snprintf(what, sizeof what, "%s iteration %d: %d ints from %d", kind_name[kind],
                         it, n, left);
                MT_CHECK_STATUS(&st[0], left, tag, MPI_INT, n, what);
                /* Known deviation: Open MPI 4.1 does not repack the user buffer when a
                 * persistent buffered send is restarted (open-mpi/ompi#12797, fixed later),
                 * so restarts carry stale bytes; data checked only for the first start there. */
                if (!(kind == 1 && it > 0 && ompi))
                    MT_VERIFY(rbuf, sizeof(int) * (size_t)n, seed + 100000 * (uint64_t)left, what);
            }

            /* inactive persistent requests complete at once with an empty status */
            int flag = 0;
            mt_poison_status(&st[0]);
            MPI_Wait(&req[0], &st[0]);
            MT_CHECK_EMPTY_STATUS(&st[0], "MPI_Wait on an inactive persistent receive");
            MT_CHECK(req[0] != MPI_REQUEST_NULL, "MPI_Wait freed an inactive persistent request");
            mt_poison_status(&st[0]);
            MPI_Test(&req[0], &flag, &st[0]);
            MT_CHECK_INT(1, flag, "MPI_Test on an inactive persistent receive: flag");
            MT_CHECK_EMPTY_STATUS(&st[0], "MPI_Test on an inactive persistent receive");

            MPI_Request_free(&req[0]);
            MPI_Request_free(&req[1]);
            MT_CHECK(req[0] == MPI_REQUEST_NULL && req[1] == MPI_REQUEST_NULL,
                     "MPI_Request_free of inactive persistent requests");
        }
    }

    void *addr;
    int size;
    MPI_Buffer_detach(&addr, &size);
    free(bbuf);
    free(sbuf);
    free(rbuf);
    return mt_finish();
}
