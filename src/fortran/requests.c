/* requests.c - the Fortran wait/test families and MPI_STARTALL: arrays of INTEGER request
 * handles are converted to a C array and back (completed requests become MPI_REQUEST_NULL),
 * statuses need no conversion (the same layout) and the indices that MPI_WAITANY / _WAITSOME
 * ... return count from 1 in Fortran. */
#include <stdlib.h>

#include "fortran/fortran.h"

/* Requests of one call: on the stack for the usual few, else on the heap. */
struct f_requests {
    MPI_Request *c;
    MPI_Request small[16];
};

static MPI_Request *requests_in(struct f_requests *r, const MPI_Fint *f, MPI_Fint count)
{
    r->c = count <= 16 ? r->small : malloc(sizeof(MPI_Request) * (size_t)count);
    if (!r->c)
        return NULL;
    for (MPI_Fint i = 0; i < count; i++)
        r->c[i] = MPI_Request_fromint(f[i]);
    return r->c;
}

static void requests_out(struct f_requests *r, MPI_Fint *f, MPI_Fint count)
{
    for (MPI_Fint i = 0; i < count; i++)
        f[i] = MPI_Request_toint(r->c[i]);
    if (r->c != r->small)
        free(r->c);
}

/* How many handles to convert: a negative count is passed on for the C function to report. */
static MPI_Fint nonnegative(MPI_Fint count)
{
    return count > 0 ? count : 0;
}

static void index_out(MPI_Fint *index)
{
    if (*index != MPI_UNDEFINED)
        (*index)++;
}

static void indices_out(MPI_Fint *outcount, MPI_Fint *indices)
{
    for (MPI_Fint i = 0; *outcount != MPI_UNDEFINED && i < *outcount; i++)
        indices[i]++;
}

void pmpi_startall_(const MPI_Fint *count, MPI_Fint *requests, MPI_Fint *ierror)
{
    struct f_requests r;
    if (!requests_in(&r, requests, nonnegative(*count))) {
        *ierror = f_no_memory("MPI_Startall");
        return;
    }
    *ierror = MPI_Startall(*count, r.c);
    requests_out(&r, requests, nonnegative(*count));
}
#pragma weak mpi_startall_ = pmpi_startall_

void pmpi_waitall_(const MPI_Fint *count, MPI_Fint *requests, MPI_Fint *statuses,
                   MPI_Fint *ierror)
{
    struct f_requests r;
    if (!requests_in(&r, requests, nonnegative(*count))) {
        *ierror = f_no_memory("MPI_Waitall");
        return;
    }
    *ierror = MPI_Waitall(*count, r.c, f_statuses(statuses));
    requests_out(&r, requests, nonnegative(*count));
}
#pragma weak mpi_waitall_ = pmpi_waitall_

void pmpi_testall_(const MPI_Fint *count, MPI_Fint *requests, MPI_Fint *flag, MPI_Fint *statuses,
                   MPI_Fint *ierror)
{
    struct f_requests r;
    int c_flag = 0;
    if (!requests_in(&r, requests, nonnegative(*count))) {
        *ierror = f_no_memory("MPI_Testall");
        return;
    }
    *ierror = MPI_Testall(*count, r.c, &c_flag, f_statuses(statuses));
    requests_out(&r, requests, nonnegative(*count));
    *flag = f_to_logical(c_flag);
}
#pragma weak mpi_testall_ = pmpi_testall_

void pmpi_waitany_(const MPI_Fint *count, MPI_Fint *requests, MPI_Fint *index, MPI_Fint *status,
                   MPI_Fint *ierror)
{
    struct f_requests r;
    if (!requests_in(&r, requests, nonnegative(*count))) {
        *ierror = f_no_memory("MPI_Waitany");
        return;
    }
    *ierror = MPI_Waitany(*count, r.c, index, f_status(status));
    requests_out(&r, requests, nonnegative(*count));
    index_out(index);
}
#pragma weak mpi_waitany_ = pmpi_waitany_

