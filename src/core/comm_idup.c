/* comm_idup.c - MPI_Comm_idup(_with_info): the context-id agreement of a dup run as a
 * nonblocking operation under a generic request, so that a member that started it can go on
 * (and wait for members that have not started it yet). Each round, every member offers a part
 * of its free pairs (reserved meanwhile: comm_create.c) and tells its whole free map; the
 * leader of each local group (local rank 0) ANDs both, swaps the result with the other
 * group's leader over an intercommunicator and sends it back; every member then takes the
 * lowest agreed pairs; or starts another round when too few were offered by all but enough
 * are free in all (pairs held by agreements under way are released soon); or fails with
 * MPI_ERR_INTERN when too few are free in all. Attributes (copy callbacks), topology and
 * hints are copied at the call, so no user callback ever runs inside the progress engine;
 * the communicator is built and *newcomm written at completion.
 * Messages travel on the parent's collective contexts (the local_comm's for an intercomm's
 * local group) with a tag band of their own: one tag per idup of a parent, counted by the
 * parent (MPI orders the idups of one communicator by call order on every member). */
#include <stdlib.h>
#include <string.h>

#include "core/attr.h"
#include "core/comm.h"
#include "core/comm_create.h"
#include "core/error.h"
#include "core/info.h"
#include "core/request.h"
#include "datatype/datatype.h"
#include "p2p/p2p.h"
#include "topo/topo.h"

/* Below comm_create.c's bands (-100, and -1024 - [0, 2^30)) and clear of the collectives'
 * nonnegative tags: 2^28 idups of one communicator before a tag comes round again. */
enum { TAG_IDUP_BASE = -0x48000000, TAG_IDUP_SPAN = 0x10000000 };

/* A round offers at most IDUP_WORD_PAIRS pairs (the lowest offerable) of one or two 64-pair
 * words of the map, the same words on every member: idups under way at once rarely pick the
 * same word, and when they do each still gets pairs. The first round picks a word of the
 * upper half (blocking constructors look in the lower half first: comm_create.c) by hash;
 * later rounds pick among the words where the last round found pairs free in every member,
 * preferring the upper half while it has enough, and offer only those pairs. */
enum { IDUP_WORD_PAIRS = 16 };

/* What a member tells its leader, and the leader the members. */
struct idup_masks {
    uint64_t offer[CORE_CONTEXT_WORDS];
    uint64_t free[CORE_CONTEXT_WORDS];
};

enum idup_phase {
    IDUP_GATHER, /* leader: the members' offers are coming in */
    IDUP_SWAP,   /* leader of an intercommunicator group: swapping with the other leader */
    IDUP_RESULT, /* leader: agreed mask going out; member: offer out, agreed mask coming in */
};

struct idup_state {
    struct core_comm *parent; /* retained by the request (request->comm) */
    struct core_comm *local;  /* the local group: parent, or its local_comm */
    MPI_Comm *newcomm;
    int tag;
    uint32_t serial;
    unsigned round;
    int need;                            /* pairs: 1, 2 for an intercommunicator */
    uint64_t common[CORE_CONTEXT_WORDS]; /* free in every member at the last round */
    enum idup_phase phase;
    int offer_held; /* mine.offer is reserved */
    struct idup_masks mine;
    struct idup_masks agreed;
    struct idup_masks outgoing;  /* leader: stable while its sends are in flight */
    struct idup_masks *incoming; /* leader: [i] from member i, [0] from the other leader */
    struct core_request **ops;                /* p2p operations of the current step */
    int op_count;
    int ops_orphaned; /* failure left operations in flight: buffers must outlive them */
    /* copied at the call, handed to the new communicator */
    void *attributes;
    struct topo *topology;
    struct core_info *hints;
    struct core_errhandler *errhandler;
};

enum { HALF = CORE_CONTEXT_WORDS / 2 };

/* ---- rounds --------------------------------------------------------------------------------- */

static uint64_t mix(uint64_t x)
{
    /* splitmix64's finaliser: consecutive serials land on unrelated words */
    x ^= x >> 30;
    x *= UINT64_C(0xbf58476d1ce4e5b9);
    x ^= x >> 27;
    x *= UINT64_C(0x94d049bb133111eb);
    return x ^ (x >> 31);
}

