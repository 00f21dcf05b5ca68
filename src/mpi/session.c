/* session.c - API: the sessions of MPI-4 (chapter 11): MPI_Session_init/finalize, their process
 * sets, info and error handlers, MPI_Group_from_session_pset and (MPI-4.1) the session's buffer
 * for buffered sends (kept by src/p2p/bsend.c under the session's serial). Each open session
 * holds one reference to the runtime (core_runtime_acquire), so sessions work with or without
 * MPI_Init. Owns the session objects and the list of open ones; must not start or stop layers
 * itself. */
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/init.h"
#include "core/request.h"
#include "mpi/comm_api.h"
#include "p2p/p2p.h"

/* The handle of a session is the object's address. Handles are checked against the list of
 * open sessions, so a finalized or made-up handle is reported, never dereferenced. */
struct mpi_session {
    struct mpi_session *next;
    struct core_errhandler *errhandler;
    uint64_t serial; /* never reused: groups and communicators name their session by it */
    int thread_level; /* granted for the "thread_level" hint (MPI_Session_get_info) */
};

static struct mpi_session *open_sessions;
static uint64_t last_serial;

/* The process sets the standard defines; a single node has no others to offer (nor do MPICH
 * and Open MPI by default). */
enum { PSET_WORLD, PSET_SELF, PSET_COUNT };
static const char *const pset_names[PSET_COUNT] = {"mpi://WORLD", "mpi://SELF"};

static MPI_Session session_to_handle(const struct mpi_session *session)
{
    return session ? (MPI_Session)session : MPI_SESSION_NULL;
}

static struct mpi_session *session_from_handle(MPI_Session handle)
{
    for (struct mpi_session *s = open_sessions; s; s = s->next)
        if ((MPI_Session)s == handle)
            return s;
    return NULL;
}

/* An error on a session goes to the session's handler (MPI_ERRORS_ARE_FATAL unless
 * MPI_Session_init or MPI_Session_set_errhandler said otherwise). */
