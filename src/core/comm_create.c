/* comm_create.c - communicator constructors and destructor, and the context-id map.
 * Every constructor first agrees on a free context pair with the other members (bitwise-AND
 * allreduce of the per-process free maps over the parent; over an intercommunicator the two
 * local results are swapped by the leaders and broadcast in each local group), then builds
 * the member table locally. Internal messages travel on the parent's collective context with
 * negative tags (no user receive and no collective matches them). Owns nothing in p2p or coll:
 * it only calls coll_allreduce / allgather / bcast and p2p_isend / irecv. */
#include "core/comm_create.h"

#include <hwloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coll/coll.h"
#include "coll/op.h"
#include "core/attr.h"
#include "core/comm.h"
#include "core/context_claim.h"
#include "core/dpm.h"
#include "core/error.h"
#include "core/group.h"
#include "core/info.h"
#include "core/request.h"
#include "core/state.h"
#include "datatype/datatype.h"
#include "p2p/p2p.h"
#include "topo/topo.h"

/* Internal tags on collective contexts: fixed ones for leader exchanges on an intercomm, and
 * a band for user tags of MPI_Comm_create_group / MPI_Intercomm_create (comm_idup.c has a
 * band of its own below this one). */
enum { TAG_INTER_AGREE = -100, TAG_USER_BASE = -1024 };

static int user_tag(int tag)
{
    return TAG_USER_BASE - (tag & 0x3fffffff);
}

/* ---- the context-id map ------------------------------------------------------------------- */

static struct core_context_map context_map;
static int context_map_ready;

/* Reservation. An agreement offers the pairs it sends from the moment it sends them until it
 * has taken the one it agreed on: meanwhile no other agreement on this process may offer them,
 * or two communicators could end up on one pair here. A blocking constructor holds its offer
 * for its whole run (the waits inside it progress the nonblocking agreements, which may start
 * a new round then); a nonblocking one (comm_idup.c) for one round. Offers are disjoint: each
 * is taken from the pairs free and not reserved, and reserved at once. */
static uint64_t context_reserved[CORE_CONTEXT_WORDS];
/* The part of context_reserved that blocking constructors hold (of every thread), and the part
 * this thread's blocking constructor holds. With MPI_THREAD_MULTIPLE only the thread holding
 * the agreement claim (context_claim.h) offers, hence holds, anything. */
static uint64_t blocking_reserved[CORE_CONTEXT_WORDS];
static _Thread_local uint64_t blocking_held[CORE_CONTEXT_WORDS];

void core_context_map_init(struct core_context_map *map)
{
    memset(map->free_bits, 0xff, sizeof(map->free_bits));
    core_context_map_take(map, 0); /* MPI_COMM_WORLD */
    core_context_map_take(map, 1); /* MPI_COMM_SELF */
}

int core_context_lowest(const uint64_t *mask, int n, int *pairs)
{
    int found = 0;
    for (int w = 0; w < CORE_CONTEXT_WORDS && found < n; w++) {
        uint64_t bits = mask[w];
        while (bits && found < n) {
            pairs[found++] = w * 64 + __builtin_ctzll(bits);
            bits &= bits - 1;
        }
    }
    return found;
}

void core_context_map_take(struct core_context_map *map, int pair)
{
    map->free_bits[pair / 64] &= ~(UINT64_C(1) << (pair % 64));
}

void core_context_map_put(struct core_context_map *map, int pair)
{
    map->free_bits[pair / 64] |= UINT64_C(1) << (pair % 64);
}

int core_context_map_is_free(const struct core_context_map *map, int pair)
{
    return (map->free_bits[pair / 64] >> (pair % 64)) & 1;
}

static struct core_context_map *my_map(void)
{
    if (!context_map_ready) {
        core_context_map_init(&context_map);
        context_map_ready = 1;
    }
    return &context_map;
}

void core_context_offerable(uint64_t *mask)
{
    const uint64_t *free_bits = my_map()->free_bits;
    for (int w = 0; w < CORE_CONTEXT_WORDS; w++)
        mask[w] = free_bits[w] & ~context_reserved[w];
}

void core_context_free_mask(uint64_t *mask)
{
    memcpy(mask, my_map()->free_bits, sizeof(my_map()->free_bits));
}

void core_context_reserve(const uint64_t *mask)
{
    for (int w = 0; w < CORE_CONTEXT_WORDS; w++)
        context_reserved[w] |= mask[w];
}

void core_context_unreserve(const uint64_t *mask)
{
    for (int w = 0; w < CORE_CONTEXT_WORDS; w++)
        context_reserved[w] &= ~mask[w];
}

/* A blocking constructor agrees in two attempts at most, both collective (every member sees
 * the same result of the first, so all make the second or none). The first offers the lower
 * half of the map only: the nonblocking agreements (comm_idup.c) work in the upper half, so
 * neither finds the pairs it wants held by the other. The second, when the lower halves have
 * too few pairs in common, offers everything this constructor holds or can offer. */
enum { BLOCKING_ATTEMPTS = 2 };

/* The offer of this thread's blocking constructor for `attempt` (held by blocking_hold once
 * it is really offered). */
static void blocking_offer(uint64_t *offer, int attempt)
{
    core_context_offerable(offer);
    for (int w = 0; w < CORE_CONTEXT_WORDS; w++) {
        if (attempt == 0 && w >= CORE_CONTEXT_WORDS / 2)
            offer[w] = 0;
        else if (attempt > 0)
            offer[w] |= blocking_held[w];
    }
}

