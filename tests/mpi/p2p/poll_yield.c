/* poll_yield: a process whose nonblocking calls keep finding nothing gives its core away when
 * the job is oversubscribed (src/core/progress.c, core_progress_poll), and only then; seen
 * through the MPI_T counter nodempi_progress_poll_yields. Rank 0 polls MPI_Test, MPI_Testany
 * and MPI_Iprobe for messages rank 1 sends after sleeping outside MPI; the messages must arrive
 * intact either way. mpiexec gives every rank NODEMPI_NCORES (the CPUs the job counts as its
 * own; the testlist lowers it to 1 to make 2 ranks oversubscribed). */
#include "mpitest.h"
#include "mt_mpit.h"

#include <stdlib.h>
#include <string.h>

enum { TAG = 9, COUNT = 1000 };

static MPI_T_pvar_session session;
static MPI_T_pvar_handle yields;

static unsigned long long yield_count(void) { return mt_pvar_read(session, yields); }

/* Does this run give cores away? (mpiexec's NODEMPI_NCORES below the rank count, not spin) */
static int expect_yields(void)
{
    const char *ncores = getenv("NODEMPI_NCORES"), *wait = getenv("NODEMPI_WAIT");
    if (wait && strcmp(wait, "spin") == 0)
        return 0;
    return ncores && atoi(ncores) > 0 && atoi(ncores) < mt_size;
}

static void check_yields(unsigned long long before, const char *call)
{
    unsigned long long n = yield_count() - before;
    if (expect_yields())
        MT_CHECK(n >= 1, "oversubscribed: 0.1 s of empty %s polls never yielded", call);
    else
        MT_CHECK(n == 0, "not oversubscribed: %s polls yielded %llu times", call, n);
}

int main(int argc, char **argv)
{
    mt_init_with_mpit(&argc, &argv);
    mt_require_ranks(2);
    session = mt_pvar_session_create();
    yields = mt_pvar_counter(session, "nodempi_progress_poll_yields");
    int data[COUNT];

    for (int round = 0; round < 3; round++) {
        MPI_Barrier(MPI_COMM_WORLD);
        if (mt_rank == 1) {
            mt_sleep(0.1);
            for (int i = 0; i < COUNT; i++)
                data[i] = round * COUNT + i;
            MPI_Send(data, COUNT, MPI_INT, 0, TAG, MPI_COMM_WORLD);
        } else if (mt_rank == 0) {
            memset(data, 0, sizeof data);
            unsigned long long before = yield_count();
            MPI_Request request;
            int done = 0, which;
            MPI_Status status;
            const char *call = round == 0 ? "MPI_Test" : round == 1 ? "MPI_Testany" : "MPI_Iprobe";
            if (round < 2) {
                MPI_Irecv(data, COUNT, MPI_INT, MPI_ANY_SOURCE, TAG, MPI_COMM_WORLD, &request);
                while (!done) {
                    if (round == 0)
                        MPI_Test(&request, &done, &status);
                    else
                        MPI_Testany(1, &request, &which, &done, &status);
                }
            } else {
                while (!done)
                    MPI_Iprobe(1, TAG, MPI_COMM_WORLD, &done, &status);
                MPI_Recv(data, COUNT, MPI_INT, 1, TAG, MPI_COMM_WORLD, &status);
            }
            check_yields(before, call);
            MT_CHECK_INT(1, status.MPI_SOURCE, "source");
            for (int i = 0; i < COUNT; i++)
                if (data[i] != round * COUNT + i) {
                    MT_CHECK(0, "%s round: element %d is %d, expected %d", call, i, data[i],
                             round * COUNT + i);
                    break;
                }
        }
    }
    return mt_finish_with_mpit(&session);
}
