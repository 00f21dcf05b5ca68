! f08_coll.f90 - collectives through `use mpi_f08`: bcast, reduce, allreduce (and with
! MPI_IN_PLACE), gather(v), scatter(v), allgather(v), alltoall(v,w), reduce_scatter(_block),
! scan, exscan, barrier, a large-count allreduce, the nonblocking ibarrier/ibcast/iallreduce/ialltoall/igather, and a
! user reduction (not commutative) written against the f08 MPI_User_function interface (TYPE(C_PTR) buffers).
module f08_coll_ops
    use mpi_f08
    use, intrinsic :: iso_c_binding, only: c_ptr, c_f_pointer
    implicit none
contains
    ! Digit strings as pairs (value, 10**digits): (x1, n1) . (x2, n2) = (x1 * n2 + x2, n1 * n2)
    ! appends the second to the first: associative, not commutative, so rank order shows.
    subroutine append_digits(invec, inoutvec, len, datatype)
        type(c_ptr), value :: invec, inoutvec
        integer :: len
        type(MPI_Datatype) :: datatype
        integer, pointer :: a(:, :), b(:, :)
        if (datatype /= MPI_2INTEGER) stop 'append_digits: datatype'
        call c_f_pointer(invec, a, [2, len])
        call c_f_pointer(inoutvec, b, [2, len])
        b(1, :) = a(1, :) * b(2, :) + b(1, :)
        b(2, :) = a(2, :) * b(2, :)
    end subroutine append_digits
end module f08_coll_ops

