! legacy.f - an MPI-1 style program (fixed form, mpif.h) using the
! names MPI-3.0 removed, which nodempi keeps: MPI_TYPE_EXTENT/LB/UB,
! MPI_TYPE_STRUCT with MPI_LB/MPI_UB (envelope MPI_COMBINER_STRUCT_
! INTEGER), MPI_TYPE_HVECTOR/HINDEXED (the _INTEGER combiners), an
! exchange whose extent MPI_UB sets, MPI_ADDRESS (an INTEGER: error
! class MPI_ERR_ARG when the address does not fit), MPI_ERRHANDLER_
! CREATE/SET/GET with a Fortran handler, MPI_KEYVAL_CREATE with
! MPI_DUP_FN and MPI_ATTR_PUT/GET/DELETE, and bad arguments.
      subroutine onerr(comm, code)
      implicit none
      integer comm, code, ncalls, lastcode, lastcomm
      common /handled/ ncalls, lastcode, lastcomm
      ncalls = ncalls + 1
      lastcode = code
      lastcomm = comm
      end

      program legacy
      implicit none
      include 'mpif.h'
      external onerr
      integer ncalls, lastcode, lastcomm
      common /handled/ ncalls, lastcode, lastcomm
      integer ierr, rank, nprocs, errs, t, t2, i, cls, comm, eh, eh2
      integer ext, lb, ub, ni, na, nd, comb, to, from, key, dup
      integer ints(10), types(3), lens(3), disps(3), sbuf(24), rbuf(24)
      integer status(MPI_STATUS_SIZE), iaddr, val
      integer(kind=MPI_ADDRESS_KIND) aints(1), a8
      logical flag

      errs = 0
      ncalls = 0
      call MPI_INIT(ierr)
      call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
      call MPI_COMM_SIZE(MPI_COMM_WORLD, nprocs, ierr)
      call MPI_COMM_SET_ERRHANDLER(MPI_COMM_WORLD, MPI_ERRORS_RETURN,
     &     ierr)
      call MPI_COMM_SET_ERRHANDLER(MPI_COMM_SELF, MPI_ERRORS_RETURN,
     &     ierr)

! Extent and bounds of a basic type and of the markers themselves.
      call MPI_TYPE_EXTENT(MPI_INTEGER, ext, ierr)
      call MPI_TYPE_LB(MPI_INTEGER, lb, ierr)
      call MPI_TYPE_UB(MPI_INTEGER, ub, ierr)
      if (ext .ne. 4 .or. lb .ne. 0 .or. ub .ne. 4)
     &     call fail(errs, rank, 'bounds of MPI_INTEGER')
      call MPI_TYPE_EXTENT(MPI_UB, ext, ierr)
      if (ierr .ne. MPI_SUCCESS .or. ext .ne. 0)
     &     call fail(errs, rank, 'extent of MPI_UB')

! MPI_TYPE_STRUCT with markers: lb -8, ub 20 whatever the data.
      lens(1) = 1
      lens(2) = 1
      lens(3) = 1
      disps(1) = -8
      disps(2) = 0
      disps(3) = 20
      types(1) = MPI_LB
      types(2) = MPI_INTEGER
      types(3) = MPI_UB
      call MPI_TYPE_STRUCT(3, lens, disps, types, t, ierr)
      call MPI_TYPE_LB(t, lb, ierr)
      call MPI_TYPE_UB(t, ub, ierr)
      call MPI_TYPE_EXTENT(t, ext, ierr)
      if (lb .ne. -8 .or. ub .ne. 20 .or. ext .ne. 28)
     &     call fail(errs, rank, 'struct with MPI_LB and MPI_UB')
      call MPI_TYPE_GET_ENVELOPE(t, ni, na, nd, comb, ierr)
      if (comb .ne. MPI_COMBINER_STRUCT_INTEGER .or. ni .ne. 7 .or.
     &    na .ne. 0 .or. nd .ne. 3)
     &     call fail(errs, rank, 'envelope of MPI_TYPE_STRUCT')
      call MPI_TYPE_GET_CONTENTS(t, 10, 1, 3, ints, aints, types, ierr)
      if (ints(1) .ne. 3 .or. ints(2) .ne. 1 .or. ints(5) .ne. -8 .or.
     &    ints(7) .ne. 20 .or. types(1) .ne. MPI_LB .or.
     &    types(2) .ne. MPI_INTEGER .or. types(3) .ne. MPI_UB)
     &     call fail(errs, rank, 'contents of MPI_TYPE_STRUCT')
