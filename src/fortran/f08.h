/* f08.h - what the mpi_f08 entry points (src/fortran/bindings_f08.c, generated, and f08.c)
 * add to module mpi's: IERROR is optional, so absent arrives as NULL, and a choice buffer is
 * a Fortran 2018 C descriptor (TYPE(*), DIMENSION(..) under BIND(C)) whose data must be
 * contiguous for the C library. Everything else is passed on to module mpi's entry points. */
#ifndef NODEMPI_FORTRAN_F08_H
#define NODEMPI_FORTRAN_F08_H

#include <ISO_Fortran_binding.h>
#include <stdbool.h>

#include "fortran/fortran.h"

static inline void f08_set_ierror(MPI_Fint *ierror, MPI_Fint error)
{
    if (ierror)
        *ierror = error;
}

/* The address of a choice buffer in *address, or false when its elements are not contiguous
 * in memory: then MPI_ERR_BUFFER has been raised for `function`, naming `argument`, and
 * stored in *ierror (when present). */
bool f08_buffer(const CFI_cdesc_t *buffer, const char *function, const char *argument,
                void **address, MPI_Fint *ierror);

#endif
