/* op.c - reduction operators: the predefined operators on every element kind MPI defines them
 * for (MPI-4.1 §6.9.2), MINLOC/MAXLOC on pair types (ties keep the lower index), user-defined
 * operators, and the handle table. Owns the kernels and the (op, element) validity table; it
 * never moves data between processes.
 *
 * Kernels compute inout[i] = in[i] op inout[i] on n basic elements. Signed integer sums and
 * products wrap (computed in the unsigned type), as every MPI does; C leaves overflow undefined. */

/* The kernels are plain loops the compiler must vectorize: -O2 (RelWithDebInfo) leaves them
 * scalar. With -O3 a cache-resident double sum (16K elements) runs at ~15 GB/s instead of
 * ~6 GB/s on this machine (local kernel benchmark, 2026-11); out of cache both are memory bound. */
#pragma GCC optimize("O3")

#include "coll/op.h"

#include <complex.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "datatype/datatype.h"
#include "shm/copy.h"

typedef void op_kernel(const void *in, void *inout, size_t n);

/* Element loops are compiled for AVX2 and AVX-512 too, picked at load time (an ifunc): the
 * baseline x86-64 build vectorises with 16-byte SSE only. MPI_Reduce_local of 1 MiB of floats
 * (MPI_SUM): 35.6 us baseline, 24.3 us this way, Open MPI 24.4 us (its own AVX kernels),
 * 2026-11-22. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && defined(__linux__) &&   \
    !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
/* (not under sanitizers: the resolvers run before their runtimes start and crash there) */
#define VECTOR_KERNEL __attribute__((target_clones("avx512f", "avx2", "default"), optimize("O3")))
#else
#define VECTOR_KERNEL
#endif

/* ------------------------------------------------------------------------------------------ */
/* Kernels on plain elements. One macro per family writes the loop once per C type.           */

#define INT_ARITH_KERNELS(name, ctype, utype)                                                  \
    VECTOR_KERNEL                                                                              \
    static void sum_##name(const void *in_, void *io_, size_t n)                               \
    {                                                                                          \
        const ctype *restrict in = in_;                                                        \
        ctype *restrict io = io_;                                                              \
        for (size_t i = 0; i < n; i++)                                                         \
            io[i] = (ctype)((utype)in[i] + (utype)io[i]);                                      \
    }                                                                                          \
    VECTOR_KERNEL                                                                              \
    static void prod_##name(const void *in_, void *io_, size_t n)                              \
    {                                                                                          \
        const ctype *restrict in = in_;                                                        \
        ctype *restrict io = io_;                                                              \
        for (size_t i = 0; i < n; i++)                                                         \
            io[i] = (ctype)((utype)in[i] * (utype)io[i]);                                      \
    }

#define FLOAT_ARITH_KERNELS(name, ctype)                                                       \
    VECTOR_KERNEL                                                                              \
    static void sum_##name(const void *in_, void *io_, size_t n)                               \
    {                                                                                          \
        const ctype *restrict in = in_;                                                        \
        ctype *restrict io = io_;                                                              \
        for (size_t i = 0; i < n; i++)                                                         \
            io[i] = in[i] + io[i];                                                             \
    }                                                                                          \
    VECTOR_KERNEL                                                                              \
    static void prod_##name(const void *in_, void *io_, size_t n)                              \
    {                                                                                          \
        const ctype *restrict in = in_;                                                        \
        ctype *restrict io = io_;                                                              \
        for (size_t i = 0; i < n; i++)                                                         \
            io[i] = in[i] * io[i];                                                             \
    }

#define MINMAX_KERNELS(name, ctype)                                                            \
    VECTOR_KERNEL                                                                              \
    static void min_##name(const void *in_, void *io_, size_t n)                               \
    {                                                                                          \
        const ctype *restrict in = in_;                                                        \
        ctype *restrict io = io_;                                                              \
        for (size_t i = 0; i < n; i++)                                                         \
            io[i] = in[i] < io[i] ? in[i] : io[i];                                             \
    }                                                                                          \
    VECTOR_KERNEL                                                                              \
    static void max_##name(const void *in_, void *io_, size_t n)                               \
    {                                                                                          \
        const ctype *restrict in = in_;                                                        \
        ctype *restrict io = io_;                                                              \
        for (size_t i = 0; i < n; i++)                                                         \
            io[i] = in[i] > io[i] ? in[i] : io[i];                                             \
    }

