/* accumulate.c - Accumulate, Get_accumulate, Fetch_and_op and Compare_and_swap. Two paths,
 * chosen by window and type only (never by operator, so concurrent accumulates to one
 * location always agree on how they are atomic):
 *   atomic - shared-memory windows, element types the CPU updates atomically (atomic.h): one
 *            atomic per element, straight on the target's memory, no lock;
 *   locked - everything else (user-memory windows through CMA, long double, complex, pairs,
 *            misaligned elements): under the target's mutex, read the target bytes, apply the
 *            operator with coll_op_apply, write them back (seed 004 ch. 7: get-modify-put made
 *            atomic by a lock at the target).
 * Data moves in chunks of whole elements so large accumulates need bounded buffers. */
#include <stdlib.h>
#include <string.h>

#include "coll/op.h"
#include "datatype/datatype.h"
#include "rma/atomic.h"
#include "rma/internal.h"

enum {
    STACK_CHUNK = 2048,        /* bytes staged on the stack (small accumulates: no malloc) */
    HEAP_CHUNK = 256 * 1024,   /* larger ones: a buffer that stays in L2 */
};

/* The predefined type whose packed elements the operator works on, per element kind. */
static MPI_Datatype basic_handle(enum dt_element kind)
{
    switch (kind) {
    case DT_ELEMENT_INT8: return MPI_INT8_T;
    case DT_ELEMENT_UINT8: return MPI_UINT8_T;
    case DT_ELEMENT_INT16: return MPI_INT16_T;
    case DT_ELEMENT_UINT16: return MPI_UINT16_T;
    case DT_ELEMENT_INT32: return MPI_INT32_T;
    case DT_ELEMENT_UINT32: return MPI_UINT32_T;
    case DT_ELEMENT_INT64: return MPI_INT64_T;
    case DT_ELEMENT_UINT64: return MPI_UINT64_T;
    case DT_ELEMENT_FLOAT: return MPI_FLOAT;
    case DT_ELEMENT_DOUBLE: return MPI_DOUBLE;
    case DT_ELEMENT_LONG_DOUBLE: return MPI_LONG_DOUBLE;
    case DT_ELEMENT_C_FLOAT_COMPLEX: return MPI_C_FLOAT_COMPLEX;
    case DT_ELEMENT_C_DOUBLE_COMPLEX: return MPI_C_DOUBLE_COMPLEX;
    case DT_ELEMENT_C_LONG_DOUBLE_COMPLEX: return MPI_C_LONG_DOUBLE_COMPLEX;
    case DT_ELEMENT_BOOL: return MPI_C_BOOL;
    case DT_ELEMENT_CHAR: return MPI_CHAR;
    case DT_ELEMENT_BYTE: return MPI_BYTE;
    case DT_ELEMENT_WCHAR: return MPI_WCHAR;
    case DT_ELEMENT_FLOAT_INT: return MPI_FLOAT_INT;
    case DT_ELEMENT_DOUBLE_INT: return MPI_DOUBLE_INT;
    case DT_ELEMENT_LONG_INT: return MPI_LONG_INT;
    case DT_ELEMENT_2INT: return MPI_2INT;
    case DT_ELEMENT_SHORT_INT: return MPI_SHORT_INT;
    case DT_ELEMENT_LONG_DOUBLE_INT: return MPI_LONG_DOUBLE_INT;
    case DT_ELEMENT_2FLOAT: return MPI_2REAL;
    case DT_ELEMENT_2DOUBLE: return MPI_2DOUBLE_PRECISION;
    default: return MPI_DATATYPE_NULL;
    }
}

/* ---- argument rules ----------------------------------------------------------------------- */

int rma_check_accumulate_types(const struct dt_type *a, const struct dt_type *b)
{
    return a->element == b->element ? MPI_SUCCESS : MPI_ERR_TYPE;
}

int rma_check_accumulate_op(const struct coll_op *op, const struct dt_type *type)
{
    if (!op->predefined)
        return MPI_ERR_OP;
    if (op->kind == COLL_OP_REPLACE || op->kind == COLL_OP_NO_OP)
        return MPI_SUCCESS;
    if (basic_handle(type->element) == MPI_DATATYPE_NULL)
        return MPI_ERR_OP;
    return coll_op_check(op, type);
}

int rma_check_cas_type(const struct dt_type *type)
{
    if (!type->predefined || !rma_atomic_supported(type) || type->element == DT_ELEMENT_FLOAT ||
        type->element == DT_ELEMENT_DOUBLE || type->size != type->element_size)
        return MPI_ERR_TYPE;
    return MPI_SUCCESS;
}

