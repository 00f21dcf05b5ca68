/* shm_barrier.c - MPI_Barrier of an oversubscribed job as one shared counter.
 *
 * With more ranks than cores the cost of a barrier is the context switches it forces, not
 * the messages: a sched_yield that hands the core to another rank costs ~1.3 us on this VM
 * (0.4 us when nobody else is runnable). Message barriers need a rank to be scheduled at
 * every hop: the dissemination barrier log2 p rounds of them, the tree barrier's release waits
 * for rank 0 to be scheduled after the last arrival. Here every rank adds itself to a counter
 * in the job segment and then waits, yielding its core, for the generation to move; the
 * waiting ranks of a core get its time in turn, and each leaves as soon as it runs after the
 * release, whoever else is running. Who releases: the last to arrive, at once and without a
 * switch, or one chosen rank, once the last arrival has told it so; that rank leaves first,
 * so the broadcast or scatter it roots next has sent its data before the others look for it
 * (the tree barrier of session 13 did this for rank 0 with messages). By default the choice
 * follows the communicator's habit: the root of the rooted collective that followed the
 * previous barrier, else the last arrival (coll_shm_barrier_choose_releaser). OSU at 4 and 8
 * ranks on 2 cores: docs/benchmarks.md, "Session 14".
 *
 * The counter is a slot of the segment's table (shm/segment.h) that the communicator claims at
 * its first call here or through the slot's cells (shm_allreduce.c, shm_allgather.c): rank 0
 * takes a free slot with a CAS and broadcasts its index after a message barrier, so all ranks
 * agree (a full table means the selection table's schedules for that communicator, forever). Rank 0 frees the slot when it frees the communicator: every other
 * rank has arrived at the last barrier by then and only waits to see a generation that has
 * already moved, which no later owner moves back.
 *
 * Only blocking MPI_Barrier on an intracommunicator of three or more ranks of this job takes
 * this path; nonblocking and persistent barriers stay schedules (a request cannot own a slot's
 * arrival order across other collectives). */
#include "coll/algorithms.h"
#include "core/comm.h"
#include "core/config.h"
#include "core/request.h"
#include "core/state.h"
#include "shm/segment.h"
#include "shm/wake.h"

/* What comm's state records about its slot (struct coll_comm_state.barrier_slot). */
enum { SLOT_UNDECIDED = 0, SLOT_NONE = -1 /* else slot index + 1 */ };

/* NODEMPI_COLL_SHM_BARRIER (core/config.c): who releases the others (auto: by habit, root:
 * rank 0, last: the last arrival). */
enum shm_barrier_choice { CHOICE_AUTO, CHOICE_ROOT, CHOICE_LAST, CHOICE_OFF };

int coll_shm_barrier_applies(const struct coll_args *a)
{
    struct core_comm *comm = a->comm;
    if (a->kind != COLL_BARRIER || comm->is_inter || comm->size < 3 || !nodempi.segment)
        return 0;
    int choice = core_config.coll_shm_barrier;
    if (choice == CHOICE_OFF)
        return 0;
    if (choice == CHOICE_AUTO && core_config.coll_algorithm[COLL_BARRIER] != 0)
        return 0; /* auto yields to a forced NODEMPI_COLL_BARRIER */
    /* (both answers are the same on every member: sched.h) */
    if (choice == CHOICE_AUTO ? !coll_comm_oversubscribed(comm) : !coll_comm_job_local(comm))
        return 0;
    return coll_comm_state_of(comm) != NULL;
}

static uint32_t owner_word(const struct core_comm *comm)
{
    return comm->context + 1; /* context ids are even: never 0 */
}

