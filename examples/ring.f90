! ring.f90 - ring.c in Fortran: a token goes around all ranks, each adds its rank.
! Build: build/bin/mpifort examples/ring.f90 -o ring_f;  run: build/bin/mpiexec -n 4 ./ring_f
program ring
    use mpi
    implicit none
    integer :: ierr, rank, nprocs, length, token
    character(len=MPI_MAX_PROCESSOR_NAME) :: name

    call MPI_Init(ierr)
    call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
    call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
    call MPI_Get_processor_name(name, length, ierr)
    token = 0
    if (rank == 0) then
        call MPI_Send(token, 1, MPI_INTEGER, mod(rank + 1, nprocs), 0, MPI_COMM_WORLD, ierr)
        call MPI_Recv(token, 1, MPI_INTEGER, nprocs - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE, &
                      ierr)
    else
        call MPI_Recv(token, 1, MPI_INTEGER, rank - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
        token = token + rank
        call MPI_Send(token, 1, MPI_INTEGER, mod(rank + 1, nprocs), 0, MPI_COMM_WORLD, ierr)
    end if
    print '(a,i0,a,i0,3a,i0)', 'rank ', rank, ' of ', nprocs, ' on ', name(1:length), &
        ': token ', token
    call MPI_Finalize(ierr)
end program ring
