/* coll.h - collective operations on internal objects, for the API layer (src/mpi/coll.c) and for
 * other layers that need them (communicator creation agrees on context ids with an allreduce).
 * Each collective picks its algorithm from one selection table (src/coll/select.c). */
#ifndef NODEMPI_COLL_H
#define NODEMPI_COLL_H

#include <mpi.h>

struct core_comm;
struct core_request;
struct dt_type;
struct coll_op;

int coll_barrier(struct core_comm *comm);
int coll_bcast(void *buf, MPI_Count count, struct dt_type *type, int root,
               struct core_comm *comm);
int coll_reduce(const void *sendbuf, void *recvbuf, MPI_Count count, struct dt_type *type,
                struct coll_op *op, int root, struct core_comm *comm);
int coll_allreduce(const void *sendbuf, void *recvbuf, MPI_Count count, struct dt_type *type,
                   struct coll_op *op, struct core_comm *comm);
int coll_allgather(const void *sendbuf, MPI_Count sendcount, struct dt_type *sendtype,
                   void *recvbuf, MPI_Count recvcount, struct dt_type *recvtype,
                   struct core_comm *comm);

/* Every collective, described by one argument record. */
enum coll_kind {
    COLL_BARRIER,
    COLL_BCAST,
    COLL_REDUCE,
    COLL_ALLREDUCE,
    COLL_GATHER,
    COLL_GATHERV,
    COLL_SCATTER,
    COLL_SCATTERV,
    COLL_ALLGATHER,
    COLL_ALLGATHERV,
    COLL_ALLTOALL,
    COLL_ALLTOALLV,
    COLL_ALLTOALLW,
    COLL_REDUCE_SCATTER,
    COLL_REDUCE_SCATTER_BLOCK,
    COLL_SCAN,
    COLL_EXSCAN,
    COLL_NEIGHBOR_ALLGATHER,
    COLL_NEIGHBOR_ALLGATHERV,
    COLL_NEIGHBOR_ALLTOALL,
    COLL_NEIGHBOR_ALLTOALLV,
    COLL_NEIGHBOR_ALLTOALLW,
    COLL_KIND_COUNT
};

/* Arguments as the standard names them; fields a collective does not use stay zero.
 * Reductions and broadcast use count/type (the broadcast buffer is recvbuf). Counts and
 * displacements are already widened to MPI_Count / MPI_Aint (v: displacements in elements of
 * the type's extent; w: in bytes). The arrays are read while the schedule is built only, so
 * the caller may free them as soon as the coll_* call returns. */
struct coll_args {
    enum coll_kind kind;
    struct core_comm *comm;
    const void *sendbuf;
    MPI_Count sendcount;
    const MPI_Count *sendcounts;
    const MPI_Aint *sdispls;
    struct dt_type *sendtype;
    struct dt_type *const *sendtypes;
    void *recvbuf;
    MPI_Count recvcount;
    const MPI_Count *recvcounts;
    const MPI_Aint *rdispls;
    struct dt_type *recvtype;
    struct dt_type *const *recvtypes;
    MPI_Count count;
    struct dt_type *type;
    struct coll_op *op;
    int root;
};

/* Blocking: run to completion. Nonblocking: *out is a generic request already progressing.
 * Persistent: *out is an inactive persistent generic request whose `start` callback reruns
 * the schedule (MPI_Start -> core_request_start_generic). All return an MPI error class. */
int coll_run(const struct coll_args *args);
/* Collective operations this process started: blocking calls, nonblocking starts and each
 * start of a persistent one (an MPI_T counter). */
unsigned long long coll_operations(void);
int coll_start(const struct coll_args *args, struct core_request **out);
int coll_init(const struct coll_args *args, struct core_request **out);

/* A communicator is being freed: release the collective state hung on comm->coll_private. */
void coll_comm_free(struct core_comm *comm);

#endif
