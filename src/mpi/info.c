/* info.c - API: info objects (create, set, get in its three forms, delete, dup, keys, free)
 * and MPI_Info_create_env. Key and value length limits are checked here; storage is
 * src/core/info.c. Errors go to MPI_COMM_SELF's handler. Info objects need no runtime: MPI-4
 * (11.4.1) allows them before MPI_Init and after MPI_Finalize, e.g. to pass hints to
 * MPI_Session_init. */
#include <string.h>

#include "core/comm_create.h"
#include "mpi/comm_api.h"

static int begin_info(MPI_Info handle, struct core_info **info, const char *function)
{
    return mpi_get_info(handle, info, function);
}

static int check_key(const char *key, const char *function)
{
    if (!key)
        return core_error_raise(NULL, MPI_ERR_INFO_KEY, function, "key is NULL");
    size_t len = strnlen(key, MPI_MAX_INFO_KEY);
    if (len == 0 || len >= MPI_MAX_INFO_KEY)
        return core_error_raise(NULL, MPI_ERR_INFO_KEY, function,
                                "invalid key length %zu%s (must be 1..%d)", len,
                                len >= MPI_MAX_INFO_KEY ? "+" : "", MPI_MAX_INFO_KEY - 1);
    return MPI_SUCCESS;
}

static int no_memory(const char *function)
{
    return core_error_raise(NULL, MPI_ERR_NO_MEM, function, "out of memory");
}

int PMPI_Info_create(MPI_Info *info)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    int rc = mpi_check_pointer(NULL, info, "info", "MPI_Info_create");
    if (rc != MPI_SUCCESS)
        return rc;
    struct core_info *made = core_info_new();
    if (!made)
        return no_memory("MPI_Info_create");
    *info = core_info_to_handle(made);
    return MPI_SUCCESS;
}
#pragma weak MPI_Info_create = PMPI_Info_create

int PMPI_Info_create_env(int argc, char *argv[], MPI_Info *info)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    (void)argc; /* the command line is read from /proc/self/cmdline, as for MPI_INFO_ENV */
    (void)argv;
    if (!info)
        return core_error_raise(NULL, MPI_ERR_ARG, "MPI_Info_create_env", "info is NULL");
    struct core_info *made = NULL;
    if (core_info_dup(core_info_from_handle(MPI_INFO_ENV), &made) != MPI_SUCCESS)
        return no_memory("MPI_Info_create_env");
    *info = core_info_to_handle(made);
    return MPI_SUCCESS;
}
#pragma weak MPI_Info_create_env = PMPI_Info_create_env

int PMPI_Info_set(MPI_Info info, const char *key, const char *value)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    const char *fn = "MPI_Info_set";
    struct core_info *i;
    int rc = begin_info(info, &i, fn);
    if (rc == MPI_SUCCESS)
        rc = check_key(key, fn);
    if (rc == MPI_SUCCESS && !value)
        rc = core_error_raise(NULL, MPI_ERR_INFO_VALUE, fn, "value is NULL");
    if (rc == MPI_SUCCESS && strnlen(value, MPI_MAX_INFO_VAL) >= MPI_MAX_INFO_VAL)
        rc = core_error_raise(NULL, MPI_ERR_INFO_VALUE, fn,
                              "value of key \"%s\" longer than %d characters", key,
                              MPI_MAX_INFO_VAL - 1);
    if (rc != MPI_SUCCESS)
        return rc;
    return core_info_set(i, key, value) == MPI_SUCCESS ? MPI_SUCCESS : no_memory(fn);
}
#pragma weak MPI_Info_set = PMPI_Info_set

int PMPI_Info_delete(MPI_Info info, const char *key)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    struct core_info *i;
    int rc = begin_info(info, &i, "MPI_Info_delete");
    if (rc == MPI_SUCCESS)
        rc = check_key(key, "MPI_Info_delete");
    if (rc != MPI_SUCCESS)
        return rc;
    rc = core_info_delete(i, key);
    if (rc != MPI_SUCCESS)
        return core_error_raise(NULL, rc, "MPI_Info_delete", "key \"%s\" is not set", key);
    return MPI_SUCCESS;
}
#pragma weak MPI_Info_delete = PMPI_Info_delete

/* Copy at most `room` characters of src and a terminating NUL. */
static void copy_truncated(char *dst, const char *src, size_t room)
{
    size_t len = strlen(src);
    if (len > room)
        len = room;
    memcpy(dst, src, len);
    dst[len] = '\0';
}

int PMPI_Info_get(MPI_Info info, const char *key, int valuelen, char *value, int *flag)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    const char *fn = "MPI_Info_get";
    struct core_info *i;
    int rc = begin_info(info, &i, fn);
    if (rc == MPI_SUCCESS)
        rc = check_key(key, fn);
    if (rc == MPI_SUCCESS && valuelen < 0)
        rc = core_error_raise(NULL, MPI_ERR_ARG, fn, "invalid valuelen %d", valuelen);
    if (rc == MPI_SUCCESS)
        rc = mpi_check_pointer(NULL, value, "value", fn);
    if (rc == MPI_SUCCESS)
        rc = mpi_check_pointer(NULL, flag, "flag", fn);
    if (rc != MPI_SUCCESS)
        return rc;
    const char *found = core_info_get(i, key);
    *flag = found != NULL;
    if (found)
        copy_truncated(value, found, (size_t)valuelen);
    return MPI_SUCCESS;
}
#pragma weak MPI_Info_get = PMPI_Info_get

