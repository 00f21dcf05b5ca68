/* errors.c - error classes of the one-sided calls, with MPI_ERRORS_RETURN on the window (and
 * on MPI_COMM_WORLD / MPI_COMM_SELF for the errors raised before a window exists or on an
 * invalid window): MPI_ERR_RMA_SYNC (operation outside an epoch, unlock without lock, complete
 * without start, wait without post, lock twice, request-based operation in a fence epoch),
 * MPI_ERR_RMA_RANGE (target beyond the window), MPI_ERR_LOCKTYPE, MPI_ERR_ASSERT,
 * MPI_ERR_RANK, MPI_ERR_TYPE (invalid datatype, mismatched accumulate types, CAS on double),
 * MPI_ERR_OP (user op in accumulate; MPI_REPLACE in a reduction), MPI_ERR_RMA_FLAVOR
 * (shared_query on a dynamic window, attach on a non-dynamic window), MPI_ERR_WIN,
 * MPI_ERR_SIZE / MPI_ERR_DISP at creation, and that the window still works afterwards. */
#include "mpitest.h"

static void user_sum(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)type;
    for (int i = 0; i < *len; i++)
        ((int *)inout)[i] += ((int *)in)[i];
}

#define EXPECT(call, cls) MT_CHECK_ERRCLASS((call), (cls), #call)

/* The standard calls these programs erroneous but does not require the error to be detected;
 * nodempi detects them, Open MPI 4.1 (the reference the tests are validated with) does not. */
