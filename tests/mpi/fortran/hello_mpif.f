! hello_mpif.f - fixed source form with include 'mpif.h' (the MPI-1 style of most old codes):
! ranks, a broadcast, MPI_COMM_DUP / MPI_COMM_COMPARE / MPI_COMM_FREE and MPI_IPROBE's
! LOGICAL flag.
      program hello_mpif
      implicit none
      include 'mpif.h'
      integer ierr, rank, nprocs, value, dup, result, errs
      logical flag
      errs = 0
      call MPI_INIT(ierr)
      call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
      call MPI_COMM_SIZE(MPI_COMM_WORLD, nprocs, ierr)
      value = 0
      if (rank .eq. 0) value = 42
      call MPI_BCAST(value, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
      if (value .ne. 42) then
         print *, 'rank', rank, ' FAILED: bcast gave', value
         errs = errs + 1
      endif
      call MPI_COMM_DUP(MPI_COMM_WORLD, dup, ierr)
      call MPI_COMM_COMPARE(MPI_COMM_WORLD, dup, result, ierr)
      if (result .ne. MPI_CONGRUENT .or. dup .eq. MPI_COMM_WORLD) then
         print *, 'rank', rank, ' FAILED: compare gave', result
         errs = errs + 1
      endif
      call MPI_IPROBE(MPI_ANY_SOURCE, MPI_ANY_TAG, dup, flag,
     &                MPI_STATUS_IGNORE, ierr)
      if (flag) then
         print *, 'rank', rank, ' FAILED: iprobe found a message'
         errs = errs + 1
      endif
      call MPI_COMM_FREE(dup, ierr)
      if (dup .ne. MPI_COMM_NULL) then
         print *, 'rank', rank, ' FAILED: freed handle not null'
         errs = errs + 1
      endif
      call MPI_ALLREDUCE(MPI_IN_PLACE, errs, 1, MPI_INTEGER, MPI_SUM,
     &                   MPI_COMM_WORLD, ierr)
      if (rank .eq. 0 .and. errs .eq. 0) print *, 'No Errors'
      call MPI_FINALIZE(ierr)
      if (errs .ne. 0) stop 1
      end
