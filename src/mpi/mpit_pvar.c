/* mpit_pvar.c - API: MPI_T performance variables and their sessions. Counters the layers keep
 * (messages sent by protocol, bytes, collectives started, futex sleeps) and levels read when
 * asked (matching-queue lengths, open windows). A handle makes a process-wide counter the
 * session's own: from 0 at allocation, counting only while started; write and reset move the
 * handle's value, never the counter other sessions see. */
#include <stdlib.h>
#include <string.h>

#include "coll/coll.h"
#include "core/comm.h"
#include "mpi/api.h"
#include "mpi/mpit.h"
#include "p2p/p2p.h"
#include "rma/rma.h"
#include "shm/wake.h"

/* ---- the variables ------------------------------------------------------------------------- */

struct mpit_pvar {
    const char *name;
    int var_class;            /* MPI_T_PVAR_CLASS_COUNTER or _LEVEL */
    int bind;                 /* MPI_T_BIND_NO_OBJECT or MPI_T_BIND_MPI_COMM */
    enum mpit_category category;
    int verbosity;
    /* The current value; context is the bound communicator's context id (-1: no object). */
    unsigned long long (*value)(const struct mpit_pvar *var, long context);
    const char *desc;
    int sent; /* for sent_messages: which send counter (enum p2p_sent_kind), else -1 */
};

static unsigned long long sent_messages(const struct mpit_pvar *var, long context)
{
    (void)context;
    return p2p_sent_messages((enum p2p_sent_kind)var->sent);
}
static unsigned long long sent_bytes(const struct mpit_pvar *var, long context)
{
    (void)var, (void)context;
    return p2p_sent_bytes();
}
static unsigned long long unexpected(const struct mpit_pvar *var, long context)
{
    (void)var;
    return p2p_unexpected_length(context);
}
static unsigned long long posted(const struct mpit_pvar *var, long context)
{
    (void)var;
    return p2p_posted_length(context);
}
static unsigned long long coll_started(const struct mpit_pvar *var, long context)
{
    (void)var, (void)context;
    return coll_operations();
}
static unsigned long long windows(const struct mpit_pvar *var, long context)
{
    (void)var, (void)context;
    return (unsigned long long)rma_open_windows();
}
static unsigned long long futex_sleeps(const struct mpit_pvar *var, long context)
{
    (void)var, (void)context;
    return nodempi.futex_sleeps;
}

static unsigned long long futex_wakes(const struct mpit_pvar *var, long context)
{
    (void)var, (void)context;
    return atomic_load_explicit(&shm_futex_wakes, memory_order_relaxed);
}

static unsigned long long poll_yields(const struct mpit_pvar *var, long context)
{
    (void)var, (void)context;
    return nodempi.poll_yields;
}

#define COUNTER MPI_T_PVAR_CLASS_COUNTER
#define LEVEL MPI_T_PVAR_CLASS_LEVEL
#define NO_OBJECT MPI_T_BIND_NO_OBJECT
#define COMM MPI_T_BIND_MPI_COMM

