/* bsend.c - buffered sends (MPI_Bsend/Ibsend/Bsend_init): each message is packed into a region
 * (packed size + MPI_BSEND_OVERHEAD, first-fit, reclaimed when its internal send completes) of
 * the communicator's own buffer (MPI-4.1; an internal attribute, so MPI_Comm_free detaches it
 * after a flush and MPI_Comm_dup does not copy it), else of the buffer of the session the
 * communicator derives from, else of the process's buffer (MPI-4.1 3.6). With
 * MPI_BUFFER_AUTOMATIC each region is its own heap block. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/attr.h"
#include "core/comm.h"
#include "core/progress.h"
#include "core/state.h"
#include "datatype/datatype.h"
#include "p2p/internal.h"
#include "p2p/p2p.h"

struct bsend_region {
    struct bsend_region *next;
    size_t offset;
    size_t length;
    struct core_request *send;
    char *heap; /* MPI_BUFFER_AUTOMATIC: the region's own memory */
};

/* One attached buffer and the messages in it. */
struct bsend_pool {
    char *buffer; /* NULL: nothing attached */
    size_t size;
    struct bsend_region *regions; /* sorted by offset */
};

static struct bsend_pool process_pool;

/* Session buffers, keyed by the session's serial (a finalized session's communicators, which
 * the user should have freed, then simply find none). */
struct session_pool {
    struct session_pool *next;
    uint64_t session;
    struct bsend_pool pool;
};

static struct session_pool *session_pools;

/* The keyval of communicator buffers; created at the first MPI_Comm_attach_buffer. */
static int comm_keyval = MPI_KEYVAL_INVALID;

/* ---- one pool ------------------------------------------------------------------------------ */

/* Free the regions whose sends have completed. */
static void reclaim(struct bsend_pool *pool)
{
    struct bsend_region **link = &pool->regions;
    while (*link) {
        struct bsend_region *r = *link;
        if (r->send->complete) {
            *link = r->next;
            core_request_free(r->send);
            free(r->heap);
            free(r);
        } else {
            link = &r->next;
        }
    }
}

static void flush(struct bsend_pool *pool)
{
    while (pool->regions) {
        core_request_wait_complete(pool->regions->send);
        reclaim(pool);
    }
}

static int flushed(struct bsend_pool *pool)
{
    reclaim(pool);
    return pool->regions == NULL;
}

static int attach(struct bsend_pool *pool, void *buffer, size_t size)
{
    if (pool->buffer)
        return MPI_ERR_BUFFER; /* one buffer at a time */
    pool->buffer = buffer;
    pool->size = size;
    return MPI_SUCCESS;
}

static void detach(struct bsend_pool *pool, void **buffer, size_t *size)
{
    flush(pool);
    *buffer = pool->buffer;
    *size = pool->size;
    pool->buffer = NULL;
    pool->size = 0;
}

static int automatic(const struct bsend_pool *pool)
{
    return pool->buffer == (char *)MPI_BUFFER_AUTOMATIC;
}

/* MPI_BUFFER_AUTOMATIC: the region gets its own block, listed first (offsets mean nothing). */
static struct bsend_region *place_automatic(struct bsend_pool *pool, size_t length)
{
    struct bsend_region *r = calloc(1, sizeof(*r));
    if (r && !(r->heap = malloc(length))) {
        free(r);
        return NULL;
    }
    if (r) {
        r->length = length;
        r->next = pool->regions;
        pool->regions = r;
    }
    return r;
}

/* First-fit placement; NULL when the buffer has no gap that large. */
static struct bsend_region *place(struct bsend_pool *pool, size_t length)
{
    if (automatic(pool))
        return place_automatic(pool, length);
    size_t offset = 0;
    struct bsend_region **link = &pool->regions;
    for (; *link; link = &(*link)->next) {
        if ((*link)->offset - offset >= length)
            break;
        offset = (*link)->offset + (*link)->length;
    }
    if (offset + length > pool->size)
        return NULL;
    struct bsend_region *r = calloc(1, sizeof(*r));
    if (!r)
        return NULL;
    r->offset = offset;
    r->length = length;
    r->next = *link;
    *link = r;
    return r;
}

