/* acc_no_data.c - accumulates that combine no data: zero counts and MPI_PROC_NULL targets.
 * The operator's fit to the datatype (MPI_SUM is not defined on MPI_BYTE) and the matching of
 * origin, result and target basic types are rules about combined data, so such calls succeed
 * and change nothing (mpi4py makes them with empty buffers; Open MPI and MPICH accept them),
 * on Win_create and Win_allocate windows, blocking and request-based. The same pairings with
 * data still raise MPI_ERR_OP / MPI_ERR_TYPE, a user-defined operator is refused even with no
 * data, and a zero-count call to a real target still needs an epoch. */
#include "mpitest.h"

enum { N = 4 };

/* Errors only nodempi is known to detect (the standard does not require detection; Open MPI
 * 4.1 and MPICH 4.0 accept these calls and combine the bytes anyway). */
static void expect_detected(int rc, int cls, const char *what)
{
    if (rc == MPI_SUCCESS && !mt_library_is("nodempi"))
        return;
    MT_CHECK_ERRCLASS(rc, cls, what);
}

static void user_sum(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)type;
    for (int i = 0; i < *len; i++)
        ((int *)inout)[i] += ((int *)in)[i];
}

static int value_at(int rank, int i)
{
    return 1000 * rank + i;
}

/* Every call here leaves the window and the result buffer as they were. */
static void no_data_calls(MPI_Win win, const char *what)
{
    int right = mt_right(), origin[N] = {1, 2, 3, 4}, result[N] = {-1, -1, -1, -1};
    MT_MPI(MPI_Win_fence(0, win));
    /* count 0, MPI_BYTE with MPI_SUM (mpi4py's Get_accumulate of an empty buffer) */
    MT_MPI(MPI_Get_accumulate(origin, 0, MPI_BYTE, result, 0, MPI_BYTE, right, 0, 0,
                                 MPI_BYTE, MPI_SUM, win));
    MT_MPI(MPI_Accumulate(origin, 0, MPI_BYTE, right, 0, 0, MPI_BYTE, MPI_PROD, win));
    /* count 0, mismatched types (origin int, result byte) to a real target */
    MT_MPI(MPI_Get_accumulate(origin, 0, MPI_INT, result, 0, MPI_BYTE, right, 0, 0,
                                 MPI_INT, MPI_SUM, win));
    /* MPI_PROC_NULL: mismatched types, byte sums, with and without elements */
    MT_MPI(MPI_Get_accumulate(origin, 0, MPI_INT, result, 0, MPI_BYTE, MPI_PROC_NULL, 0, 0,
                                 MPI_INT, MPI_SUM, win));
    MT_MPI(MPI_Get_accumulate(origin, 1, MPI_INT, result, 4, MPI_BYTE, MPI_PROC_NULL, 0, 1,
                                 MPI_INT, MPI_SUM, win));
    MT_MPI(MPI_Get_accumulate(origin, 2, MPI_BYTE, result, 2, MPI_BYTE, MPI_PROC_NULL, 0, 2,
                                 MPI_BYTE, MPI_SUM, win));
    MT_MPI(MPI_Fetch_and_op(origin, result, MPI_BYTE, MPI_PROC_NULL, 0, MPI_SUM, win));
    MT_MPI(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));
    for (int i = 0; i < N; i++)
        MT_CHECK(result[i] == -1, "%s: result[%d] = %d after calls that fetch nothing", what, i,
                 result[i]);
}