/* An offer that went out is held until blocking_end. */
static void blocking_hold(const uint64_t *offer)
{
    for (int w = 0; w < CORE_CONTEXT_WORDS; w++) {
        uint64_t add = offer[w] & ~blocking_held[w];
        blocking_held[w] |= add;
        blocking_reserved[w] |= add;
        context_reserved[w] |= add;
    }
}

/* A blocking constructor returns: its pair is taken (or none is), its offer is released. */
static int blocking_end(int rc)
{
    for (int w = 0; w < CORE_CONTEXT_WORDS; w++) {
        context_reserved[w] &= ~blocking_held[w];
        blocking_reserved[w] &= ~blocking_held[w];
        blocking_held[w] = 0;
    }
    return rc;
}

/* This round's contribution of a blocking constructor: its offer and the claim word; the offer
 * is held only when it went out (this thread holds the claim). */
static void blocking_contribute(uint32_t key, int attempt, uint64_t *words)
{
    uint64_t offer[CORE_CONTEXT_WORDS];
    blocking_offer(offer, attempt);
    core_context_claim_contribute(key, offer, words);
    if (words[CORE_CONTEXT_WORDS])
        blocking_hold(offer);
}

/* ---- agreement helpers -------------------------------------------------------------------- */

static struct dt_type *byte_type(void)
{
    return dt_from_handle(MPI_BYTE);
}

/* One round of an intracommunicator's agreement: words = AND over the members of this
 * constructor's offer for `attempt` and the claim word (context_claim.h: a thread that does
 * not hold the process's claim offers nothing and the round is retried). */
static int agree_intra_round(struct core_comm *comm, int attempt, uint64_t *words)
{
    uint64_t mine[CORE_AGREE_WORDS];
    blocking_contribute(comm->context, attempt, mine);
    return coll_allreduce(mine, words, CORE_AGREE_WORDS, dt_from_handle(MPI_UINT64_T),
                          coll_op_from_handle(MPI_BAND), comm);
}

/* A communicator of one process agrees with nobody: with MPI_THREAD_MULTIPLE it takes the
 * highest free pair at once, outside the claim (context_claim.h), whose
 * holder may be waiting for a peer that is itself creating such a communicator (MPICH's
 * threads/comm/comm_dup_deadlock: MPI_Comm_dup(MPI_COMM_SELF) beside dups of shared parents).
 * Agreements pick from the bottom, so the two meet only when the map is nearly exhausted. */
static int agree_alone(uint64_t *mask)
{
    /* free and not offered by a nonblocking agreement (blocking holds are the claim
     * holder's, which picks from the bottom) */
    uint64_t candidates[CORE_CONTEXT_WORDS];
    for (int w = 0; w < CORE_CONTEXT_WORDS; w++)
        candidates[w] =
            my_map()->free_bits[w] & ~(context_reserved[w] & ~blocking_reserved[w]);
    memset(mask, 0, sizeof(uint64_t) * CORE_CONTEXT_WORDS);
    for (int pair = CORE_CONTEXT_PAIRS - 1; pair > 1; pair--)
        if ((candidates[pair / 64] >> (pair % 64)) & 1) {
            core_context_map_take(my_map(), pair); /* before any wait lets another thread pick */
            mask[pair / 64] = UINT64_C(1) << (pair % 64);
            return MPI_SUCCESS;
        }
    return MPI_ERR_INTERN;
}

/* *mask = AND of the members' offers for `attempt`, after as many rounds as the claim takes. */
static int allreduce_offer(struct core_comm *comm, int attempt, uint64_t *mask)
{
    uint64_t words[CORE_AGREE_WORDS];
    int rc;
    core_context_claim_begin(comm->context);
    while ((rc = agree_intra_round(comm, attempt, words)) == MPI_SUCCESS &&
           !core_context_claim_agreed(words))
        ;
    core_context_claim_end(comm->context);
    memcpy(mask, words, sizeof(uint64_t) * CORE_CONTEXT_WORDS);
    return rc;
}

/* Pick n pairs from an agreed mask. */
static int pick_pairs(const uint64_t *mask, int n, int *pairs)
{
    return core_context_lowest(mask, n, pairs) == n ? MPI_SUCCESS : MPI_ERR_INTERN;
}

static int enough(const uint64_t *mask, int need)
{
    int pairs[2];
    return core_context_lowest(mask, need, pairs) == need;
}

/* Common free pairs of an intracommunicator's members, `need` of them if possible. */
static int agree_intra(struct core_comm *comm, int need, uint64_t *mask)
{
    if (nodempi.thread_multiple && comm->size == 1 && !comm->is_inter && need == 1)
        return agree_alone(mask);
    int rc = MPI_SUCCESS;
    for (int attempt = 0; rc == MPI_SUCCESS && attempt < BLOCKING_ATTEMPTS; attempt++) {
        rc = allreduce_offer(comm, attempt, mask);
        if (rc == MPI_SUCCESS && enough(mask, need))
            break;
    }
    return rc;
}

/* How two group leaders reach each other: a communicator, context, peer rank and tag. */
struct leader_link {
    struct core_comm *comm;
    uint32_t context;
    int peer;
    int tag;
};

static int leader_swap(const struct leader_link *link, const void *send, size_t send_bytes,
                       void *recv, size_t recv_bytes)
{
    struct core_request *requests[2] = {NULL, NULL};
    int rc = p2p_irecv(link->comm, link->context, link->peer, link->tag, recv,
                       (MPI_Count)recv_bytes, byte_type(), &requests[0]);
    if (rc == MPI_SUCCESS)
        rc = p2p_isend(link->comm, link->context, link->peer, link->tag, send,
                       (MPI_Count)send_bytes, byte_type(), CORE_SEND_STANDARD, &requests[1]);
    int wait_rc = core_request_waitall(2, requests);
    return rc != MPI_SUCCESS ? rc : wait_rc;
}

