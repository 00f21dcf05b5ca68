/* callbacks.c - user functions written in Fortran: reduction operators (MPI_Op_create),
 * generalized requests (MPI_Grequest_start), error handlers (MPI_Comm/Win/File/Session_create_
 * errhandler, MPI-1's MPI_Errhandler_create) and attribute copy/delete functions (MPI_Comm/Type/Win_create_keyval,
 * MPI_Keyval_create), plus the predefined Fortran callbacks (MPI_COMM_NULL_COPY_FN ...). A
 * Fortran routine takes INTEGER handles and LOGICAL flags by reference, so each is reached
 * through a C trampoline that converts; the library's layers only ever see C functions. Keyval
 * and error handler records are never freed: a handle may outlive its creator. The functions
 * that change the tables hold the big lock of MPI_THREAD_MULTIPLE (src/mpi/api.h); the
 * trampolines run inside MPI calls, which hold it already. */
#include <stdlib.h>

#include "coll/op.h"
#include "core/attr.h"
#include "fortran/fortran.h"
#include "mpi/api.h"

/* ------------------------------------------------------------------------------------------ */
/* Predefined Fortran callbacks: mpif.h declares them EXTERNAL; a program may pass them to the
 * create functions (recognised below and replaced by the C constants) or call them itself. */

void mpi_comm_null_copy_fn_(MPI_Fint *old, MPI_Fint *keyval, MPI_Aint *extra_state,
                            MPI_Aint *value_in, MPI_Aint *value_out, MPI_Fint *flag,
                            MPI_Fint *ierror)
{
    (void)old, (void)keyval, (void)extra_state, (void)value_in, (void)value_out;
    *flag = f_to_logical(0);
    *ierror = MPI_SUCCESS;
}

void mpi_comm_dup_fn_(MPI_Fint *old, MPI_Fint *keyval, MPI_Aint *extra_state, MPI_Aint *value_in,
                      MPI_Aint *value_out, MPI_Fint *flag, MPI_Fint *ierror)
{
    (void)old, (void)keyval, (void)extra_state;
    *value_out = *value_in;
    *flag = f_to_logical(1);
    *ierror = MPI_SUCCESS;
}

void mpi_comm_null_delete_fn_(MPI_Fint *object, MPI_Fint *keyval, MPI_Aint *value,
                              MPI_Aint *extra_state, MPI_Fint *ierror)
{
    (void)object, (void)keyval, (void)value, (void)extra_state;
    *ierror = MPI_SUCCESS;
}

void mpi_null_copy_fn_(MPI_Fint *old, MPI_Fint *keyval, MPI_Fint *extra_state, MPI_Fint *value_in,
                       MPI_Fint *value_out, MPI_Fint *flag, MPI_Fint *ierror)
{
    (void)old, (void)keyval, (void)extra_state, (void)value_in, (void)value_out;
    *flag = f_to_logical(0);
    *ierror = MPI_SUCCESS;
}

void mpi_dup_fn_(MPI_Fint *old, MPI_Fint *keyval, MPI_Fint *extra_state, MPI_Fint *value_in,
                 MPI_Fint *value_out, MPI_Fint *flag, MPI_Fint *ierror)
{
    (void)old, (void)keyval, (void)extra_state;
    *value_out = *value_in;
    *flag = f_to_logical(1);
    *ierror = MPI_SUCCESS;
}

void mpi_null_delete_fn_(MPI_Fint *object, MPI_Fint *keyval, MPI_Fint *value,
                         MPI_Fint *extra_state, MPI_Fint *ierror)
{
    (void)object, (void)keyval, (void)value, (void)extra_state;
    *ierror = MPI_SUCCESS;
}

void mpi_conversion_fn_null_(void *userbuf, MPI_Fint *datatype, MPI_Fint *count, void *filebuf,
                             MPI_Offset *position, MPI_Aint *extra_state, MPI_Fint *ierror)
{
    (void)userbuf, (void)datatype, (void)count, (void)filebuf, (void)position, (void)extra_state;
    *ierror = MPI_SUCCESS;
}