static int session_error(struct core_errhandler *eh, struct mpi_session *session, int code,
                         const char *function, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

static int session_error(struct core_errhandler *eh, struct mpi_session *session, int code,
                         const char *function, const char *fmt, ...)
{
    char message[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, sizeof(message), fmt, ap);
    va_end(ap);
    return core_error_raise_object(eh, (void *)session_to_handle(session), "the session", code,
                                   function, "%s", message);
}

/* A valid open session or MPI_ERR_SESSION. There is no session whose handler could take that
 * error, so it goes where errors without an object go (core_error_raise with no
 * communicator: MPI_COMM_SELF's handler, fatal while no runtime is up). */
static int begin_session(MPI_Session handle, struct mpi_session **session, const char *function)
{
    *session = session_from_handle(handle);
    if (*session)
        return MPI_SUCCESS;
    return core_error_raise(NULL, MPI_ERR_SESSION, function, "invalid session%s",
                            handle == MPI_SESSION_NULL ? " MPI_SESSION_NULL" : "");
}

static int check_pointer(struct mpi_session *session, const void *pointer, const char *name,
                         const char *function)
{
    if (pointer)
        return MPI_SUCCESS;
    return session_error(session->errhandler, session, MPI_ERR_ARG, function, "%s is NULL",
                         name);
}

/* The info argument of the pset queries may be MPI_INFO_NULL; nothing in it changes the
 * answer here, but a bad handle is still an error. */
static int check_optional_info(struct mpi_session *session, MPI_Info info, const char *function)
{
    if (info == MPI_INFO_NULL || core_info_from_handle(info))
        return MPI_SUCCESS;
    return session_error(session->errhandler, session, MPI_ERR_INFO, function,
                         "invalid info object");
}

/* *pset = index of the named process set, or -1 with the error raised (and its code returned).
 * Names compare without regard to case, as MPICH does (the standard spells them in capitals
 * and says nothing about case). */
static int pset_find(struct mpi_session *session, const char *name, int *pset,
                     const char *function)
{
    *pset = -1;
    if (!name)
        return session_error(session->errhandler, session, MPI_ERR_ARG, function,
                             "pset_name is NULL");
    for (int i = 0; i < PSET_COUNT; i++)
        if (strcasecmp(name, pset_names[i]) == 0) {
            *pset = i;
            return MPI_SUCCESS;
        }
    return session_error(session->errhandler, session, MPI_ERR_ARG, function,
                         "unknown process set \"%.200s\" (this MPI has mpi://WORLD and "
                         "mpi://SELF)", name);
}

static int pset_size(int pset)
{
    return pset == PSET_WORLD ? nodempi.world_size : 1;
}

static const char *thread_level_name(int level);

/* The level a "thread_level" hint asks for: one of the four names (MPI 4.1 11.3.1), case
 * ignored. Without one (or with another value) the session gets what the process already
 * provides: MPI_THREAD_MULTIPLE once the big lock is on (a library starting a session inside a
 * threaded program: MPICH's threads/init/mult_session), MPI_THREAD_SINGLE otherwise. */
static int thread_level_requested(MPI_Info info)
{
    static const int levels[] = {MPI_THREAD_SINGLE, MPI_THREAD_FUNNELED, MPI_THREAD_SERIALIZED,
                                 MPI_THREAD_MULTIPLE};
    const char *asked = info != MPI_INFO_NULL
                            ? core_info_get(core_info_from_handle(info), "thread_level")
                            : NULL;
    for (int i = 0; asked && i < 4; i++)
        if (strcasecmp(asked, thread_level_name(levels[i])) == 0)
            return levels[i];
    return nodempi.thread_multiple ? MPI_THREAD_MULTIPLE : MPI_THREAD_SINGLE;
}

static const char *thread_level_name(int level)
{
    switch (level) {
    case MPI_THREAD_SINGLE:
        return "MPI_THREAD_SINGLE";
    case MPI_THREAD_FUNNELED:
        return "MPI_THREAD_FUNNELED";
    case MPI_THREAD_SERIALIZED:
        return "MPI_THREAD_SERIALIZED";
    default:
        return "MPI_THREAD_MULTIPLE";
    }
}

/* ---- start and end -------------------------------------------------------------------------- */

/* Errors of MPI_Session_init go to the handler it was given, once that one is known valid. */
static int check_session_init(MPI_Info info, MPI_Errhandler errhandler, MPI_Session *session,
                              struct core_errhandler **eh)
{
    const char *fn = "MPI_Session_init";
    *eh = core_errhandler_from_handle(errhandler);
    if (!*eh)
        return core_error_raise(NULL, MPI_ERR_ERRHANDLER, fn, "invalid errhandler%s",
                                errhandler == MPI_ERRHANDLER_NULL ? " MPI_ERRHANDLER_NULL" : "");
    if (!(*eh)->predefined && (*eh)->kind != CORE_ERRHANDLER_USER_SESSION)
        return core_error_raise(NULL, MPI_ERR_ERRHANDLER, fn,
                                "errhandler was not made by MPI_Session_create_errhandler");
    if (info != MPI_INFO_NULL && !core_info_from_handle(info))
        return session_error(*eh, NULL, MPI_ERR_INFO, fn, "invalid info object");
    if (!session)
        return session_error(*eh, NULL, MPI_ERR_ARG, fn, "session is NULL");
    return MPI_SUCCESS;
}

static int session_init(MPI_Info info, MPI_Errhandler errhandler, MPI_Session *session)
{
    struct core_errhandler *eh;
    int rc = check_session_init(info, errhandler, session, &eh);
    if (rc != MPI_SUCCESS)
        return rc;
    struct mpi_session *made = calloc(1, sizeof(*made));
    if (!made)
        return session_error(eh, NULL, MPI_ERR_NO_MEM, "MPI_Session_init", "out of memory");
    rc = core_runtime_acquire();
    if (rc != MPI_SUCCESS) {
        free(made);
        return session_error(eh, NULL, rc, "MPI_Session_init", "the runtime did not start");
    }
    core_errhandler_retain(eh);
    made->errhandler = eh;
    made->serial = ++last_serial;
    made->thread_level = core_thread_level_grant(thread_level_requested(info));
    made->next = open_sessions;
    open_sessions = made;
    *session = session_to_handle(made);
    return MPI_SUCCESS;
}

/* Takes the big lock whatever the level (core_thread_enter, not mpi_enter): sessions may be
 * started by several threads at once (MPI 4.1 11.3.1), and this one may turn the lock on. */
int PMPI_Session_init(MPI_Info info, MPI_Errhandler errhandler, MPI_Session *session)
{
    core_thread_enter();
    int rc = session_init(info, errhandler, session);
    core_thread_leave();
    return rc;
}
#pragma weak MPI_Session_init = PMPI_Session_init

/* Collective over the job when it ends the last use of the runtime (see core_runtime_release):
 * the standard lets MPI_Session_finalize synchronise with the processes it communicated with. */
static int session_finalize(MPI_Session *session)
{
    struct mpi_session *s;
    if (!session)
        return core_error_raise(NULL, MPI_ERR_ARG, "MPI_Session_finalize", "session is NULL");
    int rc = begin_session(*session, &s, "MPI_Session_finalize");
    if (rc != MPI_SUCCESS)
        return rc;
    struct mpi_session **link = &open_sessions;
    while (*link != s)
        link = &(*link)->next;
    *link = s->next;
    void *buffer; /* an attached buffer is detached, its messages sent first */
    size_t bytes;
    p2p_bsend_session_detach(s->serial, &buffer, &bytes);
    core_errhandler_release(s->errhandler);
    free(s);
    *session = MPI_SESSION_NULL;
    return core_runtime_release();
}

int PMPI_Session_finalize(MPI_Session *session)
{
    core_thread_enter();
    int rc = session_finalize(session);
    core_thread_leave();
    return rc;
}
#pragma weak MPI_Session_finalize = PMPI_Session_finalize

int PMPI_Session_get_info(MPI_Session session, MPI_Info *info_used)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    const char *fn = "MPI_Session_get_info";
    struct mpi_session *s;
    int rc = begin_session(session, &s, fn);
    if (rc == MPI_SUCCESS)
        rc = check_pointer(s, info_used, "info_used", fn);
    if (rc != MPI_SUCCESS)
        return rc;
    struct core_info *made = core_info_new();
    if (!made || core_info_set(made, "thread_level", thread_level_name(s->thread_level))) {
        core_info_free(made);
        return session_error(s->errhandler, s, MPI_ERR_NO_MEM, fn, "out of memory");
    }
    *info_used = core_info_to_handle(made);
    return MPI_SUCCESS;
}
#pragma weak MPI_Session_get_info = PMPI_Session_get_info

