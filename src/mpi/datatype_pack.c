/* datatype_pack.c - API layer for moving typed data without communication: MPI_Pack/Unpack
 * (+ _c, Pack_size), the external32 forms, addresses (Get_address, Aint_add/diff), and counts
 * of received data by datatype (Get_count, Get_elements, Status_set_elements). The native pack
 * format is the plain packed stream (no header), so Pack_size is count * size. */
#include <limits.h>
#include <string.h>

#include "core/request.h"
#include "datatype/construct.h"
#include "mpi/api.h"

static int check_pointer(struct core_comm *comm, const void *pointer, const char *what,
                         const char *function)
{
    if (pointer)
        return MPI_SUCCESS;
    return core_error_raise(comm, MPI_ERR_ARG, function, "%s is NULL", what);
}

/* A datatype argument for queries: valid, committed not required. */
static int get_any_type(MPI_Datatype handle, struct dt_type **type, const char *function)
{
    *type = dt_from_handle(handle);
    if (*type)
        return MPI_SUCCESS;
    return core_error_raise(NULL, MPI_ERR_TYPE, function, "invalid datatype%s",
                            handle == MPI_DATATYPE_NULL ? " MPI_DATATYPE_NULL" : "");
}

/* ---- native pack ---- */

static int pack(const void *inbuf, MPI_Count incount, MPI_Datatype datatype, void *outbuf,
                MPI_Count outsize, MPI_Count *position, MPI_Comm comm_handle,
                const char *function)
{
    struct core_comm *comm;
    struct dt_type *type;
    int err;
    if ((err = mpi_check_initialized(function)) ||
        (err = mpi_get_comm(comm_handle, &comm, function)) ||
        (err = mpi_check_count(comm, incount, function)) ||
        (err = mpi_get_type(comm, datatype, &type, function)) ||
        (err = mpi_check_buffer(comm, inbuf, incount, type, function)) ||
        (err = check_pointer(comm, position, "position", function)))
        return err;
    MPI_Count bytes = (MPI_Count)dt_packed_size(type, incount);
    if (*position < 0 || outsize < 0 || *position > outsize || bytes > outsize - *position)
        return core_error_raise(comm, MPI_ERR_TRUNCATE, function,
                                "%lld bytes do not fit at position %lld of an output buffer "
                                "of %lld bytes", (long long)bytes, (long long)*position,
                                (long long)outsize);
    if (bytes > 0 && (err = check_pointer(comm, outbuf, "outbuf", function)))
        return err;
    dt_pack_range(type, inbuf, incount, 0, (char *)outbuf + *position, (size_t)bytes);
    *position += bytes;
    return MPI_SUCCESS;
}

int PMPI_Pack(const void *inbuf, int incount, MPI_Datatype datatype, void *outbuf, int outsize,
              int *position, MPI_Comm comm)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    if (!position)
        return pack(inbuf, incount, datatype, outbuf, outsize, NULL, comm, "MPI_Pack");
    MPI_Count at = *position;
    int err = pack(inbuf, incount, datatype, outbuf, outsize, &at, comm, "MPI_Pack");
    if (err == MPI_SUCCESS)
        *position = (int)at;
    return err;
}
#pragma weak MPI_Pack = PMPI_Pack

int PMPI_Pack_c(const void *inbuf, MPI_Count incount, MPI_Datatype datatype, void *outbuf,
                MPI_Count outsize, MPI_Count *position, MPI_Comm comm)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return pack(inbuf, incount, datatype, outbuf, outsize, position, comm, "MPI_Pack_c");
}
#pragma weak MPI_Pack_c = PMPI_Pack_c