/* The datatype and window versions behave exactly as the communicator ones. */
#pragma weak mpi_type_null_copy_fn_ = mpi_comm_null_copy_fn_
#pragma weak mpi_type_dup_fn_ = mpi_comm_dup_fn_
#pragma weak mpi_type_null_delete_fn_ = mpi_comm_null_delete_fn_
#pragma weak mpi_win_null_copy_fn_ = mpi_comm_null_copy_fn_
#pragma weak mpi_win_dup_fn_ = mpi_comm_dup_fn_
#pragma weak mpi_win_null_delete_fn_ = mpi_comm_null_delete_fn_

/* ------------------------------------------------------------------------------------------ */
/* Reduction operators: the coll layer calls user_fn through user_adapter (src/coll/op.h). */

static void op_adapter(MPI_User_function *fn, void *in, void *inout, int *len,
                       MPI_Datatype *type)
{
    MPI_Fint ftype = MPI_Type_toint(*type);
    ((f_user_function *)(void (*)(void))fn)(in, inout, len, &ftype);
}

void pmpi_op_create_(f_user_function *user_fn, const MPI_Fint *commute, MPI_Fint *op,
                     MPI_Fint *ierror)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter(); /* the tables here */
    MPI_Op c_op = MPI_OP_NULL;
    MPI_User_function *fn = (MPI_User_function *)(void (*)(void))user_fn;
    *ierror = MPI_Op_create(fn, f_logical_in(*commute), &c_op);
    if (*ierror == MPI_SUCCESS) {
        struct coll_op *object = coll_op_from_handle(c_op);
        if (object)
            object->user_adapter = op_adapter;
    }
    *op = MPI_Op_toint(c_op);
}
#pragma weak mpi_op_create_ = pmpi_op_create_

/* ------------------------------------------------------------------------------------------ */
/* Generalized requests: the C extra state is a record of the three Fortran routines and the
 * address of the program's extra state variable, freed after the program's free routine ran.
 * The routines get that variable itself, so what one stores there the others and the program
 * see (MPICH and Open MPI do the same; MPICH's greqf test relies on it). */

struct f_grequest {
    f_query_function *query;
    f_free_function *free;
    f_cancel_function *cancel;
    MPI_Aint *extra_state;
};

static int grequest_query(void *state, MPI_Status *status)
{
    struct f_grequest *g = state;
    MPI_Fint ierror = MPI_SUCCESS;
    g->query(g->extra_state, (MPI_Fint *)status, &ierror);
    return ierror;
}

static int grequest_free(void *state)
{
    struct f_grequest *g = state;
    MPI_Fint ierror = MPI_SUCCESS;
    g->free(g->extra_state, &ierror);
    free(g);
    return ierror;
}

static int grequest_cancel(void *state, int complete)
{
    struct f_grequest *g = state;
    MPI_Fint ierror = MPI_SUCCESS, fcomplete = f_to_logical(complete);
    g->cancel(g->extra_state, &fcomplete, &ierror);
    return ierror;
}

void pmpi_grequest_start_(f_query_function *query_fn, f_free_function *free_fn,
                          f_cancel_function *cancel_fn, MPI_Aint *extra_state,
                          MPI_Fint *request, MPI_Fint *ierror)
{
    MPI_Request c_request = MPI_REQUEST_NULL;
    struct f_grequest *g = malloc(sizeof(*g));
    if (!g) {
        *ierror = f_no_memory("MPI_Grequest_start");
        return;
    }
    *g = (struct f_grequest){query_fn, free_fn, cancel_fn, extra_state};
    /* A missing routine reaches the C function as NULL, which it reports. */
    *ierror = MPI_Grequest_start(query_fn ? grequest_query : NULL, free_fn ? grequest_free : NULL,
                                 cancel_fn ? grequest_cancel : NULL, g, &c_request);
    if (*ierror != MPI_SUCCESS)
        free(g);
    *request = MPI_Request_toint(c_request);
}
#pragma weak mpi_grequest_start_ = pmpi_grequest_start_

/* ------------------------------------------------------------------------------------------ */
/* Error handlers. The C handler of a Fortran one is a trampoline per object kind; it finds the
 * Fortran routine from the handler attached to the object it is called for. */

static struct {
    struct f_errhandler {
        MPI_Errhandler handle;
        f_errhandler_function *fn;
    } *entries;
    int count, capacity;
} errhandlers;

