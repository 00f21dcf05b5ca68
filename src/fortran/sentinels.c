/* sentinels.c - the common blocks behind mpif.h's special addresses (MPI_BOTTOM, MPI_IN_PLACE,
 * MPI_STATUS_IGNORE, ...), and the string conversions and out-of-memory error every binding
 * uses. A program's common block /mpi_fortran_bottom/ and these definitions are one symbol
 * after linking, so the address a Fortran call passes is the one fortran.h compares with; each
 * is sized as mpif.h declares. */
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "fortran/fortran.h"

MPI_Fint mpi_fortran_bottom_;
MPI_Fint mpi_fortran_in_place_;
MPI_Fint mpi_fortran_buffer_automatic_;
MPI_Fint mpi_fortran_status_ignore_[MPI_F_STATUS_SIZE];
MPI_Fint mpi_fortran_statuses_ignore_[MPI_F_STATUS_SIZE];
MPI_Fint mpi_fortran_errcodes_ignore_[1];
MPI_Fint mpi_fortran_unweighted_[1];
MPI_Fint mpi_fortran_weights_empty_[1];
char mpi_fortran_argv_null_[1];
char mpi_fortran_argvs_null_[1];

int f_no_memory(const char *function)
{
    return core_error_raise(NULL, MPI_ERR_NO_MEM, function,
                            "out of memory converting the Fortran arguments");
}

char *f_string_in(const char *fortran, size_t length)
{
    while (length > 0 && fortran[length - 1] == ' ')
        length--;
    char *s = malloc(length + 1);
    if (!s)
        return NULL;
    memcpy(s, fortran, length);
    s[length] = '\0';
    return s;
}

char *f_info_string_in(const char *fortran, size_t length)
{
    while (length > 0 && *fortran == ' ') {
        fortran++;
        length--;
    }
    return f_string_in(fortran, length);
}

void f_string_out(const char *c_string, char *fortran, size_t length)
{
    size_t n = strlen(c_string);
    if (n > length)
        n = length;
    memcpy(fortran, c_string, n);
    memset(fortran + n, ' ', length - n);
}