/* One side of a two-group exchange: the leader swaps `bytes` with the other leader, then
 * everyone in local gets the other side's data. */
static int swap_and_bcast(struct core_comm *local, int leader, const struct leader_link *link,
                          const void *mine, void *theirs, size_t send_bytes, size_t recv_bytes)
{
    int rc = MPI_SUCCESS;
    if (local->rank == leader)
        rc = leader_swap(link, mine, send_bytes, theirs, recv_bytes);
    if (rc != MPI_SUCCESS)
        return rc;
    return coll_bcast(theirs, (MPI_Count)recv_bytes, byte_type(), leader, local);
}

/* What the groups of a two-group agreement tell each other. */
struct inter_header {
    uint64_t mask[CORE_AGREE_WORDS];
    int32_t values[4];
};

/* One round of a two-group agreement: local AND of the offers for `attempt`, leaders swap
 * headers, words = AND over both groups. */
static int agree_inter_round(struct core_comm *local, int leader, const struct leader_link *link,
                             const int32_t values[4], int attempt, uint64_t *words,
                             struct inter_header *theirs)
{
    struct inter_header mine;
    memset(&mine, 0, sizeof(mine));
    int rc = agree_intra_round(local, attempt, mine.mask);
    if (rc != MPI_SUCCESS)
        return rc;
    memcpy(mine.values, values, sizeof(mine.values));
    rc = swap_and_bcast(local, leader, link, &mine, theirs, sizeof(mine), sizeof(*theirs));
    if (rc != MPI_SUCCESS)
        return rc;
    for (int w = 0; w < CORE_AGREE_WORDS; w++)
        words[w] = mine.mask[w] & theirs->mask[w];
    return MPI_SUCCESS;
}

/* Agreement across two groups (with caller values): *mask = AND over both groups, `need` pairs
 * if possible (BLOCKING_ATTEMPTS, each as many rounds as the claim takes), *theirs = the other
 * side's header. */
static int agree_inter(struct core_comm *local, int leader, const struct leader_link *link,
                       const int32_t values[4], int need, uint64_t *mask,
                       struct inter_header *theirs)
{
    int rc = MPI_SUCCESS;
    for (int attempt = 0; rc == MPI_SUCCESS && attempt < BLOCKING_ATTEMPTS; attempt++) {
        uint64_t words[CORE_AGREE_WORDS];
        core_context_claim_begin(local->context);
        while ((rc = agree_inter_round(local, leader, link, values, attempt, words, theirs)) ==
                   MPI_SUCCESS &&
               !core_context_claim_agreed(words))
            ;
        core_context_claim_end(local->context);
        memcpy(mask, words, sizeof(uint64_t) * CORE_CONTEXT_WORDS);
        if (rc == MPI_SUCCESS && enough(mask, need))
            break;
    }
    return rc;
}

/* The leaders of an existing intercommunicator: local rank 0 on both sides. */
static struct leader_link inter_link(struct core_comm *inter)
{
    struct leader_link link = {inter, inter->context + CORE_CONTEXT_COLL_OFFSET, 0,
                               TAG_INTER_AGREE};
    return link;
}

/* ---- building communicator objects -------------------------------------------------------- */

/* A copy of comm's local world-rank table (materialising the identity of MPI_COMM_WORLD). */
static int *world_ranks_copy(int size, const int *map)
{
    int *copy = malloc(sizeof(int) * (size_t)(size > 0 ? size : 1));
    if (!copy)
        return NULL;
    for (int i = 0; i < size; i++)
        copy[i] = map ? map[i] : i;
    return copy;
}

/* A new communicator on pair `pair` that takes ownership of world_ranks. */
static struct core_comm *comm_new(const struct core_comm *parent, int pair, int size,
                                  int *world_ranks, int rank)
{
    struct core_comm *comm = core_comm_new_object();
    if (!comm) {
        free(world_ranks);
        return NULL;
    }
    comm->context = 2u * (uint32_t)pair;
    comm->rank = rank;
    comm->size = size;
    comm->world_ranks = world_ranks;
    comm->errhandler = parent->errhandler;
    core_errhandler_retain(comm->errhandler);
    comm->refcount = 1;
    comm->session = parent->session; /* what derives from a session's communicator does too */
    core_context_map_take(my_map(), pair);
    return comm;
}

/* Turn comm (local side built) into an intercommunicator with the given remote group and a
 * local_comm on pair local_pair. Consumes remote (even on failure). */
static int make_inter(struct core_comm *comm, int remote_size, int *remote, int local_pair)
{
    comm->is_inter = 1;
    comm->remote_size = remote_size;
    comm->remote_world_ranks = remote;
    int *local_ranks = world_ranks_copy(comm->size, comm->world_ranks);
    if (!local_ranks)
        return MPI_ERR_NO_MEM;
    comm->local_comm = comm_new(comm, local_pair, comm->size, local_ranks, comm->rank);
    return comm->local_comm ? MPI_SUCCESS : MPI_ERR_NO_MEM;
}

/* Rank of world rank w in a table, or -1. */
static int rank_in(int size, const int *map, int w)
{
    if (!map)
        return w < size ? w : -1;
    for (int i = 0; i < size; i++)
        if (map[i] == w)
            return i;
    return -1;
}

/* ---- dup ---------------------------------------------------------------------------------- */

