/* mpit_event.c - API: the MPI_T event interface (MPI-4.1 §15.3.8). Event types are things
 * nodempi does that a tool may want to see happen (src/core/tool_event.h lists them and the
 * layers raise them): a message put in the unexpected queue, the skew watch's requests and the
 * eager-limit changes they cause, the path and algorithm a collective call took, a hybrid-queue
 * sender opening its pair ring. One event source, the monotonic clock in nanoseconds.
 *
 * Where callbacks run. Events are raised deep inside the progress engine and the collective
 * layer, with queues half updated and the big lock held; a callback there could not call MPI
 * (MPI_Send would re-enter progress in the middle of a matching step) and would run with the
 * lock held, stalling every other thread. So raising only records: core_event_raise copies the
 * elements and a timestamp into a queue item for each registration that wants the event (a
 * process-wide FIFO, under the lock), and callbacks run when the raising thread, or any thread,
 * leaves its outermost MPI call (core_thread_leave calls core_thread_leave_work, lock already
 * dropped). There the library's state is whole and no lock is held: as if the tool's code ran
 * right after the MPI call returned, so the callback may call any MPI function, and MPI_T_CB_
 * REQUIRE_NONE is the safety level honoured and passed to it. Any callback may run there (a
 * callback registered for a stricter level also meets the weaker requirement); of those
 * registered on a handle the one for the least restrictive level is used. Timestamps are taken
 * at the raise, so a tool still sees when things happened; the standard lets an implementation
 * deliver buffered events later.
 *
 * Threads: one thread delivers at a time (the callbacks of MPI_T_CB_REQUIRE_NONE need not be
 * reentrant or thread safe); it takes items under the lock and calls the tool without it. A
 * thread leaving while another delivers leaves at once: the deliverer takes everything queued
 * before it found the queue empty, under the lock. Items a callback's own MPI calls raise wait
 * for the next call's end (no livelock of a callback that raises what it observes).
 *
 * Buffering and drops: each registration holds up to nodempi_event_buffer instances (info key
 * of MPI_T_event_handle_alloc, default 1024) not yet delivered; more are counted as dropped,
 * and after the batch the dropped handler gets the count. A registration with no callback
 * records nothing. Freeing a registration discards its undelivered instances; its free callback
 * runs at the same delivery point (the end of the MPI_T_event_handle_free call, or after the
 * callback that freed it), after which MPI never uses the registration again.
 *
 * A registration made while the entry points did not yet take the lock turns that on for good
 * (core_thread_track_calls): the end of the outermost call has to be known at every thread
 * level. A registration made from a callback that runs inside an MPI call (an error handler, a
 * generalized request's query function) may therefore see its first callbacks run at the end
 * of a call nested in that one. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/comm.h"
#include "core/info.h"
#include "core/thread.h"
#include "core/tool_event.h"
#include "mpi/api.h"
#include "mpi/mpit.h"

_Atomic unsigned char core_event_active[CORE_EVENT_TYPES];

/* ---- the event types ------------------------------------------------------------------------ */

enum { MAX_ELEMENTS = 6, ITEM_BYTES = 48 };

struct event_element {
    MPI_Datatype type;
    MPI_Aint disp;
    int size;
};

struct event_type {
    const char *name;
    enum mpit_category category;
    int verbosity;
    int bind;
    int nelements;
    struct event_element elements[MAX_ELEMENTS];
    const char *desc;
};

#define EL(st, field, mpitype)                                                                 \
    { mpitype, offsetof(struct st, field), (int)sizeof(((struct st *)0)->field) }

