/* get_status_multi: MPI-4.1 MPI_Request_get_status_{any,all,some} report completion without
 * freeing or deactivating requests, and treat null requests as empty; the MPI-5.0 status
 * accessors read and write the public fields. (mpi4py's test_request expects them of an MPI
 * that reports version >= 4.1; nodempi lacked them.) */
#include "../common/mpitest.h"

#if MPI_VERSION > 4 || (MPI_VERSION == 4 && MPI_SUBVERSION >= 1)
static void null_requests(void)
{
    MPI_Request reqs[3] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL, MPI_REQUEST_NULL};
    MPI_Status st[3];
    int flag = 0, index = 0, outcount = 0, indices[3];
    mt_poison_status(&st[0]);
    MT_MPI(MPI_Request_get_status_any(3, reqs, &index, &flag, &st[0]));
    MT_CHECK(flag && index == MPI_UNDEFINED, "any over null requests: flag %d index %d", flag,
             index);
    MT_CHECK_EMPTY_STATUS(&st[0], "any over null requests");
    flag = 0;
    for (int i = 0; i < 3; i++)
        mt_poison_status(&st[i]);
    MT_MPI(MPI_Request_get_status_all(3, reqs, &flag, st));
    MT_CHECK(flag, "all over null requests: flag 0");
    for (int i = 0; i < 3; i++)
        MT_CHECK_EMPTY_STATUS(&st[i], "all over null requests");
    MT_MPI(MPI_Request_get_status_some(3, reqs, &outcount, indices, st));
    MT_CHECK_INT(MPI_UNDEFINED, outcount, "some over null requests");
}

/* A receive from self that completes: the query leaves the request alive for MPI_Wait. */
static void completed_requests(void)
{
    int out = 42, in = -1;
    MPI_Request reqs[2];
    MPI_Status st[2];
    MT_MPI(MPI_Irecv(&in, 1, MPI_INT, 0, 5, MPI_COMM_SELF, &reqs[0]));
    reqs[1] = MPI_REQUEST_NULL;
    int flag = 0, index = -1;
    MT_MPI(MPI_Request_get_status_any(2, reqs, &index, &flag, &st[0]));
    MT_CHECK(!flag, "any: the receive completed before its send");
    MT_MPI(MPI_Send(&out, 1, MPI_INT, 0, 5, MPI_COMM_SELF));
    for (int tries = 0; !flag && tries < 1000000; tries++)
        MT_MPI(MPI_Request_get_status_any(2, reqs, &index, &flag, &st[0]));
    MT_CHECK(flag && index == 0, "any: flag %d index %d", flag, index);
    MT_CHECK_STATUS(&st[0], 0, 5, MPI_INT, 1, "any");
    MT_CHECK(reqs[0] != MPI_REQUEST_NULL, "any freed the request");
    flag = 0;
    MT_MPI(MPI_Request_get_status_all(2, reqs, &flag, st));
    MT_CHECK(flag, "all: not complete");
    MT_CHECK_STATUS(&st[0], 0, 5, MPI_INT, 1, "all[0]");
    MT_CHECK_EMPTY_STATUS(&st[1], "all[1] (null request)");
    int outcount = -1, indices[2] = {-1, -1};
    MT_MPI(MPI_Request_get_status_some(2, reqs, &outcount, indices, st));
    MT_CHECK(outcount == 1 && indices[0] == 0, "some: outcount %d index %d", outcount,
             indices[0]);
    MT_CHECK(reqs[0] != MPI_REQUEST_NULL, "some freed the request");
    MT_MPI(MPI_Wait(&reqs[0], MPI_STATUS_IGNORE));
    MT_CHECK_INT(42, in, "received value");
}
#endif

#if MPI_VERSION >= 5
static void status_accessors(void)
{
    MPI_Status st;
    int v = -1;
    MT_MPI(MPI_Status_set_source(&st, 3));
    MT_MPI(MPI_Status_set_tag(&st, 77));
    MT_MPI(MPI_Status_set_error(&st, MPI_ERR_TAG));
    MT_CHECK(st.MPI_SOURCE == 3 && st.MPI_TAG == 77 && st.MPI_ERROR == MPI_ERR_TAG,
             "setters wrote %d/%d/%d", st.MPI_SOURCE, st.MPI_TAG, st.MPI_ERROR);
    MT_MPI(MPI_Status_get_source(&st, &v));
    MT_CHECK_INT(3, v, "MPI_Status_get_source");
    MT_MPI(MPI_Status_get_tag(&st, &v));
    MT_CHECK_INT(77, v, "MPI_Status_get_tag");
    MT_MPI(MPI_Status_get_error(&st, &v));
    MT_CHECK_INT(MPI_ERR_TAG, v, "MPI_Status_get_error");
    MPI_Count n = -1;
    MT_MPI(MPI_Status_set_elements_c(&st, MPI_DOUBLE, 5));
    MT_MPI(MPI_Get_elements_c(&st, MPI_DOUBLE, &n));
    MT_CHECK_INT(5, n, "MPI_Status_set_elements_c");
}
#endif

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    mt_set_errors_return(MPI_COMM_WORLD);
    mt_set_errors_return(MPI_COMM_SELF);
#if MPI_VERSION > 4 || (MPI_VERSION == 4 && MPI_SUBVERSION >= 1)
    null_requests();
    completed_requests();
#endif
#if MPI_VERSION >= 5
    status_accessors();
#endif
    return mt_finish();
}
