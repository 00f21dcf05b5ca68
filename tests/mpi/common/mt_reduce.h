/* mt_reduce.h - reduction test helpers shared by coll_basic/reduce.c and allreduce.c
 * (header-only): the table of predefined datatypes with the predefined operations valid for
 * each (MPI-3.1 section 5.9.2), per-rank contributions chosen so that every result is exact
 * in any evaluation order, a locally computed reference result, element compare and print.
 * Include after mpitest.h. */
#ifndef MT_REDUCE_H
#define MT_REDUCE_H

#include "mpitest.h"

#include <complex.h>
#include <stdbool.h>

enum {
    MTR_SUM,
    MTR_PROD,
    MTR_MIN,
    MTR_MAX,
    MTR_LAND,
    MTR_LOR,
    MTR_LXOR,
    MTR_BAND,
    MTR_BOR,
    MTR_BXOR,
    MTR_MINLOC,
    MTR_MAXLOC,
    MTR_NOPS
};

static const char *const mtr_op_name[MTR_NOPS] = {
    "MPI_SUM",  "MPI_PROD", "MPI_MIN",  "MPI_MAX",  "MPI_LAND",   "MPI_LOR",
    "MPI_LXOR", "MPI_BAND", "MPI_BOR",  "MPI_BXOR", "MPI_MINLOC", "MPI_MAXLOC"};

static inline MPI_Op mtr_mpi_op(int op)
{
    switch (op) {
    case MTR_SUM: return MPI_SUM;
    case MTR_PROD: return MPI_PROD;
    case MTR_MIN: return MPI_MIN;
    case MTR_MAX: return MPI_MAX;
    case MTR_LAND: return MPI_LAND;
    case MTR_LOR: return MPI_LOR;
    case MTR_LXOR: return MPI_LXOR;
    case MTR_BAND: return MPI_BAND;
    case MTR_BOR: return MPI_BOR;
    case MTR_BXOR: return MPI_BXOR;
    case MTR_MINLOC: return MPI_MINLOC;
    default: return MPI_MAXLOC;
    }
}

#define MTR_BIT(op) (1u << (op))
#define MTR_ARITH (MTR_BIT(MTR_SUM) | MTR_BIT(MTR_PROD) | MTR_BIT(MTR_MIN) | MTR_BIT(MTR_MAX))
#define MTR_LOGIC (MTR_BIT(MTR_LAND) | MTR_BIT(MTR_LOR) | MTR_BIT(MTR_LXOR))
#define MTR_BITS (MTR_BIT(MTR_BAND) | MTR_BIT(MTR_BOR) | MTR_BIT(MTR_BXOR))
#define MTR_OPS_INT (MTR_ARITH | MTR_LOGIC | MTR_BITS) /* C integer */
#define MTR_OPS_MULTI (MTR_ARITH | MTR_BITS)           /* MPI_AINT, MPI_OFFSET, MPI_COUNT */
#define MTR_OPS_FLOAT MTR_ARITH
#define MTR_OPS_COMPLEX (MTR_BIT(MTR_SUM) | MTR_BIT(MTR_PROD))
#define MTR_OPS_BOOL MTR_LOGIC
#define MTR_OPS_BYTE MTR_BITS
#define MTR_OPS_PAIR (MTR_BIT(MTR_MINLOC) | MTR_BIT(MTR_MAXLOC))

/* ---- contribution of rank r to element i (depends only on op, r, i, nranks) ---- */

/* logical ops: element patterns all-true, all-false, one-false, one-true (nonzero values vary) */
static inline int64_t mtr_lval(int r, int64_t k, int nr)
{
    int special = r == (int)((k / 4) % nr);
    switch (k % 4) {
    case 0: return k % 5 + 1;
    case 1: return 0;
    case 2: return special ? 0 : k % 5 + 1;
    default: return special ? k % 5 + 1 : 0;
    }
}