static const struct event_type types[CORE_EVENT_TYPES] = {
    [CORE_EVENT_P2P_UNEXPECTED] =
        {"nodempi_p2p_unexpected", MPIT_CAT_P2P, MPI_T_VERBOSITY_USER_BASIC, MPI_T_BIND_MPI_COMM,
         6,
         {EL(core_event_unexpected, source, MPI_INT), EL(core_event_unexpected, tag, MPI_INT),
          EL(core_event_unexpected, bytes, MPI_COUNT),
          EL(core_event_unexpected, context, MPI_UNSIGNED),
          EL(core_event_unexpected, world_source, MPI_INT),
          EL(core_event_unexpected, protocol, MPI_INT)},
         "A message arrived before a matching receive was posted and went to the unexpected "
         "queue (its point-to-point or collective traffic when bound to a communicator). "
         "Elements: source (rank in the communicator), tag, bytes (the whole message), context "
         "id (the communicator's; + 1 for its collective traffic), source's rank in "
         "MPI_COMM_WORLD, protocol (0 eager, 1 rendezvous, 2 a send to itself held until "
         "matched; a small one to itself is copied: 0)"},
    [CORE_EVENT_P2P_SKEW_REQUEST] =
        {"nodempi_p2p_skew_request", MPIT_CAT_P2P, MPI_T_VERBOSITY_TUNER_BASIC,
         MPI_T_BIND_NO_OBJECT, 3,
         {EL(core_event_skew_request, peer, MPI_INT),
          EL(core_event_skew_request, raise, MPI_INT),
          EL(core_event_skew_request, backlog, MPI_INT)},
         "This receiver's skew watch (NODEMPI_SKEW) asked a sender to raise its eager limit "
         "toward this process to NODEMPI_SKEW_EAGER_LIMIT (a backlog of unexpected messages "
         "above the eager limit lasted 200 us) or to lower it back (calm for 20 ms). Elements: "
         "the sender's rank in MPI_COMM_WORLD, raise (1) or lower (0), messages above the eager "
         "limit from it waiting in the unexpected queue"},
    [CORE_EVENT_P2P_SKEW_THRESHOLD] =
        {"nodempi_p2p_skew_threshold", MPIT_CAT_P2P, MPI_T_VERBOSITY_TUNER_BASIC,
         MPI_T_BIND_NO_OBJECT, 3,
         {EL(core_event_skew_threshold, peer, MPI_INT),
          EL(core_event_skew_threshold, old_limit, MPI_COUNT),
          EL(core_event_skew_threshold, new_limit, MPI_COUNT)},
         "This sender's eager limit toward one receiver changed at that receiver's request "
         "(the skew-aware threshold): messages up to the new limit go eagerly, larger ones by "
         "rendezvous. Elements: the receiver's rank in MPI_COMM_WORLD, old limit, new limit "
         "(bytes)"},
    [CORE_EVENT_COLL_PATH] =
        {"nodempi_coll_path", MPIT_CAT_COLL, MPI_T_VERBOSITY_TUNER_BASIC, MPI_T_BIND_MPI_COMM, 6,
         {EL(core_event_coll_path, collective, MPI_INT), EL(core_event_coll_path, path, MPI_INT),
          EL(core_event_coll_path, algorithm, MPI_INT),
          EL(core_event_coll_path, comm_size, MPI_INT),
          EL(core_event_coll_path, context, MPI_UNSIGNED),
          EL(core_event_coll_path, bytes, MPI_COUNT)},
         "A collective call (blocking; a nonblocking or persistent one when its schedule is "
         "built) took its path; those nodempi runs itself on the communicator are reported "
         "too (the setup broadcast of its first shared-memory barrier, the agreements of "
         "communicator creation). Elements: collective (0 barrier, 1 bcast, 2 reduce, "
         "3 allreduce, 4 gather, 5 gatherv, 6 scatter, 7 scatterv, 8 allgather, 9 allgatherv, "
         "10 alltoall, 11 alltoallv, 12 alltoallw, 13 reduce_scatter, 14 reduce_scatter_block, "
         "15 scan, 16 exscan, 17-21 the neighbourhood allgather, allgatherv, alltoall, "
         "alltoallv, alltoallw; an allgatherv of equal packed blocks runs as an allgather and "
         "says 8), path (0 no data to move, 1 two-rank exchange, 2 shared-memory barrier, "
         "3 shared-memory allreduce, 4 shared-memory allgather, 5 shared-memory alltoall, "
         "6 shared-memory reduce_scatter, 7 linear without a schedule, 8 schedule of an "
         "algorithm, 9 intercommunicator schedule, 10 neighbourhood schedule), algorithm "
         "(path 8: position in the collective's NODEMPI_COLL_<OP> choices counting from 0 "
         "after auto, else -1), communicator size, context id, bytes the selection looked at"},
    [CORE_EVENT_SHM_HYBRID_RING] =
        {"nodempi_shm_hybrid_ring_open", MPIT_CAT_SHM, MPI_T_VERBOSITY_TUNER_DETAIL,
         MPI_T_BIND_NO_OBJECT, 3,
         {EL(core_event_hybrid_ring, peer, MPI_INT),
          EL(core_event_hybrid_ring, inbox_records, MPI_COUNT),
          EL(core_event_hybrid_ring, record_bytes, MPI_COUNT)},
         "NODEMPI_QUEUE=hybrid: this sender switched from the receiver's shared inbox to its own "
         "pair ring toward that receiver (after 8 records, or at once for a record of 1 KiB or "
         "more). Elements: the receiver's rank in MPI_COMM_WORLD, records sent through the "
         "inbox before, payload bytes of the record that opened the ring"},
};

