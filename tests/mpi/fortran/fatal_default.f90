! fatal_default.f90 - errors.c's fatal_default from Fortran: with the default handler
! (MPI_ERRORS_ARE_FATAL) an MPI_SEND to rank 7 of a 2-rank job ends the whole job with the
! library's message, also for the rank blocked in a barrier. Not in the testlist: run by
! tests/mpi/errors/run_fatal_default.sh, which expects a non-zero exit.
program fatal_default
    use mpi
    implicit none
    integer :: ierr, rank, length, x
    character(len=MPI_MAX_LIBRARY_VERSION_STRING) :: library

    call MPI_Init(ierr)
    call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
    if (rank == 0) then
        call MPI_Get_library_version(library, length, ierr)
        print '(2a)', 'LIBRARY: ', library(1:index(library(1:length) // char(10), char(10)) - 1)
        flush(6)
        x = 42
        call MPI_Send(x, 1, MPI_INTEGER, 7, 0, MPI_COMM_WORLD, ierr)   ! must not return
        print '(a)', 'UNREACHABLE: MPI_SEND with an invalid rank returned'
    else
        call MPI_Barrier(MPI_COMM_WORLD, ierr)   ! never completes: rank 0 never enters
        print '(a)', 'UNREACHABLE: barrier completed'
    end if
    flush(6)
    call MPI_Finalize(ierr)
end program fatal_default
