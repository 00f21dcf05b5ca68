/* f08.h - what the mpi_f08 entry points (src/fortran/bindings_f08.c, generated, and f08.c)
 * add to module mpi's: IERROR is optional, so absent arrives as NULL, and a choice buffer is
 * a Fortran 2018 C descriptor (TYPE(*), DIMENSION(..) under BIND(C)): packed into a copy for
 * blocking routines here, described by a datatype for the others (f08_section.h).
 * Everything else is passed on to module mpi's entry points. */
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

/* Whether the descriptor's elements are contiguous in memory (also when empty, scalar or
 * assumed-size). */
bool f08_is_contiguous(const CFI_cdesc_t *buffer);

/* A choice buffer as the C library sees it: the program's memory when the descriptor's
 * elements are contiguous, else a packed copy made for a blocking routine (the way a compiler
 * copies an array section in and out around a call). */
struct f08_choice {
    void *address;
    void *copy; /* NULL: address is the program's memory */
};

/* Fill *choice for `buffer`. A non-contiguous buffer is packed into a new copy when
 * copy_allowed (blocking routines); otherwise (plain memory that MPI keeps using after the
 * call: attached buffers, window memory; the ALLTOALLW family) MPI_ERR_BUFFER is raised for
 * `function` naming `argument`, stored in *ierror when present, and false returned; false too
 * when the copy finds no memory (MPI_ERR_NO_MEM). */
bool f08_choice_in(struct f08_choice *choice, const CFI_cdesc_t *buffer, bool copy_allowed,
                   const char *function, const char *argument, MPI_Fint *ierror);

/* After the call: unpack the copy into the program's memory when the routine wrote the
 * buffer (`written`), and free it. */
void f08_choice_out(struct f08_choice *choice, const CFI_cdesc_t *buffer, bool written);

#endif