_Static_assert(sizeof(struct core_event_unexpected) <= ITEM_BYTES &&
                   sizeof(struct core_event_skew_request) <= ITEM_BYTES &&
                   sizeof(struct core_event_skew_threshold) <= ITEM_BYTES &&
                   sizeof(struct core_event_coll_path) <= ITEM_BYTES &&
                   sizeof(struct core_event_hybrid_ring) <= ITEM_BYTES,
               "an instance's elements fit its queue item");

static int type_bytes(const struct event_type *t)
{
    const struct event_element *last = &t->elements[t->nelements - 1];
    return (int)last->disp + last->size;
}

int mpit_event_count(void)
{
    return CORE_EVENT_TYPES;
}

enum mpit_category mpit_event_category(int index)
{
    return types[index].category;
}

/* ---- registrations and the queue ------------------------------------------------------------ */

enum { DEFAULT_BUFFER = 1024, LEVELS = 4 };

struct event_reg {
    struct event_reg *next; /* every registration not yet destroyed */
    int type;
    uint32_t context;       /* bound communicator's context id, or CORE_EVENT_NO_CONTEXT */
    int freed;              /* MPI_T_event_handle_free called: invalid for the tool */
    int capacity;           /* instances held undelivered at most */
    int queued;             /* instances in the queue */
    MPI_Count dropped;      /* instances not recorded since the last report */
    struct core_info *info; /* hints of the handle */
    struct {
        MPI_T_event_cb_function *fn;
        void *user_data;
        struct core_info *info;
    } cb[LEVELS];           /* by MPI_T_cb_safety */
    MPI_T_event_dropped_cb_function *dropped_fn;
    MPI_T_event_free_cb_function *free_fn;
    void *free_data;
};

enum item_kind { ITEM_INSTANCE, ITEM_FREE };

struct event_item {
    struct event_item *next;
    struct event_reg *reg;
    enum item_kind kind;
    int type;
    MPI_Count timestamp;
    _Alignas(16) unsigned char data[ITEM_BYTES];
};

/* All under the big lock (or the one thread in MPI below MULTIPLE). */
static struct event_reg *regs;
static int live[CORE_EVENT_TYPES];          /* registrations not freed, by type */
static struct event_item *head, *tail;     /* the FIFO of things to deliver */
static struct event_item *spare;           /* free list of items */
static int deliverer_busy;

/* The instance a callback of this thread is looking at: valid only there. */
static _Thread_local __attribute__((tls_model("initial-exec"))) struct event_item *current;
static _Thread_local __attribute__((tls_model("initial-exec"))) int delivering_here;

static MPI_Count clock_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (MPI_Count)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static struct event_item *item_new(void)
{
    struct event_item *item = spare;
    if (item)
        spare = item->next;
    else if (!(item = malloc(sizeof(*item))))
        return NULL;
    memset(item, 0, sizeof(*item));
    return item;
}

static void item_release(struct event_item *item)
{
    item->next = spare;
    spare = item;
}

static void enqueue(struct event_item *item)
{
    item->next = NULL;
    if (tail)
        tail->next = item;
    else
        head = item;
    tail = item;
    atomic_store_explicit(&core_thread_leave_pending, 1, memory_order_relaxed);
}

static void set_active(int type)
{
    atomic_store_explicit(&core_event_active[type], live[type] > 0, memory_order_relaxed);
}

static int has_callback(const struct event_reg *r)
{
    for (int l = 0; l < LEVELS; l++)
        if (r->cb[l].fn)
            return 1;
    return 0;
}