/* Pairs set in mask from word `first` on. */
static int count_pairs(const uint64_t *mask, int first)
{
    int n = 0;
    for (int w = first; w < CORE_CONTEXT_WORDS; w++)
        n += __builtin_popcountll(mask[w]);
    return n;
}

/* The round's words (the same on every member: from the parent's context, the idup's serial,
 * the round and the last round's common free pairs); returns how many (1 or 2). */
static int round_words(const struct idup_state *s, int *words)
{
    uint64_t key = (uint64_t)s->parent->context << 32 | s->serial;
    uint64_t h = mix(key + (uint64_t)s->round * UINT64_C(0x9e3779b97f4a7c15));
    if (s->round == 0) {
        words[0] = HALF + (int)(h % HALF);
        return 1;
    }
    int first = count_pairs(s->common, HALF) >= s->need ? HALF : 0, candidates = 0;
    for (int w = first; w < CORE_CONTEXT_WORDS; w++)
        candidates += s->common[w] != 0;
    int pick = (int)(h % (uint64_t)(candidates > 0 ? candidates : 1)), n = 0;
    for (int w = first; w < CORE_CONTEXT_WORDS && n < 2; w++) /* the pick and the next one */
        if (s->common[w] && (n > 0 || pick-- == 0))
            words[n++] = w;
    for (int w = first; w < CORE_CONTEXT_WORDS && n == 1 && candidates > 1; w++)
        if (s->common[w] && w != words[0])
            words[n++] = w; /* the pick was the last candidate: wrap round */
    return n;
}

static void round_offer(const struct idup_state *s, uint64_t *offer)
{
    uint64_t offerable[CORE_CONTEXT_WORDS];
    core_context_offerable(offerable);
    memset(offer, 0, sizeof(uint64_t) * CORE_CONTEXT_WORDS);
    int words[2], n = round_words(s, words);
    for (int i = 0; i < n; i++) {
        uint64_t bits = offerable[words[i]] & (s->round ? s->common[words[i]] : ~UINT64_C(0));
        while (__builtin_popcountll(bits) > IDUP_WORD_PAIRS) /* keep the lowest */
            bits &= ~(UINT64_C(1) << (63 - __builtin_clzll(bits)));
        offer[words[i]] = bits;
    }
}

/* ---- the step's point-to-point operations --------------------------------------------------- */

static uint32_t coll_context(const struct core_comm *comm)
{
    return comm->context + CORE_CONTEXT_COLL_OFFSET;
}

static int post(struct idup_state *s, int is_send, struct core_comm *comm, int peer,
                struct idup_masks *masks)
{
    struct dt_type *byte = dt_from_handle(MPI_BYTE);
    struct core_request **slot = &s->ops[s->op_count];
    MPI_Count bytes = sizeof(struct idup_masks);
    int rc = is_send ? p2p_isend(comm, coll_context(comm), peer, s->tag, masks, bytes, byte,
                                 CORE_SEND_STANDARD, slot)
                     : p2p_irecv(comm, coll_context(comm), peer, s->tag, masks, bytes, byte, slot);
    if (rc == MPI_SUCCESS)
        s->op_count++;
    return rc;
}

/* -1 while an operation is in flight; else the first error of the step (its requests freed). */
static int ops_finished(struct idup_state *s)
{
    for (int i = 0; i < s->op_count; i++)
        if (!s->ops[i]->complete)
            return -1;
    int rc = MPI_SUCCESS;
    for (int i = 0; i < s->op_count; i++) {
        int one = core_request_wait(s->ops[i], NULL); /* complete: frees it */
        if (rc == MPI_SUCCESS)
            rc = one;
    }
    s->op_count = 0;
    return rc;
}

/* Failure with operations in flight: receives are cancelled, and whatever still runs frees
 * its request when it completes (without waiting: this runs inside the progress engine). */
static void ops_abandon(struct idup_state *s)
{
    for (int i = 0; i < s->op_count; i++) {
        struct core_request *op = s->ops[i];
        if (op->kind == CORE_REQUEST_RECV && !op->complete)
            p2p_cancel(op);
        if (op->complete) {
            core_request_free(op);
        } else {
            op->freed_by_user = 1;
            s->ops_orphaned = 1;
        }
    }
    s->op_count = 0;
}