/* ---- process sets --------------------------------------------------------------------------- */

int PMPI_Session_get_num_psets(MPI_Session session, MPI_Info info, int *npset_names)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    const char *fn = "MPI_Session_get_num_psets";
    struct mpi_session *s;
    int rc = begin_session(session, &s, fn);
    if (rc == MPI_SUCCESS)
        rc = check_optional_info(s, info, fn);
    if (rc == MPI_SUCCESS)
        rc = check_pointer(s, npset_names, "npset_names", fn);
    if (rc == MPI_SUCCESS)
        *npset_names = PSET_COUNT;
    return rc;
}
#pragma weak MPI_Session_get_num_psets = PMPI_Session_get_num_psets

/* *pset_len in: the buffer's size (0: only ask for the size); out: the size the whole name
 * needs, terminator included. A short buffer gets the name truncated and terminated. */
int PMPI_Session_get_nth_pset(MPI_Session session, MPI_Info info, int n, int *pset_len,
                              char *pset_name)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    const char *fn = "MPI_Session_get_nth_pset";
    struct mpi_session *s;
    int rc = begin_session(session, &s, fn);
    if (rc == MPI_SUCCESS)
        rc = check_optional_info(s, info, fn);
    if (rc == MPI_SUCCESS && (n < 0 || n >= PSET_COUNT))
        rc = session_error(s->errhandler, s, MPI_ERR_ARG, fn,
                           "invalid n %d (there are %d process sets)", n, PSET_COUNT);
    if (rc == MPI_SUCCESS)
        rc = check_pointer(s, pset_len, "pset_len", fn);
    if (rc == MPI_SUCCESS && *pset_len < 0)
        rc = session_error(s->errhandler, s, MPI_ERR_ARG, fn, "invalid pset_len %d",
                           *pset_len);
    if (rc == MPI_SUCCESS && *pset_len > 0)
        rc = check_pointer(s, pset_name, "pset_name", fn);
    if (rc != MPI_SUCCESS)
        return rc;
    int needed = (int)strlen(pset_names[n]) + 1;
    if (*pset_len > 0) {
        int copy = *pset_len < needed ? *pset_len - 1 : needed - 1;
        memcpy(pset_name, pset_names[n], (size_t)copy);
        pset_name[copy] = '\0';
    }
    *pset_len = needed;
    return MPI_SUCCESS;
}
#pragma weak MPI_Session_get_nth_pset = PMPI_Session_get_nth_pset

