/* sched.c - the collective schedule engine (see sched.h): building steps, temporary memory,
 * issuing rounds over the point-to-point layer on the communicator's collective context, and
 * the per-communicator pool of schedules that keeps blocking collectives free of malloc once
 * warm. It knows no algorithm; it must not block except in coll_sched_run. */
#include "coll/sched.h"

#include <stdlib.h>
#include <string.h>

#include "coll/algorithms.h"
#include "coll/op.h"
#include "core/comm.h"
#include "core/config.h"
#include "core/progress.h"
#include "core/init.h"
#include "core/request.h"
#include "core/state.h"
#include "datatype/datatype.h"
#include "p2p/p2p.h"
#include "shm/copy.h"

/* Chunks beyond this total are returned to the heap when a schedule is reused, so one huge
 * collective does not pin its temporary memory for the communicator's lifetime. */
#define COLL_KEEP_TEMP_BYTES ((size_t)16 << 20)
#define COLL_MIN_CHUNK ((size_t)64 << 10)
#define COLL_TEMP_ALIGN 64

/* MPI_COMM_WORLD and MPI_COMM_SELF are never freed: their state goes at MPI_Finalize. */
static void free_predefined_states(void)
{
    if (nodempi.comm_world)
        coll_comm_state_free(nodempi.comm_world);
    if (nodempi.comm_self)
        coll_comm_state_free(nodempi.comm_self);
}

struct coll_comm_state *coll_comm_state_of(struct core_comm *comm)
{
    if (comm->coll_private)
        return comm->coll_private;
    int first_predefined = comm->predefined && !nodempi.comm_world->coll_private &&
                           !nodempi.comm_self->coll_private;
    comm->coll_private = calloc(1, sizeof(struct coll_comm_state));
    if (comm->coll_private && first_predefined)
        core_at_finalize(free_predefined_states); /* harmless if it ever runs twice */
    return comm->coll_private;
}

static int all_in_job(const int *world_ranks, int n)
{
    for (int r = 0; r < n; r++) {
        int w = world_ranks ? world_ranks[r] : r;
        if (w < 0 || w >= nodempi.world_size)
            return 0;
    }
    return 1;
}

int coll_comm_job_local(struct core_comm *comm)
{
    struct coll_comm_state *state = coll_comm_state_of(comm);
    if (state && state->job_local)
        return state->job_local > 0;
    int local = all_in_job(comm->world_ranks, comm->size) &&
                (!comm->is_inter || all_in_job(comm->remote_world_ranks, comm->remote_size));
    if (state)
        state->job_local = local ? 1 : -1;
    return local;
}

int coll_comm_oversubscribed(struct core_comm *comm)
{
    return nodempi.job_oversubscribed && coll_comm_job_local(comm);
}

int coll_next_tag(struct core_comm *comm, int space)
{
    struct coll_comm_state *state = coll_comm_state_of(comm);
    if (!state)
        return 0;
    /* 2^23 collectives of one kind and form in flight at once cannot happen */
    uint32_t number = state->sequence[space]++ & COLL_TAG_SEQUENCE_MASK;
    return (int)((uint32_t)space << COLL_TAG_SEQUENCE_BITS | number);
}

static void release_references(struct coll_sched *s)
{
    if (!s->retain)
        return;
    for (int i = 0; i < s->nsteps; i++) {
        struct coll_step *step = &s->steps[i];
        if (step->type)
            dt_release(step->type);
        if (step->dst_type)
            dt_release(step->dst_type);
        if (step->op)
            coll_op_release(step->op);
    }
}

static void free_chunks(struct coll_sched *s)
{
    while (s->chunks) {
        struct coll_chunk *next = s->chunks->next;
        free(s->chunks);
        s->chunks = next;
    }
}

/* Clear for reuse, keeping the step array and (bounded) temporary chunks. */
static void sched_clear(struct coll_sched *s)
{
    release_references(s);
    s->nsteps = 0;
    s->current = 0;
    s->posted = 0;
    s->error = MPI_SUCCESS;
    s->build_error = MPI_SUCCESS;
    size_t total = 0;
    for (struct coll_chunk *c = s->chunks; c; c = c->next) {
        c->used = 0;
        total += c->size;
    }
    if (total > COLL_KEEP_TEMP_BYTES)
        free_chunks(s);
}

