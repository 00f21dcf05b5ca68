/* errcodes: with MPI_ERRORS_RETURN on MPI_COMM_WORLD and MPI_COMM_SELF, invalid arguments give
 * the right error class (checked with MPI_Error_class) and a non-empty MPI_Error_string:
 * rank (size, -5) -> MPI_ERR_RANK, tag (-7, TAG_UB+1) -> MPI_ERR_TAG, negative count ->
 * MPI_ERR_COUNT, MPI_DATATYPE_NULL -> MPI_ERR_TYPE, MPI_COMM_NULL -> MPI_ERR_COMM, NULL buffer
 * with count > 0 -> MPI_ERR_BUFFER, bad root -> MPI_ERR_ROOT, MPI_OP_NULL -> MPI_ERR_OP; valid
 * edge cases still succeed; communication works normally afterwards. */
#include "../common/mpitest.h"

/* check an error code: class and a non-empty error string */
static void expect_(const char *file, int line, int rc, int cls, const char *call)
{
    if (!mt_check_errclass_(file, line, rc, cls, call))
        return;
    char msg[MPI_MAX_ERROR_STRING];
    int len = -1;
    msg[0] = '\0';
    int rc2 = MPI_Error_string(rc, msg, &len);
    if (rc2 != MPI_SUCCESS || len <= 0 || len >= MPI_MAX_ERROR_STRING || (int)strlen(msg) != len)
        mt_fail(file, line, "%s: MPI_Error_string of code %d: rc %d, resultlen %d, strlen %zu",
                call, rc, rc2, len, strlen(msg));
}
#define EXPECT(cls, call) expect_(__FILE__, __LINE__, (call), (cls), #call)

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    mt_set_errors_return(MPI_COMM_WORLD);
    mt_set_errors_return(MPI_COMM_SELF); /* errors on MPI_COMM_NULL may be raised on either */
    const int size = mt_size, right = mt_right(), left = mt_left();
    int buf[16] = {0}, rbuf[16];
    MPI_Request req = MPI_REQUEST_NULL;
    MPI_Status st;

    /* invalid ranks */
    EXPECT(MPI_ERR_RANK, MPI_Send(buf, 1, MPI_INT, size, 0, MPI_COMM_WORLD));
    EXPECT(MPI_ERR_RANK, MPI_Send(buf, 1, MPI_INT, -5, 0, MPI_COMM_WORLD));
    EXPECT(MPI_ERR_RANK, MPI_Ssend(buf, 1, MPI_INT, size + 3, 0, MPI_COMM_WORLD));
    EXPECT(MPI_ERR_RANK, MPI_Isend(buf, 1, MPI_INT, size, 0, MPI_COMM_WORLD, &req));
    EXPECT(MPI_ERR_RANK, MPI_Recv(rbuf, 1, MPI_INT, size, 0, MPI_COMM_WORLD, &st));
    EXPECT(MPI_ERR_RANK, MPI_Irecv(rbuf, 1, MPI_INT, -5, 0, MPI_COMM_WORLD, &req));
    EXPECT(MPI_ERR_RANK, MPI_Probe(size, 0, MPI_COMM_WORLD, &st));
    EXPECT(MPI_ERR_RANK, MPI_Sendrecv(buf, 1, MPI_INT, size, 0, rbuf, 1, MPI_INT, left, 0,
                                      MPI_COMM_WORLD, &st));

    /* invalid tags */
    EXPECT(MPI_ERR_TAG, MPI_Send(buf, 1, MPI_INT, right, -7, MPI_COMM_WORLD));
    EXPECT(MPI_ERR_TAG, MPI_Isend(buf, 1, MPI_INT, right, -7, MPI_COMM_WORLD, &req));
    EXPECT(MPI_ERR_TAG, MPI_Recv(rbuf, 1, MPI_INT, left, -7, MPI_COMM_WORLD, &st));
    EXPECT(MPI_ERR_TAG, MPI_Irecv(rbuf, 1, MPI_INT, left, -7, MPI_COMM_WORLD, &req));
    int tag_ub = mt_tag_ub();
    MT_CHECK(tag_ub >= 32767, "MPI_TAG_UB = %d < 32767", tag_ub);
    if (tag_ub < INT_MAX) { /* Open MPI's TAG_UB is INT_MAX: no tag above it */
        EXPECT(MPI_ERR_TAG, MPI_Send(buf, 1, MPI_INT, right, tag_ub + 1, MPI_COMM_WORLD));
        EXPECT(MPI_ERR_TAG, MPI_Recv(rbuf, 1, MPI_INT, left, tag_ub + 1, MPI_COMM_WORLD, &st));
    }

    /* negative counts */
    EXPECT(MPI_ERR_COUNT, MPI_Send(buf, -1, MPI_INT, right, 0, MPI_COMM_WORLD));
    EXPECT(MPI_ERR_COUNT, MPI_Recv(rbuf, -1, MPI_INT, left, 0, MPI_COMM_WORLD, &st));
    EXPECT(MPI_ERR_COUNT, MPI_Isend(buf, -3, MPI_INT, right, 0, MPI_COMM_WORLD, &req));
    EXPECT(MPI_ERR_COUNT, MPI_Bcast(buf, -1, MPI_INT, 0, MPI_COMM_WORLD));

    /* MPI_DATATYPE_NULL */
    EXPECT(MPI_ERR_TYPE, MPI_Send(buf, 1, MPI_DATATYPE_NULL, right, 0, MPI_COMM_WORLD));
    EXPECT(MPI_ERR_TYPE, MPI_Recv(rbuf, 1, MPI_DATATYPE_NULL, left, 0, MPI_COMM_WORLD, &st));
    EXPECT(MPI_ERR_TYPE, MPI_Bcast(buf, 1, MPI_DATATYPE_NULL, 0, MPI_COMM_WORLD));

    /* MPI_COMM_NULL (the handler of MPI_COMM_WORLD or MPI_COMM_SELF is invoked; both return) */
    EXPECT(MPI_ERR_COMM, MPI_Send(buf, 1, MPI_INT, 0, 0, MPI_COMM_NULL));
    EXPECT(MPI_ERR_COMM, MPI_Recv(rbuf, 1, MPI_INT, 0, 0, MPI_COMM_NULL, &st));
    EXPECT(MPI_ERR_COMM, MPI_Barrier(MPI_COMM_NULL));
    {
        int r = -1;
        EXPECT(MPI_ERR_COMM, MPI_Comm_rank(MPI_COMM_NULL, &r));
    }

    /* NULL buffer with count > 0. The standard only calls this erroneous; nodempi, Open MPI and
     * MPICH all detect it with MPI_ERR_BUFFER, so that is required for real peers. With
     * MPI_PROC_NULL nothing is accessed, so success is accepted as well. */
    EXPECT(MPI_ERR_BUFFER, MPI_Send(NULL, 4, MPI_INT, right, 0, MPI_COMM_WORLD));
    {
        int rc = MPI_Irecv(NULL, 4, MPI_INT, left, 0, MPI_COMM_WORLD, &req);
        EXPECT(MPI_ERR_BUFFER, rc);
        if (rc == MPI_SUCCESS) { /* undetected: get rid of the pending receive */
            MPI_Cancel(&req);
            MPI_Wait(&req, MPI_STATUS_IGNORE);
        }
    }
    {
        int rc = MPI_Send(NULL, 4, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD);
        MT_CHECK(rc == MPI_SUCCESS || mt_errclass(rc) == MPI_ERR_BUFFER,
                 "MPI_Send(NULL, 4, .., MPI_PROC_NULL): class %s",
                 mt_errclass_name(mt_errclass(rc)));
        rc = MPI_Recv(NULL, 4, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &st);
        MT_CHECK(rc == MPI_SUCCESS || mt_errclass(rc) == MPI_ERR_BUFFER,
                 "MPI_Recv(NULL, 4, .., MPI_PROC_NULL): class %s",
                 mt_errclass_name(mt_errclass(rc)));
    }

    /* collectives: bad root, null op */
    EXPECT(MPI_ERR_ROOT, MPI_Bcast(buf, 1, MPI_INT, size, MPI_COMM_WORLD));
    EXPECT(MPI_ERR_ROOT, MPI_Reduce(buf, rbuf, 1, MPI_INT, MPI_SUM, -5, MPI_COMM_WORLD));
    EXPECT(MPI_ERR_OP, MPI_Allreduce(buf, rbuf, 1, MPI_INT, MPI_OP_NULL, MPI_COMM_WORLD));
    EXPECT(MPI_ERR_OP, MPI_Reduce(buf, rbuf, 1, MPI_INT, MPI_OP_NULL, 0, MPI_COMM_WORLD));

    /* valid edge cases must not be rejected */
    MT_MPI(MPI_Sendrecv(NULL, 0, MPI_INT, right, 0, NULL, 0, MPI_INT, left, 0, MPI_COMM_WORLD,
                        &st));
    MT_CHECK_STATUS(&st, left, 0, MPI_INT, 0, "zero-count MPI_Sendrecv with NULL buffers");
    MT_MPI(MPI_Sendrecv(buf, 1, MPI_INT, right, tag_ub, rbuf, 1, MPI_INT, left, tag_ub,
                        MPI_COMM_WORLD, &st));
    MT_CHECK_STATUS(&st, left, tag_ub, MPI_INT, 1, "message with tag MPI_TAG_UB");
    MT_MPI(MPI_Sendrecv(buf, 1, MPI_INT, MPI_PROC_NULL, 0, rbuf, 1, MPI_INT, MPI_PROC_NULL, 0,
                        MPI_COMM_WORLD, &st));

    /* the job continues normally */
    for (int i = 0; i < 16; i++)
        buf[i] = 1000 * mt_rank + i;
    MT_MPI(MPI_Sendrecv(buf, 16, MPI_INT, right, 5, rbuf, 16, MPI_INT, left, 5, MPI_COMM_WORLD,
                        &st));
    for (int i = 0; i < 16; i++)
        MT_CHECK_INT(1000 * left + i, rbuf[i], "ring exchange after the errors");
    int one = 1, sum = 0;
    MT_MPI(MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    MT_CHECK_INT(size, sum, "MPI_Allreduce after the errors");
    return mt_finish();
}