static int errhandler_record(MPI_Errhandler handle, f_errhandler_function *fn)
{
    for (int i = 0; i < errhandlers.count; i++) {
        if (errhandlers.entries[i].handle == handle) { /* a freed handler's memory, reused */
            errhandlers.entries[i].fn = fn;
            return MPI_SUCCESS;
        }
    }
    if (errhandlers.count == errhandlers.capacity) {
        int capacity = errhandlers.capacity ? 2 * errhandlers.capacity : 8;
        struct f_errhandler *e =
            realloc(errhandlers.entries, sizeof(*e) * (size_t)capacity);
        if (!e)
            return MPI_ERR_NO_MEM;
        errhandlers.entries = e;
        errhandlers.capacity = capacity;
    }
    errhandlers.entries[errhandlers.count++] = (struct f_errhandler){handle, fn};
    return MPI_SUCCESS;
}

/* The Fortran routine of the handler `handle` (a reference that is released here). */
static f_errhandler_function *errhandler_lookup(MPI_Errhandler handle)
{
    f_errhandler_function *fn = NULL;
    for (int i = 0; i < errhandlers.count; i++)
        if (errhandlers.entries[i].handle == handle)
            fn = errhandlers.entries[i].fn;
    MPI_Errhandler_free(&handle);
    return fn;
}

static void comm_errhandler_trampoline(MPI_Comm *comm, int *code, ...)
{
    MPI_Errhandler eh = MPI_ERRHANDLER_NULL;
    MPI_Comm_get_errhandler(*comm, &eh);
    f_errhandler_function *fn = errhandler_lookup(eh);
    MPI_Fint fcomm = MPI_Comm_toint(*comm);
    if (fn)
        fn(&fcomm, code);
}

static void win_errhandler_trampoline(MPI_Win *win, int *code, ...)
{
    MPI_Errhandler eh = MPI_ERRHANDLER_NULL;
    MPI_Win_get_errhandler(*win, &eh);
    f_errhandler_function *fn = errhandler_lookup(eh);
    MPI_Fint fwin = MPI_Win_toint(*win);
    if (fn)
        fn(&fwin, code);
}

static void file_errhandler_trampoline(MPI_File *file, int *code, ...)
{
    MPI_Errhandler eh = MPI_ERRHANDLER_NULL;
    MPI_File_get_errhandler(*file, &eh);
    f_errhandler_function *fn = errhandler_lookup(eh);
    MPI_Fint ffile = MPI_File_toint(*file);
    if (fn)
        fn(&ffile, code);
}

static void session_errhandler_trampoline(MPI_Session *session, int *code, ...)
{
    MPI_Errhandler eh = MPI_ERRHANDLER_NULL;
    MPI_Session_get_errhandler(*session, &eh);
    f_errhandler_function *fn = errhandler_lookup(eh);
    MPI_Fint fsession = MPI_Session_toint(*session);
    if (fn)
        fn(&fsession, code);
}

static void errhandler_finish(int rc, MPI_Errhandler eh, f_errhandler_function *fn,
                              MPI_Fint *errhandler, MPI_Fint *ierror, const char *function)
{
    if (rc == MPI_SUCCESS && errhandler_record(eh, fn) != MPI_SUCCESS) {
        MPI_Errhandler_free(&eh);
        rc = f_no_memory(function);
    }
    *errhandler = MPI_Errhandler_toint(eh);
    *ierror = rc;
}

void pmpi_comm_create_errhandler_(f_errhandler_function *fn, MPI_Fint *errhandler,
                                  MPI_Fint *ierror)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter(); /* the tables here */
    MPI_Errhandler eh = MPI_ERRHANDLER_NULL;
    int rc = MPI_Comm_create_errhandler(fn ? comm_errhandler_trampoline : NULL, &eh);
    errhandler_finish(rc, eh, fn, errhandler, ierror, "MPI_Comm_create_errhandler");
}
#pragma weak mpi_comm_create_errhandler_ = pmpi_comm_create_errhandler_

void pmpi_win_create_errhandler_(f_errhandler_function *fn, MPI_Fint *errhandler,
                                 MPI_Fint *ierror)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter(); /* the tables here */
    MPI_Errhandler eh = MPI_ERRHANDLER_NULL;
    int rc = MPI_Win_create_errhandler(fn ? win_errhandler_trampoline : NULL, &eh);
    errhandler_finish(rc, eh, fn, errhandler, ierror, "MPI_Win_create_errhandler");
}
#pragma weak mpi_win_create_errhandler_ = pmpi_win_create_errhandler_

