/* attr.c - API: keyvals and attributes on communicators and datatypes, window keyvals, the
 * predefined communicator attributes (MPI_TAG_UB, ...) and the deprecated MPI-1 names
 * (MPI_Keyval_create, MPI_Attr_*). Lists and callbacks are src/core/attr.c's; predefined
 * attributes are answered here and never stored. Window attributes belong to src/rma (they
 * use the same core_attr_* calls on the window's list). */
#include "core/attr.h"
#include "core/dpm.h"
#include "mpi/comm_api.h"

/* ---- predefined communicator attributes --------------------------------------------------
 * MPI hands out pointers to the values, so they live in static storage. */
static const int attr_tag_ub = NODEMPI_TAG_UB;
static const int attr_host = MPI_PROC_NULL;      /* no host process */
static const int attr_io = MPI_ANY_SOURCE;       /* every process can do I/O */
static const int attr_wtime_is_global = 1;       /* one node: one CLOCK_MONOTONIC */
static int attr_appnum;                          /* mpiexec's app context (core/dpm.h) */
static int attr_universe_size;
static int attr_last_used_code;

static int is_predefined_comm_key(int keyval)
{
    return keyval >= MPI_TAG_UB && keyval <= MPI_UNIVERSE_SIZE;
}

static const int *predefined_comm_attr(int keyval)
{
    switch (keyval) {
    case MPI_TAG_UB:
        return &attr_tag_ub;
    case MPI_HOST:
        return &attr_host;
    case MPI_IO:
        return &attr_io;
    case MPI_WTIME_IS_GLOBAL:
        return &attr_wtime_is_global;
    case MPI_APPNUM:
        attr_appnum = core_dpm_appnum();
        return &attr_appnum;
    case MPI_UNIVERSE_SIZE:
        attr_universe_size = core_dpm_universe_size();
        return &attr_universe_size;
    case MPI_LASTUSEDCODE:
        attr_last_used_code = core_error_last_used_code();
        return &attr_last_used_code;
    default:
        return NULL;
    }
}

/* ---- keyvals ------------------------------------------------------------------------------ */

static int create_keyval(enum core_attr_kind kind, core_attr_callback *copy_fn,
                         core_attr_callback *delete_fn, int *keyval, void *extra_state,
                         const char *function)
{
    int rc = mpi_check_initialized(function);
    if (rc == MPI_SUCCESS)
        rc = mpi_check_pointer(NULL, keyval, "keyval", function);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = core_keyval_create(kind, copy_fn, delete_fn, extra_state, keyval);
    return rc == MPI_SUCCESS ? rc : core_error_raise(NULL, rc, function, "out of memory");
}

static int free_keyval(enum core_attr_kind kind, int *keyval, const char *function)
{
    int rc = mpi_check_initialized(function);
    if (rc == MPI_SUCCESS)
        rc = mpi_check_pointer(NULL, keyval, "keyval", function);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = core_keyval_free(kind, *keyval);
    if (rc != MPI_SUCCESS)
        return core_error_raise(NULL, rc, function, "invalid keyval %d", *keyval);
    *keyval = MPI_KEYVAL_INVALID;
    return MPI_SUCCESS;
}

int PMPI_Comm_create_keyval(MPI_Comm_copy_attr_function *comm_copy_attr_fn,
                            MPI_Comm_delete_attr_function *comm_delete_attr_fn,
                            int *comm_keyval, void *extra_state)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return create_keyval(CORE_ATTR_COMM, (core_attr_callback *)comm_copy_attr_fn,
                         (core_attr_callback *)comm_delete_attr_fn, comm_keyval, extra_state,
                         "MPI_Comm_create_keyval");
}
#pragma weak MPI_Comm_create_keyval = PMPI_Comm_create_keyval

int PMPI_Comm_free_keyval(int *comm_keyval)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return free_keyval(CORE_ATTR_COMM, comm_keyval, "MPI_Comm_free_keyval");
}
#pragma weak MPI_Comm_free_keyval = PMPI_Comm_free_keyval

int PMPI_Keyval_create(MPI_Copy_function *copy_fn, MPI_Delete_function *delete_fn,
                       int *keyval, void *extra_state)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return create_keyval(CORE_ATTR_COMM, (core_attr_callback *)copy_fn,
                         (core_attr_callback *)delete_fn, keyval, extra_state,
                         "MPI_Keyval_create");
}
#pragma weak MPI_Keyval_create = PMPI_Keyval_create