#define LOGICAL_KERNELS(name, ctype)                                                           \
    static void land_##name(const void *in_, void *io_, size_t n)                              \
    {                                                                                          \
        const ctype *restrict in = in_;                                                        \
        ctype *restrict io = io_;                                                              \
        for (size_t i = 0; i < n; i++)                                                         \
            io[i] = (ctype)(in[i] && io[i]);                                                   \
    }                                                                                          \
    static void lor_##name(const void *in_, void *io_, size_t n)                               \
    {                                                                                          \
        const ctype *restrict in = in_;                                                        \
        ctype *restrict io = io_;                                                              \
        for (size_t i = 0; i < n; i++)                                                         \
            io[i] = (ctype)(in[i] || io[i]);                                                   \
    }                                                                                          \
    static void lxor_##name(const void *in_, void *io_, size_t n)                              \
    {                                                                                          \
        const ctype *restrict in = in_;                                                        \
        ctype *restrict io = io_;                                                              \
        for (size_t i = 0; i < n; i++)                                                         \
            io[i] = (ctype)(!in[i] != !io[i]);                                                 \
    }

#define BITWISE_KERNELS(name, ctype)                                                           \
    static void band_##name(const void *in_, void *io_, size_t n)                              \
    {                                                                                          \
        const ctype *restrict in = in_;                                                        \
        ctype *restrict io = io_;                                                              \
        for (size_t i = 0; i < n; i++)                                                         \
            io[i] = (ctype)(in[i] & io[i]);                                                    \
    }                                                                                          \
    static void bor_##name(const void *in_, void *io_, size_t n)                               \
    {                                                                                          \
        const ctype *restrict in = in_;                                                        \
        ctype *restrict io = io_;                                                              \
        for (size_t i = 0; i < n; i++)                                                         \
            io[i] = (ctype)(in[i] | io[i]);                                                    \
    }                                                                                          \
    static void bxor_##name(const void *in_, void *io_, size_t n)                              \
    {                                                                                          \
        const ctype *restrict in = in_;                                                        \
        ctype *restrict io = io_;                                                              \
        for (size_t i = 0; i < n; i++)                                                         \
            io[i] = (ctype)(in[i] ^ io[i]);                                                    \
    }

#define INTEGER_KERNELS(name, ctype, utype)                                                    \
    INT_ARITH_KERNELS(name, ctype, utype)                                                      \
    MINMAX_KERNELS(name, ctype)                                                                \
    LOGICAL_KERNELS(name, ctype)                                                               \
    BITWISE_KERNELS(name, ctype)

INTEGER_KERNELS(i8, int8_t, uint8_t)
INTEGER_KERNELS(u8, uint8_t, uint8_t)
INTEGER_KERNELS(i16, int16_t, uint16_t)
INTEGER_KERNELS(u16, uint16_t, uint16_t)
INTEGER_KERNELS(i32, int32_t, uint32_t)
INTEGER_KERNELS(u32, uint32_t, uint32_t)
INTEGER_KERNELS(i64, int64_t, uint64_t)
INTEGER_KERNELS(u64, uint64_t, uint64_t)

FLOAT_ARITH_KERNELS(f32, float)
FLOAT_ARITH_KERNELS(f64, double)
FLOAT_ARITH_KERNELS(f80, long double)
MINMAX_KERNELS(f32, float)
MINMAX_KERNELS(f64, double)
MINMAX_KERNELS(f80, long double)

FLOAT_ARITH_KERNELS(c32, float _Complex)
FLOAT_ARITH_KERNELS(c64, double _Complex)
FLOAT_ARITH_KERNELS(c80, long double _Complex)

LOGICAL_KERNELS(bool, _Bool)