/* integers: sums within +-48, products within +-4, signed min/max within one signed byte */
static inline int64_t mtr_ival(int op, int r, size_t i, int nr, int sgn)
{
    int64_t k = (int64_t)(i % 1000003);
    switch (op) {
    case MTR_SUM: return sgn ? (k * 3 + r * 5) % 13 - 6 : (k * 3 + r * 5) % 13;
    case MTR_PROD: {
        int64_t v = (k + r) % 7 == 0 ? 2 : 1;
        return (sgn && (k + 2 * r) % 5 == 0) ? -v : v;
    }
    case MTR_MIN:
    case MTR_MAX: {
        int64_t v = (k * 7 + r * 11) % 250;
        if (sgn)
            return v - 125;
        /* unsigned: the upper half maps to the top of the type's range (-x converted to the
         * unsigned type), order preserved, so that sign-confused comparisons are caught */
        return v < 125 ? v : -(250 - v);
    }
    case MTR_LAND:
    case MTR_LOR:
    case MTR_LXOR: return mtr_lval(r, k, nr);
    default: return (int64_t)mt_mix((uint64_t)r + 1, (uint64_t)k);
    }
}

/* floating point: multiples of 1/4, products of +-1 and 1/2: exact in any order */
static inline double mtr_fval(int op, int r, size_t i)
{
    int64_t k = (int64_t)(i % 1000003);
    switch (op) {
    case MTR_SUM: return (double)((k * 3 + r * 5) % 13 - 6) * 0.5;
    case MTR_PROD: {
        double v = (k + r) % 7 == 0 ? 0.5 : 1.0;
        return (k + 2 * r) % 5 == 0 ? -v : v;
    }
    default: return (double)((k * 7 + r * 11) % 200 - 100) * 0.25;
    }
}

/* complex: sums of quarter values; products of Gaussian integers i, 1+i, 1, -1 */
static inline double _Complex mtr_cval(int op, int r, size_t i)
{
    if (op == MTR_SUM)
        return mtr_fval(MTR_SUM, r, i) + mtr_fval(MTR_SUM, r + 3, i) * I;
    switch ((i % 1000003 + (size_t)r) % 4) {
    case 0: return I;
    case 1: return 1.0 + 1.0 * I;
    case 2: return 1.0;
    default: return -1.0;
    }
}

/* pairs: few distinct values (many ties); index decreases with rank so that the tie rule
 * (smallest index) differs from "smallest rank" */
static inline int mtr_pval(int r, size_t i) { return (int)((i % 1000003 * 3 + (size_t)r * 7) % 5); }
static inline int mtr_pidx(int r, size_t i, int nr) { return (nr - r) * 10 + (int)(i % 3); }

#define MTR_FOLD_MINMAX(a, v)                                                                 \
    case MTR_MIN: if (v < a) a = v; break;                                                    \
    case MTR_MAX: if (v > a) a = v; break;

/* integer sums/products go through int64_t (all values are small), which also keeps gcc quiet
 * about arithmetic on bool */
static inline int64_t mtr_add_i64(int64_t a, int64_t b) { return a + b; }
static inline int64_t mtr_mul_i64(int64_t a, int64_t b) { return a * b; }

/* integer-like types (C integers, multi-language types, MPI_C_BOOL, MPI_BYTE) */
#define MTR_DEF_INT(T, name, SGN)                                                             \
    static void mtr_contrib_##name(void *b, size_t n, int r, int nr, int op)                  \
    {                                                                                         \
        T *p = (T *)b;                                                                        \
        for (size_t i = 0; i < n; i++)                                                        \
            p[i] = (T)mtr_ival(op, r, i, nr, SGN);                                            \
    }                                                                                         \
    static void mtr_expect_##name(void *b, size_t n, int nr, int op)                          \
    {                                                                                         \
        T *p = (T *)b;                                                                        \
        for (size_t i = 0; i < n; i++) {                                                      \
            T a = (T)mtr_ival(op, 0, i, nr, SGN);                                             \
            for (int r = 1; r < nr; r++) {                                                    \
                T v = (T)mtr_ival(op, r, i, nr, SGN);                                         \
                switch (op) {                                                                 \
                case MTR_SUM: a = (T)mtr_add_i64((int64_t)a, (int64_t)v); break;              \
                case MTR_PROD: a = (T)mtr_mul_i64((int64_t)a, (int64_t)v); break;             \
                    MTR_FOLD_MINMAX(a, v)                                                     \
                case MTR_LAND: a = (T)(a && v); break;                                        \
                case MTR_LOR: a = (T)(a || v); break;                                         \
                case MTR_LXOR: a = (T)(!a != !v); break;                                      \
                case MTR_BAND: a = (T)(a & v); break;                                         \
                case MTR_BOR: a = (T)(a | v); break;                                          \
                default: a = (T)(a ^ v); break;                                               \
                }                                                                             \
            }                                                                                 \
            p[i] = a;                                                                         \
        }                                                                                     \
    }                                                                                         \
    static size_t mtr_cmp_##name(const void *g, const void *e, size_t n)                      \
    {                                                                                         \
        const T *x = (const T *)g, *y = (const T *)e;                                         \
        for (size_t i = 0; i < n; i++)                                                        \
            if (x[i] != y[i])                                                                 \
                return i;                                                                     \
        return n;                                                                             \
    }                                                                                         \
    static void mtr_show_##name(const void *b, size_t i, char *out, size_t len)               \
    {                                                                                         \
        T v = ((const T *)b)[i];                                                              \
        if (SGN)                                                                              \
            snprintf(out, len, "%lld", (long long)v);                                         \
        else                                                                                  \
            snprintf(out, len, "%llu", (unsigned long long)v);                                \
    }

