/* p2p.h - the messaging layer's contract: start sends and receives, probe, cancel, progress.
 * Arguments are already checked by the caller (src/mpi); ranks are ranks in comm (the remote
 * group for intercommunicators), context is comm->context or the collective context. */
#ifndef NODEMPI_P2P_H
#define NODEMPI_P2P_H

#include <stddef.h>
#include <stdint.h>

#include <mpi.h>

#include "core/request.h"

struct core_comm;
struct dt_type;

int p2p_init(void);
void p2p_finalize(void);

/* foreign.c: a peer outside this job (MPI_Comm_spawn, _accept/_connect, _join): records travel
 * the pair rings (conn_me -> conn_peer and back) of a connection segment both map; wake_block
 * is the peer's rank block (its futex word) in its own job's segment. *index is the peer's
 * index from now on, what communicators' world-rank tables hold for it (>= the job's size). */
struct shm_header;
struct shm_rank_block;
int p2p_foreign_add(struct shm_header *conn, int conn_me, int conn_peer,
                    struct shm_rank_block *wake_block, int *index);

/* Start a send/receive; *out receives a request the caller waits on (core_request_wait). */
int p2p_isend(struct core_comm *comm, uint32_t context, int dest, int tag, const void *buf,
              MPI_Count count, struct dt_type *type, enum core_send_mode mode,
              struct core_request **out);
int p2p_irecv(struct core_comm *comm, uint32_t context, int source, int tag, void *buf,
              MPI_Count count, struct dt_type *type, struct core_request **out);

/* Blocking forms: same semantics, no request object on the eager fast path. */
int p2p_send(struct core_comm *comm, uint32_t context, int dest, int tag, const void *buf,
             MPI_Count count, struct dt_type *type, enum core_send_mode mode);
int p2p_recv(struct core_comm *comm, uint32_t context, int source, int tag, void *buf,
             MPI_Count count, struct dt_type *type, MPI_Status *status);

/* core_request_wait_complete's first try on a receive request (recv.c): 1 when it completed
 * the request from its peer's queue in place, 0 when the general wait must run. The test form
 * (core_request_poll, behind MPI_Test) looks once instead of watching: 0 when its progress round must run. */
int p2p_wait_recv_in_place(struct core_request *request);
int p2p_test_recv_in_place(struct core_request *request);

/* The blocking send's fast path alone: 1 when a standard-mode message went eagerly into the
 * peer's queue (it is then complete), 0 when it needs a request (rendezvous, full queue, sends
 * queued ahead, oneself or MPI_PROC_NULL as dest). Lets MPI_Sendrecv skip its send request. */
int p2p_send_eager_now(struct core_comm *comm, uint32_t context, int dest, int tag,
                       const void *buf, MPI_Count count, struct dt_type *type);

/* Persistent requests: (re)start a request made by core_request_alloc with its p2p fields set. */
int p2p_start(struct core_request *request);

/* Probe the unexpected messages (after a progress round). With message != NULL the matched
 * message is removed from matching (MPI_Mprobe) and returned as an opaque pointer. */
int p2p_iprobe(struct core_comm *comm, uint32_t context, int source, int tag, int *flag,
               MPI_Status *status, void **message);
/* Receive a message taken by p2p_iprobe(..., &message). */
int p2p_imrecv(void *message, void *buf, MPI_Count count, struct dt_type *type,
               struct core_comm *comm, struct core_request **out);

/* Cancel a receive that has not matched, or a send (cancel.c: withdrawn from the outgoing queue
 * at once, else asked of the receiver); request->cancelled tells, once the request completes. */
int p2p_cancel(struct core_request *request);

/* Blocking collectives (coll/copy_choice.c): how this rank copies the rendezvous messages it
 * receives until the hint is cleared: _PIPELINE, _STATIC (the pair's fixed threshold), or
 * _NONE (learnt per pair, p2p/adapt.c). */
enum p2p_copy_hint { P2P_COPY_HINT_NONE, P2P_COPY_HINT_STATIC, P2P_COPY_HINT_PIPELINE };
void p2p_set_copy_hint(enum p2p_copy_hint hint);
/* Do receivers choose the copy of rendezvous messages (NODEMPI_COPY_ADAPT, CMA usable)? */
int p2p_copy_choice_applies(void);