/* MPI_BYTE: bitwise operators only (the u8 kernels). */

/* kernels[op][element]: NULL where MPI does not define the operator for the element kind. */
static op_kernel *const kernels[COLL_OP_KIND_COUNT][DT_ELEMENT_COUNT] = {
    [COLL_OP_SUM] = {
        [DT_ELEMENT_INT8] = sum_i8, [DT_ELEMENT_UINT8] = sum_u8,
        [DT_ELEMENT_INT16] = sum_i16, [DT_ELEMENT_UINT16] = sum_u16,
        [DT_ELEMENT_INT32] = sum_i32, [DT_ELEMENT_UINT32] = sum_u32,
        [DT_ELEMENT_INT64] = sum_i64, [DT_ELEMENT_UINT64] = sum_u64,
        [DT_ELEMENT_FLOAT] = sum_f32, [DT_ELEMENT_DOUBLE] = sum_f64,
        [DT_ELEMENT_LONG_DOUBLE] = sum_f80,
        [DT_ELEMENT_C_FLOAT_COMPLEX] = sum_c32, [DT_ELEMENT_C_DOUBLE_COMPLEX] = sum_c64,
        [DT_ELEMENT_C_LONG_DOUBLE_COMPLEX] = sum_c80,
    },
    [COLL_OP_PROD] = {
        [DT_ELEMENT_INT8] = prod_i8, [DT_ELEMENT_UINT8] = prod_u8,
        [DT_ELEMENT_INT16] = prod_i16, [DT_ELEMENT_UINT16] = prod_u16,
        [DT_ELEMENT_INT32] = prod_i32, [DT_ELEMENT_UINT32] = prod_u32,
        [DT_ELEMENT_INT64] = prod_i64, [DT_ELEMENT_UINT64] = prod_u64,
        [DT_ELEMENT_FLOAT] = prod_f32, [DT_ELEMENT_DOUBLE] = prod_f64,
        [DT_ELEMENT_LONG_DOUBLE] = prod_f80,
        [DT_ELEMENT_C_FLOAT_COMPLEX] = prod_c32, [DT_ELEMENT_C_DOUBLE_COMPLEX] = prod_c64,
        [DT_ELEMENT_C_LONG_DOUBLE_COMPLEX] = prod_c80,
    },
    [COLL_OP_MIN] = {
        [DT_ELEMENT_INT8] = min_i8, [DT_ELEMENT_UINT8] = min_u8,
        [DT_ELEMENT_INT16] = min_i16, [DT_ELEMENT_UINT16] = min_u16,
        [DT_ELEMENT_INT32] = min_i32, [DT_ELEMENT_UINT32] = min_u32,
        [DT_ELEMENT_INT64] = min_i64, [DT_ELEMENT_UINT64] = min_u64,
        [DT_ELEMENT_FLOAT] = min_f32, [DT_ELEMENT_DOUBLE] = min_f64,
        [DT_ELEMENT_LONG_DOUBLE] = min_f80,
    },
    [COLL_OP_MAX] = {
        [DT_ELEMENT_INT8] = max_i8, [DT_ELEMENT_UINT8] = max_u8,
        [DT_ELEMENT_INT16] = max_i16, [DT_ELEMENT_UINT16] = max_u16,
        [DT_ELEMENT_INT32] = max_i32, [DT_ELEMENT_UINT32] = max_u32,
        [DT_ELEMENT_INT64] = max_i64, [DT_ELEMENT_UINT64] = max_u64,
        [DT_ELEMENT_FLOAT] = max_f32, [DT_ELEMENT_DOUBLE] = max_f64,
        [DT_ELEMENT_LONG_DOUBLE] = max_f80,
    },
    [COLL_OP_LAND] = {
        [DT_ELEMENT_INT8] = land_i8, [DT_ELEMENT_UINT8] = land_u8,
        [DT_ELEMENT_INT16] = land_i16, [DT_ELEMENT_UINT16] = land_u16,
        [DT_ELEMENT_INT32] = land_i32, [DT_ELEMENT_UINT32] = land_u32,
        [DT_ELEMENT_INT64] = land_i64, [DT_ELEMENT_UINT64] = land_u64,
        [DT_ELEMENT_BOOL] = land_bool,
    },
    [COLL_OP_LOR] = {
        [DT_ELEMENT_INT8] = lor_i8, [DT_ELEMENT_UINT8] = lor_u8,
        [DT_ELEMENT_INT16] = lor_i16, [DT_ELEMENT_UINT16] = lor_u16,
        [DT_ELEMENT_INT32] = lor_i32, [DT_ELEMENT_UINT32] = lor_u32,
        [DT_ELEMENT_INT64] = lor_i64, [DT_ELEMENT_UINT64] = lor_u64,
        [DT_ELEMENT_BOOL] = lor_bool,
    },
    [COLL_OP_LXOR] = {
        [DT_ELEMENT_INT8] = lxor_i8, [DT_ELEMENT_UINT8] = lxor_u8,
        [DT_ELEMENT_INT16] = lxor_i16, [DT_ELEMENT_UINT16] = lxor_u16,
        [DT_ELEMENT_INT32] = lxor_i32, [DT_ELEMENT_UINT32] = lxor_u32,
        [DT_ELEMENT_INT64] = lxor_i64, [DT_ELEMENT_UINT64] = lxor_u64,
        [DT_ELEMENT_BOOL] = lxor_bool,
    },
    [COLL_OP_BAND] = {
        [DT_ELEMENT_INT8] = band_i8, [DT_ELEMENT_UINT8] = band_u8,
        [DT_ELEMENT_INT16] = band_i16, [DT_ELEMENT_UINT16] = band_u16,
        [DT_ELEMENT_INT32] = band_i32, [DT_ELEMENT_UINT32] = band_u32,
        [DT_ELEMENT_INT64] = band_i64, [DT_ELEMENT_UINT64] = band_u64,
        [DT_ELEMENT_BYTE] = band_u8,
    },
    [COLL_OP_BOR] = {
        [DT_ELEMENT_INT8] = bor_i8, [DT_ELEMENT_UINT8] = bor_u8,
        [DT_ELEMENT_INT16] = bor_i16, [DT_ELEMENT_UINT16] = bor_u16,
        [DT_ELEMENT_INT32] = bor_i32, [DT_ELEMENT_UINT32] = bor_u32,
        [DT_ELEMENT_INT64] = bor_i64, [DT_ELEMENT_UINT64] = bor_u64,
        [DT_ELEMENT_BYTE] = bor_u8,
    },
    [COLL_OP_BXOR] = {
        [DT_ELEMENT_INT8] = bxor_i8, [DT_ELEMENT_UINT8] = bxor_u8,
        [DT_ELEMENT_INT16] = bxor_i16, [DT_ELEMENT_UINT16] = bxor_u16,
        [DT_ELEMENT_INT32] = bxor_i32, [DT_ELEMENT_UINT32] = bxor_u32,
        [DT_ELEMENT_INT64] = bxor_i64, [DT_ELEMENT_UINT64] = bxor_u64,
        [DT_ELEMENT_BYTE] = bxor_u8,
    },
};

