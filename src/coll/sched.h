/* sched.h - the collective schedule engine. An algorithm is written once, as a builder that
 * appends steps (send, receive, reduce, copy) grouped into rounds; the same schedule then runs
 * blocking (driven to completion here), nonblocking (a generic request polled by the progress
 * engine) or persistent (built at *_init, rerun by every MPI_Start).
 *
 * Execution: at the start of a round every step of it is issued in order (sends and receives
 * are posted, local reductions and copies run at once); the round ends when all its sends and
 * receives have completed. So a local step sees the data received in earlier rounds only. */
#ifndef NODEMPI_COLL_SCHED_H
#define NODEMPI_COLL_SCHED_H

#include <stddef.h>
#include <stdint.h>

#include <mpi.h>

#include "coll/coll.h"

struct core_comm;
struct core_request;
struct dt_type;
struct coll_op;

enum coll_step_kind {
    COLL_STEP_SEND,
    COLL_STEP_RECV,
    COLL_STEP_REDUCE,    /* dst = src (op) dst, count elements of type */
    COLL_STEP_COPY,      /* (src, count, type) -> (dst, dst_count, dst_type), same signature */
    COLL_STEP_ROUND_END,
};

struct coll_step {
    enum coll_step_kind kind;
    int peer;
    int tag;
    struct core_comm *comm;
    const void *src;
    void *dst;
    MPI_Count count;
    struct dt_type *type;
    MPI_Count dst_count;
    struct dt_type *dst_type;
    struct coll_op *op;
    struct core_request *request;
};

/* Temporary memory of a schedule: chunks kept across reuse of the schedule object. */
struct coll_chunk {
    struct coll_chunk *next;
    size_t size;
    size_t used;
    max_align_t data[];
};

struct coll_sched {
    struct coll_step *steps;
    int nsteps;
    int capacity;
    int current;             /* first step of the running round */
    int posted;              /* the running round has been issued */
    int error;               /* first error class seen */
    int tag;                 /* tag given to sends/receives added from now on */
    int tag_space;           /* the tag sequence this schedule draws from (coll_tag_space) */
    int retain;              /* hold references to types and ops (nonblocking, persistent) */
    int build_error;         /* out of memory while building */
    struct coll_chunk *chunks;
    struct core_comm *comm;  /* the communicator whose pool owns this schedule */
    struct coll_sched *next_free;
};

/* Tags. Every (collective kind, form) pair has its own tag sequence per communicator: the
 * space number sits above COLL_TAG_SEQUENCE_BITS bits of sequence. Concurrent nonblocking
 * collectives of one kind get distinct sequence numbers, and collectives of different kinds or
 * forms never match each other even when ranks issue them in different orders (erroneous, but
 * mpi4py's Comm_iagree does it and Open MPI, whose collectives have a tag per kind, tolerates
 * it). 2^23 numbers per space (66 spaces now, 128 at most) keep tags below 2^30, clear of the
 * negative tags of src/core/comm_create.c. */
enum coll_form { COLL_FORM_BLOCKING, COLL_FORM_NONBLOCKING, COLL_FORM_PERSISTENT };
#define COLL_FORM_COUNT 3
#define COLL_TAG_SPACES (COLL_KIND_COUNT * COLL_FORM_COUNT)
#define COLL_TAG_SEQUENCE_BITS 23
#define COLL_TAG_SEQUENCE_MASK ((1 << COLL_TAG_SEQUENCE_BITS) - 1)
_Static_assert(COLL_TAG_SPACES <= 1 << (30 - COLL_TAG_SEQUENCE_BITS),
               "collective tags must stay below 2^30");

static inline int coll_tag_space(enum coll_kind kind, enum coll_form form)
{
    return (int)form * COLL_KIND_COUNT + (int)kind;
}

/* tag + n within tag's space (a builder that reserved n further tags of its sequence) */
static inline int coll_tag_add(int tag, int n)
{
    return (tag & ~COLL_TAG_SEQUENCE_MASK) | ((tag + n) & COLL_TAG_SEQUENCE_MASK);
}