struct coll_sched *coll_sched_get(struct core_comm *comm, enum coll_kind kind,
                                  enum coll_form form)
{
    struct coll_comm_state *state = coll_comm_state_of(comm);
    if (!state)
        return NULL;
    struct coll_sched *s = state->free_scheds;
    if (s) {
        state->free_scheds = s->next_free;
    } else {
        s = calloc(1, sizeof(*s));
        if (!s)
            return NULL;
    }
    s->comm = comm;
    s->retain = form != COLL_FORM_BLOCKING;
    s->next_free = NULL;
    s->tag_space = coll_tag_space(kind, form);
    s->tag = coll_next_tag(comm, s->tag_space);
    return s;
}

void coll_sched_put(struct coll_sched *s)
{
    /* requests of an unfinished schedule (freed by the user mid-flight) complete on their own */
    for (int i = s->current; i < s->nsteps; i++) {
        struct core_request *request = s->steps[i].request;
        if (!request)
            continue;
        if (request->complete)
            core_request_free(request);
        else
            request->freed_by_user = 1;
        s->steps[i].request = NULL;
    }
    sched_clear(s);
    struct coll_comm_state *state = s->comm ? s->comm->coll_private : NULL;
    if (!state) {
        free_chunks(s);
        free(s->steps);
        free(s);
        return;
    }
    s->next_free = state->free_scheds;
    state->free_scheds = s;
}

void coll_comm_state_free(struct core_comm *comm)
{
    struct coll_comm_state *state = comm->coll_private;
    if (!state)
        return;
    coll_shm_barrier_release(comm, state);
    while (state->free_scheds) {
        struct coll_sched *s = state->free_scheds;
        state->free_scheds = s->next_free;
        free_chunks(s);
        free(s->steps);
        free(s);
    }
    free(state);
    comm->coll_private = NULL;
}

/* ------------------------------------------------------------------------------------------ */
/* Building.                                                                                    */

static struct coll_step *add_step(struct coll_sched *s, enum coll_step_kind kind)
{
    if (s->nsteps == s->capacity) {
        int capacity = s->capacity ? 2 * s->capacity : 32;
        struct coll_step *steps = realloc(s->steps, (size_t)capacity * sizeof(*steps));
        if (!steps) {
            s->build_error = MPI_ERR_NO_MEM;
            return NULL;
        }
        s->steps = steps;
        s->capacity = capacity;
    }
    struct coll_step *step = &s->steps[s->nsteps++];
    /* field by field: a memset of the step compiles to `rep stos`, whose start-up cost was 7%
     * of an 8-rank small bcast's samples */
    step->kind = kind;
    step->peer = 0;
    step->tag = 0;
    step->comm = NULL;
    step->src = NULL;
    step->dst = NULL;
    step->count = 0;
    step->type = NULL;
    step->dst_count = 0;
    step->dst_type = NULL;
    step->op = NULL;
    step->request = NULL;
    return step;
}

static void hold_type(struct coll_sched *s, struct dt_type *type)
{
    if (s->retain && type)
        dt_retain(type);
}

void coll_sched_send(struct coll_sched *s, struct core_comm *comm, int peer, const void *buf,
                     MPI_Count count, struct dt_type *type)
{
    struct coll_step *step = add_step(s, COLL_STEP_SEND);
    if (!step)
        return;
    step->comm = comm;
    step->peer = peer;
    step->tag = s->tag;
    step->src = buf;
    step->count = count;
    step->type = type;
    hold_type(s, type);
}

void coll_sched_recv(struct coll_sched *s, struct core_comm *comm, int peer, void *buf,
                     MPI_Count count, struct dt_type *type)
{
    struct coll_step *step = add_step(s, COLL_STEP_RECV);
    if (!step)
        return;
    step->comm = comm;
    step->peer = peer;
    step->tag = s->tag;
    step->dst = buf;
    step->count = count;
    step->type = type;
    hold_type(s, type);
}

void coll_sched_reduce(struct coll_sched *s, const void *in, void *inout, MPI_Count count,
                       struct dt_type *type, struct coll_op *op)
{
    if (count == 0)
        return;
    struct coll_step *step = add_step(s, COLL_STEP_REDUCE);
    if (!step)
        return;
    step->src = in;
    step->dst = inout;
    step->count = count;
    step->type = type;
    step->op = op;
    hold_type(s, type);
    if (s->retain)
        coll_op_retain(op);
}

void coll_sched_copy(struct coll_sched *s, const void *src, MPI_Count count,
                     struct dt_type *type, void *dst, MPI_Count dst_count,
                     struct dt_type *dst_type)
{
    if (count == 0 || (src == dst && count == dst_count && type == dst_type))
        return;
    struct coll_step *step = add_step(s, COLL_STEP_COPY);
    if (!step)
        return;
    step->src = src;
    step->count = count;
    step->type = type;
    step->dst = dst;
    step->dst_count = dst_count;
    step->dst_type = dst_type;
    hold_type(s, type);
    hold_type(s, dst_type);
}