static int unpack(const void *inbuf, MPI_Count insize, MPI_Count *position, void *outbuf,
                  MPI_Count outcount, MPI_Datatype datatype, MPI_Comm comm_handle,
                  const char *function)
{
    struct core_comm *comm;
    struct dt_type *type;
    int err;
    if ((err = mpi_check_initialized(function)) ||
        (err = mpi_get_comm(comm_handle, &comm, function)) ||
        (err = check_pointer(comm, position, "position", function)) ||
        (err = mpi_check_count(comm, outcount, function)) ||
        (err = mpi_get_type(comm, datatype, &type, function)) ||
        (err = mpi_check_buffer(comm, outbuf, outcount, type, function)))
        return err;
    MPI_Count bytes = (MPI_Count)dt_packed_size(type, outcount);
    if (*position < 0 || insize < 0 || *position > insize || bytes > insize - *position)
        return core_error_raise(comm, MPI_ERR_TRUNCATE, function,
                                "unpacking %lld bytes at position %lld runs past the input "
                                "buffer of %lld bytes", (long long)bytes, (long long)*position,
                                (long long)insize);
    if (bytes > 0 && (err = check_pointer(comm, inbuf, "inbuf", function)))
        return err;
    dt_unpack_range(type, outbuf, outcount, 0, (const char *)inbuf + *position, (size_t)bytes);
    *position += bytes;
    return MPI_SUCCESS;
}

int PMPI_Unpack(const void *inbuf, int insize, int *position, void *outbuf, int outcount,
                MPI_Datatype datatype, MPI_Comm comm)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    if (!position)
        return unpack(inbuf, insize, NULL, outbuf, outcount, datatype, comm, "MPI_Unpack");
    MPI_Count at = *position;
    int err = unpack(inbuf, insize, &at, outbuf, outcount, datatype, comm, "MPI_Unpack");
    if (err == MPI_SUCCESS)
        *position = (int)at;
    return err;
}
#pragma weak MPI_Unpack = PMPI_Unpack

int PMPI_Unpack_c(const void *inbuf, MPI_Count insize, MPI_Count *position, void *outbuf,
                  MPI_Count outcount, MPI_Datatype datatype, MPI_Comm comm)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return unpack(inbuf, insize, position, outbuf, outcount, datatype, comm, "MPI_Unpack_c");
}
#pragma weak MPI_Unpack_c = PMPI_Unpack_c

static int pack_size(MPI_Count incount, MPI_Datatype datatype, MPI_Comm comm_handle,
                     MPI_Count *size, const char *function)
{
    struct core_comm *comm;
    struct dt_type *type;
    int err;
    if ((err = mpi_check_initialized(function)) ||
        (err = mpi_check_count(NULL, incount, function)) ||
        (err = mpi_get_comm(comm_handle, &comm, function)) ||
        (err = mpi_get_type(comm, datatype, &type, function)) ||
        (err = check_pointer(comm, size, "size", function)))
        return err;
    *size = (MPI_Count)dt_packed_size(type, incount);
    return MPI_SUCCESS;
}

int PMPI_Pack_size(int incount, MPI_Datatype datatype, MPI_Comm comm, int *size)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    static const char function[] = "MPI_Pack_size";
    MPI_Count bytes;
    int err = pack_size(incount, datatype, comm, size ? &bytes : NULL, function);
    if (err != MPI_SUCCESS)
        return err;
    if (bytes > INT_MAX)
        return core_error_raise(core_comm_from_handle(comm), MPI_ERR_VALUE_TOO_LARGE, function,
                                "packed size %lld does not fit in an int: use MPI_Pack_size_c",
                                (long long)bytes);
    *size = (int)bytes;
    return MPI_SUCCESS;
}
#pragma weak MPI_Pack_size = PMPI_Pack_size

int PMPI_Pack_size_c(MPI_Count incount, MPI_Datatype datatype, MPI_Comm comm, MPI_Count *size)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return pack_size(incount, datatype, comm, size, "MPI_Pack_size_c");
}
#pragma weak MPI_Pack_size_c = PMPI_Pack_size_c

/* ---- external32 ---- */

