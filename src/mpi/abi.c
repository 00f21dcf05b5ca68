/* abi.c - the MPI-5.0 ABI queries: MPI_Abi_get_version, MPI_Abi_get_info, the Fortran ABI
 * description (MPI_Abi_get_fortran_info / MPI_Abi_set_fortran_info: only what the application
 * set, kept as given; it does not change the sizes of the Fortran datatypes) and the values of
 * Fortran's .TRUE. and .FALSE. (MPI_Abi_get/set_fortran_booleans: gfortran's 1 and 0 when the
 * library has its Fortran bindings, else what the application set). Like MPI_Get_version,
 * these work before MPI_Init and after MPI_Finalize. */
#include <stdio.h>
#include <string.h>

#include "mpi/api.h"
#include "mpi/comm_api.h"

/* The description stored by MPI_Abi_set_fortran_info (at most once per process). */
static struct core_info *fortran_info;

int PMPI_Abi_get_version(int *abi_major, int *abi_minor)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    if (!abi_major || !abi_minor)
        return core_error_raise(NULL, MPI_ERR_ARG, "MPI_Abi_get_version", "%s is NULL",
                                abi_major ? "abi_minor" : "abi_major");
    *abi_major = MPI_ABI_VERSION;
    *abi_minor = MPI_ABI_SUBVERSION;
    return MPI_SUCCESS;
}
#pragma weak MPI_Abi_get_version = PMPI_Abi_get_version

static int set_size(struct core_info *info, const char *key, size_t size)
{
    char value[24];
    snprintf(value, sizeof value, "%zu", size);
    return core_info_set(info, key, value);
}

int PMPI_Abi_get_info(MPI_Info *info)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    const char *fn = "MPI_Abi_get_info";
    int rc = mpi_check_pointer(NULL, info, "info", fn);
    if (rc != MPI_SUCCESS)
        return rc;
    struct core_info *made = core_info_new();
    if (!made)
        return core_error_raise(NULL, MPI_ERR_NO_MEM, fn, "cannot allocate an info object");
    if ((rc = set_size(made, "mpi_aint_size", sizeof(MPI_Aint))) ||
        (rc = set_size(made, "mpi_count_size", sizeof(MPI_Count))) ||
        (rc = set_size(made, "mpi_offset_size", sizeof(MPI_Offset)))) {
        core_info_free(made);
        return core_error_raise(NULL, rc, fn, "cannot fill the info object");
    }
    *info = core_info_to_handle(made);
    return MPI_SUCCESS;
}
#pragma weak MPI_Abi_get_info = PMPI_Abi_get_info

/* A new copy of what MPI_Abi_set_fortran_info stored, or MPI_INFO_NULL when nothing was. */
int PMPI_Abi_get_fortran_info(MPI_Info *info)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    const char *fn = "MPI_Abi_get_fortran_info";
    int rc = mpi_check_pointer(NULL, info, "info", fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!fortran_info) {
        *info = MPI_INFO_NULL;
        return MPI_SUCCESS;
    }
    struct core_info *copy;
    if ((rc = core_info_dup(fortran_info, &copy)) != MPI_SUCCESS)
        return core_error_raise(NULL, rc, fn, "cannot copy the Fortran ABI info");
    *info = core_info_to_handle(copy);
    return MPI_SUCCESS;
}
#pragma weak MPI_Abi_get_fortran_info = PMPI_Abi_get_fortran_info

/* Stores a copy (the application keeps its info); a second call is MPI_ERR_ABI, as in
 * Open MPI, since the first description may already have been acted on. */
int PMPI_Abi_set_fortran_info(MPI_Info info)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    const char *fn = "MPI_Abi_set_fortran_info";
    struct core_info *given;
    int rc = mpi_get_info(info, &given, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    if (fortran_info)
        return core_error_raise(NULL, MPI_ERR_ABI, fn,
                                "the Fortran ABI info was already set (it can be set once)");
    if ((rc = core_info_dup(given, &fortran_info)) != MPI_SUCCESS) {
        fortran_info = NULL;
        return core_error_raise(NULL, rc, fn, "cannot copy the info object");
    }
    return MPI_SUCCESS;
}
#pragma weak MPI_Abi_set_fortran_info = PMPI_Abi_set_fortran_info

