/* errors.c - API: error handlers on communicators, error strings and classes, user-defined
 * error classes and codes. */
#include <stdlib.h>
#include <string.h>

#include "mpi/api.h"
#include "mpi/legacy.h"

/* The three communicator calls take the name to report, for MPI-1's MPI_Errhandler_set/get/
 * create (src/mpi/legacy.c), which are the same calls. */
int mpi_comm_set_errhandler(MPI_Comm comm, MPI_Errhandler errhandler, const char *function)
{
    struct core_comm *c;
    int rc;
    if ((rc = mpi_check_initialized(function)) || (rc = mpi_get_comm(comm, &c, function)))
        return rc;
    struct core_errhandler *eh = core_errhandler_from_handle(errhandler);
    if (!eh)
        return core_error_raise(c, MPI_ERR_ARG, function, "invalid error handler");
    if (eh->kind == CORE_ERRHANDLER_USER_WIN)
        return core_error_raise(c, MPI_ERR_ARG, function,
                                "error handler was made for windows (MPI_Win_create_errhandler)");
    if (eh->kind == CORE_ERRHANDLER_USER_FILE)
        return core_error_raise(c, MPI_ERR_ARG, function,
                                "error handler was made for files (MPI_File_create_errhandler)");
    if (eh->kind == CORE_ERRHANDLER_USER_SESSION)
        return core_error_raise(c, MPI_ERR_ARG, function,
                                "error handler was made for sessions "
                                "(MPI_Session_create_errhandler)");
    core_errhandler_retain(eh);
    core_errhandler_release(c->errhandler);
    c->errhandler = eh;
    c->errhandler_chosen = 1;
    return MPI_SUCCESS;
}

int PMPI_Comm_set_errhandler(MPI_Comm comm, MPI_Errhandler errhandler)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return mpi_comm_set_errhandler(comm, errhandler, "MPI_Comm_set_errhandler");
}
#pragma weak MPI_Comm_set_errhandler = PMPI_Comm_set_errhandler

int mpi_comm_get_errhandler(MPI_Comm comm, MPI_Errhandler *errhandler, const char *function)
{
    struct core_comm *c;
    int rc;
    if ((rc = mpi_check_initialized(function)) || (rc = mpi_get_comm(comm, &c, function)))
        return rc;
    if (!errhandler)
        return core_error_raise(c, MPI_ERR_ARG, function, "errhandler is NULL");
    /* The caller owns a reference and frees it with MPI_Errhandler_free. */
    core_errhandler_retain(c->errhandler);
    *errhandler = core_errhandler_to_handle(c->errhandler);
    return MPI_SUCCESS;
}

int PMPI_Comm_get_errhandler(MPI_Comm comm, MPI_Errhandler *errhandler)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return mpi_comm_get_errhandler(comm, errhandler, "MPI_Comm_get_errhandler");
}
#pragma weak MPI_Comm_get_errhandler = PMPI_Comm_get_errhandler

int mpi_comm_create_errhandler(MPI_Comm_errhandler_function *fn, MPI_Errhandler *errhandler,
                               const char *function)
{
    int rc = mpi_check_initialized(function);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!fn || !errhandler)
        return core_error_raise(NULL, MPI_ERR_ARG, function, "NULL function or handle pointer");
    struct core_errhandler *eh = calloc(1, sizeof(*eh));
    if (!eh)
        return core_error_raise(NULL, MPI_ERR_NO_MEM, function, "out of memory");
    eh->kind = CORE_ERRHANDLER_USER_COMM;
    eh->refcount = 1;
    eh->comm_fn = fn;
    *errhandler = core_errhandler_to_handle(eh);
    return MPI_SUCCESS;
}

int PMPI_Comm_create_errhandler(MPI_Comm_errhandler_function *comm_errhandler_fn,
                                MPI_Errhandler *errhandler)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return mpi_comm_create_errhandler(comm_errhandler_fn, errhandler,
                                      "MPI_Comm_create_errhandler");
}
#pragma weak MPI_Comm_create_errhandler = PMPI_Comm_create_errhandler

int PMPI_Comm_call_errhandler(MPI_Comm comm, int errorcode)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    struct core_comm *c;
    int rc;
    if ((rc = mpi_check_initialized("MPI_Comm_call_errhandler")) ||
        (rc = mpi_get_comm(comm, &c, "MPI_Comm_call_errhandler")))
        return rc;
    const char *text = core_error_string(errorcode);
    core_error_raise(c, errorcode, "MPI_Comm_call_errhandler", "%s",
                     text ? text : "user error code");
    return MPI_SUCCESS; /* the standard: returns MPI_SUCCESS if the handler returned */
}
#pragma weak MPI_Comm_call_errhandler = PMPI_Comm_call_errhandler