static void unplace(struct bsend_pool *pool, struct bsend_region *victim)
{
    for (struct bsend_region **link = &pool->regions; *link; link = &(*link)->next)
        if (*link == victim) {
            *link = victim->next;
            free(victim->heap);
            free(victim);
            return;
        }
}

/* ---- the process's buffer ------------------------------------------------------------------ */

int p2p_bsend_attach(void *buffer, size_t size)
{
    return attach(&process_pool, buffer, size);
}

void p2p_bsend_flush(void)
{
    flush(&process_pool);
}

int p2p_bsend_flushed(void)
{
    return flushed(&process_pool);
}

int p2p_bsend_detach(void **buffer, size_t *size)
{
    detach(&process_pool, buffer, size);
    return MPI_SUCCESS;
}

/* ---- communicator buffers ------------------------------------------------------------------ */

/* Attribute delete callback (MPI_Comm_free, MPI_Finalize, MPI_Comm_detach_buffer): an implicit
 * detach, so the messages still in the buffer are sent first. */
static int comm_pool_delete(MPI_Comm comm, int keyval, void *value, void *extra_state)
{
    (void)comm;
    (void)keyval;
    (void)extra_state;
    flush(value);
    free(value);
    return MPI_SUCCESS;
}

static struct bsend_pool *comm_pool(struct core_comm *comm)
{
    void *value = NULL;
    int flag = 0;
    if (comm_keyval == MPI_KEYVAL_INVALID ||
        core_attr_get(CORE_ATTR_COMM, comm->attributes, comm_keyval, &value, &flag) !=
            MPI_SUCCESS ||
        !flag)
        return NULL;
    return value;
}

int p2p_bsend_comm_attach(struct core_comm *comm, void *buffer, size_t size)
{
    if (comm_pool(comm))
        return MPI_ERR_BUFFER; /* one buffer at a time */
    int rc = MPI_SUCCESS;
    if (comm_keyval == MPI_KEYVAL_INVALID)
        rc = core_keyval_create(CORE_ATTR_COMM, NULL,
                                (core_attr_callback *)comm_pool_delete, NULL,
                                &comm_keyval);
    struct bsend_pool *pool = rc == MPI_SUCCESS ? calloc(1, sizeof(*pool)) : NULL;
    if (!pool)
        return rc != MPI_SUCCESS ? rc : MPI_ERR_NO_MEM;
    attach(pool, buffer, size);
    rc = core_attr_set(CORE_ATTR_COMM, &comm->attributes, (void *)core_comm_to_handle(comm),
                       comm_keyval, pool);
    if (rc != MPI_SUCCESS)
        free(pool);
    return rc;
}

int p2p_bsend_comm_detach(struct core_comm *comm, void **buffer, size_t *size)
{
    struct bsend_pool *pool = comm_pool(comm);
    *buffer = NULL;
    *size = 0;
    if (!pool)
        return MPI_SUCCESS;
    detach(pool, buffer, size);
    return core_attr_delete(CORE_ATTR_COMM, &comm->attributes,
                            (void *)core_comm_to_handle(comm), comm_keyval);
}

void p2p_bsend_comm_flush(struct core_comm *comm)
{
    struct bsend_pool *pool = comm_pool(comm);
    if (pool)
        flush(pool);
}

int p2p_bsend_comm_flushed(struct core_comm *comm)
{
    struct bsend_pool *pool = comm_pool(comm);
    return pool ? flushed(pool) : 1;
}

/* ---- session buffers ----------------------------------------------------------------------- */

static struct session_pool **session_link(uint64_t session)
{
    struct session_pool **link = &session_pools;
    while (*link && (*link)->session != session)
        link = &(*link)->next;
    return link;
}

