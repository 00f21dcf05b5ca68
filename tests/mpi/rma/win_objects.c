/* win_objects.c - the window as an object: predefined attributes (MPI_WIN_BASE, MPI_WIN_SIZE,
 * MPI_WIN_DISP_UNIT, MPI_WIN_CREATE_FLAVOR, MPI_WIN_MODEL) for each flavor, user keyvals
 * (set/get/replace/delete; delete callbacks run on replace, delete and MPI_Win_free), names
 * (MPI_WIN_NULL's too),
 * MPI_Win_get_group against the communicator's group, info get/set, and error handlers:
 * MPI_Win_create_errhandler, set/get, a user handler called by a real error and by
 * MPI_Win_call_errhandler with the window handle and the code. */
#include "mpitest.h"

static int deletes;
static int handler_calls;
static int handler_code;
static MPI_Win handler_win;

static int delete_fn(MPI_Win win, int keyval, void *value, void *extra)
{
    (void)win;
    (void)keyval;
    (void)extra;
    MT_CHECK(value == (void *)&deletes || value == (void *)&handler_calls,
             "delete callback got an unknown value");
    deletes++;
    return MPI_SUCCESS;
}

static void win_handler(MPI_Win *win, int *code, ...)
{
    handler_calls++;
    handler_code = *code;
    handler_win = *win;
}

