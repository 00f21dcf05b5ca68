/* coll_large.c - API: the MPI-4 large-count (_c) forms of every collective, blocking,
 * nonblocking and persistent: counts MPI_Count, displacements MPI_Aint. Each calls the shared
 * implementation of its int form (src/mpi/coll.c, declared in coll_api.h), which checks the
 * arguments the same way; the MPI_Count / MPI_Aint arrays go to src/coll as they are. */
#include "mpi/api.h"
#include "mpi/coll_api.h"

/* ------------------------------------------------------------------------------------------ */
/* Bcast                                                                                      */

int PMPI_Bcast_c(void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return mpi_coll_bcast(buffer, count, datatype, root, comm, MPI_COLL_BLOCKING, NULL,
                          "MPI_Bcast_c");
}
#pragma weak MPI_Bcast_c = PMPI_Bcast_c

int PMPI_Ibcast_c(void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm,
                  MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return mpi_coll_bcast(buffer, count, datatype, root, comm, MPI_COLL_NONBLOCKING, request,
                          "MPI_Ibcast_c");
}
#pragma weak MPI_Ibcast_c = PMPI_Ibcast_c

int PMPI_Bcast_init_c(void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm,
                      MPI_Info info, MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    (void)info;
    return mpi_coll_bcast(buffer, count, datatype, root, comm, MPI_COLL_PERSISTENT, request,
                          "MPI_Bcast_init_c");
}
#pragma weak MPI_Bcast_init_c = PMPI_Bcast_init_c

/* ------------------------------------------------------------------------------------------ */
/* Reduce, Allreduce, Scan, Exscan, Reduce_scatter(_block)                                    */

int PMPI_Reduce_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                  MPI_Op op, int root, MPI_Comm comm)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return mpi_coll_reduce(sendbuf, recvbuf, count, datatype, op, root, comm, MPI_COLL_BLOCKING,
                           NULL, "MPI_Reduce_c");
}
#pragma weak MPI_Reduce_c = PMPI_Reduce_c

int PMPI_Ireduce_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                   MPI_Op op, int root, MPI_Comm comm, MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return mpi_coll_reduce(sendbuf, recvbuf, count, datatype, op, root, comm, MPI_COLL_NONBLOCKING,
                           request, "MPI_Ireduce_c");
}
#pragma weak MPI_Ireduce_c = PMPI_Ireduce_c

int PMPI_Reduce_init_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                       MPI_Op op, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    (void)info;
    return mpi_coll_reduce(sendbuf, recvbuf, count, datatype, op, root, comm, MPI_COLL_PERSISTENT,
                           request, "MPI_Reduce_init_c");
}
#pragma weak MPI_Reduce_init_c = PMPI_Reduce_init_c

int PMPI_Allreduce_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                     MPI_Op op, MPI_Comm comm)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return mpi_coll_allreduce_like(COLL_ALLREDUCE, sendbuf, recvbuf, count, datatype, op, comm,
                                   MPI_COLL_BLOCKING, NULL, "MPI_Allreduce_c");
}
#pragma weak MPI_Allreduce_c = PMPI_Allreduce_c

int PMPI_Iallreduce_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                      MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return mpi_coll_allreduce_like(COLL_ALLREDUCE, sendbuf, recvbuf, count, datatype, op, comm,
                                   MPI_COLL_NONBLOCKING, request, "MPI_Iallreduce_c");
}
#pragma weak MPI_Iallreduce_c = PMPI_Iallreduce_c

int PMPI_Allreduce_init_c(const void *sendbuf, void *recvbuf, MPI_Count count,
                          MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
                          MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    (void)info;
    return mpi_coll_allreduce_like(COLL_ALLREDUCE, sendbuf, recvbuf, count, datatype, op, comm,
                                   MPI_COLL_PERSISTENT, request, "MPI_Allreduce_init_c");
}
#pragma weak MPI_Allreduce_init_c = PMPI_Allreduce_init_c