static int dup_extras(struct core_comm *comm, struct core_info *info, struct core_comm *copy)
{
    int rc = MPI_SUCCESS;
    if (comm->topology)
        rc = topo_dup(comm->topology, (struct topo **)&copy->topology);
    struct core_info *hints = info ? info : comm->info_hints;
    if (rc == MPI_SUCCESS && hints)
        rc = core_info_dup(hints, (struct core_info **)&copy->info_hints);
    if (rc == MPI_SUCCESS)
        rc = core_attr_copy_all(CORE_ATTR_COMM, comm->attributes,
                                (void *)core_comm_to_handle(comm), &copy->attributes);
    return rc;
}

int core_comm_dup_on(struct core_comm *comm, const int *pairs, struct core_comm **out)
{
    int rc = MPI_SUCCESS;
    int *ranks = world_ranks_copy(comm->size, comm->world_ranks);
    struct core_comm *copy = ranks ? comm_new(comm, pairs[0], comm->size, ranks, comm->rank)
                                   : NULL;
    if (!copy)
        return MPI_ERR_NO_MEM;
    if (comm->is_inter) {
        int *remote = world_ranks_copy(comm->remote_size, comm->remote_world_ranks);
        rc = remote ? make_inter(copy, comm->remote_size, remote, pairs[1]) : MPI_ERR_NO_MEM;
    }
    if (rc != MPI_SUCCESS) {
        core_comm_release(copy);
        return rc;
    }
    *out = copy;
    return MPI_SUCCESS;
}

static int dup_bare(struct core_comm *comm, struct core_comm **out)
{
    uint64_t mask[CORE_CONTEXT_WORDS];
    int pairs[2];
    int rc;
    if (comm->is_inter) {
        struct leader_link link = inter_link(comm);
        struct inter_header theirs;
        int32_t values[4] = {0, 0, 0, 0};
        rc = agree_inter(comm->local_comm, 0, &link, values, 2, mask, &theirs);
    } else {
        rc = agree_intra(comm, 1, mask);
    }
    if (rc == MPI_SUCCESS)
        rc = pick_pairs(mask, comm->is_inter ? 2 : 1, pairs);
    if (rc != MPI_SUCCESS)
        return rc;
    return core_comm_dup_on(comm, pairs, out);
}

int core_comm_dup_bare(struct core_comm *comm, struct core_comm **out)
{
    return blocking_end(dup_bare(comm, out));
}

int core_comm_dup(struct core_comm *comm, struct core_info *info, struct core_comm **out)
{
    struct core_comm *copy;
    int rc = core_comm_dup_bare(comm, &copy);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = dup_extras(comm, info, copy);
    if (rc != MPI_SUCCESS) {
        core_comm_release(copy);
        return rc;
    }
    *out = copy;
    return MPI_SUCCESS;
}

/* ---- split -------------------------------------------------------------------------------- */

struct split_entry {
    int color, key, rank, world;
};

static int split_order(const void *a, const void *b)
{
    const struct split_entry *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return x->rank < y->rank ? -1 : x->rank > y->rank;
}

/* From everyone's (color, key) pairs, the world ranks with my color ordered by (key, rank).
 * Returns the count; *mine is my position when me >= 0. */
static int split_members(const int *color_key, int n, const int *world_map, int color, int me,
                         int **world_out, int *mine)
{
    struct split_entry *entries = malloc(sizeof(*entries) * (size_t)(n > 0 ? n : 1));
    int *world = malloc(sizeof(int) * (size_t)(n > 0 ? n : 1));
    if (!entries || !world) {
        free(entries);
        free(world);
        return -1;
    }
    int count = 0;
    for (int i = 0; i < n; i++) {
        if (color_key[2 * i] != color)
            continue;
        entries[count].color = color;
        entries[count].key = color_key[2 * i + 1];
        entries[count].rank = i;
        entries[count].world = world_map ? world_map[i] : i;
        count++;
    }
    qsort(entries, (size_t)count, sizeof(*entries), split_order);
    for (int i = 0; i < count; i++) {
        world[i] = entries[i].world;
        if (entries[i].rank == me)
            *mine = i;
    }
    free(entries);
    *world_out = world;
    return count;
}

static int split_intra(struct core_comm *comm, int color, int key, struct core_comm **out)
{
    int mine[2] = {color, key};
    int *all = malloc(sizeof(int) * 2 * (size_t)comm->size);
    if (!all)
        return MPI_ERR_NO_MEM;
    struct dt_type *int_type = dt_from_handle(MPI_INT);
    uint64_t mask[CORE_CONTEXT_WORDS];
    int pair;
    int rc = coll_allgather(mine, 2, int_type, all, 2, int_type, comm);
    if (rc == MPI_SUCCESS)
        rc = agree_intra(comm, 1, mask);
    if (rc == MPI_SUCCESS)
        rc = pick_pairs(mask, 1, &pair);
    if (rc != MPI_SUCCESS || color == MPI_UNDEFINED) {
        free(all);
        *out = NULL;
        return rc;
    }
    int *world, rank = 0;
    int n = split_members(all, comm->size, comm->world_ranks, color, comm->rank, &world, &rank);
    free(all);
    if (n < 0)
        return MPI_ERR_NO_MEM;
    *out = comm_new(comm, pair, n, world, rank);
    return *out ? MPI_SUCCESS : MPI_ERR_NO_MEM;
}

/* Intercommunicator split: each side splits its local group; same-colored pieces of the two
 * sides form a new intercommunicator (none when either piece is empty). */