void coll_sched_round(struct coll_sched *s)
{
    if (s->nsteps > 0 && s->steps[s->nsteps - 1].kind != COLL_STEP_ROUND_END)
        add_step(s, COLL_STEP_ROUND_END);
}

void *coll_sched_temp(struct coll_sched *s, size_t bytes)
{
    bytes = (bytes + COLL_TEMP_ALIGN - 1) & ~(size_t)(COLL_TEMP_ALIGN - 1);
    for (struct coll_chunk *c = s->chunks; c; c = c->next) {
        if (c->size - c->used >= bytes) {
            void *p = (char *)c->data + c->used;
            c->used += bytes ? bytes : COLL_TEMP_ALIGN;
            return p;
        }
    }
    size_t size = bytes > COLL_MIN_CHUNK ? bytes : COLL_MIN_CHUNK;
    struct coll_chunk *c = malloc(sizeof(*c) + size);
    if (!c) {
        s->build_error = MPI_ERR_NO_MEM;
        return NULL;
    }
    c->size = size;
    c->used = bytes ? bytes : COLL_TEMP_ALIGN;
    c->next = s->chunks;
    s->chunks = c;
    return c->data;
}

void *coll_sched_temp_typed(struct coll_sched *s, MPI_Count count, const struct dt_type *type)
{
    if (count <= 0)
        return coll_sched_temp(s, 0);
    MPI_Aint reach = (MPI_Aint)(count - 1) * type->extent;
    MPI_Aint span = type->true_extent + (reach >= 0 ? reach : -reach);
    char *base = coll_sched_temp(s, (size_t)span);
    if (!base)
        return NULL;
    /* element 0 starts at true_lb; with a negative extent later elements lie below it */
    return base - type->true_lb - (reach < 0 ? reach : 0);
}

/* ------------------------------------------------------------------------------------------ */
/* Copies between typed buffers: the same packed stream read from one, written to the other.   */

struct dt_type *coll_byte_type(void)
{
    return dt_from_handle(MPI_BYTE);
}

int coll_copy(const void *src, MPI_Count count, struct dt_type *type, void *dst,
              MPI_Count dst_count, struct dt_type *dst_type)
{
    size_t bytes = dt_packed_size(type, count);
    size_t room = dt_packed_size(dst_type, dst_count);
    int rc = MPI_SUCCESS;
    if (bytes > room) {
        bytes = room;
        rc = MPI_ERR_TRUNCATE;
    }
    if (bytes == 0)
        return rc;
    int src_flat = dt_is_contiguous(type, count);
    int dst_flat = dt_is_contiguous(dst_type, dst_count);
    if (src_flat && dst_flat) {
        char *to = (char *)dst + dst_type->true_lb;
        const char *from = (const char *)src + type->true_lb;
        if (to + bytes <= from || from + bytes <= to)
            shm_copy(to, from, bytes); /* (1 MiB and more in pieces: shm/copy.h) */
        else
            memmove(to, from, bytes);
    } else if (src_flat) {
        dt_unpack_range(dst_type, dst, dst_count, 0, (const char *)src + type->true_lb, bytes);
    } else if (dst_flat) {
        dt_pack_range(type, src, count, 0, (char *)dst + dst_type->true_lb, bytes);
    } else {
        /* both scattered: through a bounce buffer, one piece at a time */
        max_align_t bounce[4096 / sizeof(max_align_t)];
        for (size_t pos = 0; pos < bytes; pos += sizeof(bounce)) {
            size_t len = bytes - pos < sizeof(bounce) ? bytes - pos : sizeof(bounce);
            dt_pack_range(type, src, count, pos, bounce, len);
            dt_unpack_range(dst_type, dst, dst_count, pos, bounce, len);
        }
    }
    return rc;
}

/* ------------------------------------------------------------------------------------------ */
/* Running.                                                                                     */

static void note_error(struct coll_sched *s, int rc)
{
    if (rc != MPI_SUCCESS && s->error == MPI_SUCCESS)
        s->error = rc;
}

static void issue_step(struct coll_sched *s, struct coll_step *step)
{
    uint32_t context;
    switch (step->kind) {
    case COLL_STEP_SEND:
        context = step->comm->context + CORE_CONTEXT_COLL_OFFSET;
        note_error(s, p2p_isend(step->comm, context, step->peer, step->tag, step->src,
                                step->count, step->type, CORE_SEND_STANDARD, &step->request));
        break;
    case COLL_STEP_RECV:
        context = step->comm->context + CORE_CONTEXT_COLL_OFFSET;
        note_error(s, p2p_irecv(step->comm, context, step->peer, step->tag, step->dst,
                                step->count, step->type, &step->request));
        break;
    case COLL_STEP_REDUCE:
        note_error(s, coll_op_apply(step->op, step->src, step->dst, step->count, step->type));
        break;
    case COLL_STEP_COPY:
        note_error(s, coll_copy(step->src, step->count, step->type, step->dst, step->dst_count,
                                step->dst_type));
        break;
    case COLL_STEP_ROUND_END:
        break;
    }
}