void core_event_raise(enum core_event_type type, uint32_t context, const void *data)
{
    const struct event_type *t = &types[type];
    MPI_Count now = -1;
    for (struct event_reg *r = regs; r; r = r->next) {
        if (r->type != (int)type || r->freed || !has_callback(r))
            continue;
        if (r->context != CORE_EVENT_NO_CONTEXT && context != r->context &&
            context != r->context + CORE_CONTEXT_COLL_OFFSET)
            continue;
        struct event_item *item = r->queued < r->capacity ? item_new() : NULL;
        if (!item) {
            r->dropped++;
            atomic_store_explicit(&core_thread_leave_pending, 1, memory_order_relaxed);
            continue;
        }
        if (now < 0)
            now = clock_now();
        item->reg = r;
        item->kind = ITEM_INSTANCE;
        item->type = (int)type;
        item->timestamp = now;
        /* element by element: the padding between them stays zero in MPI_T_event_copy */
        for (int e = 0; e < t->nelements; e++)
            memcpy(item->data + t->elements[e].disp,
                   (const unsigned char *)data + t->elements[e].disp,
                   (size_t)t->elements[e].size);
        r->queued++;
        enqueue(item);
    }
}

/* A registration is valid for the tool while in the list and not freed. */
static struct event_reg *find_reg(MPI_T_event_registration handle)
{
    for (struct event_reg *r = regs; r; r = r->next)
        if ((MPI_T_event_registration)r == handle)
            return r->freed ? NULL : r;
    return NULL;
}

static void reg_destroy(struct event_reg *r)
{
    core_info_free(r->info);
    for (int l = 0; l < LEVELS; l++)
        core_info_free(r->cb[l].info);
    free(r);
}

/* Freed by the tool (or by the last MPI_T_finalize): no more instances, and an item that
 * destroys it after anything delivered before. */
static void reg_retire(struct event_reg *r, MPI_T_event_free_cb_function *fn, void *user_data)
{
    r->freed = 1;
    live[r->type]--;
    set_active(r->type);
    r->free_fn = fn;
    r->free_data = user_data;
    struct event_item *item = item_new();
    if (!item) { /* no memory for the item: destroyed without its free callback */
        return;
    }
    item->reg = r;
    item->kind = ITEM_FREE;
    enqueue(item);
}

/* ---- delivery ------------------------------------------------------------------------------- */

/* One call to make to the tool, prepared under the lock and made without it. */
struct tool_call {
    enum { CALL_EVENT, CALL_FREE, CALL_DROPPED } what;
    struct event_item *item;
    MPI_T_event_registration handle;
    struct event_reg *dead; /* CALL_FREE: the registration, unlinked */
    MPI_T_event_cb_function *event_fn;
    MPI_T_event_free_cb_function *free_fn;
    MPI_T_event_dropped_cb_function *dropped_fn;
    void *user_data;
    MPI_Count count;
};

/* The callback of the least restrictive level registered on r; NULL if none. */
static MPI_T_event_cb_function *pick_callback(const struct event_reg *r, void **user_data)
{
    for (int l = 0; l < LEVELS; l++) {
        if (r->cb[l].fn) {
            *user_data = r->cb[l].user_data;
            return r->cb[l].fn;
        }
    }
    *user_data = NULL;
    return NULL;
}

static void unlink_reg(struct event_reg *r)
{
    for (struct event_reg **p = &regs; *p; p = &(*p)->next) {
        if (*p == r) {
            *p = r->next;
            return;
        }
    }
}

/* The next call of this batch (items up to `last`, then the dropped counts), 0 when done.
 * Under the lock. */
static int next_call(struct tool_call *c, struct event_item **last)
{
    while (*last && head) {
        struct event_item *item = head;
        head = item->next;
        if (!head)
            tail = NULL;
        if (item == *last)
            *last = NULL; /* the batch ends with it */
        struct event_reg *r = item->reg;
        memset(c, 0, sizeof(*c));
        c->handle = (MPI_T_event_registration)r;
        if (item->kind == ITEM_FREE) {
            c->what = CALL_FREE;
            c->free_fn = r->free_fn;
            c->user_data = r->free_data;
            c->dead = r; /* destroyed after its free callback, which gets its handle */
            unlink_reg(r);
            item_release(item);
            if (!c->free_fn) {
                reg_destroy(r);
                continue;
            }
            return 1;
        }
        r->queued--;
        c->event_fn = r->freed ? NULL : pick_callback(r, &c->user_data);
        if (!c->event_fn) { /* freed, or its callbacks deregistered since */
            item_release(item);
            continue;
        }
        c->what = CALL_EVENT;
        c->item = item;
        return 1;
    }
    for (struct event_reg *r = regs; r; r = r->next) {
        if (r->dropped == 0)
            continue;
        MPI_Count n = r->dropped;
        r->dropped = 0;
        if (r->freed || !r->dropped_fn)
            continue;
        memset(c, 0, sizeof(*c));
        c->what = CALL_DROPPED;
        c->handle = (MPI_T_event_registration)r;
        c->dropped_fn = r->dropped_fn;
        c->count = n;
        pick_callback(r, &c->user_data);
        return 1;
    }
    return 0;
}