int PMPI_Session_get_pset_info(MPI_Session session, const char *pset_name, MPI_Info *info)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    const char *fn = "MPI_Session_get_pset_info";
    struct mpi_session *s;
    int rc = begin_session(session, &s, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    int pset;
    rc = pset_find(s, pset_name, &pset, fn);
    if (pset < 0)
        return rc;
    if ((rc = check_pointer(s, info, "info", fn)) != MPI_SUCCESS)
        return rc;
    char size[16];
    snprintf(size, sizeof(size), "%d", pset_size(pset));
    struct core_info *made = core_info_new();
    if (!made || core_info_set(made, "mpi_size", size) != MPI_SUCCESS) {
        core_info_free(made);
        return session_error(s->errhandler, s, MPI_ERR_NO_MEM, fn, "out of memory");
    }
    *info = core_info_to_handle(made);
    return MPI_SUCCESS;
}
#pragma weak MPI_Session_get_pset_info = PMPI_Session_get_pset_info

int PMPI_Group_from_session_pset(MPI_Session session, const char *pset_name,
                                 MPI_Group *newgroup)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    const char *fn = "MPI_Group_from_session_pset";
    struct mpi_session *s;
    int rc = begin_session(session, &s, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    int pset;
    rc = pset_find(s, pset_name, &pset, fn);
    if (pset < 0)
        return rc;
    if ((rc = check_pointer(s, newgroup, "newgroup", fn)) != MPI_SUCCESS)
        return rc;
    int n = pset_size(pset);
    int *ranks = malloc(sizeof(int) * (size_t)n);
    struct core_group *made = NULL;
    if (ranks) {
        for (int i = 0; i < n; i++)
            ranks[i] = pset == PSET_WORLD ? i : nodempi.world_rank;
        made = core_group_new(n, ranks, nodempi.world_rank);
        free(ranks);
    }
    if (made)
        made->session = s->serial; /* communicators made from it derive from the session */
    if (!made)
        return session_error(s->errhandler, s, MPI_ERR_NO_MEM, fn, "out of memory");
    *newgroup = core_group_to_handle(made);
    return MPI_SUCCESS;
}
#pragma weak MPI_Group_from_session_pset = PMPI_Group_from_session_pset

/* ---- the buffer for buffered sends (MPI-4.1 3.6) --------------------------------------------- */

/* MPI_BUFFER_AUTOMATIC: the library allocates, the size is ignored (made 0). */
static int session_attach_buffer(MPI_Session session, void *buffer, MPI_Count size,
                                 const char *function)
{
    struct mpi_session *s;
    int rc = begin_session(session, &s, function);
    if (rc != MPI_SUCCESS)
        return rc;
    if (buffer == MPI_BUFFER_AUTOMATIC)
        size = 0;
    else if (size < 0 || (!buffer && size > 0))
        return session_error(s->errhandler, s, size < 0 ? MPI_ERR_COUNT : MPI_ERR_BUFFER,
                             function, "invalid buffer %p of size %lld", buffer,
                             (long long)size);
    rc = p2p_bsend_session_attach(s->serial, buffer, (size_t)size);
    if (rc == MPI_ERR_BUFFER)
        return session_error(s->errhandler, s, rc, function,
                             "a buffer is already attached to the session (detach it first)");
    if (rc != MPI_SUCCESS)
        return session_error(s->errhandler, s, rc, function, "out of memory");
    return MPI_SUCCESS;
}