static const struct mpit_pvar pvars[] = {
    {"nodempi_p2p_sent_eager", COUNTER, NO_OBJECT, MPIT_CAT_P2P, MPI_T_VERBOSITY_USER_BASIC,
     sent_messages, "Messages this process sent eagerly in one record of a pair ring or inbox "
     "(every communicator, collectives' point-to-point steps included)", P2P_SENT_EAGER},
    {"nodempi_p2p_sent_fastbox", COUNTER, NO_OBJECT, MPIT_CAT_P2P, MPI_T_VERBOSITY_USER_BASIC,
     sent_messages, "Messages this process sent eagerly through a pair's fastbox cells "
     "(up to 64 bytes)", P2P_SENT_FASTBOX},
    {"nodempi_p2p_sent_fastbox_packed", COUNTER, NO_OBJECT, MPIT_CAT_P2P,
     MPI_T_VERBOSITY_USER_DETAIL, sent_messages,
     "Of nodempi_p2p_sent_fastbox, the messages packed four to a cell (up to 8 bytes, sent in "
     "a stream)", P2P_SENT_FASTBOX_PACKED},
    {"nodempi_p2p_sent_eager_long", COUNTER, NO_OBJECT, MPIT_CAT_P2P,
     MPI_T_VERBOSITY_USER_DETAIL, sent_messages,
     "Messages this process sent eagerly in several records (above one record's payload, up "
     "to the pair's eager limit)", P2P_SENT_EAGER_LONG},
    {"nodempi_p2p_sent_single_copy", COUNTER, NO_OBJECT, MPIT_CAT_P2P,
     MPI_T_VERBOSITY_USER_BASIC, sent_messages,
     "Messages this process sent by rendezvous with a single copy (the receiver pulls with "
     "process_vm_readv)", P2P_SENT_RNDV_CMA},
    {"nodempi_p2p_sent_rendezvous", COUNTER, NO_OBJECT, MPIT_CAT_P2P,
     MPI_T_VERBOSITY_USER_BASIC, sent_messages,
     "Messages this process sent by rendezvous in fragments through the pair ring",
     P2P_SENT_RNDV_PIPELINE},
    {"nodempi_p2p_sent_self", COUNTER, NO_OBJECT, MPIT_CAT_P2P, MPI_T_VERBOSITY_USER_DETAIL,
     sent_messages, "Messages this process sent to itself", P2P_SENT_SELF},
    {"nodempi_p2p_sent_bytes", COUNTER, NO_OBJECT, MPIT_CAT_P2P, MPI_T_VERBOSITY_USER_BASIC,
     sent_bytes, "Bytes of the messages this process started sending, every protocol", -1},
    {"nodempi_p2p_unexpected_queue_length", LEVEL, COMM, MPIT_CAT_P2P,
     MPI_T_VERBOSITY_USER_BASIC, unexpected,
     "Messages that arrived on this communicator (its point-to-point and collective traffic) "
     "before a matching receive, waiting for one", -1},
    {"nodempi_p2p_posted_queue_length", LEVEL, COMM, MPIT_CAT_P2P, MPI_T_VERBOSITY_USER_BASIC,
     posted, "Receives posted on this communicator (point-to-point and collective) that no "
     "message has matched yet", -1},
    {"nodempi_p2p_unexpected_total", LEVEL, NO_OBJECT, MPIT_CAT_P2P,
     MPI_T_VERBOSITY_USER_DETAIL, unexpected,
     "Unexpected messages waiting in this process, every communicator", -1},
    {"nodempi_p2p_posted_total", LEVEL, NO_OBJECT, MPIT_CAT_P2P, MPI_T_VERBOSITY_USER_DETAIL,
     posted, "Posted receives not yet matched in this process, every communicator", -1},
    {"nodempi_coll_operations", COUNTER, NO_OBJECT, MPIT_CAT_COLL, MPI_T_VERBOSITY_USER_BASIC,
     coll_started, "Collective operations this process started (blocking calls, nonblocking "
     "starts, each start of a persistent one)", -1},
    {"nodempi_rma_windows", LEVEL, NO_OBJECT, MPIT_CAT_RMA, MPI_T_VERBOSITY_USER_BASIC, windows,
     "Windows this process currently holds", -1},
    {"nodempi_shm_futex_sleeps", COUNTER, NO_OBJECT, MPIT_CAT_SHM, MPI_T_VERBOSITY_USER_DETAIL,
     futex_sleeps, "Times this process slept on its futex while waiting (NODEMPI_WAIT=block, "
     "or auto with more ranks than cores)", -1},
    {"nodempi_shm_futex_wakes", COUNTER, NO_OBJECT, MPIT_CAT_SHM, MPI_T_VERBOSITY_USER_DETAIL,
     futex_wakes, "Times this process woke a sleeping rank with a futex system call (after "
     "sending it something it may have waited for)", -1},
    {"nodempi_progress_poll_yields", COUNTER, NO_OBJECT, MPIT_CAT_SHM, MPI_T_VERBOSITY_USER_DETAIL,
     poll_yields, "Times this process gave its core away after nonblocking calls (MPI_Test, "
     "MPI_Iprobe, ...) kept finding nothing while oversubscribed", -1},
};
#define PVAR_COUNT ((int)(sizeof(pvars) / sizeof(pvars[0])))

/* Counters: started/stopped by the tool, readable and writable per handle, and a read-reset is
 * atomic (MPI_T calls and the sends that count are never concurrent: one thread at a time).
 * Levels: always current, read-only. */
static int is_counter(const struct mpit_pvar *v)
{
    return v->var_class == MPI_T_PVAR_CLASS_COUNTER;
}

int mpit_pvar_count(void)
{
    return PVAR_COUNT;
}

enum mpit_category mpit_pvar_category(int index)
{
    return pvars[index].category;
}