/* Fortran's LOGICAL values by size in bytes (1, 2, 4, 8, 16), as MPI_Abi_set_fortran_booleans
 * gave them. With the library's own Fortran bindings (gfortran), every kind is 1 and 0, known
 * from the start. */
enum { FORTRAN_LOGICAL_SIZES = 5, FORTRAN_LOGICAL_MAX = 16 };
static struct {
    int is_set;
    unsigned char true_value[FORTRAN_LOGICAL_MAX], false_value[FORTRAN_LOGICAL_MAX];
} fortran_booleans[FORTRAN_LOGICAL_SIZES];

/* The slot of a LOGICAL size (a power of two up to 16), or -1. */
static int logical_slot(int size)
{
    for (int slot = 0; slot < FORTRAN_LOGICAL_SIZES; slot++)
        if (size == 1 << slot)
            return slot;
    return -1;
}

/* gfortran's values, little-endian like the integers they are: 1 in the lowest byte. */
static void gfortran_booleans(int size, void *logical_true, void *logical_false)
{
    memset(logical_true, 0, (size_t)size);
    memset(logical_false, 0, (size_t)size);
    *(unsigned char *)logical_true = 1;
}

int PMPI_Abi_get_fortran_booleans(int logical_size, void *logical_true, void *logical_false,
                                  int *is_set)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    const char *fn = "MPI_Abi_get_fortran_booleans";
    int slot = logical_slot(logical_size);
    if (slot < 0)
        return core_error_raise(NULL, MPI_ERR_ARG, fn,
                                "logical_size %d is not a power of two from 1 to 16",
                                logical_size);
    if (!logical_true || !logical_false || !is_set)
        return core_error_raise(NULL, MPI_ERR_ARG, fn, "%s is NULL",
                                !logical_true ? "logical_true"
                                : !logical_false ? "logical_false" : "is_set");
    if (fortran_booleans[slot].is_set) {
        memcpy(logical_true, fortran_booleans[slot].true_value, (size_t)logical_size);
        memcpy(logical_false, fortran_booleans[slot].false_value, (size_t)logical_size);
        *is_set = 1;
    } else if (mpi_has_fortran()) {
        gfortran_booleans(logical_size, logical_true, logical_false);
        *is_set = 1;
    } else {
        *is_set = 0;
    }
    return MPI_SUCCESS;
}
#pragma weak MPI_Abi_get_fortran_booleans = PMPI_Abi_get_fortran_booleans

/* Once per size, as MPI_Abi_set_fortran_info; never over the library's own bindings' values. */
int PMPI_Abi_set_fortran_booleans(int logical_size, void *logical_true, void *logical_false)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    const char *fn = "MPI_Abi_set_fortran_booleans";
    int slot = logical_slot(logical_size);
    if (slot < 0)
        return core_error_raise(NULL, MPI_ERR_ARG, fn,
                                "logical_size %d is not a power of two from 1 to 16",
                                logical_size);
    if (!logical_true || !logical_false)
        return core_error_raise(NULL, MPI_ERR_ARG, fn, "%s is NULL",
                                !logical_true ? "logical_true" : "logical_false");
    if (mpi_has_fortran())
        return core_error_raise(NULL, MPI_ERR_ABI, fn,
                                "this library has Fortran bindings: .TRUE. and .FALSE. are "
                                "its compiler's (1 and 0) and cannot be set");
    if (fortran_booleans[slot].is_set)
        return core_error_raise(NULL, MPI_ERR_ABI, fn,
                                "the values of LOGICAL of %d bytes were already set (once)",
                                logical_size);
    memcpy(fortran_booleans[slot].true_value, logical_true, (size_t)logical_size);
    memcpy(fortran_booleans[slot].false_value, logical_false, (size_t)logical_size);
    fortran_booleans[slot].is_set = 1;
    return MPI_SUCCESS;
}
#pragma weak MPI_Abi_set_fortran_booleans = PMPI_Abi_set_fortran_booleans