static void check_predefined(MPI_Win win, void *base, MPI_Aint size, int disp_unit, int flavor,
                             const char *what)
{
    void *b = NULL;
    MPI_Aint *s = NULL;
    int *d = NULL, *f = NULL, *m = NULL, flag = 0;
    MT_MPI(MPI_Win_get_attr(win, MPI_WIN_BASE, &b, &flag));
    MT_CHECK(flag && b == base, "%s: MPI_WIN_BASE", what);
    MT_MPI(MPI_Win_get_attr(win, MPI_WIN_SIZE, &s, &flag));
    MT_CHECK(flag && s && *s == size, "%s: MPI_WIN_SIZE", what);
    MT_MPI(MPI_Win_get_attr(win, MPI_WIN_DISP_UNIT, &d, &flag));
    MT_CHECK(flag && d && *d == disp_unit, "%s: MPI_WIN_DISP_UNIT", what);
    MT_MPI(MPI_Win_get_attr(win, MPI_WIN_CREATE_FLAVOR, &f, &flag));
    MT_CHECK(flag && f && *f == flavor, "%s: MPI_WIN_CREATE_FLAVOR %d", what, f ? *f : -1);
    MT_MPI(MPI_Win_get_attr(win, MPI_WIN_MODEL, &m, &flag));
    MT_CHECK(flag && m && (*m == MPI_WIN_UNIFIED || *m == MPI_WIN_SEPARATE), "%s: MPI_WIN_MODEL",
             what);
    if (!mt_library_is("Open MPI")) /* nodempi's memory model is always unified */
        MT_CHECK(m && *m == MPI_WIN_UNIFIED, "%s: model should be MPI_WIN_UNIFIED", what);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    double *mem = mt_malloc(10 * sizeof(double));
    MPI_Win win;
    MT_MPI(MPI_Win_create(mem, 10 * sizeof(double), sizeof(double), MPI_INFO_NULL,
                          MPI_COMM_WORLD, &win));
    check_predefined(win, mem, 10 * sizeof(double), sizeof(double), MPI_WIN_FLAVOR_CREATE,
                     "Win_create");

    /* user attributes */
    int keyval;
    MT_MPI(MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, delete_fn, &keyval, NULL));
    void *value = NULL;
    int flag = 1;
    MT_MPI(MPI_Win_get_attr(win, keyval, &value, &flag));
    MT_CHECK(!flag, "attribute present before set");
    MT_MPI(MPI_Win_set_attr(win, keyval, &deletes));
    MT_MPI(MPI_Win_get_attr(win, keyval, &value, &flag));
    MT_CHECK(flag && value == &deletes, "attribute value after set");
    MT_MPI(MPI_Win_set_attr(win, keyval, &handler_calls)); /* replaces: deletes the old one */
    MT_CHECK_INT(1, deletes, "delete callbacks after replace");
    MT_MPI(MPI_Win_delete_attr(win, keyval));
    MT_CHECK_INT(2, deletes, "delete callbacks after delete");
    MT_MPI(MPI_Win_get_attr(win, keyval, &value, &flag));
    MT_CHECK(!flag, "attribute present after delete");
    MT_MPI(MPI_Win_set_attr(win, keyval, &deletes));

    /* name */
    char name[MPI_MAX_OBJECT_NAME];
    int len = -1;
    MT_MPI(MPI_Win_get_name(win, name, &len));
    MT_CHECK(len == (int)strlen(name), "empty window name length %d", len);
    MT_MPI(MPI_Win_set_name(win, "halo window"));
    MT_MPI(MPI_Win_get_name(win, name, &len));
    MT_CHECK(strcmp(name, "halo window") == 0 && len == 11, "window name '%s'", name);
    int version, subversion;
    MPI_Get_version(&version, &subversion);
    if (version * 10 + subversion >= 41) { /* MPI-4.1: the null handle has a name */
        MT_MPI(MPI_Win_get_name(MPI_WIN_NULL, name, &len));
        MT_CHECK(strcmp(name, "MPI_WIN_NULL") == 0 && len == 12, "MPI_WIN_NULL's name '%s'",
                 name);
    }

    /* group */
    MPI_Group wgroup, cgroup;
    int cmp = -1;
    MT_MPI(MPI_Win_get_group(win, &wgroup));
    MPI_Comm_group(MPI_COMM_WORLD, &cgroup);
    MPI_Group_compare(wgroup, cgroup, &cmp);
    MT_CHECK(cmp == MPI_IDENT, "window group vs communicator group: %d", cmp);
    MPI_Group_free(&wgroup);
    MPI_Group_free(&cgroup);

    /* info */
    MPI_Info info, used;
    MPI_Info_create(&info);
    MPI_Info_set(info, "accumulate_ordering", "none");
    MT_MPI(MPI_Win_set_info(win, info));
    MPI_Info_free(&info);
    MT_MPI(MPI_Win_get_info(win, &used));
    int nkeys = -1;
    MPI_Info_get_nkeys(used, &nkeys);
    MT_CHECK(nkeys >= 0, "info_used has %d keys", nkeys);
    MPI_Info_free(&used);

    /* error handlers */
    MPI_Errhandler eh, got;
    MT_MPI(MPI_Win_get_errhandler(win, &got));
    MT_CHECK(got == MPI_ERRORS_ARE_FATAL, "default window error handler");
    MPI_Errhandler_free(&got);
    MT_MPI(MPI_Win_create_errhandler(win_handler, &eh));
    MT_MPI(MPI_Win_set_errhandler(win, eh));
    MT_MPI(MPI_Win_get_errhandler(win, &got));
    MT_CHECK(got == eh, "window error handler after set");
    MPI_Errhandler_free(&got);
    MPI_Errhandler_free(&eh);
    MT_MPI(MPI_Win_call_errhandler(win, MPI_ERR_OTHER));
    MT_CHECK(handler_calls == 1 && handler_code == MPI_ERR_OTHER && handler_win == win,
             "Win_call_errhandler: %d calls, code %d", handler_calls, handler_code);
    int rc = MPI_Win_unlock(mt_right(), win); /* a real error: no lock epoch */
    MT_CHECK(handler_calls == 2 && mt_errclass(handler_code) == MPI_ERR_RMA_SYNC,
             "handler on MPI_Win_unlock without lock: %d calls, code %d", handler_calls,
             handler_code);
    MT_CHECK(mt_errclass(rc) == MPI_ERR_RMA_SYNC, "MPI_Win_unlock returned %d", rc);

    MT_MPI(MPI_Win_free(&win));
    MT_CHECK_INT(3, deletes, "delete callbacks after MPI_Win_free");
    MT_MPI(MPI_Win_free_keyval(&keyval));
    MT_CHECK(keyval == MPI_KEYVAL_INVALID, "keyval after free");

    /* the other flavors' predefined attributes */
    double *base;
    MT_MPI(MPI_Win_allocate(3 * sizeof(double), sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD,
                            &base, &win));
    check_predefined(win, base, 3 * sizeof(double), sizeof(double), MPI_WIN_FLAVOR_ALLOCATE,
                     "Win_allocate");
    MT_MPI(MPI_Win_free(&win));
    MT_MPI(MPI_Win_allocate_shared(5, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win));
    check_predefined(win, base, 5, 1, MPI_WIN_FLAVOR_SHARED, "Win_allocate_shared");
    MT_MPI(MPI_Win_free(&win));
    MT_MPI(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    check_predefined(win, MPI_BOTTOM, 0, 1, MPI_WIN_FLAVOR_DYNAMIC, "Win_create_dynamic");
    MT_MPI(MPI_Win_free(&win));
    free(mem);
    return mt_finish();
}