int PMPI_T_pvar_get_num(int *num_pvar)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    int rc = mpit_check_initialized();
    if (rc != MPI_SUCCESS)
        return rc;
    if (!num_pvar)
        return MPI_T_ERR_INVALID;
    *num_pvar = PVAR_COUNT;
    return MPI_SUCCESS;
}
#pragma weak MPI_T_pvar_get_num = PMPI_T_pvar_get_num

int PMPI_T_pvar_get_info(int pvar_index, char *name, int *name_len, int *verbosity,
                         int *var_class, MPI_Datatype *datatype, MPI_T_enum *enumtype,
                         char *desc, int *desc_len, int *bind, int *readonly, int *continuous,
                         int *atomic)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    int rc = mpit_check_initialized();
    if (rc != MPI_SUCCESS)
        return rc;
    if (pvar_index < 0 || pvar_index >= PVAR_COUNT)
        return MPI_T_ERR_INVALID_INDEX;
    const struct mpit_pvar *v = &pvars[pvar_index];
    mpit_copy_string(v->name, name, name_len);
    mpit_copy_string(v->desc, desc, desc_len);
    if (verbosity)
        *verbosity = v->verbosity;
    if (var_class)
        *var_class = v->var_class;
    if (datatype)
        *datatype = MPI_UNSIGNED_LONG_LONG;
    if (enumtype)
        *enumtype = MPI_T_ENUM_NULL;
    if (bind)
        *bind = v->bind;
    if (readonly)
        *readonly = !is_counter(v);
    if (continuous)
        *continuous = !is_counter(v);
    if (atomic)
        *atomic = is_counter(v);
    return MPI_SUCCESS;
}
#pragma weak MPI_T_pvar_get_info = PMPI_T_pvar_get_info

int PMPI_T_pvar_get_index(const char *name, int var_class, int *pvar_index)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    int rc = mpit_check_initialized();
    if (rc != MPI_SUCCESS)
        return rc;
    if (!name || !pvar_index)
        return MPI_T_ERR_INVALID;
    for (int i = 0; i < PVAR_COUNT; i++) {
        if (pvars[i].var_class == var_class && strcmp(pvars[i].name, name) == 0) {
            *pvar_index = i;
            return MPI_SUCCESS;
        }
    }
    return MPI_T_ERR_INVALID_NAME;
}
#pragma weak MPI_T_pvar_get_index = PMPI_T_pvar_get_index

/* ---- sessions and handles ------------------------------------------------------------------ */

struct mpit_pvar_handle {
    struct mpit_pvar_handle *next;
    const struct mpit_pvar *var;
    long context;             /* bound communicator's context id, or -1 (the id, not the
                               * object: reading after MPI_Comm_free must not touch freed memory) */
    int started;
    unsigned long long base;  /* counter's value when started (or last reset/write) */
    unsigned long long accum; /* the handle's value accumulated before that */
};

struct mpit_session {
    struct mpit_session *next;
    struct mpit_pvar_handle *handles;
};

static struct mpit_session *sessions; /* every live session: a session is valid if here */

static struct mpit_session *find_session(MPI_T_pvar_session handle)
{
    for (struct mpit_session *s = sessions; s; s = s->next)
        if ((MPI_T_pvar_session)s == handle)
            return s;
    return NULL;
}

static struct mpit_pvar_handle **find_handle(struct mpit_session *s, MPI_T_pvar_handle handle)
{
    for (struct mpit_pvar_handle **p = &s->handles; *p; p = &(*p)->next)
        if ((MPI_T_pvar_handle)*p == handle)
            return p;
    return NULL;
}

static void free_handles(struct mpit_session *s)
{
    while (s->handles) {
        struct mpit_pvar_handle *h = s->handles;
        s->handles = h->next;
        free(h);
    }
}

void mpit_pvar_free_all(void)
{
    while (sessions) {
        struct mpit_session *s = sessions;
        sessions = s->next;
        free_handles(s);
        free(s);
    }
}

static unsigned long long raw_value(const struct mpit_pvar_handle *h)
{
    return h->var->value(h->var, h->context);
}

static unsigned long long handle_value(const struct mpit_pvar_handle *h)
{
    if (!is_counter(h->var))
        return raw_value(h);
    return h->accum + (h->started ? raw_value(h) - h->base : 0);
}