/* ------------------------------------------------------------------------------------------ */
/* MINLOC / MAXLOC on (value, index) pairs. A pair sits every `stride` bytes with its index     */
/* `index_offset` bytes after the value; memcpy loads because packed pairs are unaligned.      */

typedef void pair_kernel(const char *in, char *io, size_t n, size_t stride, size_t index_offset,
                         int want_max);

#define PAIR_KERNEL(name, vtype, itype)                                                        \
    static void loc_##name(const char *in, char *io, size_t n, size_t stride,                  \
                           size_t index_offset, int want_max)                                  \
    {                                                                                          \
        for (size_t i = 0; i < n; i++, in += stride, io += stride) {                           \
            vtype a, b;                                                                        \
            itype ia, ib;                                                                      \
            memcpy(&a, in, sizeof a);                                                          \
            memcpy(&b, io, sizeof b);                                                          \
            memcpy(&ia, in + index_offset, sizeof ia);                                         \
            memcpy(&ib, io + index_offset, sizeof ib);                                         \
            int take_in = want_max ? a > b : a < b;                                            \
            if (take_in || (a == b && ia < ib)) {                                              \
                memcpy(io, &a, sizeof a);                                                      \
                memcpy(io + index_offset, &ia, sizeof ia);                                     \
            }                                                                                  \
        }                                                                                      \
    }