/* Rank 0: a free slot, probing from one the context picks; SLOT_NONE when all are taken. */
static int claim_slot(const struct core_comm *comm)
{
    uint32_t start = (comm->context >> 1) * 2654435761u;
    for (int i = 0; i < SHM_BARRIER_SLOTS; i++) {
        int index = (int)((start + (uint32_t)i) % SHM_BARRIER_SLOTS);
        struct shm_barrier_slot *slot = &nodempi.segment->barrier_slots[index];
        uint32_t free_owner = 0;
        /* acquire: the previous owner's counters, left at rest by its last barrier, are
         * visible (its release in coll_shm_barrier_release); relaxed on failure: skipped */
        if (atomic_compare_exchange_strong_explicit(&slot->owner, &free_owner, owner_word(comm),
                                                    memory_order_acquire, memory_order_relaxed))
            return index + 1;
    }
    return SLOT_NONE;
}

static int run_message_barrier(struct core_comm *comm, coll_build_fn *build)
{
    struct coll_sched *s = coll_sched_get(comm, COLL_BARRIER, COLL_FORM_BLOCKING);
    if (!s)
        return MPI_ERR_NO_MEM;
    struct coll_args a = {.kind = COLL_BARRIER, .comm = comm};
    int rc = build(s, &a);
    if (rc == MPI_SUCCESS)
        rc = s->build_error;
    if (rc == MPI_SUCCESS)
        rc = coll_sched_run(s);
    coll_sched_put(s);
    return rc;
}

/* The first barrier: a message barrier (what this call must be in any case), then rank 0's
 * choice to everyone. */
static int decide_slot(struct core_comm *comm, struct coll_comm_state *state)
{
    int decided = comm->rank == 0 ? claim_slot(comm) : SLOT_UNDECIDED;
    int rc = run_message_barrier(comm, coll_barrier_tree);
    if (rc == MPI_SUCCESS)
        rc = coll_bcast(&decided, 1, dt_from_handle(MPI_INT), 0, comm);
    if (rc == MPI_SUCCESS) {
        state->barrier_slot = decided;
        state->barrier_releaser = 0;
        state->barrier_watch = 1;
    }
    return rc;
}

/* Who releases the next barrier (auto): the root of the collective that followed the last
 * one, so that it leaves first and its sends are under way when the others look for them (the
 * "barrier, then a broadcast or scatter from r" of a benchmark loop or a program's phases);
 * the last to arrive when an unrooted collective or a barrier followed (a barrier loop: no
 * rank need wait for one that is not running). Every rank sees the same calls on comm in the
 * same order with the same roots (MPI-4.1 6.14), so every rank chooses alike. */
void coll_shm_barrier_choose_releaser(struct coll_comm_state *state, const struct coll_args *a)
{
    state->barrier_watch = 0;
    switch (a->kind) {
    case COLL_BCAST:
    case COLL_REDUCE:
    case COLL_GATHER:
    case COLL_GATHERV:
    case COLL_SCATTER:
    case COLL_SCATTERV:
        state->barrier_releaser = a->comm->is_inter ? -1 : a->root;
        return;
    default:
        state->barrier_releaser = -1;
        return;
    }
}

struct word_wait {
    _Atomic uint32_t *word;
    uint32_t old; /* wait while the word holds this */
};

static int word_moved(void *arg)
{
    struct word_wait *wait = arg;
    /* acquire: pairs with the release store that moved the word, which follows every arrival
     * (each fetch_add is acq_rel): what any rank wrote before the barrier is visible after */
    return atomic_load_explicit(wait->word, memory_order_acquire) != wait->old;
}

/* Progress for the other layers meanwhile (a rank may be waiting for our rendezvous before it
 * can arrive); who moves the word fences and wakes sleepers after (wake below). */
void coll_shm_slot_wait(_Atomic uint32_t *word, uint32_t old)
{
    struct word_wait wait = {word, old};
    core_wait_until(word_moved, &wait);
}

