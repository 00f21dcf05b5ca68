/* attr_type.c - datatype attributes: keyvals, set/get/delete on a predefined and a derived
 * type, copy callbacks run by MPI_Type_dup, delete callbacks run by MPI_Type_free. */
#include "mpitest.h"

static int deletes;
static intptr_t last_deleted;

static int type_copy(MPI_Datatype type, int keyval, void *extra, void *in, void *out, int *flag)
{
    (void)type;
    (void)keyval;
    (void)extra;
    *(void **)out = (void *)((intptr_t)in + 5);
    *flag = 1;
    return MPI_SUCCESS;
}

static int type_delete(MPI_Datatype type, int keyval, void *value, void *extra)
{
    (void)type;
    (void)keyval;
    (void)extra;
    deletes++;
    last_deleted = (intptr_t)value;
    return MPI_SUCCESS;
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    int key, dupkey;
    MT_MPI(MPI_Type_create_keyval(type_copy, type_delete, &key, NULL));
    MT_MPI(MPI_Type_create_keyval(MPI_TYPE_DUP_FN, type_delete, &dupkey, NULL));
    void *value = NULL;
    int flag = -1;

    /* predefined type */
    MT_MPI(MPI_Type_get_attr(MPI_INT, key, &value, &flag));
    MT_CHECK_INT(0, flag, "unset attribute on MPI_INT");
    MT_MPI(MPI_Type_set_attr(MPI_INT, key, (void *)(intptr_t)10));
    MT_MPI(MPI_Type_get_attr(MPI_INT, key, &value, &flag));
    MT_CHECK(flag && (intptr_t)value == 10, "attribute on MPI_INT");
    deletes = 0;
    MT_MPI(MPI_Type_delete_attr(MPI_INT, key));
    MT_CHECK_INT(1, deletes, "delete callback of MPI_Type_delete_attr");

    /* derived type: dup copies, free deletes */
    MPI_Datatype vec, copy;
    MPI_Type_vector(3, 1, 2, MPI_DOUBLE, &vec);
    MPI_Type_commit(&vec);
    MT_MPI(MPI_Type_set_attr(vec, key, (void *)(intptr_t)100));
    MT_MPI(MPI_Type_set_attr(vec, dupkey, (void *)(intptr_t)200));
    MT_MPI(MPI_Type_dup(vec, &copy));
    MT_MPI(MPI_Type_get_attr(copy, key, &value, &flag));
    MT_CHECK(flag && (intptr_t)value == 105, "copied attribute on MPI_Type_dup: %ld",
             (long)(intptr_t)value);
    MT_MPI(MPI_Type_get_attr(copy, dupkey, &value, &flag));
    MT_CHECK(flag && (intptr_t)value == 200, "MPI_TYPE_DUP_FN attribute");
    deletes = 0;
    MT_MPI(MPI_Type_free(&copy));
    MT_CHECK_INT(2, deletes, "delete callbacks of MPI_Type_free (dup)");
    deletes = 0;
    MT_MPI(MPI_Type_free(&vec));
    MT_CHECK_INT(2, deletes, "delete callbacks of MPI_Type_free (original)");
    MT_MPI(MPI_Type_free_keyval(&key));
    MT_MPI(MPI_Type_free_keyval(&dupkey));
    MT_CHECK(key == MPI_KEYVAL_INVALID, "MPI_Type_free_keyval did not reset the keyval");
    return mt_finish();
}
