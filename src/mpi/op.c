/* op.c - API: user-defined reduction operators (MPI_Op_create / _c, MPI_Op_free,
 * MPI_Op_commutative) and MPI_Reduce_local. Operator objects live in src/coll/op.c. */
#include "coll/op.h"
#include "mpi/api.h"

static int create(MPI_User_function *fn, MPI_User_function_c *fn_c, int commute, MPI_Op *op,
                  const char *function)
{
    int rc;
    if ((rc = mpi_check_initialized(function)))
        return rc;
    if (!fn && !fn_c)
        return core_error_raise(NULL, MPI_ERR_ARG, function, "user function is NULL");
    if (!op)
        return core_error_raise(NULL, MPI_ERR_ARG, function, "op argument is NULL");
    struct coll_op *object;
    if ((rc = coll_op_create(fn, fn_c, commute, &object)) != MPI_SUCCESS)
        return core_error_raise(NULL, rc, function, "out of memory");
    *op = coll_op_to_handle(object);
    return MPI_SUCCESS;
}

int PMPI_Op_create(MPI_User_function *user_fn, int commute, MPI_Op *op)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return create(user_fn, NULL, commute, op, "MPI_Op_create");
}
#pragma weak MPI_Op_create = PMPI_Op_create

int PMPI_Op_create_c(MPI_User_function_c *user_fn, int commute, MPI_Op *op)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return create(NULL, user_fn, commute, op, "MPI_Op_create_c");
}
#pragma weak MPI_Op_create_c = PMPI_Op_create_c

int PMPI_Op_free(MPI_Op *op)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    int rc;
    if ((rc = mpi_check_initialized("MPI_Op_free")))
        return rc;
    struct coll_op *object = op ? coll_op_from_handle(*op) : NULL;
    if (!object)
        return core_error_raise(NULL, MPI_ERR_OP, "MPI_Op_free", "invalid operation");
    if (object->predefined)
        return core_error_raise(NULL, MPI_ERR_OP, "MPI_Op_free",
                                "cannot free predefined operation %s", coll_op_name(object));
    coll_op_release(object); /* pending collectives hold their own references */
    *op = MPI_OP_NULL;
    return MPI_SUCCESS;
}
#pragma weak MPI_Op_free = PMPI_Op_free

int PMPI_Op_commutative(MPI_Op op, int *commute)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    int rc;
    if ((rc = mpi_check_initialized("MPI_Op_commutative")))
        return rc;
    struct coll_op *object = coll_op_from_handle(op);
    if (!object)
        return core_error_raise(NULL, MPI_ERR_OP, "MPI_Op_commutative", "invalid operation%s",
                                op == MPI_OP_NULL ? " MPI_OP_NULL" : "");
    if (!commute)
        return core_error_raise(NULL, MPI_ERR_ARG, "MPI_Op_commutative",
                                "commute argument is NULL");
    *commute = object->commutative;
    return MPI_SUCCESS;
}
#pragma weak MPI_Op_commutative = PMPI_Op_commutative

static int reduce_local(const void *inbuf, void *inoutbuf, MPI_Count count,
                        MPI_Datatype datatype, MPI_Op op, const char *function)
{
    int rc;
    struct dt_type *type;
    if ((rc = mpi_check_initialized(function)) ||
        (rc = mpi_check_count(NULL, count, function)) ||
        (rc = mpi_get_type(NULL, datatype, &type, function)) ||
        (rc = mpi_check_buffer(NULL, inbuf, count, type, function)) ||
        (rc = mpi_check_buffer(NULL, inoutbuf, count, type, function)))
        return rc;
    struct coll_op *object = coll_op_from_handle(op);
    if (!object)
        return core_error_raise(NULL, MPI_ERR_OP, function, "invalid operation%s",
                                op == MPI_OP_NULL ? " MPI_OP_NULL" : "");
    if (inbuf == MPI_IN_PLACE || inoutbuf == MPI_IN_PLACE)
        return core_error_raise(NULL, MPI_ERR_BUFFER, function,
                                "MPI_IN_PLACE is not allowed");
    /* MPI forbids an output buffer aliasing another argument (MPI-4.1 2.9.1): inbuf and
     * inoutbuf the same address would read what it is writing. */
    if (inbuf == inoutbuf && inbuf && count > 0 && type->size > 0)
        return core_error_raise(NULL, MPI_ERR_BUFFER, function,
                                "inbuf and inoutbuf are the same buffer");
    /* coll_op_apply refuses an op not defined for the type before touching anything: one look
     * at the kernel table instead of a check and then the apply (an 8-byte MPI_Reduce_local
     * spent 37% of its time in the separate check). The check alone where apply would accept
     * what a reduction may not use (MPI_REPLACE, MPI_NO_OP) or has nothing to apply. */
    if (object->kind == COLL_OP_REPLACE || object->kind == COLL_OP_NO_OP || count == 0)
        rc = coll_op_check_reduction(object, type);
    else
        rc = coll_op_apply(object, inbuf, inoutbuf, count, type);
    if (rc == MPI_ERR_OP)
        return core_error_raise(NULL, MPI_ERR_OP, function, "%s is not defined for datatype %s",
                                coll_op_name(object),
                                type->name[0] ? type->name : "(unnamed derived type)");
    if (rc != MPI_SUCCESS)
        return core_error_raise(NULL, rc, function, "%s", core_error_string(rc));
    return MPI_SUCCESS;
}

int PMPI_Reduce_local(const void *inbuf, void *inoutbuf, int count, MPI_Datatype datatype,
                      MPI_Op op)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return reduce_local(inbuf, inoutbuf, count, datatype, op, "MPI_Reduce_local");
}
#pragma weak MPI_Reduce_local = PMPI_Reduce_local

int PMPI_Reduce_local_c(const void *inbuf, void *inoutbuf, MPI_Count count,
                        MPI_Datatype datatype, MPI_Op op)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return reduce_local(inbuf, inoutbuf, count, datatype, op, "MPI_Reduce_local_c");
}
#pragma weak MPI_Reduce_local_c = PMPI_Reduce_local_c
