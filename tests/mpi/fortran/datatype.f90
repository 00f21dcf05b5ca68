! datatype.f90 - derived datatypes from Fortran: a vector (a column of a 2-D array is
! contiguous, a row is strided), MPI_TYPE_CREATE_STRUCT with INTEGER(KIND=MPI_ADDRESS_KIND)
! displacements from MPI_GET_ADDRESS (and MPI_BOTTOM as the buffer), MPI_TYPE_CREATE_SUBARRAY
! in Fortran order, extents, sizes, envelopes and contents (datatype handles returned).
program datatype
    use mpi
    implicit none
    integer :: ierr, rank, nprocs, errs, row, rec_type, sub, i, j
    integer :: peer, size, ni, na, nd, combiner
    integer :: grid(4, 5), got(5), blocklens(2), types(2), ints(4), dtypes(2)
    integer(kind=MPI_ADDRESS_KIND) :: displs(2), base, lb, extent, addrs(2)
    integer :: status(MPI_STATUS_SIZE)
    integer :: sub_data(6, 6), sub_recv(3, 2)
    type record
        sequence
        integer :: id
        double precision :: value
    end type record
    ! MPI_RECV at MPI_BOTTOM changes rec without naming it: VOLATILE keeps the compiler honest.
    type(record), volatile :: rec

    errs = 0
    call MPI_Init(ierr)
    call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
    call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
    peer = 1 - rank

    ! Row 2 of grid(4,5): 5 integers, stride 4.
    call MPI_Type_vector(5, 1, 4, MPI_INTEGER, row, ierr)
    call MPI_Type_commit(row, ierr)
    call MPI_Type_size(row, size, ierr)
    call MPI_Type_get_extent(row, lb, extent, ierr)
    if (size /= 20 .or. extent /= 4 * (4 * 4 + 1) .or. lb /= 0) call fail('vector size/extent')
    grid = reshape([(i, i = 1, 20)], [4, 5])
    if (rank == 0) then
        call MPI_Send(grid(2, 1), 1, row, peer, 1, MPI_COMM_WORLD, ierr)
    else if (rank == 1) then
        call MPI_Recv(got, 5, MPI_INTEGER, peer, 1, MPI_COMM_WORLD, status, ierr)
        if (any(got /= grid(2, :))) call fail('vector row')
    end if

    ! A struct built from addresses, sent relative to MPI_BOTTOM.
    call MPI_Get_address(rec%id, displs(1), ierr)
    call MPI_Get_address(rec%value, displs(2), ierr)
    blocklens = 1
    types = [MPI_INTEGER, MPI_DOUBLE_PRECISION]
    call MPI_Type_create_struct(2, blocklens, displs, types, rec_type, ierr)
    call MPI_Type_commit(rec_type, ierr)
    call MPI_Type_get_envelope(rec_type, ni, na, nd, combiner, ierr)
    if (combiner /= MPI_COMBINER_STRUCT .or. ni /= 3 .or. na /= 2 .or. nd /= 2) &
        call fail('struct envelope')
    call MPI_Type_get_contents(rec_type, 4, 2, 2, ints, addrs, dtypes, ierr)
    if (any(dtypes /= types) .or. any(addrs /= displs)) call fail('struct contents')
    if (rank == 0) then
        rec = record(42, 2.5d0)
        call MPI_Send(MPI_BOTTOM, 1, rec_type, peer, 2, MPI_COMM_WORLD, ierr)
    else if (rank == 1) then
        rec = record(0, 0d0)
        call MPI_Recv(MPI_BOTTOM, 1, rec_type, peer, 2, MPI_COMM_WORLD, status, ierr)
        if (rec%id /= 42 .or. abs(rec%value - 2.5d0) > 0d0) call fail('struct at MPI_BOTTOM')
    end if
    call MPI_Get_address(rec, base, ierr)
    if (MPI_Aint_diff(displs(2), base) /= 8) call fail('MPI_AINT_DIFF')

    ! Subarray: rows 2-4, columns 3-4 of a 6x6 array, Fortran order, 0-based starts.
    call MPI_Type_create_subarray(2, [6, 6], [3, 2], [1, 2], MPI_ORDER_FORTRAN, MPI_INTEGER, &
                                  sub, ierr)
    call MPI_Type_commit(sub, ierr)
    sub_data = reshape([(i, i = 1, 36)], [6, 6])
    if (rank == 0) then
        call MPI_Send(sub_data, 1, sub, peer, 3, MPI_COMM_WORLD, ierr)
    else if (rank == 1) then
        call MPI_Recv(sub_recv, 6, MPI_INTEGER, peer, 3, MPI_COMM_WORLD, status, ierr)
        do j = 1, 2
            do i = 1, 3
                if (sub_recv(i, j) /= sub_data(i + 1, j + 2)) call fail('subarray')
            end do
        end do
    end if

    call MPI_Type_free(row, ierr)
    call MPI_Type_free(rec_type, ierr)
    call MPI_Type_free(sub, ierr)
    if (sub /= MPI_DATATYPE_NULL) call fail('type free')

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
end program datatype
