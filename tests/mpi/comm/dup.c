/* dup.c - MPI_Comm_dup / dup_with_info / idup: attributes copied by their copy callbacks
 * (MPI_COMM_DUP_FN, MPI_COMM_NULL_COPY_FN, a user function), delete callbacks run by
 * MPI_Comm_free, compare results, names, isolation of traffic between a communicator and its
 * dup, and a dup/free loop longer than any context-id table. */
#include "mpitest.h"

static int copies, deletes;
static intptr_t last_deleted;

static int copy_plus_one(MPI_Comm comm, int keyval, void *extra, void *in, void *out, int *flag)
{
    (void)comm;
    (void)keyval;
    MT_CHECK(extra == (void *)&copies, "copy callback got extra_state %p", extra);
    copies++;
    *(void **)out = (void *)((intptr_t)in + 1);
    *flag = 1;
    return MPI_SUCCESS;
}

static int count_delete(MPI_Comm comm, int keyval, void *value, void *extra)
{
    (void)comm;
    (void)keyval;
    (void)extra;
    deletes++;
    last_deleted = (intptr_t)value;
    return MPI_SUCCESS;
}

static void check_attr(MPI_Comm comm, int keyval, int expect_flag, intptr_t expect,
                       const char *what)
{
    void *value = NULL;
    int flag = -1;
    MT_MPI(MPI_Comm_get_attr(comm, keyval, &value, &flag));
    MT_CHECK(flag == expect_flag, "%s: flag %d, expected %d", what, flag, expect_flag);
    if (flag && expect_flag)
        MT_CHECK((intptr_t)value == expect, "%s: value %ld, expected %ld", what,
                 (long)(intptr_t)value, (long)expect);
}

static void test_attributes_on_dup(void)
{
    int k_dup, k_null, k_user;
    MT_MPI(MPI_Comm_create_keyval(MPI_COMM_DUP_FN, count_delete, &k_dup, NULL));
    MT_MPI(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, count_delete, &k_null, NULL));
    MT_MPI(MPI_Comm_create_keyval(copy_plus_one, count_delete, &k_user, &copies));
    MPI_Comm base;
    MT_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &base));
    MT_MPI(MPI_Comm_set_attr(base, k_dup, (void *)(intptr_t)100));
    MT_MPI(MPI_Comm_set_attr(base, k_null, (void *)(intptr_t)200));
    MT_MPI(MPI_Comm_set_attr(base, k_user, (void *)(intptr_t)300));

    MPI_Comm copy;
    copies = deletes = 0;
    MT_MPI(MPI_Comm_dup(base, &copy));
    MT_CHECK_INT(1, copies, "user copy callback calls");
    check_attr(copy, k_dup, 1, 100, "MPI_COMM_DUP_FN attribute on the dup");
    check_attr(copy, k_null, 0, 0, "MPI_COMM_NULL_COPY_FN attribute on the dup");
    check_attr(copy, k_user, 1, 301, "user-copied attribute on the dup");
    check_attr(base, k_user, 1, 300, "original attribute after dup");

    /* replacing an attribute deletes the old value */
    MT_MPI(MPI_Comm_set_attr(copy, k_dup, (void *)(intptr_t)101));
    MT_CHECK_INT(1, deletes, "delete callbacks on replace");
    MT_CHECK_INT(100, last_deleted, "value deleted on replace");
    MT_MPI(MPI_Comm_delete_attr(copy, k_dup));
    MT_CHECK_INT(2, deletes, "delete callbacks on delete_attr");
    check_attr(copy, k_dup, 0, 0, "deleted attribute");

    /* free runs the delete callbacks of what is left (k_user only on copy) */
    deletes = 0;
    MT_MPI(MPI_Comm_free(&copy));
    MT_CHECK_INT(1, deletes, "delete callbacks run by MPI_Comm_free of the dup");
    MT_CHECK_INT(301, last_deleted, "value deleted by free");

    /* a freed keyval keeps working for attributes already set */
    MT_MPI(MPI_Comm_free_keyval(&k_user));
    MT_CHECK(k_user == MPI_KEYVAL_INVALID, "free_keyval did not reset the keyval");
    deletes = 0;
    MT_MPI(MPI_Comm_free(&base));
    MT_CHECK_INT(3, deletes, "delete callbacks run by MPI_Comm_free of the original");
    MPI_Comm_free_keyval(&k_dup);
    MPI_Comm_free_keyval(&k_null);
}

