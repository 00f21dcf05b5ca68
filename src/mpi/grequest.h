/* grequest.h - generalized requests (MPI_Grequest_start) as seen by the rest of the API layer:
 * src/mpi/request.c runs their query/free/cancel callbacks at the points the standard names. */
#ifndef NODEMPI_MPI_GREQUEST_H
#define NODEMPI_MPI_GREQUEST_H

#include "core/request.h"

/* Nonzero when the request was made by MPI_Grequest_start. */
int mpi_grequest_is(const struct core_request *request);
/* A completed generalized request is being waited on or tested: run query_fn into the
 * request's status, then free_fn (once); the first error lands in status.MPI_ERROR. */
void mpi_grequest_finish(struct core_request *request);
/* MPI_Request_get_status & co.: run query_fn only; returns its error. */
int mpi_grequest_query(struct core_request *request);
/* MPI_Cancel: run cancel_fn with whether MPI_Grequest_complete was called; returns its error. */
int mpi_grequest_cancel(struct core_request *request);

#endif