int PMPI_Errhandler_free(MPI_Errhandler *errhandler)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    struct core_errhandler *eh = errhandler ? core_errhandler_from_handle(*errhandler) : NULL;
    if (!eh)
        return core_error_raise(NULL, MPI_ERR_ARG, "MPI_Errhandler_free",
                                "invalid error handler");
    core_errhandler_release(eh);
    *errhandler = MPI_ERRHANDLER_NULL;
    return MPI_SUCCESS;
}
#pragma weak MPI_Errhandler_free = PMPI_Errhandler_free

int PMPI_Error_string(int errorcode, char *string, int *resultlen)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    const char *text = core_error_string(errorcode);
    if (!text)
        return core_error_raise(NULL, MPI_ERR_ARG, "MPI_Error_string", "invalid error code %d",
                                errorcode);
    size_t len = strnlen(text, MPI_MAX_ERROR_STRING - 1);
    memcpy(string, text, len);
    string[len] = '\0';
    *resultlen = (int)len;
    return MPI_SUCCESS;
}
#pragma weak MPI_Error_string = PMPI_Error_string

int PMPI_Error_class(int errorcode, int *errorclass)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    if (core_error_class_of(errorcode, errorclass) != MPI_SUCCESS)
        return core_error_raise(NULL, MPI_ERR_ARG, "MPI_Error_class", "invalid error code %d",
                                errorcode);
    return MPI_SUCCESS;
}
#pragma weak MPI_Error_class = PMPI_Error_class

int PMPI_Add_error_class(int *errorclass)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    int rc = mpi_check_initialized("MPI_Add_error_class");
    if (rc == MPI_SUCCESS && core_error_add_code(-1, errorclass) != MPI_SUCCESS)
        rc = core_error_raise(NULL, MPI_ERR_OTHER, "MPI_Add_error_class",
                              "too many user error codes");
    return rc;
}
#pragma weak MPI_Add_error_class = PMPI_Add_error_class

int PMPI_Add_error_code(int errorclass, int *errorcode)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    int rc = mpi_check_initialized("MPI_Add_error_code");
    if (rc != MPI_SUCCESS)
        return rc;
    int cls;
    if (core_error_class_of(errorclass, &cls) != MPI_SUCCESS || cls != errorclass)
        return core_error_raise(NULL, MPI_ERR_ARG, "MPI_Add_error_code",
                                "%d is not an error class", errorclass);
    if (core_error_add_code(errorclass, errorcode) != MPI_SUCCESS)
        return core_error_raise(NULL, MPI_ERR_OTHER, "MPI_Add_error_code",
                                "too many user error codes");
    return MPI_SUCCESS;
}
#pragma weak MPI_Add_error_code = PMPI_Add_error_code

int PMPI_Add_error_string(int errorcode, const char *string)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    int rc = mpi_check_initialized("MPI_Add_error_string");
    if (rc != MPI_SUCCESS)
        return rc;
    if (!string || strlen(string) >= MPI_MAX_ERROR_STRING ||
        core_error_set_string(errorcode, string) != MPI_SUCCESS)
        return core_error_raise(NULL, MPI_ERR_ARG, "MPI_Add_error_string",
                                "error code %d is not user-defined or string is invalid",
                                errorcode);
    return MPI_SUCCESS;
}
#pragma weak MPI_Add_error_string = PMPI_Add_error_string

static int remove_common(int code, int is_class, const char *function)
{
    int rc = mpi_check_initialized(function);
    if (rc == MPI_SUCCESS && core_error_remove(code, is_class) != MPI_SUCCESS)
        rc = core_error_raise(NULL, MPI_ERR_ARG, function,
                              "%d is not a removable user-defined error %s (unknown, "
                              "already removed, %s, or its string not yet removed)",
                              code, is_class ? "class" : "code",
                              is_class ? "codes still attached" : "a class");
    return rc;
}

int PMPI_Remove_error_class(int errorclass)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return remove_common(errorclass, 1, "MPI_Remove_error_class");
}
#pragma weak MPI_Remove_error_class = PMPI_Remove_error_class

int PMPI_Remove_error_code(int errorcode)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return remove_common(errorcode, 0, "MPI_Remove_error_code");
}
#pragma weak MPI_Remove_error_code = PMPI_Remove_error_code

int PMPI_Remove_error_string(int errorcode)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    int rc = mpi_check_initialized("MPI_Remove_error_string");
    if (rc == MPI_SUCCESS && core_error_set_string(errorcode, "") != MPI_SUCCESS)
        rc = core_error_raise(NULL, MPI_ERR_ARG, "MPI_Remove_error_string",
                              "error code %d is not user-defined", errorcode);
    return rc;
}
#pragma weak MPI_Remove_error_string = PMPI_Remove_error_string
