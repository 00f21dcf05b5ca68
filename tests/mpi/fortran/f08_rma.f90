! f08_rma.f90 - one-sided communication through `use mpi_f08`: MPI_Win_create over an
! ASYNCHRONOUS array with fence epochs of put, get and accumulate; passive target
! lock/put/flush/get/unlock; MPI_Win_allocate returning a TYPE(C_PTR) used through
! C_F_POINTER (and MPI_Alloc_mem's); fetch_and_op and compare_and_swap; TYPE(MPI_Win) comparison and MPI_Win_free.
program f08_rma
    use mpi_f08
    use, intrinsic :: iso_c_binding, only: c_ptr, c_f_pointer
    implicit none
    integer, parameter :: n = 8
    integer :: rank, nprocs, errs, right, left, i, disp_unit
    integer, asynchronous :: window(n), origin(n), fetched(n)
    integer, pointer :: allocated(:)
    integer :: one, old, compare, result
    type(MPI_Win) :: win, win2
    type(c_ptr) :: base
    integer(kind=MPI_ADDRESS_KIND) :: bytes, target
    logical :: flag

    errs = 0
    call MPI_Init()
    call MPI_Comm_rank(MPI_COMM_WORLD, rank)
    call MPI_Comm_size(MPI_COMM_WORLD, nprocs)
    right = mod(rank + 1, nprocs)
    left = mod(rank + nprocs - 1, nprocs)

    ! Fence: put my values into the right neighbour's window at offset 2.
    window = -1
    bytes = 4 * n
    call MPI_Win_create(window, bytes, 4, MPI_INFO_NULL, MPI_COMM_WORLD, win)
    if (win == MPI_WIN_NULL) call fail('win_create')
    origin = [(100 * rank + i, i = 1, n)]
    call MPI_Win_fence(0, win)
    target = 2
    call MPI_Put(origin, 3, MPI_INTEGER, right, target, 3, MPI_INTEGER, win)
    call MPI_Win_fence(0, win)
    if (any(window(3:5) /= [(100 * left + i, i = 1, 3)]) .or. window(1) /= -1) call fail('put')

    ! Get the left neighbour's whole window, then accumulate one into everyone's slot 1.
    fetched = 0
    call MPI_Get(fetched, n, MPI_INTEGER, left, 0_MPI_ADDRESS_KIND, n, MPI_INTEGER, win)
    call MPI_Win_fence(0, win)
    if (fetched(4) /= 100 * mod(left + nprocs - 1, nprocs) + 2) call fail('get')
    window(1) = 0
    call MPI_Win_fence(0, win)
    one = 1
    do i = 0, nprocs - 1
        call MPI_Accumulate(one, 1, MPI_INTEGER, i, 0_MPI_ADDRESS_KIND, 1, MPI_INTEGER, &
                            MPI_SUM, win)
    end do
    call MPI_Win_fence(0, win)
    if (window(1) /= nprocs) call fail('accumulate')
    call MPI_Barrier(MPI_COMM_WORLD)

    ! Passive target: write slot 8 of the right neighbour, flush, read it back.
    origin(1) = 1000 + rank
    call MPI_Win_lock(MPI_LOCK_EXCLUSIVE, right, 0, win)
    call MPI_Put(origin, 1, MPI_INTEGER, right, 7_MPI_ADDRESS_KIND, 1, MPI_INTEGER, win)
    call MPI_Win_flush(right, win)
    call MPI_Get(fetched, 1, MPI_INTEGER, right, 7_MPI_ADDRESS_KIND, 1, MPI_INTEGER, win)
    call MPI_Win_unlock(right, win)
    if (fetched(1) /= 1000 + rank) call fail('lock/flush/get')
    call MPI_Barrier(MPI_COMM_WORLD)
    call MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win)
    if (window(8) /= 1000 + left) call fail('passive put landed')
    call MPI_Win_unlock(rank, win)
    call MPI_Win_free(win)
    if (win /= MPI_WIN_NULL) call fail('win_free')

    ! MPI_Win_allocate: the memory comes back as a TYPE(C_PTR).
    call MPI_Win_allocate(4_MPI_ADDRESS_KIND * n, 4, MPI_INFO_NULL, MPI_COMM_WORLD, base, win2)
    call c_f_pointer(base, allocated, [n])
    call MPI_Win_get_attr(win2, MPI_WIN_DISP_UNIT, target, flag)
    disp_unit = int(target)
    if (.not. flag .or. disp_unit /= 4) call fail('MPI_WIN_DISP_UNIT')
    call MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win2)
    allocated = 0
    call MPI_Win_unlock(rank, win2)
    call MPI_Barrier(MPI_COMM_WORLD)
    ! Everyone adds its rank+1 to rank 0's counter; compare_and_swap claims slot 2 once.
    call MPI_Win_lock_all(0, win2)
    one = rank + 1
    call MPI_Fetch_and_op(one, old, MPI_INTEGER, 0, 0_MPI_ADDRESS_KIND, MPI_SUM, win2)
    compare = 0
    call MPI_Compare_and_swap(one, compare, result, MPI_INTEGER, 0, 1_MPI_ADDRESS_KIND, win2)
    call MPI_Win_flush_all(win2)
    call MPI_Win_unlock_all(win2)
    if (old < 0 .or. old > nprocs * (nprocs + 1) / 2) call fail('fetch_and_op old value')
    call MPI_Barrier(MPI_COMM_WORLD)
    if (rank == 0) then
        call MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win2)
        if (allocated(1) /= nprocs * (nprocs + 1) / 2) call fail('fetch_and_op sum')
        if (allocated(2) < 1 .or. allocated(2) > nprocs) call fail('compare_and_swap')
        call MPI_Win_unlock(0, win2)
    end if
    call MPI_Win_free(win2)

    ! MPI_Alloc_mem returns a TYPE(C_PTR) too; MPI_Free_mem takes the array.
    call MPI_Alloc_mem(4_MPI_ADDRESS_KIND * n, MPI_INFO_NULL, base)
    call c_f_pointer(base, allocated, [n])
    allocated = [(i, i = 1, n)]
    call MPI_Allreduce(MPI_IN_PLACE, allocated, n, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
    if (any(allocated /= [(i * nprocs, i = 1, n)])) call fail('alloc_mem memory')
    call MPI_Free_mem(allocated)

    call MPI_Allreduce(MPI_IN_PLACE, errs, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
    if (rank == 0 .and. errs == 0) print '(a)', 'No Errors'
    call MPI_Finalize()
    if (errs /= 0) stop 1
contains
    subroutine fail(what)
        character(len=*), intent(in) :: what
        print '(a,i0,2a)', 'rank ', rank, ' FAILED: ', what
        errs = errs + 1
    end subroutine fail
end program f08_rma