int PMPI_Scan_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                MPI_Op op, MPI_Comm comm)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return mpi_coll_allreduce_like(COLL_SCAN, sendbuf, recvbuf, count, datatype, op, comm,
                                   MPI_COLL_BLOCKING, NULL, "MPI_Scan_c");
}
#pragma weak MPI_Scan_c = PMPI_Scan_c

int PMPI_Iscan_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                 MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return mpi_coll_allreduce_like(COLL_SCAN, sendbuf, recvbuf, count, datatype, op, comm,
                                   MPI_COLL_NONBLOCKING, request, "MPI_Iscan_c");
}
#pragma weak MPI_Iscan_c = PMPI_Iscan_c

int PMPI_Scan_init_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                     MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    (void)info;
    return mpi_coll_allreduce_like(COLL_SCAN, sendbuf, recvbuf, count, datatype, op, comm,
                                   MPI_COLL_PERSISTENT, request, "MPI_Scan_init_c");
}
#pragma weak MPI_Scan_init_c = PMPI_Scan_init_c

int PMPI_Exscan_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                  MPI_Op op, MPI_Comm comm)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return mpi_coll_allreduce_like(COLL_EXSCAN, sendbuf, recvbuf, count, datatype, op, comm,
                                   MPI_COLL_BLOCKING, NULL, "MPI_Exscan_c");
}
#pragma weak MPI_Exscan_c = PMPI_Exscan_c

int PMPI_Iexscan_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                   MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return mpi_coll_allreduce_like(COLL_EXSCAN, sendbuf, recvbuf, count, datatype, op, comm,
                                   MPI_COLL_NONBLOCKING, request, "MPI_Iexscan_c");
}
#pragma weak MPI_Iexscan_c = PMPI_Iexscan_c

int PMPI_Exscan_init_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                       MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    (void)info;
    return mpi_coll_allreduce_like(COLL_EXSCAN, sendbuf, recvbuf, count, datatype, op, comm,
                                   MPI_COLL_PERSISTENT, request, "MPI_Exscan_init_c");
}
#pragma weak MPI_Exscan_init_c = PMPI_Exscan_init_c

int PMPI_Reduce_scatter_c(const void *sendbuf, void *recvbuf, const MPI_Count recvcounts[],
                          MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return mpi_coll_reduce_scatter(COLL_REDUCE_SCATTER, sendbuf, recvbuf, 0,
                                   mpi_coll_wide_counts(recvcounts), datatype, op, comm,
                                   MPI_COLL_BLOCKING, NULL, "MPI_Reduce_scatter_c");
}
#pragma weak MPI_Reduce_scatter_c = PMPI_Reduce_scatter_c

int PMPI_Ireduce_scatter_c(const void *sendbuf, void *recvbuf, const MPI_Count recvcounts[],
                           MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return mpi_coll_reduce_scatter(COLL_REDUCE_SCATTER, sendbuf, recvbuf, 0,
                                   mpi_coll_wide_counts(recvcounts), datatype, op, comm,
                                   MPI_COLL_NONBLOCKING, request, "MPI_Ireduce_scatter_c");
}
#pragma weak MPI_Ireduce_scatter_c = PMPI_Ireduce_scatter_c

int PMPI_Reduce_scatter_init_c(const void *sendbuf, void *recvbuf, const MPI_Count recvcounts[],
                               MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
                               MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    (void)info;
    return mpi_coll_reduce_scatter(COLL_REDUCE_SCATTER, sendbuf, recvbuf, 0,
                                   mpi_coll_wide_counts(recvcounts), datatype, op, comm,
                                   MPI_COLL_PERSISTENT, request, "MPI_Reduce_scatter_init_c");
}
#pragma weak MPI_Reduce_scatter_init_c = PMPI_Reduce_scatter_init_c

int PMPI_Reduce_scatter_block_c(const void *sendbuf, void *recvbuf, MPI_Count recvcount,
                                MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return mpi_coll_reduce_scatter(COLL_REDUCE_SCATTER_BLOCK, sendbuf, recvbuf, recvcount,
                                   mpi_coll_no_counts(), datatype, op, comm, MPI_COLL_BLOCKING,
                                   NULL, "MPI_Reduce_scatter_block_c");
}
#pragma weak MPI_Reduce_scatter_block_c = PMPI_Reduce_scatter_block_c