static void make_call(const struct tool_call *c)
{
    switch (c->what) {
    case CALL_EVENT:
        current = c->item;
        c->event_fn((MPI_T_event_instance)c->item, c->handle, MPI_T_CB_REQUIRE_NONE,
                    c->user_data);
        current = NULL;
        break;
    case CALL_FREE:
        c->free_fn(c->handle, MPI_T_CB_REQUIRE_NONE, c->user_data);
        break;
    case CALL_DROPPED:
        c->dropped_fn(c->count, c->handle, 0, MPI_T_CB_REQUIRE_NONE, c->user_data);
        break;
    }
}

/* The end of a thread's outermost MPI call, lock dropped (core/thread.c calls it when
 * core_thread_leave_pending is set). */
void core_thread_leave_work(void)
{
    if (delivering_here)
        return; /* a callback's own MPI call ended: its items wait for the batch after */
    delivering_here = 1;
    core_thread_enter();
    if (deliverer_busy) {
        core_thread_leave();
        delivering_here = 0;
        return;
    }
    deliverer_busy = 1;
    struct event_item *last = tail; /* this batch: what is queued now */
    struct tool_call c;
    while (next_call(&c, &last)) {
        core_thread_leave();
        make_call(&c);
        core_thread_enter();
        if (c.what == CALL_EVENT)
            item_release(c.item);
        else if (c.what == CALL_FREE)
            reg_destroy(c.dead);
    }
    deliverer_busy = 0;
    /* relaxed: read and written under the lock; the leave below drops it with release */
    atomic_store_explicit(&core_thread_leave_pending, head != NULL, memory_order_relaxed);
    core_thread_leave();
    delivering_here = 0;
}

/* The last MPI_T_finalize: every registration goes (no free callbacks: none were asked for);
 * the items that destroy them run at this call's end. */
void mpit_event_free_all(void)
{
    for (struct event_reg *r = regs; r; r = r->next)
        if (!r->freed)
            reg_retire(r, NULL, NULL);
}

/* ---- sources -------------------------------------------------------------------------------- */

static int check(void)
{
    return mpit_check_initialized();
}

int PMPI_T_source_get_num(int *num_sources)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    int rc = check();
    if (rc != MPI_SUCCESS)
        return rc;
    if (!num_sources)
        return MPI_T_ERR_INVALID;
    *num_sources = 1;
    return MPI_SUCCESS;
}
#pragma weak MPI_T_source_get_num = PMPI_T_source_get_num

int PMPI_T_source_get_info(int source_index, char *name, int *name_len, char *desc,
                           int *desc_len, MPI_T_source_order *ordering,
                           MPI_Count *ticks_per_second, MPI_Count *max_ticks, MPI_Info *info)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    int rc = check();
    if (rc != MPI_SUCCESS)
        return rc;
    if (source_index != 0)
        return MPI_T_ERR_INVALID_INDEX;
    mpit_copy_string("nodempi_clock", name, name_len);
    mpit_copy_string("The process's monotonic clock (CLOCK_MONOTONIC) in nanoseconds: the "
                     "timestamp of every nodempi event, taken when the event happened. Instances "
                     "are delivered in the order they happened, timestamps never decreasing",
                     desc, desc_len);
    if (ordering)
        *ordering = MPI_T_SOURCE_ORDERED;
    if (ticks_per_second)
        *ticks_per_second = 1000000000;
    if (max_ticks)
        *max_ticks = LLONG_MAX;
    if (info)
        *info = MPI_INFO_NULL; /* no hints to describe it */
    return MPI_SUCCESS;
}
#pragma weak MPI_T_source_get_info = PMPI_T_source_get_info

int PMPI_T_source_get_timestamp(int source_index, MPI_Count *timestamp)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    int rc = check();
    if (rc != MPI_SUCCESS)
        return rc;
    if (source_index != 0)
        return MPI_T_ERR_INVALID_INDEX;
    if (!timestamp)
        return MPI_T_ERR_INVALID;
    *timestamp = clock_now();
    return MPI_SUCCESS;
}
#pragma weak MPI_T_source_get_timestamp = PMPI_T_source_get_timestamp

/* ---- event types ---------------------------------------------------------------------------- */