static int check_datarep(const char *datarep, const char *function)
{
    if (!datarep)
        return core_error_raise(NULL, MPI_ERR_ARG, function, "datarep is NULL");
    if (strcmp(datarep, "external32") != 0)
        return core_error_raise(NULL, MPI_ERR_ARG, function,
                                "unsupported data representation \"%s\" (only \"external32\")",
                                datarep);
    return MPI_SUCCESS;
}

static int pack_external(const char *datarep, const void *inbuf, MPI_Count incount,
                         MPI_Datatype datatype, void *outbuf, MPI_Count outsize,
                         MPI_Count *position, const char *function)
{
    struct dt_type *type;
    int err;
    if ((err = mpi_check_initialized(function)) || (err = check_datarep(datarep, function)) ||
        (err = mpi_check_count(NULL, incount, function)) ||
        (err = mpi_get_type(NULL, datatype, &type, function)) ||
        (err = mpi_check_buffer(NULL, inbuf, incount, type, function)) ||
        (err = check_pointer(NULL, position, "position", function)))
        return err;
    MPI_Count bytes = dt_external32_size(type, incount);
    if (*position < 0 || outsize < 0 || *position > outsize || bytes > outsize - *position)
        return core_error_raise(NULL, MPI_ERR_TRUNCATE, function,
                                "%lld bytes do not fit at position %lld of an output buffer "
                                "of %lld bytes", (long long)bytes, (long long)*position,
                                (long long)outsize);
    if (bytes > 0 && (err = check_pointer(NULL, outbuf, "outbuf", function)))
        return err;
    dt_pack_external32(type, inbuf, incount, (char *)outbuf + *position);
    *position += bytes;
    return MPI_SUCCESS;
}

int PMPI_Pack_external(const char datarep[], const void *inbuf, int incount,
                       MPI_Datatype datatype, void *outbuf, MPI_Aint outsize,
                       MPI_Aint *position)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    MPI_Count at = position ? *position : 0;
    int err = pack_external(datarep, inbuf, incount, datatype, outbuf, outsize,
                            position ? &at : NULL, "MPI_Pack_external");
    if (err == MPI_SUCCESS)
        *position = (MPI_Aint)at;
    return err;
}
#pragma weak MPI_Pack_external = PMPI_Pack_external

int PMPI_Pack_external_c(const char datarep[], const void *inbuf, MPI_Count incount,
                         MPI_Datatype datatype, void *outbuf, MPI_Count outsize,
                         MPI_Count *position)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return pack_external(datarep, inbuf, incount, datatype, outbuf, outsize, position,
                         "MPI_Pack_external_c");
}
#pragma weak MPI_Pack_external_c = PMPI_Pack_external_c

static int unpack_external(const char *datarep, const void *inbuf, MPI_Count insize,
                           MPI_Count *position, void *outbuf, MPI_Count outcount,
                           MPI_Datatype datatype, const char *function)
{
    struct dt_type *type;
    int err;
    if ((err = mpi_check_initialized(function)) || (err = check_datarep(datarep, function)) ||
        (err = check_pointer(NULL, position, "position", function)) ||
        (err = mpi_check_count(NULL, outcount, function)) ||
        (err = mpi_get_type(NULL, datatype, &type, function)) ||
        (err = mpi_check_buffer(NULL, outbuf, outcount, type, function)))
        return err;
    MPI_Count bytes = dt_external32_size(type, outcount);
    if (*position < 0 || insize < 0 || *position > insize || bytes > insize - *position)
        return core_error_raise(NULL, MPI_ERR_TRUNCATE, function,
                                "unpacking %lld bytes at position %lld runs past the input "
                                "buffer of %lld bytes", (long long)bytes, (long long)*position,
                                (long long)insize);
    if (bytes > 0 && (err = check_pointer(NULL, inbuf, "inbuf", function)))
        return err;
    dt_unpack_external32(type, outbuf, outcount, (const char *)inbuf + *position);
    *position += bytes;
    return MPI_SUCCESS;
}