/* One progress round: drain incoming rings, advance protocols. Nonzero when work was done. */
int p2p_progress(void);

/* Push everything still queued for other ranks (staged eager data, control records) before
 * MPI_Finalize; progresses until the outgoing queues are empty and every send cancel has been
 * answered. */
void p2p_flush(void);

/* Counters for the tool interface (MPI_T performance variables, src/mpi/mpit.c): messages this
 * process started sending, by how they travel, and their bytes. Plain per-process increments on
 * the send paths; they never go back to zero while the process lives. */
enum p2p_sent_kind {
    P2P_SENT_EAGER,        /* one record in the pair's ring (or the orq/hybrid inbox) */
    P2P_SENT_FASTBOX,      /* one record in the pair's fastbox cells */
    P2P_SENT_EAGER_LONG,   /* eager, in several records (above one record's payload) */
    P2P_SENT_RNDV_CMA,     /* rendezvous, the receiver copies once with process_vm_readv */
    P2P_SENT_RNDV_PIPELINE, /* rendezvous, fragments through the ring */
    P2P_SENT_SELF,         /* to oneself (no queue) */
    P2P_SENT_FASTBOX_PACKED, /* of P2P_SENT_FASTBOX: packed, a quarter or half of a cell */
    P2P_SENT_KINDS
};
uint64_t p2p_sent_messages(enum p2p_sent_kind kind);
uint64_t p2p_sent_bytes(void);
/* Lengths of the matching queues: one communicator's, given its context id (its point-to-point
 * and collective contexts), or the whole process's when context < 0. Walks the lists: for
 * tools, not hot. */
size_t p2p_unexpected_length(long context);
size_t p2p_posted_length(long context);
/* Re-read the run-time tunables (core_config entries marked RUNTIME_LOCAL) after a tool changed
 * one: eager limit, single-copy threshold, receive in place, skew watch. No-op before p2p_init. */
void p2p_config_changed(void);

/* Buffered-send support (MPI_Buffer_attach/detach). */
int p2p_bsend_attach(void *buffer, size_t size);
int p2p_bsend_detach(void **buffer, size_t *size);
/* MPI_Buffer_flush: wait until every buffered message has left the buffer. */
void p2p_bsend_flush(void);
/* MPI_Buffer_iflush: nonzero once no buffered message is pending (never blocks). */
int p2p_bsend_flushed(void);
/* The same for a communicator's own buffer (MPI-4.1 MPI_Comm_attach_buffer & co.), which
 * buffered sends on it use instead of the process's. Attaching a second one is MPI_ERR_BUFFER;
 * detaching none gives NULL / 0; MPI_Comm_free and MPI_Finalize detach it implicitly. */
int p2p_bsend_comm_attach(struct core_comm *comm, void *buffer, size_t size);
int p2p_bsend_comm_detach(struct core_comm *comm, void **buffer, size_t *size);
void p2p_bsend_comm_flush(struct core_comm *comm);
int p2p_bsend_comm_flushed(struct core_comm *comm);
/* The same for a session's buffer (MPI_Session_attach_buffer & co.), which buffered sends on
 * communicators derived from the session (comm->session) use when they have none of their own. */
int p2p_bsend_session_attach(uint64_t session, void *buffer, size_t size);
void p2p_bsend_session_detach(uint64_t session, void **buffer, size_t *size);
void p2p_bsend_session_flush(uint64_t session);
int p2p_bsend_session_flushed(uint64_t session);
/* Copy the message into comm's buffer (else the process's) and start sending it;
 * MPI_ERR_BUFFER when it does not fit. user: the caller's request (Ibsend, Bsend_init) or NULL;
 * it is complete on return, and set up so that p2p_cancel can withdraw the message. */
int p2p_bsend(struct core_comm *comm, uint32_t context, int dest, int tag, const void *buf,
              MPI_Count count, struct dt_type *type, struct core_request *user);

#endif