! Nested: two copies of t one extent apart keep the outer markers.
      call MPI_TYPE_CONTIGUOUS(2, t, t2, ierr)
      call MPI_TYPE_LB(t2, lb, ierr)
      call MPI_TYPE_UB(t2, ub, ierr)
      if (lb .ne. -8 .or. ub .ne. 48)
     &     call fail(errs, rank, 'contiguous of the struct')
      call MPI_TYPE_FREE(t2, ierr)
      call MPI_TYPE_FREE(t, ierr)

! MPI_TYPE_HVECTOR and MPI_TYPE_HINDEXED: INTEGER strides in bytes.
      call MPI_TYPE_HVECTOR(3, 1, 16, MPI_INTEGER, t, ierr)
      call MPI_TYPE_EXTENT(t, ext, ierr)
      call MPI_TYPE_GET_ENVELOPE(t, ni, na, nd, comb, ierr)
      if (ext .ne. 36 .or. comb .ne. MPI_COMBINER_HVECTOR_INTEGER .or.
     &    ni .ne. 3 .or. na .ne. 0 .or. nd .ne. 1)
     &     call fail(errs, rank, 'MPI_TYPE_HVECTOR')
      call MPI_TYPE_GET_CONTENTS(t, 10, 1, 3, ints, aints, types, ierr)
      if (ints(1) .ne. 3 .or. ints(2) .ne. 1 .or. ints(3) .ne. 16 .or.
     &    types(1) .ne. MPI_INTEGER)
     &     call fail(errs, rank, 'contents of MPI_TYPE_HVECTOR')
      call MPI_TYPE_FREE(t, ierr)
      lens(1) = 1
      lens(2) = 2
      disps(1) = 12
      disps(2) = 0
      call MPI_TYPE_HINDEXED(2, lens, disps, MPI_INTEGER, t, ierr)
      call MPI_TYPE_UB(t, ub, ierr)
      call MPI_TYPE_GET_ENVELOPE(t, ni, na, nd, comb, ierr)
      if (ub .ne. 16 .or. comb .ne. MPI_COMBINER_HINDEXED_INTEGER .or.
     &    ni .ne. 5 .or. na .ne. 0 .or. nd .ne. 1)
     &     call fail(errs, rank, 'MPI_TYPE_HINDEXED')
      call MPI_TYPE_GET_CONTENTS(t, 10, 1, 3, ints, aints, types, ierr)
      if (ints(1) .ne. 2 .or. ints(3) .ne. 2 .or. ints(4) .ne. 12 .or.
     &    ints(5) .ne. 0)
     &     call fail(errs, rank, 'contents of MPI_TYPE_HINDEXED')
      call MPI_TYPE_FREE(t, ierr)

! Two INTEGERs per 24 bytes (MPI_UB): 4 records move 8 INTEGERs.
      lens(1) = 2
      lens(2) = 1
      disps(1) = 0
      disps(2) = 24
      types(1) = MPI_INTEGER
      types(2) = MPI_UB
      call MPI_TYPE_STRUCT(2, lens, disps, types, t, ierr)
      call MPI_TYPE_COMMIT(t, ierr)
      do i = 1, 24
         sbuf(i) = 100 * rank + i
         rbuf(i) = -1
      end do
      to = mod(rank + 1, nprocs)
      from = mod(rank + nprocs - 1, nprocs)
      call MPI_SENDRECV(sbuf, 4, t, to, 3, rbuf, 4, t, from, 3,
     &     MPI_COMM_WORLD, status, ierr)
      do i = 1, 24
         val = -1
         if (mod(i - 1, 6) .lt. 2) val = 100 * from + i
         if (rbuf(i) .ne. val) call fail(errs, rank, 'exchange')
      end do
      call MPI_TYPE_FREE(t, ierr)

