/* api.h - helpers shared by the API layer (the files of src/mpi): argument checks that turn bad input into
 * the right error class with a message naming the function and the argument.
 *
 * Conventions for every API file: each function is defined as PMPI_X and made MPI_X by
 * `#pragma weak MPI_X = PMPI_X` written next to it; it checks its arguments in the order the
 * standard lists them, converts handles to objects, calls one function of a lower layer and
 * passes that layer's error class through core_error_raise.
 *
 * Threads: each entry point starts by entering the big lock of MPI_THREAD_MULTIPLE
 * (mpi_enter below, src/core/thread.c). Entry points that need no lock (MPI_Wtime, MPI_Abort,
 * pure address arithmetic) leave it out; handle_convert.c locks in its two table helpers. */
#ifndef NODEMPI_MPI_API_H
#define NODEMPI_MPI_API_H

#include <mpi.h>

#include "core/comm.h"
#include "core/error.h"
#include "core/state.h"
#include "core/thread.h"
#include "datatype/datatype.h"

/* Was the library built with its Fortran bindings (src/fortran)? Their sentinels' addresses
 * say so (mpi/handle_convert.c). */
int mpi_has_fortran(void);

/* The big lock of MPI_THREAD_MULTIPLE around one MPI call. Each entry point's first line is
 *     int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
 * and the compiler calls mpi_leave(&entered) on every way out, after the return value is
 * computed (GCC and Clang; the cleanup attribute is the one extension this relies on).
 * Without MULTIPLE the call costs one predictable branch on nodempi.api_track and one on
 * a register; a call that turned the lock on (MPI_Init_thread) leaves as it entered. Once an
 * MPI_T event registration was made the lock is taken at every level too: the end of a
 * thread's outermost call is where event callbacks run (core_thread_leave, mpi/mpit_event.c),
 * and the nesting count is what finds it. */
static inline int mpi_enter(void)
{
    if (__builtin_expect(nodempi.api_track, 0)) {
        core_thread_enter();
        return 1;
    }
    return 0;
}

static inline void mpi_leave(int *entered)
{
    if (__builtin_expect(*entered, 0))
        core_thread_leave();
}

/* MPI_ERR_OTHER unless MPI is initialized and not finalized. */
static inline int mpi_check_initialized(const char *function)
{
    if (nodempi.initialized && !nodempi.finalized)
        return MPI_SUCCESS;
    return core_error_raise(NULL, MPI_ERR_OTHER, function, "called %s MPI_Init",
                            nodempi.finalized ? "after MPI_Finalize, not between" : "before");
}

/* Communicator handle -> object or MPI_ERR_COMM, raised as an error without a valid object
 * (MPI_COMM_SELF's handler, or MPI_COMM_WORLD's while only that one was chosen: core/error.c). */
static inline int mpi_get_comm(MPI_Comm handle, struct core_comm **comm, const char *function)
{
    *comm = core_comm_from_handle(handle);
    if (*comm)
        return MPI_SUCCESS;
    return core_error_raise(NULL, MPI_ERR_COMM, function, "invalid communicator%s",
                            handle == MPI_COMM_NULL              ? " MPI_COMM_NULL"
                            : core_comm_handle_freed(handle) ? " (already freed)"
                                                             : "");
}

/* A datatype argument must be a valid, committed type. */
static inline int mpi_get_type(struct core_comm *comm, MPI_Datatype handle, struct dt_type **type,
                               const char *function)
{
    *type = dt_from_handle(handle);
    if (!*type)
        return core_error_raise(comm, MPI_ERR_TYPE, function, "invalid datatype%s",
                                handle == MPI_DATATYPE_NULL ? " MPI_DATATYPE_NULL" : "");
    if (!(*type)->committed)
        return core_error_raise(comm, MPI_ERR_TYPE, function,
                                "datatype is not committed (call MPI_Type_commit)");
    return MPI_SUCCESS;
}

static inline int mpi_check_count(struct core_comm *comm, MPI_Count count, const char *function)
{
    if (count >= 0)
        return MPI_SUCCESS;
    return core_error_raise(comm, MPI_ERR_COUNT, function, "invalid count %lld",
                            (long long)count);
}

/* A NULL buffer is only wrong when there is data to move into or out of it; MPI_BOTTOM is NULL
 * in the ABI, and is legal with derived types that hold absolute addresses. */
static inline int mpi_check_buffer(struct core_comm *comm, const void *buf, MPI_Count count,
                                   const struct dt_type *type, const char *function)
{
    if (buf != NULL || count == 0 || type->size == 0 || !type->predefined)
        return MPI_SUCCESS;
    return core_error_raise(comm, MPI_ERR_BUFFER, function, "NULL buffer with count %lld",
                            (long long)count);
}

/* Destination ranks: 0..peers-1 or MPI_PROC_NULL. */
static inline int mpi_check_dest(struct core_comm *comm, int rank, const char *function)
{
    if ((rank >= 0 && rank < core_comm_peer_count(comm)) || rank == MPI_PROC_NULL)
        return MPI_SUCCESS;
    return core_error_raise(comm, MPI_ERR_RANK, function, "invalid rank %d (communicator size %d)",
                            rank, core_comm_peer_count(comm));
}

/* Source ranks additionally accept MPI_ANY_SOURCE. */
static inline int mpi_check_source(struct core_comm *comm, int rank, const char *function)
{
    if (rank == MPI_ANY_SOURCE)
        return MPI_SUCCESS;
    return mpi_check_dest(comm, rank, function);
}

/* Upper bound of user tags (the MPI_TAG_UB attribute). */
#define NODEMPI_TAG_UB 0x7fffffff

static inline int mpi_check_send_tag(struct core_comm *comm, int tag, const char *function)
{
    if (tag >= 0)
        return MPI_SUCCESS;
    return core_error_raise(comm, MPI_ERR_TAG, function, "invalid tag %d (must be 0..%d)", tag,
                            NODEMPI_TAG_UB);
}

static inline int mpi_check_recv_tag(struct core_comm *comm, int tag, const char *function)
{
    if (tag == MPI_ANY_TAG)
        return MPI_SUCCESS;
    return mpi_check_send_tag(comm, tag, function);
}

/* The outcome of a completed receive into count elements of type, through the communicator's
 * error handler: truncation names the buffer's capacity, other classes their own text. */
static inline int mpi_recv_outcome(struct core_comm *comm, int rc, struct dt_type *type,
                                   MPI_Count count, const char *function)
{
    if (rc == MPI_SUCCESS)
        return rc;
    if (rc == MPI_ERR_TRUNCATE)
        return core_error_raise(comm, rc, function,
                                "message truncated: receive buffer holds %lld bytes",
                                (long long)dt_packed_size(type, count));
    return core_error_raise(comm, rc, function, "%s", core_error_string(rc));
}

#endif
