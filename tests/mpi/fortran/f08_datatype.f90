! f08_datatype.f90 - derived datatypes through `use mpi_f08`: contiguous, vector, indexed,
! create_struct (displacements from MPI_Get_address, MPI_Aint_diff / MPI_Aint_add), subarray,
! resized, commit/free, get_extent, size, type names, MPI_Sizeof, and a message built from MPI_BOTTOM with
! absolute addresses. Each type moves data between two ranks and the receiver checks it.
program f08_datatype
    use mpi_f08
    implicit none
    type :: particle
        integer :: id
        double precision :: x(3)
    end type particle
    integer :: rank, nprocs, errs, i, size, peer, namelen, count
    type(MPI_Datatype) :: tcontig, tvector, tindexed, tstruct, tsub, tresized, types(2)
    integer(kind=MPI_ADDRESS_KIND) :: lb, extent, base, addr(2), disps(2)
    integer :: a(20), b(20), grid(6, 5), got(6, 5), blocklens(2)
    type(particle) :: parts(3), rparts(3)
    character(len=MPI_MAX_OBJECT_NAME) :: name
    type(MPI_Status) :: status

    errs = 0
    call MPI_Init()
    call MPI_Comm_rank(MPI_COMM_WORLD, rank)
    call MPI_Comm_size(MPI_COMM_WORLD, nprocs)
    peer = 1 - rank
    if (rank > 1) goto 100

    ! Contiguous of 3 integers, sent twice.
    call MPI_Type_contiguous(3, MPI_INTEGER, tcontig)
    call MPI_Type_commit(tcontig)
    call MPI_Type_size(tcontig, size)
    if (size /= 12) call fail('contiguous size')
    a = [(i, i = 1, 20)]
    b = 0
    call exchange(a, b, 2, tcontig, 6, MPI_INTEGER)
    if (rank == 1 .and. any(b(1:6) /= [(i, i = 1, 6)])) call fail('contiguous data')

    ! Vector: every other integer, 4 blocks of 2 with stride 5.
    call MPI_Type_vector(4, 2, 5, MPI_INTEGER, tvector)
    call MPI_Type_commit(tvector)
    call MPI_Type_get_extent(tvector, lb, extent)
    if (lb /= 0 .or. extent /= (3 * 5 + 2) * 4) call fail('vector extent')
    b = 0
    call exchange(a, b, 1, tvector, 8, MPI_INTEGER)
    if (rank == 1) then
        if (any(b(1:8) /= [1, 2, 6, 7, 11, 12, 16, 17])) call fail('vector data')
    end if

    ! Indexed: blocks (2 at 0), (1 at 10), (3 at 15).
    call MPI_Type_indexed(3, [2, 1, 3], [0, 10, 15], MPI_INTEGER, tindexed)
    call MPI_Type_commit(tindexed)
    call MPI_Type_size(tindexed, size)
    if (size /= 24) call fail('indexed size')
    b = 0
    call exchange(a, b, 1, tindexed, 6, MPI_INTEGER)
    if (rank == 1 .and. any(b(1:6) /= [1, 2, 11, 16, 17, 18])) call fail('indexed data')

    ! Struct for a Fortran derived type: displacements from MPI_Get_address.
    call MPI_Get_address(parts(1)%id, addr(1))
    call MPI_Get_address(parts(1)%x, addr(2))
    base = addr(1)
    disps = [MPI_Aint_diff(addr(1), base), MPI_Aint_diff(addr(2), base)]
    if (MPI_Aint_add(base, disps(2)) /= addr(2)) call fail('aint_add')
    blocklens = [1, 3]
    types = [MPI_INTEGER, MPI_DOUBLE_PRECISION]
    call MPI_Type_create_struct(2, blocklens, disps, types, tstruct)
    call MPI_Get_address(parts(2), addr(2))
    call MPI_Type_create_resized(tstruct, 0_MPI_ADDRESS_KIND, MPI_Aint_diff(addr(2), base), &
                                 tresized)
    call MPI_Type_commit(tresized)
    call MPI_Type_get_extent(tresized, lb, extent)
    if (extent /= MPI_Aint_diff(addr(2), base)) call fail('resized extent')
    call MPI_Type_set_name(tresized, 'particle')
    call MPI_Type_get_name(tresized, name, namelen)
    if (name /= 'particle' .or. namelen /= 8) call fail('type name')
    do i = 1, 3
        parts(i) = particle(i * 10, [dble(i), dble(i) / 2, -dble(i)])
        rparts(i) = particle(0, 0d0)
    end do
    if (rank == 0) then
        call MPI_Send(parts, 3, tresized, peer, 1, MPI_COMM_WORLD)
    else
        call MPI_Recv(rparts, 3, tresized, peer, 1, MPI_COMM_WORLD, status)
        call MPI_Get_count(status, tresized, count)
        if (count /= 3) call fail('struct count')
        do i = 1, 3
            if (rparts(i)%id /= i * 10 .or. &
                any(abs(rparts(i)%x - [dble(i), dble(i) / 2, -dble(i)]) > 0)) call fail('struct data')
        end do
    end if

    ! MPI_Sizeof; MPI_Get_address of a section is its first element's address.
    call MPI_Sizeof(1.0d0, size)
    if (size /= 8) call fail('sizeof double')
    call MPI_Sizeof(grid, size)
    if (size /= 4) call fail('sizeof integer array')
    call MPI_Get_address(a(3:20), addr(1))
    call MPI_Get_address(a(3), addr(2))
    if (addr(1) /= addr(2)) call fail('get_address of a section')

    ! Subarray: the 3x2 block at (2:4, 3:4) of a 6x5 grid (Fortran order).
    call MPI_Type_create_subarray(2, [6, 5], [3, 2], [1, 2], MPI_ORDER_FORTRAN, MPI_INTEGER, tsub)
    call MPI_Type_commit(tsub)
    grid = reshape([(i, i = 1, 30)], [6, 5])
    got = 0
    call exchange(grid, got, 1, tsub, 1, tsub)
    if (rank == 1) then
        if (any(got(2:4, 3:4) /= grid(2:4, 3:4)) .or. got(1, 1) /= 0 .or. got(5, 3) /= 0) &
            call fail('subarray data')
    end if

    ! Absolute addresses from MPI_BOTTOM: a(3) and a(7) by an hindexed type.
    call MPI_Get_address(a(3), addr(1))
    call MPI_Get_address(a(7), addr(2))
    call MPI_Type_free(tstruct)
    call MPI_Type_create_hindexed(2, [1, 1], addr, MPI_INTEGER, tstruct)
    call MPI_Type_commit(tstruct)
    if (rank == 0) then
        call MPI_Send(MPI_BOTTOM, 1, tstruct, peer, 2, MPI_COMM_WORLD)
    else
        b = 0
        call MPI_Recv(b, 2, MPI_INTEGER, peer, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE)
        if (any(b(1:2) /= [3, 7])) call fail('MPI_BOTTOM send')
    end if

    call MPI_Type_free(tcontig)
    if (tcontig /= MPI_DATATYPE_NULL) call fail('type_free')
    call MPI_Type_free(tvector)
    call MPI_Type_free(tindexed)
    call MPI_Type_free(tresized)
    call MPI_Type_free(tsub)
    call MPI_Type_free(tstruct)

100 continue
    call MPI_Allreduce(MPI_IN_PLACE, errs, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
    if (rank == 0 .and. errs == 0) print '(a)', 'No Errors'
    call MPI_Finalize()
    if (errs /= 0) stop 1
contains
    ! Rank 0 sends `count` of `dtype` from sbuf; rank 1 receives `rcount` of `rtype` into rbuf.
    subroutine exchange(sbuf, rbuf, count, dtype, rcount, rtype)
        integer, intent(in) :: sbuf(*)
        integer :: rbuf(*)
        integer, intent(in) :: count, rcount
        type(MPI_Datatype), intent(in) :: dtype, rtype
        if (rank == 0) then
            call MPI_Send(sbuf, count, dtype, peer, 0, MPI_COMM_WORLD)
        else
            call MPI_Recv(rbuf, rcount, rtype, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE)
        end if
    end subroutine exchange

    subroutine fail(what)
        character(len=*), intent(in) :: what
        print '(a,i0,2a)', 'rank ', rank, ' FAILED: ', what
        errs = errs + 1
    end subroutine fail
end program f08_datatype
