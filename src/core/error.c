/* error.c - error handler objects, error classes/codes/strings and the fatal path.
 * Predefined handlers live in a table indexed by ABI handle value; user handlers are heap
 * objects. User error classes and codes (MPI_Add_error_class/code) extend the standard's table
 * upwards from MPI_ERR_LASTCODE's neighbourhood: see user_codes below. */
#include "core/error.h"

#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/comm.h"
#include "core/state.h"
#include "shm/segment.h"

static struct core_errhandler predefined_handlers[4] = {
    [CORE_ERRHANDLER_FATAL] = {CORE_ERRHANDLER_FATAL, 1, 1, NULL},
    [CORE_ERRHANDLER_ABORT] = {CORE_ERRHANDLER_ABORT, 1, 1, NULL},
    [CORE_ERRHANDLER_RETURN] = {CORE_ERRHANDLER_RETURN, 1, 1, NULL},
};

struct core_errhandler *core_errhandler_predefined(enum core_errhandler_kind kind)
{
    return &predefined_handlers[kind];
}

struct core_errhandler *core_errhandler_from_handle(MPI_Errhandler handle)
{
    if (handle == MPI_ERRORS_ARE_FATAL)
        return &predefined_handlers[CORE_ERRHANDLER_FATAL];
    if (handle == MPI_ERRORS_ABORT)
        return &predefined_handlers[CORE_ERRHANDLER_ABORT];
    if (handle == MPI_ERRORS_RETURN)
        return &predefined_handlers[CORE_ERRHANDLER_RETURN];
    if ((uintptr_t)handle < 0x1000)
        return NULL;
    return (struct core_errhandler *)handle;
}

MPI_Errhandler core_errhandler_to_handle(const struct core_errhandler *eh)
{
    if (eh == &predefined_handlers[CORE_ERRHANDLER_FATAL])
        return MPI_ERRORS_ARE_FATAL;
    if (eh == &predefined_handlers[CORE_ERRHANDLER_ABORT])
        return MPI_ERRORS_ABORT;
    if (eh == &predefined_handlers[CORE_ERRHANDLER_RETURN])
        return MPI_ERRORS_RETURN;
    return eh ? (MPI_Errhandler)eh : MPI_ERRHANDLER_NULL;
}

void core_errhandler_retain(struct core_errhandler *eh)
{
    if (eh && !eh->predefined)
        eh->refcount++;
}

void core_errhandler_release(struct core_errhandler *eh)
{
    if (eh && !eh->predefined && --eh->refcount == 0)
        free(eh);
}

/* ---- error strings ------------------------------------------------------------------------ */

