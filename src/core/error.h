/* error.h - error handlers and the one place an error becomes the handler's action.
 * Internal functions return MPI error classes; the API layer calls core_error_raise with the
 * function name and a message, which prints and aborts (ERRORS_ARE_FATAL / ERRORS_ABORT), calls
 * a user handler, or just returns the class (ERRORS_RETURN). */
#ifndef NODEMPI_CORE_ERROR_H
#define NODEMPI_CORE_ERROR_H

#include <mpi.h>

struct core_comm;

enum core_errhandler_kind {
    CORE_ERRHANDLER_FATAL,
    CORE_ERRHANDLER_ABORT,
    CORE_ERRHANDLER_RETURN,
    CORE_ERRHANDLER_USER_COMM,
    CORE_ERRHANDLER_USER_WIN,   /* MPI_Win_create_errhandler (src/rma) */
    CORE_ERRHANDLER_USER_FILE,  /* MPI_File_create_errhandler (src/mpi/io.c) */
    CORE_ERRHANDLER_USER_SESSION, /* MPI_Session_create_errhandler (src/mpi/session.c) */
};

struct core_errhandler {
    enum core_errhandler_kind kind;
    int predefined;
    int refcount;
    MPI_Comm_errhandler_function *comm_fn;
    MPI_Win_errhandler_function *win_fn;   /* CORE_ERRHANDLER_USER_WIN */
    MPI_File_errhandler_function *file_fn; /* CORE_ERRHANDLER_USER_FILE */
    MPI_Session_errhandler_function *session_fn; /* CORE_ERRHANDLER_USER_SESSION */
};

struct core_errhandler *core_errhandler_from_handle(MPI_Errhandler handle);
MPI_Errhandler core_errhandler_to_handle(const struct core_errhandler *eh);
void core_errhandler_retain(struct core_errhandler *eh);
void core_errhandler_release(struct core_errhandler *eh);
struct core_errhandler *core_errhandler_predefined(enum core_errhandler_kind kind);

/* Invoke comm's error handler (MPI_COMM_SELF's when comm is NULL, MPI_COMM_WORLD's before
 * init) for error code `code` raised in `function`; the message follows printf rules.
 * Returns code when the handler returns. Fatal handlers print
 * "nodempi: <function>: <message>" and end the job. */
int core_error_raise(struct core_comm *comm, int code, const char *function, const char *fmt,
                     ...) __attribute__((format(printf, 4, 5)));

/* The same for objects that are not communicators (windows, sessions, files): eh is the
 * object's handler, handle its MPI handle (passed by address to a user handler of the
 * object's kind) and object_name names it in the fatal message ("window w0"). */
int core_error_raise_object(struct core_errhandler *eh, void *handle, const char *object_name,
                            int code, const char *function, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));

/* Error classes and codes: standard ones, plus user-added (MPI_Add_error_class/code). */
int core_error_class_of(int code, int *errclass);   /* MPI_SUCCESS or MPI_ERR_ARG */
const char *core_error_string(int code);             /* NULL for unknown codes */

/* End the job with exit code `code` (MPI_Abort, fatal errors): tells the launcher, then exits. */
_Noreturn void core_abort_job(int code);

/* User error classes/codes (MPI_Add_error_class/code/string, MPI_Remove_error_*). */
int core_error_add_code(int errclass, int *code); /* errclass < 0: a new class */
int core_error_set_string(int code, const char *string);
int core_error_remove(int code, int is_class);
int core_error_last_used_code(void);             /* MPI_LASTUSEDCODE */
void core_error_finalize(void);

#endif
