/* sizeof.c - MPI_SIZEOF: the generic interfaces in src/fortran/mpi.f90 and mpi_f08.f90 pick
 * one of these by the argument's type and kind, so each just answers its size in bytes (the
 * storage size on x86-64 and arm64 with gfortran: REAL(10) occupies 16). The argument itself,
 * passed as an assumed-rank descriptor, is never read. */
#include "fortran/fortran.h"

static void answer(const void *x, int bytes, MPI_Fint *size, MPI_Fint *ierror)
{
    (void)x;
    *size = bytes;
    if (ierror) /* optional in mpi_f08 */
        *ierror = MPI_SUCCESS;
}

void mpi_sizeof_integer1_(void *x, MPI_Fint *size, MPI_Fint *ierror)
{
    answer(x, 1, size, ierror);
}

void mpi_sizeof_integer2_(void *x, MPI_Fint *size, MPI_Fint *ierror)
{
    answer(x, 2, size, ierror);
}

void mpi_sizeof_integer4_(void *x, MPI_Fint *size, MPI_Fint *ierror)
{
    answer(x, 4, size, ierror);
}

void mpi_sizeof_integer8_(void *x, MPI_Fint *size, MPI_Fint *ierror)
{
    answer(x, 8, size, ierror);
}

void mpi_sizeof_integer16_(void *x, MPI_Fint *size, MPI_Fint *ierror)
{
    answer(x, 16, size, ierror);
}

void mpi_sizeof_real4_(void *x, MPI_Fint *size, MPI_Fint *ierror)
{
    answer(x, 4, size, ierror);
}

void mpi_sizeof_real8_(void *x, MPI_Fint *size, MPI_Fint *ierror)
{
    answer(x, 8, size, ierror);
}

void mpi_sizeof_real10_(void *x, MPI_Fint *size, MPI_Fint *ierror)
{
    answer(x, 16, size, ierror);
}

void mpi_sizeof_real16_(void *x, MPI_Fint *size, MPI_Fint *ierror)
{
    answer(x, 16, size, ierror);
}

void mpi_sizeof_complex4_(void *x, MPI_Fint *size, MPI_Fint *ierror)
{
    answer(x, 8, size, ierror);
}

void mpi_sizeof_complex8_(void *x, MPI_Fint *size, MPI_Fint *ierror)
{
    answer(x, 16, size, ierror);
}

void mpi_sizeof_complex10_(void *x, MPI_Fint *size, MPI_Fint *ierror)
{
    answer(x, 32, size, ierror);
}

void mpi_sizeof_complex16_(void *x, MPI_Fint *size, MPI_Fint *ierror)
{
    answer(x, 32, size, ierror);
}

void mpi_sizeof_logical1_(void *x, MPI_Fint *size, MPI_Fint *ierror)
{
    answer(x, 1, size, ierror);
}

void mpi_sizeof_logical2_(void *x, MPI_Fint *size, MPI_Fint *ierror)
{
    answer(x, 2, size, ierror);
}

void mpi_sizeof_logical4_(void *x, MPI_Fint *size, MPI_Fint *ierror)
{
    answer(x, 4, size, ierror);
}

void mpi_sizeof_logical8_(void *x, MPI_Fint *size, MPI_Fint *ierror)
{
    answer(x, 8, size, ierror);
}

void mpi_sizeof_character_(void *x, MPI_Fint *size, MPI_Fint *ierror, size_t x_len)
{
    (void)x_len;
    answer(x, 1, size, ierror);
}