static const char *const class_strings[] = {
    [MPI_SUCCESS] = "no error",
    [MPI_ERR_BUFFER] = "invalid buffer pointer",
    [MPI_ERR_COUNT] = "invalid count argument",
    [MPI_ERR_TYPE] = "invalid datatype",
    [MPI_ERR_TAG] = "invalid tag",
    [MPI_ERR_COMM] = "invalid communicator",
    [MPI_ERR_RANK] = "invalid rank",
    [MPI_ERR_REQUEST] = "invalid request",
    [MPI_ERR_ROOT] = "invalid root",
    [MPI_ERR_GROUP] = "invalid group",
    [MPI_ERR_OP] = "invalid reduce operation",
    [MPI_ERR_TOPOLOGY] = "invalid topology",
    [MPI_ERR_DIMS] = "invalid dimension argument",
    [MPI_ERR_ARG] = "invalid argument",
    [MPI_ERR_UNKNOWN] = "unknown error",
    [MPI_ERR_TRUNCATE] = "message truncated",
    [MPI_ERR_OTHER] = "other error",
    [MPI_ERR_INTERN] = "internal error",
    [MPI_ERR_PENDING] = "pending request",
    [MPI_ERR_IN_STATUS] = "error code is in status",
    [MPI_ERR_ACCESS] = "permission denied",
    [MPI_ERR_AMODE] = "invalid access mode",
    [MPI_ERR_ASSERT] = "invalid assert argument",
    [MPI_ERR_BAD_FILE] = "invalid file name",
    [MPI_ERR_BASE] = "invalid base address",
    [MPI_ERR_CONVERSION] = "data conversion error",
    [MPI_ERR_DISP] = "invalid displacement",
    [MPI_ERR_DUP_DATAREP] = "data representation already defined",
    [MPI_ERR_FILE_EXISTS] = "file exists",
    [MPI_ERR_FILE_IN_USE] = "file in use",
    [MPI_ERR_FILE] = "invalid file handle",
    [MPI_ERR_INFO_KEY] = "info key too long",
    [MPI_ERR_INFO_NOKEY] = "info key not defined",
    [MPI_ERR_INFO_VALUE] = "info value too long",
    [MPI_ERR_INFO] = "invalid info object",
    [MPI_ERR_IO] = "I/O error",
    [MPI_ERR_KEYVAL] = "invalid attribute key",
    [MPI_ERR_LOCKTYPE] = "invalid lock type",
    [MPI_ERR_NAME] = "invalid service name",
    [MPI_ERR_NO_MEM] = "out of memory",
    [MPI_ERR_NOT_SAME] = "collective arguments not identical",
    [MPI_ERR_NO_SPACE] = "no space left",
    [MPI_ERR_NO_SUCH_FILE] = "no such file",
    [MPI_ERR_PORT] = "invalid port name",
    [MPI_ERR_QUOTA] = "quota exceeded",
    [MPI_ERR_READ_ONLY] = "read-only file or file system",
    [MPI_ERR_RMA_ATTACH] = "memory cannot be attached",
    [MPI_ERR_RMA_CONFLICT] = "conflicting RMA accesses",
    [MPI_ERR_RMA_RANGE] = "RMA target memory out of range",
    [MPI_ERR_RMA_SHARED] = "memory cannot be shared",
    [MPI_ERR_RMA_SYNC] = "wrong RMA synchronization",
    [MPI_ERR_SERVICE] = "invalid service",
    [MPI_ERR_SIZE] = "invalid size",
    [MPI_ERR_SPAWN] = "spawn error",
    [MPI_ERR_UNSUPPORTED_DATAREP] = "unsupported data representation",
    [MPI_ERR_UNSUPPORTED_OPERATION] = "unsupported operation",
    [MPI_ERR_WIN] = "invalid window",
    [MPI_ERR_RMA_FLAVOR] = "wrong window flavor",
    [MPI_ERR_PROC_ABORTED] = "process aborted",
    [MPI_ERR_VALUE_TOO_LARGE] = "value too large",
    [MPI_ERR_SESSION] = "invalid session",
    [MPI_ERR_ERRHANDLER] = "invalid error handler",
    [MPI_ERR_ABI] = "ABI mismatch",
};
#define STANDARD_CLASSES ((int)(sizeof(class_strings) / sizeof(class_strings[0])))

/* User-defined classes and codes: MPI_ERR_LASTCODE + 1 upwards (the standard: added codes and
 * classes are above MPI_ERR_LASTCODE), each with its class and an optional string. Classes are
 * codes whose class is themselves. */
#define USER_CODE_BASE (MPI_ERR_LASTCODE + 1)
enum { USER_CODES_MAX = 1024 };
static struct {
    int errclass;
    int removed;
    char *string;
} user_codes[USER_CODES_MAX];
static int user_code_count;

int core_error_class_of(int code, int *errclass)
{
    if (code >= 0 && code < STANDARD_CLASSES) {
        *errclass = code;
        return MPI_SUCCESS;
    }
    if (code >= MPI_T_ERR_CANNOT_INIT && code <= MPI_T_ERR_PVAR_NO_ATOMIC) {
        *errclass = code;
        return MPI_SUCCESS;
    }
    int index = code - USER_CODE_BASE;
    if (index >= 0 && index < user_code_count && !user_codes[index].removed) {
        *errclass = user_codes[index].errclass;
        return MPI_SUCCESS;
    }
    return MPI_ERR_ARG;
}

