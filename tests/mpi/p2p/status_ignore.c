/* status_ignore: MPI_STATUS_IGNORE and MPI_STATUSES_IGNORE accepted by every call returning a
 * status (Recv, Sendrecv, Sendrecv_replace, Probe, Iprobe, Mprobe, Mrecv, Wait, Test, Waitany,
 * Testany, Waitall, Testall, Waitsome, Testsome, Request_get_status) with data still delivered
 * correctly. Around a ring. */
#include "../common/mpitest.h"

#define N 4
#define LEN 1000

static int sval[N][LEN], rval[N][LEN];

static void fill_send(int round)
{
    for (int k = 0; k < N; k++)
        mt_fill(sval[k], sizeof sval[k], (uint64_t)(round * 100 + k * 10 + mt_rank));
    memset(rval, 0, sizeof rval);
}

static void verify_recv(int round, const char *what)
{
    char w[96];
    for (int k = 0; k < N; k++) {
        snprintf(w, sizeof w, "%s: message %d", what, k);
        MT_VERIFY(rval[k], sizeof rval[k], (uint64_t)(round * 100 + k * 10 + mt_left()), w);
    }
}

/* post N receives from the left and N sends to the right: req[0..N) receives, [N..2N) sends */
static void post(MPI_Request *req, int round)
{
    fill_send(round);
    for (int k = 0; k < N; k++)
        MPI_Irecv(rval[k], LEN, MPI_INT, mt_left(), k, MPI_COMM_WORLD, &req[k]);
    for (int k = 0; k < N; k++)
        MPI_Isend(sval[k], LEN, MPI_INT, mt_right(), k, MPI_COMM_WORLD, &req[N + k]);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    int left = mt_left(), right = mt_right(), round = 0;
    MPI_Request req[2 * N];
    int idx, flag, outcount, indices[2 * N];

    /* blocking calls */
    fill_send(++round);
    MPI_Sendrecv(sval[0], LEN, MPI_INT, right, 0, rval[0], LEN, MPI_INT, left, 0, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    memcpy(rval[1], sval[1], sizeof sval[1]);
    MPI_Sendrecv_replace(rval[1], LEN, MPI_INT, right, 1, left, 1, MPI_COMM_WORLD,
                         MPI_STATUS_IGNORE);
    MPI_Isend(sval[2], LEN, MPI_INT, right, 2, MPI_COMM_WORLD, &req[0]);
    MPI_Probe(left, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    flag = 0;
    while (!flag)
        MPI_Iprobe(left, 2, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
    MPI_Recv(rval[2], LEN, MPI_INT, left, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Wait(&req[0], MPI_STATUS_IGNORE);
    {
        MPI_Message msg;
        MPI_Isend(sval[3], LEN, MPI_INT, right, 3, MPI_COMM_WORLD, &req[0]);
        MPI_Mprobe(left, 3, MPI_COMM_WORLD, &msg, MPI_STATUS_IGNORE);
        MPI_Mrecv(rval[3], LEN, MPI_INT, &msg, MPI_STATUS_IGNORE);
        flag = 0;
        while (!flag)
            MPI_Test(&req[0], &flag, MPI_STATUS_IGNORE);
    }
    verify_recv(round, "blocking calls with MPI_STATUS_IGNORE");

    /* Waitall / Testall with MPI_STATUSES_IGNORE */
    post(req, ++round);
    MPI_Waitall(2 * N, req, MPI_STATUSES_IGNORE);
    verify_recv(round, "MPI_Waitall(MPI_STATUSES_IGNORE)");
    post(req, ++round);
    flag = 0;
    while (!flag)
        MPI_Testall(2 * N, req, &flag, MPI_STATUSES_IGNORE);
    verify_recv(round, "MPI_Testall(MPI_STATUSES_IGNORE)");

    /* Waitany / Testany with MPI_STATUS_IGNORE */
    post(req, ++round);
    for (int n = 0; n < 2 * N; n++)
        MPI_Waitany(2 * N, req, &idx, MPI_STATUS_IGNORE);
    MPI_Waitany(2 * N, req, &idx, MPI_STATUS_IGNORE);
    MT_CHECK_INT(MPI_UNDEFINED, idx, "MPI_Waitany after all completed");
    verify_recv(round, "MPI_Waitany(MPI_STATUS_IGNORE)");
    post(req, ++round);
    for (int n = 0; n < 2 * N;) {
        MPI_Testany(2 * N, req, &idx, &flag, MPI_STATUS_IGNORE);
        if (flag && idx != MPI_UNDEFINED)
            n++;
    }
    verify_recv(round, "MPI_Testany(MPI_STATUS_IGNORE)");

    /* Waitsome / Testsome with MPI_STATUSES_IGNORE */
    post(req, ++round);
    for (int n = 0; n < 2 * N;) {
        MPI_Waitsome(2 * N, req, &outcount, indices, MPI_STATUSES_IGNORE);
        MT_ASSERT(outcount != MPI_UNDEFINED, "MPI_Waitsome: MPI_UNDEFINED too early");
        n += outcount;
    }
    verify_recv(round, "MPI_Waitsome(MPI_STATUSES_IGNORE)");
    post(req, ++round);
    for (int n = 0; n < 2 * N;) {
        MPI_Testsome(2 * N, req, &outcount, indices, MPI_STATUSES_IGNORE);
        MT_ASSERT(outcount != MPI_UNDEFINED, "MPI_Testsome: MPI_UNDEFINED too early");
        n += outcount;
    }
    verify_recv(round, "MPI_Testsome(MPI_STATUSES_IGNORE)");

    /* Request_get_status with MPI_STATUS_IGNORE */
    post(req, ++round);
    for (int k = 0; k < 2 * N; k++) {
        flag = 0;
        while (!flag)
            MPI_Request_get_status(req[k], &flag, MPI_STATUS_IGNORE);
        MPI_Wait(&req[k], MPI_STATUS_IGNORE);
    }
    verify_recv(round, "MPI_Request_get_status(MPI_STATUS_IGNORE)");

    return mt_finish();
}
