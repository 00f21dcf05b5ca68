! grequest.f90 - a generalized request whose query, free and cancel routines are Fortran
! subroutines (MPI_GREQUEST_START): the query routine fills the status MPI_WAIT returns, the
! free routine runs once, both see the INTEGER(KIND=MPI_ADDRESS_KIND) extra state; and
! MPI_NEIGHBOR_ALLTOALLW on a periodic ring with per-neighbour datatypes.
module grequest_callbacks
    use mpi
    implicit none
    integer :: frees = 0, cancels = 0
contains
    subroutine query_fn(extra_state, status, ierror)
        integer(kind=MPI_ADDRESS_KIND) :: extra_state
        integer :: status(MPI_STATUS_SIZE), ierror
        status(MPI_SOURCE) = MPI_UNDEFINED
        status(MPI_TAG) = int(extra_state)
        status(MPI_ERROR) = MPI_SUCCESS
        call MPI_Status_set_elements(status, MPI_INTEGER, 3, ierror)
        call MPI_Status_set_cancelled(status, .false., ierror)
    end subroutine query_fn

    subroutine free_fn(extra_state, ierror)
        integer(kind=MPI_ADDRESS_KIND) :: extra_state
        integer :: ierror
        if (extra_state == 77) frees = frees + 1
        ierror = MPI_SUCCESS
    end subroutine free_fn

    subroutine cancel_fn(extra_state, complete, ierror)
        integer(kind=MPI_ADDRESS_KIND) :: extra_state
        logical :: complete
        integer :: ierror
        if (extra_state == 77 .and. .not. complete) cancels = cancels + 1
        ierror = MPI_SUCCESS
    end subroutine cancel_fn
end module grequest_callbacks

program grequest
    use mpi
    use grequest_callbacks
    implicit none
    integer :: ierr, rank, nprocs, errs, request, count, ring, left, right
    integer :: status(MPI_STATUS_SIZE), sendcounts(2), recvcounts(2), types(2)
    integer :: sbuf(2), rbuf(2)
    integer(kind=MPI_ADDRESS_KIND) :: extra, displs(2)
    logical :: flag

    errs = 0
    call MPI_Init(ierr)
    call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
    call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)

    extra = 77
    call MPI_Grequest_start(query_fn, free_fn, cancel_fn, extra, request, ierr)
    call MPI_Test(request, flag, status, ierr)
    if (flag) call fail('complete before MPI_GREQUEST_COMPLETE')
    call MPI_Cancel(request, ierr)
    if (cancels /= 1) call fail('cancel routine')
    call MPI_Grequest_complete(request, ierr)
    call MPI_Wait(request, status, ierr)
    call MPI_Get_count(status, MPI_INTEGER, count, ierr)
    if (request /= MPI_REQUEST_NULL .or. status(MPI_TAG) /= 77 .or. count /= 3) &
        call fail('query routine status')
    if (frees /= 1) call fail('free routine')

    ! A periodic ring: send my rank to both neighbours (-1 then +1 direction).
    call MPI_Cart_create(MPI_COMM_WORLD, 1, [nprocs], [.true.], .false., ring, ierr)
    call MPI_Cart_shift(ring, 0, 1, left, right, ierr)
    sbuf = [rank, -rank]
    sendcounts = 1
    recvcounts = 1
    displs = [0_MPI_ADDRESS_KIND, 4_MPI_ADDRESS_KIND]
    types = MPI_INTEGER
    rbuf = -99
    call MPI_Neighbor_alltoallw(sbuf, sendcounts, displs, types, rbuf, recvcounts, displs, &
                                types, ring, ierr)
    ! From the left neighbour its +1 message (-left), from the right its -1 message (right).
    if (rbuf(1) /= -left .or. rbuf(2) /= right) call fail('neighbor_alltoallw')
    call MPI_Comm_free(ring, ierr)

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
end program grequest
