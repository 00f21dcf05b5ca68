! rma.f90 - one-sided communication from Fortran: MPI_WIN_CREATE with an INTEGER(KIND=
! MPI_ADDRESS_KIND) size, fence epochs with MPI_PUT, MPI_GET and MPI_ACCUMULATE, the window
! attributes as Fortran numbers (MPI_WIN_SIZE, MPI_WIN_DISP_UNIT, MPI_WIN_BASE), and passive
! target MPI_WIN_LOCK / MPI_FETCH_AND_OP.
program rma
    use mpi
    implicit none
    integer :: ierr, rank, nprocs, errs, win, right, left
    integer :: fetched(2), one, old
    ! RMA changes local behind the compiler's back (MPI-4.1 19.1.17: VOLATILE or MPI_F_SYNC_REG).
    integer, volatile :: local(8)
    integer(kind=MPI_ADDRESS_KIND) :: winsize, disp, value, address
    logical :: flag

    errs = 0
    call MPI_Init(ierr)
    call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
    call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
    right = mod(rank + 1, nprocs)
    left = mod(rank + nprocs - 1, nprocs)

    local = -1
    winsize = 8 * 4
    call MPI_Win_create(local, winsize, 4, MPI_INFO_NULL, MPI_COMM_WORLD, win, ierr)
    call MPI_Win_get_attr(win, MPI_WIN_SIZE, value, flag, ierr)
    if (.not. flag .or. value /= winsize) call fail('MPI_WIN_SIZE')
    call MPI_Win_get_attr(win, MPI_WIN_DISP_UNIT, value, flag, ierr)
    if (.not. flag .or. value /= 4) call fail('MPI_WIN_DISP_UNIT')
    call MPI_Win_get_attr(win, MPI_WIN_BASE, value, flag, ierr)
    call MPI_Get_address(local, address, ierr)
    if (.not. flag .or. value /= address) call fail('MPI_WIN_BASE')

    ! Put my rank into slots 1-2 of the right neighbour.
    call MPI_Win_fence(0, win, ierr)
    disp = 0
    call MPI_Put([rank, rank], 2, MPI_INTEGER, right, disp, 2, MPI_INTEGER, win, ierr)
    call MPI_Win_fence(0, win, ierr)
    if (any(local(1:2) /= left)) call fail('put')

    ! Get slots 1-2 of the left neighbour (which hold its left neighbour's rank).
    call MPI_Get(fetched, 2, MPI_INTEGER, left, disp, 2, MPI_INTEGER, win, ierr)
    call MPI_Win_fence(0, win, ierr)
    if (any(fetched /= mod(left + nprocs - 1, nprocs))) call fail('get')

    ! Everyone adds rank+1 into slot 5 of rank 0.
    if (rank == 0) local(5) = 0
    call MPI_Win_fence(0, win, ierr)
    disp = 4
    call MPI_Accumulate(rank + 1, 1, MPI_INTEGER, 0, disp, 1, MPI_INTEGER, MPI_SUM, win, ierr)
    call MPI_Win_fence(0, win, ierr)
    if (rank == 0 .and. local(5) /= nprocs * (nprocs + 1) / 2) call fail('accumulate')

    ! Passive target: fetch-and-add on slot 8 of rank 0.
    if (rank == 0) local(8) = 0
    call MPI_Win_fence(0, win, ierr)
    one = 1
    disp = 7
    call MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win, ierr)
    call MPI_Fetch_and_op(one, old, MPI_INTEGER, 0, disp, MPI_SUM, win, ierr)
    call MPI_Win_unlock(0, win, ierr)
    if (old < 0 .or. old >= nprocs) call fail('fetch_and_op result')
    call MPI_Win_fence(0, win, ierr)
    if (rank == 0 .and. local(8) /= nprocs) call fail('fetch_and_op total')

    call MPI_Win_free(win, ierr)
    if (win /= MPI_WIN_NULL) call fail('win free')

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
end program rma