int PMPI_Keyval_free(int *keyval)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return free_keyval(CORE_ATTR_COMM, keyval, "MPI_Keyval_free");
}
#pragma weak MPI_Keyval_free = PMPI_Keyval_free

int PMPI_Type_create_keyval(MPI_Type_copy_attr_function *type_copy_attr_fn,
                            MPI_Type_delete_attr_function *type_delete_attr_fn,
                            int *type_keyval, void *extra_state)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return create_keyval(CORE_ATTR_TYPE, (core_attr_callback *)type_copy_attr_fn,
                         (core_attr_callback *)type_delete_attr_fn, type_keyval, extra_state,
                         "MPI_Type_create_keyval");
}
#pragma weak MPI_Type_create_keyval = PMPI_Type_create_keyval

int PMPI_Type_free_keyval(int *type_keyval)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return free_keyval(CORE_ATTR_TYPE, type_keyval, "MPI_Type_free_keyval");
}
#pragma weak MPI_Type_free_keyval = PMPI_Type_free_keyval

int PMPI_Win_create_keyval(MPI_Win_copy_attr_function *win_copy_attr_fn,
                           MPI_Win_delete_attr_function *win_delete_attr_fn, int *win_keyval,
                           void *extra_state)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return create_keyval(CORE_ATTR_WIN, (core_attr_callback *)win_copy_attr_fn,
                         (core_attr_callback *)win_delete_attr_fn, win_keyval, extra_state,
                         "MPI_Win_create_keyval");
}
#pragma weak MPI_Win_create_keyval = PMPI_Win_create_keyval

int PMPI_Win_free_keyval(int *win_keyval)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return free_keyval(CORE_ATTR_WIN, win_keyval, "MPI_Win_free_keyval");
}
#pragma weak MPI_Win_free_keyval = PMPI_Win_free_keyval

/* ---- communicator attributes -------------------------------------------------------------- */

static int comm_attr_error(struct core_comm *c, int rc, int keyval, const char *function)
{
    if (rc == MPI_ERR_KEYVAL)
        return core_error_raise(c, rc, function, "invalid communicator keyval %d%s", keyval,
                                is_predefined_comm_key(keyval) ? " (predefined: read-only)"
                                                               : "");
    return core_error_raise(c, rc, function, "attribute callback failed (code %d)", rc);
}

static int comm_set_attr(MPI_Comm comm, int keyval, void *value, const char *function)
{
    struct core_comm *c;
    int rc = mpi_begin_comm(comm, &c, function);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = core_attr_set(CORE_ATTR_COMM, &c->attributes, (void *)comm, keyval, value);
    return rc == MPI_SUCCESS ? rc : comm_attr_error(c, rc, keyval, function);
}

static int comm_get_attr(MPI_Comm comm, int keyval, void *value, int *flag,
                         const char *function)
{
    struct core_comm *c;
    int rc = mpi_begin_comm(comm, &c, function);
    if (rc == MPI_SUCCESS)
        rc = mpi_check_pointer(c, value, "attribute_val", function);
    if (rc == MPI_SUCCESS)
        rc = mpi_check_pointer(c, flag, "flag", function);
    if (rc != MPI_SUCCESS)
        return rc;
    /* A communicator of the Sessions Model carries MPI_TAG_UB alone: the others describe the
     * World Model's MPI_COMM_WORLD (as Open MPI 5; its public test sessions_test16 checks). */
    if (c->session && keyval != MPI_TAG_UB && is_predefined_comm_key(keyval)) {
        *flag = 0;
        return MPI_SUCCESS;
    }
    const int *predefined = predefined_comm_attr(keyval);
    if (predefined) {
        *(const int **)value = predefined;
        *flag = 1;
        return MPI_SUCCESS;
    }
    rc = core_attr_get(CORE_ATTR_COMM, c->attributes, keyval, (void **)value, flag);
    return rc == MPI_SUCCESS ? rc : comm_attr_error(c, rc, keyval, function);
}

static int comm_delete_attr(MPI_Comm comm, int keyval, const char *function)
{
    struct core_comm *c;
    int rc = mpi_begin_comm(comm, &c, function);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = core_attr_delete(CORE_ATTR_COMM, &c->attributes, (void *)comm, keyval);
    return rc == MPI_SUCCESS ? rc : comm_attr_error(c, rc, keyval, function);
}

int PMPI_Comm_set_attr(MPI_Comm comm, int comm_keyval, void *attribute_val)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return comm_set_attr(comm, comm_keyval, attribute_val, "MPI_Comm_set_attr");
}
#pragma weak MPI_Comm_set_attr = PMPI_Comm_set_attr