void pmpi_file_create_errhandler_(f_errhandler_function *fn, MPI_Fint *errhandler,
                                  MPI_Fint *ierror)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter(); /* the tables here */
    MPI_Errhandler eh = MPI_ERRHANDLER_NULL;
    int rc = MPI_File_create_errhandler(fn ? file_errhandler_trampoline : NULL, &eh);
    errhandler_finish(rc, eh, fn, errhandler, ierror, "MPI_File_create_errhandler");
}
#pragma weak mpi_file_create_errhandler_ = pmpi_file_create_errhandler_

void pmpi_session_create_errhandler_(f_errhandler_function *fn, MPI_Fint *errhandler,
                                     MPI_Fint *ierror)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter(); /* the tables here */
    MPI_Errhandler eh = MPI_ERRHANDLER_NULL;
    int rc = MPI_Session_create_errhandler(fn ? session_errhandler_trampoline : NULL, &eh);
    errhandler_finish(rc, eh, fn, errhandler, ierror, "MPI_Session_create_errhandler");
}
#pragma weak mpi_session_create_errhandler_ = pmpi_session_create_errhandler_

/* MPI-1's MPI_ERRHANDLER_CREATE (removed in MPI-3.0, a nodempi extension): a communicator
 * handler like MPI_COMM_CREATE_ERRHANDLER's. */
void pmpi_errhandler_create_(f_errhandler_function *fn, MPI_Fint *errhandler, MPI_Fint *ierror)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter(); /* the tables here */
    MPI_Errhandler eh = MPI_ERRHANDLER_NULL;
    int rc = MPI_Errhandler_create(fn ? comm_errhandler_trampoline : NULL, &eh);
    errhandler_finish(rc, eh, fn, errhandler, ierror, "MPI_Errhandler_create");
}
#pragma weak mpi_errhandler_create_ = pmpi_errhandler_create_

/* ------------------------------------------------------------------------------------------ */
/* Attribute callbacks. The keyval's C extra state is a record naming the Fortran routines and
 * the program's own extra state; a keyval made here is marked Fortran in src/core/attr.c, which
 * then hands the trampolines each value as Fortran sees it (a number) in the C void *. */

struct f_keyval {
    void (*copy)(void);   /* f_copy_function or f_copy_function_int; NULL: predefined */
    void (*delete)(void); /* f_delete_function or f_delete_function_int; NULL: predefined */
    MPI_Aint extra_state;
    MPI_Fint extra_state_int; /* MPI_KEYVAL_CREATE's INTEGER extra state */
};

/* Records stay reachable from here (a keyval outlives MPI_Comm_free_keyval while attributes
 * use it). */
static struct {
    struct f_keyval **records;
    int count, capacity;
} keyvals;

static struct f_keyval *keyval_record(void (*copy)(void), void (*delete)(void))
{
    if (keyvals.count == keyvals.capacity) {
        int capacity = keyvals.capacity ? 2 * keyvals.capacity : 8;
        struct f_keyval **r = realloc(keyvals.records, sizeof(*r) * (size_t)capacity);
        if (!r)
            return NULL;
        keyvals.records = r;
        keyvals.capacity = capacity;
    }
    struct f_keyval *k = calloc(1, sizeof(*k));
    if (!k)
        return NULL;
    k->copy = copy;
    k->delete = delete;
    keyvals.records[keyvals.count++] = k;
    return k;
}

static int call_copy(struct f_keyval *k, MPI_Fint handle, int keyval, void *in, void *out,
                     int *flag)
{
    MPI_Fint fkeyval = keyval, fflag = 0, ierror = MPI_SUCCESS;
    MPI_Aint value_in = (MPI_Aint)in, value_out = 0;
    ((f_copy_function *)k->copy)(&handle, &fkeyval, &k->extra_state, &value_in, &value_out,
                                 &fflag, &ierror);
    *(void **)out = (void *)value_out;
    *flag = f_logical_in(fflag);
    return ierror;
}

static int call_delete(struct f_keyval *k, MPI_Fint handle, int keyval, void *value)
{
    MPI_Fint fkeyval = keyval, ierror = MPI_SUCCESS;
    MPI_Aint fvalue = (MPI_Aint)value;
    ((f_delete_function *)k->delete)(&handle, &fkeyval, &fvalue, &k->extra_state, &ierror);
    return ierror;
}

