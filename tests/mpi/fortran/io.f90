! io.f90 - MPI-IO and info objects from Fortran: file names and info keys/values as blank
! padded CHARACTER arguments, MPI_FILE_OPEN / SET_VIEW / WRITE_AT_ALL / READ_AT with
! INTEGER(KIND=MPI_OFFSET_KIND) offsets, MPI_FILE_GET_VIEW's datarep string, file size,
! MPI_FILE_DELETE, the default MPI_ERRORS_RETURN of files, and a CHARACTER broadcast.
program io
    use mpi
    implicit none
    integer :: ierr, rank, nprocs, errs, fh, info, nkeys, valuelen, class, i, etype, ftype
    integer :: buf(4), got(4), status(MPI_STATUS_SIZE), count
    integer(kind=MPI_OFFSET_KIND) :: offset, size, disp
    character(len=256) :: fname
    character(len=MPI_MAX_INFO_KEY) :: key
    character(len=MPI_MAX_INFO_VAL) :: value
    character(len=MPI_MAX_DATAREP_STRING) :: datarep
    logical :: flag

    errs = 0
    call MPI_Init(ierr)
    call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
    call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)

    ! A name unique to this run (rank 0's pid), broadcast as characters.
    if (rank == 0) write (fname, '(a,i0,a)') '/tmp/nodempi-fortran-io-', getpid(), '.dat'
    call MPI_Bcast(fname, len(fname), MPI_CHARACTER, 0, MPI_COMM_WORLD, ierr)

    ! Info: keys and values trimmed on the way in, padded on the way out.
    call MPI_Info_create(info, ierr)
    call MPI_Info_set(info, 'access_style    ', 'write_once,random   ', ierr)
    call MPI_Info_set(info, '  nodempi_test', '  yes  ', ierr)   ! blanks stripped both sides
    call MPI_Info_get_nkeys(info, nkeys, ierr)
    if (nkeys /= 2) call fail('info nkeys')
    call MPI_Info_get_nthkey(info, 1, key, ierr)
    if (key /= 'nodempi_test') call fail('info nthkey')
    call MPI_Info_get_valuelen(info, 'access_style', valuelen, flag, ierr)
    if (.not. flag .or. valuelen /= 17) call fail('info valuelen')
    valuelen = len(value)
    call MPI_Info_get_string(info, 'access_style', valuelen, value, flag, ierr)
    if (.not. flag .or. value /= 'write_once,random' .or. valuelen /= 17) &
        call fail('info get_string')
    value = 'xxxxxx'
    call MPI_Info_get(info, 'nodempi_test', 3, value, flag, ierr)
    if (.not. flag .or. value /= 'yes') call fail('info get blank padded')
    call MPI_Info_get(info, 'missing', 10, value, flag, ierr)
    if (flag) call fail('info get missing key')

    ! Opening a missing file returns (files default to MPI_ERRORS_RETURN).
    call MPI_File_open(MPI_COMM_WORLD, trim(fname) // '.missing', MPI_MODE_RDONLY, &
                       MPI_INFO_NULL, fh, ierr)
    call MPI_Error_class(ierr, class, ierr)
    if (class /= MPI_ERR_NO_SUCH_FILE) call fail('open missing file')

    call MPI_File_open(MPI_COMM_WORLD, fname, MPI_MODE_CREATE + MPI_MODE_RDWR, info, fh, ierr)
    if (ierr /= MPI_SUCCESS) call fail('open')
    disp = 0
    call MPI_File_set_view(fh, disp, MPI_INTEGER, MPI_INTEGER, 'native', MPI_INFO_NULL, ierr)
    call MPI_File_get_view(fh, disp, etype, ftype, datarep, ierr)
    if (datarep /= 'native' .or. etype /= MPI_INTEGER) call fail('get_view')
    buf = [(100 * rank + i, i = 1, 4)]
    offset = 4 * rank
    call MPI_File_write_at_all(fh, offset, buf, 4, MPI_INTEGER, status, ierr)
    call MPI_Get_count(status, MPI_INTEGER, count, ierr)
    if (ierr /= MPI_SUCCESS .or. count /= 4) call fail('write_at_all')
    call MPI_File_sync(fh, ierr)
    call MPI_Barrier(MPI_COMM_WORLD, ierr)
    call MPI_File_sync(fh, ierr)
    call MPI_File_get_size(fh, size, ierr)
    if (size /= 16 * nprocs) call fail('file size')
    offset = 4 * mod(rank + 1, nprocs)
    call MPI_File_read_at(fh, offset, got, 4, MPI_INTEGER, status, ierr)
    if (any(got /= [(100 * mod(rank + 1, nprocs) + i, i = 1, 4)])) call fail('read_at')
    call MPI_File_close(fh, ierr)
    if (fh /= MPI_FILE_NULL) call fail('close')
    call MPI_Barrier(MPI_COMM_WORLD, ierr)
    if (rank == 0) then
        call MPI_File_delete(fname, MPI_INFO_NULL, ierr)
        if (ierr /= MPI_SUCCESS) call fail('delete')
    end if
    call MPI_Info_free(info, ierr)

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
end program io