int PMPI_Comm_get_attr(MPI_Comm comm, int comm_keyval, void *attribute_val, int *flag)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return comm_get_attr(comm, comm_keyval, attribute_val, flag, "MPI_Comm_get_attr");
}
#pragma weak MPI_Comm_get_attr = PMPI_Comm_get_attr

int PMPI_Comm_delete_attr(MPI_Comm comm, int comm_keyval)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return comm_delete_attr(comm, comm_keyval, "MPI_Comm_delete_attr");
}
#pragma weak MPI_Comm_delete_attr = PMPI_Comm_delete_attr

int PMPI_Attr_put(MPI_Comm comm, int keyval, void *attribute_val)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return comm_set_attr(comm, keyval, attribute_val, "MPI_Attr_put");
}
#pragma weak MPI_Attr_put = PMPI_Attr_put

int PMPI_Attr_get(MPI_Comm comm, int keyval, void *attribute_val, int *flag)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return comm_get_attr(comm, keyval, attribute_val, flag, "MPI_Attr_get");
}
#pragma weak MPI_Attr_get = PMPI_Attr_get

int PMPI_Attr_delete(MPI_Comm comm, int keyval)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return comm_delete_attr(comm, keyval, "MPI_Attr_delete");
}
#pragma weak MPI_Attr_delete = PMPI_Attr_delete

/* ---- datatype attributes ------------------------------------------------------------------ */

static int begin_type(MPI_Datatype datatype, struct dt_type **t, const char *function)
{
    int rc = mpi_check_initialized(function);
    if (rc != MPI_SUCCESS)
        return rc;
    *t = dt_from_handle(datatype);
    if (*t)
        return MPI_SUCCESS;
    return core_error_raise(NULL, MPI_ERR_TYPE, function, "invalid datatype%s",
                            datatype == MPI_DATATYPE_NULL ? " MPI_DATATYPE_NULL" : "");
}

static int type_attr_error(int rc, int keyval, const char *function)
{
    if (rc == MPI_ERR_KEYVAL)
        return core_error_raise(NULL, rc, function, "invalid datatype keyval %d", keyval);
    return core_error_raise(NULL, rc, function, "attribute callback failed (code %d)", rc);
}

int PMPI_Type_set_attr(MPI_Datatype datatype, int type_keyval, void *attribute_val)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    struct dt_type *t;
    int rc = begin_type(datatype, &t, "MPI_Type_set_attr");
    if (rc != MPI_SUCCESS)
        return rc;
    rc = core_attr_set(CORE_ATTR_TYPE, &t->attributes, (void *)datatype, type_keyval,
                       attribute_val);
    return rc == MPI_SUCCESS ? rc : type_attr_error(rc, type_keyval, "MPI_Type_set_attr");
}
#pragma weak MPI_Type_set_attr = PMPI_Type_set_attr

int PMPI_Type_get_attr(MPI_Datatype datatype, int type_keyval, void *attribute_val, int *flag)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    struct dt_type *t;
    int rc = begin_type(datatype, &t, "MPI_Type_get_attr");
    if (rc == MPI_SUCCESS)
        rc = mpi_check_pointer(NULL, attribute_val, "attribute_val", "MPI_Type_get_attr");
    if (rc == MPI_SUCCESS)
        rc = mpi_check_pointer(NULL, flag, "flag", "MPI_Type_get_attr");
    if (rc != MPI_SUCCESS)
        return rc;
    rc = core_attr_get(CORE_ATTR_TYPE, t->attributes, type_keyval, (void **)attribute_val,
                       flag);
    return rc == MPI_SUCCESS ? rc : type_attr_error(rc, type_keyval, "MPI_Type_get_attr");
}
#pragma weak MPI_Type_get_attr = PMPI_Type_get_attr

int PMPI_Type_delete_attr(MPI_Datatype datatype, int type_keyval)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    struct dt_type *t;
    int rc = begin_type(datatype, &t, "MPI_Type_delete_attr");
    if (rc != MPI_SUCCESS)
        return rc;
    rc = core_attr_delete(CORE_ATTR_TYPE, &t->attributes, (void *)datatype, type_keyval);
    return rc == MPI_SUCCESS ? rc : type_attr_error(rc, type_keyval, "MPI_Type_delete_attr");
}
#pragma weak MPI_Type_delete_attr = PMPI_Type_delete_attr
