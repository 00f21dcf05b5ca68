/* partitioned.c - API of MPI-4 partitioned communication: MPI_Psend_init, MPI_Precv_init,
 * MPI_Pready, MPI_Pready_range, MPI_Pready_list, MPI_Parrived. Checks arguments and hands the
 * work to src/p2p/partitioned.c; starting, completing and freeing the requests is the job of the
 * ordinary persistent-request calls (MPI_Start, MPI_Wait, MPI_Request_free). */
#include "mpi/api.h"
#include "mpi/comm_api.h"
#include "p2p/partitioned.h"

static int raised(struct core_comm *comm, int rc, const char *function)
{
    if (rc == MPI_SUCCESS)
        return rc;
    return core_error_raise(comm, rc, function, "%s", core_error_string(rc));
}

/* Wildcards are not allowed in partitioned communication (MPI-4.1 section 4.2.2). */
static int check_init(const void *buf, int partitions, MPI_Count count, MPI_Datatype datatype,
                      int peer, int tag, MPI_Comm comm, MPI_Info info, MPI_Request *request,
                      struct core_comm **c, struct dt_type **type, const char *function)
{
    int rc;
    struct core_info *ignored;
    if ((rc = mpi_check_initialized(function)) || (rc = mpi_get_comm(comm, c, function)))
        return rc;
    if (partitions < 0)
        return core_error_raise(*c, MPI_ERR_ARG, function, "invalid partitions %d", partitions);
    if ((rc = mpi_check_count(*c, count, function)) ||
        (rc = mpi_get_type(*c, datatype, type, function)) ||
        (rc = mpi_check_buffer(*c, buf, count * partitions, *type, function)) ||
        (rc = mpi_check_dest(*c, peer, function)) ||
        (rc = mpi_check_send_tag(*c, tag, function)) ||
        (rc = mpi_get_optional_info(info, &ignored, function)))
        return rc;
    if (!request)
        return core_error_raise(*c, MPI_ERR_ARG, function, "NULL request pointer");
    return MPI_SUCCESS;
}