int PMPI_T_event_get_num(int *num_events)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    int rc = check();
    if (rc != MPI_SUCCESS)
        return rc;
    if (!num_events)
        return MPI_T_ERR_INVALID;
    *num_events = CORE_EVENT_TYPES;
    return MPI_SUCCESS;
}
#pragma weak MPI_T_event_get_num = PMPI_T_event_get_num

int PMPI_T_event_get_info(int event_index, char *name, int *name_len, int *verbosity,
                          MPI_Datatype array_of_datatypes[], MPI_Aint array_of_displacements[],
                          int *num_elements, MPI_T_enum *enumtype, MPI_Info *info, char *desc,
                          int *desc_len, int *bind)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    int rc = check();
    if (rc != MPI_SUCCESS)
        return rc;
    if (event_index < 0 || event_index >= CORE_EVENT_TYPES)
        return MPI_T_ERR_INVALID_INDEX;
    const struct event_type *t = &types[event_index];
    mpit_copy_string(t->name, name, name_len);
    if (verbosity)
        *verbosity = t->verbosity;
    if (num_elements) {
        /* in: room in the arrays (if given); out: the type's element count */
        int room = *num_elements < t->nelements ? *num_elements : t->nelements;
        for (int e = 0; e < room; e++) {
            if (array_of_datatypes)
                array_of_datatypes[e] = t->elements[e].type;
            if (array_of_displacements)
                array_of_displacements[e] = t->elements[e].disp;
        }
        *num_elements = t->nelements;
    }
    if (enumtype)
        *enumtype = MPI_T_ENUM_NULL; /* the codes are in the description */
    if (info)
        *info = MPI_INFO_NULL;
    mpit_copy_string(t->desc, desc, desc_len);
    if (bind)
        *bind = t->bind;
    return MPI_SUCCESS;
}
#pragma weak MPI_T_event_get_info = PMPI_T_event_get_info

int PMPI_T_event_get_index(const char *name, int *event_index)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    int rc = check();
    if (rc != MPI_SUCCESS)
        return rc;
    if (!name || !event_index)
        return MPI_T_ERR_INVALID;
    for (int i = 0; i < CORE_EVENT_TYPES; i++) {
        if (strcmp(types[i].name, name) == 0) {
            *event_index = i;
            return MPI_SUCCESS;
        }
    }
    return MPI_T_ERR_INVALID_NAME;
}
#pragma weak MPI_T_event_get_index = PMPI_T_event_get_index

/* ---- registrations -------------------------------------------------------------------------- */

/* Copy every key of the info handle into *dst (created if NULL). */
static int merge_info(struct core_info **dst, MPI_Info handle)
{
    if (handle == MPI_INFO_NULL)
        return MPI_SUCCESS;
    struct core_info *src = core_info_from_handle(handle);
    if (!src)
        return MPI_T_ERR_INVALID;
    if (!*dst && !(*dst = core_info_new()))
        return MPI_T_ERR_MEMORY;
    for (int i = 0; i < src->nkeys; i++)
        if (core_info_set(*dst, src->entries[i].key, src->entries[i].value) != MPI_SUCCESS)
            return MPI_T_ERR_MEMORY;
    return MPI_SUCCESS;
}

/* A new info object with the keys of src (none if NULL), for the tool. */
static int info_out(const struct core_info *src, MPI_Info *out)
{
    struct core_info *copy = NULL;
    if (src ? core_info_dup(src, &copy) != MPI_SUCCESS : !(copy = core_info_new()))
        return MPI_T_ERR_MEMORY;
    *out = core_info_to_handle(copy);
    return MPI_SUCCESS;
}

static void apply_hints(struct event_reg *r)
{
    const char *v = r->info ? core_info_get(r->info, "nodempi_event_buffer") : NULL;
    if (!v)
        return;
    char *end;
    long n = strtol(v, &end, 10);
    if (end != v && *end == '\0' && n > 0 && n <= INT_MAX)
        r->capacity = (int)n; /* a hint: other values are ignored */
}

/* The context id of the communicator obj_handle points to. Open MPI's public tests pass the
 * handle itself (MPI_COMM_WORLD, not &comm): a value below 4096 is never a pointer to a
 * handle, so such a predefined handle is taken as meant. */
