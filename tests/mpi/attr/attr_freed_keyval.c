/* attr_freed_keyval.c - a keyval freed while attributes still use it: get and delete on those
 * attributes still work (MPI: the references are freed "via calls to MPI_COMM_DELETE_ATTR"),
 * a second free through a saved copy of the handle is accepted (as MPICH and Open MPI do),
 * and the delete callback runs exactly once per attribute. */
#include "mpitest.h"

static int deletes;

static int count_delete(MPI_Comm comm, int keyval, void *value, void *extra)
{
    (void)comm;
    (void)keyval;
    (void)value;
    (void)extra;
    deletes++;
    return MPI_SUCCESS;
}

static int count_type_delete(MPI_Datatype type, int keyval, void *value, void *extra)
{
    (void)type;
    (void)keyval;
    (void)value;
    (void)extra;
    deletes++;
    return MPI_SUCCESS;
}

static void check_comm(void)
{
    MPI_Comm dup;
    int key, saved, flag = 0;
    void *value = NULL;
    MT_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    MT_MPI(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, count_delete, &key, NULL));
    saved = key;
    MT_MPI(MPI_Comm_set_attr(dup, key, (void *)(intptr_t)42));
    MT_MPI(MPI_Comm_set_attr(MPI_COMM_SELF, key, (void *)(intptr_t)7));
    MT_MPI(MPI_Comm_free_keyval(&key));
    MT_CHECK_INT(MPI_KEYVAL_INVALID, key, "keyval after MPI_Comm_free_keyval");
    MT_MPI(MPI_Comm_get_attr(dup, saved, &value, &flag));
    MT_CHECK_INT(1, flag, "get through a freed keyval still in use: flag");
    MT_CHECK_INT(42, (intptr_t)value, "get through a freed keyval still in use: value");
    MT_MPI(MPI_Comm_delete_attr(dup, saved));
    MT_CHECK_INT(1, deletes, "delete callbacks after MPI_Comm_delete_attr");
    key = saved;
    MT_MPI(MPI_Comm_free_keyval(&key)); /* second free: still referenced by MPI_COMM_SELF */
    MT_MPI(MPI_Comm_delete_attr(MPI_COMM_SELF, saved));
    MT_CHECK_INT(2, deletes, "delete callbacks after deleting the last attribute");
    MT_MPI(MPI_Comm_free(&dup));
    MT_CHECK_INT(2, deletes, "delete callbacks after MPI_Comm_free");
}

static void check_type(void)
{
    MPI_Datatype type;
    int key, saved;
    MT_MPI(MPI_Type_contiguous(2, MPI_INT, &type));
    MT_MPI(MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, count_type_delete, &key, NULL));
    saved = key;
    MT_MPI(MPI_Type_set_attr(type, key, NULL));
    MT_MPI(MPI_Type_free_keyval(&key));
    MT_MPI(MPI_Type_delete_attr(type, saved));
    MT_CHECK_INT(3, deletes, "type delete callback through a freed keyval");
    MT_MPI(MPI_Type_free(&type));
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    check_comm();
    check_type();
    return mt_finish();
}