int PMPI_Unpack_external(const char datarep[], const void *inbuf, MPI_Aint insize,
                         MPI_Aint *position, void *outbuf, int outcount,
                         MPI_Datatype datatype)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    MPI_Count at = position ? *position : 0;
    int err = unpack_external(datarep, inbuf, insize, position ? &at : NULL, outbuf, outcount,
                              datatype, "MPI_Unpack_external");
    if (err == MPI_SUCCESS)
        *position = (MPI_Aint)at;
    return err;
}
#pragma weak MPI_Unpack_external = PMPI_Unpack_external

int PMPI_Unpack_external_c(const char datarep[], const void *inbuf, MPI_Count insize,
                           MPI_Count *position, void *outbuf, MPI_Count outcount,
                           MPI_Datatype datatype)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return unpack_external(datarep, inbuf, insize, position, outbuf, outcount, datatype,
                           "MPI_Unpack_external_c");
}
#pragma weak MPI_Unpack_external_c = PMPI_Unpack_external_c

static int pack_external_size(const char *datarep, MPI_Count incount, MPI_Datatype datatype,
                              MPI_Count *size, const char *function)
{
    struct dt_type *type;
    int err;
    if ((err = mpi_check_initialized(function)) || (err = check_datarep(datarep, function)) ||
        (err = mpi_check_count(NULL, incount, function)) ||
        (err = get_any_type(datatype, &type, function)) ||
        (err = check_pointer(NULL, size, "size", function)))
        return err;
    *size = dt_external32_size(type, incount);
    return MPI_SUCCESS;
}

int PMPI_Pack_external_size(const char datarep[], int incount, MPI_Datatype datatype,
                            MPI_Aint *size)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    MPI_Count bytes;
    int err = pack_external_size(datarep, incount, datatype, size ? &bytes : NULL,
                                 "MPI_Pack_external_size");
    if (err == MPI_SUCCESS)
        *size = (MPI_Aint)bytes;
    return err;
}
#pragma weak MPI_Pack_external_size = PMPI_Pack_external_size

int PMPI_Pack_external_size_c(const char datarep[], MPI_Count incount, MPI_Datatype datatype,
                              MPI_Count *size)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return pack_external_size(datarep, incount, datatype, size, "MPI_Pack_external_size_c");
}
#pragma weak MPI_Pack_external_size_c = PMPI_Pack_external_size_c

/* ---- addresses ---- */

int PMPI_Get_address(const void *location, MPI_Aint *address)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    static const char function[] = "MPI_Get_address";
    int err;
    if ((err = mpi_check_initialized(function)) ||
        (err = check_pointer(NULL, address, "address", function)))
        return err;
    *address = (MPI_Aint)(uintptr_t)location;
    return MPI_SUCCESS;
}
#pragma weak MPI_Get_address = PMPI_Get_address

/* Address arithmetic is plain integer arithmetic on this flat address space. */
MPI_Aint PMPI_Aint_add(MPI_Aint base, MPI_Aint disp)
{
    return (MPI_Aint)((uintptr_t)base + (uintptr_t)disp);
}
#pragma weak MPI_Aint_add = PMPI_Aint_add

MPI_Aint PMPI_Aint_diff(MPI_Aint addr1, MPI_Aint addr2)
{
    return (MPI_Aint)((uintptr_t)addr1 - (uintptr_t)addr2);
}
#pragma weak MPI_Aint_diff = PMPI_Aint_diff

/* ---- counts of received data ---- */

static int status_query(const MPI_Status *status, MPI_Datatype datatype, struct dt_type **type,
                        const void *count, const char *function)
{
    int err;
    if ((err = mpi_check_initialized(function)) ||
        (err = check_pointer(NULL, status, "status", function)) ||
        (err = mpi_get_type(NULL, datatype, type, function)) ||
        (err = check_pointer(NULL, count, "count", function)))
        return err;
    return MPI_SUCCESS;
}

