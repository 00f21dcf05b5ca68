/* f08.c - the hand-written parts of the mpi_f08 entry points: the contiguity check of choice
 * buffers (C descriptors), == and /= on handle types (elemental functions of mpi_f08.f90: a
 * handle type is one INTEGER, so every type shares one comparison), and the buffer detach
 * routines, which in mpi_f08 return the buffer's address as a TYPE(C_PTR). */
#include "core/error.h"
#include "fortran/f08.h"

/* Contiguous when each dimension's stride is the size of the dimensions before it; a
 * dimension of one element may have any stride, an empty array is contiguous, and an
 * assumed-size last dimension (extent -1) is contiguous by definition. */
static bool f08_is_contiguous(const CFI_cdesc_t *buffer)
{
    CFI_index_t expected = (CFI_index_t)buffer->elem_len;
    for (int i = 0; i < buffer->rank; i++) {
        CFI_index_t extent = buffer->dim[i].extent;
        if (extent == 0 || extent < 0)
            return true;
        if (extent != 1 && buffer->dim[i].sm != expected)
            return false;
        expected *= extent;
    }
    return true;
}

bool f08_buffer(const CFI_cdesc_t *buffer, const char *function, const char *argument,
                void **address, MPI_Fint *ierror)
{
    if (f08_is_contiguous(buffer)) {
        *address = buffer->base_addr;
        return true;
    }
    int error = core_error_raise(NULL, MPI_ERR_BUFFER, function,
                                 "%s is a non-contiguous array section; MPI keeps using it after "
                                 "the call, so nodempi cannot copy it (MPI_SUBARRAYS_SUPPORTED is "
                                 ".FALSE.): pass a contiguous array",
                                 argument);
    f08_set_ierror(ierror, error);
    return false;
}

MPI_Fint mpi_f08_comm_eq_(const MPI_Fint *a, const MPI_Fint *b)
{
    return f_to_logical(*a == *b);
}

MPI_Fint mpi_f08_comm_ne_(const MPI_Fint *a, const MPI_Fint *b)
{
    return f_to_logical(*a != *b);
}

#pragma weak mpi_f08_datatype_eq_ = mpi_f08_comm_eq_
#pragma weak mpi_f08_group_eq_ = mpi_f08_comm_eq_
#pragma weak mpi_f08_request_eq_ = mpi_f08_comm_eq_
#pragma weak mpi_f08_info_eq_ = mpi_f08_comm_eq_
#pragma weak mpi_f08_op_eq_ = mpi_f08_comm_eq_
#pragma weak mpi_f08_errhandler_eq_ = mpi_f08_comm_eq_
#pragma weak mpi_f08_win_eq_ = mpi_f08_comm_eq_
#pragma weak mpi_f08_file_eq_ = mpi_f08_comm_eq_
#pragma weak mpi_f08_message_eq_ = mpi_f08_comm_eq_
#pragma weak mpi_f08_session_eq_ = mpi_f08_comm_eq_
#pragma weak mpi_f08_datatype_ne_ = mpi_f08_comm_ne_
#pragma weak mpi_f08_group_ne_ = mpi_f08_comm_ne_
#pragma weak mpi_f08_request_ne_ = mpi_f08_comm_ne_
#pragma weak mpi_f08_info_ne_ = mpi_f08_comm_ne_
#pragma weak mpi_f08_op_ne_ = mpi_f08_comm_ne_
#pragma weak mpi_f08_errhandler_ne_ = mpi_f08_comm_ne_
#pragma weak mpi_f08_win_ne_ = mpi_f08_comm_ne_
#pragma weak mpi_f08_file_ne_ = mpi_f08_comm_ne_
#pragma weak mpi_f08_message_ne_ = mpi_f08_comm_ne_
#pragma weak mpi_f08_session_ne_ = mpi_f08_comm_ne_

void pmpi_buffer_detach_f08_(void **buffer_addr, MPI_Fint *size, MPI_Fint *ierror)
{
    f08_set_ierror(ierror, MPI_Buffer_detach(buffer_addr, size));
}
#pragma weak mpi_buffer_detach_f08_ = pmpi_buffer_detach_f08_

void pmpi_comm_detach_buffer_f08_(const MPI_Fint *comm, void **buffer_addr, MPI_Fint *size,
                                  MPI_Fint *ierror)
{
    f08_set_ierror(ierror, MPI_Comm_detach_buffer(MPI_Comm_fromint(*comm), buffer_addr, size));
}
#pragma weak mpi_comm_detach_buffer_f08_ = pmpi_comm_detach_buffer_f08_

void pmpi_session_detach_buffer_f08_(const MPI_Fint *session, void **buffer_addr,
                                     MPI_Fint *size, MPI_Fint *ierror)
{
    f08_set_ierror(ierror,
                   MPI_Session_detach_buffer(MPI_Session_fromint(*session), buffer_addr, size));
}
#pragma weak mpi_session_detach_buffer_f08_ = pmpi_session_detach_buffer_f08_
