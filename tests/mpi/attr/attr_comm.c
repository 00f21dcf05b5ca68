/* attr_comm.c - communicator attributes beyond dup/free (comm/dup.c covers those): the
 * predefined attributes (MPI_TAG_UB, MPI_HOST, MPI_IO, MPI_WTIME_IS_GLOBAL, MPI_LASTUSEDCODE
 * after MPI_Add_error_class), the deprecated MPI-1 interface (MPI_Keyval_create, MPI_Attr_*),
 * keyval error classes, window keyvals, and the delete callbacks of MPI_COMM_SELF running in
 * MPI_Finalize newest first. */
#include "mpitest.h"

/* The deprecated MPI-1 attribute interface is tested on purpose. */
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

static int self_deleted[4], self_deletes;
static int in_finalize;

static int record_self_delete(MPI_Comm comm, int keyval, void *value, void *extra)
{
    (void)keyval;
    (void)extra;
    if (comm == MPI_COMM_SELF && self_deletes < 4)
        self_deleted[self_deletes] = (int)(intptr_t)value;
    self_deletes++;
    return MPI_SUCCESS;
}

static int old_copy(MPI_Comm comm, int keyval, void *extra, void *in, void *out, int *flag)
{
    (void)comm;
    (void)keyval;
    (void)extra;
    *(void **)out = (void *)((intptr_t)in * 2);
    *flag = 1;
    return MPI_SUCCESS;
}

static int old_deletes;
static int old_delete(MPI_Comm comm, int keyval, void *value, void *extra)
{
    (void)comm;
    (void)keyval;
    (void)value;
    (void)extra;
    old_deletes++;
    return MPI_SUCCESS;
}

static void test_predefined(void)
{
    int *value = NULL, flag = 0;
    MT_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &value, &flag));
    MT_CHECK(flag && value && *value >= 32767, "MPI_TAG_UB %d", flag && value ? *value : -1);
    MT_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_HOST, &value, &flag));
    MT_CHECK(flag && value && (*value == MPI_PROC_NULL || (*value >= 0 && *value < mt_size)),
             "MPI_HOST");
    MT_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_IO, &value, &flag));
    MT_CHECK(flag && value && (*value == MPI_ANY_SOURCE || *value == MPI_PROC_NULL ||
                               (*value >= 0 && *value < mt_size)), "MPI_IO");
    MT_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_WTIME_IS_GLOBAL, &value, &flag));
    MT_CHECK(!flag || (value && (*value == 0 || *value == 1)), "MPI_WTIME_IS_GLOBAL");
    MT_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_UNIVERSE_SIZE, &value, &flag));
#ifdef OPEN_MPI /* Open MPI counts slots: fewer than ranks when oversubscribed */
    MT_CHECK(!flag || (value && *value >= 1), "MPI_UNIVERSE_SIZE");
#else
    /* nodempi: the larger of the job and the cores, or mpiexec --universe-size */
    MT_CHECK(flag && value && *value >= mt_size, "MPI_UNIVERSE_SIZE");
#endif
    MT_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_APPNUM, &value, &flag));
    MT_CHECK(!flag || (value && *value >= 0), "MPI_APPNUM");
    /* MPI_LASTUSEDCODE follows MPI_Add_error_class/code */
    int cls, code;
    MT_MPI(MPI_Add_error_class(&cls));
    MT_MPI(MPI_Add_error_code(cls, &code));
    MT_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &value, &flag));
    MT_CHECK(flag && value && *value >= code && *value >= cls, "MPI_LASTUSEDCODE %d < code %d",
             flag && value ? *value : -1, code);
    /* the deprecated name gives the same answer */
    int *old = NULL;
    MT_MPI(MPI_Attr_get(MPI_COMM_WORLD, MPI_TAG_UB, &old, &flag));
    MT_CHECK(flag && old && *old >= 32767, "MPI_Attr_get(MPI_TAG_UB)");
    /* predefined attributes cannot be changed */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MT_CHECK(MPI_Comm_set_attr(MPI_COMM_WORLD, MPI_TAG_UB, NULL) != MPI_SUCCESS,
             "MPI_TAG_UB was set");
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

