/* partitioned.h - MPI-4 partitioned communication (MPI_Psend_init / MPI_Precv_init and the
 * MPI_Pready / MPI_Parrived calls) as the p2p layer offers it to src/mpi. A partitioned request
 * is a persistent generic request: MPI_Start / MPI_Wait / MPI_Test / MPI_Request_free work on it
 * through src/core/request.c unchanged. Arguments are checked by the caller. */
#ifndef NODEMPI_P2P_PARTITIONED_H
#define NODEMPI_P2P_PARTITIONED_H

#include <mpi.h>

#include "core/request.h"

struct core_comm;
struct dt_type;

/* Make an inactive partitioned send (is_send) or receive request of `partitions` partitions of
 * count elements of type each; peer is a rank of comm or MPI_PROC_NULL, tag a user tag. */
int p2p_part_init(struct core_comm *comm, int is_send, void *buf, int partitions,
                  MPI_Count count, struct dt_type *type, int peer, int tag,
                  struct core_request **out);

/* 1 when request is a partitioned send (is_send) or receive request. */
int p2p_part_is(const struct core_request *request, int is_send);
/* Number of partitions of a partitioned request. */
int p2p_part_partitions(const struct core_request *request);

/* Mark partitions low..high of an active send ready (their data may leave now). MPI_ERR_ARG
 * when one of them is already ready in this round. */
int p2p_part_ready(struct core_request *request, int low, int high);

/* *flag = 1 once receive partition `partition` of an active receive holds its data (1 for an
 * inactive request). Makes progress. */
int p2p_part_arrived(struct core_request *request, int partition, int *flag);

#endif