int PMPI_Info_get_string(MPI_Info info, const char *key, int *buflen, char *value, int *flag)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    const char *fn = "MPI_Info_get_string";
    struct core_info *i;
    int rc = begin_info(info, &i, fn);
    if (rc == MPI_SUCCESS)
        rc = check_key(key, fn);
    if (rc == MPI_SUCCESS)
        rc = mpi_check_pointer(NULL, buflen, "buflen", fn);
    if (rc == MPI_SUCCESS && *buflen < 0)
        rc = core_error_raise(NULL, MPI_ERR_ARG, fn, "invalid *buflen %d", *buflen);
    if (rc == MPI_SUCCESS && *buflen > 0)
        rc = mpi_check_pointer(NULL, value, "value", fn);
    if (rc == MPI_SUCCESS)
        rc = mpi_check_pointer(NULL, flag, "flag", fn);
    if (rc != MPI_SUCCESS)
        return rc;
    const char *found = core_info_get(i, key);
    *flag = found != NULL;
    if (!found)
        return MPI_SUCCESS;
    if (*buflen > 0) /* as much as fits, always NUL-terminated */
        copy_truncated(value, found, (size_t)*buflen - 1);
    *buflen = (int)strlen(found) + 1;
    return MPI_SUCCESS;
}
#pragma weak MPI_Info_get_string = PMPI_Info_get_string

int PMPI_Info_get_valuelen(MPI_Info info, const char *key, int *valuelen, int *flag)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    const char *fn = "MPI_Info_get_valuelen";
    struct core_info *i;
    int rc = begin_info(info, &i, fn);
    if (rc == MPI_SUCCESS)
        rc = check_key(key, fn);
    if (rc == MPI_SUCCESS)
        rc = mpi_check_pointer(NULL, valuelen, "valuelen", fn);
    if (rc == MPI_SUCCESS)
        rc = mpi_check_pointer(NULL, flag, "flag", fn);
    if (rc != MPI_SUCCESS)
        return rc;
    const char *found = core_info_get(i, key);
    *flag = found != NULL;
    if (found)
        *valuelen = (int)strlen(found);
    return MPI_SUCCESS;
}
#pragma weak MPI_Info_get_valuelen = PMPI_Info_get_valuelen

int PMPI_Info_get_nkeys(MPI_Info info, int *nkeys)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    struct core_info *i;
    int rc = begin_info(info, &i, "MPI_Info_get_nkeys");
    if (rc == MPI_SUCCESS)
        rc = mpi_check_pointer(NULL, nkeys, "nkeys", "MPI_Info_get_nkeys");
    if (rc == MPI_SUCCESS)
        *nkeys = i->nkeys;
    return rc;
}
#pragma weak MPI_Info_get_nkeys = PMPI_Info_get_nkeys

int PMPI_Info_get_nthkey(MPI_Info info, int n, char *key)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    struct core_info *i;
    int rc = begin_info(info, &i, "MPI_Info_get_nthkey");
    if (rc == MPI_SUCCESS && (n < 0 || n >= i->nkeys))
        rc = core_error_raise(NULL, MPI_ERR_ARG, "MPI_Info_get_nthkey",
                              "invalid n %d (the info has %d keys)", n, i->nkeys);
    if (rc == MPI_SUCCESS)
        rc = mpi_check_pointer(NULL, key, "key", "MPI_Info_get_nthkey");
    if (rc == MPI_SUCCESS)
        copy_truncated(key, i->entries[n].key, MPI_MAX_INFO_KEY - 1);
    return rc;
}
#pragma weak MPI_Info_get_nthkey = PMPI_Info_get_nthkey

int PMPI_Info_dup(MPI_Info info, MPI_Info *newinfo)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    struct core_info *i, *made = NULL;
    int rc = begin_info(info, &i, "MPI_Info_dup");
    if (rc == MPI_SUCCESS)
        rc = mpi_check_pointer(NULL, newinfo, "newinfo", "MPI_Info_dup");
    if (rc != MPI_SUCCESS)
        return rc;
    if (core_info_dup(i, &made) != MPI_SUCCESS)
        return no_memory("MPI_Info_dup");
    *newinfo = core_info_to_handle(made);
    return MPI_SUCCESS;
}
#pragma weak MPI_Info_dup = PMPI_Info_dup

int PMPI_Info_free(MPI_Info *info)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    struct core_info *i;
    int rc = mpi_check_pointer(NULL, info, "info", "MPI_Info_free");
    if (rc == MPI_SUCCESS)
        rc = mpi_get_info(*info, &i, "MPI_Info_free");
    if (rc == MPI_SUCCESS && i->predefined)
        rc = core_error_raise(NULL, MPI_ERR_INFO, "MPI_Info_free", "cannot free MPI_INFO_ENV");
    if (rc != MPI_SUCCESS)
        return rc;
    core_info_free(i);
    *info = MPI_INFO_NULL;
    return MPI_SUCCESS;
}
#pragma weak MPI_Info_free = PMPI_Info_free

/* MPI-4.1: the hardware resources a MPI_COMM_TYPE_RESOURCE_GUIDED split can use. */
int PMPI_Get_hw_resource_info(MPI_Info *hw_info)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    const char *fn = "MPI_Get_hw_resource_info";
    int rc = mpi_check_initialized(fn);
    if (rc == MPI_SUCCESS)
        rc = mpi_check_pointer(NULL, hw_info, "hw_info", fn);
    if (rc != MPI_SUCCESS)
        return rc;
    struct core_info *made = core_info_new();
    if (!made || core_hw_resource_info(made) != MPI_SUCCESS) {
        if (made)
            core_info_free(made);
        return no_memory(fn);
    }
    *hw_info = core_info_to_handle(made);
    return MPI_SUCCESS;
}
#pragma weak MPI_Get_hw_resource_info = PMPI_Get_hw_resource_info