#define MTR_DEF_FLOAT(T, name)                                                                \
    static void mtr_contrib_##name(void *b, size_t n, int r, int nr, int op)                  \
    {                                                                                         \
        T *p = (T *)b;                                                                        \
        (void)nr;                                                                             \
        for (size_t i = 0; i < n; i++)                                                        \
            p[i] = (T)mtr_fval(op, r, i);                                                     \
    }                                                                                         \
    static void mtr_expect_##name(void *b, size_t n, int nr, int op)                          \
    {                                                                                         \
        T *p = (T *)b;                                                                        \
        for (size_t i = 0; i < n; i++) {                                                      \
            T a = (T)mtr_fval(op, 0, i);                                                      \
            for (int r = 1; r < nr; r++) {                                                    \
                T v = (T)mtr_fval(op, r, i);                                                  \
                switch (op) {                                                                 \
                case MTR_SUM: a += v; break;                                                  \
                case MTR_PROD: a *= v; break;                                                 \
                    MTR_FOLD_MINMAX(a, v)                                                     \
                default: break;                                                               \
                }                                                                             \
            }                                                                                 \
            p[i] = a;                                                                         \
        }                                                                                     \
    }                                                                                         \
    static size_t mtr_cmp_##name(const void *g, const void *e, size_t n)                      \
    {                                                                                         \
        const T *x = (const T *)g, *y = (const T *)e;                                         \
        for (size_t i = 0; i < n; i++)                                                        \
            if (!(x[i] == y[i]))                                                              \
                return i;                                                                     \
        return n;                                                                             \
    }                                                                                         \
    static void mtr_show_##name(const void *b, size_t i, char *out, size_t len)               \
    {                                                                                         \
        snprintf(out, len, "%Lg", (long double)((const T *)b)[i]);                            \
    }

#define MTR_DEF_COMPLEX(T, R, name)                                                           \
    static void mtr_contrib_##name(void *b, size_t n, int r, int nr, int op)                  \
    {                                                                                         \
        T *p = (T *)b;                                                                        \
        (void)nr;                                                                             \
        for (size_t i = 0; i < n; i++)                                                        \
            p[i] = (T)mtr_cval(op, r, i);                                                     \
    }                                                                                         \
    static void mtr_expect_##name(void *b, size_t n, int nr, int op)                          \
    {                                                                                         \
        T *p = (T *)b;                                                                        \
        for (size_t i = 0; i < n; i++) {                                                      \
            T a = (T)mtr_cval(op, 0, i);                                                      \
            for (int r = 1; r < nr; r++) {                                                    \
                T v = (T)mtr_cval(op, r, i);                                                  \
                if (op == MTR_SUM)                                                            \
                    a = a + v;                                                                \
                else /* exact Gaussian-integer product */                                     \
                    a = (R)(creall(a) * creall(v) - cimagl(a) * cimagl(v)) +                  \
                        (R)(creall(a) * cimagl(v) + cimagl(a) * creall(v)) * I;               \
            }                                                                                 \
            p[i] = a;                                                                         \
        }                                                                                     \
    }                                                                                         \
    static size_t mtr_cmp_##name(const void *g, const void *e, size_t n)                      \
    {                                                                                         \
        const T *x = (const T *)g, *y = (const T *)e;                                         \
        for (size_t i = 0; i < n; i++)                                                        \
            if (!(x[i] == y[i]))                                                              \
                return i;                                                                     \
        return n;                                                                             \
    }                                                                                         \
    static void mtr_show_##name(const void *b, size_t i, char *out, size_t len)               \
    {                                                                                         \
        T v = ((const T *)b)[i];                                                              \
        snprintf(out, len, "(%Lg,%Lg)", (long double)creall(v), (long double)cimagl(v));      \
    }