int PMPI_T_pvar_session_create(MPI_T_pvar_session *session)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    int rc = mpit_check_initialized();
    if (rc != MPI_SUCCESS)
        return rc;
    if (!session)
        return MPI_T_ERR_INVALID;
    struct mpit_session *s = calloc(1, sizeof(*s));
    if (!s)
        return MPI_T_ERR_MEMORY;
    s->next = sessions;
    sessions = s;
    *session = (MPI_T_pvar_session)s;
    return MPI_SUCCESS;
}
#pragma weak MPI_T_pvar_session_create = PMPI_T_pvar_session_create

int PMPI_T_pvar_session_free(MPI_T_pvar_session *session)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    int rc = mpit_check_initialized();
    if (rc != MPI_SUCCESS)
        return rc;
    if (!session)
        return MPI_T_ERR_INVALID;
    struct mpit_session *s = find_session(*session);
    if (!s)
        return MPI_T_ERR_INVALID_SESSION;
    for (struct mpit_session **p = &sessions; *p; p = &(*p)->next) {
        if (*p == s) {
            *p = s->next;
            break;
        }
    }
    free_handles(s);
    free(s);
    *session = MPI_T_PVAR_SESSION_NULL;
    return MPI_SUCCESS;
}
#pragma weak MPI_T_pvar_session_free = PMPI_T_pvar_session_free

int PMPI_T_pvar_handle_alloc(MPI_T_pvar_session session, int pvar_index, void *obj_handle,
                             MPI_T_pvar_handle *handle, int *count)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    int rc = mpit_check_initialized();
    if (rc != MPI_SUCCESS)
        return rc;
    struct mpit_session *s = find_session(session);
    if (!s)
        return MPI_T_ERR_INVALID_SESSION;
    if (pvar_index < 0 || pvar_index >= PVAR_COUNT)
        return MPI_T_ERR_INVALID_INDEX;
    if (!handle || !count)
        return MPI_T_ERR_INVALID;
    const struct mpit_pvar *v = &pvars[pvar_index];
    long context = -1;
    if (v->bind == MPI_T_BIND_MPI_COMM) {
        /* obj_handle points to an MPI_Comm; communicators exist while MPI is initialized */
        if (!obj_handle || !nodempi.initialized)
            return MPI_T_ERR_INVALID_HANDLE;
        struct core_comm *comm = core_comm_from_handle(*(MPI_Comm *)obj_handle);
        if (!comm)
            return MPI_T_ERR_INVALID_HANDLE;
        context = comm->context;
    }
    struct mpit_pvar_handle *h = calloc(1, sizeof(*h));
    if (!h)
        return MPI_T_ERR_MEMORY;
    h->var = v;
    h->context = context;
    h->started = !is_counter(v); /* continuous variables are always started */
    h->next = s->handles;
    s->handles = h;
    *count = 1;
    *handle = (MPI_T_pvar_handle)h;
    return MPI_SUCCESS;
}
#pragma weak MPI_T_pvar_handle_alloc = PMPI_T_pvar_handle_alloc

int PMPI_T_pvar_handle_free(MPI_T_pvar_session session, MPI_T_pvar_handle *handle)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    int rc = mpit_check_initialized();
    if (rc != MPI_SUCCESS)
        return rc;
    struct mpit_session *s = find_session(session);
    if (!s)
        return MPI_T_ERR_INVALID_SESSION;
    if (!handle)
        return MPI_T_ERR_INVALID;
    struct mpit_pvar_handle **link = find_handle(s, *handle);
    if (!link)
        return MPI_T_ERR_INVALID_HANDLE;
    struct mpit_pvar_handle *h = *link;
    *link = h->next;
    free(h);
    *handle = MPI_T_PVAR_HANDLE_NULL;
    return MPI_SUCCESS;
}
#pragma weak MPI_T_pvar_handle_free = PMPI_T_pvar_handle_free

/* The session and the handle of a call that acts on one handle: MPI_SUCCESS, or the class. */
static int resolve(MPI_T_pvar_session session, MPI_T_pvar_handle handle,
                   struct mpit_session **s, struct mpit_pvar_handle **h)
{
    int rc = mpit_check_initialized();
    if (rc != MPI_SUCCESS)
        return rc;
    if (!(*s = find_session(session)))
        return MPI_T_ERR_INVALID_SESSION;
    if (handle == MPI_T_PVAR_ALL_HANDLES) {
        *h = NULL;
        return MPI_SUCCESS;
    }
    struct mpit_pvar_handle **link = find_handle(*s, handle);
    if (!link)
        return MPI_T_ERR_INVALID_HANDLE;
    *h = *link;
    return MPI_SUCCESS;
}

