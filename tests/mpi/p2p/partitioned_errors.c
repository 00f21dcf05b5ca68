/* partitioned_errors: a partitioned receive smaller than its send completes each round with
 * MPI_ERR_TRUNCATE, keeps the part that fits and stays usable for the next round; argument
 * errors (MPI_Pready on an inactive request, a partition out of range, a partition marked
 * twice, MPI_Parrived on a send request, wildcards in the init calls, MPI_Cancel and
 * MPI_Request_free of an active request) give their error classes. nodempi's behaviour: the standard calls these erroneous, and MPICH 4.0.2 crashes on
 * some of them, so other MPIs only run the matched exchange at the end. */
#include "../common/mpitest.h"

static void truncation(void)
{
    int buf[16];
    MPI_Request r = MPI_REQUEST_NULL;
    for (int round = 0; round < 2; round++) {
        if (mt_rank == 1) {
            for (int i = 0; i < 16; i++)
                buf[i] = -1;
            if (round == 0)
                MT_MPI(MPI_Precv_init(buf, 2, 4, MPI_INT, 0, 5, MPI_COMM_WORLD, MPI_INFO_NULL,
                                      &r));
            MT_MPI(MPI_Start(&r));
            MT_CHECK_ERRCLASS(MPI_Wait(&r, MPI_STATUS_IGNORE), MPI_ERR_TRUNCATE,
                              "short receive");
            for (int i = 0; i < 8; i++)
                MT_CHECK_INT(i + round, buf[i], "the part that fits");
            MT_CHECK_INT(-1, buf[8], "nothing beyond the receive buffer");
        } else if (mt_rank == 0) {
            for (int i = 0; i < 16; i++)
                buf[i] = i + round;
            if (round == 0)
                MT_MPI(MPI_Psend_init(buf, 2, 8, MPI_INT, 1, 5, MPI_COMM_WORLD, MPI_INFO_NULL,
                                      &r));
            MT_MPI(MPI_Start(&r));
            MT_MPI(MPI_Pready(1, r));
            MT_MPI(MPI_Pready(0, r));
            MT_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
        }
        MPI_Barrier(MPI_COMM_WORLD);
    }
    if (r != MPI_REQUEST_NULL)
        MT_MPI(MPI_Request_free(&r));
}

static void argument_errors(void)
{
    int buf[4] = {0};
    MPI_Request r;
    int flag;
    MT_MPI(MPI_Psend_init(buf, 4, 1, MPI_INT, MPI_PROC_NULL, 5, MPI_COMM_WORLD, MPI_INFO_NULL,
                          &r));
    MT_CHECK_ERRCLASS(MPI_Pready(0, r), MPI_ERR_REQUEST, "MPI_Pready before MPI_Start");
    MT_MPI(MPI_Start(&r));
    MT_CHECK_ERRCLASS(MPI_Pready(4, r), MPI_ERR_ARG, "MPI_Pready(4) of 4 partitions");
    MT_CHECK_ERRCLASS(MPI_Pready_range(2, 1, r), MPI_ERR_ARG, "MPI_Pready_range(2, 1)");
    MT_MPI(MPI_Pready(1, r));
    MT_CHECK_ERRCLASS(MPI_Pready(1, r), MPI_ERR_ARG, "MPI_Pready(1) twice in a round");
    MT_CHECK_ERRCLASS(MPI_Parrived(r, 0, &flag), MPI_ERR_REQUEST,
                      "MPI_Parrived on a send request");
    int list[3] = {0, 2, 3};
    MT_MPI(MPI_Pready_list(3, list, r));
    MT_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    MT_MPI(MPI_Request_free(&r));
    MT_CHECK_ERRCLASS(MPI_Psend_init(buf, 4, 1, MPI_INT, 0, MPI_ANY_TAG, MPI_COMM_WORLD,
                                     MPI_INFO_NULL, &r),
                      MPI_ERR_TAG, "MPI_Psend_init with MPI_ANY_TAG");
    MT_CHECK_ERRCLASS(MPI_Precv_init(buf, 4, 1, MPI_INT, MPI_ANY_SOURCE, 1, MPI_COMM_WORLD,
                                     MPI_INFO_NULL, &r),
                      MPI_ERR_RANK, "MPI_Precv_init from MPI_ANY_SOURCE");
    MT_CHECK_ERRCLASS(MPI_Precv_init(buf, -1, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_INFO_NULL,
                                     &r),
                      MPI_ERR_ARG, "MPI_Precv_init with -1 partitions");
}

/* A correct exchange after the errors: nothing was left half-matched. */
static void exchange(void)
{
    int out[6], in[6];
    MPI_Request s, r;
    for (int i = 0; i < 6; i++) {
        out[i] = mt_rank * 10 + i;
        in[i] = -1;
    }
    MT_MPI(MPI_Precv_init(in, 2, 3, MPI_INT, mt_left(), 5, MPI_COMM_WORLD, MPI_INFO_NULL, &r));
    MT_MPI(MPI_Psend_init(out, 3, 2, MPI_INT, mt_right(), 5, MPI_COMM_WORLD, MPI_INFO_NULL, &s));
    MT_MPI(MPI_Start(&r));
    MT_MPI(MPI_Start(&s));
    if (mt_library_is("nodempi")) { /* erroneous; refused, and the round goes on unharmed */
        MT_CHECK_ERRCLASS(MPI_Cancel(&s), MPI_ERR_REQUEST, "MPI_Cancel of an active Psend");
        MT_CHECK_ERRCLASS(MPI_Cancel(&r), MPI_ERR_REQUEST, "MPI_Cancel of an active Precv");
        MPI_Request keep = r;
        MT_CHECK_ERRCLASS(MPI_Request_free(&r), MPI_ERR_REQUEST,
                          "MPI_Request_free of an active Precv");
        MT_CHECK(r == keep, "the refused MPI_Request_free leaves the handle");
        MT_CHECK_ERRCLASS(MPI_Request_free(&s), MPI_ERR_REQUEST,
                          "MPI_Request_free of an active Psend");
        MPI_Barrier(MPI_COMM_WORLD); /* no partition is ready before every rank checked */
    }
    MT_MPI(MPI_Pready_range(0, 2, s));
    MT_MPI(MPI_Wait(&s, MPI_STATUS_IGNORE));
    MT_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    for (int i = 0; i < 6; i++)
        MT_CHECK_INT(mt_left() * 10 + i, in[i], "exchange after the errors");
    MT_MPI(MPI_Request_free(&s));
    MT_MPI(MPI_Request_free(&r));
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    mt_set_errors_return(MPI_COMM_WORLD);
    mt_set_errors_return(MPI_COMM_SELF);
    if (mt_library_is("nodempi")) {
        truncation();
        argument_errors();
    }
    exchange();
    return mt_finish();
}