void coll_sched_start(struct coll_sched *s)
{
    s->current = 0;
    s->posted = 0;
    s->error = s->build_error;
}

/* Index of the ROUND_END closing the round that starts at `from` (or nsteps). */
static int round_end(const struct coll_sched *s, int from)
{
    int i = from;
    while (i < s->nsteps && s->steps[i].kind != COLL_STEP_ROUND_END)
        i++;
    return i;
}

int coll_sched_poll(struct coll_sched *s, int *done)
{
    for (;;) {
        if (s->current >= s->nsteps) {
            *done = 1;
            return s->error;
        }
        int end = round_end(s, s->current);
        if (!s->posted) {
            for (int i = s->current; i < end; i++)
                issue_step(s, &s->steps[i]);
            s->posted = 1;
        }
        for (int i = s->current; i < end; i++) {
            struct core_request *request = s->steps[i].request;
            if (request && !request->complete) {
                *done = 0;
                return MPI_SUCCESS;
            }
        }
        for (int i = s->current; i < end; i++) {
            struct core_request *request = s->steps[i].request;
            if (!request)
                continue;
            note_error(s, request->status.MPI_ERROR);
            core_request_free(request);
            s->steps[i].request = NULL;
        }
        s->current = end + 1;
        s->posted = 0;
    }
}

/* A blocking run takes a round of small transfers without requests when the round can
 * complete in step order: either it only sends, all eagerly (a blocking eager send completes
 * on return, whatever the peer does), or its one transfer is a receive, which the blocking
 * receive completes. Tree collectives are made of such rounds; they then cost no request
 * allocation and no polling of the round (8 ranks, bcast and scatter of 4-64 B spent a fifth
 * of their samples there). Exchange rounds (a send and a receive) keep their receive posted
 * before the send goes. */
static int round_is_direct(const struct coll_sched *s, int from, int end)
{
    int receives = 0, sends = 0;
    for (int i = from; i < end; i++) {
        const struct coll_step *step = &s->steps[i];
        if (step->kind != COLL_STEP_SEND && step->kind != COLL_STEP_RECV)
            continue;
        /* large transfers gain nothing measurable from skipping a request */
        if (dt_packed_size(step->type, step->count) > core_config.eager_limit)
            return 0;
        if (step->kind == COLL_STEP_RECV)
            receives++;
        else
            sends++;
    }
    return receives == 0 || (receives == 1 && sends == 0);
}

static void run_direct_round(struct coll_sched *s, int from, int end)
{
    const struct coll_step *recv = NULL;
    for (int i = from; i < end; i++) {
        struct coll_step *step = &s->steps[i];
        if (step->kind == COLL_STEP_RECV) {
            recv = step;
        } else if (step->kind == COLL_STEP_SEND) {
            uint32_t context = step->comm->context + CORE_CONTEXT_COLL_OFFSET;
            note_error(s, p2p_send(step->comm, context, step->peer, step->tag, step->src,
                                   step->count, step->type, CORE_SEND_STANDARD));
        } else {
            issue_step(s, step);
        }
    }
    if (recv) {
        uint32_t context = recv->comm->context + CORE_CONTEXT_COLL_OFFSET;
        note_error(s, p2p_recv(recv->comm, context, recv->peer, recv->tag, recv->dst,
                               recv->count, recv->type, NULL));
    }
}

/* The general round: every step issued, then each request waited for in turn. */
static void run_requested_round(struct coll_sched *s, int from, int end)
{
    for (int i = from; i < end; i++)
        issue_step(s, &s->steps[i]);
    for (int i = from; i < end; i++) {
        struct core_request *request = s->steps[i].request;
        if (!request)
            continue;
        core_request_wait_complete(request);
        note_error(s, request->status.MPI_ERROR);
        core_request_free(request);
        s->steps[i].request = NULL;
    }
}

int coll_sched_run(struct coll_sched *s)
{
    coll_sched_start(s);
    while (s->current < s->nsteps) {
        int end = round_end(s, s->current);
        if (round_is_direct(s, s->current, end))
            run_direct_round(s, s->current, end);
        else
            run_requested_round(s, s->current, end);
        s->current = end + 1;
    }
    return s->error;
}
