/* coll_api.h - the shared implementations of the collective API (src/mpi/coll.c), one per
 * family, called by both the int entry points (coll.c) and the MPI-4 large-count _c entry
 * points (coll_large.c) with the function name to report. Each checks every argument, then
 * runs the collective in the given mode; it must not be called from other layers. */
#ifndef NODEMPI_MPI_COLL_API_H
#define NODEMPI_MPI_COLL_API_H

#include <mpi.h>

#include "coll/coll.h"

enum mpi_coll_mode { MPI_COLL_BLOCKING, MPI_COLL_NONBLOCKING, MPI_COLL_PERSISTENT };

/* A count or displacement array as the caller passed it: int (classic API, widened into a
 * temporary copy for the call) or MPI_Count / MPI_Aint (used as is). At most one member set. */
struct mpi_coll_counts {
    const int *ints;
    const MPI_Count *wide;
};

struct mpi_coll_displs {
    const int *ints;
    const MPI_Aint *wide;
};

static inline struct mpi_coll_counts mpi_coll_int_counts(const int *counts)
{
    return (struct mpi_coll_counts){counts, NULL};
}

static inline struct mpi_coll_counts mpi_coll_wide_counts(const MPI_Count *counts)
{
    return (struct mpi_coll_counts){NULL, counts};
}

static inline struct mpi_coll_displs mpi_coll_int_displs(const int *displs)
{
    return (struct mpi_coll_displs){displs, NULL};
}

static inline struct mpi_coll_displs mpi_coll_wide_displs(const MPI_Aint *displs)
{
    return (struct mpi_coll_displs){NULL, displs};
}

static inline struct mpi_coll_counts mpi_coll_no_counts(void)
{
    return (struct mpi_coll_counts){NULL, NULL};
}

static inline struct mpi_coll_displs mpi_coll_no_displs(void)
{
    return (struct mpi_coll_displs){NULL, NULL};
}

int mpi_coll_bcast(void *buf, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm,
                   enum mpi_coll_mode mode, MPI_Request *request, const char *function);
int mpi_coll_reduce(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                    MPI_Op op, int root, MPI_Comm comm, enum mpi_coll_mode mode,
                    MPI_Request *request, const char *function);
/* COLL_ALLREDUCE, COLL_SCAN, COLL_EXSCAN */
int mpi_coll_allreduce_like(enum coll_kind kind, const void *sendbuf, void *recvbuf,
                            MPI_Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                            enum mpi_coll_mode mode, MPI_Request *request,
                            const char *function);
/* COLL_REDUCE_SCATTER (recvcounts) or COLL_REDUCE_SCATTER_BLOCK (recvcount) */
int mpi_coll_reduce_scatter(enum coll_kind kind, const void *sendbuf, void *recvbuf,
                            MPI_Count recvcount, struct mpi_coll_counts recvcounts,
                            MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                            enum mpi_coll_mode mode, MPI_Request *request,
                            const char *function);
/* COLL_GATHER(V), COLL_SCATTER(V); counts / displs: the root's vector of the v forms */
int mpi_coll_rooted(enum coll_kind kind, const void *sendbuf, MPI_Count sendcount,
                    MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                    MPI_Datatype recvtype, struct mpi_coll_counts counts,
                    struct mpi_coll_displs displs, int root, MPI_Comm comm,
                    enum mpi_coll_mode mode, MPI_Request *request, const char *function);
/* COLL_(NEIGHBOR_)ALLGATHER(V) */
int mpi_coll_allgather(enum coll_kind kind, const void *sendbuf, MPI_Count sendcount,
                       MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                       struct mpi_coll_counts recvcounts, struct mpi_coll_displs displs,
                       MPI_Datatype recvtype, MPI_Comm comm, enum mpi_coll_mode mode,
                       MPI_Request *request, const char *function);
/* COLL_(NEIGHBOR_)ALLTOALL */
int mpi_coll_alltoall(enum coll_kind kind, const void *sendbuf, MPI_Count sendcount,
                      MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                      MPI_Datatype recvtype, MPI_Comm comm, enum mpi_coll_mode mode,
                      MPI_Request *request, const char *function);
/* COLL_(NEIGHBOR_)ALLTOALLV: displacements in elements */
int mpi_coll_alltoallv(enum coll_kind kind, const void *sendbuf,
                       struct mpi_coll_counts sendcounts, struct mpi_coll_displs sdispls,
                       MPI_Datatype sendtype, void *recvbuf, struct mpi_coll_counts recvcounts,
                       struct mpi_coll_displs rdispls, MPI_Datatype recvtype, MPI_Comm comm,
                       enum mpi_coll_mode mode, MPI_Request *request, const char *function);
/* COLL_(NEIGHBOR_)ALLTOALLW: displacements in bytes, a datatype per peer */
int mpi_coll_alltoallw(enum coll_kind kind, const void *sendbuf,
                       struct mpi_coll_counts sendcounts, struct mpi_coll_displs sdispls,
                       const MPI_Datatype *sendtypes, void *recvbuf,
                       struct mpi_coll_counts recvcounts, struct mpi_coll_displs rdispls,
                       const MPI_Datatype *recvtypes, MPI_Comm comm, enum mpi_coll_mode mode,
                       MPI_Request *request, const char *function);

#endif