static void test_deprecated(void)
{
    int key;
    MT_MPI(MPI_Keyval_create(old_copy, old_delete, &key, NULL));
    MPI_Comm a, b;
    MPI_Comm_dup(MPI_COMM_WORLD, &a);
    MT_MPI(MPI_Attr_put(a, key, (void *)(intptr_t)21));
    MT_MPI(MPI_Comm_dup(a, &b));
    void *value = NULL;
    int flag = 0;
    MT_MPI(MPI_Attr_get(b, key, &value, &flag));
    MT_CHECK(flag && (intptr_t)value == 42, "MPI_Keyval_create copy: %ld", (long)(intptr_t)value);
    old_deletes = 0;
    MT_MPI(MPI_Attr_delete(b, key));
    MT_CHECK_INT(1, old_deletes, "MPI_Attr_delete callbacks");
    MT_MPI(MPI_Attr_get(b, key, &value, &flag));
    MT_CHECK_INT(0, flag, "attribute after MPI_Attr_delete");
    MT_MPI(MPI_Keyval_free(&key));
    MT_CHECK(key == MPI_KEYVAL_INVALID, "MPI_Keyval_free did not reset the keyval");
    MPI_Comm_free(&a);
    MT_CHECK_INT(2, old_deletes, "delete callbacks after free of a freed keyval's comm");
    MPI_Comm_free(&b);
}

static void test_errors(void)
{
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    void *value;
    int flag;
    MT_CHECK_ERRCLASS(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_KEYVAL_INVALID, &value, &flag),
                      MPI_ERR_KEYVAL, "get_attr with MPI_KEYVAL_INVALID");
    int rc = MPI_Comm_set_attr(MPI_COMM_WORLD, MPI_KEYVAL_INVALID, NULL);
#ifdef OPEN_MPI /* Open MPI answers MPI_ERR_OTHER */
    MT_CHECK(rc != MPI_SUCCESS, "set_attr with MPI_KEYVAL_INVALID succeeded");
#else
    MT_CHECK_ERRCLASS(rc, MPI_ERR_KEYVAL, "set_attr with MPI_KEYVAL_INVALID");
#endif
    int wkey = MPI_KEYVAL_INVALID;
    MT_MPI(MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, MPI_WIN_NULL_DELETE_FN, &wkey, NULL));
    MT_CHECK(wkey != MPI_KEYVAL_INVALID, "MPI_Win_create_keyval");
#ifndef OPEN_MPI /* Open MPI accepts a window keyval on a communicator */
    MT_CHECK_ERRCLASS(MPI_Comm_set_attr(MPI_COMM_WORLD, wkey, NULL), MPI_ERR_KEYVAL,
                      "window keyval used on a communicator");
#endif
    MT_MPI(MPI_Win_free_keyval(&wkey));
    MT_CHECK(wkey == MPI_KEYVAL_INVALID, "MPI_Win_free_keyval did not reset the keyval");
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_ARE_FATAL);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    test_predefined();
    test_deprecated();
    test_errors();

    /* two attributes on MPI_COMM_SELF: MPI_Finalize deletes them, newest first */
    int k1, k2;
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, record_self_delete, &k1, NULL);
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, record_self_delete, &k2, NULL);
    MPI_Comm_set_attr(MPI_COMM_SELF, k1, (void *)(intptr_t)1);
    MPI_Comm_set_attr(MPI_COMM_SELF, k2, (void *)(intptr_t)2);
    MPI_Comm_free_keyval(&k1);
    MPI_Comm_free_keyval(&k2);

    long total = 0;
    MPI_Allreduce(&mt_errors, &total, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    MT_CHECK_INT(0, self_deletes, "MPI_COMM_SELF attributes deleted before MPI_Finalize");
    in_finalize = 1;
    MPI_Finalize();
    int ok = self_deletes == 2 && self_deleted[0] == 2 && self_deleted[1] == 1;
    if (!ok)
        fprintf(stderr, "FAIL rank %d: MPI_Finalize ran %d MPI_COMM_SELF delete callbacks "
                "(values %d %d), expected 2 (values 2 1)\n", mt_rank, self_deletes,
                self_deleted[0], self_deleted[1]);
    if (mt_rank == 0 && total == 0 && ok)
        printf("No errors\n");
    return total == 0 && ok && mt_errors == 0 ? 0 : 1;
}