static int split_inter(struct core_comm *inter, int color, int key, struct core_comm **out)
{
    struct core_comm *local = inter->local_comm;
    struct leader_link link = inter_link(inter);
    int mine[2] = {color, key};
    int *all = malloc(sizeof(int) * 2 * (size_t)local->size);
    int *remote_all = malloc(sizeof(int) * 2 * (size_t)inter->remote_size);
    uint64_t mask[CORE_CONTEXT_WORDS];
    struct inter_header theirs;
    int32_t values[4] = {0, 0, 0, 0};
    int pairs[2];
    int rc = all && remote_all ? MPI_SUCCESS : MPI_ERR_NO_MEM;
    struct dt_type *int_type = dt_from_handle(MPI_INT);
    if (rc == MPI_SUCCESS)
        rc = coll_allgather(mine, 2, int_type, all, 2, int_type, local);
    if (rc == MPI_SUCCESS)
        rc = swap_and_bcast(local, 0, &link, all, remote_all,
                            sizeof(int) * 2 * (size_t)local->size,
                            sizeof(int) * 2 * (size_t)inter->remote_size);
    if (rc == MPI_SUCCESS)
        rc = agree_inter(local, 0, &link, values, 2, mask, &theirs);
    if (rc == MPI_SUCCESS)
        rc = pick_pairs(mask, 2, pairs);
    *out = NULL;
    if (rc != MPI_SUCCESS || color == MPI_UNDEFINED) {
        free(all);
        free(remote_all);
        return rc;
    }
    int *world = NULL, *remote = NULL, rank = 0, unused = 0;
    int n = split_members(all, local->size, inter->world_ranks, color, local->rank, &world,
                          &rank);
    int rn = split_members(remote_all, inter->remote_size, inter->remote_world_ranks, color, -1,
                           &remote, &unused);
    free(all);
    free(remote_all);
    if (n < 0 || rn < 0) {
        free(world);
        free(remote);
        return MPI_ERR_NO_MEM;
    }
    if (rn == 0) {
        free(world);
        free(remote);
        return MPI_SUCCESS;
    }
    struct core_comm *comm = comm_new(inter, pairs[0], n, world, rank);
    if (!comm) {
        free(remote);
        return MPI_ERR_NO_MEM;
    }
    rc = make_inter(comm, rn, remote, pairs[1]);
    if (rc != MPI_SUCCESS) {
        core_comm_release(comm);
        return rc;
    }
    *out = comm;
    return MPI_SUCCESS;
}

int core_comm_split(struct core_comm *comm, int color, int key, struct core_comm **out)
{
    if (comm->is_inter)
        return blocking_end(split_inter(comm, color, key, out));
    return blocking_end(split_intra(comm, color, key, out));
}

/* The logical index (+1) of the hwloc object of `type` that contains the cores this process
 * is bound to, or MPI_UNDEFINED (unbound, unknown type, type not present). */
static int hw_color(const char *type_name)
{
    hwloc_obj_type_t type;
    /* MPI-5.0 names resources in URI form ("hwloc://NUMANode", as MPI_Get_hw_resource_info
     * reports them); the bare hwloc type name is accepted too. */
    if (strncmp(type_name, "hwloc://", 8) == 0)
        type_name += 8;
    if (hwloc_type_sscanf(type_name, &type, NULL, 0) != 0)
        return MPI_UNDEFINED;
    hwloc_topology_t topology;
    if (hwloc_topology_init(&topology) != 0)
        return MPI_UNDEFINED;
    int color = MPI_UNDEFINED;
    hwloc_bitmap_t set = hwloc_bitmap_alloc();
    if (set && hwloc_topology_load(topology) == 0 &&
        hwloc_get_cpubind(topology, set, HWLOC_CPUBIND_PROCESS) == 0) {
        hwloc_obj_t obj = hwloc_get_obj_covering_cpuset(topology, set);
        while (obj && obj->type != type)
            obj = obj->parent;
        if (obj)
            color = (int)obj->logical_index + 1;
    }
    hwloc_bitmap_free(set);
    hwloc_topology_destroy(topology);
    return color;
}

int core_comm_split_type(struct core_comm *comm, int split_type, int key,
                         struct core_info *info, struct core_comm **out)
{
    int color = MPI_UNDEFINED;
    if (split_type == MPI_COMM_TYPE_SHARED) {
        color = 0; /* one node: every process shares memory with every other */
    } else if ((split_type == MPI_COMM_TYPE_HW_GUIDED ||
                split_type == MPI_COMM_TYPE_RESOURCE_GUIDED) && info) {
        /* MPI-4.1 renamed HW_GUIDED to RESOURCE_GUIDED; both read the same info key. */
        const char *value = core_info_get(info, "mpi_hw_resource_type");
        if (value && strcmp(value, "mpi_shared_memory") == 0)
            color = 0;
        else if (value)
            color = hw_color(value);
    }
    /* HW_UNGUIDED: no finer resource is offered (MPI_COMM_NULL). */
    return core_comm_split(comm, color, key, out);
}

/* MPI_Get_hw_resource_info: one URI-form key per hardware level the caller could split by,
 * "true" when the process is bound inside one object of that level (so a RESOURCE_GUIDED
 * split with that key gives a communicator), "false" otherwise; plus the portable
 * "mpi_shared_memory", always "true" on one node. */
int core_hw_resource_info(struct core_info *info)
{
    static const char *const levels[] = {"Package", "NUMANode", "L3Cache", "L2Cache", "Core"};
    int rc = core_info_set(info, "mpi_shared_memory", "true");
    for (size_t i = 0; rc == MPI_SUCCESS && i < sizeof levels / sizeof levels[0]; i++) {
        char key[32];
        snprintf(key, sizeof key, "hwloc://%s", levels[i]);
        rc = core_info_set(info, key, hw_color(levels[i]) != MPI_UNDEFINED ? "true" : "false");
    }
    return rc;
}

/* ---- create / create_group ---------------------------------------------------------------- */

/* Every member of group must be a member of comm's (local) group. */
static int group_within(const struct core_group *group, const struct core_comm *comm)
{
    for (int i = 0; i < group->size; i++)
        if (rank_in(comm->size, comm->world_ranks, group->world_ranks[i]) < 0)
            return MPI_ERR_GROUP;
    return MPI_SUCCESS;
}

