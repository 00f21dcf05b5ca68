/* arrays.c - Fortran entry points with arrays that need converting: INTEGER datatype handles
 * (MPI_TYPE_CREATE_STRUCT, MPI_TYPE_GET_CONTENTS, the MPI_(NEIGHBOR_)ALLTOALLW families),
 * LOGICAL arrays (MPI_CART_CREATE, _MAP, _GET, _SUB) and strings whose length argument is both
 * a capacity and a result (MPI_INFO_GET, MPI_INFO_GET_STRING, MPI_SESSION_GET_NTH_PSET). */
#include <stdlib.h>

#include "fortran/fortran.h"

/* A C copy of n Fortran datatype handles (n < 0 gives an empty one); NULL: out of memory. */
static MPI_Datatype *types_in(const MPI_Fint *f, int n)
{
    MPI_Datatype *c = malloc(sizeof(*c) * (size_t)(n > 0 ? n : 1));
    for (int i = 0; c && i < n; i++)
        c[i] = MPI_Type_fromint(f[i]);
    return c;
}

/* LOGICAL(n) -> int[n] and back. */
static int *logicals_in(const MPI_Fint *f, int n)
{
    int *c = malloc(sizeof(*c) * (size_t)(n > 0 ? n : 1));
    for (int i = 0; c && i < n; i++)
        c[i] = f_logical_in(f[i]);
    return c;
}

static void logicals_out(const int *c, MPI_Fint *f, int n)
{
    for (int i = 0; i < n; i++)
        f[i] = f_to_logical(c[i]);
}

void pmpi_type_create_struct_(const MPI_Fint *count, const MPI_Fint *blocklengths,
                              const MPI_Aint *displacements, const MPI_Fint *types,
                              MPI_Fint *newtype, MPI_Fint *ierror)
{
    MPI_Datatype *c_types = types_in(types, *count);
    MPI_Datatype c_newtype = MPI_DATATYPE_NULL;
    if (!c_types) {
        *ierror = f_no_memory("MPI_Type_create_struct");
        return;
    }
    *ierror = MPI_Type_create_struct(*count, blocklengths, displacements, c_types, &c_newtype);
    *newtype = MPI_Type_toint(c_newtype);
    free(c_types);
}
#pragma weak mpi_type_create_struct_ = pmpi_type_create_struct_

void pmpi_type_get_contents_(const MPI_Fint *type, const MPI_Fint *max_integers,
                             const MPI_Fint *max_addresses, const MPI_Fint *max_datatypes,
                             MPI_Fint *integers, MPI_Aint *addresses, MPI_Fint *datatypes,
                             MPI_Fint *ierror)
{
    int n = *max_datatypes > 0 ? *max_datatypes : 0;
    MPI_Datatype *c_types = malloc(sizeof(*c_types) * (size_t)(n > 0 ? n : 1));
    if (!c_types) {
        *ierror = f_no_memory("MPI_Type_get_contents");
        return;
    }
    *ierror = MPI_Type_get_contents(MPI_Type_fromint(*type), *max_integers, *max_addresses,
                                    *max_datatypes, integers, addresses, c_types);
    if (*ierror == MPI_SUCCESS) {
        int ni, na, nd, combiner;
        MPI_Type_get_envelope(MPI_Type_fromint(*type), &ni, &na, &nd, &combiner);
        for (int i = 0; i < nd && i < n; i++)
            datatypes[i] = MPI_Type_toint(c_types[i]);
    }
    free(c_types);
}
#pragma weak mpi_type_get_contents_ = pmpi_type_get_contents_

/* How many datatypes MPI_ALLTOALLW reads per side: one per process of the (remote) group;
 * 0 for an invalid communicator, which the C function then reports. */
static int alltoallw_peers(MPI_Comm comm)
{
    int inter = 0, n = 0;
    if (comm == MPI_COMM_NULL || MPI_Comm_test_inter(comm, &inter) != MPI_SUCCESS)
        return 0;
    if ((inter ? MPI_Comm_remote_size(comm, &n) : MPI_Comm_size(comm, &n)) != MPI_SUCCESS)
        return 0;
    return n;
}