/* ---- atomic path -------------------------------------------------------------------------- */

struct acc_args {
    struct rma_win *win;
    int target;
    const void *origin;
    MPI_Count origin_count;
    struct dt_type *origin_type;
    void *result;
    MPI_Count result_count;
    struct dt_type *result_type;
    struct rma_target_mem mem;
    struct coll_op *op;
    size_t bytes;
};

/* One element: atomically when aligned; a misaligned one under the target's mutex (the same
 * location is always misaligned, so it always takes this path). */
static void element_update(struct acc_args *a, char *target, const char *origin, char *result)
{
    enum dt_element kind = a->mem.type->element;
    size_t size = (size_t)a->mem.type->element_size;
    if (((uintptr_t)target & (size - 1)) == 0) {
        rma_atomic_apply(kind, size, a->op->kind, target, origin, result);
        return;
    }
    rma_mutex_lock(a->win, a->target);
    if (result)
        memcpy(result, target, size);
    if (a->op->kind != COLL_OP_NO_OP)
        rma_element_apply(kind, size, a->op->kind, target, origin);
    rma_mutex_unlock(a->win, a->target);
}

static int all_contiguous(const struct acc_args *a)
{
    int origin_ok = a->op->kind == COLL_OP_NO_OP ||
                    dt_is_contiguous(a->origin_type, a->origin_count);
    int result_ok = !a->result || dt_is_contiguous(a->result_type, a->result_count);
    return origin_ok && result_ok && dt_is_contiguous(a->mem.type, a->mem.count);
}

static int accumulate_atomic(struct acc_args *a)
{
    size_t size = (size_t)a->mem.type->element_size;
    if (all_contiguous(a)) {
        char *t = a->mem.local + a->mem.type->true_lb;
        const char *o = a->op->kind == COLL_OP_NO_OP
                            ? NULL
                            : (const char *)a->origin + a->origin_type->true_lb;
        char *r = a->result ? (char *)a->result + a->result_type->true_lb : NULL;
        for (size_t i = 0; i < a->bytes; i += size)
            element_update(a, t + i, o ? o + i : NULL, r ? r + i : NULL);
        return MPI_SUCCESS;
    }
    /* Stage origin and result through small packed buffers; walk the target's blocks. */
    _Alignas(16) char in[STACK_CHUNK], out[STACK_CHUNK];
    struct iovec iov[32];
    size_t position = 0;
    while (position < a->bytes) {
        size_t covered;
        int n = dt_iovec_range(a->mem.type, a->mem.local, a->mem.count, position, iov, 32,
                               &covered);
        size_t len = a->bytes - position < STACK_CHUNK ? a->bytes - position : STACK_CHUNK;
        if (covered < len)
            len = covered;
        len -= len % size;
        if (len == 0)
            return MPI_ERR_INTERN;
        if (a->op->kind != COLL_OP_NO_OP)
            dt_pack_range(a->origin_type, a->origin, a->origin_count, position, in, len);
        size_t done = 0;
        for (int v = 0; v < n && done < len; v++) {
            char *t = iov[v].iov_base;
            for (size_t i = 0; i < iov[v].iov_len && done < len; i += size, done += size)
                element_update(a, t + i, in + done, a->result ? out + done : NULL);
        }
        if (a->result)
            dt_unpack_range(a->result_type, a->result, a->result_count, position, out, len);
        position += len;
    }
    return MPI_SUCCESS;
}

/* ---- locked path -------------------------------------------------------------------------- */

/* cur = in op cur on `len` packed bytes of elements of `basic` (pairs are unpacked into their
 * C struct layout first: coll_op_apply works on typed buffers, and a pair's packed size is
 * not its extent). */
static int combine(struct coll_op *op, struct dt_type *basic, const char *in, char *cur,
                   size_t len)
{
    if (op->kind == COLL_OP_REPLACE || !basic) {
        memcpy(cur, in, len);
        return MPI_SUCCESS;
    }
    MPI_Count n = (MPI_Count)(len / (size_t)basic->size);
    if (dt_is_contiguous(basic, n))
        return coll_op_apply(op, in, cur, n, basic);
    size_t bytes = (size_t)(n * basic->extent);
    char *a = malloc(bytes), *b = malloc(bytes);
    int rc = a && b ? MPI_SUCCESS : MPI_ERR_NO_MEM;
    if (rc == MPI_SUCCESS) {
        dt_unpack_range(basic, a, n, 0, in, len);
        dt_unpack_range(basic, b, n, 0, cur, len);
        rc = coll_op_apply(op, a, b, n, basic);
        dt_pack_range(basic, b, n, 0, cur, len);
    }
    free(a);
    free(b);
    return rc;
}