PAIR_KERNEL(float_int, float, int)
PAIR_KERNEL(double_int, double, int)
PAIR_KERNEL(long_int, long, int)
PAIR_KERNEL(2int, int, int)
PAIR_KERNEL(short_int, short, int)
PAIR_KERNEL(long_double_int, long double, int)
PAIR_KERNEL(2float, float, float)
PAIR_KERNEL(2double, double, double)
PAIR_KERNEL(2int64, int64_t, int64_t)

struct pair_kind {
    pair_kernel *kernel;
    size_t value_size;
    size_t index_size;
};

static const struct pair_kind pair_kinds[DT_ELEMENT_COUNT] = {
    [DT_ELEMENT_FLOAT_INT] = {loc_float_int, sizeof(float), sizeof(int)},
    [DT_ELEMENT_DOUBLE_INT] = {loc_double_int, sizeof(double), sizeof(int)},
    [DT_ELEMENT_LONG_INT] = {loc_long_int, sizeof(long), sizeof(int)},
    [DT_ELEMENT_2INT] = {loc_2int, sizeof(int), sizeof(int)},
    [DT_ELEMENT_SHORT_INT] = {loc_short_int, sizeof(short), sizeof(int)},
    [DT_ELEMENT_LONG_DOUBLE_INT] = {loc_long_double_int, sizeof(long double), sizeof(int)},
    [DT_ELEMENT_2FLOAT] = {loc_2float, sizeof(float), sizeof(float)},
    [DT_ELEMENT_2DOUBLE] = {loc_2double, sizeof(double), sizeof(double)},
    [DT_ELEMENT_2INT64] = {loc_2int64, sizeof(int64_t), sizeof(int64_t)},
};

/* Bytes of one basic element of each plain kind (pairs use pair_kinds). */
static const size_t element_sizes[DT_ELEMENT_COUNT] = {
    [DT_ELEMENT_INT8] = 1, [DT_ELEMENT_UINT8] = 1, [DT_ELEMENT_INT16] = 2,
    [DT_ELEMENT_UINT16] = 2, [DT_ELEMENT_INT32] = 4, [DT_ELEMENT_UINT32] = 4,
    [DT_ELEMENT_INT64] = 8, [DT_ELEMENT_UINT64] = 8, [DT_ELEMENT_FLOAT] = sizeof(float),
    [DT_ELEMENT_DOUBLE] = sizeof(double), [DT_ELEMENT_LONG_DOUBLE] = sizeof(long double),
    [DT_ELEMENT_C_FLOAT_COMPLEX] = sizeof(float _Complex),
    [DT_ELEMENT_C_DOUBLE_COMPLEX] = sizeof(double _Complex),
    [DT_ELEMENT_C_LONG_DOUBLE_COMPLEX] = sizeof(long double _Complex),
    [DT_ELEMENT_BOOL] = sizeof(_Bool), [DT_ELEMENT_CHAR] = 1, [DT_ELEMENT_BYTE] = 1,
};

static int is_pair(enum dt_element element)
{
    return element > 0 && element < DT_ELEMENT_COUNT && pair_kinds[element].kernel != NULL;
}

/* ------------------------------------------------------------------------------------------ */
/* Operator objects and handles.                                                               */

#define PREDEFINED_OP(handle, kind_)                                                           \
    {.predefined = 1, .commutative = 1, .refcount = 1, .handle_value = (handle),               \
     .kind = (kind_), .magic = COLL_OP_MAGIC}

