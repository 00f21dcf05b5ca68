! f08_subarray.f90 - non-contiguous array sections in the mpi_f08 routines MPI keeps using the
! buffer of after the call (MPI_SUBARRAYS_SUPPORTED = .TRUE., MPI-4.1 19.1.12): the section
! is the contiguous "virtual buffer" of its elements in array element order, and nodempi maps
! it with a datatype freed right after the call. MPI_Isend/MPI_Irecv of 1-D (also negative
! strides), 2-D and 3-D sections, pending past the call (a rendezvous-sized message, a
! receive posted before its send: a freed type the request did not keep would be used after
! free), a receive section longer than the message and a message ending inside an element
! (INTEGER(2) halves of INTEGERs), persistent requests started twice, a derived type with
! holes over a section (flattened), sections of a TYPE(...) array with a struct datatype,
! MPI_Iallreduce (same layouts; a contiguous sendbuf folded into a section) and
! MPI_Allreduce_init started twice, MPI_Ialltoall
! and MPI_Igatherv blocks, MPI_Put/MPI_Get/MPI_Accumulate with origin sections under fences,
! MPI_File_iwrite_at/iread_at of sections, and the refusals (MPI_ERR_BUFFER).
program f08_subarray
    use mpi_f08
    implicit none
    type :: pair
        integer :: key
        double precision :: value
    end type pair
    integer, parameter :: big = 40000
    integer :: rank, nprocs, left, right, errs, i, j, k, got, ierr, class
    integer, asynchronous :: a(20), r(20), m(6, 5), rm(6, 5), c(4, 3, 3), rc(4, 3, 3)
    integer, asynchronous, allocatable :: large(:), rlarge(:)
    integer(kind=2), asynchronous :: halves(10)
    integer, asynchronous :: whole(10)
    type(pair), asynchronous :: pts(10), rpts(10)
    type(MPI_Request) :: req(4)
    type(MPI_Status) :: status
    type(MPI_Datatype) :: pairtype, holes
    integer(kind=MPI_ADDRESS_KIND) :: disps(2), lb, extent

    errs = 0
    call MPI_Init()
    call MPI_Comm_rank(MPI_COMM_WORLD, rank)
    call MPI_Comm_size(MPI_COMM_WORLD, nprocs)
    right = mod(rank + 1, nprocs)
    left = mod(rank + nprocs - 1, nprocs)
    if (.not. MPI_SUBARRAYS_SUPPORTED) call fail('MPI_SUBARRAYS_SUPPORTED')

    ! 1-D strided, then a negative stride: a(10:1:-2) is a(10), a(8), ..., a(2).
    a = [(100 * rank + i, i = 1, 20)]
    r = 0
    call MPI_Irecv(r(1:20:3), 7, MPI_INTEGER, left, 1, MPI_COMM_WORLD, req(1))
    call MPI_Isend(a(2:20:3), 7, MPI_INTEGER, right, 1, MPI_COMM_WORLD, req(2))
    call MPI_Waitall(2, req, MPI_STATUSES_IGNORE)
    call expect(all(r(1:20:3) == [(100 * left + i, i = 2, 20, 3)]) .and. &
                all(r(2:20:3) == 0) .and. all(r(3:20:3) == 0), 'strided isend/irecv')
    r = 0
    call MPI_Irecv(r(1:5), 5, MPI_INTEGER, left, 2, MPI_COMM_WORLD, req(1))
    call MPI_Isend(a(10:1:-2), 5, MPI_INTEGER, right, 2, MPI_COMM_WORLD, req(2))
    call MPI_Waitall(2, req, MPI_STATUSES_IGNORE)
    call expect(all(r(1:5) == [(100 * left + i, i = 10, 1, -2)]), 'negative stride send')
    r = 0
    call MPI_Irecv(r(19:1:-3), 7, MPI_INTEGER, left, 3, MPI_COMM_WORLD, req(1))
    call MPI_Isend(a(1:7), 7, MPI_INTEGER, right, 3, MPI_COMM_WORLD, req(2))
    call MPI_Waitall(2, req, MPI_STATUSES_IGNORE)
    call expect(all(r(19:1:-3) == [(100 * left + i, i = 1, 7)]) .and. &
                count_nonzero(r) == 7, 'negative stride receive')

    ! 2-D and 3-D sections, both sides non-contiguous with different shapes.
    m = reshape([(1000 * rank + i, i = 1, 30)], [6, 5])
    rm = 0
    call MPI_Irecv(rm(1:6:2, 2:5), 12, MPI_INTEGER, left, 4, MPI_COMM_WORLD, req(1))
    call MPI_Isend(m(2:5, 1:5:2), 12, MPI_INTEGER, right, 4, MPI_COMM_WORLD, req(2))
    call MPI_Waitall(2, req, MPI_STATUSES_IGNORE)
    call expect(all(reshape(rm(1:6:2, 2:5), [12]) == &
                    reshape(m(2:5, 1:5:2), [12]) + 1000 * (left - rank)) .and. &
                count(rm /= 0) == 12, '2-D sections')
    c = reshape([(10000 * rank + i, i = 1, 36)], [4, 3, 3])
    rc = 0
    call MPI_Irecv(rc(4:1:-2, :, 1:3:2), 12, MPI_INTEGER, left, 5, MPI_COMM_WORLD, req(1))
    call MPI_Isend(c(1:4:2, 1:3, 1:3:2), 12, MPI_INTEGER, right, 5, MPI_COMM_WORLD, req(2))
    call MPI_Waitall(2, req, MPI_STATUSES_IGNORE)
    call expect(all(reshape(rc(4:1:-2, :, 1:3:2), [12]) == &
                    reshape(c(1:4:2, 1:3, 1:3:2), [12]) + 10000 * (left - rank)) .and. &
                count(rc /= 0) == 12, '3-D sections')

    ! Pending past the call: a rendezvous-sized section, and a receive posted before its
    ! send; the types made for them are freed when MPI_Isend/MPI_Irecv return.
    allocate(large(2 * big), rlarge(3 * big))
    large = [(i + rank, i = 1, 2 * big)]
    rlarge = 0
    call MPI_Irecv(rlarge(3 * big:1:-3), big, MPI_INTEGER, left, 6, MPI_COMM_WORLD, req(1))
    call MPI_Barrier(MPI_COMM_WORLD)
    call MPI_Isend(large(1:2 * big:2), big, MPI_INTEGER, right, 6, MPI_COMM_WORLD, req(2))
    call MPI_Barrier(MPI_COMM_WORLD)
    call MPI_Waitall(2, req, MPI_STATUSES_IGNORE)
    call expect(all(rlarge(3 * big:1:-3) == [(i + left, i = 1, 2 * big, 2)]) .and. &
                all(rlarge(3 * big - 1:1:-3) == 0), 'pending large sections')

    ! A receive section longer than the message: the message fills its first elements.
    r = -1
    call MPI_Irecv(r(1:20:2), 10, MPI_INTEGER, left, 7, MPI_COMM_WORLD, req(1))
    call MPI_Isend(a(1:6), 6, MPI_INTEGER, right, 7, MPI_COMM_WORLD, req(2))
    call MPI_Wait(req(1), status)
    call MPI_Wait(req(2), MPI_STATUS_IGNORE)
    call MPI_Get_count(status, MPI_INTEGER, got)
    call expect(got == 6 .and. all(r(1:11:2) == [(100 * left + i, i = 1, 6)]) .and. &
                all(r(13:20:2) == -1) .and. all(r(2:20:2) == -1), 'longer receive section')

    ! A message ending inside an element: 7 INTEGER(2)s are 3.5 INTEGERs of whole(1:10:3).
    whole = -1
    halves = [(int(i + 10 * rank, 2), i = 1, 10)]
    call MPI_Irecv(whole(1:10:3), 7, MPI_INTEGER2, left, 8, MPI_COMM_WORLD, req(1))
    call MPI_Isend(halves(1:7), 7, MPI_INTEGER2, right, 8, MPI_COMM_WORLD, req(2))
    call MPI_Waitall(2, req, MPI_STATUSES_IGNORE)
    call expect(all(transfer(whole(1:7:3), halves(1:6)) == [(int(i + 10 * left, 2), i = 1, 6)]) &
                .and. all(transfer(whole(10:10), halves(1:2)) == [int(7 + 10 * left, 2), -1_2]) &
                .and. all(whole(2:9:3) == -1) .and. all(whole(3:9:3) == -1), 'partial element')

    ! Persistent requests with sections, started twice with new data.
    call MPI_Recv_init(r(20:1:-4), 5, MPI_INTEGER, left, 9, MPI_COMM_WORLD, req(1))
    call MPI_Send_init(m(3, :), 5, MPI_INTEGER, right, 9, MPI_COMM_WORLD, req(2))
    do k = 1, 2
        r = 0
        m(3, :) = [(1000 * rank + 10 * k + i, i = 1, 5)]
        call MPI_Startall(2, req)
        call MPI_Waitall(2, req, MPI_STATUSES_IGNORE)
        call expect(all(r(20:1:-4) == [(1000 * left + 10 * k + i, i = 1, 5)]) .and. &
                    count_nonzero(r) == 5, 'persistent sections')
    end do
    call MPI_Request_free(req(1))
    call MPI_Request_free(req(2))

    ! A datatype with holes (every other INTEGER) over a section: flattened.
    call MPI_Type_vector(3, 1, 2, MPI_INTEGER, holes)
    call MPI_Type_commit(holes)
    r = 0
    call MPI_Irecv(r(2:20:2), 6, MPI_INTEGER, left, 10, MPI_COMM_WORLD, req(1))
    call MPI_Isend(a(1:20:2), 2, holes, right, 10, MPI_COMM_WORLD, req(2))
    call MPI_Waitall(2, req, MPI_STATUSES_IGNORE)
    ! a(1:20:2) is a(1), a(3), ..., a(19); two vectors take its elements 0, 2, 4 and 5, 7, 9
    ! (the second copy starts at the first one's extent, 5 elements).
    call expect(all(r(2:12:2) == 100 * left + [1, 5, 9, 11, 15, 19]) .and. &
                count_nonzero(r) == 6, 'datatype with holes')
    call MPI_Type_free(holes)

    ! Sections of a TYPE(pair) array described by a struct datatype of its components.
    disps = [0_MPI_ADDRESS_KIND, 8_MPI_ADDRESS_KIND]
    call MPI_Type_create_struct(2, [1, 1], disps, [MPI_INTEGER, MPI_DOUBLE_PRECISION], pairtype)
    call MPI_Type_get_extent(pairtype, lb, extent)
    if (extent /= storage_size(pts(1)) / 8) call fail('pair extent')
    call MPI_Type_commit(pairtype)
    pts = [(pair(i + 100 * rank, i / 4d0), i = 1, 10)]
    rpts = pair(0, 0d0)
    call MPI_Irecv(rpts(10:1:-3), 4, pairtype, left, 11, MPI_COMM_WORLD, req(1))
    call MPI_Isend(pts(1:10:3), 4, pairtype, right, 11, MPI_COMM_WORLD, req(2))
    call MPI_Waitall(2, req, MPI_STATUSES_IGNORE)
    call expect(all(rpts(10:1:-3)%key == [(i + 100 * left, i = 1, 10, 3)]) .and. &
                all(abs(rpts(10:1:-3)%value - [(i / 4d0, i = 1, 10, 3)]) < 1d-12) .and. &
                count(rpts%key /= 0) == 4, 'struct datatype sections')
    call MPI_Type_free(pairtype)

    ! Reductions: the same layout on both sides, then a contiguous sendbuf and a section
    ! recvbuf (sendbuf's data is folded into recvbuf and the reduction done in place).
    m = reshape([(rank + i, i = 1, 30)], [6, 5])
    rm = -1
    call MPI_Iallreduce(m(1:6:2, 2:5), rm(2:6:2, 1:4), 12, MPI_INTEGER, MPI_SUM, &
                        MPI_COMM_WORLD, req(1))
    call MPI_Wait(req(1), MPI_STATUS_IGNORE)
    call expect(all(rm(2:6:2, 1:4) == nprocs * m(1:6:2, 2:5) - nprocs * rank + &
                    nprocs * (nprocs - 1) / 2) .and. all(rm(1:6:2, :) == -1) .and. &
                all(rm(:, 5) == -1), 'iallreduce sections')
    ! Persistent, started twice (a barrier between start and wait keeps it pending).
    call MPI_Allreduce_init(m(6:1:-5, :), rm(6:1:-5, :), 10, MPI_INTEGER, MPI_MAX, &
                            MPI_COMM_WORLD, MPI_INFO_NULL, req(1))
    do k = 1, 2
        m = reshape([(10 * k * rank + i, i = 1, 30)], [6, 5])
        rm = -1
        call MPI_Start(req(1))
        call MPI_Barrier(MPI_COMM_WORLD)
        call MPI_Wait(req(1), MPI_STATUS_IGNORE)
        call expect(all(rm(6:1:-5, :) == m(6:1:-5, :) + 10 * k * (nprocs - 1 - rank)) .and. &
                    count(rm /= -1) == 10, 'allreduce_init sections')
    end do
    call MPI_Request_free(req(1))
    a = [(rank * i, i = 1, 20)]
    r = -1
    call MPI_Iallreduce(a(1:7), r(20:1:-3), 7, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, req(1))
    call MPI_Wait(req(1), MPI_STATUS_IGNORE)
    call expect(all(r(20:1:-3) == [(i * nprocs * (nprocs - 1) / 2, i = 1, 7)]) .and. &
                count(r /= -1) == 7, 'iallreduce contiguous into section')

    ! MPI_Ialltoall with blocks of two elements of a 1-D section; MPI_Igatherv into a section.
    deallocate(large, rlarge)
    allocate(large(4 * nprocs), rlarge(6 * nprocs))
    large = [(1000 * rank + i, i = 1, 4 * nprocs)]
    rlarge = 0
    call MPI_Ialltoall(large(1:4 * nprocs:2), 2, MPI_INTEGER, rlarge(1:6 * nprocs:3), 2, &
                       MPI_INTEGER, MPI_COMM_WORLD, req(1))
    call MPI_Barrier(MPI_COMM_WORLD)
    call MPI_Wait(req(1), MPI_STATUS_IGNORE)
    do j = 0, nprocs - 1
        if (any(rlarge(6 * j + 1:6 * j + 6:3) /= 1000 * j + 4 * rank + [1, 3])) &
            call fail('ialltoall sections')
    end do
    if (count(rlarge /= 0) /= 2 * nprocs) call fail('ialltoall extra data')
    rlarge = 0
    call MPI_Igatherv(a(2:4:2), 2, MPI_INTEGER, rlarge(1:6 * nprocs:3), &
                      [(2, j = 1, nprocs)], [(2 * j, j = 0, nprocs - 1)], MPI_INTEGER, 0, &
                      MPI_COMM_WORLD, req(1))
    call MPI_Wait(req(1), MPI_STATUS_IGNORE)
    if (rank == 0) then
        do j = 0, nprocs - 1
            if (any(rlarge(6 * j + 1:6 * j + 6:3) /= j * [2, 4])) call fail('igatherv section')
        end do
    end if

    call one_sided()
    call file_io()
    call refusals()
    deallocate(large, rlarge)

    call MPI_Allreduce(MPI_IN_PLACE, errs, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
    if (rank == 0 .and. errs == 0) print '(a)', 'No Errors'
    call MPI_Finalize()
    if (errs /= 0) stop 1
contains
    ! MPI_Put, MPI_Get and MPI_Accumulate with origin sections under fences.
    subroutine one_sided()
        integer, asynchronous :: window(12), origin(24)
        type(MPI_Win) :: win
        integer(kind=MPI_ADDRESS_KIND) :: bytes
        window = 0
        bytes = 4 * size(window)
        call MPI_Win_create(window, bytes, 4, MPI_INFO_NULL, MPI_COMM_WORLD, win)
        origin = [(100 * rank + i, i = 1, 24)]
        call MPI_Win_fence(0, win)
        call MPI_Put(origin(1:24:4), 6, MPI_INTEGER, right, 0_MPI_ADDRESS_KIND, 6, MPI_INTEGER, &
                     win)
        call MPI_Win_fence(0, win)
        call expect(all(window(1:6) == [(100 * left + i, i = 1, 24, 4)]), 'put section')
        call MPI_Accumulate(origin(24:1:-4), 6, MPI_INTEGER, right, 6_MPI_ADDRESS_KIND, 6, &
                            MPI_INTEGER, MPI_SUM, win)
        call MPI_Win_fence(0, win)
        call MPI_Accumulate(origin(24:1:-4), 6, MPI_INTEGER, right, 6_MPI_ADDRESS_KIND, 6, &
                            MPI_INTEGER, MPI_SUM, win)
        call MPI_Win_fence(0, win)
        call expect(all(window(7:12) == 2 * [(100 * left + i, i = 24, 1, -4)]), &
                    'accumulate section')
        origin = 0
        call MPI_Get(origin(2:24:2), 12, MPI_INTEGER, right, 0_MPI_ADDRESS_KIND, 12, &
                     MPI_INTEGER, win)
        call MPI_Win_fence(0, win)
        call expect(all(origin(2:12:2) == [(100 * rank + i, i = 1, 24, 4)]) .and. &
                    all(origin(14:24:2) == 2 * [(100 * rank + i, i = 24, 1, -4)]) .and. &
                    all(origin(1:24:2) == 0), 'get section')
        call MPI_Win_free(win)
    end subroutine one_sided

    ! MPI_File_iwrite_at of a section, MPI_File_iread_at into another.
    subroutine file_io()
        type(MPI_File) :: fh
        character(len=256) :: fname
        integer, asynchronous :: out(3, 4), back(12)
        integer(kind=MPI_OFFSET_KIND) :: offset
        if (rank == 0) write (fname, '(a,i0,a)') '/tmp/nodempi-f08-subarray-', getpid(), '.dat'
        call MPI_Bcast(fname, len(fname), MPI_CHARACTER, 0, MPI_COMM_WORLD)
        call MPI_File_open(MPI_COMM_WORLD, fname, ior(MPI_MODE_CREATE, MPI_MODE_RDWR), &
                           MPI_INFO_NULL, fh)
        out = reshape([(100 * rank + i, i = 1, 12)], [3, 4])
        offset = 4_MPI_OFFSET_KIND * 4 * rank
        call MPI_File_iwrite_at(fh, offset, out(2, :), 4, MPI_INTEGER, req(1))
        call MPI_Wait(req(1), status)
        call MPI_Get_count(status, MPI_INTEGER, got)
        if (got /= 4) call fail('iwrite_at count')
        call MPI_File_sync(fh)
        call MPI_Barrier(MPI_COMM_WORLD)
        call MPI_File_sync(fh)
        back = 0
        offset = 4_MPI_OFFSET_KIND * 4 * left
        call MPI_File_iread_at(fh, offset, back(12:1:-3), 4, MPI_INTEGER, req(1))
        call MPI_Wait(req(1), MPI_STATUS_IGNORE)
        call expect(all(back(12:1:-3) == [(100 * left + i, i = 2, 12, 3)]) .and. &
                    count_nonzero(back) == 4, 'iwrite_at/iread_at sections')
        call MPI_File_close(fh)
        call MPI_Barrier(MPI_COMM_WORLD)
        if (rank == 0) call MPI_File_delete(fname, MPI_INFO_NULL)
    end subroutine file_io

    ! What stays refused, with MPI_ERR_BUFFER from MPI_COMM_SELF's handler and no request:
    ! a persistent reduction whose buffers lie differently, blocks that do not repeat alike.
    subroutine refusals()
        type(MPI_Request) :: r1
        call MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN)
        r1 = MPI_REQUEST_NULL
        call MPI_Allreduce_init(a(1:4), r(1:8:2), 4, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, &
                                MPI_INFO_NULL, r1, ierr)
        call MPI_Error_class(ierr, class)
        if (class /= MPI_ERR_BUFFER .or. r1 /= MPI_REQUEST_NULL) &
            call fail('allreduce_init refusal')
        call MPI_Ialltoall(m(1:3, :), 1, MPI_INTEGER, rm, 1, MPI_INTEGER, MPI_COMM_WORLD, r1, ierr)
        ! blocks of one element in m(1:3, :) repeat alike only within a column
        call MPI_Error_class(ierr, class)
        if (class /= MPI_ERR_BUFFER .or. r1 /= MPI_REQUEST_NULL) call fail('ialltoall refusal')
        call MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_ARE_FATAL)
    end subroutine refusals

    integer function count_nonzero(x)
        integer, intent(in) :: x(:)
        count_nonzero = count(x /= 0)
    end function count_nonzero

    subroutine expect(ok, what)
        logical, intent(in) :: ok
        character(len=*), intent(in) :: what
        if (.not. ok) call fail(what)
    end subroutine expect

    subroutine fail(what)
        character(len=*), intent(in) :: what
        print '(a,i0,2a)', 'rank ', rank, ' FAILED: ', what
        errs = errs + 1
    end subroutine fail
end program f08_subarray