/* The tool interface's classes (MPI_T_ERR_CANNOT_INIT..MPI_T_ERR_PVAR_NO_ATOMIC, in order). */
static const char *const tool_strings[] = {
    "MPI_T: the tool interface cannot be initialized",
    "MPI_T: the variable or function is not accessible now",
    "MPI_T: the tool interface is not initialized",
    "MPI_T: not supported",
    "MPI_T: out of memory",
    "MPI_T: invalid use of the interface or bad argument",
    "MPI_T: invalid index",
    "MPI_T: invalid enumeration item",
    "MPI_T: invalid performance variable session",
    "MPI_T: invalid handle",
    "MPI_T: no variable, category or event of that name",
    "MPI_T: no more handles",
    "MPI_T: no more sessions",
    "MPI_T: the control variable cannot be set now",
    "MPI_T: the control variable cannot be set (read-only)",
    "MPI_T: the performance variable cannot be written or reset",
    "MPI_T: the performance variable cannot be started or stopped",
    "MPI_T: the performance variable cannot be read and reset atomically",
};
_Static_assert(sizeof(tool_strings) / sizeof(tool_strings[0]) ==
                   MPI_T_ERR_PVAR_NO_ATOMIC - MPI_T_ERR_CANNOT_INIT + 1,
               "one string per MPI_T error class");

const char *core_error_string(int code)
{
    if (code >= 0 && code < STANDARD_CLASSES)
        return class_strings[code];
    int index = code - USER_CODE_BASE;
    if (index >= 0 && index < user_code_count && !user_codes[index].removed)
        return user_codes[index].string ? user_codes[index].string : "";
    if (code >= MPI_T_ERR_CANNOT_INIT && code <= MPI_T_ERR_PVAR_NO_ATOMIC)
        return tool_strings[code - MPI_T_ERR_CANNOT_INIT];
    return NULL;
}

int core_error_add_code(int errclass, int *code)
{
    if (user_code_count == USER_CODES_MAX)
        return MPI_ERR_OTHER;
    int index = user_code_count++;
    int value = USER_CODE_BASE + index;
    user_codes[index].errclass = errclass < 0 ? value : errclass;
    user_codes[index].removed = 0;
    user_codes[index].string = NULL;
    *code = value;
    return MPI_SUCCESS;
}

int core_error_set_string(int code, const char *string)
{
    int index = code - USER_CODE_BASE;
    if (index < 0 || index >= user_code_count || user_codes[index].removed)
        return MPI_ERR_ARG;
    free(user_codes[index].string);
    user_codes[index].string = strdup(string);
    return user_codes[index].string ? MPI_SUCCESS : MPI_ERR_NO_MEM;
}

int core_error_remove(int code, int want_class)
{
    int index = code - USER_CODE_BASE;
    if (index < 0 || index >= user_code_count || user_codes[index].removed)
        return MPI_ERR_ARG;
    int is_class = user_codes[index].errclass == code;
    if (is_class != want_class)
        return MPI_ERR_ARG;
    /* MPI-4.1: removing a code or class that still has a string is erroneous; the user
     * removes the string first (MPI_Remove_error_string). */
    if (user_codes[index].string && user_codes[index].string[0])
        return MPI_ERR_ARG;
    if (is_class) /* a class with codes still attached cannot go */
        for (int i = 0; i < user_code_count; i++)
            if (i != index && !user_codes[i].removed && user_codes[i].errclass == code)
                return MPI_ERR_ARG;
    user_codes[index].removed = 1;
    free(user_codes[index].string);
    user_codes[index].string = NULL;
    return MPI_SUCCESS;
}

int core_error_last_used_code(void)
{
    return MPI_ERR_LASTCODE + user_code_count;
}

void core_error_finalize(void)
{
    for (int i = 0; i < user_code_count; i++)
        free(user_codes[i].string);
    user_code_count = 0;
}

/* ---- raising ------------------------------------------------------------------------------ */

