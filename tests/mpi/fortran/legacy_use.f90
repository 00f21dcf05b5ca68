! legacy_use.f90 - the removed MPI-1 names through the module `mpi` (legacy.f uses mpif.h): the
! explicit interface of MPI_ADDRESS takes REAL and INTEGER buffers in one unit, MPI_LB, MPI_UB
! and MPI_COMBINER_STRUCT_INTEGER come from the module, and a record of one REAL and one
! INTEGER padded to 16 bytes by MPI_UB is broadcast with count 3.
program legacy_use
    use mpi
    implicit none
    integer :: ierr, rank, errs, t, ext, lb, ub, ni, na, nd, comb, i
    integer :: lens(3), disps(3), types(3), ibuf(12), iaddr
    real :: rbuf(12)
    integer(kind=MPI_ADDRESS_KIND) :: a8

    errs = 0
    call MPI_Init(ierr)
    call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
    call MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN, ierr)

    ! Both buffer types through the one interface; the result is MPI_GET_ADDRESS's when it fits.
    call MPI_Get_address(rbuf(2), a8, ierr)
    call MPI_Address(rbuf(2), iaddr, ierr)
    call check_address(a8, iaddr, ierr, 'REAL')
    call MPI_Get_address(ibuf(5), a8, ierr)
    call MPI_Address(ibuf(5), iaddr, ierr)
    call check_address(a8, iaddr, ierr, 'INTEGER')

    ! {REAL at 0, INTEGER at 4, MPI_UB at 16}: extent 16, so 3 records span 12 default words.
    lens = 1
    disps = [0, 4, 16]
    types = [MPI_REAL, MPI_INTEGER, MPI_UB]
    call MPI_Type_struct(3, lens, disps, types, t, ierr)
    call MPI_Type_commit(t, ierr)
    call MPI_Type_extent(t, ext, ierr)
    call MPI_Type_lb(t, lb, ierr)
    call MPI_Type_ub(t, ub, ierr)
    if (ext /= 16 .or. lb /= 0 .or. ub /= 16) call fail('bounds')
    call MPI_Type_get_envelope(t, ni, na, nd, comb, ierr)
    if (comb /= MPI_COMBINER_STRUCT_INTEGER .or. ni /= 7 .or. na /= 0 .or. nd /= 3) &
        call fail('envelope')
    ! One array of default INTEGERs holds the records (a REAL is stored by TRANSFER).
    ibuf = -1
    if (rank == 0) then
        do i = 0, 2
            ibuf(4 * i + 1) = transfer(real(i) + 0.5, 0)
            ibuf(4 * i + 2) = 10 * i
        end do
    end if
    call MPI_Bcast(ibuf, 3, t, 0, MPI_COMM_WORLD, ierr)
    do i = 0, 2
        if (ibuf(4 * i + 1) /= transfer(real(i) + 0.5, 0) .or. ibuf(4 * i + 2) /= 10 * i) &
            call fail('broadcast record')
        if (rank /= 0 .and. (ibuf(4 * i + 3) /= -1 .or. ibuf(4 * i + 4) /= -1)) &
            call fail('padding written')
    end do
    call MPI_Type_free(t, ierr)

    call MPI_Allreduce(MPI_IN_PLACE, errs, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
    if (rank == 0 .and. errs == 0) print '(a)', 'No Errors'
    call MPI_Finalize(ierr)
    if (errs /= 0) stop 1
contains
    subroutine check_address(expected, got, code, what)
        integer(kind=MPI_ADDRESS_KIND), intent(in) :: expected
        integer, intent(in) :: got, code
        character(len=*), intent(in) :: what
        integer :: c, e
        if (expected >= -huge(got) .and. expected <= huge(got)) then
            if (code /= MPI_SUCCESS .or. got /= expected) call fail('MPI_ADDRESS ' // what)
        else
            call MPI_Error_class(code, c, e)
            if (c /= MPI_ERR_ARG) call fail('MPI_ADDRESS too large ' // what)
        end if
    end subroutine check_address

    subroutine fail(what)
        character(len=*), intent(in) :: what
        print '(a,i0,2a)', 'rank ', rank, ' FAILED: ', what
        errs = errs + 1
    end subroutine fail
end program legacy_use