#define MTR_DEF_PAIR(T, name)                                                                 \
    typedef struct {                                                                          \
        T val;                                                                                \
        int idx;                                                                              \
    } mtr_##name##_t;                                                                         \
    static void mtr_contrib_##name(void *b, size_t n, int r, int nr, int op)                  \
    {                                                                                         \
        mtr_##name##_t *p = (mtr_##name##_t *)b;                                              \
        (void)op;                                                                             \
        for (size_t i = 0; i < n; i++) {                                                      \
            p[i].val = (T)mtr_pval(r, i);                                                     \
            p[i].idx = mtr_pidx(r, i, nr);                                                    \
        }                                                                                     \
    }                                                                                         \
    static void mtr_expect_##name(void *b, size_t n, int nr, int op)                          \
    {                                                                                         \
        mtr_##name##_t *p = (mtr_##name##_t *)b;                                              \
        for (size_t i = 0; i < n; i++) {                                                      \
            T a = (T)mtr_pval(0, i);                                                          \
            int ai = mtr_pidx(0, i, nr);                                                      \
            for (int r = 1; r < nr; r++) {                                                    \
                T v = (T)mtr_pval(r, i);                                                      \
                int vi = mtr_pidx(r, i, nr);                                                  \
                int better = op == MTR_MINLOC ? v < a : v > a;                                \
                if (better || (v == a && vi < ai)) {                                          \
                    a = v;                                                                    \
                    ai = vi;                                                                  \
                }                                                                             \
            }                                                                                 \
            p[i].val = a;                                                                     \
            p[i].idx = ai;                                                                    \
        }                                                                                     \
    }                                                                                         \
    static size_t mtr_cmp_##name(const void *g, const void *e, size_t n)                      \
    {                                                                                         \
        const mtr_##name##_t *x = (const mtr_##name##_t *)g, *y = (const mtr_##name##_t *)e;  \
        for (size_t i = 0; i < n; i++)                                                        \
            if (!(x[i].val == y[i].val) || x[i].idx != y[i].idx)                              \
                return i;                                                                     \
        return n;                                                                             \
    }                                                                                         \
    static void mtr_show_##name(const void *b, size_t i, char *out, size_t len)               \
    {                                                                                         \
        const mtr_##name##_t *p = (const mtr_##name##_t *)b;                                  \
        snprintf(out, len, "(%Lg,%d)", (long double)p[i].val, p[i].idx);                      \
    }

MTR_DEF_INT(signed char, schar, 1)
MTR_DEF_INT(unsigned char, uchar, 0)
MTR_DEF_INT(short, short, 1)
MTR_DEF_INT(unsigned short, ushort, 0)
MTR_DEF_INT(int, int, 1)
MTR_DEF_INT(unsigned, uint, 0)
MTR_DEF_INT(long, long, 1)
MTR_DEF_INT(unsigned long, ulong, 0)
MTR_DEF_INT(long long, llong, 1)
MTR_DEF_INT(unsigned long long, ullong, 0)
MTR_DEF_INT(int8_t, i8, 1)
MTR_DEF_INT(int16_t, i16, 1)
MTR_DEF_INT(int32_t, i32, 1)
MTR_DEF_INT(int64_t, i64, 1)
MTR_DEF_INT(uint8_t, u8, 0)
MTR_DEF_INT(uint16_t, u16, 0)
MTR_DEF_INT(uint32_t, u32, 0)
MTR_DEF_INT(uint64_t, u64, 0)
MTR_DEF_INT(MPI_Aint, aint, 1)
MTR_DEF_INT(MPI_Offset, offset, 1)
MTR_DEF_INT(MPI_Count, count, 1)
MTR_DEF_INT(bool, bool, 0)
MTR_DEF_INT(unsigned char, byte, 0)
MTR_DEF_FLOAT(float, float)
MTR_DEF_FLOAT(double, double)
MTR_DEF_FLOAT(long double, ldouble)
MTR_DEF_COMPLEX(float _Complex, float, fcplx)
MTR_DEF_COMPLEX(double _Complex, double, dcplx)
MTR_DEF_COMPLEX(long double _Complex, long double, ldcplx)
MTR_DEF_PAIR(float, float_int)
MTR_DEF_PAIR(double, double_int)
MTR_DEF_PAIR(long, long_int)
MTR_DEF_PAIR(int, two_int)
MTR_DEF_PAIR(short, short_int)
MTR_DEF_PAIR(long double, ldouble_int)