int PMPI_Ireduce_scatter_block_c(const void *sendbuf, void *recvbuf, MPI_Count recvcount,
                                 MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                                 MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return mpi_coll_reduce_scatter(COLL_REDUCE_SCATTER_BLOCK, sendbuf, recvbuf, recvcount,
                                   mpi_coll_no_counts(), datatype, op, comm, MPI_COLL_NONBLOCKING,
                                   request, "MPI_Ireduce_scatter_block_c");
}
#pragma weak MPI_Ireduce_scatter_block_c = PMPI_Ireduce_scatter_block_c

int PMPI_Reduce_scatter_block_init_c(const void *sendbuf, void *recvbuf, MPI_Count recvcount,
                                     MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
                                     MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    (void)info;
    return mpi_coll_reduce_scatter(COLL_REDUCE_SCATTER_BLOCK, sendbuf, recvbuf, recvcount,
                                   mpi_coll_no_counts(), datatype, op, comm, MPI_COLL_PERSISTENT,
                                   request, "MPI_Reduce_scatter_block_init_c");
}
#pragma weak MPI_Reduce_scatter_block_init_c = PMPI_Reduce_scatter_block_init_c

/* ------------------------------------------------------------------------------------------ */
/* Gather(v), Scatter(v)                                                                      */

int PMPI_Gather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                  MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return mpi_coll_rooted(COLL_GATHER, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                           mpi_coll_no_counts(), mpi_coll_no_displs(), root, comm,
                           MPI_COLL_BLOCKING, NULL, "MPI_Gather_c");
}
#pragma weak MPI_Gather_c = PMPI_Gather_c

int PMPI_Igather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                   MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                   MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return mpi_coll_rooted(COLL_GATHER, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                           mpi_coll_no_counts(), mpi_coll_no_displs(), root, comm,
                           MPI_COLL_NONBLOCKING, request, "MPI_Igather_c");
}
#pragma weak MPI_Igather_c = PMPI_Igather_c

int PMPI_Gather_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                       void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root,
                       MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    (void)info;
    return mpi_coll_rooted(COLL_GATHER, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                           mpi_coll_no_counts(), mpi_coll_no_displs(), root, comm,
                           MPI_COLL_PERSISTENT, request, "MPI_Gather_init_c");
}
#pragma weak MPI_Gather_init_c = PMPI_Gather_init_c

int PMPI_Gatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                   const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype,
                   int root, MPI_Comm comm)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return mpi_coll_rooted(COLL_GATHERV, sendbuf, sendcount, sendtype, recvbuf, 0, recvtype,
                           mpi_coll_wide_counts(recvcounts), mpi_coll_wide_displs(displs), root,
                           comm, MPI_COLL_BLOCKING, NULL, "MPI_Gatherv_c");
}
#pragma weak MPI_Gatherv_c = PMPI_Gatherv_c

int PMPI_Igatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                    const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype,
                    int root, MPI_Comm comm, MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return mpi_coll_rooted(COLL_GATHERV, sendbuf, sendcount, sendtype, recvbuf, 0, recvtype,
                           mpi_coll_wide_counts(recvcounts), mpi_coll_wide_displs(displs), root,
                           comm, MPI_COLL_NONBLOCKING, request, "MPI_Igatherv_c");
}
#pragma weak MPI_Igatherv_c = PMPI_Igatherv_c

int PMPI_Gatherv_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                        void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
                        MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                        MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    (void)info;
    return mpi_coll_rooted(COLL_GATHERV, sendbuf, sendcount, sendtype, recvbuf, 0, recvtype,
                           mpi_coll_wide_counts(recvcounts), mpi_coll_wide_displs(displs), root,
                           comm, MPI_COLL_PERSISTENT, request, "MPI_Gatherv_init_c");
}
#pragma weak MPI_Gatherv_init_c = PMPI_Gatherv_init_c