static int comm_copy_trampoline(MPI_Comm old, int keyval, void *extra_state, void *in, void *out,
                                int *flag)
{
    return call_copy(extra_state, MPI_Comm_toint(old), keyval, in, out, flag);
}

static int comm_delete_trampoline(MPI_Comm comm, int keyval, void *value, void *extra_state)
{
    return call_delete(extra_state, MPI_Comm_toint(comm), keyval, value);
}

static int type_copy_trampoline(MPI_Datatype old, int keyval, void *extra_state, void *in,
                                void *out, int *flag)
{
    return call_copy(extra_state, MPI_Type_toint(old), keyval, in, out, flag);
}

static int type_delete_trampoline(MPI_Datatype type, int keyval, void *value, void *extra_state)
{
    return call_delete(extra_state, MPI_Type_toint(type), keyval, value);
}

static int win_copy_trampoline(MPI_Win old, int keyval, void *extra_state, void *in, void *out,
                               int *flag)
{
    return call_copy(extra_state, MPI_Win_toint(old), keyval, in, out, flag);
}

static int win_delete_trampoline(MPI_Win win, int keyval, void *value, void *extra_state)
{
    return call_delete(extra_state, MPI_Win_toint(win), keyval, value);
}

/* MPI_KEYVAL_CREATE's routines see INTEGER values (MPI_ATTR_PUT stores an INTEGER). */
static int int_copy_trampoline(MPI_Comm old, int keyval, void *extra_state, void *in, void *out,
                               int *flag)
{
    struct f_keyval *k = extra_state;
    MPI_Fint handle = MPI_Comm_toint(old), fkeyval = keyval, fflag = 0, ierror = MPI_SUCCESS;
    MPI_Fint value_in = (MPI_Fint)(MPI_Aint)in, value_out = 0;
    ((f_copy_function_int *)k->copy)(&handle, &fkeyval, &k->extra_state_int, &value_in,
                                     &value_out, &fflag, &ierror);
    *(void **)out = (void *)(MPI_Aint)value_out;
    *flag = f_logical_in(fflag);
    return ierror;
}

static int int_delete_trampoline(MPI_Comm comm, int keyval, void *value, void *extra_state)
{
    struct f_keyval *k = extra_state;
    MPI_Fint handle = MPI_Comm_toint(comm), fkeyval = keyval, ierror = MPI_SUCCESS;
    MPI_Fint fvalue = (MPI_Fint)(MPI_Aint)value;
    ((f_delete_function_int *)k->delete)(&handle, &fkeyval, &fvalue, &k->extra_state_int,
                                         &ierror);
    return ierror;
}

/* Predefined routines become the C constants; NULL in the record marks them. */
static void (*user_copy(void (*fn)(void)))(void)
{
    if (fn == (void (*)(void))mpi_comm_null_copy_fn_ || fn == (void (*)(void))mpi_comm_dup_fn_ ||
        fn == (void (*)(void))mpi_null_copy_fn_ || fn == (void (*)(void))mpi_dup_fn_)
        return NULL;
    return fn;
}

static int copy_is_dup(void (*fn)(void))
{
    return fn == (void (*)(void))mpi_comm_dup_fn_ || fn == (void (*)(void))mpi_dup_fn_;
}

static void (*user_delete(void (*fn)(void)))(void)
{
    if (fn == (void (*)(void))mpi_comm_null_delete_fn_ ||
        fn == (void (*)(void))mpi_null_delete_fn_)
        return NULL;
    return fn;
}

/* The record a Fortran keyval's trampolines find their routines in; NULL, with *ierror set, when
 * out of memory. The four create calls below differ only in their C callback types. */
static struct f_keyval *new_keyval(void (*copy_fn)(void), void (*delete_fn)(void),
                                   const char *function, MPI_Fint *ierror)
{
    struct f_keyval *k = keyval_record(user_copy(copy_fn), user_delete(delete_fn));
    if (!k)
        *ierror = f_no_memory(function);
    return k;
}

/* After a successful create: the keyval's callbacks take numbers (src/core/attr.h). */
static void keyval_created(const MPI_Fint *ierror, enum core_attr_kind kind, MPI_Fint keyval)
{
    if (*ierror == MPI_SUCCESS)
        core_keyval_make_fortran(kind, keyval);
}