/* Both type arrays of an alltoallw call; MPI_IN_PLACE leaves the send side unread. */
struct f_wtypes {
    MPI_Datatype *send, *recv;
};

static int wtypes_in(struct f_wtypes *w, const void *sendbuf, const MPI_Fint *sendtypes,
                     const MPI_Fint *recvtypes, MPI_Comm comm, const char *function)
{
    int n = alltoallw_peers(comm);
    w->send = types_in(sendtypes, f_buffer(sendbuf) == MPI_IN_PLACE ? 0 : n);
    w->recv = types_in(recvtypes, n);
    return w->send && w->recv ? MPI_SUCCESS : f_no_memory(function);
}

/* MPI_NEIGHBOR_ALLTOALLW reads one send datatype per out-neighbour and one receive datatype
 * per in-neighbour of the communicator's topology (0 without one: the C function reports). */
static void neighbor_counts(MPI_Comm comm, int *nsend, int *nrecv)
{
    int topology = MPI_UNDEFINED, rank = 0, weighted = 0;
    *nsend = *nrecv = 0;
    if (comm == MPI_COMM_NULL || MPI_Topo_test(comm, &topology) != MPI_SUCCESS)
        return;
    if (topology == MPI_CART) {
        MPI_Cartdim_get(comm, nsend);
        *nsend *= 2;
        *nrecv = *nsend;
    } else if (topology == MPI_GRAPH) {
        MPI_Comm_rank(comm, &rank);
        MPI_Graph_neighbors_count(comm, rank, nsend);
        *nrecv = *nsend;
    } else if (topology == MPI_DIST_GRAPH) {
        MPI_Dist_graph_neighbors_count(comm, nrecv, nsend, &weighted);
    }
}

static int neighbor_wtypes_in(struct f_wtypes *w, const MPI_Fint *sendtypes,
                              const MPI_Fint *recvtypes, MPI_Comm comm, const char *function)
{
    int nsend, nrecv;
    neighbor_counts(comm, &nsend, &nrecv);
    w->send = types_in(sendtypes, nsend);
    w->recv = types_in(recvtypes, nrecv);
    return w->send && w->recv ? MPI_SUCCESS : f_no_memory(function);
}

static void wtypes_free(struct f_wtypes *w)
{
    free(w->send);
    free(w->recv);
}

void pmpi_alltoallw_(const void *sendbuf, const MPI_Fint *sendcounts, const MPI_Fint *sdispls,
                     const MPI_Fint *sendtypes, void *recvbuf, const MPI_Fint *recvcounts,
                     const MPI_Fint *rdispls, const MPI_Fint *recvtypes, const MPI_Fint *comm,
                     MPI_Fint *ierror)
{
    MPI_Comm c_comm = MPI_Comm_fromint(*comm);
    struct f_wtypes w;
    *ierror = wtypes_in(&w, sendbuf, sendtypes, recvtypes, c_comm, "MPI_Alltoallw");
    if (*ierror == MPI_SUCCESS)
        *ierror = MPI_Alltoallw(f_buffer(sendbuf), sendcounts, sdispls, w.send,
                                f_buffer(recvbuf), recvcounts, rdispls, w.recv, c_comm);
    wtypes_free(&w);
}
#pragma weak mpi_alltoallw_ = pmpi_alltoallw_

