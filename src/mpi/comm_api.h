/* comm_api.h - argument-check helpers shared by the communicator, group, attribute, info and
 * topology API files (src/mpi/{comm,group,attr,info,topo}.c). Same conventions as api.h: each
 * returns MPI_SUCCESS or the result of core_error_raise naming the function and argument. */
#ifndef NODEMPI_MPI_COMM_API_H
#define NODEMPI_MPI_COMM_API_H

#include "core/group.h"
#include "core/info.h"
#include "mpi/api.h"

static inline int mpi_get_group(MPI_Group handle, struct core_group **group,
                                const char *function)
{
    *group = core_group_from_handle(handle);
    if (*group)
        return MPI_SUCCESS;
    return core_error_raise(NULL, MPI_ERR_GROUP, function, "invalid group%s",
                            handle == MPI_GROUP_NULL ? " MPI_GROUP_NULL" : "");
}

static inline int mpi_get_info(MPI_Info handle, struct core_info **info, const char *function)
{
    *info = core_info_from_handle(handle);
    if (*info)
        return MPI_SUCCESS;
    return core_error_raise(NULL, MPI_ERR_INFO, function, "invalid info object%s",
                            handle == MPI_INFO_NULL ? " MPI_INFO_NULL" : "");
}

/* An info argument that may be MPI_INFO_NULL (*info = NULL then). */
static inline int mpi_get_optional_info(MPI_Info handle, struct core_info **info,
                                        const char *function)
{
    if (handle == MPI_INFO_NULL) {
        *info = NULL;
        return MPI_SUCCESS;
    }
    return mpi_get_info(handle, info, function);
}

static inline int mpi_check_pointer(struct core_comm *comm, const void *pointer,
                                    const char *name, const char *function)
{
    if (pointer)
        return MPI_SUCCESS;
    return core_error_raise(comm, MPI_ERR_ARG, function, "%s is NULL", name);
}

static inline int mpi_check_intracomm(struct core_comm *comm, const char *function)
{
    if (!comm->is_inter)
        return MPI_SUCCESS;
    return core_error_raise(comm, MPI_ERR_COMM, function,
                            "an intercommunicator is not allowed here");
}

/* Initialized, then a valid communicator: the start of most communicator calls. */
static inline int mpi_begin_comm(MPI_Comm handle, struct core_comm **comm, const char *function)
{
    int rc = mpi_check_initialized(function);
    if (rc == MPI_SUCCESS)
        rc = mpi_get_comm(handle, comm, function);
    return rc;
}

#endif
