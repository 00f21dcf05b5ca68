/* errors: error handlers on sessions and bad arguments. A session's errors go to its handler:
 * the one given to MPI_Session_init (kept alive by the session after MPI_Errhandler_free), then
 * the one MPI_Session_set_errhandler installs; MPI_Session_call_errhandler reaches it. Unknown
 * process set names and an out-of-range n are MPI_ERR_ARG; an invalid session (MPI_SESSION_NULL,
 * a finalized handle) is MPI_ERR_SESSION, raised where errors without an object go (tested under
 * MPI_Init with MPI_ERRORS_RETURN on MPI_COMM_SELF and MPI_COMM_WORLD).
 * MPICH 4.0.2 differences, tolerated: it ignores MPI_Session_init's handler (set again here),
 * hands out new handles from MPI_Session_get_errhandler, aborts on unknown process set names
 * whatever the handler, crashes on an out-of-range n and on finalized handles (those checks
 * run on other MPIs only). */
#include "mpitest.h"

static int handler_calls, last_code;
static MPI_Session last_session = MPI_SESSION_NULL;

static void record(MPI_Session *session, int *code, ...)
{
    handler_calls++;
    last_code = *code;
    last_session = *session;
}

static void session_init(MPI_Info info, MPI_Errhandler errhandler, MPI_Session *session)
{
    MT_MPI(MPI_Session_init(info, errhandler, session));
    if (mt_library_is("MPICH"))
        MT_MPI(MPI_Session_set_errhandler(*session, errhandler));
}

/* rc must be of class expected and the recording handler must have seen it on session. */
static void check_handled(int rc, int expected, MPI_Session session, int calls_before,
                          const char *what)
{
    MT_CHECK_ERRCLASS(rc, expected, what);
    MT_CHECK_INT(calls_before + 1, handler_calls, what);
    MT_CHECK_ERRCLASS(last_code, expected, what);
    MT_CHECK(last_session == session, "%s: handler saw another session", what);
}

/* Bad process set names and indices, a handler of the wrong kind: MPI_ERR_ARG, on the
 * session's own handler; the other session's (MPI_ERRORS_RETURN) is left alone. */
static void bad_arguments(MPI_Session plain, MPI_Session watched)
{
    MPI_Group group = MPI_GROUP_NULL;
    int calls = handler_calls;
    int rc = MPI_Group_from_session_pset(watched, "mpi://NO_SUCH_SET", &group);
    check_handled(rc, MPI_ERR_ARG, watched, calls, "MPI_Group_from_session_pset unknown name");
    MT_CHECK(group == MPI_GROUP_NULL, "a group was returned for an unknown process set");

    MPI_Info info = MPI_INFO_NULL;
    calls = handler_calls;
    rc = MPI_Session_get_pset_info(watched, "mpi://nowhere", &info);
    check_handled(rc, MPI_ERR_ARG, watched, calls, "MPI_Session_get_pset_info unknown name");
    MT_CHECK(info == MPI_INFO_NULL, "an info was returned for an unknown process set");
    calls = handler_calls;
    rc = MPI_Session_get_pset_info(watched, "", &info);
    check_handled(rc, MPI_ERR_ARG, watched, calls, "MPI_Session_get_pset_info empty name");

    int npsets = 0, len = 0;
    MT_MPI(MPI_Session_get_num_psets(watched, MPI_INFO_NULL, &npsets));
    calls = handler_calls;
    rc = MPI_Session_get_nth_pset(watched, MPI_INFO_NULL, npsets, &len, NULL);
    check_handled(rc, MPI_ERR_ARG, watched, calls, "MPI_Session_get_nth_pset n = num");
    calls = handler_calls;
    rc = MPI_Session_get_nth_pset(watched, MPI_INFO_NULL, -1, &len, NULL);
    check_handled(rc, MPI_ERR_ARG, watched, calls, "MPI_Session_get_nth_pset n = -1");

    /* A communicator's handler is not a session's. */
    MPI_Errhandler comm_eh;
    MT_MPI(MPI_Comm_create_errhandler((MPI_Comm_errhandler_function *)(void (*)(void))record,
                                      &comm_eh));
    calls = handler_calls;
    rc = MPI_Session_set_errhandler(watched, comm_eh);
    check_handled(rc, MPI_ERR_ARG, watched, calls, "MPI_Session_set_errhandler comm handler");
    MPI_Errhandler_free(&comm_eh);

    calls = handler_calls;
    rc = MPI_Group_from_session_pset(plain, "mpi://NO_SUCH_SET", &group);
    MT_CHECK_ERRCLASS(rc, MPI_ERR_ARG, "unknown name on the MPI_ERRORS_RETURN session");
    MT_CHECK_INT(calls, handler_calls, "MPI_ERRORS_RETURN session called the user handler");
}