static int bound_context(void *obj_handle, uint32_t *context)
{
    if (!nodempi.initialized || nodempi.finalized)
        return MPI_T_ERR_INVALID_HANDLE; /* communicators exist while MPI is initialized */
    MPI_Comm handle = (uintptr_t)obj_handle < 0x1000 ? (MPI_Comm)obj_handle
                                                     : *(MPI_Comm *)obj_handle;
    struct core_comm *comm = core_comm_from_handle(handle);
    if (!comm)
        return MPI_T_ERR_INVALID_HANDLE;
    *context = comm->context;
    return MPI_SUCCESS;
}

int PMPI_T_event_handle_alloc(int event_index, void *obj_handle, MPI_Info info,
                              MPI_T_event_registration *event_registration)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    int rc = check();
    if (rc != MPI_SUCCESS)
        return rc;
    if (event_index < 0 || event_index >= CORE_EVENT_TYPES)
        return MPI_T_ERR_INVALID_INDEX;
    if (!event_registration)
        return MPI_T_ERR_INVALID;
    uint32_t context = CORE_EVENT_NO_CONTEXT;
    if (types[event_index].bind == MPI_T_BIND_MPI_COMM &&
        (rc = bound_context(obj_handle, &context)) != MPI_SUCCESS)
        return rc;
    struct event_reg *r = calloc(1, sizeof(*r));
    if (!r)
        return MPI_T_ERR_MEMORY;
    r->type = event_index;
    r->context = context;
    r->capacity = DEFAULT_BUFFER;
    if ((rc = merge_info(&r->info, info)) != MPI_SUCCESS) {
        core_info_free(r->info);
        free(r);
        return rc;
    }
    apply_hints(r);
    core_thread_track_calls(); /* callbacks run where the outermost call ends: find it */
    r->next = regs;
    regs = r;
    live[event_index]++;
    set_active(event_index);
    *event_registration = (MPI_T_event_registration)r;
    return MPI_SUCCESS;
}
#pragma weak MPI_T_event_handle_alloc = PMPI_T_event_handle_alloc

/* The registration of a handle the tool passed in *r, or the error class. */
static int get_reg(MPI_T_event_registration handle, struct event_reg **r)
{
    int rc = check();
    if (rc != MPI_SUCCESS)
        return rc;
    *r = find_reg(handle);
    return *r ? MPI_SUCCESS : MPI_T_ERR_INVALID_HANDLE;
}

int PMPI_T_event_handle_set_info(MPI_T_event_registration event_registration, MPI_Info info)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    struct event_reg *r;
    int rc = get_reg(event_registration, &r);
    if (rc != MPI_SUCCESS)
        return rc;
    if ((rc = merge_info(&r->info, info)) != MPI_SUCCESS)
        return rc;
    apply_hints(r);
    return MPI_SUCCESS;
}
#pragma weak MPI_T_event_handle_set_info = PMPI_T_event_handle_set_info

int PMPI_T_event_handle_get_info(MPI_T_event_registration event_registration,
                                 MPI_Info *info_used)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    struct event_reg *r;
    int rc = get_reg(event_registration, &r);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!info_used)
        return MPI_T_ERR_INVALID;
    return info_out(r->info, info_used);
}
#pragma weak MPI_T_event_handle_get_info = PMPI_T_event_handle_get_info

static int valid_level(MPI_T_cb_safety level)
{
    return (int)level >= MPI_T_CB_REQUIRE_NONE && (int)level <= MPI_T_CB_REQUIRE_ASYNC_SIGNAL_SAFE;
}

/* One callback per safety level; a NULL function removes the level's callback. */
int PMPI_T_event_register_callback(MPI_T_event_registration event_registration,
                                   MPI_T_cb_safety cb_safety, MPI_Info info, void *user_data,
                                   MPI_T_event_cb_function *event_cb_function)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    struct event_reg *r;
    int rc = get_reg(event_registration, &r);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!valid_level(cb_safety))
        return MPI_T_ERR_INVALID;
    struct core_info *hints = NULL;
    if ((rc = merge_info(&hints, info)) != MPI_SUCCESS) {
        core_info_free(hints);
        return rc;
    }
    core_info_free(r->cb[cb_safety].info);
    r->cb[cb_safety].info = event_cb_function ? hints : (core_info_free(hints), NULL);
    r->cb[cb_safety].fn = event_cb_function;
    r->cb[cb_safety].user_data = user_data;
    return MPI_SUCCESS;
}
#pragma weak MPI_T_event_register_callback = PMPI_T_event_register_callback