/* The same in a passive target epoch through the request-based calls. */
static void no_data_requests(MPI_Win win, const char *what)
{
    int right = mt_right(), origin[N] = {1, 2, 3, 4}, result[N] = {-1, -1, -1, -1};
    MPI_Request requests[3];
    MT_MPI(MPI_Win_lock(MPI_LOCK_SHARED, right, 0, win));
    MT_MPI(MPI_Rget_accumulate(origin, 0, MPI_BYTE, result, 0, MPI_BYTE, right, 0, 0,
                                  MPI_BYTE, MPI_SUM, win, &requests[0]));
    MT_MPI(MPI_Raccumulate(origin, 0, MPI_BYTE, right, 0, 0, MPI_BYTE, MPI_SUM, win,
                              &requests[1]));
    MT_MPI(MPI_Rget_accumulate(origin, 0, MPI_INT, result, 0, MPI_BYTE, MPI_PROC_NULL, 0, 0,
                                  MPI_INT, MPI_SUM, win, &requests[2]));
    MT_MPI(MPI_Waitall(3, requests, MPI_STATUSES_IGNORE));
    MT_MPI(MPI_Win_unlock(right, win));
    for (int i = 0; i < N; i++)
        MT_CHECK(result[i] == -1, "%s: result[%d] = %d after requests that fetch nothing", what,
                 i, result[i]);
}

/* What stays an error. The byte sum goes to element N - 1, which only the lenient libraries
 * change; the window is checked on elements 0 .. N - 2. */
static void still_errors(MPI_Win win, const char *what)
{
    int right = mt_right(), origin[N] = {1, 2, 3, 4}, result[N] = {0};
    char label[200];
    MPI_Op user_op;
    MT_MPI(MPI_Op_create(user_sum, 1, &user_op));
    MT_MPI(MPI_Win_fence(0, win));
    snprintf(label, sizeof label, "%s: Get_accumulate of 1 MPI_BYTE with MPI_SUM", what);
    expect_detected(MPI_Get_accumulate(origin, 1, MPI_BYTE, result, 1, MPI_BYTE, right,
                                       (N - 1) * sizeof(int), 1, MPI_BYTE, MPI_SUM, win),
                    MPI_ERR_OP, label);
    snprintf(label, sizeof label, "%s: Get_accumulate int result into byte", what);
    expect_detected(MPI_Get_accumulate(origin, 1, MPI_INT, result, 4, MPI_BYTE, right,
                                       (N - 1) * sizeof(int), 1, MPI_INT, MPI_SUM, win),
                    MPI_ERR_TYPE, label);
    snprintf(label, sizeof label, "%s: user-defined operator with no data", what);
    MT_CHECK_ERRCLASS(MPI_Accumulate(origin, 0, MPI_INT, MPI_PROC_NULL, 0, 0, MPI_INT, user_op,
                                     win),
                      MPI_ERR_OP, label);
    MT_MPI(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));
    MPI_Op_free(&user_op);
    snprintf(label, sizeof label, "%s: zero-count accumulate outside an epoch", what);
    expect_detected(MPI_Accumulate(origin, 0, MPI_BYTE, right, 0, 0, MPI_BYTE, MPI_SUM, win),
                    MPI_ERR_RMA_SYNC, label);
}

static void check_window(const int *mem, const char *what)
{
    MPI_Barrier(MPI_COMM_WORLD);
    for (int i = 0; i < N - 1; i++)
        MT_CHECK(mem[i] == value_at(mt_rank, i), "%s: window element %d is %d, expected %d",
                 what, i, mem[i], value_at(mt_rank, i));
}

static void run(MPI_Win win, int *mem, const char *what)
{
    MT_MPI(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
    for (int i = 0; i < N; i++)
        mem[i] = value_at(mt_rank, i);
    MPI_Barrier(MPI_COMM_WORLD);
    no_data_calls(win, what);
    no_data_requests(win, what);
    still_errors(win, what);
    check_window(mem, what);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int *mem = mt_malloc(N * sizeof(int));
    MPI_Win win;
    MT_MPI(MPI_Win_create(mem, N * sizeof(int), 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    run(win, mem, "Win_create");
    MT_MPI(MPI_Win_free(&win));
    free(mem);

    MT_MPI(MPI_Win_allocate(N * sizeof(int), 1, MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win));
    run(win, mem, "Win_allocate");
    MT_MPI(MPI_Win_free(&win));
    return mt_finish();
}
