/* isendrecv: MPI-4.0 MPI_Isendrecv and MPI_Isendrecv_replace around a ring (eager and large
 * messages, a strided datatype for the replace form), with MPI_PROC_NULL partners, completed
 * through MPI_Wait, MPI_Test loops and MPI_Waitall. (mpi4py's test_p2p_buf found nodempi
 * without them.) */
#include "../common/mpitest.h"

#if MPI_VERSION >= 4
static void ring(int n, int use_test)
{
    int right = mt_right(), left = mt_left();
    char *out = malloc((size_t)n + 1), *in = malloc((size_t)n + 1);
    mt_fill(out, (size_t)n, (uint64_t)(mt_rank * 1000 + n));
    MPI_Request req;
    MPI_Status st;
    MT_MPI(MPI_Isendrecv(out, n, MPI_BYTE, right, 11, in, n, MPI_BYTE, left, 11, MPI_COMM_WORLD,
                         &req));
    if (use_test) {
        int flag = 0;
        while (!flag)
            MT_MPI(MPI_Test(&req, &flag, &st));
    } else {
        MT_MPI(MPI_Wait(&req, &st));
    }
    MT_CHECK(req == MPI_REQUEST_NULL, "request not freed");
    MT_CHECK_STATUS(&st, left, 11, MPI_BYTE, n, "isendrecv status");
    MT_VERIFY(in, (size_t)n, (uint64_t)(left * 1000 + n), "isendrecv payload");
    free(out);
    free(in);
}

/* Every other int of a 2n-int buffer goes right; the left neighbour's ints land in place. */
static void ring_replace(int n)
{
    int right = mt_right(), left = mt_left();
    MPI_Datatype every_other;
    MT_MPI(MPI_Type_vector(n, 1, 2, MPI_INT, &every_other));
    MT_MPI(MPI_Type_commit(&every_other));
    int *buf = malloc(sizeof(int) * 2 * (size_t)n);
    for (int i = 0; i < 2 * n; i++)
        buf[i] = i % 2 ? -1 : mt_rank * 100000 + i;
    MPI_Request reqs[2];
    MPI_Status st[2];
    MT_MPI(MPI_Isendrecv_replace(buf, 1, every_other, right, 12, left, 12, MPI_COMM_WORLD,
                                 &reqs[0]));
    MT_MPI(MPI_Isendrecv_replace(NULL, 0, MPI_INT, MPI_PROC_NULL, 13, MPI_PROC_NULL, 13,
                                 MPI_COMM_WORLD, &reqs[1]));
    MT_MPI(MPI_Waitall(2, reqs, st));
    MT_CHECK_STATUS(&st[0], left, 12, every_other, 1, "replace status");
    MT_CHECK_PROCNULL_STATUS(&st[1], "replace with MPI_PROC_NULL");
    for (int i = 0; i < 2 * n; i++) {
        int want = i % 2 ? -1 : left * 100000 + i;
        if (buf[i] != want) {
            MT_CHECK_INT(want, buf[i], "replaced element");
            break;
        }
    }
    free(buf);
    MPI_Type_free(&every_other);
}
#endif

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    mt_set_errors_return(MPI_COMM_WORLD);
#if MPI_VERSION >= 4
    static const int sizes[] = {0, 1, 1000, 300000};
    for (int i = 0; i < 4; i++) {
        ring(sizes[i], 0);
        ring(sizes[i], 1);
    }
    ring_replace(10);
    ring_replace(100000);
    MPI_Request req;
    MPI_Status st;
    MT_MPI(MPI_Isendrecv(NULL, 0, MPI_INT, MPI_PROC_NULL, 1, NULL, 0, MPI_INT, MPI_PROC_NULL, 1,
                         MPI_COMM_WORLD, &req));
    MT_MPI(MPI_Wait(&req, &st));
    MT_CHECK_PROCNULL_STATUS(&st, "isendrecv with MPI_PROC_NULL");
#endif
    return mt_finish();
}