void pmpi_testany_(const MPI_Fint *count, MPI_Fint *requests, MPI_Fint *index, MPI_Fint *flag,
                   MPI_Fint *status, MPI_Fint *ierror)
{
    struct f_requests r;
    int c_flag = 0;
    if (!requests_in(&r, requests, nonnegative(*count))) {
        *ierror = f_no_memory("MPI_Testany");
        return;
    }
    *ierror = MPI_Testany(*count, r.c, index, &c_flag, f_status(status));
    requests_out(&r, requests, nonnegative(*count));
    index_out(index);
    *flag = f_to_logical(c_flag);
}
#pragma weak mpi_testany_ = pmpi_testany_

/* MPI_WAITSOME and MPI_TESTSOME: the same arguments, the C function says which. */
typedef int some_function(int, MPI_Request[], int *, int[], MPI_Status[]);

static void some_common(some_function *fn, const char *name, const MPI_Fint *incount,
                        MPI_Fint *requests, MPI_Fint *outcount, MPI_Fint *indices,
                        MPI_Fint *statuses, MPI_Fint *ierror)
{
    struct f_requests r;
    if (!requests_in(&r, requests, nonnegative(*incount))) {
        *ierror = f_no_memory(name);
        return;
    }
    *ierror = fn(*incount, r.c, outcount, indices, f_statuses(statuses));
    requests_out(&r, requests, nonnegative(*incount));
    indices_out(outcount, indices);
}

void pmpi_waitsome_(const MPI_Fint *incount, MPI_Fint *requests, MPI_Fint *outcount,
                    MPI_Fint *indices, MPI_Fint *statuses, MPI_Fint *ierror)
{
    some_common(MPI_Waitsome, "MPI_Waitsome", incount, requests, outcount, indices, statuses,
                ierror);
}
#pragma weak mpi_waitsome_ = pmpi_waitsome_

void pmpi_testsome_(const MPI_Fint *incount, MPI_Fint *requests, MPI_Fint *outcount,
                    MPI_Fint *indices, MPI_Fint *statuses, MPI_Fint *ierror)
{
    some_common(MPI_Testsome, "MPI_Testsome", incount, requests, outcount, indices, statuses,
                ierror);
}
#pragma weak mpi_testsome_ = pmpi_testsome_

void pmpi_request_get_status_all_(const MPI_Fint *count, MPI_Fint *requests, MPI_Fint *flag,
                                  MPI_Fint *statuses, MPI_Fint *ierror)
{
    struct f_requests r;
    int c_flag = 0;
    if (!requests_in(&r, requests, nonnegative(*count))) {
        *ierror = f_no_memory("MPI_Request_get_status_all");
        return;
    }
    *ierror = MPI_Request_get_status_all(*count, r.c, &c_flag, f_statuses(statuses));
    requests_out(&r, requests, nonnegative(*count));
    *flag = f_to_logical(c_flag);
}
#pragma weak mpi_request_get_status_all_ = pmpi_request_get_status_all_

void pmpi_request_get_status_any_(const MPI_Fint *count, MPI_Fint *requests, MPI_Fint *index,
                                  MPI_Fint *flag, MPI_Fint *status, MPI_Fint *ierror)
{
    struct f_requests r;
    int c_flag = 0;
    if (!requests_in(&r, requests, nonnegative(*count))) {
        *ierror = f_no_memory("MPI_Request_get_status_any");
        return;
    }
    *ierror = MPI_Request_get_status_any(*count, r.c, index, &c_flag, f_status(status));
    requests_out(&r, requests, nonnegative(*count));
    index_out(index);
    *flag = f_to_logical(c_flag);
}
#pragma weak mpi_request_get_status_any_ = pmpi_request_get_status_any_

void pmpi_request_get_status_some_(const MPI_Fint *incount, MPI_Fint *requests,
                                   MPI_Fint *outcount, MPI_Fint *indices, MPI_Fint *statuses,
                                   MPI_Fint *ierror)
{
    struct f_requests r;
    if (!requests_in(&r, requests, nonnegative(*incount))) {
        *ierror = f_no_memory("MPI_Request_get_status_some");
        return;
    }
    *ierror = MPI_Request_get_status_some(*incount, r.c, outcount, indices,
                                          f_statuses(statuses));
    requests_out(&r, requests, nonnegative(*incount));
    indices_out(outcount, indices);
}
#pragma weak mpi_request_get_status_some_ = pmpi_request_get_status_some_