static void session_model(MPI_Session plain, MPI_Session watched, MPI_Errhandler made)
{
    int mpich = mt_library_is("MPICH");
    MPI_Errhandler eh = MPI_ERRHANDLER_NULL;
    MT_MPI(MPI_Session_get_errhandler(watched, &eh));
    if (!mpich)
        MT_CHECK(eh == made, "MPI_Session_get_errhandler: not the handler given to init");
    MT_MPI(MPI_Errhandler_free(&eh));

    int calls = handler_calls;
    MT_CHECK_INT(MPI_SUCCESS, MPI_Session_call_errhandler(watched, MPI_ERR_OTHER),
                 "MPI_Session_call_errhandler returns MPI_SUCCESS");
    check_handled(MPI_ERR_OTHER, MPI_ERR_OTHER, watched, calls, "MPI_Session_call_errhandler");

    /* MPICH 4.0.2 aborts on these whatever the session's handler says. */
    if (!mpich)
        bad_arguments(plain, watched);

    /* Replacing the handler. */
    MT_MPI(MPI_Session_set_errhandler(watched, MPI_ERRORS_RETURN));
    MT_MPI(MPI_Session_get_errhandler(watched, &eh));
    if (!mpich)
        MT_CHECK(eh == MPI_ERRORS_RETURN, "handler after MPI_Session_set_errhandler");
    MPI_Errhandler_free(&eh);
    calls = handler_calls;
    MT_MPI(MPI_Session_call_errhandler(watched, MPI_ERR_OTHER));
    MT_CHECK_INT(calls, handler_calls, "the replaced handler was called");
}

/* Errors without a valid session: under the world model, MPI_ERRORS_RETURN on the
 * communicators that take errors without an object. */
static void invalid_sessions(MPI_Session stale)
{
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int n = -1;
    int rc = MPI_Session_get_num_psets(MPI_SESSION_NULL, MPI_INFO_NULL, &n);
    MT_CHECK_ERRCLASS(rc, MPI_ERR_SESSION, "MPI_Session_get_num_psets(MPI_SESSION_NULL)");
    MPI_Session null_session = MPI_SESSION_NULL;
    rc = MPI_Session_finalize(&null_session);
    MT_CHECK_ERRCLASS(rc, MPI_ERR_SESSION, "MPI_Session_finalize(MPI_SESSION_NULL)");
    if (!mt_library_is("MPICH")) {
        MPI_Group group;
        rc = MPI_Group_from_session_pset(stale, "mpi://WORLD", &group);
        MT_CHECK_ERRCLASS(rc, MPI_ERR_SESSION, "a finalized session");
        MPI_Session session;
        rc = MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, NULL);
        MT_CHECK_ERRCLASS(rc, MPI_ERR_ARG, "MPI_Session_init with session NULL");
        rc = MPI_Session_init(MPI_INFO_NULL, MPI_ERRHANDLER_NULL, &session);
#if MPI_VERSION > 4 || (MPI_VERSION == 4 && MPI_SUBVERSION >= 1) /* MPI_ERR_ERRHANDLER: 4.1 */
        MT_CHECK_ERRCLASS(rc, MPI_ERR_ERRHANDLER, "MPI_Session_init with MPI_ERRHANDLER_NULL");
#else
        MT_CHECK(rc != MPI_SUCCESS, "MPI_Session_init with MPI_ERRHANDLER_NULL succeeded");
#endif
    }
}

int main(void)
{
    MPI_Info info; /* an empty info: MPICH 4.0.2 crashes on MPI_INFO_NULL */
    MPI_Session plain, watched, spare;
    MPI_Errhandler made;
    MT_MPI(MPI_Info_create(&info));
    session_init(info, MPI_ERRORS_RETURN, &plain);
    MT_MPI(MPI_Session_create_errhandler(record, &made));
    session_init(info, made, &watched);
    session_init(info, MPI_ERRORS_RETURN, &spare);
    MPI_Errhandler handle = made;
    MT_MPI(MPI_Errhandler_free(&handle)); /* the session keeps its own reference */
    MT_CHECK(handle == MPI_ERRHANDLER_NULL, "MPI_Errhandler_free did not reset the handle");
    MT_MPI(MPI_Info_free(&info));

    MPI_Group world;
    MT_MPI(MPI_Group_from_session_pset(plain, "mpi://WORLD", &world));
    MPI_Group_rank(world, &mt_rank);
    MPI_Group_free(&world);
    session_model(plain, watched, made);
    MPI_Session stale = watched;
    MT_MPI(MPI_Session_finalize(&watched));
    MT_MPI(MPI_Session_finalize(&spare));

    /* Keep one session open across MPI_Init (MPICH 4.0.2 cannot restart after all ended). */
    MPI_Init(NULL, NULL);
    mt_setup();
    invalid_sessions(stale);
    MT_MPI(MPI_Session_finalize(&plain));
    return mt_finish();
}