/* Wake comm's rank r (all ranks but this one when r < 0) if it sleeps. */
static void wake(const struct core_comm *comm, int r)
{
    /* seq_cst: "store word; load sleeping" against a sleeper's "store sleeping; load word"
     * (shm/wake.h): one of the two sides sees the other's store */
    atomic_thread_fence(memory_order_seq_cst);
    /* A rank counts itself in the segment's sleepers before its own fence (core/progress.c
     * sleep_on_futex), so none counted after ours means none will sleep through this move:
     * one load instead of a line per member (relaxed: ordered by the fences) */
    if (!atomic_load_explicit(&nodempi.segment->sleepers, memory_order_relaxed))
        return;
    for (int i = r < 0 ? 0 : r; i < (r < 0 ? comm->size : r + 1); i++)
        if (i != comm->rank)
            shm_wake_peer_after_fence(
                shm_rank_block(nodempi.segment, core_comm_peer_world_rank(comm, i)));
}

void coll_shm_slot_release(const struct core_comm *comm, struct shm_barrier_slot *slot,
                           uint32_t seen)
{
    atomic_store_explicit(&slot->generation, seen + 1, memory_order_release);
    wake(comm, -1);
}

int coll_shm_slot_of(struct core_comm *comm, int *index)
{
    struct coll_comm_state *state = coll_comm_state_of(comm);
    if (!state)
        return MPI_ERR_NO_MEM;
    if (state->barrier_slot == SLOT_UNDECIDED) {
        int rc = decide_slot(comm, state);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    *index = state->barrier_slot > 0 ? state->barrier_slot - 1 : -1;
    return MPI_SUCCESS;
}

int coll_shm_barrier_run(const struct coll_args *a)
{
    struct core_comm *comm = a->comm;
    struct coll_comm_state *state = coll_comm_state_of(comm);
    if (state->barrier_slot == SLOT_UNDECIDED)
        return decide_slot(comm, state);
    if (state->barrier_slot == SLOT_NONE)
        return run_message_barrier(comm, coll_build); /* what the selection table says */
    struct coll_shm_call call = {0};
    int rc = coll_shm_call_open(comm, &call);
    if (rc != MPI_SUCCESS)
        return rc;
    struct shm_barrier_slot *slot = call.slot;
    uint32_t seen = call.seen;
    int last = coll_shm_call_arrive(comm, &call);
    int choice = core_config.coll_shm_barrier;
    int releaser = choice == CHOICE_ROOT ? 0
                   : choice == CHOICE_LAST ? -1 : state->barrier_releaser;
    state->barrier_watch = 1;
    if (releaser < 0) {
        if (last)
            coll_shm_slot_release(comm, slot, seen);
        else
            coll_shm_slot_wait(&slot->generation, seen);
        return MPI_SUCCESS;
    }
    /* One rank releases: all_arrived names the barrier everyone reached (seen + 1), equal, not
     * merely different, so that a value left from barriers another rank released, or the last
     * arrival did, can never pass for this one. */
    if (comm->rank == releaser) {
        if (!last) {
            uint32_t got;
            while ((got = atomic_load_explicit(&slot->all_arrived, memory_order_acquire)) !=
                   seen + 1)
                coll_shm_slot_wait(&slot->all_arrived, got);
        }
        coll_shm_slot_release(comm, slot, seen);
        return MPI_SUCCESS;
    }
    if (last) {
        /* release: the releaser's acquire load gathers every arrival's writes through this */
        atomic_store_explicit(&slot->all_arrived, seen + 1, memory_order_release);
        wake(comm, releaser);
    }
    coll_shm_slot_wait(&slot->generation, seen);
    return MPI_SUCCESS;
}

void coll_shm_barrier_release(struct core_comm *comm, struct coll_comm_state *state)
{
    if (state->barrier_slot <= 0 || comm->rank != 0 || !nodempi.segment)
        return;
    struct shm_barrier_slot *slot = &nodempi.segment->barrier_slots[state->barrier_slot - 1];
    /* release: the next owner's acquire CAS sees this communicator's counters at rest */
    atomic_store_explicit(&slot->owner, 0, memory_order_release);
    state->barrier_slot = SLOT_UNDECIDED;
}