/* Indexed by handle value - 0x20 (ABI values MPI_OP_NULL 0x20 .. MPI_NO_OP 0x3d). */
#define OP_TABLE_BASE 0x20
#define OP_TABLE_SIZE 0x1e
static struct coll_op predefined_ops[OP_TABLE_SIZE] = {
    [0x21 - OP_TABLE_BASE] = PREDEFINED_OP(MPI_SUM, COLL_OP_SUM),
    [0x22 - OP_TABLE_BASE] = PREDEFINED_OP(MPI_MIN, COLL_OP_MIN),
    [0x23 - OP_TABLE_BASE] = PREDEFINED_OP(MPI_MAX, COLL_OP_MAX),
    [0x24 - OP_TABLE_BASE] = PREDEFINED_OP(MPI_PROD, COLL_OP_PROD),
    [0x28 - OP_TABLE_BASE] = PREDEFINED_OP(MPI_BAND, COLL_OP_BAND),
    [0x29 - OP_TABLE_BASE] = PREDEFINED_OP(MPI_BOR, COLL_OP_BOR),
    [0x2a - OP_TABLE_BASE] = PREDEFINED_OP(MPI_BXOR, COLL_OP_BXOR),
    [0x30 - OP_TABLE_BASE] = PREDEFINED_OP(MPI_LAND, COLL_OP_LAND),
    [0x31 - OP_TABLE_BASE] = PREDEFINED_OP(MPI_LOR, COLL_OP_LOR),
    [0x32 - OP_TABLE_BASE] = PREDEFINED_OP(MPI_LXOR, COLL_OP_LXOR),
    [0x38 - OP_TABLE_BASE] = PREDEFINED_OP(MPI_MINLOC, COLL_OP_MINLOC),
    [0x39 - OP_TABLE_BASE] = PREDEFINED_OP(MPI_MAXLOC, COLL_OP_MAXLOC),
    [0x3c - OP_TABLE_BASE] = PREDEFINED_OP(MPI_REPLACE, COLL_OP_REPLACE),
    [0x3d - OP_TABLE_BASE] = PREDEFINED_OP(MPI_NO_OP, COLL_OP_NO_OP),
};

static const char *const op_names[COLL_OP_KIND_COUNT] = {
    [COLL_OP_USER] = "user-defined", [COLL_OP_SUM] = "MPI_SUM", [COLL_OP_PROD] = "MPI_PROD",
    [COLL_OP_MIN] = "MPI_MIN", [COLL_OP_MAX] = "MPI_MAX", [COLL_OP_LAND] = "MPI_LAND",
    [COLL_OP_LOR] = "MPI_LOR", [COLL_OP_LXOR] = "MPI_LXOR", [COLL_OP_BAND] = "MPI_BAND",
    [COLL_OP_BOR] = "MPI_BOR", [COLL_OP_BXOR] = "MPI_BXOR", [COLL_OP_MINLOC] = "MPI_MINLOC",
    [COLL_OP_MAXLOC] = "MPI_MAXLOC", [COLL_OP_REPLACE] = "MPI_REPLACE",
    [COLL_OP_NO_OP] = "MPI_NO_OP",
};

struct coll_op *coll_op_from_handle(MPI_Op handle)
{
    uintptr_t value = (uintptr_t)handle;
    if (value < 0x1000) {
        if (value <= OP_TABLE_BASE || value >= OP_TABLE_BASE + OP_TABLE_SIZE)
            return NULL;
        struct coll_op *op = &predefined_ops[value - OP_TABLE_BASE];
        return op->predefined ? op : NULL;
    }
    struct coll_op *op = (struct coll_op *)handle;
    return op->magic == COLL_OP_MAGIC ? op : NULL;
}

MPI_Op coll_op_to_handle(const struct coll_op *op)
{
    if (!op)
        return MPI_OP_NULL;
    return op->predefined ? op->handle_value : (MPI_Op)op;
}

const char *coll_op_name(const struct coll_op *op)
{
    return op_names[op->kind];
}

int coll_op_create(MPI_User_function *fn, MPI_User_function_c *fn_c, int commutative,
                   struct coll_op **out)
{
    struct coll_op *op = calloc(1, sizeof(*op));
    if (!op)
        return MPI_ERR_NO_MEM;
    op->commutative = commutative ? 1 : 0;
    op->refcount = 1;
    op->user_fn = fn;
    op->user_fn_c = fn_c;
    op->kind = COLL_OP_USER;
    op->handle_value = (MPI_Op)op;
    op->magic = COLL_OP_MAGIC;
    *out = op;
    return MPI_SUCCESS;
}

