/* f08.c - the hand-written parts of the mpi_f08 entry points: choice buffers (C descriptors)
 * of blocking routines made contiguous for the C library (the others: f08_section.c), == and
 * /= on handle types (elemental functions of mpi_f08.f90: a handle type is one INTEGER, so
 * every type shares one comparison), the buffer detach routines, which in mpi_f08 return the
 * buffer's address as a TYPE(C_PTR), and the status conversions of mpi_f08 only
 * (MPI_Status_f082f, MPI_Status_f2f08). */
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "fortran/f08.h"

/* Contiguous when each dimension's stride is the size of the dimensions before it; a
 * dimension of one element may have any stride, an empty array is contiguous, and an
 * assumed-size last dimension (extent -1) is contiguous by definition. */
bool f08_is_contiguous(const CFI_cdesc_t *buffer)
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

/* Copy each element between the descriptor's memory and `packed` (array element order). */
static void f08_transfer(const CFI_cdesc_t *buffer, char *packed, bool pack)
{
    CFI_index_t index[CFI_MAX_RANK] = {0};
    size_t count = 1;
    for (int i = 0; i < buffer->rank; i++)
        count *= (size_t)buffer->dim[i].extent;
    for (size_t k = 0; k < count; k++) {
        char *element = buffer->base_addr;
        for (int i = 0; i < buffer->rank; i++)
            element += index[i] * buffer->dim[i].sm;
        if (pack)
            memcpy(packed + k * buffer->elem_len, element, buffer->elem_len);
        else
            memcpy(element, packed + k * buffer->elem_len, buffer->elem_len);
        for (int i = 0; i < buffer->rank && ++index[i] == buffer->dim[i].extent; i++)
            index[i] = 0;
    }
}

bool f08_choice_in(struct f08_choice *choice, const CFI_cdesc_t *buffer, bool copy_allowed,
                   const char *function, const char *argument, MPI_Fint *ierror)
{
    choice->address = buffer->base_addr;
    choice->copy = NULL;
    if (f08_is_contiguous(buffer))
        return true;
    if (!copy_allowed) {
        int error = core_error_raise(NULL, MPI_ERR_BUFFER, function,
                                     "%s is a non-contiguous array section, which this routine "
                                     "does not take (plain memory MPI keeps using, or the "
                                     "ALLTOALLW family): pass a contiguous array",
                                     argument);
        f08_set_ierror(ierror, error);
        return false;
    }
    size_t bytes = buffer->elem_len;
    for (int i = 0; i < buffer->rank; i++)
        bytes *= (size_t)buffer->dim[i].extent;
    choice->copy = malloc(bytes);
    if (!choice->copy) {
        f08_set_ierror(ierror, f_no_memory(function));
        return false;
    }
    f08_transfer(buffer, choice->copy, true);
    choice->address = choice->copy;
    return true;
}

void f08_choice_out(struct f08_choice *choice, const CFI_cdesc_t *buffer, bool written)
{
    if (!choice->copy)
        return;
    if (written)
        f08_transfer(buffer, choice->copy, false);
    free(choice->copy);
    choice->copy = NULL;
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

/* TYPE(MPI_Status) and INTEGER status(MPI_STATUS_SIZE) are the same MPI_F_STATUS_SIZE ints. */
void pmpi_status_f082f_f08_(const MPI_Fint *f08_status, MPI_Fint *f_status, MPI_Fint *ierror)
{
    for (int i = 0; i < MPI_F_STATUS_SIZE; i++)
        f_status[i] = f08_status[i];
    f08_set_ierror(ierror, MPI_SUCCESS);
}
#pragma weak mpi_status_f082f_f08_ = pmpi_status_f082f_f08_

void pmpi_status_f2f08_f08_(const MPI_Fint *f_status, MPI_Fint *f08_status, MPI_Fint *ierror)
{
    for (int i = 0; i < MPI_F_STATUS_SIZE; i++)
        f08_status[i] = f_status[i];
    f08_set_ierror(ierror, MPI_SUCCESS);
}
#pragma weak mpi_status_f2f08_f08_ = pmpi_status_f2f08_f08_

/* The same two conversions for module mpi (MPI_STATUS_F082F/F2F08 with TYPE(MPI_Status)). */
void pmpi_status_f082f_(const MPI_Fint *f08_status, MPI_Fint *f_status, MPI_Fint *ierror)
{
    *ierror = MPI_Status_f082f((const MPI_F08_status *)f08_status, f_status);
}
#pragma weak mpi_status_f082f_ = pmpi_status_f082f_

void pmpi_status_f2f08_(const MPI_Fint *f_status, MPI_Fint *f08_status, MPI_Fint *ierror)
{
    *ierror = MPI_Status_f2f08(f_status, (MPI_F08_status *)f08_status);
}
#pragma weak mpi_status_f2f08_ = pmpi_status_f2f08_