int PMPI_Scatter_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                   MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return mpi_coll_rooted(COLL_SCATTER, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                           mpi_coll_no_counts(), mpi_coll_no_displs(), root, comm,
                           MPI_COLL_BLOCKING, NULL, "MPI_Scatter_c");
}
#pragma weak MPI_Scatter_c = PMPI_Scatter_c

int PMPI_Iscatter_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                    MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                    MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return mpi_coll_rooted(COLL_SCATTER, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                           mpi_coll_no_counts(), mpi_coll_no_displs(), root, comm,
                           MPI_COLL_NONBLOCKING, request, "MPI_Iscatter_c");
}
#pragma weak MPI_Iscatter_c = PMPI_Iscatter_c

int PMPI_Scatter_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                        void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root,
                        MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    (void)info;
    return mpi_coll_rooted(COLL_SCATTER, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                           mpi_coll_no_counts(), mpi_coll_no_displs(), root, comm,
                           MPI_COLL_PERSISTENT, request, "MPI_Scatter_init_c");
}
#pragma weak MPI_Scatter_init_c = PMPI_Scatter_init_c

int PMPI_Scatterv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[],
                    MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                    MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return mpi_coll_rooted(COLL_SCATTERV, sendbuf, 0, sendtype, recvbuf, recvcount, recvtype,
                           mpi_coll_wide_counts(sendcounts), mpi_coll_wide_displs(displs), root,
                           comm, MPI_COLL_BLOCKING, NULL, "MPI_Scatterv_c");
}
#pragma weak MPI_Scatterv_c = PMPI_Scatterv_c

int PMPI_Iscatterv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[],
                     MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                     MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return mpi_coll_rooted(COLL_SCATTERV, sendbuf, 0, sendtype, recvbuf, recvcount, recvtype,
                           mpi_coll_wide_counts(sendcounts), mpi_coll_wide_displs(displs), root,
                           comm, MPI_COLL_NONBLOCKING, request, "MPI_Iscatterv_c");
}
#pragma weak MPI_Iscatterv_c = PMPI_Iscatterv_c

int PMPI_Scatterv_init_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[],
                         MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                         MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                         MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    (void)info;
    return mpi_coll_rooted(COLL_SCATTERV, sendbuf, 0, sendtype, recvbuf, recvcount, recvtype,
                           mpi_coll_wide_counts(sendcounts), mpi_coll_wide_displs(displs), root,
                           comm, MPI_COLL_PERSISTENT, request, "MPI_Scatterv_init_c");
}
#pragma weak MPI_Scatterv_init_c = PMPI_Scatterv_init_c

/* ------------------------------------------------------------------------------------------ */
/* Allgather(v), Alltoall(v,w)                                                                */

int PMPI_Allgather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                     MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return mpi_coll_allgather(COLL_ALLGATHER, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                              mpi_coll_no_counts(), mpi_coll_no_displs(), recvtype, comm,
                              MPI_COLL_BLOCKING, NULL, "MPI_Allgather_c");
}
#pragma weak MPI_Allgather_c = PMPI_Allgather_c

int PMPI_Iallgather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                      void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                      MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return mpi_coll_allgather(COLL_ALLGATHER, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                              mpi_coll_no_counts(), mpi_coll_no_displs(), recvtype, comm,
                              MPI_COLL_NONBLOCKING, request, "MPI_Iallgather_c");
}
#pragma weak MPI_Iallgather_c = PMPI_Iallgather_c

int PMPI_Allgather_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                          void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                          MPI_Info info, MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    (void)info;
    return mpi_coll_allgather(COLL_ALLGATHER, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                              mpi_coll_no_counts(), mpi_coll_no_displs(), recvtype, comm,
                              MPI_COLL_PERSISTENT, request, "MPI_Allgather_init_c");
}
#pragma weak MPI_Allgather_init_c = PMPI_Allgather_init_c