int PMPI_Psend_init(const void *buf, int partitions, MPI_Count count, MPI_Datatype datatype,
                    int dest, int tag, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    const char *fn = "MPI_Psend_init";
    struct core_comm *c;
    struct dt_type *type = NULL;
    int rc = check_init(buf, partitions, count, datatype, dest, tag, comm, info, request, &c,
                        &type, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    struct core_request *r;
    rc = p2p_part_init(c, 1, (void *)buf, partitions, count, type, dest, tag, &r);
    if (rc == MPI_SUCCESS)
        *request = core_request_to_handle(r);
    return raised(c, rc, fn);
}
#pragma weak MPI_Psend_init = PMPI_Psend_init

int PMPI_Precv_init(void *buf, int partitions, MPI_Count count, MPI_Datatype datatype,
                    int source, int tag, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    const char *fn = "MPI_Precv_init";
    struct core_comm *c;
    struct dt_type *type = NULL;
    int rc = check_init(buf, partitions, count, datatype, source, tag, comm, info, request, &c,
                        &type, fn);
    if (rc != MPI_SUCCESS)
        return rc;
    struct core_request *r;
    rc = p2p_part_init(c, 0, buf, partitions, count, type, source, tag, &r);
    if (rc == MPI_SUCCESS)
        *request = core_request_to_handle(r);
    return raised(c, rc, fn);
}
#pragma weak MPI_Precv_init = PMPI_Precv_init

/* request must be an active partitioned request of the given direction. */
static int get_active(MPI_Request handle, int is_send, struct core_request **r,
                      const char *function)
{
    int rc = mpi_check_initialized(function);
    if (rc != MPI_SUCCESS)
        return rc;
    *r = core_request_from_handle(handle);
    if (!p2p_part_is(*r, is_send)) /* on the request's communicator when it has one */
        return core_error_raise(*r ? (*r)->comm : NULL, MPI_ERR_REQUEST, function,
                                "request is not a partitioned %s request",
                                is_send ? "send" : "receive");
    if (is_send && !(*r)->active)
        return core_error_raise((*r)->comm, MPI_ERR_REQUEST, function,
                                "request is not active (call MPI_Start first)");
    return MPI_SUCCESS;
}

static int check_partition(struct core_request *r, int partition, const char *what,
                           const char *function)
{
    int n = p2p_part_partitions(r);
    if (partition >= 0 && partition < n)
        return MPI_SUCCESS;
    return core_error_raise(r->comm, MPI_ERR_ARG, function,
                            "invalid %s %d (the request has %d partitions)", what, partition, n);
}

static int ready(struct core_request *r, int low, int high, const char *function)
{
    int rc = p2p_part_ready(r, low, high);
    if (rc == MPI_ERR_ARG)
        return core_error_raise(r->comm, rc, function,
                                "a partition of %d..%d is already ready in this round", low,
                                high);
    return raised(r->comm, rc, function);
}

int PMPI_Pready(int partition, MPI_Request request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    const char *fn = "MPI_Pready";
    struct core_request *r;
    int rc;
    if ((rc = get_active(request, 1, &r, fn)) ||
        (rc = check_partition(r, partition, "partition", fn)))
        return rc;
    return ready(r, partition, partition, fn);
}
#pragma weak MPI_Pready = PMPI_Pready

int PMPI_Pready_range(int partition_low, int partition_high, MPI_Request request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    const char *fn = "MPI_Pready_range";
    struct core_request *r;
    int rc;
    if ((rc = get_active(request, 1, &r, fn)) ||
        (rc = check_partition(r, partition_low, "partition_low", fn)) ||
        (rc = check_partition(r, partition_high, "partition_high", fn)))
        return rc;
    if (partition_high < partition_low)
        return core_error_raise(r->comm, MPI_ERR_ARG, fn,
                                "partition_high %d is below partition_low %d", partition_high,
                                partition_low);
    return ready(r, partition_low, partition_high, fn);
}
#pragma weak MPI_Pready_range = PMPI_Pready_range

/* Runs of consecutive increasing partitions go out as one message each. */
int PMPI_Pready_list(int length, const int array_of_partitions[], MPI_Request request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    const char *fn = "MPI_Pready_list";
    struct core_request *r;
    int rc;
    if ((rc = get_active(request, 1, &r, fn)))
        return rc;
    if (length < 0)
        return core_error_raise(r->comm, MPI_ERR_ARG, fn, "invalid length %d", length);
    if (length > 0 && !array_of_partitions)
        return core_error_raise(r->comm, MPI_ERR_ARG, fn, "NULL array_of_partitions");
    for (int i = 0; i < length; i++)
        if ((rc = check_partition(r, array_of_partitions[i], "partition", fn)))
            return rc;
    for (int i = 0; i < length; i++) {
        int low = array_of_partitions[i], high = low;
        while (i + 1 < length && array_of_partitions[i + 1] == high + 1) {
            high++;
            i++;
        }
        if ((rc = ready(r, low, high, fn)) != MPI_SUCCESS)
            return rc;
    }
    return MPI_SUCCESS;
}
#pragma weak MPI_Pready_list = PMPI_Pready_list

int PMPI_Parrived(MPI_Request request, int partition, int *flag)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    const char *fn = "MPI_Parrived";
    struct core_request *r;
    int rc;
    if (request == MPI_REQUEST_NULL) { /* true, as for an inactive request (MPI-4.1 4.2.3) */
        if ((rc = mpi_check_initialized(fn)))
            return rc;
        if (!flag)
            return core_error_raise(NULL, MPI_ERR_ARG, fn, "NULL flag");
        *flag = 1;
        return MPI_SUCCESS;
    }
    if ((rc = get_active(request, 0, &r, fn)) ||
        (rc = check_partition(r, partition, "partition", fn)))
        return rc;
    if (!flag)
        return core_error_raise(r->comm, MPI_ERR_ARG, fn, "NULL flag");
    return raised(r->comm, p2p_part_arrived(r, partition, flag), fn);
}
#pragma weak MPI_Parrived = PMPI_Parrived