void pmpi_comm_create_keyval_(void (*copy_fn)(void), void (*delete_fn)(void), MPI_Fint *keyval,
                              const MPI_Aint *extra_state, MPI_Fint *ierror)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter(); /* the tables here */
    struct f_keyval *k = new_keyval(copy_fn, delete_fn, "MPI_Comm_create_keyval", ierror);
    if (!k)
        return;
    k->extra_state = *extra_state;
    MPI_Comm_copy_attr_function *copy = k->copy ? comm_copy_trampoline
                                        : copy_is_dup(copy_fn) ? MPI_COMM_DUP_FN
                                                               : MPI_COMM_NULL_COPY_FN;
    MPI_Comm_delete_attr_function *del = k->delete ? comm_delete_trampoline
                                                   : MPI_COMM_NULL_DELETE_FN;
    *ierror = MPI_Comm_create_keyval(copy, del, keyval, k);
    keyval_created(ierror, CORE_ATTR_COMM, *keyval);
}
#pragma weak mpi_comm_create_keyval_ = pmpi_comm_create_keyval_

void pmpi_type_create_keyval_(void (*copy_fn)(void), void (*delete_fn)(void), MPI_Fint *keyval,
                              const MPI_Aint *extra_state, MPI_Fint *ierror)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter(); /* the tables here */
    struct f_keyval *k = new_keyval(copy_fn, delete_fn, "MPI_Type_create_keyval", ierror);
    if (!k)
        return;
    k->extra_state = *extra_state;
    MPI_Type_copy_attr_function *copy = k->copy ? type_copy_trampoline
                                        : copy_is_dup(copy_fn) ? MPI_TYPE_DUP_FN
                                                               : MPI_TYPE_NULL_COPY_FN;
    MPI_Type_delete_attr_function *del = k->delete ? type_delete_trampoline
                                                   : MPI_TYPE_NULL_DELETE_FN;
    *ierror = MPI_Type_create_keyval(copy, del, keyval, k);
    keyval_created(ierror, CORE_ATTR_TYPE, *keyval);
}
#pragma weak mpi_type_create_keyval_ = pmpi_type_create_keyval_

void pmpi_win_create_keyval_(void (*copy_fn)(void), void (*delete_fn)(void), MPI_Fint *keyval,
                             const MPI_Aint *extra_state, MPI_Fint *ierror)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter(); /* the tables here */
    struct f_keyval *k = new_keyval(copy_fn, delete_fn, "MPI_Win_create_keyval", ierror);
    if (!k)
        return;
    k->extra_state = *extra_state;
    MPI_Win_copy_attr_function *copy = k->copy ? win_copy_trampoline
                                       : copy_is_dup(copy_fn) ? MPI_WIN_DUP_FN
                                                              : MPI_WIN_NULL_COPY_FN;
    MPI_Win_delete_attr_function *del = k->delete ? win_delete_trampoline
                                                  : MPI_WIN_NULL_DELETE_FN;
    *ierror = MPI_Win_create_keyval(copy, del, keyval, k);
    keyval_created(ierror, CORE_ATTR_WIN, *keyval);
}
#pragma weak mpi_win_create_keyval_ = pmpi_win_create_keyval_

void pmpi_keyval_create_(void (*copy_fn)(void), void (*delete_fn)(void), MPI_Fint *keyval,
                         const MPI_Fint *extra_state, MPI_Fint *ierror)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter(); /* the tables here */
    struct f_keyval *k = new_keyval(copy_fn, delete_fn, "MPI_Keyval_create", ierror);
    if (!k)
        return;
    k->extra_state_int = *extra_state;
    MPI_Copy_function *copy = k->copy ? int_copy_trampoline
                              : copy_is_dup(copy_fn) ? MPI_DUP_FN
                                                     : MPI_NULL_COPY_FN;
    MPI_Delete_function *del = k->delete ? int_delete_trampoline : MPI_NULL_DELETE_FN;
    *ierror = MPI_Keyval_create(copy, del, keyval, k);
    keyval_created(ierror, CORE_ATTR_COMM, *keyval);
}
#pragma weak mpi_keyval_create_ = pmpi_keyval_create_
