/* state.h - the one global object of a nodempi process (ARCHITECTURE.md: "no global state outside
 * one struct nodempi_state"). Written by init/finalize; read everywhere. */
#ifndef NODEMPI_CORE_STATE_H
#define NODEMPI_CORE_STATE_H

#include <sys/types.h>

#include <mpi.h>

struct shm_header;
struct core_comm;
struct p2p_state;

struct nodempi_state {
    int initialized;             /* the runtime is up: the world model or a session holds it */
    int finalized;               /* the runtime was torn down and has not been started again */
    int world_initialized;       /* MPI_Init done (MPI_Initialized) */
    int world_finalized;         /* MPI_Finalize done (MPI_Finalized) */
    int world_finalizing;        /* MPI_Finalize called (it may still be running callbacks) */
    int runtime_users;           /* the world model until MPI_Finalize, plus each open session */
    int thread_level;            /* what MPI_Query_thread reports (the world model's level) */
    int thread_multiple;         /* MPI_THREAD_MULTIPLE granted: the big lock is on (thread.h) */
    int api_track;               /* entry points take the big lock and count their nesting:
                                  * thread_multiple, or an MPI_T event registration was made
                                  * (events are delivered at a thread's outermost call's end) */
    int world_rank;
    int world_size;
    int oversubscribed;          /* more ranks than cores: waiters must sleep, not spin (ranks
                                  * of other jobs we have channels to count: p2p/foreign.c) */
    int foreign_peers;           /* processes of other jobs with a channel (p2p/foreign.c) */
    int job_oversubscribed;      /* this job's ranks outnumber its cores: fixed at MPI_Init and
                                  * equal on every rank (NODEMPI_NCORES comes from mpiexec),
                                  * so collectives may choose by it (coll_comm_oversubscribed) */
    int cores;                   /* CPUs the job may use (NODEMPI_NCORES or our affinity) */
    pid_t pid;
    struct shm_header *segment;  /* NULL for a singleton */
    struct core_comm *comm_world;
    struct core_comm *comm_self;
    struct p2p_state *p2p;       /* owned by src/p2p */
    void *bsend_buffer;          /* MPI_Buffer_attach */
    size_t bsend_size;
    char processor_name[MPI_MAX_PROCESSOR_NAME];
    unsigned long long futex_sleeps; /* waits that slept on the futex (an MPI_T counter) */
    unsigned long long poll_yields;  /* core_progress_poll's yields (an MPI_T counter) */
    int tool_users;              /* MPI_T_init_thread calls not yet finalized (src/mpi/mpit.c) */
};

extern struct nodempi_state nodempi;

#endif
