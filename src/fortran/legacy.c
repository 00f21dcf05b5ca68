/* legacy.c - Fortran entry points of the MPI-1 routines MPI-3.0 removed (a nodempi extension,
 * src/mpi/legacy.c): MPI_ADDRESS and MPI_TYPE_EXTENT/LB/UB return default INTEGERs, and
 * MPI_TYPE_HVECTOR/HINDEXED/STRUCT take INTEGER strides and displacements, reporting the MPI-2.2
 * combiners MPI_COMBINER_*_INTEGER. An address or bound that does not fit a default INTEGER is
 * MPI_ERR_ARG, as in MPICH: on 64-bit Linux most addresses do not, and programs should use
 * MPI_GET_ADDRESS (INTEGER(KIND=MPI_ADDRESS_KIND)) instead. */
#include <limits.h>
#include <stdlib.h>

#include "core/error.h"
#include "fortran/fortran.h"
#include "mpi/legacy.h"

/* value into a default INTEGER, or MPI_ERR_ARG through MPI_COMM_SELF's handler (the C call
 * that computed it raises there too). */
static int integer_out(MPI_Aint value, MPI_Fint *out, const char *what, const char *instead,
                       const char *function)
{
    if (value < INT_MIN || value > INT_MAX)
        return core_error_raise(NULL, MPI_ERR_ARG, function,
                                "%s %lld does not fit in a default INTEGER (use %s)", what,
                                (long long)value, instead);
    *out = (MPI_Fint)value;
    return MPI_SUCCESS;
}

void pmpi_address_(const void *location, MPI_Fint *address, MPI_Fint *ierror)
{
    MPI_Aint a = 0;
    *ierror = MPI_Address(f_buffer(location), &a);
    if (*ierror == MPI_SUCCESS)
        *ierror = integer_out(a, address, "address", "MPI_GET_ADDRESS", "MPI_Address");
}
#pragma weak mpi_address_ = pmpi_address_

void pmpi_type_extent_(const MPI_Fint *datatype, MPI_Fint *extent, MPI_Fint *ierror)
{
    MPI_Aint value = 0;
    *ierror = MPI_Type_extent(MPI_Type_fromint(*datatype), &value);
    if (*ierror == MPI_SUCCESS)
        *ierror = integer_out(value, extent, "extent", "MPI_TYPE_GET_EXTENT", "MPI_Type_extent");
}
#pragma weak mpi_type_extent_ = pmpi_type_extent_

void pmpi_type_lb_(const MPI_Fint *datatype, MPI_Fint *displacement, MPI_Fint *ierror)
{
    MPI_Aint value = 0;
    *ierror = MPI_Type_lb(MPI_Type_fromint(*datatype), &value);
    if (*ierror == MPI_SUCCESS)
        *ierror = integer_out(value, displacement, "lower bound", "MPI_TYPE_GET_EXTENT",
                              "MPI_Type_lb");
}
#pragma weak mpi_type_lb_ = pmpi_type_lb_

void pmpi_type_ub_(const MPI_Fint *datatype, MPI_Fint *displacement, MPI_Fint *ierror)
{
    MPI_Aint value = 0;
    *ierror = MPI_Type_ub(MPI_Type_fromint(*datatype), &value);
    if (*ierror == MPI_SUCCESS)
        *ierror = integer_out(value, displacement, "upper bound", "MPI_TYPE_GET_EXTENT",
                              "MPI_Type_ub");
}
#pragma weak mpi_type_ub_ = pmpi_type_ub_

void pmpi_type_hvector_(const MPI_Fint *count, const MPI_Fint *blocklength,
                        const MPI_Fint *stride, const MPI_Fint *oldtype, MPI_Fint *newtype,
                        MPI_Fint *ierror)
{
    MPI_Datatype c_newtype = MPI_DATATYPE_NULL;
    *ierror = mpi_type_hvector_integer(*count, *blocklength, *stride, MPI_Type_fromint(*oldtype),
                                       &c_newtype);
    if (*ierror == MPI_SUCCESS)
        *newtype = MPI_Type_toint(c_newtype);
}
#pragma weak mpi_type_hvector_ = pmpi_type_hvector_

void pmpi_type_hindexed_(const MPI_Fint *count, const MPI_Fint *blocklengths,
                         const MPI_Fint *displacements, const MPI_Fint *oldtype,
                         MPI_Fint *newtype, MPI_Fint *ierror)
{
    MPI_Datatype c_newtype = MPI_DATATYPE_NULL;
    *ierror = mpi_type_hindexed_integer(*count, blocklengths, displacements,
                                        MPI_Type_fromint(*oldtype), &c_newtype);
    if (*ierror == MPI_SUCCESS)
        *newtype = MPI_Type_toint(c_newtype);
}
#pragma weak mpi_type_hindexed_ = pmpi_type_hindexed_

void pmpi_type_struct_(const MPI_Fint *count, const MPI_Fint *blocklengths,
                       const MPI_Fint *displacements, const MPI_Fint *types, MPI_Fint *newtype,
                       MPI_Fint *ierror)
{
    int n = *count > 0 ? *count : 0;
    MPI_Datatype *c_types = malloc(sizeof(*c_types) * (size_t)(n > 0 ? n : 1));
    MPI_Datatype c_newtype = MPI_DATATYPE_NULL;
    if (!c_types) {
        *ierror = f_no_memory("MPI_Type_struct");
        return;
    }
    for (int i = 0; i < n; i++)
        c_types[i] = MPI_Type_fromint(types[i]);
    *ierror = mpi_type_struct_integer(*count, blocklengths, displacements, c_types, &c_newtype);
    if (*ierror == MPI_SUCCESS)
        *newtype = MPI_Type_toint(c_newtype);
    free(c_types);
}
#pragma weak mpi_type_struct_ = pmpi_type_struct_