/* The library copies the type arrays when the call starts, so they are freed on return. */
void pmpi_ialltoallw_(const void *sendbuf, const MPI_Fint *sendcounts, const MPI_Fint *sdispls,
                      const MPI_Fint *sendtypes, void *recvbuf, const MPI_Fint *recvcounts,
                      const MPI_Fint *rdispls, const MPI_Fint *recvtypes, const MPI_Fint *comm,
                      MPI_Fint *request, MPI_Fint *ierror)
{
    MPI_Comm c_comm = MPI_Comm_fromint(*comm);
    MPI_Request c_request = MPI_REQUEST_NULL;
    struct f_wtypes w;
    *ierror = wtypes_in(&w, sendbuf, sendtypes, recvtypes, c_comm, "MPI_Ialltoallw");
    if (*ierror == MPI_SUCCESS)
        *ierror = MPI_Ialltoallw(f_buffer(sendbuf), sendcounts, sdispls, w.send,
                                 f_buffer(recvbuf), recvcounts, rdispls, w.recv, c_comm,
                                 &c_request);
    *request = MPI_Request_toint(c_request);
    wtypes_free(&w);
}
#pragma weak mpi_ialltoallw_ = pmpi_ialltoallw_

void pmpi_alltoallw_init_(const void *sendbuf, const MPI_Fint *sendcounts,
                          const MPI_Fint *sdispls, const MPI_Fint *sendtypes, void *recvbuf,
                          const MPI_Fint *recvcounts, const MPI_Fint *rdispls,
                          const MPI_Fint *recvtypes, const MPI_Fint *comm, const MPI_Fint *info,
                          MPI_Fint *request, MPI_Fint *ierror)
{
    MPI_Comm c_comm = MPI_Comm_fromint(*comm);
    MPI_Request c_request = MPI_REQUEST_NULL;
    struct f_wtypes w;
    *ierror = wtypes_in(&w, sendbuf, sendtypes, recvtypes, c_comm, "MPI_Alltoallw_init");
    if (*ierror == MPI_SUCCESS)
        *ierror = MPI_Alltoallw_init(f_buffer(sendbuf), sendcounts, sdispls, w.send,
                                     f_buffer(recvbuf), recvcounts, rdispls, w.recv, c_comm,
                                     MPI_Info_fromint(*info), &c_request);
    *request = MPI_Request_toint(c_request);
    wtypes_free(&w);
}
#pragma weak mpi_alltoallw_init_ = pmpi_alltoallw_init_

void pmpi_neighbor_alltoallw_(const void *sendbuf, const MPI_Fint *sendcounts,
                              const MPI_Aint *sdispls, const MPI_Fint *sendtypes, void *recvbuf,
                              const MPI_Fint *recvcounts, const MPI_Aint *rdispls,
                              const MPI_Fint *recvtypes, const MPI_Fint *comm, MPI_Fint *ierror)
{
    MPI_Comm c_comm = MPI_Comm_fromint(*comm);
    struct f_wtypes w;
    *ierror = neighbor_wtypes_in(&w, sendtypes, recvtypes, c_comm, "MPI_Neighbor_alltoallw");
    if (*ierror == MPI_SUCCESS)
        *ierror = MPI_Neighbor_alltoallw(f_buffer(sendbuf), sendcounts, sdispls, w.send,
                                         f_buffer(recvbuf), recvcounts, rdispls, w.recv, c_comm);
    wtypes_free(&w);
}
#pragma weak mpi_neighbor_alltoallw_ = pmpi_neighbor_alltoallw_

void pmpi_ineighbor_alltoallw_(const void *sendbuf, const MPI_Fint *sendcounts,
                               const MPI_Aint *sdispls, const MPI_Fint *sendtypes, void *recvbuf,
                               const MPI_Fint *recvcounts, const MPI_Aint *rdispls,
                               const MPI_Fint *recvtypes, const MPI_Fint *comm,
                               MPI_Fint *request, MPI_Fint *ierror)
{
    MPI_Comm c_comm = MPI_Comm_fromint(*comm);
    MPI_Request c_request = MPI_REQUEST_NULL;
    struct f_wtypes w;
    *ierror = neighbor_wtypes_in(&w, sendtypes, recvtypes, c_comm, "MPI_Ineighbor_alltoallw");
    if (*ierror == MPI_SUCCESS)
        *ierror = MPI_Ineighbor_alltoallw(f_buffer(sendbuf), sendcounts, sdispls, w.send,
                                          f_buffer(recvbuf), recvcounts, rdispls, w.recv,
                                          c_comm, &c_request);
    *request = MPI_Request_toint(c_request);
    wtypes_free(&w);
}
#pragma weak mpi_ineighbor_alltoallw_ = pmpi_ineighbor_alltoallw_