! MPI_ADDRESS: the address as a default INTEGER when it fits.
      call MPI_GET_ADDRESS(sbuf(3), a8, ierr)
      call MPI_ADDRESS(sbuf(3), iaddr, ierr)
      if (a8 .ge. -2147483647 .and. a8 .le. 2147483647) then
         if (ierr .ne. MPI_SUCCESS .or. iaddr .ne. a8)
     &        call fail(errs, rank, 'MPI_ADDRESS')
      else
         call MPI_ERROR_CLASS(ierr, cls, i)
         if (cls .ne. MPI_ERR_ARG)
     &        call fail(errs, rank, 'MPI_ADDRESS too large')
      end if

! An error handler written in Fortran, through the MPI-1 calls.
      call MPI_COMM_DUP(MPI_COMM_WORLD, comm, ierr)
      call MPI_ERRHANDLER_CREATE(onerr, eh, ierr)
      call MPI_ERRHANDLER_SET(comm, eh, ierr)
      call MPI_ERRHANDLER_GET(comm, eh2, ierr)
      if (eh2 .ne. eh) call fail(errs, rank, 'MPI_ERRHANDLER_GET')
      call MPI_ERRHANDLER_FREE(eh2, ierr)
      call MPI_SEND(sbuf, 1, MPI_INTEGER, nprocs + 5, 0, comm, ierr)
      call MPI_ERROR_CLASS(lastcode, cls, i)
      if (ncalls .ne. 1 .or. cls .ne. MPI_ERR_RANK .or.
     &    lastcomm .ne. comm)
     &     call fail(errs, rank, 'Fortran error handler')
      call MPI_ERRHANDLER_FREE(eh, ierr)

! MPI-1 attributes: MPI_DUP_FN copies an INTEGER value on dup.
      call MPI_KEYVAL_CREATE(MPI_DUP_FN, MPI_NULL_DELETE_FN, key, 0,
     &     ierr)
      call MPI_ATTR_PUT(comm, key, 42, ierr)
      call MPI_COMM_DUP(comm, dup, ierr)
      call MPI_ATTR_GET(dup, key, val, flag, ierr)
      if (.not. flag .or. val .ne. 42)
     &     call fail(errs, rank, 'MPI_DUP_FN')
      call MPI_ATTR_DELETE(dup, key, ierr)
      call MPI_ATTR_GET(dup, key, val, flag, ierr)
      if (flag) call fail(errs, rank, 'MPI_ATTR_DELETE')
      call MPI_ATTR_GET(MPI_COMM_WORLD, MPI_TAG_UB, val, flag, ierr)
      if (.not. flag .or. val .lt. 32767)
     &     call fail(errs, rank, 'MPI_TAG_UB')
      call MPI_KEYVAL_FREE(key, ierr)
      call MPI_COMM_FREE(dup, ierr)
      call MPI_COMM_FREE(comm, ierr)

! Bad arguments.
      call MPI_TYPE_EXTENT(MPI_DATATYPE_NULL, ext, ierr)
      call MPI_ERROR_CLASS(ierr, cls, i)
      if (cls .ne. MPI_ERR_TYPE)
     &     call fail(errs, rank, 'MPI_TYPE_EXTENT(MPI_DATATYPE_NULL)')
      call MPI_TYPE_HVECTOR(-1, 1, 8, MPI_INTEGER, t, ierr)
      call MPI_ERROR_CLASS(ierr, cls, i)
      if (cls .ne. MPI_ERR_COUNT)
     &     call fail(errs, rank, 'MPI_TYPE_HVECTOR(-1)')
      types(1) = MPI_DATATYPE_NULL
      call MPI_TYPE_STRUCT(1, lens, disps, types, t, ierr)
      call MPI_ERROR_CLASS(ierr, cls, i)
      if (cls .ne. MPI_ERR_TYPE)
     &     call fail(errs, rank, 'MPI_TYPE_STRUCT(MPI_DATATYPE_NULL)')

      call MPI_ALLREDUCE(MPI_IN_PLACE, errs, 1, MPI_INTEGER, MPI_SUM,
     &     MPI_COMM_WORLD, ierr)
      if (rank .eq. 0 .and. errs .eq. 0) print '(a)', 'No Errors'
      call MPI_FINALIZE(ierr)
      if (errs .ne. 0) stop 1
      end

      subroutine fail(errs, rank, what)
      implicit none
      integer errs, rank
      character*(*) what
      print '(a,i0,2a)', 'rank ', rank, ' FAILED: ', what
      errs = errs + 1
      end