program f08_coll
    use mpi_f08
    use f08_coll_ops
    implicit none
    integer :: rank, nprocs, errs, i, j, ierr, expect
    integer, allocatable :: sendbuf(:), recvbuf(:), counts(:), displs(:), rcounts(:), rdispls(:)
    integer, asynchronous, allocatable :: abuf(:), bbuf(:)
    type(MPI_Datatype), allocatable :: types(:)
    integer :: value, total, pair(2)
    double precision :: dsum(3)
    type(MPI_Op) :: op
    type(MPI_Request) :: req, reqs(3)
    logical :: commute

    errs = 0
    call MPI_Init(ierr)
    call MPI_Comm_rank(MPI_COMM_WORLD, rank)
    call MPI_Comm_size(MPI_COMM_WORLD, nprocs)
    allocate(sendbuf(nprocs * 2), recvbuf(nprocs * 2), counts(nprocs), displs(nprocs))
    allocate(rcounts(nprocs), rdispls(nprocs), types(nprocs), abuf(nprocs), bbuf(nprocs))

    ! Bcast and reduce / allreduce.
    value = 0
    if (rank == nprocs - 1) value = 42
    call MPI_Bcast(value, 1, MPI_INTEGER, nprocs - 1, MPI_COMM_WORLD)
    if (value /= 42) call fail('bcast')
    total = -1
    call MPI_Reduce(rank + 1, total, 1, MPI_INTEGER, MPI_SUM, 0, MPI_COMM_WORLD)
    if (rank == 0 .and. total /= nprocs * (nprocs + 1) / 2) call fail('reduce')
    dsum = [1d0, dble(rank), 0.5d0]
    call MPI_Allreduce(MPI_IN_PLACE, dsum, 3, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD)
    if (abs(dsum(1) - nprocs) > 1d-12 .or. abs(dsum(2) - nprocs * (nprocs - 1) / 2d0) > 1d-12) &
        call fail('allreduce in place')
    call MPI_Allreduce(rank, value, 1, MPI_INTEGER, MPI_MAX, MPI_COMM_WORLD)
    if (value /= nprocs - 1) call fail('allreduce max')
    value = -1
    call MPI_Allreduce(rank, value, 1_MPI_COUNT_KIND, MPI_INTEGER, MPI_MIN, MPI_COMM_WORLD)
    if (value /= 0) call fail('large-count allreduce')

    ! Gather / scatter and their v forms (rank i contributes i+1 elements).
    call MPI_Gather(rank * 2, 1, MPI_INTEGER, recvbuf, 1, MPI_INTEGER, 0, MPI_COMM_WORLD)
    if (rank == 0 .and. any(recvbuf(1:nprocs) /= [(2 * i, i = 0, nprocs - 1)])) call fail('gather')
    counts = [(i, i = 1, nprocs)]
    displs = [(i * (i - 1) / 2, i = 1, nprocs)]
    sendbuf = rank
    deallocate(recvbuf)
    allocate(recvbuf(nprocs * (nprocs + 1) / 2))
    recvbuf = -1
    call MPI_Gatherv(sendbuf, rank + 1, MPI_INTEGER, recvbuf, counts, displs, MPI_INTEGER, 0, &
                     MPI_COMM_WORLD)
    if (rank == 0) then
        do i = 1, nprocs
            if (any(recvbuf(displs(i) + 1:displs(i) + i) /= i - 1)) call fail('gatherv')
        end do
    end if
    if (rank == 0) recvbuf = [((i, j = 1, i), i = 1, nprocs)]
    sendbuf = 0
    call MPI_Scatterv(recvbuf, counts, displs, MPI_INTEGER, sendbuf, rank + 1, MPI_INTEGER, 0, &
                      MPI_COMM_WORLD)
    if (any(sendbuf(1:rank + 1) /= rank + 1)) call fail('scatterv')
    call MPI_Scatter([(10 * i, i = 1, nprocs)], 1, MPI_INTEGER, value, 1, MPI_INTEGER, 0, &
                     MPI_COMM_WORLD)
    if (value /= 10 * (rank + 1)) call fail('scatter')

    ! Allgather (in place too) and allgatherv.
    deallocate(recvbuf)
    allocate(recvbuf(nprocs * (nprocs + 1) / 2))
    call MPI_Allgather(rank, 1, MPI_INTEGER, recvbuf, 1, MPI_INTEGER, MPI_COMM_WORLD)
    if (any(recvbuf(1:nprocs) /= [(i, i = 0, nprocs - 1)])) call fail('allgather')
    recvbuf = -1
    recvbuf(rank + 1) = rank * 3
    call MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, recvbuf, 1, MPI_INTEGER, &
                       MPI_COMM_WORLD)
    if (any(recvbuf(1:nprocs) /= [(3 * i, i = 0, nprocs - 1)])) call fail('allgather in place')
    sendbuf = rank
    call MPI_Allgatherv(sendbuf, rank + 1, MPI_INTEGER, recvbuf, counts, displs, MPI_INTEGER, &
                        MPI_COMM_WORLD)
    if (any(recvbuf /= [((i - 1, j = 1, i), i = 1, nprocs)])) call fail('allgatherv')

    ! Alltoall: element j goes to rank j-1 carrying 100*rank + j-1.
    sendbuf(1:nprocs) = [(100 * rank + i, i = 0, nprocs - 1)]
    call MPI_Alltoall(sendbuf, 1, MPI_INTEGER, recvbuf, 1, MPI_INTEGER, MPI_COMM_WORLD)
    if (any(recvbuf(1:nprocs) /= [(100 * i + rank, i = 0, nprocs - 1)])) call fail('alltoall')
    counts = 1
    displs = [(i, i = 0, nprocs - 1)]
    rdispls = [(nprocs - 1 - i, i = 0, nprocs - 1)]   ! reversed placement
    call MPI_Alltoallv(sendbuf, counts, displs, MPI_INTEGER, recvbuf, counts, rdispls, &
                       MPI_INTEGER, MPI_COMM_WORLD)
    if (any(recvbuf(1:nprocs) /= [(100 * i + rank, i = nprocs - 1, 0, -1)])) call fail('alltoallv')
    types = MPI_INTEGER
    displs = [(4 * i, i = 0, nprocs - 1)]     ! bytes for alltoallw
    call MPI_Alltoallw(sendbuf, counts, displs, types, recvbuf, counts, displs, types, &
                       MPI_COMM_WORLD)
    if (any(recvbuf(1:nprocs) /= [(100 * i + rank, i = 0, nprocs - 1)])) call fail('alltoallw')

    ! Reduce_scatter(_block), scan, exscan.
    sendbuf(1:nprocs) = [(rank + i, i = 0, nprocs - 1)]
    call MPI_Reduce_scatter_block(sendbuf, value, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
    if (value /= nprocs * (nprocs - 1) / 2 + nprocs * rank) call fail('reduce_scatter_block')
    counts = 1
    call MPI_Reduce_scatter(sendbuf, value, counts, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
    if (value /= nprocs * (nprocs - 1) / 2 + nprocs * rank) call fail('reduce_scatter')
    call MPI_Scan(rank + 1, value, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
    if (value /= (rank + 1) * (rank + 2) / 2) call fail('scan')
    value = -5
    call MPI_Exscan(rank + 1, value, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
    if (rank > 0 .and. value /= rank * (rank + 1) / 2) call fail('exscan')
    call MPI_Barrier(MPI_COMM_WORLD)

    ! User operator, not commutative: rank order is kept (value = sum of rank * 10**(n-1-rank)).
    call MPI_Op_create(append_digits, .false., op)
    call MPI_Op_commutative(op, commute)
    if (commute) call fail('op_commutative')
    call MPI_Allreduce([rank + 1, 10], pair, 1, MPI_2INTEGER, op, MPI_COMM_WORLD)
    expect = 0
    do i = 1, nprocs
        expect = expect * 10 + i
    end do
    if (pair(1) /= expect .or. pair(2) /= 10**nprocs) call fail('user op')
    call MPI_Op_free(op)
    if (op /= MPI_OP_NULL) call fail('op_free')

    ! Nonblocking collectives with ASYNCHRONOUS buffers.
    call MPI_Ibarrier(MPI_COMM_WORLD, req)
    call MPI_Wait(req, MPI_STATUS_IGNORE)
    abuf = 0
    if (rank == 0) abuf = [(i * 7, i = 1, nprocs)]
    call MPI_Ibcast(abuf, nprocs, MPI_INTEGER, 0, MPI_COMM_WORLD, reqs(1))
    call MPI_Wait(reqs(1), MPI_STATUS_IGNORE)
    if (any(abuf /= [(i * 7, i = 1, nprocs)])) call fail('ibcast')
    abuf = rank
    call MPI_Iallreduce(MPI_IN_PLACE, abuf, nprocs, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, reqs(1))
    call MPI_Wait(reqs(1), MPI_STATUS_IGNORE)
    if (any(abuf /= nprocs * (nprocs - 1) / 2)) call fail('iallreduce in place')
    abuf = [(100 * rank + i, i = 0, nprocs - 1)]
    call MPI_Ialltoall(abuf, 1, MPI_INTEGER, bbuf, 1, MPI_INTEGER, MPI_COMM_WORLD, reqs(1))
    call MPI_Waitall(1, reqs, MPI_STATUSES_IGNORE)
    if (any(bbuf /= [(100 * i + rank, i = 0, nprocs - 1)])) call fail('ialltoall')
    abuf(1) = rank * 5
    bbuf = -1
    call MPI_Igather(abuf, 1, MPI_INTEGER, bbuf, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, reqs(2))
    call MPI_Wait(reqs(2), MPI_STATUS_IGNORE)
    if (rank == 0 .and. any(bbuf /= [(5 * i, i = 0, nprocs - 1)])) call fail('igather')

    deallocate(sendbuf, recvbuf, counts, displs, rcounts, rdispls, types, abuf, bbuf)
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
end program f08_coll