/* Per-communicator state (comm->coll_private): the tag sequences and a pool of schedules. */
struct coll_comm_state {
    uint32_t sequence[COLL_TAG_SPACES];
    struct coll_sched *free_scheds;
    int barrier_slot; /* shm_barrier.c: 0 undecided, -1 none, else slot index + 1 */
    int barrier_releaser; /* shm_barrier.c: the rank that releases the next barrier, -1 the
                           * last to arrive; set from the call that followed the last one */
    int barrier_watch;    /* a shm barrier ran and no other collective on comm since */
    int job_local;    /* every member is a rank of this job: 1, some is not: -1, unknown: 0 */
};

/* comm's state, made at first use (NULL when out of memory). */
struct coll_comm_state *coll_comm_state_of(struct core_comm *comm);

/* Are all of comm's ranks (both groups of an intercommunicator) ranks of this job? */
int coll_comm_job_local(struct core_comm *comm);

/* Should comm's collectives choose as for an oversubscribed job? Yes when this job's ranks
 * outnumber its cores and every member is of this job: the same answer on every member. (The
 * waiting policy's nodempi.oversubscribed also counts the processes of other jobs a rank has
 * channels to, which differs between ranks: a rank that spawned through MPI_COMM_SELF would
 * pick other algorithms than its peers, and the collective would not match.) */
int coll_comm_oversubscribed(struct core_comm *comm);

/* Take a cleared schedule from comm's pool (NULL when out of memory) for a collective of this
 * kind and form; its tag is the next of that tag space. Nonblocking and persistent schedules
 * hold references to their types and ops. */
struct coll_sched *coll_sched_get(struct core_comm *comm, enum coll_kind kind,
                                  enum coll_form form);
/* Return a schedule to its communicator's pool (releasing what it retained). */
void coll_sched_put(struct coll_sched *s);
/* The next tag of one of comm's sequences (intercommunicator code draws from the local comm's
 * sequence of the same space). */
int coll_next_tag(struct core_comm *comm, int space);
/* Free the pool and state of a communicator that is being freed. */
void coll_comm_state_free(struct core_comm *comm);

/* Builders. Buffers are typed (count elements of type at buf); steps keep the pointers. */
void coll_sched_send(struct coll_sched *s, struct core_comm *comm, int peer, const void *buf,
                     MPI_Count count, struct dt_type *type);
void coll_sched_recv(struct coll_sched *s, struct core_comm *comm, int peer, void *buf,
                     MPI_Count count, struct dt_type *type);
void coll_sched_reduce(struct coll_sched *s, const void *in, void *inout, MPI_Count count,
                       struct dt_type *type, struct coll_op *op);
void coll_sched_copy(struct coll_sched *s, const void *src, MPI_Count count,
                     struct dt_type *type, void *dst, MPI_Count dst_count,
                     struct dt_type *dst_type);
/* End the round (no-op when the round is empty). */
void coll_sched_round(struct coll_sched *s);

/* Temporary buffers living as long as the schedule. coll_sched_temp_typed returns a pointer
 * suitable as the typed buffer of count elements (true_lb already subtracted). */
void *coll_sched_temp(struct coll_sched *s, size_t bytes);
void *coll_sched_temp_typed(struct coll_sched *s, MPI_Count count, const struct dt_type *type);

/* Run: coll_sched_run drives the schedule to completion (blocking collectives);
 * coll_sched_start rewinds it and coll_sched_poll advances it without blocking (1 = done). */
int coll_sched_run(struct coll_sched *s);
void coll_sched_start(struct coll_sched *s);
int coll_sched_poll(struct coll_sched *s, int *done);

/* Typed copy between buffers (also used outside schedules). */
int coll_copy(const void *src, MPI_Count count, struct dt_type *type, void *dst,
              MPI_Count dst_count, struct dt_type *dst_type);

/* The predefined MPI_BYTE object, for moving packed bytes. */
struct dt_type *coll_byte_type(void);

#endif