/* ---- the state machine ---------------------------------------------------------------------- */

static void release_offer(struct idup_state *s)
{
    if (s->offer_held)
        core_context_unreserve(s->mine.offer);
    s->offer_held = 0;
}

static void finish(struct core_request *request, int rc)
{
    struct idup_state *s = request->state;
    ops_abandon(s);
    release_offer(s);
    if (rc != MPI_SUCCESS)
        *s->newcomm = MPI_COMM_NULL;
    request->status.MPI_ERROR = rc;
    request->complete = 1;
}

/* Offer this round's pairs: a member sends its offer to the leader and waits for the agreed
 * mask; the leader waits for the members' offers. */
static int start_round(struct idup_state *s)
{
    round_offer(s, s->mine.offer);
    core_context_reserve(s->mine.offer);
    s->offer_held = 1;
    core_context_free_mask(s->mine.free);
    if (s->local->rank != 0) {
        s->phase = IDUP_RESULT;
        int rc = post(s, 0, s->local, 0, &s->agreed);
        return rc == MPI_SUCCESS ? post(s, 1, s->local, 0, &s->mine) : rc;
    }
    s->agreed = s->mine;
    s->phase = IDUP_GATHER;
    for (int i = 1; i < s->local->size; i++) {
        int rc = post(s, 0, s->local, i, &s->incoming[i]);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    return MPI_SUCCESS;
}

static void and_into(struct idup_masks *masks, const struct idup_masks *other)
{
    for (int w = 0; w < CORE_CONTEXT_WORDS; w++) {
        masks->offer[w] &= other->offer[w];
        masks->free[w] &= other->free[w];
    }
}

/* Leader: the agreed masks go to every member of the local group. */
static int send_result(struct idup_state *s)
{
    s->outgoing = s->agreed;
    s->phase = IDUP_RESULT;
    for (int i = 1; i < s->local->size; i++) {
        int rc = post(s, 1, s->local, i, &s->outgoing);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    return MPI_SUCCESS;
}

/* The new communicator on the agreed pairs, with what was copied at the call. */
static int build(struct core_request *request, const int *pairs)
{
    struct idup_state *s = request->state;
    struct core_comm *made;
    int rc = core_comm_dup_on(s->parent, pairs, &made);
    if (rc != MPI_SUCCESS)
        return rc;
    made->attributes = s->attributes;
    made->topology = s->topology;
    made->info_hints = s->hints;
    s->attributes = NULL;
    s->topology = NULL;
    s->hints = NULL;
    core_errhandler_release(made->errhandler); /* the parent's when the call was made */
    made->errhandler = s->errhandler;
    s->errhandler = NULL;
    *s->newcomm = core_comm_to_handle(made);
    return MPI_SUCCESS;
}

/* Every member holds the agreed masks (the same ones): take the lowest pairs offered by all,
 * or try another round while enough pairs are free in all. */
static int decide(struct core_request *request)
{
    struct idup_state *s = request->state;
    release_offer(s);
    int pairs[2];
    if (core_context_lowest(s->agreed.offer, s->need, pairs) == s->need) {
        int rc = build(request, pairs);
        finish(request, rc);
        return MPI_SUCCESS;
    }
    if (count_pairs(s->agreed.free, 0) < s->need)
        return MPI_ERR_INTERN; /* no pair free in every member (too many communicators alive) */
    memcpy(s->common, s->agreed.free, sizeof(s->common));
    s->round++;
    return start_round(s);
}

/* Advance as far as the finished operations allow. */
static int advance(struct core_request *request)
{
    struct idup_state *s = request->state;
    while (!request->complete) {
        int rc = ops_finished(s);
        if (rc < 0)
            return MPI_SUCCESS;
        if (rc != MPI_SUCCESS)
            return rc;
        switch (s->phase) {
        case IDUP_GATHER:
            for (int i = 1; i < s->local->size; i++)
                and_into(&s->agreed, &s->incoming[i]);
            if (!s->parent->is_inter) {
                rc = send_result(s);
                break;
            }
            s->outgoing = s->agreed;
            s->phase = IDUP_SWAP;
            rc = post(s, 0, s->parent, 0, &s->incoming[0]);
            if (rc == MPI_SUCCESS)
                rc = post(s, 1, s->parent, 0, &s->outgoing);
            break;
        case IDUP_SWAP:
            and_into(&s->agreed, &s->incoming[0]);
            rc = send_result(s);
            break;
        case IDUP_RESULT:
            rc = decide(request);
            break;
        }
        if (rc != MPI_SUCCESS)
            return rc;
    }
    return MPI_SUCCESS;
}

static int poll_idup(struct core_request *request)
{
    int rc = advance(request);
    if (rc != MPI_SUCCESS)
        finish(request, rc);
    return MPI_SUCCESS;
}

/* The call: the first round starts at once (a member of a one-process group is done now). */
static int start_idup(struct core_request *request)
{
    int rc = start_round(request->state);
    if (rc == MPI_SUCCESS)
        rc = advance(request);
    if (rc != MPI_SUCCESS)
        finish(request, rc);
    return rc;
}

static void release_idup(struct core_request *request)
{
    struct idup_state *s = request->state;
    if (!s)
        return;
    ops_abandon(s);
    release_offer(s);
    if (s->attributes)
        core_attr_drop_all(&s->attributes);
    topo_free(s->topology);
    core_info_free(s->hints);
    if (s->errhandler)
        core_errhandler_release(s->errhandler);
    if (!s->ops_orphaned) { /* else an orphaned receive may still write into them */
        free(s->incoming);
        free(s->ops);
        free(s);
    }
    request->state = NULL;
}

/* ---- the call ------------------------------------------------------------------------------- */

/* What MPI_Comm_dup copies besides the group, copied now. */
static int copy_extras(struct core_comm *comm, struct core_info *info, struct idup_state *s)
{
    int rc = MPI_SUCCESS;
    if (comm->topology)
        rc = topo_dup(comm->topology, &s->topology);
    struct core_info *hints = info ? info : comm->info_hints;
    if (rc == MPI_SUCCESS && hints)
        rc = core_info_dup(hints, &s->hints);
    if (rc == MPI_SUCCESS)
        rc = core_attr_copy_all(CORE_ATTR_COMM, comm->attributes,
                                (void *)core_comm_to_handle(comm), &s->attributes);
    s->errhandler = comm->errhandler;
    core_errhandler_retain(s->errhandler);
    return rc;
}

static struct idup_state *state_new(struct core_comm *comm, MPI_Comm *newcomm)
{
    struct idup_state *s = calloc(1, sizeof(*s));
    if (!s)
        return NULL;
    s->parent = comm;
    s->local = comm->is_inter ? comm->local_comm : comm;
    s->newcomm = newcomm;
    s->need = comm->is_inter ? 2 : 1;
    s->serial = comm->idup_serial++;
    s->tag = TAG_IDUP_BASE - (int)(s->serial % TAG_IDUP_SPAN);
    int size = s->local->size;
    /* a leader's step: size - 1 receives (or sends), or one send and one receive */
    s->ops = calloc((size_t)size + 2, sizeof(*s->ops));
    if (s->local->rank == 0)
        s->incoming = calloc((size_t)size, sizeof(*s->incoming));
    if (!s->ops || (s->local->rank == 0 && !s->incoming)) {
        free(s->ops);
        free(s->incoming);
        free(s);
        return NULL;
    }
    return s;
}

int core_comm_idup(struct core_comm *comm, struct core_info *info, MPI_Comm *newcomm,
                   struct core_request **out)
{
    struct idup_state *s = state_new(comm, newcomm);
    struct core_request *r = s ? core_request_alloc(CORE_REQUEST_GENERIC) : NULL;
    if (!r) {
        if (s) {
            free(s->ops);
            free(s->incoming);
            free(s);
        }
        return MPI_ERR_NO_MEM;
    }
    core_status_set_empty(&r->status);
    r->state = s;
    r->poll = poll_idup;
    r->start = start_idup;
    r->free_state = release_idup;
    r->comm = comm;
    core_comm_retain(comm);
    int rc = copy_extras(comm, info, s);
    if (rc == MPI_SUCCESS)
        rc = core_request_start_generic(r);
    if (rc != MPI_SUCCESS) {
        core_request_free(r);
        return rc;
    }
    *out = r;
    return MPI_SUCCESS;
}
