! p2p.f90 - point-to-point from Fortran: a ring of INTEGER and DOUBLE PRECISION messages,
! wildcard receives read through status(MPI_SOURCE) / status(MPI_TAG) and MPI_GET_COUNT,
! nonblocking requests completed by MPI_WAITALL (statuses) and MPI_WAITANY (1-based index),
! persistent requests with MPI_STARTALL, MPI_PROBE, MPI_SENDRECV with MPI_STATUS_IGNORE,
! a status through TYPE(MPI_Status) (MPI_STATUS_F2F08 / MPI_STATUS_F082F),
! MPI_TESTALL / MPI_TESTSOME and MPI_PROC_NULL.
program p2p
    use mpi
    implicit none
    integer :: ierr, rank, nprocs, left, right, i, count, errs, index, outcount
    integer :: token, seen
    integer :: status(MPI_STATUS_SIZE), statuses(MPI_STATUS_SIZE, 4), requests(4)
    integer :: status2(MPI_STATUS_SIZE)
    type(MPI_Status) :: status08
    integer :: indices(4)
    double precision :: x(10), y(10)
    ! asynchronous: persistent and nonblocking operations use them behind the compiler's back
    ! (at -O3 gfortran kept rbuf in registers across MPI_TESTALL without it)
    integer, asynchronous :: ibuf(4), rbuf(4)
    logical :: flag

    errs = 0
    call MPI_Init(ierr)
    call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
    call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
    right = mod(rank + 1, nprocs)
    left = mod(rank + nprocs - 1, nprocs)

    ! Ring: rank 0 starts, each adds its rank.
    if (rank == 0) then
        token = 100
        call MPI_Send(token, 1, MPI_INTEGER, right, 7, MPI_COMM_WORLD, ierr)
        call MPI_Recv(token, 1, MPI_INTEGER, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &
                      status, ierr)
        if (token /= 100 + nprocs * (nprocs - 1) / 2) call fail('ring token')
        if (status(MPI_SOURCE) /= left .or. status(MPI_TAG) /= 7) call fail('ring status')
    else
        call MPI_Recv(token, 1, MPI_INTEGER, left, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
        token = token + rank
        call MPI_Send(token, 1, MPI_INTEGER, right, 7, MPI_COMM_WORLD, ierr)
    end if

    ! DOUBLE PRECISION to the right, count checked with MPI_GET_COUNT.
    x = [(dble(rank) + i / 10d0, i = 1, 10)]
    call MPI_Sendrecv(x, 10, MPI_DOUBLE_PRECISION, right, 3, y, 10, MPI_DOUBLE_PRECISION, &
                      MPI_ANY_SOURCE, 3, MPI_COMM_WORLD, status, ierr)
    call MPI_Get_count(status, MPI_DOUBLE_PRECISION, count, ierr)
    if (count /= 10 .or. status(MPI_SOURCE) /= left) call fail('sendrecv count/source')
    if (any(abs(y - [(dble(left) + i / 10d0, i = 1, 10)]) > 1d-12)) call fail('sendrecv data')
    ! The same status through module mpi's TYPE(MPI_Status) (MPI_STATUS_F2F08 / F082F) and back.
    call MPI_Status_f2f08(status, status08, ierr)
    if (ierr /= MPI_SUCCESS .or. status08%MPI_SOURCE /= left .or. status08%MPI_TAG /= 3) &
        call fail('MPI_Status_f2f08')
    call MPI_Status_f082f(status08, status2, ierr)
    call MPI_Get_count(status2, MPI_DOUBLE_PRECISION, count, ierr)
    if (count /= 10 .or. any(status2 /= status)) call fail('MPI_Status_f082f')

    ! Nonblocking: two receives (any source) and two sends, MPI_WAITALL with statuses.
    ibuf = [rank, rank * 2, rank * 3, rank * 4]
    call MPI_Irecv(rbuf(1), 2, MPI_INTEGER, MPI_ANY_SOURCE, 11, MPI_COMM_WORLD, requests(1), ierr)
    call MPI_Irecv(rbuf(3), 2, MPI_INTEGER, MPI_ANY_SOURCE, 12, MPI_COMM_WORLD, requests(2), ierr)
    call MPI_Isend(ibuf(1), 2, MPI_INTEGER, right, 11, MPI_COMM_WORLD, requests(3), ierr)
    call MPI_Isend(ibuf(3), 2, MPI_INTEGER, left, 12, MPI_COMM_WORLD, requests(4), ierr)
    call MPI_Waitall(4, requests, statuses, ierr)
    if (any(requests /= MPI_REQUEST_NULL)) call fail('waitall left requests')
    if (statuses(MPI_SOURCE, 1) /= left .or. statuses(MPI_SOURCE, 2) /= right) &
        call fail('waitall statuses')
    if (any(rbuf /= [left, left * 2, right * 3, right * 4])) call fail('waitall data')

    ! MPI_WAITANY returns a 1-based index.
    call MPI_Irecv(token, 1, MPI_INTEGER, left, 21, MPI_COMM_WORLD, requests(1), ierr)
    requests(2) = MPI_REQUEST_NULL
    call MPI_Send(rank, 1, MPI_INTEGER, right, 21, MPI_COMM_WORLD, ierr)
    call MPI_Waitany(2, requests, index, status, ierr)
    if (index /= 1 .or. token /= left) call fail('waitany index')
    call MPI_Waitany(2, requests, index, status, ierr)
    if (index /= MPI_UNDEFINED) call fail('waitany on null requests')

    ! Persistent requests, started together, completed by MPI_TESTALL / MPI_WAITALL.
    call MPI_Recv_init(rbuf, 4, MPI_INTEGER, left, 31, MPI_COMM_WORLD, requests(1), ierr)
    call MPI_Send_init(ibuf, 4, MPI_INTEGER, right, 31, MPI_COMM_WORLD, requests(2), ierr)
    do i = 1, 3
        ibuf = rank * 10 + i
        call MPI_Startall(2, requests, ierr)
        flag = .false.
        do while (.not. flag)
            call MPI_Testall(2, requests, flag, MPI_STATUSES_IGNORE, ierr)
        end do
        if (any(rbuf /= left * 10 + i)) call fail('persistent data')
        if (requests(1) == MPI_REQUEST_NULL) call fail('persistent request freed')
    end do
    call MPI_Request_free(requests(1), ierr)
    call MPI_Request_free(requests(2), ierr)

    ! MPI_PROBE, then receive what it found; MPI_TESTSOME with 1-based indices.
    call MPI_Isend(ibuf, 3, MPI_INTEGER, right, 41, MPI_COMM_WORLD, requests(1), ierr)
    call MPI_Probe(MPI_ANY_SOURCE, 41, MPI_COMM_WORLD, status, ierr)
    call MPI_Get_count(status, MPI_INTEGER, count, ierr)
    if (count /= 3 .or. status(MPI_SOURCE) /= left) call fail('probe')
    call MPI_Recv(rbuf, count, MPI_INTEGER, status(MPI_SOURCE), 41, MPI_COMM_WORLD, status, ierr)
    outcount = 0
    seen = 0
    do while (seen == 0)
        call MPI_Testsome(1, requests, outcount, indices, statuses, ierr)
        if (outcount == 1) seen = indices(1)
    end do
    if (seen /= 1) call fail('testsome index')

    ! MPI_PROC_NULL completes at once with source MPI_PROC_NULL.
    call MPI_Recv(rbuf, 4, MPI_INTEGER, MPI_PROC_NULL, 0, MPI_COMM_WORLD, status, ierr)
    if (status(MPI_SOURCE) /= MPI_PROC_NULL .or. status(MPI_TAG) /= MPI_ANY_TAG) &
        call fail('proc null status')

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
end program p2p