/* Intercommunicator create: the group of each side is swapped by the leaders. */
static int create_inter(struct core_comm *inter, struct core_group *group,
                        struct core_comm **out)
{
    struct core_comm *local = inter->local_comm;
    struct leader_link link = inter_link(inter);
    uint64_t mask[CORE_CONTEXT_WORDS];
    struct inter_header theirs;
    int32_t values[4] = {group->size, 0, 0, 0};
    int pairs[2];
    *out = NULL;
    int rc = agree_inter(local, 0, &link, values, 2, mask, &theirs);
    if (rc == MPI_SUCCESS)
        rc = pick_pairs(mask, 2, pairs);
    if (rc != MPI_SUCCESS)
        return rc;
    int remote_size = theirs.values[0];
    int *remote = malloc(sizeof(int) * (size_t)(remote_size > 0 ? remote_size : 1));
    if (!remote)
        return MPI_ERR_NO_MEM;
    rc = swap_and_bcast(local, 0, &link, group->world_ranks, remote,
                        sizeof(int) * (size_t)group->size, sizeof(int) * (size_t)remote_size);
    if (rc != MPI_SUCCESS || group->rank == MPI_UNDEFINED || remote_size == 0) {
        free(remote);
        return rc;
    }
    int *world = world_ranks_copy(group->size, group->world_ranks);
    struct core_comm *comm = world ? comm_new(inter, pairs[0], group->size, world, group->rank)
                                   : NULL;
    if (!comm) {
        free(remote);
        return MPI_ERR_NO_MEM;
    }
    rc = make_inter(comm, remote_size, remote, pairs[1]);
    if (rc != MPI_SUCCESS) {
        core_comm_release(comm);
        return rc;
    }
    *out = comm;
    return MPI_SUCCESS;
}

static int create(struct core_comm *comm, struct core_group *group, struct core_comm **out)
{
    int rc = group_within(group, comm);
    if (rc != MPI_SUCCESS)
        return rc;
    if (comm->is_inter)
        return create_inter(comm, group, out);
    uint64_t mask[CORE_CONTEXT_WORDS];
    int pair;
    *out = NULL;
    rc = agree_intra(comm, 1, mask);
    if (rc == MPI_SUCCESS)
        rc = pick_pairs(mask, 1, &pair);
    if (rc != MPI_SUCCESS || group->rank == MPI_UNDEFINED)
        return rc;
    int *world = world_ranks_copy(group->size, group->world_ranks);
    *out = world ? comm_new(comm, pair, group->size, world, group->rank) : NULL;
    return *out ? MPI_SUCCESS : MPI_ERR_NO_MEM;
}

int core_comm_create(struct core_comm *comm, struct core_group *group, struct core_comm **out)
{
    return blocking_end(create(comm, group, out));
}

/* One round of an agreement among the group's members only: group rank 0 collects the offers
 * (for `attempt`, with the claim word, context_claim.h) of the others over comm's collective
 * context (tag derived from the user's), ANDs them, sends the result back. Linear, but
 * create_group is rare and groups on one node are small. */
