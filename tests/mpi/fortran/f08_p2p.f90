! f08_p2p.f90 - point-to-point through `use mpi_f08`: TYPE(MPI_Status) components and
! MPI_Get_count, MPI_Status_f082f/f2f08, calls without IERROR, a ring with MPI_ANY_SOURCE, sendrecv(_replace),
! ssend/rsend/bsend (buffer attach/detach with TYPE(C_PTR)), nonblocking requests with
! ASYNCHRONOUS buffers completed by waitall/waitany/waitsome/testall/testany/testsome,
! probe/iprobe/mprobe/mrecv, persistent send_init/recv_init/start/startall, request_free,
! cancel/test_cancelled, strided sections (rank 1 and 2, also through an assumed-rank
! wrapper) in blocking calls (packed into a copy by bindings_f08.c) and in MPI_Isend (a
! datatype made from the descriptor; f08_subarray.f90 tests more), TYPE(MPI_Request)
! comparison, large-count forms (INTEGER(KIND=MPI_COUNT_KIND) counts) and a PMPI_ name.
program f08_p2p
    use mpi_f08
    use, intrinsic :: iso_c_binding, only: c_ptr
    implicit none
    integer :: ierr, rank, nprocs, left, right, i, count, errs, idx, outcount, token, class
    type(MPI_Status) :: status, statuses(4), status2
    integer :: fstatus(MPI_STATUS_SIZE)
    type(MPI_Request) :: requests(4), req
    type(MPI_Message) :: message
    integer :: indices(4)
    double precision :: x(10), y(10)
    integer, asynchronous :: ibuf(4), rbuf(4), strided(8)
    integer :: matrix(4, 4), column(4), row(4)
    integer(kind=1), allocatable :: bsend_buffer(:)
    type(c_ptr) :: detached
    integer :: detached_size
    integer(kind=MPI_COUNT_KIND) :: bigcount
    integer :: cube(5, 4, 3), got2(4, 4)
    logical :: flag

    errs = 0
    call MPI_Init()
    call MPI_Comm_rank(MPI_COMM_WORLD, rank)
    call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
    if (ierr /= MPI_SUCCESS) call fail('comm_size ierror')
    right = mod(rank + 1, nprocs)
    left = mod(rank + nprocs - 1, nprocs)

    ! Ring: rank 0 starts, each adds its rank; the status says who sent it.
    if (rank == 0) then
        token = 100
        call MPI_Send(token, 1, MPI_INTEGER, right, 7, MPI_COMM_WORLD)
        call MPI_Recv(token, 1, MPI_INTEGER, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, status)
        if (token /= 100 + nprocs * (nprocs - 1) / 2) call fail('ring token')
        if (status%MPI_SOURCE /= left .or. status%MPI_TAG /= 7) call fail('ring status')
    else
        call MPI_Recv(token, 1, MPI_INTEGER, left, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
        token = token + rank
        call MPI_Send(token, 1, MPI_INTEGER, right, 7, MPI_COMM_WORLD, ierr)
    end if

    ! DOUBLE PRECISION to the right; keyword arguments as the standard names them.
    x = [(dble(rank) + i / 10d0, i = 1, 10)]
    call MPI_Sendrecv(x, 10, MPI_DOUBLE_PRECISION, right, 3, y, 10, MPI_DOUBLE_PRECISION, &
                      MPI_ANY_SOURCE, 3, MPI_COMM_WORLD, status)
    call MPI_Get_count(status, MPI_DOUBLE_PRECISION, count)
    if (count /= 10 .or. status%MPI_SOURCE /= left) call fail('sendrecv count/source')
    if (any(abs(y - [(dble(left) + i / 10d0, i = 1, 10)]) > 1d-12)) call fail('sendrecv data')
    ! The status through module mpi's INTEGER form and back keeps the count too.
    call MPI_Status_f082f(status, fstatus)
    if (fstatus(MPI_SOURCE) /= left .or. fstatus(MPI_TAG) /= 3) call fail('status_f082f')
    call MPI_Status_f2f08(fstatus, status2)
    call MPI_Get_count(status2, MPI_DOUBLE_PRECISION, count)
    if (count /= 10 .or. status2%MPI_SOURCE /= left) call fail('status_f2f08')
    token = rank
    call MPI_Sendrecv_replace(token, 1, MPI_INTEGER, dest=right, sendtag=4, source=left, &
                              recvtag=4, comm=MPI_COMM_WORLD, status=status, ierror=ierr)
    if (token /= left .or. ierr /= MPI_SUCCESS) call fail('sendrecv_replace')

    ! Large-count forms: the same generic with INTEGER(KIND=MPI_COUNT_KIND) counts; and the
    ! profiling names.
    x = [(dble(rank) * i, i = 1, 10)]
    bigcount = 10
    call MPI_Sendrecv(x, bigcount, MPI_DOUBLE_PRECISION, right, 9, y, bigcount, &
                      MPI_DOUBLE_PRECISION, left, 9, MPI_COMM_WORLD, status)
    bigcount = -1
    call MPI_Get_count(status, MPI_DOUBLE_PRECISION, bigcount)
    if (bigcount /= 10 .or. any(abs(y - [(dble(left) * i, i = 1, 10)]) > 0)) &
        call fail('large-count sendrecv')
    call PMPI_Comm_rank(MPI_COMM_WORLD, i)
    if (i /= rank) call fail('PMPI_Comm_rank')

    ! Synchronous and ready sends (the receive is posted before the barrier).
    call MPI_Irecv(rbuf, 1, MPI_INTEGER, left, 5, MPI_COMM_WORLD, req)
    call MPI_Barrier(MPI_COMM_WORLD)
    call MPI_Rsend(rank * 10, 1, MPI_INTEGER, right, 5, MPI_COMM_WORLD)
    call MPI_Wait(req, status)
    if (rbuf(1) /= left * 10 .or. req /= MPI_REQUEST_NULL) call fail('rsend')
    ibuf(1) = rank + 1
    call MPI_Issend(ibuf, 1, MPI_INTEGER, right, 6, MPI_COMM_WORLD, req)
    call MPI_Recv(token, 1, MPI_INTEGER, left, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE)
    call MPI_Wait(req, MPI_STATUS_IGNORE)
    if (token /= left + 1) call fail('issend')

    ! Buffered send: the detached buffer's address comes back as a TYPE(C_PTR).
    allocate(bsend_buffer(1000))
    call MPI_Buffer_attach(bsend_buffer, 1000)
    call MPI_Bsend(rank + 2, 1, MPI_INTEGER, right, 8, MPI_COMM_WORLD)
    call MPI_Recv(token, 1, MPI_INTEGER, left, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE)
    call MPI_Buffer_detach(detached, detached_size)
    if (token /= left + 2 .or. detached_size /= 1000) call fail('bsend')
    deallocate(bsend_buffer)

    ! Nonblocking: two receives (any source) and two sends, MPI_Waitall with statuses.
    ibuf = [rank, rank * 2, rank * 3, rank * 4]
    call MPI_Irecv(rbuf(1:2), 2, MPI_INTEGER, MPI_ANY_SOURCE, 11, MPI_COMM_WORLD, requests(1))
    call MPI_Irecv(rbuf(3:4), 2, MPI_INTEGER, MPI_ANY_SOURCE, 12, MPI_COMM_WORLD, requests(2))
    call MPI_Isend(ibuf(1:2), 2, MPI_INTEGER, right, 11, MPI_COMM_WORLD, requests(3))
    call MPI_Isend(ibuf(3:4), 2, MPI_INTEGER, left, 12, MPI_COMM_WORLD, requests(4))
    call MPI_Waitall(4, requests, statuses)
    if (any(requests /= MPI_REQUEST_NULL)) call fail('waitall left requests')
    if (statuses(1)%MPI_SOURCE /= left .or. statuses(2)%MPI_SOURCE /= right) &
        call fail('waitall statuses')
    if (any(rbuf /= [left, left * 2, right * 3, right * 4])) call fail('waitall data')

    ! MPI_Waitany returns a 1-based index; MPI_Waitsome 1-based indices.
    call MPI_Irecv(rbuf(1), 1, MPI_INTEGER, left, 13, MPI_COMM_WORLD, requests(1))
    requests(2) = MPI_REQUEST_NULL
    call MPI_Send(rank, 1, MPI_INTEGER, right, 13, MPI_COMM_WORLD)
    call MPI_Waitany(2, requests, idx, status)
    if (idx /= 1 .or. rbuf(1) /= left .or. status%MPI_TAG /= 13) call fail('waitany')
    call MPI_Irecv(rbuf(2), 1, MPI_INTEGER, left, 14, MPI_COMM_WORLD, requests(2))
    call MPI_Send(rank, 1, MPI_INTEGER, right, 14, MPI_COMM_WORLD)
    outcount = 0
    do while (outcount == 0)
        call MPI_Waitsome(2, requests, outcount, indices, statuses)
    end do
    if (outcount /= 1 .or. indices(1) /= 2 .or. rbuf(2) /= left) call fail('waitsome')

    ! Test family: poll until done.
    call MPI_Irecv(rbuf(1), 1, MPI_INTEGER, left, 15, MPI_COMM_WORLD, requests(1))
    ibuf(1) = rank * 3
    call MPI_Isend(ibuf, 1, MPI_INTEGER, right, 15, MPI_COMM_WORLD, requests(2))
    flag = .false.
    do while (.not. flag)
        call MPI_Testall(2, requests, flag, MPI_STATUSES_IGNORE)
    end do
    if (rbuf(1) /= left * 3) call fail('testall')
    call MPI_Irecv(rbuf(1), 1, MPI_INTEGER, left, 16, MPI_COMM_WORLD, requests(1))
    call MPI_Send(rank * 4, 1, MPI_INTEGER, right, 16, MPI_COMM_WORLD)
    flag = .false.
    do while (.not. flag)
        call MPI_Testany(1, requests, idx, flag, status)
    end do
    if (idx /= 1 .or. rbuf(1) /= left * 4) call fail('testany')
    call MPI_Irecv(rbuf(1), 1, MPI_INTEGER, left, 17, MPI_COMM_WORLD, requests(1))
    call MPI_Send(rank * 5, 1, MPI_INTEGER, right, 17, MPI_COMM_WORLD)
    outcount = 0
    do while (outcount == 0)
        call MPI_Testsome(1, requests, outcount, indices, statuses)
    end do
    if (indices(1) /= 1 .or. rbuf(1) /= left * 5) call fail('testsome')
    call MPI_Irecv(rbuf(1), 1, MPI_INTEGER, left, 18, MPI_COMM_WORLD, req)
    call MPI_Send(rank * 6, 1, MPI_INTEGER, right, 18, MPI_COMM_WORLD)
    flag = .false.
    do while (.not. flag)
        call MPI_Test(req, flag, status)
    end do
    if (rbuf(1) /= left * 6 .or. status%MPI_SOURCE /= left) call fail('test')

    ! Probe, iprobe, mprobe/mrecv.
    call MPI_Send(rank * 7, 1, MPI_INTEGER, right, 19, MPI_COMM_WORLD)
    call MPI_Probe(left, 19, MPI_COMM_WORLD, status)
    call MPI_Get_count(status, MPI_INTEGER, count)
    if (count /= 1 .or. status%MPI_SOURCE /= left) call fail('probe')
    flag = .false.
    do while (.not. flag)
        call MPI_Iprobe(MPI_ANY_SOURCE, 19, MPI_COMM_WORLD, flag, status)
    end do
    call MPI_Mprobe(left, 19, MPI_COMM_WORLD, message, status)
    if (message == MPI_MESSAGE_NULL) call fail('mprobe message')
    call MPI_Mrecv(token, 1, MPI_INTEGER, message, status)
    if (token /= left * 7 .or. message /= MPI_MESSAGE_NULL) call fail('mrecv')

    ! Persistent requests: started twice.
    call MPI_Recv_init(rbuf(1), 1, MPI_INTEGER, left, 20, MPI_COMM_WORLD, requests(1))
    call MPI_Send_init(ibuf(1), 1, MPI_INTEGER, right, 20, MPI_COMM_WORLD, requests(2))
    do i = 1, 2
        ibuf(1) = rank * 100 + i
        call MPI_Startall(2, requests)
        call MPI_Waitall(2, requests, MPI_STATUSES_IGNORE)
        if (rbuf(1) /= left * 100 + i) call fail('persistent')
    end do
    call MPI_Start(requests(1))
    call MPI_Send(-1, 1, MPI_INTEGER, right, 20, MPI_COMM_WORLD)
    call MPI_Wait(requests(1), MPI_STATUS_IGNORE)
    if (rbuf(1) /= -1) call fail('start')
    call MPI_Request_free(requests(1))
    call MPI_Request_free(requests(2))
    if (requests(1) /= MPI_REQUEST_NULL) call fail('request_free')

    ! A receive that never matches, cancelled.
    call MPI_Irecv(rbuf(4), 1, MPI_INTEGER, left, 999, MPI_COMM_WORLD, req)
    call MPI_Cancel(req)
    call MPI_Wait(req, status)
    call MPI_Test_cancelled(status, flag)
    if (.not. flag) call fail('cancel')

    ! A column (contiguous) and a row (strided) of a matrix in blocking calls.
    matrix = reshape([(i + 100 * rank, i = 1, 16)], [4, 4])
    call MPI_Sendrecv(matrix(2, :), 4, MPI_INTEGER, right, 21, row, 4, MPI_INTEGER, left, 21, &
                      MPI_COMM_WORLD, MPI_STATUS_IGNORE)
    if (any(row /= [(2 + 4 * i + 100 * left, i = 0, 3)])) call fail('strided sendrecv')
    column = 0
    call MPI_Sendrecv(matrix(:, 3), 4, MPI_INTEGER, right, 22, matrix(3, :), 4, MPI_INTEGER, &
                      left, 22, MPI_COMM_WORLD, MPI_STATUS_IGNORE)
    if (any(matrix(3, :) /= [(9 + i + 100 * left, i = 0, 3)])) call fail('strided receive')

    ! A rank-2 section with strides in both dimensions, through a program's own assumed-rank
    ! wrapper (the descriptor is passed on as it is).
    cube = reshape([(i + 1000 * rank, i = 1, 60)], [5, 4, 3])
    got2 = 0
    call send_any(cube(2:4, 1:4:2, 2), 6, right)
    call MPI_Recv(got2(1:3, 1:4:2), 6, MPI_INTEGER, left, 24, MPI_COMM_WORLD, MPI_STATUS_IGNORE)
    if (any(got2(1:3, 1:4:2) /= cube(2:4, 1:4:2, 2) - 1000 * (rank - left)) .or. &
        any(got2(:, 2) /= 0) .or. any(got2(4, :) /= 0)) call fail('rank-2 section')

    ! A strided section in a nonblocking call: where MPI_SUBARRAYS_SUPPORTED is .FALSE.
    ! MPI_ERR_BUFFER from the error handler of MPI_COMM_SELF and no request; otherwise (nodempi)
    ! the section is sent.
    call MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN)
    strided = [(10 * rank + i, i = 1, 8)]
    req = MPI_REQUEST_NULL
    call MPI_Isend(strided(1:8:2), 4, MPI_INTEGER, right, 23, MPI_COMM_WORLD, req, ierr)
    if (MPI_SUBARRAYS_SUPPORTED) then
        call MPI_Recv(row, 4, MPI_INTEGER, left, 23, MPI_COMM_WORLD, MPI_STATUS_IGNORE)
        call MPI_Wait(req, MPI_STATUS_IGNORE)
        if (ierr /= MPI_SUCCESS .or. any(row /= [(10 * left + i, i = 1, 8, 2)])) &
            call fail('strided isend')
    else
        call MPI_Error_class(ierr, class)
        if (class /= MPI_ERR_BUFFER .or. req /= MPI_REQUEST_NULL) call fail('strided isend')
    end if

    call MPI_Allreduce(MPI_IN_PLACE, errs, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
    if (rank == 0 .and. errs == 0) print '(a)', 'No Errors'
    call MPI_Finalize()
    if (errs /= 0) stop 1
contains
    ! A library's wrapper: any type and rank goes through to MPI_Send unchanged.
    subroutine send_any(buf, count, dest)
        type(*), dimension(..), intent(in) :: buf
        integer, intent(in) :: count, dest
        call MPI_Send(buf, count, MPI_INTEGER, dest, 24, MPI_COMM_WORLD)
    end subroutine send_any

    subroutine fail(what)
        character(len=*), intent(in) :: what
        print '(a,i0,2a)', 'rank ', rank, ' FAILED: ', what
        errs = errs + 1
    end subroutine fail
end program f08_p2p
