/* legacy.c - API layer for the MPI-1 names MPI-3.0 removed, kept as a nodempi extension so old
 * programs (HPL 2.0, MPI-1 era codes) build and run unchanged (include/mpi-legacy.tsv and the
 * last section of include/mpi-prototypes.txt). Each is the MPI-2 call that replaced it, reporting
 * errors under its own name; MPI_LB and MPI_UB are types of src/datatype/markers.c. Also the
 * INTEGER-displacement constructors of the Fortran bindings (src/fortran/legacy.c). */
#include <stdint.h>
#include <stdlib.h>

#include "datatype/construct.h"
#include "mpi/api.h"
#include "mpi/legacy.h"

int PMPI_Address(void *location, MPI_Aint *address)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    static const char function[] = "MPI_Address";
    int err = mpi_check_initialized(function);
    if (err != MPI_SUCCESS)
        return err;
    if (!address)
        return core_error_raise(NULL, MPI_ERR_ARG, function, "address is NULL");
    *address = (MPI_Aint)(uintptr_t)location;
    return MPI_SUCCESS;
}
#pragma weak MPI_Address = PMPI_Address

/* ---- extent, lb, ub: MPI_Type_get_extent's numbers ---- */

enum bound { BOUND_EXTENT, BOUND_LB, BOUND_UB };

static int type_bound(MPI_Datatype datatype, MPI_Aint *out, enum bound which, const char *what,
                      const char *function)
{
    int err = mpi_check_initialized(function);
    if (err != MPI_SUCCESS)
        return err;
    struct dt_type *type = dt_from_handle(datatype);
    if (!type)
        return core_error_raise(NULL, MPI_ERR_TYPE, function, "invalid datatype%s",
                                datatype == MPI_DATATYPE_NULL ? " MPI_DATATYPE_NULL" : "");
    if (!out)
        return core_error_raise(NULL, MPI_ERR_ARG, function, "%s is NULL", what);
    *out = which == BOUND_EXTENT ? type->extent
           : which == BOUND_LB   ? type->lb
                                 : type->lb + type->extent;
    return MPI_SUCCESS;
}

int PMPI_Type_extent(MPI_Datatype datatype, MPI_Aint *extent)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return type_bound(datatype, extent, BOUND_EXTENT, "extent", "MPI_Type_extent");
}
#pragma weak MPI_Type_extent = PMPI_Type_extent

int PMPI_Type_lb(MPI_Datatype datatype, MPI_Aint *displacement)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return type_bound(datatype, displacement, BOUND_LB, "displacement", "MPI_Type_lb");
}
#pragma weak MPI_Type_lb = PMPI_Type_lb

int PMPI_Type_ub(MPI_Datatype datatype, MPI_Aint *displacement)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return type_bound(datatype, displacement, BOUND_UB, "displacement", "MPI_Type_ub");
}
#pragma weak MPI_Type_ub = PMPI_Type_ub

/* ---- constructors ---- */

int PMPI_Type_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype,
                      MPI_Datatype *newtype)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return mpi_type_hvector(count, blocklength, stride, oldtype, newtype, "MPI_Type_hvector");
}
#pragma weak MPI_Type_hvector = PMPI_Type_hvector

int PMPI_Type_hindexed(int count, const int array_of_blocklengths[],
                       const MPI_Aint array_of_displacements[], MPI_Datatype oldtype,
                       MPI_Datatype *newtype)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return mpi_type_hindexed(count, array_of_blocklengths, array_of_displacements, oldtype,
                             newtype, "MPI_Type_hindexed");
}
#pragma weak MPI_Type_hindexed = PMPI_Type_hindexed

int PMPI_Type_struct(int count, const int array_of_blocklengths[],
                     const MPI_Aint array_of_displacements[], const MPI_Datatype array_of_types[],
                     MPI_Datatype *newtype)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return mpi_type_struct(count, array_of_blocklengths, array_of_displacements, array_of_types,
                           newtype, "MPI_Type_struct");
}
#pragma weak MPI_Type_struct = PMPI_Type_struct

/* ---- error handlers ---- */

int PMPI_Errhandler_create(MPI_Handler_function *function, MPI_Errhandler *errhandler)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return mpi_comm_create_errhandler(function, errhandler, "MPI_Errhandler_create");
}
#pragma weak MPI_Errhandler_create = PMPI_Errhandler_create

int PMPI_Errhandler_get(MPI_Comm comm, MPI_Errhandler *errhandler)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return mpi_comm_get_errhandler(comm, errhandler, "MPI_Errhandler_get");
}
#pragma weak MPI_Errhandler_get = PMPI_Errhandler_get

