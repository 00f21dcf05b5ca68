! errors.f90 - errors from Fortran: MPI_ERRORS_RETURN gives the code in ierror (with the
! right class for a bad rank, count and communicator), an error handler written in Fortran
! receives the communicator's INTEGER handle and the code (raised by a call and by
! MPI_COMM_CALL_ERRHANDLER), a window handler likewise, and user error classes, codes and
! strings round-trip through MPI_ERROR_STRING.
module error_handlers
    use mpi
    implicit none
    integer :: calls = 0, last_handle = -1, last_code = -1
contains
    subroutine record_error(handle, code)
        integer :: handle, code
        calls = calls + 1
        last_handle = handle
        last_code = code
    end subroutine record_error
end module error_handlers

program errors
    use mpi
    use error_handlers
    implicit none
    integer :: ierr, rank, nprocs, errs, class, dup, eh, win, newclass, newcode, length
    integer :: buf(4)
    integer(kind=MPI_ADDRESS_KIND) :: winsize
    character(len=MPI_MAX_ERROR_STRING) :: message

    errs = 0
    call MPI_Init(ierr)
    call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
    call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)

    call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)
    call MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN, ierr)
    call MPI_Send(buf, 1, MPI_INTEGER, nprocs, 0, MPI_COMM_WORLD, ierr)
    call MPI_Error_class(ierr, class, ierr)
    if (class /= MPI_ERR_RANK) call fail('bad rank class')
    call MPI_Send(buf, -1, MPI_INTEGER, 0, 0, MPI_COMM_WORLD, ierr)
    call MPI_Error_class(ierr, class, ierr)
    if (class /= MPI_ERR_COUNT) call fail('bad count class')
    call MPI_Send(buf, 1, MPI_INTEGER, 0, 0, 123456, ierr)   ! no such communicator
    call MPI_Error_class(ierr, class, ierr)
    if (class /= MPI_ERR_COMM) call fail('bad communicator class')
    call MPI_Send(buf, 1, 98765, 0, 0, MPI_COMM_WORLD, ierr)  ! no such datatype
    call MPI_Error_class(ierr, class, ierr)
    if (class /= MPI_ERR_TYPE) call fail('bad datatype class')

    ! A Fortran handler on a duplicate of MPI_COMM_WORLD.
    call MPI_Comm_dup(MPI_COMM_WORLD, dup, ierr)
    call MPI_Comm_create_errhandler(record_error, eh, ierr)
    call MPI_Comm_set_errhandler(dup, eh, ierr)
    call MPI_Errhandler_free(eh, ierr)
    if (eh /= MPI_ERRHANDLER_NULL) call fail('errhandler free')
    call MPI_Recv(buf, 1, MPI_INTEGER, -7, 0, dup, MPI_STATUS_IGNORE, ierr)
    call MPI_Error_class(last_code, class, ierr)
    if (calls /= 1 .or. last_handle /= dup .or. class /= MPI_ERR_RANK) &
        call fail('Fortran handler on an error')
    call MPI_Comm_call_errhandler(dup, MPI_ERR_OTHER, ierr)
    if (calls /= 2 .or. last_handle /= dup .or. last_code /= MPI_ERR_OTHER) &
        call fail('MPI_COMM_CALL_ERRHANDLER')
    call MPI_Comm_free(dup, ierr)

    ! A Fortran handler on a window.
    winsize = 16
    call MPI_Win_create(buf, winsize, 4, MPI_INFO_NULL, MPI_COMM_WORLD, win, ierr)
    call MPI_Win_create_errhandler(record_error, eh, ierr)
    call MPI_Win_set_errhandler(win, eh, ierr)
    call MPI_Win_call_errhandler(win, MPI_ERR_WIN, ierr)
    if (calls /= 3 .or. last_handle /= win .or. last_code /= MPI_ERR_WIN) &
        call fail('window handler')
    call MPI_Errhandler_free(eh, ierr)
    call MPI_Win_free(win, ierr)

    ! A user class and code with a string (trailing blanks trimmed on the way in).
    call MPI_Add_error_class(newclass, ierr)
    call MPI_Add_error_code(newclass, newcode, ierr)
    call MPI_Add_error_string(newcode, 'fortran error   ', ierr)
    call MPI_Error_string(newcode, message, length, ierr)
    if (message /= 'fortran error' .or. length /= 13) call fail('user error string')
    call MPI_Error_class(newcode, class, ierr)
    if (class /= newclass) call fail('user error class')

    call MPI_Allreduce(MPI_IN_PLACE, errs, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
    if (rank == 0 .and. errs == 0) print '(a)', 'No Errors'
    call MPI_Finalize(ierr)
    if (errs /= 0) stop 1
contains
    subroutine fail(what)
        character(len=*), intent(in) :: what
        print '(a,i0,2a)', 'rank ', rank, ' FAILED: ', what
        errs = errs + 1
    end subroutine fail
end program errors