int PMPI_Session_attach_buffer(MPI_Session session, void *buffer, int size)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return session_attach_buffer(session, buffer, size, "MPI_Session_attach_buffer");
}
#pragma weak MPI_Session_attach_buffer = PMPI_Session_attach_buffer

int PMPI_Session_attach_buffer_c(MPI_Session session, void *buffer, MPI_Count size)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return session_attach_buffer(session, buffer, size, "MPI_Session_attach_buffer_c");
}
#pragma weak MPI_Session_attach_buffer_c = PMPI_Session_attach_buffer_c

/* Waits until the messages in the buffer are sent; no buffer attached gives NULL and 0 (as
 * MPI_Comm_detach_buffer here, and MPICH). */
static int session_detach_buffer(MPI_Session session, void *buffer_addr, MPI_Count *size,
                                 const char *function)
{
    struct mpi_session *s;
    int rc = begin_session(session, &s, function);
    if (rc == MPI_SUCCESS)
        rc = check_pointer(s, buffer_addr, "buffer_addr", function);
    if (rc == MPI_SUCCESS)
        rc = check_pointer(s, size, "size", function);
    if (rc != MPI_SUCCESS)
        return rc;
    void *buffer;
    size_t bytes;
    p2p_bsend_session_detach(s->serial, &buffer, &bytes);
    *(void **)buffer_addr = buffer;
    *size = (MPI_Count)bytes;
    return MPI_SUCCESS;
}

int PMPI_Session_detach_buffer(MPI_Session session, void *buffer_addr, int *size)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    MPI_Count bytes = 0;
    int rc = session_detach_buffer(session, buffer_addr, size ? &bytes : NULL,
                                   "MPI_Session_detach_buffer");
    if (rc == MPI_SUCCESS)
        *size = bytes > INT_MAX ? INT_MAX : (int)bytes; /* attached by the _c form */
    return rc;
}
#pragma weak MPI_Session_detach_buffer = PMPI_Session_detach_buffer

int PMPI_Session_detach_buffer_c(MPI_Session session, void *buffer_addr, MPI_Count *size)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return session_detach_buffer(session, buffer_addr, size, "MPI_Session_detach_buffer_c");
}
#pragma weak MPI_Session_detach_buffer_c = PMPI_Session_detach_buffer_c

int PMPI_Session_flush_buffer(MPI_Session session)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    struct mpi_session *s;
    int rc = begin_session(session, &s, "MPI_Session_flush_buffer");
    if (rc == MPI_SUCCESS)
        p2p_bsend_session_flush(s->serial);
    return rc;
}
#pragma weak MPI_Session_flush_buffer = PMPI_Session_flush_buffer

/* The request's state is the session's serial, so finalizing the session first is harmless. */
static int poll_session_flushed(struct core_request *request)
{
    if (p2p_bsend_session_flushed(*(uint64_t *)request->state))
        request->complete = 1;
    return MPI_SUCCESS;
}

static void free_session_serial(struct core_request *request)
{
    free(request->state);
    request->state = NULL;
}

/* Completes once nothing is buffered (messages buffered after the call are waited for too, as
 * MPI_Comm_iflush_buffer here). */