typedef struct {
    MPI_Datatype type;
    const char *name;
    size_t extent; /* sizeof one C element */
    unsigned ops;  /* bit mask of valid MTR_ ops */
    void (*contrib)(void *buf, size_t n, int rank, int nranks, int op);
    void (*expect)(void *buf, size_t n, int nranks, int op);
    size_t (*cmp)(const void *got, const void *expected, size_t n); /* first bad index or n */
    void (*show)(const void *buf, size_t i, char *out, size_t len);
} mtr_type;

#define MTR_MAX_TYPES 40

/* Fill `t` (MTR_MAX_TYPES entries) with the reduction datatypes; returns the count. */
static inline int mtr_get_types(mtr_type *t)
{
    int n = 0;
#define MTR_ROW(M, T, name, ops)                                                              \
    t[n++] = (mtr_type){M,                  #M,                  sizeof(T),         ops,      \
                        mtr_contrib_##name, mtr_expect_##name,   mtr_cmp_##name,    mtr_show_##name}
    MTR_ROW(MPI_SIGNED_CHAR, signed char, schar, MTR_OPS_INT);
    MTR_ROW(MPI_UNSIGNED_CHAR, unsigned char, uchar, MTR_OPS_INT);
    MTR_ROW(MPI_SHORT, short, short, MTR_OPS_INT);
    MTR_ROW(MPI_UNSIGNED_SHORT, unsigned short, ushort, MTR_OPS_INT);
    MTR_ROW(MPI_INT, int, int, MTR_OPS_INT);
    MTR_ROW(MPI_UNSIGNED, unsigned, uint, MTR_OPS_INT);
    MTR_ROW(MPI_LONG, long, long, MTR_OPS_INT);
    MTR_ROW(MPI_UNSIGNED_LONG, unsigned long, ulong, MTR_OPS_INT);
    MTR_ROW(MPI_LONG_LONG, long long, llong, MTR_OPS_INT);
    MTR_ROW(MPI_UNSIGNED_LONG_LONG, unsigned long long, ullong, MTR_OPS_INT);
    MTR_ROW(MPI_INT8_T, int8_t, i8, MTR_OPS_INT);
    MTR_ROW(MPI_INT16_T, int16_t, i16, MTR_OPS_INT);
    MTR_ROW(MPI_INT32_T, int32_t, i32, MTR_OPS_INT);
    MTR_ROW(MPI_INT64_T, int64_t, i64, MTR_OPS_INT);
    MTR_ROW(MPI_UINT8_T, uint8_t, u8, MTR_OPS_INT);
    MTR_ROW(MPI_UINT16_T, uint16_t, u16, MTR_OPS_INT);
    MTR_ROW(MPI_UINT32_T, uint32_t, u32, MTR_OPS_INT);
    MTR_ROW(MPI_UINT64_T, uint64_t, u64, MTR_OPS_INT);
    MTR_ROW(MPI_AINT, MPI_Aint, aint, MTR_OPS_MULTI);
    MTR_ROW(MPI_OFFSET, MPI_Offset, offset, MTR_OPS_MULTI);
    MTR_ROW(MPI_COUNT, MPI_Count, count, MTR_OPS_MULTI);
    MTR_ROW(MPI_C_BOOL, bool, bool, MTR_OPS_BOOL);
    MTR_ROW(MPI_BYTE, unsigned char, byte, MTR_OPS_BYTE);
    MTR_ROW(MPI_FLOAT, float, float, MTR_OPS_FLOAT);
    MTR_ROW(MPI_DOUBLE, double, double, MTR_OPS_FLOAT);
    MTR_ROW(MPI_LONG_DOUBLE, long double, ldouble, MTR_OPS_FLOAT);
    MTR_ROW(MPI_C_FLOAT_COMPLEX, float _Complex, fcplx, MTR_OPS_COMPLEX);
    MTR_ROW(MPI_C_DOUBLE_COMPLEX, double _Complex, dcplx, MTR_OPS_COMPLEX);
    MTR_ROW(MPI_C_LONG_DOUBLE_COMPLEX, long double _Complex, ldcplx, MTR_OPS_COMPLEX);
    MTR_ROW(MPI_FLOAT_INT, mtr_float_int_t, float_int, MTR_OPS_PAIR);
    MTR_ROW(MPI_DOUBLE_INT, mtr_double_int_t, double_int, MTR_OPS_PAIR);
    MTR_ROW(MPI_LONG_INT, mtr_long_int_t, long_int, MTR_OPS_PAIR);
    MTR_ROW(MPI_2INT, mtr_two_int_t, two_int, MTR_OPS_PAIR);
    MTR_ROW(MPI_SHORT_INT, mtr_short_int_t, short_int, MTR_OPS_PAIR);
    MTR_ROW(MPI_LONG_DOUBLE_INT, mtr_ldouble_int_t, ldouble_int, MTR_OPS_PAIR);
#undef MTR_ROW
    return n;
}

/* Known result deviations of the reference MPIs; the result check of such a combination is
 * skipped there (the call is still made). Never applies to other MPIs.
 *  - MPICH 4.0: MPI_MIN/MPI_MAX compare unsigned integer types as signed (pmodels/mpich#6083).
 *  - Open MPI 4.1.2-4.1.4: MPI_MIN/MPI_MAX wrong for MPI_UNSIGNED_LONG (open-mpi/ompi#10525)
 *    and, observed here, for MPI_OFFSET (compared as unsigned). */
static inline int mtr_known_deviation(const mtr_type *t, int op)
{
    static int lib = -1; /* 0 other, 1 Open MPI, 2 MPICH */
    if (lib < 0)
        lib = mt_library_is("Open MPI") ? 1 : mt_library_is("MPICH") ? 2 : 0;
    if (op != MTR_MIN && op != MTR_MAX)
        return 0;
    if (lib == 1)
        return t->type == MPI_UNSIGNED_LONG || t->type == MPI_OFFSET;
    if (lib == 2)
        return t->type == MPI_UNSIGNED_CHAR || t->type == MPI_UNSIGNED_SHORT ||
               t->type == MPI_UNSIGNED || t->type == MPI_UNSIGNED_LONG ||
               t->type == MPI_UNSIGNED_LONG_LONG || t->type == MPI_UINT8_T ||
               t->type == MPI_UINT16_T || t->type == MPI_UINT32_T || t->type == MPI_UINT64_T;
    return 0;
}

/* Find a type of the table by handle (NULL if absent). */
static inline const mtr_type *mtr_find(const mtr_type *t, int n, MPI_Datatype type)
{
    for (int i = 0; i < n; i++)
        if (t[i].type == type)
            return &t[i];
    return NULL;
}

/* Compare `got` with `expected`; report the first difference. Returns 1 if equal. */
static inline int mtr_check_(const char *file, int line, const mtr_type *t, int op,
                             const void *got, const void *expected, size_t n, const char *what)
{
    if (mtr_known_deviation(t, op))
        return 1;
    size_t bad = t->cmp(got, expected, n);
    if (bad == n)
        return 1;
    char g[96], e[96];
    t->show(got, bad, g, sizeof g);
    t->show(expected, bad, e, sizeof e);
    mt_fail(file, line, "%s: element %zu of %zu: expected %s, got %s", what, bad, n, e, g);
    return 0;
}
/* MTR_CHECK(type, op, got, expected, n, what): result of op on n elements */
#define MTR_CHECK(t, op, got, expected, n, what)                                              \
    mtr_check_(__FILE__, __LINE__, (t), (op), (got), (expected), (n), (what))

#endif /* MT_REDUCE_H */