_Noreturn void core_abort_job(int code)
{
    fflush(stdout);
    fflush(stderr);
    if (nodempi.segment) {
        struct shm_rank_block *me = shm_rank_block(nodempi.segment, nodempi.world_rank);
        atomic_store_explicit(&me->abort_code, code, memory_order_relaxed);
        /* release: the launcher reading ABORTING also sees the code */
        atomic_store_explicit(&me->state, SHM_RANK_ABORTING, memory_order_release);
        int expected = 0;
        if (atomic_compare_exchange_strong(&nodempi.segment->job_state, &expected, 1)) {
            atomic_store(&nodempi.segment->abort_code, code);
            atomic_store(&nodempi.segment->abort_rank, nodempi.world_rank);
        }
    }
    /* Exit codes are 8 bits; keep a non-zero code non-zero. */
    _exit(code & 0xff ? code & 0xff : (code ? 1 : 0));
}

/* The communicator whose handler takes an error of a call that has no communicator, window,
 * file or session (datatypes, groups, keyvals, MPI_Reduce_local, the name service). MPI-4.0
 * says MPI_COMM_SELF's. MPI-3.1 said MPI_COMM_WORLD's, as Open MPI 4.1 and MPICH 4.0 (Debian's)
 * still do, and programs written for them set MPI_ERRORS_RETURN on MPI_COMM_WORLD alone and
 * then check those calls' return codes (15 of MPICH's own tests do). So while the program has
 * chosen a handler for MPI_COMM_WORLD and none for MPI_COMM_SELF, WORLD's is taken; a program
 * that chooses SELF's gets MPI-4's rule exactly. */
static struct core_comm *objectless_error_comm(void)
{
    struct core_comm *self = nodempi.comm_self, *world = nodempi.comm_world;
    if (world && world->errhandler_chosen && !(self && self->errhandler_chosen))
        return world;
    return self ? self : world;
}

int core_error_raise(struct core_comm *comm, int code, const char *function, const char *fmt,
                     ...)
{
    if (!comm)
        comm = objectless_error_comm();
    struct core_errhandler *eh =
        comm ? comm->errhandler : &predefined_handlers[CORE_ERRHANDLER_FATAL];
    if (eh->kind == CORE_ERRHANDLER_RETURN)
        return code;
    if (eh->kind == CORE_ERRHANDLER_USER_COMM) {
        MPI_Comm handle = core_comm_to_handle(comm);
        eh->comm_fn(&handle, &code);
        return code;
    }
    char message[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, sizeof(message), fmt, ap);
    va_end(ap);
    fprintf(stderr, "nodempi: %s: %s\n", function, message);
    if (nodempi.world_size > 1)
        fprintf(stderr, "nodempi: rank %d aborts the job (MPI_ERRORS_ARE_FATAL on %s)\n",
                nodempi.world_rank, comm && comm->name[0] ? comm->name : "the communicator");
    core_abort_job(code ? code : 1);
}

int core_error_raise_object(struct core_errhandler *eh, void *handle, const char *object_name,
                            int code, const char *function, const char *fmt, ...)
{
    if (eh->kind == CORE_ERRHANDLER_RETURN)
        return code;
    if (eh->kind == CORE_ERRHANDLER_USER_WIN && eh->win_fn) {
        MPI_Win win = (MPI_Win)handle;
        eh->win_fn(&win, &code);
        return code;
    }
    if (eh->kind == CORE_ERRHANDLER_USER_SESSION && eh->session_fn) {
        MPI_Session session = (MPI_Session)handle;
        eh->session_fn(&session, &code);
        return code;
    }
    if (eh->kind == CORE_ERRHANDLER_USER_FILE && eh->file_fn) {
        MPI_File file = (MPI_File)handle;
        eh->file_fn(&file, &code);
        return code;
    }
    char message[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, sizeof(message), fmt, ap);
    va_end(ap);
    fprintf(stderr, "nodempi: %s: %s\n", function, message);
    if (nodempi.world_size > 1)
        fprintf(stderr, "nodempi: rank %d aborts the job (MPI_ERRORS_ARE_FATAL on %s)\n",
                nodempi.world_rank, object_name && object_name[0] ? object_name : "the object");
    core_abort_job(code ? code : 1);
}