int PMPI_Allgatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                      void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
                      MPI_Datatype recvtype, MPI_Comm comm)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return mpi_coll_allgather(COLL_ALLGATHERV, sendbuf, sendcount, sendtype, recvbuf, 0,
                              mpi_coll_wide_counts(recvcounts), mpi_coll_wide_displs(displs),
                              recvtype, comm, MPI_COLL_BLOCKING, NULL, "MPI_Allgatherv_c");
}
#pragma weak MPI_Allgatherv_c = PMPI_Allgatherv_c

int PMPI_Iallgatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                       void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
                       MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return mpi_coll_allgather(COLL_ALLGATHERV, sendbuf, sendcount, sendtype, recvbuf, 0,
                              mpi_coll_wide_counts(recvcounts), mpi_coll_wide_displs(displs),
                              recvtype, comm, MPI_COLL_NONBLOCKING, request, "MPI_Iallgatherv_c");
}
#pragma weak MPI_Iallgatherv_c = PMPI_Iallgatherv_c

int PMPI_Allgatherv_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                           void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
                           MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                           MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    (void)info;
    return mpi_coll_allgather(COLL_ALLGATHERV, sendbuf, sendcount, sendtype, recvbuf, 0,
                              mpi_coll_wide_counts(recvcounts), mpi_coll_wide_displs(displs),
                              recvtype, comm, MPI_COLL_PERSISTENT, request,
                              "MPI_Allgatherv_init_c");
}
#pragma weak MPI_Allgatherv_init_c = PMPI_Allgatherv_init_c

int PMPI_Alltoall_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                    MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return mpi_coll_alltoall(COLL_ALLTOALL, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                             recvtype, comm, MPI_COLL_BLOCKING, NULL, "MPI_Alltoall_c");
}
#pragma weak MPI_Alltoall_c = PMPI_Alltoall_c

int PMPI_Ialltoall_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                     MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                     MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return mpi_coll_alltoall(COLL_ALLTOALL, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                             recvtype, comm, MPI_COLL_NONBLOCKING, request, "MPI_Ialltoall_c");
}
#pragma weak MPI_Ialltoall_c = PMPI_Ialltoall_c

int PMPI_Alltoall_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                         void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                         MPI_Info info, MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    (void)info;
    return mpi_coll_alltoall(COLL_ALLTOALL, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                             recvtype, comm, MPI_COLL_PERSISTENT, request, "MPI_Alltoall_init_c");
}
#pragma weak MPI_Alltoall_init_c = PMPI_Alltoall_init_c

int PMPI_Alltoallv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                     MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[],
                     const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return mpi_coll_alltoallv(COLL_ALLTOALLV, sendbuf, mpi_coll_wide_counts(sendcounts),
                              mpi_coll_wide_displs(sdispls), sendtype, recvbuf,
                              mpi_coll_wide_counts(recvcounts), mpi_coll_wide_displs(rdispls),
                              recvtype, comm, MPI_COLL_BLOCKING, NULL, "MPI_Alltoallv_c");
}
#pragma weak MPI_Alltoallv_c = PMPI_Alltoallv_c

int PMPI_Ialltoallv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                      MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[],
                      const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                      MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return mpi_coll_alltoallv(COLL_ALLTOALLV, sendbuf, mpi_coll_wide_counts(sendcounts),
                              mpi_coll_wide_displs(sdispls), sendtype, recvbuf,
                              mpi_coll_wide_counts(recvcounts), mpi_coll_wide_displs(rdispls),
                              recvtype, comm, MPI_COLL_NONBLOCKING, request, "MPI_Ialltoallv_c");
}
#pragma weak MPI_Ialltoallv_c = PMPI_Ialltoallv_c

int PMPI_Alltoallv_init_c(const void *sendbuf, const MPI_Count sendcounts[],
                          const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf,
                          const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                          MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    (void)info;
    return mpi_coll_alltoallv(COLL_ALLTOALLV, sendbuf, mpi_coll_wide_counts(sendcounts),
                              mpi_coll_wide_displs(sdispls), sendtype, recvbuf,
                              mpi_coll_wide_counts(recvcounts), mpi_coll_wide_displs(rdispls),
                              recvtype, comm, MPI_COLL_PERSISTENT, request, "MPI_Alltoallv_init_c");
}
#pragma weak MPI_Alltoallv_init_c = PMPI_Alltoallv_init_c

