/* abi.c - the MPI-5.0 ABI queries: MPI_Abi_get_version, MPI_Abi_get_info and the Fortran ABI
 * description (MPI_Abi_get_fortran_info / MPI_Abi_set_fortran_info). nodempi has no Fortran
 * bindings, so the Fortran description is only what the application set, kept as given; it
 * does not change the sizes of the Fortran datatypes. Like MPI_Get_version, these work before
 * MPI_Init and after MPI_Finalize. */
#include <stdio.h>

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
