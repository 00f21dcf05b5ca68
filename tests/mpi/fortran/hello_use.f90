! hello_use.f90 - `use mpi`: initialisation, ranks, predefined handles with the ABI's integer
! values, LOGICAL results, strings out (processor name, error string, communicator name, blank
! padded) and in (trailing blanks trimmed), MPI_WTIME, an MPI_IN_PLACE allreduce, MPI_SIZEOF.
program hello_use
    use mpi
    implicit none
    integer :: ierr, rank, size, total, length, errs, class
    logical :: flag
    character(len=MPI_MAX_PROCESSOR_NAME) :: host
    character(len=MPI_MAX_ERROR_STRING) :: message
    character(len=MPI_MAX_OBJECT_NAME) :: name
    character(len=MPI_MAX_LIBRARY_VERSION_STRING) :: version
    double precision :: t0, t1, darray(3)
    complex(kind=8) :: zvalue

    errs = 0
    call MPI_Initialized(flag, ierr)
    if (flag) call fail('initialized before MPI_Init')
    call MPI_Init(ierr)
    if (ierr /= MPI_SUCCESS) call fail('MPI_Init ierror')
    call MPI_Initialized(flag, ierr)
    if (.not. flag) call fail('not initialized after MPI_Init')
    call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
    call MPI_Comm_size(MPI_COMM_WORLD, size, ierr)

    ! Under nodempi, handles are the MPI-5.0 ABI integers and kinds are 8 bytes.
    call MPI_Get_library_version(version, length, ierr)
    if (length <= 0) call fail('library version')
    if (version(1:7) == 'nodempi') then
        if (MPI_COMM_WORLD /= 257 .or. MPI_INTEGER /= 537) call fail('handle values')
        if (MPI_ADDRESS_KIND /= 8 .or. MPI_STATUS_SIZE /= 8) call fail('kinds')
    end if

    total = rank
    call MPI_Allreduce(MPI_IN_PLACE, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
    if (total /= size * (size - 1) / 2) call fail('allreduce in place')

    call MPI_Get_processor_name(host, length, ierr)
    if (length <= 0 .or. len_trim(host) /= length) call fail('processor name')

    call MPI_Error_string(MPI_ERR_COMM, message, length, ierr)
    if (ierr /= MPI_SUCCESS .or. length <= 0 .or. len_trim(message) /= length) &
        call fail('error string')
    call MPI_Error_class(MPI_ERR_TRUNCATE, class, ierr)
    if (class /= MPI_ERR_TRUNCATE) call fail('error class')

    ! MPI_SIZEOF (module only): the size of one element, scalar or array argument.
    call MPI_Sizeof(total, length, ierr)
    if (length /= 4 .or. ierr /= MPI_SUCCESS) call fail('MPI_SIZEOF integer')
    call MPI_Sizeof(darray, length, ierr)
    if (length /= 8) call fail('MPI_SIZEOF double precision array')
    call MPI_Sizeof(zvalue, length, ierr)
    if (length /= 16) call fail('MPI_SIZEOF complex(8)')
    call MPI_Sizeof(name, length, ierr)
    if (length /= 1) call fail('MPI_SIZEOF character')

    call MPI_Comm_set_name(MPI_COMM_WORLD, 'fortran world   ', ierr)
    call MPI_Comm_get_name(MPI_COMM_WORLD, name, length, ierr)
    if (name /= 'fortran world' .or. length /= 13) call fail('communicator name')

    t0 = MPI_Wtime()
    t1 = MPI_Wtime()
    if (t1 < t0) call fail('wtime')
    t0 = MPI_Wtick()
    if (t0 <= 0d0) call fail('wtick')

    call MPI_Allreduce(MPI_IN_PLACE, errs, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
    if (rank == 0 .and. errs == 0) print '(a,i0,a)', 'hello from ', size, ' ranks: No Errors'
    call MPI_Finalize(ierr)
    call MPI_Finalized(flag, ierr)
    if (.not. flag) call fail('not finalized')
    if (errs /= 0) stop 1
contains
    subroutine fail(what)
        character(len=*), intent(in) :: what
        print '(a,i0,2a)', 'rank ', rank, ' FAILED: ', what
        errs = errs + 1
    end subroutine fail
end program hello_use