int PMPI_Alltoallw_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                     const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[],
                     const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return mpi_coll_alltoallw(COLL_ALLTOALLW, sendbuf, mpi_coll_wide_counts(sendcounts),
                              mpi_coll_wide_displs(sdispls), sendtypes, recvbuf,
                              mpi_coll_wide_counts(recvcounts), mpi_coll_wide_displs(rdispls),
                              recvtypes, comm, MPI_COLL_BLOCKING, NULL, "MPI_Alltoallw_c");
}
#pragma weak MPI_Alltoallw_c = PMPI_Alltoallw_c

int PMPI_Ialltoallw_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                      const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[],
                      const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                      MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return mpi_coll_alltoallw(COLL_ALLTOALLW, sendbuf, mpi_coll_wide_counts(sendcounts),
                              mpi_coll_wide_displs(sdispls), sendtypes, recvbuf,
                              mpi_coll_wide_counts(recvcounts), mpi_coll_wide_displs(rdispls),
                              recvtypes, comm, MPI_COLL_NONBLOCKING, request, "MPI_Ialltoallw_c");
}
#pragma weak MPI_Ialltoallw_c = PMPI_Ialltoallw_c

int PMPI_Alltoallw_init_c(const void *sendbuf, const MPI_Count sendcounts[],
                          const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf,
                          const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                          const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Info info,
                          MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    (void)info;
    return mpi_coll_alltoallw(COLL_ALLTOALLW, sendbuf, mpi_coll_wide_counts(sendcounts),
                              mpi_coll_wide_displs(sdispls), sendtypes, recvbuf,
                              mpi_coll_wide_counts(recvcounts), mpi_coll_wide_displs(rdispls),
                              recvtypes, comm, MPI_COLL_PERSISTENT, request,
                              "MPI_Alltoallw_init_c");
}
#pragma weak MPI_Alltoallw_init_c = PMPI_Alltoallw_init_c

/* ------------------------------------------------------------------------------------------ */
/* Neighborhood collectives                                                                   */

int PMPI_Neighbor_allgather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                              void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                              MPI_Comm comm)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return mpi_coll_allgather(COLL_NEIGHBOR_ALLGATHER, sendbuf, sendcount, sendtype, recvbuf,
                              recvcount, mpi_coll_no_counts(), mpi_coll_no_displs(), recvtype, comm,
                              MPI_COLL_BLOCKING, NULL, "MPI_Neighbor_allgather_c");
}
#pragma weak MPI_Neighbor_allgather_c = PMPI_Neighbor_allgather_c

int PMPI_Ineighbor_allgather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                               void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                               MPI_Comm comm, MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return mpi_coll_allgather(COLL_NEIGHBOR_ALLGATHER, sendbuf, sendcount, sendtype, recvbuf,
                              recvcount, mpi_coll_no_counts(), mpi_coll_no_displs(), recvtype, comm,
                              MPI_COLL_NONBLOCKING, request, "MPI_Ineighbor_allgather_c");
}
#pragma weak MPI_Ineighbor_allgather_c = PMPI_Ineighbor_allgather_c

int PMPI_Neighbor_allgather_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                                   void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                                   MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    (void)info;
    return mpi_coll_allgather(COLL_NEIGHBOR_ALLGATHER, sendbuf, sendcount, sendtype, recvbuf,
                              recvcount, mpi_coll_no_counts(), mpi_coll_no_displs(), recvtype, comm,
                              MPI_COLL_PERSISTENT, request, "MPI_Neighbor_allgather_init_c");
}
#pragma weak MPI_Neighbor_allgather_init_c = PMPI_Neighbor_allgather_init_c