static void test_compare_and_names(void)
{
    MPI_Comm copy, info_copy, reordered;
    int result = -1;
    MT_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &copy));
    MPI_Comm_compare(MPI_COMM_WORLD, MPI_COMM_WORLD, &result);
    MT_CHECK_INT(MPI_IDENT, result, "compare world with itself");
    MPI_Comm_compare(MPI_COMM_WORLD, copy, &result);
    MT_CHECK_INT(MPI_CONGRUENT, result, "compare world with its dup");
    MT_MPI(MPI_Comm_split(MPI_COMM_WORLD, 0, -mt_rank, &reordered));
    MPI_Comm_compare(MPI_COMM_WORLD, reordered, &result);
    MT_CHECK_INT(mt_size > 1 ? MPI_SIMILAR : MPI_CONGRUENT, result, "compare with reversed");
    MPI_Comm_compare(MPI_COMM_SELF, copy, &result);
    MT_CHECK_INT(mt_size > 1 ? MPI_UNEQUAL : MPI_CONGRUENT, result, "compare self with world dup");

    char name[MPI_MAX_OBJECT_NAME];
    int len = -1;
    MPI_Comm_get_name(MPI_COMM_WORLD, name, &len);
    MT_CHECK(strcmp(name, "MPI_COMM_WORLD") == 0 && len == 14, "world name \"%s\"", name);
    MPI_Comm_get_name(MPI_COMM_SELF, name, &len);
    MT_CHECK(strcmp(name, "MPI_COMM_SELF") == 0, "self name \"%s\"", name);
    MPI_Comm_get_name(copy, name, &len);
    MT_CHECK(len == 0 && name[0] == '\0', "dup has a name \"%s\"", name);
    MT_MPI(MPI_Comm_set_name(copy, "my dup"));
    MPI_Comm_get_name(copy, name, &len);
    MT_CHECK(strcmp(name, "my dup") == 0 && len == 6, "set name read back as \"%s\"", name);

    /* dup_with_info: a communicator with the same group */
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "mpi_assert_no_any_tag", "false");
    MT_MPI(MPI_Comm_dup_with_info(copy, info, &info_copy));
    MPI_Info_free(&info);
    MPI_Comm_compare(copy, info_copy, &result);
    MT_CHECK_INT(MPI_CONGRUENT, result, "compare dup_with_info");
    int inter = -1;
    MPI_Comm_test_inter(info_copy, &inter);
    MT_CHECK_INT(0, inter, "MPI_Comm_test_inter of an intracommunicator");

    /* traffic isolation: the same (source, tag) on world and on the dup */
    int a = mt_rank, b = mt_rank + 1000, ra = -1, rb = -1;
    MPI_Request req[4];
    MPI_Irecv(&rb, 1, MPI_INT, mt_left(), 3, copy, &req[0]);
    MPI_Irecv(&ra, 1, MPI_INT, mt_left(), 3, MPI_COMM_WORLD, &req[1]);
    MPI_Isend(&a, 1, MPI_INT, mt_right(), 3, MPI_COMM_WORLD, &req[2]);
    MPI_Isend(&b, 1, MPI_INT, mt_right(), 3, copy, &req[3]);
    MPI_Waitall(4, req, MPI_STATUSES_IGNORE);
    MT_CHECK_INT(mt_left(), ra, "message on world");
    MT_CHECK_INT(mt_left() + 1000, rb, "message on the dup");

    MPI_Comm_free(&reordered);
    MPI_Comm_free(&info_copy);
    MPI_Comm_free(&copy);
}

static void test_idup(void)
{
    MPI_Comm c1, c2;
    MPI_Request req[2];
    MT_MPI(MPI_Comm_idup(MPI_COMM_WORLD, &c1, &req[0]));
    MT_MPI(MPI_Comm_idup(MPI_COMM_WORLD, &c2, &req[1]));
    MT_MPI(MPI_Waitall(2, req, MPI_STATUSES_IGNORE));
    int v = mt_rank, r = -1;
    MT_MPI(MPI_Sendrecv(&v, 1, MPI_INT, mt_right(), 0, &r, 1, MPI_INT, mt_left(), 0, c2,
                        MPI_STATUS_IGNORE));
    MT_CHECK_INT(mt_left(), r, "ring on an idup communicator");
    int result;
    MPI_Comm_compare(c1, c2, &result);
    MT_CHECK_INT(MPI_CONGRUENT, result, "two idups compare");
    MPI_Comm_free(&c1);
    MPI_Comm_free(&c2);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    test_attributes_on_dup();
    test_compare_and_names();
    test_idup();
    /* more dup/free rounds than any context-id table has entries */
    MPI_Comm keep;
    MPI_Comm_dup(MPI_COMM_WORLD, &keep); /* one long-lived communicator in between */
    for (int i = 0; i < 10000; i++) {
        MPI_Comm c;
        if (MPI_Comm_dup(i % 2 ? keep : MPI_COMM_WORLD, &c) != MPI_SUCCESS || c == MPI_COMM_NULL) {
            MT_CHECK(0, "dup failed at iteration %d", i);
            break;
        }
        MPI_Comm_free(&c);
    }
    MPI_Comm_free(&keep);
    return mt_finish();
}