static int locked_chunks(struct acc_args *a, struct dt_type *basic, char *in, char *cur,
                         size_t chunk)
{
    for (size_t position = 0; position < a->bytes; position += chunk) {
        size_t len = a->bytes - position < chunk ? a->bytes - position : chunk;
        int rc = rma_target_read(&a->mem, position, cur, len);
        if (rc != MPI_SUCCESS)
            return rc;
        if (a->result)
            dt_unpack_range(a->result_type, a->result, a->result_count, position, cur, len);
        if (a->op->kind == COLL_OP_NO_OP)
            continue;
        dt_pack_range(a->origin_type, a->origin, a->origin_count, position, in, len);
        if ((rc = combine(a->op, basic, in, cur, len)) != MPI_SUCCESS ||
            (rc = rma_target_write(&a->mem, position, cur, len)) != MPI_SUCCESS)
            return rc;
    }
    return MPI_SUCCESS;
}

static int accumulate_locked(struct acc_args *a)
{
    MPI_Datatype handle = basic_handle(a->mem.type->element);
    struct dt_type *basic = handle == MPI_DATATYPE_NULL ? NULL : dt_from_handle(handle);
    size_t unit = basic ? (size_t)basic->size : 1;
    size_t chunk = a->bytes <= STACK_CHUNK ? STACK_CHUNK : HEAP_CHUNK;
    chunk -= chunk % unit;
    _Alignas(16) char stack_in[STACK_CHUNK], stack_cur[STACK_CHUNK];
    char *in = stack_in, *cur = stack_cur;
    if (chunk > STACK_CHUNK) {
        in = malloc(chunk);
        cur = malloc(chunk);
        if (!in || !cur) {
            free(in);
            free(cur);
            return MPI_ERR_NO_MEM;
        }
    }
    rma_mutex_lock(a->win, a->target);
    int rc = locked_chunks(a, basic, in, cur, chunk);
    rma_mutex_unlock(a->win, a->target);
    if (in != stack_in) {
        free(in);
        free(cur);
    }
    return rc;
}

/* ---- entry points ------------------------------------------------------------------------- */

int rma_accumulate(struct rma_win *win, const void *origin, MPI_Count origin_count,
                   struct dt_type *origin_type, void *result, MPI_Count result_count,
                   struct dt_type *result_type, int target, MPI_Aint disp,
                   MPI_Count target_count, struct dt_type *target_type, struct coll_op *op)
{
    size_t target_bytes = dt_packed_size(target_type, target_count);
    size_t bytes = op->kind == COLL_OP_NO_OP ? target_bytes
                                              : dt_packed_size(origin_type, origin_count);
    if (bytes > target_bytes || (result && dt_packed_size(result_type, result_count) < bytes))
        return MPI_ERR_TRUNCATE;
    if (bytes == 0)
        return MPI_SUCCESS;
    struct acc_args a = {win, target, origin, origin_count, origin_type, result, result_count,
                         result_type, {0}, op, bytes};
    int rc = rma_target_mem(win, target, disp, target_count, target_type, &a.mem);
    if (rc != MPI_SUCCESS)
        return rc;
    if (win->shared_memory && rma_atomic_supported(target_type))
        return accumulate_atomic(&a);
    return accumulate_locked(&a);
}

int rma_compare_and_swap(struct rma_win *win, const void *origin, const void *compare,
                         void *result, struct dt_type *type, int target, MPI_Aint disp)
{
    size_t size = (size_t)type->size;
    struct rma_target_mem mem;
    int rc = rma_target_mem(win, target, disp, 1, type, &mem);
    if (rc != MPI_SUCCESS)
        return rc;
    char *t = mem.local ? mem.local + type->true_lb : NULL;
    if (win->shared_memory && ((uintptr_t)t & (size - 1)) == 0) {
        rma_atomic_cas(size, t, compare, origin, result);
        return MPI_SUCCESS;
    }
    char old[8];
    rma_mutex_lock(win, target);
    rc = rma_target_read(&mem, 0, old, size);
    if (rc == MPI_SUCCESS && memcmp(old, compare, size) == 0)
        rc = rma_target_write(&mem, 0, origin, size);
    rma_mutex_unlock(win, target);
    if (rc == MPI_SUCCESS)
        memcpy(result, old, size);
    return rc;
}
