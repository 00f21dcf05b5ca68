/* ompi_fortran_on_mpich.c - a libmpi_mpifh.so.40 (Open MPI's Fortran mpif.h library) holding
 * just the 9 calls of Debian's BLACS testers (xCbtest, xFbtest: BLACS/TESTING/btprim.f) on top
 * of MPICH's C ABI, for tests/external/scalapack.sh only. Not part of nodempi.
 *
 * Why: Debian built the testers with Open MPI's mpif.h, so their own MPI calls carry Open MPI's
 * Fortran handle values (MPI_COMM_WORLD 0, MPI_INTEGER 7, ...), while the BLACS they test is
 * the one in libscalapack-mpich.so.2.2 (MPICH ABI). This library maps those values to MPICH's
 * C handles; linked against the real libmpich.so.12 it runs the testers on MPICH, against
 * mpich_abi_on_nodempi.c's on nodempi. Compile it with mpicc.mpich. */
#include <mpi.h> /* MPICH's */

/* Open MPI 4.1 mpif-handles.h values the testers use. */
static MPI_Comm comm_in(int f)
{
    if (f == 0)
        return MPI_COMM_WORLD;
    if (f == 1)
        return MPI_COMM_SELF;
    return (MPI_Comm)f; /* a communicator this library returned: an MPICH handle */
}

static MPI_Datatype type_in(int f)
{
    switch (f) {
    case 1: return MPI_BYTE;
    case 7: return MPI_INTEGER;
    case 13: return MPI_REAL;
    case 17: return MPI_DOUBLE_PRECISION;
    case 18: return MPI_COMPLEX;
    case 22: return MPI_DOUBLE_COMPLEX;
    default: return MPI_DATATYPE_NULL;
    }
}

void mpi_init_(int *ierr) { *ierr = MPI_Init(0, 0); }

void mpi_initialized_(int *flag, int *ierr)
{
    int c;
    *ierr = MPI_Initialized(&c);
    *flag = c != 0; /* gfortran's .TRUE. is 1 */
}

void mpi_comm_dup_(int *comm, int *newcomm, int *ierr)
{
    MPI_Comm c;
    *ierr = MPI_Comm_dup(comm_in(*comm), &c);
    *newcomm = (int)c;
}

void mpi_comm_rank_(int *comm, int *rank, int *ierr) { *ierr = MPI_Comm_rank(comm_in(*comm), rank); }

void mpi_comm_size_(int *comm, int *size, int *ierr) { *ierr = MPI_Comm_size(comm_in(*comm), size); }

void mpi_send_(void *buf, int *count, int *type, int *dest, int *tag, int *comm, int *ierr)
{
    *ierr = MPI_Send(buf, *count, type_in(*type), *dest, *tag, comm_in(*comm));
}

/* status: Open MPI's MPI_STATUS_SIZE is 6 integers; the testers never read it. */
void mpi_recv_(void *buf, int *count, int *type, int *src, int *tag, int *comm, int *status,
               int *ierr)
{
    (void)status;
    *ierr = MPI_Recv(buf, *count, type_in(*type), *src, *tag, comm_in(*comm), MPI_STATUS_IGNORE);
}

void mpi_type_size_(int *type, int *size, int *ierr) { *ierr = MPI_Type_size(type_in(*type), size); }

void mpi_abort_(int *comm, int *code, int *ierr) { *ierr = MPI_Abort(comm_in(*comm), *code); }
