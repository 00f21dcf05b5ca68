/* init_multiple: MPI_Init_thread(MPI_THREAD_MULTIPLE) grants MULTIPLE; MPI_Query_thread
 * agrees; MPI_Is_thread_main is true on the main thread only; a session asking for
 * MPI_THREAD_MULTIPLE reports it in MPI_Session_get_info, and so does one without a hint;
 * many threads calling cheap MPI
 * functions at once (rank, size, Wtime, handle conversion, attribute get) get right answers;
 * MPI_T_init_thread grants MULTIPLE too, and threads reading control variables at once get
 * the values (MPICH threads/mpi_t/mpit_threading). */
#include "threads_common.h"

static void *not_main(void *arg)
{
    int *flag = arg;
    MPI_Is_thread_main(flag);
    return NULL;
}

struct query_arg {
    int id;
    MPI_Comm comm;
};

static void *queries(void *p)
{
    struct query_arg *a = p;
    for (int i = 0; i < 2000; i++) {
        int rank = -1, size = -1, level = -1, flag = 0;
        int *tag_ub = NULL;
        MPI_Comm_rank(a->comm, &rank);
        MPI_Comm_size(a->comm, &size);
        MPI_Query_thread(&level);
        MPI_Comm_get_attr(a->comm, MPI_TAG_UB, &tag_ub, &flag);
        MPI_Fint f = MPI_Comm_c2f(a->comm);
        TC_CHECK(rank == mt_rank && size == mt_size, "thread %d: rank %d size %d", a->id, rank,
                 size);
        TC_CHECK(level == MPI_THREAD_MULTIPLE, "thread %d: MPI_Query_thread %d", a->id, level);
        TC_CHECK(flag && tag_ub && *tag_ub >= 32767, "thread %d: MPI_TAG_UB", a->id);
        TC_CHECK(MPI_Comm_f2c(f) == a->comm, "thread %d: c2f/f2c round trip", a->id);
    }
    return NULL;
}

/* Every control variable's info, a handle, a read and the handle's release, in each thread. */
static void *tool_reads(void *unused)
{
    (void)unused;
    int num = 0;
    MPI_T_cvar_get_num(&num);
    TC_CHECK(num > 0, "MPI_T_cvar_get_num %d", num);
    for (int round = 0; round < 20; round++)
        for (int i = 0; i < num; i++) {
            char name[256], desc[1024];
            int name_len = sizeof name, desc_len = sizeof desc, verbosity, bind, scope, count;
            MPI_Datatype type;
            MPI_T_enum enumtype;
            TC_CHECK(MPI_T_cvar_get_info(i, name, &name_len, &verbosity, &type, &enumtype, desc,
                                         &desc_len, &bind, &scope) == MPI_SUCCESS,
                     "cvar %d info", i);
            MPI_T_cvar_handle handle;
            if (MPI_T_cvar_handle_alloc(i, NULL, &handle, &count) != MPI_SUCCESS)
                continue;
            if (type == MPI_INT || type == MPI_UNSIGNED || type == MPI_UNSIGNED_LONG) {
                unsigned long value[4] = {0, 0, 0, 0};
                TC_CHECK(MPI_T_cvar_read(handle, value) == MPI_SUCCESS, "read %s", name);
            }
            MPI_T_cvar_handle_free(&handle);
        }
    return NULL;
}

int main(int argc, char **argv)
{
    tc_init_multiple(&argc, &argv);
    int level = -1, flag = -1;
    MPI_Query_thread(&level);
    MT_CHECK_INT(MPI_THREAD_MULTIPLE, level, "MPI_Query_thread");
    MPI_Is_thread_main(&flag);
    MT_CHECK_INT(1, flag, "MPI_Is_thread_main on the main thread");
    int other = -1;
    tc_run(1, not_main, &other, sizeof(other));
    MT_CHECK_INT(0, other, "MPI_Is_thread_main on another thread");

    MPI_Info hints;
    MPI_Session session;
    MT_MPI(MPI_Info_create(&hints));
    MT_MPI(MPI_Info_set(hints, "thread_level", "MPI_THREAD_MULTIPLE"));
    MT_MPI(MPI_Session_init(hints, MPI_ERRORS_RETURN, &session));
    MPI_Info used;
    char value[MPI_MAX_INFO_VAL];
    int found = 0;
    MT_MPI(MPI_Session_get_info(session, &used));
    MT_MPI(MPI_Info_get(used, "thread_level", MPI_MAX_INFO_VAL - 1, value, &found));
    MT_CHECK(found && strcmp(value, "MPI_THREAD_MULTIPLE") == 0,
             "session thread_level \"%s\"", found ? value : "(none)");
    MPI_Info_free(&used);
    MPI_Info_free(&hints);
    MT_MPI(MPI_Session_finalize(&session));
    /* Without a hint a session gets what the process provides (MPICH threads/init/mult_session:
     * a library's session inside a program that asked for MULTIPLE). */
    MT_MPI(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &session));
    MT_MPI(MPI_Session_get_info(session, &used));
    found = 0;
    MT_MPI(MPI_Info_get(used, "thread_level", MPI_MAX_INFO_VAL - 1, value, &found));
    MT_CHECK(found && strcmp(value, "MPI_THREAD_MULTIPLE") == 0,
             "session without hint: thread_level \"%s\"", found ? value : "(none)");
    MPI_Info_free(&used);
    MT_MPI(MPI_Session_finalize(&session));

    struct query_arg args[8];
    MPI_Comm dup;
    MT_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    for (int i = 0; i < 8; i++)
        args[i] = (struct query_arg){i, i % 2 ? dup : MPI_COMM_WORLD};
    tc_run(8, queries, args, sizeof(args[0]));
    MPI_Comm_free(&dup);

    int tool_level = -1;
    MT_MPI(MPI_T_init_thread(MPI_THREAD_MULTIPLE, &tool_level));
    MT_CHECK_INT(MPI_THREAD_MULTIPLE, tool_level, "MPI_T_init_thread provided");
    tc_run(8, tool_reads, NULL, 0);
    MT_MPI(MPI_T_finalize());
    return mt_finish();
}