int PMPI_Neighbor_allgatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                               void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
                               MPI_Datatype recvtype, MPI_Comm comm)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return mpi_coll_allgather(COLL_NEIGHBOR_ALLGATHERV, sendbuf, sendcount, sendtype, recvbuf, 0,
                              mpi_coll_wide_counts(recvcounts), mpi_coll_wide_displs(displs),
                              recvtype, comm, MPI_COLL_BLOCKING, NULL, "MPI_Neighbor_allgatherv_c");
}
#pragma weak MPI_Neighbor_allgatherv_c = PMPI_Neighbor_allgatherv_c

int PMPI_Ineighbor_allgatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                                void *recvbuf, const MPI_Count recvcounts[],
                                const MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm,
                                MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return mpi_coll_allgather(COLL_NEIGHBOR_ALLGATHERV, sendbuf, sendcount, sendtype, recvbuf, 0,
                              mpi_coll_wide_counts(recvcounts), mpi_coll_wide_displs(displs),
                              recvtype, comm, MPI_COLL_NONBLOCKING, request,
                              "MPI_Ineighbor_allgatherv_c");
}
#pragma weak MPI_Ineighbor_allgatherv_c = PMPI_Ineighbor_allgatherv_c

int PMPI_Neighbor_allgatherv_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                                    void *recvbuf, const MPI_Count recvcounts[],
                                    const MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm,
                                    MPI_Info info, MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    (void)info;
    return mpi_coll_allgather(COLL_NEIGHBOR_ALLGATHERV, sendbuf, sendcount, sendtype, recvbuf, 0,
                              mpi_coll_wide_counts(recvcounts), mpi_coll_wide_displs(displs),
                              recvtype, comm, MPI_COLL_PERSISTENT, request,
                              "MPI_Neighbor_allgatherv_init_c");
}
#pragma weak MPI_Neighbor_allgatherv_init_c = PMPI_Neighbor_allgatherv_init_c

int PMPI_Neighbor_alltoall_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                             void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                             MPI_Comm comm)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return mpi_coll_alltoall(COLL_NEIGHBOR_ALLTOALL, sendbuf, sendcount, sendtype, recvbuf,
                             recvcount, recvtype, comm, MPI_COLL_BLOCKING, NULL,
                             "MPI_Neighbor_alltoall_c");
}
#pragma weak MPI_Neighbor_alltoall_c = PMPI_Neighbor_alltoall_c

int PMPI_Ineighbor_alltoall_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                              void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                              MPI_Comm comm, MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return mpi_coll_alltoall(COLL_NEIGHBOR_ALLTOALL, sendbuf, sendcount, sendtype, recvbuf,
                             recvcount, recvtype, comm, MPI_COLL_NONBLOCKING, request,
                             "MPI_Ineighbor_alltoall_c");
}
#pragma weak MPI_Ineighbor_alltoall_c = PMPI_Ineighbor_alltoall_c

int PMPI_Neighbor_alltoall_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                                  void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                                  MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    (void)info;
    return mpi_coll_alltoall(COLL_NEIGHBOR_ALLTOALL, sendbuf, sendcount, sendtype, recvbuf,
                             recvcount, recvtype, comm, MPI_COLL_PERSISTENT, request,
                             "MPI_Neighbor_alltoall_init_c");
}
#pragma weak MPI_Neighbor_alltoall_init_c = PMPI_Neighbor_alltoall_init_c

int PMPI_Neighbor_alltoallv_c(const void *sendbuf, const MPI_Count sendcounts[],
                              const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf,
                              const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                              MPI_Datatype recvtype, MPI_Comm comm)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return mpi_coll_alltoallv(COLL_NEIGHBOR_ALLTOALLV, sendbuf, mpi_coll_wide_counts(sendcounts),
                              mpi_coll_wide_displs(sdispls), sendtype, recvbuf,
                              mpi_coll_wide_counts(recvcounts), mpi_coll_wide_displs(rdispls),
                              recvtype, comm, MPI_COLL_BLOCKING, NULL, "MPI_Neighbor_alltoallv_c");
}
#pragma weak MPI_Neighbor_alltoallv_c = PMPI_Neighbor_alltoallv_c