static int lenient(int rc)
{
    return rc == MPI_SUCCESS && mt_library_is("Open MPI");
}
#define EXPECT_DETECTED(call, cls)                                                             \
    do {                                                                                       \
        int rc_ = (call);                                                                      \
        if (!lenient(rc_))                                                                     \
            MT_CHECK_ERRCLASS(rc_, (cls), #call);                                              \
    } while (0)

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    int *mem = mt_malloc(16 * sizeof(int)), value = 1, result = 0;
    MPI_Win win;
    MT_MPI(MPI_Win_create(mem, 16 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD,
                          &win));
    MT_MPI(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
    int right = mt_right();

    /* synchronization state */
    EXPECT(MPI_Put(&value, 1, MPI_INT, right, 0, 1, MPI_INT, win), MPI_ERR_RMA_SYNC);
    EXPECT(MPI_Win_unlock(right, win), MPI_ERR_RMA_SYNC);
    EXPECT_DETECTED(MPI_Win_complete(win), MPI_ERR_RMA_SYNC);
    EXPECT(MPI_Win_wait(win), MPI_ERR_RMA_SYNC);
    EXPECT(MPI_Win_unlock_all(win), MPI_ERR_RMA_SYNC);

    /* argument checks */
    EXPECT(MPI_Win_lock(12345, right, 0, win), MPI_ERR_LOCKTYPE);
    EXPECT(MPI_Win_fence(0x40000000, win), MPI_ERR_ASSERT);
    EXPECT(MPI_Win_lock(MPI_LOCK_SHARED, mt_size + 3, 0, win), MPI_ERR_RANK);

    MT_MPI(MPI_Win_lock(MPI_LOCK_SHARED, right, 0, win));
    EXPECT_DETECTED(MPI_Win_lock(MPI_LOCK_SHARED, right, 0, win), MPI_ERR_RMA_SYNC);
    EXPECT(MPI_Put(&value, 1, MPI_INT, mt_size + 1, 0, 1, MPI_INT, win), MPI_ERR_RANK);
    EXPECT(MPI_Put(&value, 1, MPI_INT, right, 16, 1, MPI_INT, win), MPI_ERR_RMA_RANGE);
    EXPECT(MPI_Get(&value, 4, MPI_INT, right, 14, 4, MPI_INT, win), MPI_ERR_RMA_RANGE);
    EXPECT(MPI_Put(&value, 1, MPI_DATATYPE_NULL, right, 0, 1, MPI_INT, win), MPI_ERR_TYPE);
    int mismatch = mt_errclass(MPI_Accumulate(&value, 1, MPI_INT, right, 0, 1, MPI_DOUBLE,
                                              MPI_SUM, win));
    MT_CHECK(mismatch == MPI_ERR_TYPE || mismatch == MPI_ERR_ARG,
             "accumulate int onto double: expected MPI_ERR_TYPE or MPI_ERR_ARG, got class %d",
             mismatch);
    EXPECT(MPI_Put(&value, -1, MPI_INT, right, 0, 1, MPI_INT, win), MPI_ERR_COUNT);
    MPI_Op user_op;
    MPI_Op_create(user_sum, 1, &user_op);
    EXPECT(MPI_Accumulate(&value, 1, MPI_INT, right, 0, 1, MPI_INT, user_op, win), MPI_ERR_OP);
    EXPECT(MPI_Accumulate(&value, 1, MPI_INT, right, 0, 1, MPI_INT, MPI_OP_NULL, win),
           MPI_ERR_OP);
    double dv = 1.0, dc = 0.0, dr;
    EXPECT_DETECTED(MPI_Compare_and_swap(&dv, &dc, &dr, MPI_DOUBLE, right, 0, win),
                    MPI_ERR_TYPE);
    /* the window still works after the errors */
    MT_MPI(MPI_Fetch_and_op(&value, &result, MPI_INT, right, 0, MPI_NO_OP, win));
    MT_MPI(MPI_Win_unlock(right, win));
    MPI_Op_free(&user_op);

    /* MPI_REPLACE / MPI_NO_OP only in accumulates, never in reductions */
    int in = 1, out = 0;
    EXPECT(MPI_Allreduce(&in, &out, 1, MPI_INT, MPI_REPLACE, MPI_COMM_WORLD), MPI_ERR_OP);
    EXPECT(MPI_Allreduce(&in, &out, 1, MPI_INT, MPI_NO_OP, MPI_COMM_WORLD), MPI_ERR_OP);

    /* flavors (MPI-4.1 allows shared_query on Win_create windows: shared_query.c) */
    EXPECT(MPI_Win_attach(win, mem, 4), MPI_ERR_RMA_FLAVOR);
    MPI_Win dynamic;
    MT_MPI(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &dynamic));
    MT_MPI(MPI_Win_set_errhandler(dynamic, MPI_ERRORS_RETURN));
    MPI_Aint size;
    int disp_unit;
    void *base;
    EXPECT(MPI_Win_shared_query(dynamic, 0, &size, &disp_unit, &base), MPI_ERR_RMA_FLAVOR);
    MT_MPI(MPI_Win_free(&dynamic));

    /* PSCW misuse: start, then a second start (on a fresh window: the erroneous calls above
     * may leave an implementation that does not detect them in any state) */
    MT_MPI(MPI_Win_free(&win));
    MT_MPI(MPI_Win_create(mem, 16 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD,
                          &win));
    MT_MPI(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
    MPI_Group world_group, self_group;
    MPI_Comm_group(MPI_COMM_WORLD, &world_group);
    MPI_Comm_group(MPI_COMM_SELF, &self_group);
    MT_MPI(MPI_Win_post(self_group, 0, win));
    MT_MPI(MPI_Win_start(self_group, 0, win));
    EXPECT(MPI_Win_start(self_group, 0, win), MPI_ERR_RMA_SYNC);
    MT_MPI(MPI_Put(&value, 1, MPI_INT, mt_rank, 0, 1, MPI_INT, win));
    MT_MPI(MPI_Win_complete(win));
    MT_MPI(MPI_Win_wait(win));
    MT_CHECK_INT(1, mem[0], "put to self in a post/start epoch");
    MPI_Group_free(&self_group);
    MPI_Group_free(&world_group);

    /* request-based operations need a passive target epoch */
    MPI_Request request = MPI_REQUEST_NULL;
    MT_MPI(MPI_Win_fence(0, win));
    int rc_rput = MPI_Rput(&value, 1, MPI_INT, right, 0, 1, MPI_INT, win, &request);
    if (lenient(rc_rput))
        MPI_Wait(&request, MPI_STATUS_IGNORE);
    else
        MT_CHECK_ERRCLASS(rc_rput, MPI_ERR_RMA_SYNC, "MPI_Rput in a fence epoch");
    MT_MPI(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));
    MT_MPI(MPI_Win_free(&win));

    /* invalid window handle and creation arguments */
    EXPECT(MPI_Win_fence(0, MPI_WIN_NULL), MPI_ERR_WIN);
    EXPECT(MPI_Win_create(mem, -8, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win), MPI_ERR_SIZE);
    int rc = MPI_Win_create(mem, 8, 0, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    int cls = mt_errclass(rc);
    MT_CHECK(cls == MPI_ERR_DISP || cls == MPI_ERR_ARG,
             "disp_unit 0: expected MPI_ERR_DISP or MPI_ERR_ARG, got class %d", cls);
    free(mem);
    return mt_finish();
}