static void start(struct mpit_pvar_handle *h)
{
    if (h->started)
        return;
    h->base = raw_value(h);
    h->started = 1;
}

static void stop(struct mpit_pvar_handle *h)
{
    if (!h->started)
        return;
    h->accum += raw_value(h) - h->base;
    h->started = 0;
}

static void set_value(struct mpit_pvar_handle *h, unsigned long long value)
{
    h->accum = value;
    h->base = h->started ? raw_value(h) : 0;
}

/* MPI_T_PVAR_ALL_HANDLES in start/stop: every counter of the session (continuous variables are
 * skipped, as the standard says); with one handle, a continuous one cannot be started or
 * stopped. */
static int start_or_stop(MPI_T_pvar_session session, MPI_T_pvar_handle handle,
                         void (*act)(struct mpit_pvar_handle *))
{
    struct mpit_session *s;
    struct mpit_pvar_handle *h;
    int rc = resolve(session, handle, &s, &h);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!h) {
        for (h = s->handles; h; h = h->next)
            if (is_counter(h->var))
                act(h);
        return MPI_SUCCESS;
    }
    if (!is_counter(h->var))
        return MPI_T_ERR_PVAR_NO_STARTSTOP;
    act(h);
    return MPI_SUCCESS;
}

int PMPI_T_pvar_start(MPI_T_pvar_session session, MPI_T_pvar_handle handle)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return start_or_stop(session, handle, start);
}
#pragma weak MPI_T_pvar_start = PMPI_T_pvar_start

int PMPI_T_pvar_stop(MPI_T_pvar_session session, MPI_T_pvar_handle handle)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return start_or_stop(session, handle, stop);
}
#pragma weak MPI_T_pvar_stop = PMPI_T_pvar_stop

int PMPI_T_pvar_read(MPI_T_pvar_session session, MPI_T_pvar_handle handle, void *buf)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    struct mpit_session *s;
    struct mpit_pvar_handle *h;
    int rc = resolve(session, handle, &s, &h);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!h)
        return MPI_T_ERR_INVALID_HANDLE; /* MPI_T_PVAR_ALL_HANDLES: not for reads */
    if (!buf)
        return MPI_T_ERR_INVALID;
    *(unsigned long long *)buf = handle_value(h);
    return MPI_SUCCESS;
}
#pragma weak MPI_T_pvar_read = PMPI_T_pvar_read

int PMPI_T_pvar_write(MPI_T_pvar_session session, MPI_T_pvar_handle handle, const void *buf)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    struct mpit_session *s;
    struct mpit_pvar_handle *h;
    int rc = resolve(session, handle, &s, &h);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!h)
        return MPI_T_ERR_INVALID_HANDLE;
    if (!is_counter(h->var))
        return MPI_T_ERR_PVAR_NO_WRITE;
    if (!buf)
        return MPI_T_ERR_INVALID;
    set_value(h, *(const unsigned long long *)buf);
    return MPI_SUCCESS;
}
#pragma weak MPI_T_pvar_write = PMPI_T_pvar_write

/* A counter's starting value is 0 (MPI-4.1 §15.3.7). ALL_HANDLES skips read-only variables. */
int PMPI_T_pvar_reset(MPI_T_pvar_session session, MPI_T_pvar_handle handle)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    struct mpit_session *s;
    struct mpit_pvar_handle *h;
    int rc = resolve(session, handle, &s, &h);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!h) {
        for (h = s->handles; h; h = h->next)
            if (is_counter(h->var))
                set_value(h, 0);
        return MPI_SUCCESS;
    }
    if (!is_counter(h->var))
        return MPI_T_ERR_PVAR_NO_WRITE;
    set_value(h, 0);
    return MPI_SUCCESS;
}
#pragma weak MPI_T_pvar_reset = PMPI_T_pvar_reset

int PMPI_T_pvar_readreset(MPI_T_pvar_session session, MPI_T_pvar_handle handle, void *buf)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    struct mpit_session *s;
    struct mpit_pvar_handle *h;
    int rc = resolve(session, handle, &s, &h);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!h)
        return MPI_T_ERR_INVALID_HANDLE;
    if (!is_counter(h->var))
        return MPI_T_ERR_PVAR_NO_WRITE;
    if (!buf)
        return MPI_T_ERR_INVALID;
    *(unsigned long long *)buf = handle_value(h);
    set_value(h, 0);
    return MPI_SUCCESS;
}
#pragma weak MPI_T_pvar_readreset = PMPI_T_pvar_readreset