void coll_op_retain(struct coll_op *op)
{
    if (!op->predefined)
        op->refcount++;
}

void coll_op_release(struct coll_op *op)
{
    if (op->predefined || --op->refcount > 0)
        return;
    op->magic = 0;
    free(op);
}

/* ------------------------------------------------------------------------------------------ */
/* Validity and application.                                                                   */

int coll_op_check(const struct coll_op *op, const struct dt_type *type)
{
    enum dt_element element = type->element;
    switch (op->kind) {
    case COLL_OP_USER:
    case COLL_OP_REPLACE:
    case COLL_OP_NO_OP:
        return MPI_SUCCESS;
    case COLL_OP_MINLOC:
    case COLL_OP_MAXLOC:
        return is_pair(element) ? MPI_SUCCESS : MPI_ERR_OP;
    default:
        if (element <= DT_ELEMENT_MIXED || element >= DT_ELEMENT_COUNT)
            return MPI_ERR_OP;
        return kernels[op->kind][element] ? MPI_SUCCESS : MPI_ERR_OP;
    }
}

int coll_op_check_reduction(const struct coll_op *op, const struct dt_type *type)
{
    if (op->kind == COLL_OP_REPLACE || op->kind == COLL_OP_NO_OP)
        return MPI_ERR_OP;
    return coll_op_check(op, type);
}

/* The user's function takes an int length: call it in chunks of at most INT_MAX elements. */
static int apply_user(const struct coll_op *op, const void *in, void *inout, MPI_Count count,
                      struct dt_type *type)
{
    MPI_Datatype handle = dt_to_handle(type);
    if (op->user_fn_c) {
        MPI_Count len = count;
        op->user_fn_c((void *)in, inout, &len, &handle);
        return MPI_SUCCESS;
    }
    while (count > 0) {
        int len = count > INT_MAX ? INT_MAX : (int)count;
        if (op->user_adapter)
            op->user_adapter(op->user_fn, (void *)in, inout, &len, &handle);
        else
            op->user_fn((void *)in, inout, &len, &handle);
        in = (const char *)in + (MPI_Aint)len * type->extent;
        inout = (char *)inout + (MPI_Aint)len * type->extent;
        count -= len;
    }
    return MPI_SUCCESS;
}

/* Predefined pair types carry their own layout (stride = extent, index after padding);
 * contiguous ones hold packed pairs. */
static int pair_layout(const struct dt_type *type, const struct pair_kind *pk, size_t *stride,
                       size_t *index_offset, MPI_Count *pairs)
{
    if (type->contiguous) {
        *stride = pk->value_size + pk->index_size;
        *index_offset = pk->value_size;
        *pairs = type->size / (MPI_Count)*stride;
        return 1;
    }
    if (type->predefined && type->nblocks == 2) {
        *stride = (size_t)type->extent;
        *index_offset = (size_t)(type->blocks[1].offset - type->blocks[0].offset);
        *pairs = 1;
        return 1;
    }
    return 0;
}

/* Any other layout: pack both operands, reduce the packed pairs, unpack the result. */
static int apply_pairs_packed(const struct pair_kind *pk, int want_max, const void *in,
                              void *inout, MPI_Count count, struct dt_type *type)
{
    size_t bytes = dt_packed_size(type, count);
    char *a = malloc(bytes ? bytes : 1);
    char *b = malloc(bytes ? bytes : 1);
    if (!a || !b) {
        free(a);
        free(b);
        return MPI_ERR_NO_MEM;
    }
    dt_pack_range(type, in, count, 0, a, bytes);
    dt_pack_range(type, inout, count, 0, b, bytes);
    size_t stride = pk->value_size + pk->index_size;
    pk->kernel(a, b, bytes / stride, stride, pk->value_size, want_max);
    dt_unpack_range(type, inout, count, 0, b, bytes);
    free(a);
    free(b);
    return MPI_SUCCESS;
}