int PMPI_Ineighbor_alltoallv_c(const void *sendbuf, const MPI_Count sendcounts[],
                               const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf,
                               const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                               MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return mpi_coll_alltoallv(COLL_NEIGHBOR_ALLTOALLV, sendbuf, mpi_coll_wide_counts(sendcounts),
                              mpi_coll_wide_displs(sdispls), sendtype, recvbuf,
                              mpi_coll_wide_counts(recvcounts), mpi_coll_wide_displs(rdispls),
                              recvtype, comm, MPI_COLL_NONBLOCKING, request,
                              "MPI_Ineighbor_alltoallv_c");
}
#pragma weak MPI_Ineighbor_alltoallv_c = PMPI_Ineighbor_alltoallv_c

int PMPI_Neighbor_alltoallv_init_c(const void *sendbuf, const MPI_Count sendcounts[],
                                   const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf,
                                   const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                                   MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                   MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    (void)info;
    return mpi_coll_alltoallv(COLL_NEIGHBOR_ALLTOALLV, sendbuf, mpi_coll_wide_counts(sendcounts),
                              mpi_coll_wide_displs(sdispls), sendtype, recvbuf,
                              mpi_coll_wide_counts(recvcounts), mpi_coll_wide_displs(rdispls),
                              recvtype, comm, MPI_COLL_PERSISTENT, request,
                              "MPI_Neighbor_alltoallv_init_c");
}
#pragma weak MPI_Neighbor_alltoallv_init_c = PMPI_Neighbor_alltoallv_init_c

int PMPI_Neighbor_alltoallw_c(const void *sendbuf, const MPI_Count sendcounts[],
                              const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                              void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                              const MPI_Datatype recvtypes[], MPI_Comm comm)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return mpi_coll_alltoallw(COLL_NEIGHBOR_ALLTOALLW, sendbuf, mpi_coll_wide_counts(sendcounts),
                              mpi_coll_wide_displs(sdispls), sendtypes, recvbuf,
                              mpi_coll_wide_counts(recvcounts), mpi_coll_wide_displs(rdispls),
                              recvtypes, comm, MPI_COLL_BLOCKING, NULL, "MPI_Neighbor_alltoallw_c");
}
#pragma weak MPI_Neighbor_alltoallw_c = PMPI_Neighbor_alltoallw_c

int PMPI_Ineighbor_alltoallw_c(const void *sendbuf, const MPI_Count sendcounts[],
                               const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                               void *recvbuf, const MPI_Count recvcounts[],
                               const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
                               MPI_Comm comm, MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return mpi_coll_alltoallw(COLL_NEIGHBOR_ALLTOALLW, sendbuf, mpi_coll_wide_counts(sendcounts),
                              mpi_coll_wide_displs(sdispls), sendtypes, recvbuf,
                              mpi_coll_wide_counts(recvcounts), mpi_coll_wide_displs(rdispls),
                              recvtypes, comm, MPI_COLL_NONBLOCKING, request,
                              "MPI_Ineighbor_alltoallw_c");
}
#pragma weak MPI_Ineighbor_alltoallw_c = PMPI_Ineighbor_alltoallw_c

int PMPI_Neighbor_alltoallw_init_c(const void *sendbuf, const MPI_Count sendcounts[],
                                   const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                                   void *recvbuf, const MPI_Count recvcounts[],
                                   const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
                                   MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    (void)info;
    return mpi_coll_alltoallw(COLL_NEIGHBOR_ALLTOALLW, sendbuf, mpi_coll_wide_counts(sendcounts),
                              mpi_coll_wide_displs(sdispls), sendtypes, recvbuf,
                              mpi_coll_wide_counts(recvcounts), mpi_coll_wide_displs(rdispls),
                              recvtypes, comm, MPI_COLL_PERSISTENT, request,
                              "MPI_Neighbor_alltoallw_init_c");
}
#pragma weak MPI_Neighbor_alltoallw_init_c = PMPI_Neighbor_alltoallw_init_c