static int agree_group_round(struct core_comm *comm, const struct core_group *group, int tag,
                             int attempt, uint64_t *mask)
{
    struct leader_link link = {comm, comm->context + CORE_CONTEXT_COLL_OFFSET, 0, user_tag(tag)};
    size_t bytes = sizeof(uint64_t) * CORE_AGREE_WORDS;
    struct dt_type *byte = byte_type();
    blocking_contribute(comm->context, attempt, mask);
    if (group->rank != 0) {
        link.peer = rank_in(comm->size, comm->world_ranks, group->world_ranks[0]);
        int rc = p2p_send(comm, link.context, link.peer, link.tag, mask, (MPI_Count)bytes, byte,
                          CORE_SEND_STANDARD);
        if (rc != MPI_SUCCESS)
            return rc;
        return p2p_recv(comm, link.context, link.peer, link.tag, mask, (MPI_Count)bytes, byte,
                        MPI_STATUS_IGNORE);
    }
    uint64_t other[CORE_AGREE_WORDS];
    for (int i = 1; i < group->size; i++) {
        int peer = rank_in(comm->size, comm->world_ranks, group->world_ranks[i]);
        int rc = p2p_recv(comm, link.context, peer, link.tag, other, (MPI_Count)bytes, byte,
                          MPI_STATUS_IGNORE);
        if (rc != MPI_SUCCESS)
            return rc;
        for (int w = 0; w < CORE_AGREE_WORDS; w++)
            mask[w] &= other[w];
    }
    for (int i = 1; i < group->size; i++) {
        int peer = rank_in(comm->size, comm->world_ranks, group->world_ranks[i]);
        int rc = p2p_send(comm, link.context, peer, link.tag, mask, (MPI_Count)bytes, byte,
                          CORE_SEND_STANDARD);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    return MPI_SUCCESS;
}

static int agree_group(struct core_comm *comm, const struct core_group *group, int tag,
                       uint64_t *mask)
{
    int rc = MPI_SUCCESS;
    for (int attempt = 0; rc == MPI_SUCCESS && attempt < BLOCKING_ATTEMPTS; attempt++) {
        uint64_t words[CORE_AGREE_WORDS];
        core_context_claim_begin(comm->context);
        while ((rc = agree_group_round(comm, group, tag, attempt, words)) == MPI_SUCCESS &&
               !core_context_claim_agreed(words))
            ;
        core_context_claim_end(comm->context);
        memcpy(mask, words, sizeof(uint64_t) * CORE_CONTEXT_WORDS);
        if (rc == MPI_SUCCESS && enough(mask, 1))
            break;
    }
    return rc;
}

static int create_group(struct core_comm *comm, struct core_group *group, int tag,
                        struct core_comm **out)
{
    *out = NULL;
    int rc = group_within(group, comm);
    if (rc != MPI_SUCCESS || group->rank == MPI_UNDEFINED)
        return rc;
    uint64_t mask[CORE_CONTEXT_WORDS];
    int pair;
    rc = agree_group(comm, group, tag, mask);
    if (rc == MPI_SUCCESS)
        rc = pick_pairs(mask, 1, &pair);
    if (rc != MPI_SUCCESS)
        return rc;
    int *world = world_ranks_copy(group->size, group->world_ranks);
    *out = world ? comm_new(comm, pair, group->size, world, group->rank) : NULL;
    return *out ? MPI_SUCCESS : MPI_ERR_NO_MEM;
}

int core_comm_create_group(struct core_comm *comm, struct core_group *group, int tag,
                           struct core_comm **out)
{
    return blocking_end(create_group(comm, group, tag, out));
}

/* ---- intercommunicators ------------------------------------------------------------------- */

static int leader_swap_for_dpm(void *link, const void *send, size_t send_bytes, void *recv,
                               size_t recv_bytes)
{
    return leader_swap(link, send, send_bytes, recv, recv_bytes);
}

/* The remote group's pids as peer indices. Groups of different jobs whose members have no
 * channels to each other yet (only their leaders are connected, say through a spawn by one
 * rank) get them first; both groups find the same answer (channels come in pairs). */
static int remote_indices(struct core_comm *local_comm, int local_leader,
                          const struct leader_link *link, int remote_size, int *remote)
{
    int unknown = 0, anywhere = 0;
    for (int i = 0; i < remote_size; i++)
        unknown |= core_dpm_index_of(remote[i]) < 0;
    int rc = coll_allreduce(&unknown, &anywhere, 1, dt_from_handle(MPI_INT),
                            coll_op_from_handle(MPI_MAX), local_comm);
    if (rc == MPI_SUCCESS && anywhere)
        rc = core_dpm_link_groups(local_comm, local_leader, leader_swap_for_dpm, (void *)link);
    return rc == MPI_SUCCESS ? core_dpm_pids_to_indices(remote_size, remote, remote) : rc;
}

static int intercomm_create(struct core_comm *local_comm, int local_leader,
                            struct core_comm *peer_comm, int remote_leader, int tag,
                            struct core_comm **out)
{
    struct leader_link link = {peer_comm, 0, remote_leader, user_tag(tag)};
    if (peer_comm) /* significant at the leader only */
        link.context = peer_comm->context + CORE_CONTEXT_COLL_OFFSET;
    uint64_t mask[CORE_CONTEXT_WORDS];
    struct inter_header theirs;
    int32_t values[4] = {local_comm->size, 0, 0, 0};
    int pairs[2];
    *out = NULL;
    int rc = agree_inter(local_comm, local_leader, &link, values, 2, mask, &theirs);
    if (rc == MPI_SUCCESS)
        rc = pick_pairs(mask, 2, pairs);
    if (rc != MPI_SUCCESS)
        return rc;
    int remote_size = theirs.values[0];
    int *mine = world_ranks_copy(local_comm->size, local_comm->world_ranks);
    int *remote = malloc(sizeof(int) * (size_t)(remote_size > 0 ? remote_size : 1));
    if (!mine || !remote) {
        free(mine);
        free(remote);
        return MPI_ERR_NO_MEM;
    }
    /* The groups swap pids, not world ranks: the other group may be another job, whose
     * world ranks name other processes (core/dpm.h). */
    int *mine_pids = world_ranks_copy(local_comm->size, local_comm->world_ranks);
    rc = mine_pids ? core_dpm_indices_to_pids(local_comm->size, mine, mine_pids) : MPI_ERR_NO_MEM;
    if (rc == MPI_SUCCESS)
        rc = swap_and_bcast(local_comm, local_leader, &link, mine_pids, remote,
                            sizeof(int) * (size_t)local_comm->size,
                            sizeof(int) * (size_t)remote_size);
    free(mine_pids);
    if (rc == MPI_SUCCESS)
        rc = remote_indices(local_comm, local_leader, &link, remote_size, remote);
    if (rc != MPI_SUCCESS) {
        free(mine);
        free(remote);
        return rc;
    }
    struct core_comm *comm = comm_new(local_comm, pairs[0], local_comm->size, mine,
                                      local_comm->rank);
    if (!comm) {
        free(remote);
        return MPI_ERR_NO_MEM;
    }
    rc = make_inter(comm, remote_size, remote, pairs[1]);
    if (rc != MPI_SUCCESS) {
        core_comm_release(comm);
        return rc;
    }
    *out = comm;
    return MPI_SUCCESS;
}

int core_intercomm_create(struct core_comm *local_comm, int local_leader,
                          struct core_comm *peer_comm, int remote_leader, int tag,
                          struct core_comm **out)
{
    return blocking_end(
        intercomm_create(local_comm, local_leader, peer_comm, remote_leader, tag, out));
}

static int intercomm_merge(struct core_comm *inter, int high, struct core_comm **out)
{
    struct core_comm *local = inter->local_comm;
    struct leader_link link = inter_link(inter);
    uint64_t mask[CORE_CONTEXT_WORDS];
    struct inter_header theirs;
    /* The tie-break compares pids: world ranks of two jobs are not comparable (core/dpm.h). */
    int first_world = core_dpm_pid_of(inter->world_ranks ? inter->world_ranks[0] : 0);
    int32_t values[4] = {high ? 1 : 0, first_world, 0, 0};
    int pair;
    int rc = agree_inter(local, 0, &link, values, 1, mask, &theirs);
    if (rc == MPI_SUCCESS)
        rc = pick_pairs(mask, 1, &pair);
    if (rc != MPI_SUCCESS)
        return rc;
    /* high is the leader's (MPI requires one value per group); equal values: the group whose
     * rank 0 has the lower world rank comes first. */
    int my_high = 0;
    if (local->rank == 0)
        my_high = high ? 1 : 0;
    rc = coll_bcast(&my_high, 1, dt_from_handle(MPI_INT), 0, local);
    if (rc != MPI_SUCCESS)
        return rc;
    int other_high = theirs.values[0];
    int local_first = my_high != other_high ? !my_high : first_world < theirs.values[1];
    int n = inter->size + inter->remote_size;
    int *world = malloc(sizeof(int) * (size_t)n);
    if (!world)
        return MPI_ERR_NO_MEM;
    int offset = local_first ? 0 : inter->remote_size;
    int remote_offset = local_first ? inter->size : 0;
    for (int i = 0; i < inter->size; i++)
        world[offset + i] = inter->world_ranks ? inter->world_ranks[i] : i;
    for (int i = 0; i < inter->remote_size; i++)
        world[remote_offset + i] = inter->remote_world_ranks[i];
    *out = comm_new(inter, pair, n, world, offset + inter->rank);
    return *out ? MPI_SUCCESS : MPI_ERR_NO_MEM;
}

int core_intercomm_merge(struct core_comm *inter, int high, struct core_comm **out)
{
    return blocking_end(intercomm_merge(inter, high, out));
}

/* ---- compare, free, hints, hooks ---------------------------------------------------------- */

/* Compare two rank tables as groups: MPI_IDENT (same order), MPI_SIMILAR, MPI_UNEQUAL. */
static int compare_tables(int na, const int *a, int nb, const int *b)
{
    int *ta = world_ranks_copy(na, a), *tb = world_ranks_copy(nb, b);
    struct core_group *ga = ta ? core_group_new(na, ta, -1) : NULL;
    struct core_group *gb = tb ? core_group_new(nb, tb, -1) : NULL;
    int result = ga && gb ? core_group_compare(ga, gb) : MPI_UNEQUAL;
    if (ga)
        core_group_release(ga);
    if (gb)
        core_group_release(gb);
    free(ta);
    free(tb);
    return result;
}

int core_comm_compare(const struct core_comm *a, const struct core_comm *b)
{
    if (a == b)
        return MPI_IDENT;
    if (a->is_inter != b->is_inter)
        return MPI_UNEQUAL;
    int result = compare_tables(a->size, a->world_ranks, b->size, b->world_ranks);
    if (a->is_inter) {
        int remote = compare_tables(a->remote_size, a->remote_world_ranks, b->remote_size,
                                    b->remote_world_ranks);
        if (remote == MPI_UNEQUAL || result == MPI_UNEQUAL)
            return MPI_UNEQUAL;
        if (remote == MPI_SIMILAR)
            result = MPI_SIMILAR;
    }
    return result == MPI_IDENT ? MPI_CONGRUENT : result;
}

int core_comm_free(struct core_comm *comm)
{
    int rc = core_attr_delete_all(CORE_ATTR_COMM, &comm->attributes,
                                  (void *)core_comm_to_handle(comm));
    if (rc != MPI_SUCCESS)
        return rc;
    /* The handle is dead from here even while pending operations keep the object. */
    comm->handle_state = CORE_COMM_HANDLE_FREED;
    core_comm_release(comm);
    return MPI_SUCCESS;
}

int core_comm_set_info(struct core_comm *comm, struct core_info *info)
{
    struct core_info *copy;
    int rc = core_info_dup(info, &copy);
    if (rc != MPI_SUCCESS)
        return rc;
    core_info_free(comm->info_hints);
    comm->info_hints = copy;
    return MPI_SUCCESS;
}

int core_comm_get_info(struct core_comm *comm, struct core_info **out)
{
    if (comm->info_hints)
        return core_info_dup(comm->info_hints, out);
    *out = core_info_new();
    return *out ? MPI_SUCCESS : MPI_ERR_NO_MEM;
}

void core_comm_destroy_hook(struct core_comm *comm)
{
    /* Attributes left by a failed delete callback (or on internal communicators that never
     * went through MPI_Comm_free): one more try, then forget them. */
    if (core_attr_delete_all(CORE_ATTR_COMM, &comm->attributes,
                             (void *)core_comm_to_handle(comm)) != MPI_SUCCESS)
        core_attr_drop_all(&comm->attributes);
    topo_free(comm->topology);
    comm->topology = NULL;
    coll_comm_free(comm); /* collective schedules and tag sequence (src/coll) */
    if (comm->local_comm)
        core_comm_release(comm->local_comm);
    comm->local_comm = NULL;
    core_info_free(comm->info_hints);
    comm->info_hints = NULL;
    if (!comm->predefined)
        core_context_map_put(my_map(), (int)(comm->context / 2));
}

int core_comm_finalize_hook(void)
{
    int rc = MPI_SUCCESS;
    if (nodempi.comm_self)
        rc = core_attr_delete_all(CORE_ATTR_COMM, &nodempi.comm_self->attributes,
                                  (void *)MPI_COMM_SELF);
    if (rc == MPI_SUCCESS && nodempi.comm_world)
        rc = core_attr_delete_all(CORE_ATTR_COMM, &nodempi.comm_world->attributes,
                                  (void *)MPI_COMM_WORLD);
    return rc;
}