static int apply_pairs(const struct coll_op *op, const void *in, void *inout, MPI_Count count,
                       struct dt_type *type)
{
    const struct pair_kind *pk = &pair_kinds[type->element];
    int want_max = op->kind == COLL_OP_MAXLOC;
    size_t stride, index_offset;
    MPI_Count pairs;
    if (!pair_layout(type, pk, &stride, &index_offset, &pairs))
        return apply_pairs_packed(pk, want_max, in, inout, count, type);
    const char *src = (const char *)in + type->true_lb;
    char *dst = (char *)inout + type->true_lb;
    if (type->contiguous) {
        pk->kernel(src, dst, (size_t)(pairs * count), stride, index_offset, want_max);
        return MPI_SUCCESS;
    }
    /* a predefined pair type: one pair per element, extent apart */
    pk->kernel(src, dst, (size_t)count, stride, index_offset, want_max);
    return MPI_SUCCESS;
}

/* Walking a type map block by block: dt_for_each_block works whether or not the type keeps its
 * flat block list (huge types keep only a compressed form). */
struct block_walk {
    const char *in;
    char *inout;
    op_kernel *kernel;
    size_t element_size;
};

static int copy_block(void *ctx, MPI_Aint offset, MPI_Count length)
{
    struct block_walk *w = ctx;
    memmove(w->inout + offset, w->in + offset, (size_t)length);
    return 0;
}

static int reduce_block(void *ctx, MPI_Aint offset, MPI_Count length)
{
    struct block_walk *w = ctx;
    w->kernel(w->in + offset, w->inout + offset, (size_t)length / w->element_size);
    return 0;
}

static void copy_typed(const void *in, void *inout, MPI_Count count, struct dt_type *type)
{
    if (dt_is_contiguous(type, count)) {
        char *to = (char *)inout + type->true_lb;
        const char *from = (const char *)in + type->true_lb;
        size_t bytes = dt_packed_size(type, count);
        if (to + bytes <= from || from + bytes <= to)
            shm_copy(to, from, bytes); /* glibc's slow cases avoided (shm/copy.h) */
        else
            memmove(to, from, bytes);
        return;
    }
    struct block_walk w = {in, inout, NULL, 0};
    dt_for_each_block(type, count, copy_block, &w);
}

int coll_op_apply(const struct coll_op *op, const void *in, void *inout, MPI_Count count,
                  struct dt_type *type)
{
    if (count <= 0)
        return MPI_SUCCESS;
    switch (op->kind) {
    case COLL_OP_USER:
        return apply_user(op, in, inout, count, type);
    case COLL_OP_NO_OP:
        return MPI_SUCCESS;
    case COLL_OP_REPLACE:
        copy_typed(in, inout, count, type);
        return MPI_SUCCESS;
    case COLL_OP_MINLOC:
    case COLL_OP_MAXLOC:
        if (!is_pair(type->element))
            return MPI_ERR_OP;
        return apply_pairs(op, in, inout, count, type);
    default:
        break;
    }
    /* coll_op_check's test for the arithmetic operators, inline: the kernel is looked up
     * anyway, and a call to the checker cost a quarter of a 4 B MPI_Reduce_local */
    enum dt_element element = type->element;
    if (element <= DT_ELEMENT_MIXED || element >= DT_ELEMENT_COUNT)
        return MPI_ERR_OP;
    op_kernel *kernel = kernels[op->kind][element];
    if (!kernel)
        return MPI_ERR_OP;
    size_t element_size = element_sizes[element];
    if (type->contiguous) {
        kernel((const char *)in + type->true_lb, (char *)inout + type->true_lb,
               dt_packed_size(type, count) / element_size);
        return MPI_SUCCESS;
    }
    /* a derived type of one basic kind: every block holds whole basic elements */
    struct block_walk w = {in, inout, kernel, element_size};
    dt_for_each_block(type, count, reduce_block, &w);
    return MPI_SUCCESS;
}
