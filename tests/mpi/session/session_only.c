/* session_only: the sessions model without MPI_Init: a session, the group of mpi://WORLD, a
 * communicator from it, collectives and point-to-point on it, finalize; MPI_Initialized and
 * MPI_Finalized stay 0 throughout (they describe the world model only). A second session after
 * the first one ended must work again (MPI-4: sessions may be started any number of times).
 * MPICH 4.0.2 crashes in MPI_Session_init with MPI_INFO_NULL and when a session starts after
 * the last one ended: the first epoch passes an (empty) info, the second runs on others only. */
#include "mpitest.h"

static void world_model_flags_zero(const char *when)
{
    int flag = -1;
    MPI_Initialized(&flag);
    MT_CHECK_INT(0, flag, when);
    flag = -1;
    MPI_Finalized(&flag);
    MT_CHECK_INT(0, flag, when);
}

/* One epoch: session, communicator from mpi://WORLD, allreduce, ring exchange, teardown. */
static void epoch(int round, MPI_Info info, int *size_seen)
{
    MPI_Session session = MPI_SESSION_NULL;
    MT_MPI(MPI_Session_init(info, MPI_ERRORS_RETURN, &session));
    MT_CHECK(session != MPI_SESSION_NULL, "MPI_Session_init returned MPI_SESSION_NULL");
    world_model_flags_zero("MPI_Initialized/Finalized with a session open");

    MPI_Group group = MPI_GROUP_NULL;
    MT_MPI(MPI_Group_from_session_pset(session, "mpi://WORLD", &group));
    int gsize = 0, grank = -1;
    MPI_Group_size(group, &gsize);
    MPI_Group_rank(group, &grank);

    MPI_Comm comm = MPI_COMM_NULL;
    MT_MPI(MPI_Comm_create_from_group(group, "org.nodempi.test.session_only", MPI_INFO_NULL,
                                      MPI_ERRORS_RETURN, &comm));
    MPI_Comm_rank(comm, &mt_rank);
    MPI_Comm_size(comm, &mt_size);
    MT_CHECK_INT(gsize, mt_size, "communicator size = pset group size");
    MT_CHECK_INT(grank, mt_rank, "communicator rank = pset group rank");
    *size_seen = mt_size;
    /* of the predefined attributes a session's communicator carries MPI_TAG_UB alone (nodempi,
     * as Open MPI 5; MPICH answers them all) */
    int *attr, flag = 0;
    MT_MPI(MPI_Comm_get_attr(comm, MPI_TAG_UB, &attr, &flag));
    MT_CHECK(flag && *attr >= 32767, "MPI_TAG_UB on a session's communicator");
    if (mt_library_is("nodempi")) {
        MT_MPI(MPI_Comm_get_attr(comm, MPI_HOST, &attr, &flag));
        MT_CHECK(!flag, "no MPI_HOST on a session's communicator");
        MT_MPI(MPI_Comm_get_attr(comm, MPI_WTIME_IS_GLOBAL, &attr, &flag));
        MT_CHECK(!flag, "no MPI_WTIME_IS_GLOBAL on a session's communicator");
    }

    long mine = 100 * round + mt_rank + 1, sum = 0;
    MT_MPI(MPI_Allreduce(&mine, &sum, 1, MPI_LONG, MPI_SUM, comm));
    long expected = 0;
    for (int r = 0; r < mt_size; r++)
        expected += 100 * round + r + 1;
    MT_CHECK_INT(expected, sum, "allreduce over the session communicator");

    enum { N = 3000 }; /* more than one cache line: not only the inline eager path */
    int *out = mt_malloc(sizeof(int) * N), *in = mt_malloc(sizeof(int) * N);
    for (int i = 0; i < N; i++)
        out[i] = mt_rank * 1000003 + i + round;
    MPI_Status status;
    MT_MPI(MPI_Sendrecv(out, N, MPI_INT, mt_right(), 7, in, N, MPI_INT, mt_left(), 7, comm,
                        &status));
    for (int i = 0; i < N; i++)
        if (in[i] != mt_left() * 1000003 + i + round) {
            MT_CHECK_INT(mt_left() * 1000003 + i + round, in[i], "ring element");
            break;
        }
    MT_CHECK_INT(mt_left(), status.MPI_SOURCE, "ring status source");
    free(out);
    free(in);

    MT_MPI(MPI_Comm_free(&comm));
    MT_MPI(MPI_Group_free(&group));
    MT_MPI(MPI_Session_finalize(&session));
    MT_CHECK(session == MPI_SESSION_NULL, "MPI_Session_finalize did not set MPI_SESSION_NULL");
    world_model_flags_zero("MPI_Initialized/Finalized after MPI_Session_finalize");
}

int main(void)
{
    world_model_flags_zero("MPI_Initialized/Finalized before any session");
    int size_first = 0, size_second = 0;
    MPI_Info info; /* MPI-4: info objects need neither MPI_Init nor a session */
    MT_MPI(MPI_Info_create(&info));
    epoch(1, info, &size_first);
    MT_MPI(MPI_Info_free(&info));
    if (!mt_library_is("MPICH")) {
        epoch(2, MPI_INFO_NULL, &size_second);
        MT_CHECK_INT(size_first, size_second, "mpi://WORLD size in both epochs");
    }
    /* No communicator is left to sum failures over: each rank reports its own. */
    if (mt_errors == 0 && mt_rank == 0)
        printf("No errors\n");
    return mt_errors ? 1 : 0;
}
