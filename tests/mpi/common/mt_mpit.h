/* mt_mpit.h - MPI_T helpers for the tests that watch nodempi through its tool interface
 * (header-only): MPI_T and MPI initialized together, a performance-variable session and its
 * started counters, control variables by name and an enumeration item written by its name, and
 * the matching finish. Each step is checked. The tests of the interface itself (tests/mpi/mpit/
 * interface.c, pvar_session.c) call MPI_T directly: the order and the errors are what they
 * test. Include after mpitest.h. */
#ifndef MT_MPIT_H
#define MT_MPIT_H

#include "mpitest.h"

/* MPI_T first, as a tool would: a test may write control variables before MPI_Init. */
static inline void mt_init_with_mpit(int *argc, char ***argv)
{
    int provided;
    MT_ASSERT(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided) == MPI_SUCCESS, "MPI_T_init");
    mt_init(argc, argv);
}

static inline MPI_T_pvar_session mt_pvar_session_create(void)
{
    MPI_T_pvar_session session = MPI_T_PVAR_SESSION_NULL;
    MT_CHECK_INT(MPI_SUCCESS, MPI_T_pvar_session_create(&session), "session_create");
    return session;
}

/* A started handle of the counter `name` in session. */
static inline MPI_T_pvar_handle mt_pvar_counter(MPI_T_pvar_session session, const char *name)
{
    int index = -1, count;
    MPI_T_pvar_handle handle = MPI_T_PVAR_HANDLE_NULL;
    MT_CHECK_INT(MPI_SUCCESS, MPI_T_pvar_get_index(name, MPI_T_PVAR_CLASS_COUNTER, &index), name);
    MT_CHECK_INT(MPI_SUCCESS, MPI_T_pvar_handle_alloc(session, index, NULL, &handle, &count),
                 name);
    MT_CHECK_INT(MPI_SUCCESS, MPI_T_pvar_start(session, handle), name);
    return handle;
}

static inline unsigned long long mt_pvar_read(MPI_T_pvar_session session,
                                              MPI_T_pvar_handle handle)
{
    unsigned long long value = 0;
    /* checked: a failed read would leave 0, which a test expecting no events would take as such */
    MT_CHECK_INT(MPI_SUCCESS, MPI_T_pvar_read(session, handle, &value), "MPI_T_pvar_read");
    return value;
}

/* A handle of the control variable `name` (not bound to an object). */
static inline MPI_T_cvar_handle mt_cvar_handle(const char *name)
{
    int index = -1, count;
    MPI_T_cvar_handle handle = MPI_T_CVAR_HANDLE_NULL;
    MT_CHECK_INT(MPI_SUCCESS, MPI_T_cvar_get_index(name, &index), name);
    MT_CHECK_INT(MPI_SUCCESS, MPI_T_cvar_handle_alloc(index, NULL, &handle, &count), name);
    return handle;
}

/* Writes the item called `item` of the enumeration-valued control variable `name` (as
 * NODEMPI_SKEW=off would at start-up), and reads it back. */
static inline void mt_cvar_write_item(const char *name, const char *item)
{
    char what[128];
    snprintf(what, sizeof what, "%s=%s", name, item);
    int index = -1, nitems = 0, value = -1, got = -2;
    MT_CHECK_INT(MPI_SUCCESS, MPI_T_cvar_get_index(name, &index), name);
    MPI_T_enum items;
    MT_CHECK_INT(MPI_SUCCESS,
                 MPI_T_cvar_get_info(index, NULL, NULL, NULL, NULL, &items, NULL, NULL, NULL,
                                     NULL),
                 what);
    MPI_T_enum_get_info(items, &nitems, NULL, NULL);
    for (int i = 0; i < nitems; i++) {
        char item_name[64];
        int item_value, len = (int)sizeof item_name;
        MPI_T_enum_get_item(items, i, &item_value, item_name, &len);
        if (strcmp(item_name, item) == 0)
            value = item_value;
    }
    if (value == -1) {
        MT_CHECK(0, "%s: no such item", what);
        return;
    }
    MPI_T_cvar_handle handle = mt_cvar_handle(name);
    MT_CHECK_INT(MPI_SUCCESS, MPI_T_cvar_write(handle, &value), what);
    MPI_T_cvar_read(handle, &got);
    MT_CHECK_INT(value, got, what);
    MPI_T_cvar_handle_free(&handle);
}

/* Frees session (if one was created), ends MPI_T and then MPI (mt_finish): the exit code. */
static inline int mt_finish_with_mpit(MPI_T_pvar_session *session)
{
    if (*session != MPI_T_PVAR_SESSION_NULL)
        MPI_T_pvar_session_free(session);
    MPI_T_finalize();
    return mt_finish();
}

#endif /* MT_MPIT_H */