int PMPI_Errhandler_set(MPI_Comm comm, MPI_Errhandler errhandler)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return mpi_comm_set_errhandler(comm, errhandler, "MPI_Errhandler_set");
}
#pragma weak MPI_Errhandler_set = PMPI_Errhandler_set

/* ---- Fortran's removed constructors: INTEGER displacements, the *_INTEGER combiners ---- */

/* Replace the contents the MPI_Aint constructor recorded by the Fortran call's arguments; on
 * failure the new type is freed. */
static int integer_contents(MPI_Datatype *newtype, int combiner, MPI_Count nints,
                            const int *ints, MPI_Count ntypes, const MPI_Datatype *types,
                            const char *function)
{
    struct dt_type *type = dt_from_handle(*newtype);
    int err = dt_set_contents(type, combiner, nints, ints, 0, NULL, 0, NULL, ntypes, types);
    if (err == MPI_SUCCESS)
        return MPI_SUCCESS;
    dt_release(type);
    *newtype = MPI_DATATYPE_NULL;
    return core_error_raise(NULL, err, function, "out of memory");
}

/* The integers of MPI_COMBINER_HINDEXED_INTEGER / _STRUCT_INTEGER: count, the block lengths,
 * the displacements (MPI-2.2 section 4.1.13). */
static int *count_lens_displs(int count, const int *lens, const int *displs)
{
    int *ints = malloc((1 + 2 * (size_t)count) * sizeof(*ints));
    if (!ints)
        return NULL;
    ints[0] = count;
    for (int i = 0; i < count; i++) {
        ints[1 + i] = lens[i];
        ints[1 + count + i] = displs[i];
    }
    return ints;
}

int mpi_type_hvector_integer(int count, int blocklength, int stride, MPI_Datatype oldtype,
                             MPI_Datatype *newtype)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    static const char function[] = "MPI_Type_hvector";
    int err = mpi_type_hvector(count, blocklength, stride, oldtype, newtype, function);
    if (err != MPI_SUCCESS)
        return err;
    int ints[3] = {count, blocklength, stride};
    return integer_contents(newtype, MPI_COMBINER_HVECTOR_INTEGER, 3, ints, 1, &oldtype,
                            function);
}

/* Hindexed and struct: build with MPI_Aint displacements, then record the INTEGER form. Bad
 * arguments (a negative count, NULL arrays) are left for the constructor to report. */
static int integer_blocks(int count, const int *lens, const int *displs, int is_struct,
                          const MPI_Datatype *types, MPI_Datatype oldtype,
                          MPI_Datatype *newtype, const char *function)
{
    int usable = count == 0 || (count > 0 && lens && displs);
    MPI_Aint *aints = usable ? malloc((size_t)(count > 0 ? count : 1) * sizeof(*aints)) : NULL;
    int *ints = usable ? count_lens_displs(count, lens, displs) : NULL;
    if (usable && (!aints || !ints)) {
        free(aints);
        free(ints);
        return core_error_raise(NULL, MPI_ERR_NO_MEM, function, "out of memory");
    }
    for (int i = 0; usable && i < count; i++)
        aints[i] = displs[i];
    const MPI_Aint *bytes = usable ? aints : (const MPI_Aint *)displs; /* NULL: reported */
    int err = is_struct ? mpi_type_struct(count, lens, bytes, types, newtype, function)
                        : mpi_type_hindexed(count, lens, bytes, oldtype, newtype, function);
    if (err == MPI_SUCCESS)
        err = is_struct
                  ? integer_contents(newtype, MPI_COMBINER_STRUCT_INTEGER,
                                     1 + 2 * (MPI_Count)count, ints, count, types, function)
                  : integer_contents(newtype, MPI_COMBINER_HINDEXED_INTEGER,
                                     1 + 2 * (MPI_Count)count, ints, 1, &oldtype, function);
    free(aints);
    free(ints);
    return err;
}

int mpi_type_hindexed_integer(int count, const int array_of_blocklengths[],
                              const int array_of_displacements[], MPI_Datatype oldtype,
                              MPI_Datatype *newtype)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return integer_blocks(count, array_of_blocklengths, array_of_displacements, 0, NULL,
                          oldtype, newtype, "MPI_Type_hindexed");
}

int mpi_type_struct_integer(int count, const int array_of_blocklengths[],
                            const int array_of_displacements[],
                            const MPI_Datatype array_of_types[], MPI_Datatype *newtype)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return integer_blocks(count, array_of_blocklengths, array_of_displacements, 1,
                          array_of_types, MPI_DATATYPE_NULL, newtype, "MPI_Type_struct");
}