void pmpi_neighbor_alltoallw_init_(const void *sendbuf, const MPI_Fint *sendcounts,
                                   const MPI_Aint *sdispls, const MPI_Fint *sendtypes,
                                   void *recvbuf, const MPI_Fint *recvcounts,
                                   const MPI_Aint *rdispls, const MPI_Fint *recvtypes,
                                   const MPI_Fint *comm, const MPI_Fint *info, MPI_Fint *request,
                                   MPI_Fint *ierror)
{
    MPI_Comm c_comm = MPI_Comm_fromint(*comm);
    MPI_Request c_request = MPI_REQUEST_NULL;
    struct f_wtypes w;
    *ierror = neighbor_wtypes_in(&w, sendtypes, recvtypes, c_comm, "MPI_Neighbor_alltoallw_init");
    if (*ierror == MPI_SUCCESS)
        *ierror = MPI_Neighbor_alltoallw_init(f_buffer(sendbuf), sendcounts, sdispls, w.send,
                                              f_buffer(recvbuf), recvcounts, rdispls, w.recv,
                                              c_comm, MPI_Info_fromint(*info), &c_request);
    *request = MPI_Request_toint(c_request);
    wtypes_free(&w);
}
#pragma weak mpi_neighbor_alltoallw_init_ = pmpi_neighbor_alltoallw_init_

void pmpi_cart_create_(const MPI_Fint *comm_old, const MPI_Fint *ndims, const MPI_Fint *dims,
                       const MPI_Fint *periods, const MPI_Fint *reorder, MPI_Fint *comm_cart,
                       MPI_Fint *ierror)
{
    int *c_periods = logicals_in(periods, *ndims);
    MPI_Comm c_cart = MPI_COMM_NULL;
    if (!c_periods) {
        *ierror = f_no_memory("MPI_Cart_create");
        return;
    }
    *ierror = MPI_Cart_create(MPI_Comm_fromint(*comm_old), *ndims, dims, c_periods,
                              f_logical_in(*reorder), &c_cart);
    *comm_cart = MPI_Comm_toint(c_cart);
    free(c_periods);
}
#pragma weak mpi_cart_create_ = pmpi_cart_create_

void pmpi_cart_map_(const MPI_Fint *comm, const MPI_Fint *ndims, const MPI_Fint *dims,
                    const MPI_Fint *periods, MPI_Fint *newrank, MPI_Fint *ierror)
{
    int *c_periods = logicals_in(periods, *ndims);
    if (!c_periods) {
        *ierror = f_no_memory("MPI_Cart_map");
        return;
    }
    *ierror = MPI_Cart_map(MPI_Comm_fromint(*comm), *ndims, dims, c_periods, newrank);
    free(c_periods);
}
#pragma weak mpi_cart_map_ = pmpi_cart_map_

void pmpi_cart_get_(const MPI_Fint *comm, const MPI_Fint *maxdims, MPI_Fint *dims,
                    MPI_Fint *periods, MPI_Fint *coords, MPI_Fint *ierror)
{
    int *c_periods = malloc(sizeof(int) * (size_t)(*maxdims > 0 ? *maxdims : 1));
    if (!c_periods) {
        *ierror = f_no_memory("MPI_Cart_get");
        return;
    }
    *ierror = MPI_Cart_get(MPI_Comm_fromint(*comm), *maxdims, dims, c_periods, coords);
    if (*ierror == MPI_SUCCESS)
        logicals_out(c_periods, periods, *maxdims);
    free(c_periods);
}
#pragma weak mpi_cart_get_ = pmpi_cart_get_