int PMPI_Session_iflush_buffer(MPI_Session session, MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    const char *fn = "MPI_Session_iflush_buffer";
    struct mpi_session *s;
    int rc = begin_session(session, &s, fn);
    if (rc == MPI_SUCCESS && !request)
        rc = session_error(s->errhandler, s, MPI_ERR_REQUEST, fn, "NULL request pointer");
    if (rc != MPI_SUCCESS)
        return rc;
    uint64_t *serial = malloc(sizeof(*serial));
    struct core_request *r = serial ? core_request_alloc(CORE_REQUEST_GENERIC) : NULL;
    if (!r) {
        free(serial);
        return session_error(s->errhandler, s, MPI_ERR_NO_MEM, fn, "cannot allocate a request");
    }
    *serial = s->serial;
    r->state = serial;
    r->free_state = free_session_serial;
    r->poll = poll_session_flushed;
    rc = core_request_start_generic(r);
    *request = core_request_to_handle(r);
    if (rc != MPI_SUCCESS)
        return session_error(s->errhandler, s, rc, fn, "cannot start the request");
    return MPI_SUCCESS;
}
#pragma weak MPI_Session_iflush_buffer = PMPI_Session_iflush_buffer

/* ---- error handlers ------------------------------------------------------------------------- */

/* Needs no runtime: a handler is made before the MPI_Session_init it is given to. */
int PMPI_Session_create_errhandler(MPI_Session_errhandler_function *session_errhandler_fn,
                                   MPI_Errhandler *errhandler)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    const char *fn = "MPI_Session_create_errhandler";
    if (!session_errhandler_fn || !errhandler)
        return core_error_raise(NULL, MPI_ERR_ARG, fn, "%s is NULL",
                                errhandler ? "session_errhandler_fn" : "errhandler");
    struct core_errhandler *eh = calloc(1, sizeof(*eh));
    if (!eh)
        return core_error_raise(NULL, MPI_ERR_NO_MEM, fn, "out of memory");
    eh->kind = CORE_ERRHANDLER_USER_SESSION;
    eh->refcount = 1;
    eh->session_fn = session_errhandler_fn;
    *errhandler = core_errhandler_to_handle(eh);
    return MPI_SUCCESS;
}
#pragma weak MPI_Session_create_errhandler = PMPI_Session_create_errhandler

int PMPI_Session_set_errhandler(MPI_Session session, MPI_Errhandler errhandler)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    const char *fn = "MPI_Session_set_errhandler";
    struct mpi_session *s;
    int rc = begin_session(session, &s, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    struct core_errhandler *eh = core_errhandler_from_handle(errhandler);
    if (!eh)
        return session_error(s->errhandler, s, MPI_ERR_ARG, fn, "invalid errhandler");
    if (!eh->predefined && eh->kind != CORE_ERRHANDLER_USER_SESSION)
        return session_error(s->errhandler, s, MPI_ERR_ARG, fn,
                             "errhandler was not made by MPI_Session_create_errhandler");
    core_errhandler_retain(eh);
    core_errhandler_release(s->errhandler);
    s->errhandler = eh;
    return MPI_SUCCESS;
}
#pragma weak MPI_Session_set_errhandler = PMPI_Session_set_errhandler

int PMPI_Session_get_errhandler(MPI_Session session, MPI_Errhandler *errhandler)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    const char *fn = "MPI_Session_get_errhandler";
    struct mpi_session *s;
    int rc = begin_session(session, &s, fn);
    if (rc == MPI_SUCCESS)
        rc = check_pointer(s, errhandler, "errhandler", fn);
    if (rc != MPI_SUCCESS)
        return rc;
    core_errhandler_retain(s->errhandler); /* the caller frees it with MPI_Errhandler_free */
    *errhandler = core_errhandler_to_handle(s->errhandler);
    return MPI_SUCCESS;
}
#pragma weak MPI_Session_get_errhandler = PMPI_Session_get_errhandler

int PMPI_Session_call_errhandler(MPI_Session session, int errorcode)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    const char *fn = "MPI_Session_call_errhandler";
    struct mpi_session *s;
    int rc = begin_session(session, &s, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    const char *text = core_error_string(errorcode);
    session_error(s->errhandler, s, errorcode, fn, "%s", text ? text : "user error code");
    return MPI_SUCCESS; /* the standard: MPI_SUCCESS when the handler returns */
}
#pragma weak MPI_Session_call_errhandler = PMPI_Session_call_errhandler
