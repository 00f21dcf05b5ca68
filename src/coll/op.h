/* op.h - reduction operators: the predefined ones on every type they are defined for, and
 * user-defined ones (MPI_Op_create). coll_op_apply computes inout = in (op) inout elementwise. */
#ifndef NODEMPI_COLL_OP_H
#define NODEMPI_COLL_OP_H

#include <mpi.h>

struct dt_type;

/* What an operator computes; COLL_OP_USER calls the user's function. */
enum coll_op_kind {
    COLL_OP_USER = 0,
    COLL_OP_SUM, COLL_OP_PROD, COLL_OP_MIN, COLL_OP_MAX,
    COLL_OP_LAND, COLL_OP_LOR, COLL_OP_LXOR,
    COLL_OP_BAND, COLL_OP_BOR, COLL_OP_BXOR,
    COLL_OP_MINLOC, COLL_OP_MAXLOC,
    COLL_OP_REPLACE, COLL_OP_NO_OP,
    COLL_OP_KIND_COUNT
};

struct coll_op {
    int predefined;
    int commutative;
    int refcount;
    MPI_Op handle_value;         /* predefined: the ABI value */
    MPI_User_function *user_fn;
    MPI_User_function_c *user_fn_c;
    /* Set for a Fortran operator (src/fortran/callbacks.c): user_fn is then the Fortran
     * routine, called through this adapter, which passes the datatype as an INTEGER handle. */
    void (*user_adapter)(MPI_User_function *fn, void *in, void *inout, int *len,
                         MPI_Datatype *type);
    enum coll_op_kind kind;
    unsigned magic;              /* COLL_OP_MAGIC while the object is alive (handle checks) */
};

#define COLL_OP_MAGIC 0x6f705f6du

struct coll_op *coll_op_from_handle(MPI_Op handle); /* NULL for MPI_OP_NULL / invalid */
MPI_Op coll_op_to_handle(const struct coll_op *op);

/* MPI_SUCCESS, or MPI_ERR_OP when op is not defined for type. */
int coll_op_check(const struct coll_op *op, const struct dt_type *type);
/* Like coll_op_check, and also MPI_ERR_OP for MPI_REPLACE / MPI_NO_OP, which only
 * one-sided accumulates accept. */
int coll_op_check_reduction(const struct coll_op *op, const struct dt_type *type);
/* inout[i] = in[i] op inout[i] for count elements of type (MPI's argument order). */
int coll_op_apply(const struct coll_op *op, const void *in, void *inout, MPI_Count count,
                  struct dt_type *type);

/* User operators (MPI_Op_create / _c / MPI_Op_free); references keep an operator alive while
 * a nonblocking or persistent collective uses it. */
int coll_op_create(MPI_User_function *fn, MPI_User_function_c *fn_c, int commutative,
                   struct coll_op **out);
void coll_op_retain(struct coll_op *op);
void coll_op_release(struct coll_op *op);

/* Short name for messages: "MPI_SUM", "user-defined". */
const char *coll_op_name(const struct coll_op *op);

#endif