void pmpi_cart_sub_(const MPI_Fint *comm, const MPI_Fint *remain_dims, MPI_Fint *newcomm,
                    MPI_Fint *ierror)
{
    MPI_Comm c_comm = MPI_Comm_fromint(*comm), c_newcomm = MPI_COMM_NULL;
    int ndims = 0;
    int status = MPI_UNDEFINED;
    if (MPI_Topo_test(c_comm, &status) == MPI_SUCCESS && status == MPI_CART)
        MPI_Cartdim_get(c_comm, &ndims);
    int *c_remain = logicals_in(remain_dims, ndims);
    if (!c_remain) {
        *ierror = f_no_memory("MPI_Cart_sub");
        return;
    }
    *ierror = MPI_Cart_sub(c_comm, c_remain, &c_newcomm);
    *newcomm = MPI_Comm_toint(c_newcomm);
    free(c_remain);
}
#pragma weak mpi_cart_sub_ = pmpi_cart_sub_

/* MPI_INFO_GET: valuelen characters at most, then blank padded to the CHARACTER length. */
void pmpi_info_get_(const MPI_Fint *info, const char *key, const MPI_Fint *valuelen, char *value,
                    MPI_Fint *flag, MPI_Fint *ierror, size_t key_len, size_t value_len)
{
    char *c_key = f_info_string_in(key, key_len);
    char *c_value = malloc((size_t)(*valuelen > 0 ? *valuelen : 0) + 1);
    int c_flag = 0;
    if (!c_key || !c_value)
        *ierror = f_no_memory("MPI_Info_get");
    else
        *ierror = MPI_Info_get(MPI_Info_fromint(*info), c_key, *valuelen, c_value, &c_flag);
    if (*ierror == MPI_SUCCESS && c_flag)
        f_string_out(c_value, value, value_len);
    *flag = f_to_logical(c_flag);
    free(c_key);
    free(c_value);
}
#pragma weak mpi_info_get_ = pmpi_info_get_

/* MPI_INFO_GET_STRING: buflen in is the room in value; out, the value's length (Fortran
 * counts no terminating NUL, C does). */
void pmpi_info_get_string_(const MPI_Fint *info, const char *key, MPI_Fint *buflen, char *value,
                           MPI_Fint *flag, MPI_Fint *ierror, size_t key_len, size_t value_len)
{
    char *c_key = f_info_string_in(key, key_len);
    int c_buflen = *buflen > 0 ? *buflen + 1 : 0;
    char *c_value = malloc((size_t)c_buflen + 1);
    int c_flag = 0;
    if (!c_key || !c_value)
        *ierror = f_no_memory("MPI_Info_get_string");
    else
        *ierror = MPI_Info_get_string(MPI_Info_fromint(*info), c_key, &c_buflen, c_value,
                                      &c_flag);
    if (*ierror == MPI_SUCCESS && c_flag) {
        if (*buflen > 0)
            f_string_out(c_value, value, value_len);
        *buflen = c_buflen - 1;
    }
    *flag = f_to_logical(c_flag);
    free(c_key);
    free(c_value);
}
#pragma weak mpi_info_get_string_ = pmpi_info_get_string_

void pmpi_session_get_nth_pset_(const MPI_Fint *session, const MPI_Fint *info, const MPI_Fint *n,
                                MPI_Fint *pset_len, char *pset_name, MPI_Fint *ierror,
                                size_t pset_name_len)
{
    int c_len = *pset_len > 0 ? *pset_len + 1 : 0;
    char *c_name = malloc((size_t)c_len + 1);
    if (!c_name) {
        *ierror = f_no_memory("MPI_Session_get_nth_pset");
        return;
    }
    *ierror = MPI_Session_get_nth_pset(MPI_Session_fromint(*session), MPI_Info_fromint(*info),
                                       *n, &c_len, c_name);
    if (*ierror == MPI_SUCCESS) {
        if (*pset_len > 0)
            f_string_out(c_name, pset_name, pset_name_len);
        *pset_len = c_len - 1;
    }
    free(c_name);
}
#pragma weak mpi_session_get_nth_pset_ = pmpi_session_get_nth_pset_
