/* psets: the process-set queries of a session: MPI_Session_get_num_psets/get_nth_pset (size
 * query with pset_len 0, full name, truncation), MPI_Session_get_pset_info ("mpi_size", which
 * the standard requires), MPI_Group_from_session_pset for both standard sets, and
 * MPI_Session_get_info ("thread_level"). Sizes are checked against the number of processes that
 * actually take part in a reduction over the set's communicator. */
#include "mpitest.h"

static int info_int(MPI_Info info, const char *key, const char *what)
{
    char value[MPI_MAX_INFO_VAL];
    int flag = 0;
    MT_MPI(MPI_Info_get(info, key, MPI_MAX_INFO_VAL - 1, value, &flag));
    MT_CHECK(flag, "%s: key %s missing", what, key);
    return flag ? atoi(value) : -1;
}

/* Name of pset n, asked for the way the standard describes: size first, then the name. */
static void nth_pset(MPI_Session session, int n, char *name, int capacity)
{
    int len = 0;
    name[0] = '\0';
    MT_MPI(MPI_Session_get_nth_pset(session, MPI_INFO_NULL, n, &len, NULL));
    MT_CHECK(len > 1 && len <= capacity, "pset %d: length %d", n, len);
    if (len < 2 || len > capacity)
        return;
    int again = len;
    MT_MPI(MPI_Session_get_nth_pset(session, MPI_INFO_NULL, n, &again, name));
    MT_CHECK_INT(len, again, "pset_len after fetching the name");
    MT_CHECK_INT(len - 1, (long long)strlen(name), "name length = pset_len - 1");
}

/* The pset's group, a communicator over it, and the size three ways. */
static void check_pset(MPI_Session session, const char *pset, int expected_size)
{
    MPI_Info info = MPI_INFO_NULL;
    MT_MPI(MPI_Session_get_pset_info(session, pset, &info));
    int mpi_size = info_int(info, "mpi_size", pset);
    MPI_Info_free(&info);

    MPI_Group group;
    MT_MPI(MPI_Group_from_session_pset(session, pset, &group));
    int gsize = 0, grank = MPI_UNDEFINED;
    MPI_Group_size(group, &gsize);
    MPI_Group_rank(group, &grank);
    MT_CHECK_INT(mpi_size, gsize, "group size vs mpi_size");
    MT_CHECK(grank >= 0 && grank < gsize, "%s: my rank %d in a group of %d", pset, grank, gsize);
    MPI_Comm comm;
    char tag[64];
    snprintf(tag, sizeof(tag), "psets:%s", pset);
    MT_MPI(MPI_Comm_create_from_group(group, tag, MPI_INFO_NULL, MPI_ERRORS_RETURN, &comm));
    int one = 1, count = 0;
    MT_MPI(MPI_Allreduce(&one, &count, 1, MPI_INT, MPI_SUM, comm));
    MT_CHECK_INT(mpi_size, count, "processes in the pset's communicator vs mpi_size");
    if (expected_size > 0)
        MT_CHECK_INT(expected_size, mpi_size, pset);
    MPI_Comm_free(&comm);
    MPI_Group_free(&group);
}

int main(void)
{
    MPI_Info hints;
    MPI_Session session;
    MT_MPI(MPI_Info_create(&hints));
    MT_MPI(MPI_Info_set(hints, "thread_level", "MPI_THREAD_SINGLE"));
    MT_MPI(MPI_Session_init(hints, MPI_ERRORS_RETURN, &session));
    MT_MPI(MPI_Info_free(&hints));

    /* The world's size and my rank, from the standard's first pset. */
    MPI_Group world;
    MT_MPI(MPI_Group_from_session_pset(session, "mpi://WORLD", &world));
    MPI_Group_size(world, &mt_size);
    MPI_Group_rank(world, &mt_rank);
    MPI_Group_free(&world);

    int npsets = 0, saw_world = 0, saw_self = 0;
    MT_MPI(MPI_Session_get_num_psets(session, MPI_INFO_NULL, &npsets));
    MT_CHECK(npsets >= 2, "only %d process sets (mpi://WORLD and mpi://SELF are required)",
             npsets);
    for (int n = 0; n < npsets; n++) {
        char name[MPI_MAX_PSET_NAME_LEN];
        nth_pset(session, n, name, (int)sizeof(name));
        saw_world += strcmp(name, "mpi://WORLD") == 0;
        saw_self += strcmp(name, "mpi://SELF") == 0;
        check_pset(session, name, 0); /* every listed set answers the same questions */
    }
    MT_CHECK_INT(1, saw_world, "times mpi://WORLD is listed");
    MT_CHECK_INT(1, saw_self, "times mpi://SELF is listed");
    check_pset(session, "mpi://WORLD", mt_size);
    check_pset(session, "mpi://SELF", 1);

    /* A short buffer: the name is cut and terminated, pset_len says what it needs (as Open MPI
     * documents; MPICH 4.0.2 leaves pset_len at the buffer's size). */
    for (int n = 0; n < npsets; n++) {
        char small[4] = {'x', 'x', 'x', 'x'};
        int len = (int)sizeof(small), full = 0;
        MT_MPI(MPI_Session_get_nth_pset(session, MPI_INFO_NULL, n, &full, NULL));
        MT_MPI(MPI_Session_get_nth_pset(session, MPI_INFO_NULL, n, &len, small));
        if (!mt_library_is("MPICH"))
            MT_CHECK_INT(full, len, "pset_len after a truncated name");
        MT_CHECK(small[3] == '\0' && strncmp(small, "mpi", 3) == 0,
                 "truncated name of pset %d is not \"mpi\"", n);
    }

    /* The hints in use: the thread level is one of the four. */
    MPI_Info used = MPI_INFO_NULL;
    MT_MPI(MPI_Session_get_info(session, &used));
    char level[MPI_MAX_INFO_VAL];
    int flag = 0;
    MT_MPI(MPI_Info_get(used, "thread_level", MPI_MAX_INFO_VAL - 1, level, &flag));
    MT_CHECK(flag, "MPI_Session_get_info: no thread_level");
    if (flag)
        MT_CHECK(!strcmp(level, "MPI_THREAD_SINGLE") || !strcmp(level, "MPI_THREAD_FUNNELED") ||
                     !strcmp(level, "MPI_THREAD_SERIALIZED") ||
                     !strcmp(level, "MPI_THREAD_MULTIPLE"),
                 "thread_level \"%s\"", level);
    MPI_Info_free(&used);

    MT_MPI(MPI_Session_finalize(&session));
    if (mt_errors == 0 && mt_rank == 0)
        printf("No errors\n");
    return mt_errors ? 1 : 0;
}
