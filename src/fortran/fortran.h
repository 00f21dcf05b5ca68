/* fortran.h - what every Fortran entry point of src/fortran shares: the special addresses of
 * mpif.h (MPI_BOTTOM, MPI_IN_PLACE, MPI_STATUS_IGNORE ... are common-block variables whose
 * addresses stand for the C constants), LOGICAL values and blank-padded strings with gfortran's
 * hidden lengths. Handles need nothing here: a Fortran INTEGER handle is the MPI-5.0 ABI's
 * integer form, converted with MPI_X_fromint / MPI_X_toint (src/mpi/handle_convert.c). */
#ifndef NODEMPI_FORTRAN_H
#define NODEMPI_FORTRAN_H

#include <mpi.h>
#include <stddef.h>

/* The common blocks of mpif.h (src/fortran/sentinels.c defines them, sized as mpif.h does). */
extern MPI_Fint mpi_fortran_bottom_;
extern MPI_Fint mpi_fortran_in_place_;
extern MPI_Fint mpi_fortran_buffer_automatic_;
extern MPI_Fint mpi_fortran_status_ignore_[MPI_F_STATUS_SIZE];
extern MPI_Fint mpi_fortran_statuses_ignore_[MPI_F_STATUS_SIZE];
extern MPI_Fint mpi_fortran_errcodes_ignore_[1];
extern MPI_Fint mpi_fortran_unweighted_[1];
extern MPI_Fint mpi_fortran_weights_empty_[1];
extern char mpi_fortran_argv_null_[1];
extern char mpi_fortran_argvs_null_[1];

/* Room for the longest string MPI returns (MPI_Get_library_version), with its NUL. */
#define F_STRING_MAX (MPI_MAX_LIBRARY_VERSION_STRING + 1)

/* gfortran's LOGICAL: .TRUE. is 1, .FALSE. is 0; anything non-zero reads as true. */
static inline MPI_Fint f_to_logical(int value)
{
    return value ? 1 : 0;
}

static inline int f_logical_in(MPI_Fint value)
{
    return value != 0;
}

/* A choice buffer: MPI_BOTTOM and MPI_IN_PLACE arrive as their common blocks' addresses. */
static inline void *f_buffer(const void *buf)
{
    if (buf == &mpi_fortran_bottom_)
        return MPI_BOTTOM;
    if (buf == &mpi_fortran_in_place_)
        return MPI_IN_PLACE;
    if (buf == &mpi_fortran_buffer_automatic_)
        return MPI_BUFFER_AUTOMATIC;
    return (void *)buf;
}

/* A status: INTEGER(MPI_STATUS_SIZE) has the C MPI_Status layout (MPI_F_STATUS_SIZE ints, the
 * ABI fixes both), so only MPI_STATUS_IGNORE needs translating. */
static inline MPI_Status *f_status(const MPI_Fint *status)
{
    if (status == mpi_fortran_status_ignore_)
        return MPI_STATUS_IGNORE;
    return (MPI_Status *)status;
}

static inline MPI_Status *f_statuses(const MPI_Fint *statuses)
{
    if (statuses == mpi_fortran_statuses_ignore_)
        return MPI_STATUSES_IGNORE;
    return (MPI_Status *)statuses;
}

static inline int *f_errcodes(MPI_Fint *errcodes)
{
    return errcodes == mpi_fortran_errcodes_ignore_ ? MPI_ERRCODES_IGNORE : errcodes;
}

/* Graph edge weights: MPI_UNWEIGHTED and MPI_WEIGHTS_EMPTY are addresses too. */
static inline int *f_weights(const MPI_Fint *weights)
{
    if (weights == mpi_fortran_unweighted_)
        return MPI_UNWEIGHTED;
    if (weights == mpi_fortran_weights_empty_)
        return MPI_WEIGHTS_EMPTY;
    return (int *)weights;
}

/* MPI_ERR_NO_MEM for a conversion that found no memory, through the error handler of
 * MPI_COMM_SELF as the C functions raise errors without an object (the message names
 * function). */
int f_no_memory(const char *function);

/* A Fortran CHARACTER argument as a new C string without trailing blanks (free() it);
 * NULL when out of memory, which the C function then reports as a bad argument. */
char *f_string_in(const char *fortran, size_t length);

/* The same for an info key or value, which loses its leading blanks too (MPI_INFO_SET). */
char *f_info_string_in(const char *fortran, size_t length);

/* Copy a C string into a CHARACTER*(length), blank padded (truncated if it is too long). */
void f_string_out(const char *c_string, char *fortran, size_t length);

/* The interfaces of user routines written in Fortran (everything by reference; src/fortran/
 * callbacks.c calls them, and the mpi_f08 entry points of bindings_f08.c pass them on). */
typedef void f_user_function(void *invec, void *inoutvec, MPI_Fint *len, MPI_Fint *datatype);
typedef void f_errhandler_function(MPI_Fint *handle, MPI_Fint *error_code);
typedef void f_copy_function(MPI_Fint *old, MPI_Fint *keyval, MPI_Aint *extra_state,
                             MPI_Aint *value_in, MPI_Aint *value_out, MPI_Fint *flag,
                             MPI_Fint *ierror);
typedef void f_delete_function(MPI_Fint *object, MPI_Fint *keyval, MPI_Aint *value,
                               MPI_Aint *extra_state, MPI_Fint *ierror);
/* MPI-1's MPI_KEYVAL_CREATE: the same with default INTEGER values and extra state. */
typedef void f_copy_function_int(MPI_Fint *old, MPI_Fint *keyval, MPI_Fint *extra_state,
                                 MPI_Fint *value_in, MPI_Fint *value_out, MPI_Fint *flag,
                                 MPI_Fint *ierror);
typedef void f_delete_function_int(MPI_Fint *object, MPI_Fint *keyval, MPI_Fint *value,
                                   MPI_Fint *extra_state, MPI_Fint *ierror);
/* Generalized request routines (MPI_GREQUEST_START). */
typedef void f_query_function(MPI_Aint *extra_state, MPI_Fint *status, MPI_Fint *ierror);
typedef void f_free_function(MPI_Aint *extra_state, MPI_Fint *ierror);
typedef void f_cancel_function(MPI_Aint *extra_state, MPI_Fint *complete, MPI_Fint *ierror);

#endif