int PMPI_T_event_callback_set_info(MPI_T_event_registration event_registration,
                                   MPI_T_cb_safety cb_safety, MPI_Info info)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    struct event_reg *r;
    int rc = get_reg(event_registration, &r);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!valid_level(cb_safety) || !r->cb[cb_safety].fn)
        return MPI_T_ERR_INVALID; /* no callback registered for that level */
    return merge_info(&r->cb[cb_safety].info, info);
}
#pragma weak MPI_T_event_callback_set_info = PMPI_T_event_callback_set_info

int PMPI_T_event_callback_get_info(MPI_T_event_registration event_registration,
                                   MPI_T_cb_safety cb_safety, MPI_Info *info_used)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    struct event_reg *r;
    int rc = get_reg(event_registration, &r);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!valid_level(cb_safety) || !r->cb[cb_safety].fn || !info_used)
        return MPI_T_ERR_INVALID;
    return info_out(r->cb[cb_safety].info, info_used);
}
#pragma weak MPI_T_event_callback_get_info = PMPI_T_event_callback_get_info

int PMPI_T_event_handle_free(MPI_T_event_registration event_registration, void *user_data,
                             MPI_T_event_free_cb_function *free_cb_function)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    struct event_reg *r;
    int rc = get_reg(event_registration, &r);
    if (rc != MPI_SUCCESS)
        return rc;
    reg_retire(r, free_cb_function, user_data);
    return MPI_SUCCESS;
}
#pragma weak MPI_T_event_handle_free = PMPI_T_event_handle_free

int PMPI_T_event_set_dropped_handler(MPI_T_event_registration event_registration,
                                     MPI_T_event_dropped_cb_function *dropped_cb_function)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    struct event_reg *r;
    int rc = get_reg(event_registration, &r);
    if (rc != MPI_SUCCESS)
        return rc;
    r->dropped_fn = dropped_cb_function;
    return MPI_SUCCESS;
}
#pragma weak MPI_T_event_set_dropped_handler = PMPI_T_event_set_dropped_handler

/* ---- event instances: valid inside the callback they were given to ------------------------- */

static const struct event_item *instance(MPI_T_event_instance handle)
{
    return handle && (const struct event_item *)handle == current ? current : NULL;
}

/* The instance of a handle a callback got in *item, or the error class. */
static int get_instance(MPI_T_event_instance handle, const struct event_item **item)
{
    int rc = check();
    if (rc != MPI_SUCCESS)
        return rc;
    *item = instance(handle);
    return *item ? MPI_SUCCESS : MPI_T_ERR_INVALID_HANDLE;
}

int PMPI_T_event_read(MPI_T_event_instance event_instance, int element_index, void *buffer)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    const struct event_item *item;
    int rc = get_instance(event_instance, &item);
    if (rc != MPI_SUCCESS)
        return rc;
    const struct event_type *t = &types[item->type];
    if (element_index < 0 || element_index >= t->nelements)
        return MPI_T_ERR_INVALID_INDEX;
    if (!buffer)
        return MPI_T_ERR_INVALID;
    const struct event_element *e = &t->elements[element_index];
    memcpy(buffer, item->data + e->disp, (size_t)e->size);
    return MPI_SUCCESS;
}
#pragma weak MPI_T_event_read = PMPI_T_event_read

/* The elements at the displacements MPI_T_event_get_info gives, up to the last one's end. */
int PMPI_T_event_copy(MPI_T_event_instance event_instance, void *buffer)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    const struct event_item *item;
    int rc = get_instance(event_instance, &item);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!buffer)
        return MPI_T_ERR_INVALID;
    memcpy(buffer, item->data, (size_t)type_bytes(&types[item->type]));
    return MPI_SUCCESS;
}
#pragma weak MPI_T_event_copy = PMPI_T_event_copy

int PMPI_T_event_get_timestamp(MPI_T_event_instance event_instance, MPI_Count *event_timestamp)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    const struct event_item *item;
    int rc = get_instance(event_instance, &item);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!event_timestamp)
        return MPI_T_ERR_INVALID;
    *event_timestamp = item->timestamp;
    return MPI_SUCCESS;
}
#pragma weak MPI_T_event_get_timestamp = PMPI_T_event_get_timestamp

int PMPI_T_event_get_source(MPI_T_event_instance event_instance, int *source_index)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    const struct event_item *item;
    int rc = get_instance(event_instance, &item);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!source_index)
        return MPI_T_ERR_INVALID;
    *source_index = 0;
    return MPI_SUCCESS;
}
#pragma weak MPI_T_event_get_source = PMPI_T_event_get_source