/* Whole elements of type in the status's byte count, or MPI_UNDEFINED. */
static MPI_Count count_of(const MPI_Status *status, const struct dt_type *type)
{
    MPI_Count bytes = core_status_get_count(status);
    if (type->size == 0)
        return 0;
    return bytes % type->size ? MPI_UNDEFINED : bytes / type->size;
}

int PMPI_Get_count(const MPI_Status *status, MPI_Datatype datatype, int *count)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    struct dt_type *type;
    int err = status_query(status, datatype, &type, count, "MPI_Get_count");
    if (err == MPI_SUCCESS) {
        MPI_Count n = count_of(status, type);
        *count = n > INT_MAX ? MPI_UNDEFINED : (int)n;
    }
    return err;
}
#pragma weak MPI_Get_count = PMPI_Get_count

int PMPI_Get_count_c(const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    struct dt_type *type;
    int err = status_query(status, datatype, &type, count, "MPI_Get_count_c");
    if (err == MPI_SUCCESS)
        *count = count_of(status, type);
    return err;
}
#pragma weak MPI_Get_count_c = PMPI_Get_count_c

int PMPI_Get_elements(const MPI_Status *status, MPI_Datatype datatype, int *count)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    struct dt_type *type;
    int err = status_query(status, datatype, &type, count, "MPI_Get_elements");
    if (err == MPI_SUCCESS) {
        MPI_Count n;
        dt_get_elements(type, core_status_get_count(status), &n);
        *count = n > INT_MAX ? MPI_UNDEFINED : (int)n;
    }
    return err;
}
#pragma weak MPI_Get_elements = PMPI_Get_elements

int PMPI_Get_elements_x(const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    struct dt_type *type;
    int err = status_query(status, datatype, &type, count, "MPI_Get_elements_x");
    if (err == MPI_SUCCESS)
        dt_get_elements(type, core_status_get_count(status), count);
    return err;
}
#pragma weak MPI_Get_elements_x = PMPI_Get_elements_x

int PMPI_Get_elements_c(const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    struct dt_type *type;
    int err = status_query(status, datatype, &type, count, "MPI_Get_elements_c");
    if (err == MPI_SUCCESS)
        dt_get_elements(type, core_status_get_count(status), count);
    return err;
}
#pragma weak MPI_Get_elements_c = PMPI_Get_elements_c

static int set_elements(MPI_Status *status, MPI_Datatype datatype, MPI_Count count,
                        const char *function)
{
    struct dt_type *type;
    MPI_Count bytes;
    int err;
    if ((err = mpi_check_initialized(function)) ||
        (err = check_pointer(NULL, status, "status", function)) ||
        (err = mpi_get_type(NULL, datatype, &type, function)) ||
        (err = mpi_check_count(NULL, count, function)))
        return err;
    if (dt_elements_to_bytes(type, count, &bytes) != MPI_SUCCESS)
        return core_error_raise(NULL, MPI_ERR_ARG, function,
                                "%lld basic elements end inside a pair of datatype %s",
                                (long long)count, type->name[0] ? type->name : "(derived)");
    core_status_set_count(status, bytes);
    return MPI_SUCCESS;
}

int PMPI_Status_set_elements(MPI_Status *status, MPI_Datatype datatype, int count)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return set_elements(status, datatype, count, "MPI_Status_set_elements");
}
#pragma weak MPI_Status_set_elements = PMPI_Status_set_elements

int PMPI_Status_set_elements_x(MPI_Status *status, MPI_Datatype datatype, MPI_Count count)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return set_elements(status, datatype, count, "MPI_Status_set_elements_x");
}
#pragma weak MPI_Status_set_elements_x = PMPI_Status_set_elements_x

int PMPI_Status_set_elements_c(MPI_Status *status, MPI_Datatype datatype, MPI_Count count)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return set_elements(status, datatype, count, "MPI_Status_set_elements_c");
}
#pragma weak MPI_Status_set_elements_c = PMPI_Status_set_elements_c