static struct bsend_pool *session_pool(uint64_t session)
{
    struct session_pool *s = session ? *session_link(session) : NULL;
    return s ? &s->pool : NULL;
}

int p2p_bsend_session_attach(uint64_t session, void *buffer, size_t size)
{
    if (session_pool(session))
        return MPI_ERR_BUFFER; /* one buffer at a time */
    struct session_pool *s = calloc(1, sizeof(*s));
    if (!s)
        return MPI_ERR_NO_MEM;
    s->session = session;
    attach(&s->pool, buffer, size);
    s->next = session_pools;
    session_pools = s;
    return MPI_SUCCESS;
}

void p2p_bsend_session_detach(uint64_t session, void **buffer, size_t *size)
{
    struct session_pool **link = session_link(session);
    *buffer = NULL;
    *size = 0;
    if (!*link)
        return;
    struct session_pool *s = *link;
    detach(&s->pool, buffer, size);
    *link = s->next;
    free(s);
}

void p2p_bsend_session_flush(uint64_t session)
{
    struct bsend_pool *pool = session_pool(session);
    if (pool)
        flush(pool);
}

int p2p_bsend_session_flushed(uint64_t session)
{
    struct bsend_pool *pool = session_pool(session);
    return pool ? flushed(pool) : 1;
}

/* ---- sending ------------------------------------------------------------------------------- */

/* The user's request of a buffered send names the message like the internal send does, so
 * MPI_Cancel can withdraw it (cancel.c); while the internal send is incomplete the two are
 * linked. Freeing the user's request first undoes the link. */
static void unlink_user(struct core_request *user)
{
    if (user->p2p.linked)
        user->p2p.linked->p2p.linked = NULL;
    user->p2p.linked = NULL;
}

static void user_request_set(struct core_request *user, uint32_t context, int dest, int tag)
{
    unlink_user(user); /* a persistent request's previous message */
    user->free_state = unlink_user;
    user->peer = dest;
    user->tag = tag;
    user->context = context;
    user->mode = CORE_SEND_BUFFERED;
    user->cancelled = 0;
    user->p2p.cancel = 0;
    core_status_set_empty(&user->status);
}

static void user_request_link(struct core_request *user, struct core_request *send)
{
    user->p2p.world_peer = send->p2p.world_peer;
    user->p2p.seq = send->p2p.seq;
    if (!send->complete) {
        user->p2p.linked = send;
        send->p2p.linked = user;
    }
}

int p2p_bsend(struct core_comm *comm, uint32_t context, int dest, int tag, const void *buf,
              MPI_Count count, struct dt_type *type, struct core_request *user)
{
    if (user)
        user_request_set(user, context, dest, tag);
    if (dest == MPI_PROC_NULL)
        return MPI_SUCCESS;
    struct bsend_pool *pool = comm_pool(comm);
    if (!pool)
        pool = session_pool(comm->session);
    if (!pool)
        pool = &process_pool;
    size_t bytes = dt_packed_size(type, count);
    /* The standard's accounting: a message needs its packed size plus MPI_BSEND_OVERHEAD, no
     * more (a buffer of exactly that size must do). The copy starts 8-byte aligned inside the
     * region; the padding (< 8) comes out of the overhead, which no header here uses. */
    size_t length = bytes + MPI_BSEND_OVERHEAD;
    core_progress();
    reclaim(pool);
    struct bsend_region *r = pool->buffer ? place(pool, length) : NULL;
    if (!r)
        return MPI_ERR_BUFFER;
    char *copy = r->heap ? r->heap : pool->buffer + r->offset;
    copy += (8 - (uintptr_t)copy % 8) % 8;
    dt_pack_range(type, buf, count, 0, copy, bytes);
    int rc = p2p_isend(comm, context, dest, tag, copy, (MPI_Count)bytes,
                       dt_from_handle(MPI_BYTE), CORE_SEND_STANDARD, &r->send);
    if (rc != MPI_SUCCESS)
        unplace(pool, r);
    else if (user)
        user_request_link(user, r->send);
    return rc;
}
