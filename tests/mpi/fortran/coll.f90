! coll.f90 - collectives from Fortran: broadcast, reduce and allreduce (MPI_IN_PLACE), a user
! operator written in Fortran (MPI_OP_CREATE) on INTEGER and on a derived type whose handle
! the operator receives, MPI_LAND on LOGICAL, gather/scatter/allgather/alltoall and their v
! forms, MPI_ALLTOALLW with datatype arrays, scan, a nonblocking allreduce and barrier.
module coll_ops
    implicit none
    integer :: pair_type = -1
contains
    ! inout = in * inout elementwise, for MPI_INTEGER or pairs of integers (pair_type).
    subroutine product_op(invec, inoutvec, len, datatype)
        use mpi
        integer, intent(in) :: len, datatype
        integer, intent(in) :: invec(*)
        integer, intent(inout) :: inoutvec(*)
        integer :: n
        n = len
        if (datatype == pair_type) then
            n = 2 * len
        else if (datatype /= MPI_INTEGER) then
            call MPI_Abort(MPI_COMM_WORLD, 3, n)
        end if
        inoutvec(1:n) = invec(1:n) * inoutvec(1:n)
    end subroutine product_op
end module coll_ops

program coll
    use mpi
    use coll_ops
    implicit none
    integer :: ierr, rank, nprocs, i, errs, op, root, request, expected
    integer, allocatable :: sbuf(:), rbuf(:), counts(:), displs(:), types(:)
    integer :: value, pairs(2, 3)
    logical :: mine, all
    double precision :: dsum

    errs = 0
    call MPI_Init(ierr)
    call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
    call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
    allocate(sbuf(4 * nprocs), rbuf(4 * nprocs), counts(nprocs), displs(nprocs), types(nprocs))

    root = nprocs - 1
    value = 0
    if (rank == root) value = 77
    call MPI_Bcast(value, 1, MPI_INTEGER, root, MPI_COMM_WORLD, ierr)
    if (value /= 77) call fail('bcast')

    dsum = rank + 0.5d0
    call MPI_Allreduce(MPI_IN_PLACE, dsum, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
    if (abs(dsum - (nprocs * (nprocs - 1) / 2 + 0.5d0 * nprocs)) > 1d-9) call fail('allreduce')

    ! MPI_IN_PLACE at the root of a reduce.
    value = rank + 1
    if (rank == 0) then
        call MPI_Reduce(MPI_IN_PLACE, value, 1, MPI_INTEGER, MPI_MAX, 0, MPI_COMM_WORLD, ierr)
        if (value /= nprocs) call fail('reduce in place')
    else
        call MPI_Reduce(value, value, 1, MPI_INTEGER, MPI_MAX, 0, MPI_COMM_WORLD, ierr)
    end if

    ! A Fortran operator, on INTEGER and on a contiguous pair type.
    call MPI_Op_create(product_op, .true., op, ierr)
    value = rank + 2
    call MPI_Allreduce(MPI_IN_PLACE, value, 1, MPI_INTEGER, op, MPI_COMM_WORLD, ierr)
    expected = 1
    do i = 0, nprocs - 1
        expected = expected * (i + 2)
    end do
    if (value /= expected) call fail('user op on MPI_INTEGER')
    call MPI_Type_contiguous(2, MPI_INTEGER, pair_type, ierr)
    call MPI_Type_commit(pair_type, ierr)
    pairs = 2
    pairs(:, 2) = -1
    call MPI_Allreduce(MPI_IN_PLACE, pairs, 3, pair_type, op, MPI_COMM_WORLD, ierr)
    if (any(pairs(:, 1) /= 2**nprocs) .or. any(pairs(:, 2) /= (-1)**nprocs)) &
        call fail('user op on a derived type')
    call MPI_Type_free(pair_type, ierr)
    call MPI_Op_free(op, ierr)
    if (op /= MPI_OP_NULL) call fail('op free')

    mine = rank /= 1
    call MPI_Allreduce(mine, all, 1, MPI_LOGICAL, MPI_LAND, MPI_COMM_WORLD, ierr)
    if (all .neqv. (nprocs == 1)) call fail('MPI_LAND on LOGICAL')

    ! Gather / scatter / allgather / alltoall.
    sbuf(1) = rank * 3
    call MPI_Gather(sbuf, 1, MPI_INTEGER, rbuf, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
    if (rank == 0 .and. any(rbuf(1:nprocs) /= [(3 * i, i = 0, nprocs - 1)])) call fail('gather')
    rbuf(1:nprocs) = [(10 * i, i = 0, nprocs - 1)]
    call MPI_Scatter(rbuf, 1, MPI_INTEGER, value, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
    if (rank /= 0 .and. value /= 10 * rank) call fail('scatter')
    rbuf = -1
    rbuf(rank + 1) = rank * rank
    call MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, rbuf, 1, MPI_INTEGER, &
                       MPI_COMM_WORLD, ierr)
    if (any(rbuf(1:nprocs) /= [(i * i, i = 0, nprocs - 1)])) call fail('allgather in place')
    sbuf(1:nprocs) = [(100 * rank + i, i = 0, nprocs - 1)]
    call MPI_Alltoall(sbuf, 1, MPI_INTEGER, rbuf, 1, MPI_INTEGER, MPI_COMM_WORLD, ierr)
    if (any(rbuf(1:nprocs) /= [(100 * i + rank, i = 0, nprocs - 1)])) call fail('alltoall')

    ! Gatherv: rank i sends i+1 values.
    counts = [(i + 1, i = 0, nprocs - 1)]
    displs(1) = 0
    do i = 2, nprocs
        displs(i) = displs(i - 1) + counts(i - 1)
    end do
    sbuf(1:rank + 1) = rank
    call MPI_Gatherv(sbuf, rank + 1, MPI_INTEGER, rbuf, counts, displs, MPI_INTEGER, 0, &
                     MPI_COMM_WORLD, ierr)
    if (rank == 0) then
        do i = 0, nprocs - 1
            if (any(rbuf(displs(i + 1) + 1:displs(i + 1) + i + 1) /= i)) call fail('gatherv')
        end do
    end if

    ! Alltoallw with one INTEGER to and from everyone, datatypes given per peer.
    counts = 1
    displs = [(4 * i, i = 0, nprocs - 1)]
    types = MPI_INTEGER
    sbuf(1:nprocs) = [(1000 * rank + i, i = 0, nprocs - 1)]
    call MPI_Alltoallw(sbuf, counts, displs, types, rbuf, counts, displs, types, &
                       MPI_COMM_WORLD, ierr)
    if (any(rbuf(1:nprocs) /= [(1000 * i + rank, i = 0, nprocs - 1)])) call fail('alltoallw')

    value = rank + 1
    call MPI_Scan(value, expected, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
    if (expected /= (rank + 1) * (rank + 2) / 2) call fail('scan')

    value = 1
    call MPI_Iallreduce(MPI_IN_PLACE, value, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, request, &
                        ierr)
    call MPI_Wait(request, MPI_STATUS_IGNORE, ierr)
    if (value /= nprocs .or. request /= MPI_REQUEST_NULL) call fail('iallreduce')
    call MPI_Barrier(MPI_COMM_WORLD, ierr)
    deallocate(sbuf, rbuf, counts, displs, types)

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
end program coll
