! f08_io.f90 - MPI-IO through `use mpi_f08`: file_open with a CHARACTER name and
! TYPE(MPI_Info), write_at/read_at with INTEGER(KIND=MPI_OFFSET_KIND) offsets, set_view with a
! vector filetype (rank-interleaved blocks), write_all/read_all, get_size, the status count,
! a nonblocking iwrite_at, the default MPI_ERRORS_RETURN of files and file_delete.
program f08_io
    use mpi_f08
    implicit none
    integer, parameter :: block = 4
    integer :: rank, nprocs, errs, i, count, ierr, class
    integer :: buf(block), got(block)
    integer, asynchronous :: abuf(block)
    integer, allocatable :: all(:)
    type(MPI_File) :: fh
    type(MPI_Datatype) :: filetype
    type(MPI_Status) :: status
    type(MPI_Request) :: req
    integer(kind=MPI_OFFSET_KIND) :: offset, size
    character(len=256) :: fname

    errs = 0
    call MPI_Init()
    call MPI_Comm_rank(MPI_COMM_WORLD, rank)
    call MPI_Comm_size(MPI_COMM_WORLD, nprocs)
    if (rank == 0) write (fname, '(a,i0,a)') '/tmp/nodempi-f08-io-', getpid(), '.dat'
    call MPI_Bcast(fname, len(fname), MPI_CHARACTER, 0, MPI_COMM_WORLD)

    call MPI_File_open(MPI_COMM_WORLD, fname, ior(MPI_MODE_CREATE, MPI_MODE_RDWR), &
                       MPI_INFO_NULL, fh)
    if (fh == MPI_FILE_NULL) call fail('file_open')

    ! Independent: each rank writes its block at rank * block integers.
    buf = [(rank * 100 + i, i = 1, block)]
    offset = 4_MPI_OFFSET_KIND * block * rank
    call MPI_File_write_at(fh, offset, buf, block, MPI_INTEGER, status)
    call MPI_Get_count(status, MPI_INTEGER, count)
    if (count /= block) call fail('write_at count')
    call MPI_File_sync(fh)
    call MPI_Barrier(MPI_COMM_WORLD)
    call MPI_File_sync(fh)
    offset = 4_MPI_OFFSET_KIND * block * mod(rank + 1, nprocs)
    call MPI_File_read_at(fh, offset, got, block, MPI_INTEGER, MPI_STATUS_IGNORE)
    if (any(got /= [(mod(rank + 1, nprocs) * 100 + i, i = 1, block)])) call fail('read_at')
    call MPI_File_get_size(fh, size)
    if (size /= 4_MPI_OFFSET_KIND * block * nprocs) call fail('get_size')

    ! Collective through a view: element i of each rank goes to i * nprocs + rank.
    call MPI_Type_vector(block, 1, nprocs, MPI_INTEGER, filetype)
    call MPI_Type_commit(filetype)
    offset = 4_MPI_OFFSET_KIND * rank
    call MPI_File_set_view(fh, offset, MPI_INTEGER, filetype, 'native', MPI_INFO_NULL)
    buf = [(1000 * rank + i, i = 1, block)]
    call MPI_File_write_all(fh, buf, block, MPI_INTEGER, status)
    got = 0
    call MPI_File_seek(fh, 0_MPI_OFFSET_KIND, MPI_SEEK_SET)
    call MPI_File_read_all(fh, got, block, MPI_INTEGER, status)
    call MPI_Get_count(status, MPI_INTEGER, count)
    if (count /= block .or. any(got /= buf)) call fail('view read_all')
    call MPI_File_set_view(fh, 0_MPI_OFFSET_KIND, MPI_INTEGER, MPI_INTEGER, 'native', &
                           MPI_INFO_NULL)
    allocate(all(block * nprocs))
    call MPI_File_read_at_all(fh, 0_MPI_OFFSET_KIND, all, block * nprocs, MPI_INTEGER, &
                              MPI_STATUS_IGNORE)
    do i = 0, block * nprocs - 1
        if (all(i + 1) /= 1000 * mod(i, nprocs) + i / nprocs + 1) call fail('interleaved file')
    end do

    ! Nonblocking write past the end, then read back.
    abuf = -rank
    offset = 4_MPI_OFFSET_KIND * block * (nprocs + rank)
    call MPI_File_iwrite_at(fh, offset, abuf, block, MPI_INTEGER, req)
    call MPI_Wait(req, status)
    call MPI_File_read_at(fh, offset, got, block, MPI_INTEGER, status)
    if (any(got /= -rank)) call fail('iwrite_at')
    call MPI_File_close(fh)
    if (fh /= MPI_FILE_NULL) call fail('file_close')
    call MPI_Type_free(filetype)

    ! Files return errors by default: opening a missing file read-only gives MPI_ERR_NO_SUCH_FILE.
    call MPI_Barrier(MPI_COMM_WORLD)
    if (rank == 0) call MPI_File_delete(fname, MPI_INFO_NULL)
    call MPI_Barrier(MPI_COMM_WORLD)
    call MPI_File_open(MPI_COMM_WORLD, fname, MPI_MODE_RDONLY, MPI_INFO_NULL, fh, ierr)
    call MPI_Error_class(ierr, class)
    if (class /= MPI_ERR_NO_SUCH_FILE) call fail('open missing file')

    deallocate(all)
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
end program f08_io
