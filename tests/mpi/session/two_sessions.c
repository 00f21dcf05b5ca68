/* two_sessions: two sessions open at once, each with its own error handler and its own
 * communicators. Communicators from different sessions over the same process set are separate
 * communication spaces; ending the first session leaves the second one working. */
#include "mpitest.h"

static int handler_calls;

static void count_errors(MPI_Session *session, int *code, ...)
{
    (void)session;
    (void)code;
    handler_calls++;
}

/* MPI_Session_init with a handler; MPICH 4.0.2 ignores that argument (its sessions start with
 * MPI_ERRORS_ARE_FATAL), so there the handler is set again explicitly. */
static void session_init(MPI_Info info, MPI_Errhandler errhandler, MPI_Session *session)
{
    MT_MPI(MPI_Session_init(info, errhandler, session));
    if (mt_library_is("MPICH"))
        MT_MPI(MPI_Session_set_errhandler(*session, errhandler));
}

static MPI_Comm comm_from_pset(MPI_Session session, const char *pset, const char *tag)
{
    MPI_Group group;
    MPI_Comm comm = MPI_COMM_NULL;
    MT_MPI(MPI_Group_from_session_pset(session, pset, &group));
    MT_MPI(MPI_Comm_create_from_group(group, tag, MPI_INFO_NULL, MPI_ERRORS_RETURN, &comm));
    MT_MPI(MPI_Group_free(&group));
    return comm;
}

static void check_allreduce(MPI_Comm comm, int salt, const char *what)
{
    int rank, size, sum = -1, mine;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    mine = rank * salt;
    MT_MPI(MPI_Allreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, comm));
    MT_CHECK_INT(salt * size * (size - 1) / 2, sum, what);
}

int main(void)
{
    MPI_Info info; /* an empty info: MPICH 4.0.2 crashes on MPI_INFO_NULL */
    MPI_Errhandler counting;
    MPI_Session first = MPI_SESSION_NULL, second = MPI_SESSION_NULL;
    MT_MPI(MPI_Info_create(&info));
    session_init(info, MPI_ERRORS_RETURN, &first);
    /* Made once a session exists: MPICH 4.0.2 refuses it before (nodempi does not). */
    MT_MPI(MPI_Session_create_errhandler(count_errors, &counting));
    session_init(info, counting, &second);
    MT_MPI(MPI_Info_free(&info));
    MT_CHECK(first != second, "two open sessions have the same handle");

    MPI_Comm one = comm_from_pset(first, "mpi://WORLD", "two_sessions.one");
    MPI_Comm two = comm_from_pset(second, "mpi://WORLD", "two_sessions.two");
    MPI_Comm self = comm_from_pset(second, "mpi://SELF", "two_sessions.self");
    MPI_Comm_rank(one, &mt_rank);
    MPI_Comm_size(one, &mt_size);
    int rank_two = -1, size_self = 0;
    MPI_Comm_rank(two, &rank_two);
    MPI_Comm_size(self, &size_self);
    MT_CHECK_INT(mt_rank, rank_two, "rank in the second session's mpi://WORLD communicator");
    MT_CHECK_INT(1, size_self, "size of mpi://SELF");

    /* Same source and tag on both: each receive must get its own communicator's message,
     * although the second communicator's message is sent first. */
    int got_one = -1, got_two = -1, out_one = 100 + mt_rank, out_two = 200 + mt_rank;
    MPI_Request reqs[4];
    MPI_Irecv(&got_one, 1, MPI_INT, mt_left(), 3, one, &reqs[0]);
    MPI_Irecv(&got_two, 1, MPI_INT, mt_left(), 3, two, &reqs[1]);
    MPI_Isend(&out_two, 1, MPI_INT, mt_right(), 3, two, &reqs[2]);
    MPI_Isend(&out_one, 1, MPI_INT, mt_right(), 3, one, &reqs[3]);
    MT_MPI(MPI_Waitall(4, reqs, MPI_STATUSES_IGNORE));
    MT_CHECK_INT(100 + mt_left(), got_one, "message on the first session's communicator");
    MT_CHECK_INT(200 + mt_left(), got_two, "message on the second session's communicator");
    check_allreduce(one, 3, "allreduce on the first session's communicator");
    check_allreduce(two, 5, "allreduce on the second session's communicator");
    int self_value = 7 + mt_rank, self_sum = -1;
    MT_MPI(MPI_Allreduce(&self_value, &self_sum, 1, MPI_INT, MPI_SUM, self));
    MT_CHECK_INT(7 + mt_rank, self_sum, "allreduce on mpi://SELF");

    /* Each session keeps its own handler. */
    MPI_Errhandler eh = MPI_ERRHANDLER_NULL;
    MT_MPI(MPI_Session_get_errhandler(first, &eh));
    if (!mt_library_is("MPICH")) /* MPICH 4.0.2 hands out a different handle */
        MT_CHECK(eh == MPI_ERRORS_RETURN, "first session's handler is not MPI_ERRORS_RETURN");
    MPI_Errhandler_free(&eh);
    MT_MPI(MPI_Session_call_errhandler(second, MPI_ERR_OTHER));
    MT_CHECK_INT(1, handler_calls, "calls of the second session's handler");
    MT_MPI(MPI_Session_call_errhandler(first, MPI_ERR_OTHER));
    MT_CHECK_INT(1, handler_calls, "the first session's call reached the second's handler");

    /* End the first session; the second and its communicators carry on. */
    MT_MPI(MPI_Comm_free(&one));
    MT_MPI(MPI_Session_finalize(&first));
    MT_CHECK(first == MPI_SESSION_NULL, "MPI_Session_finalize did not set MPI_SESSION_NULL");
    check_allreduce(two, 11, "second session's allreduce after the first session ended");
    MPI_Comm again = comm_from_pset(second, "mpi://WORLD", "two_sessions.again");
    check_allreduce(again, 13, "a new communicator of the second session");

    long total = 0;
    MPI_Allreduce(&mt_errors, &total, 1, MPI_LONG, MPI_SUM, again);
    MT_MPI(MPI_Comm_free(&again));
    MT_MPI(MPI_Comm_free(&self));
    MT_MPI(MPI_Comm_free(&two));
    MT_MPI(MPI_Errhandler_free(&counting));
    MT_MPI(MPI_Session_finalize(&second));
    if (mt_rank == 0) {
        if (total == 0)
            printf("No errors\n");
        else
            fprintf(stderr, "FAILED: %ld check(s) failed in total\n", total);
    }
    return mt_errors ? 1 : 0;
}
