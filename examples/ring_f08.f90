! ring_f08.f90 - ring.f90 with the Fortran 2008 bindings (`use mpi_f08`): handle types,
! TYPE(MPI_Status), and IERROR left out.
! Build: build/bin/mpifort examples/ring_f08.f90 -o ring_f08;  run: build/bin/mpiexec -n 4 ./ring_f08
program ring_f08
    use mpi_f08
    implicit none
    integer :: rank, nprocs, length, token
    character(len=MPI_MAX_PROCESSOR_NAME) :: name
    type(MPI_Status) :: status

    call MPI_Init()
    call MPI_Comm_rank(MPI_COMM_WORLD, rank)
    call MPI_Comm_size(MPI_COMM_WORLD, nprocs)
    call MPI_Get_processor_name(name, length)
    token = 0
    if (rank == 0) then
        call MPI_Send(token, 1, MPI_INTEGER, mod(rank + 1, nprocs), 0, MPI_COMM_WORLD)
        call MPI_Recv(token, 1, MPI_INTEGER, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, status)
        if (status%MPI_SOURCE /= nprocs - 1) error stop 'token from the wrong rank'
    else
        call MPI_Recv(token, 1, MPI_INTEGER, rank - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE)
        token = token + rank
        call MPI_Send(token, 1, MPI_INTEGER, mod(rank + 1, nprocs), 0, MPI_COMM_WORLD)
    end if
    print '(a,i0,a,i0,3a,i0)', 'rank ', rank, ' of ', nprocs, ' on ', name(1:length), &
        ': token ', token
    call MPI_Finalize()
end program ring_f08
