/* test_op.c - unit test of src/coll/op.c: every predefined operator on every element kind it is
 * defined for, against references computed here element by element; the operators it is not
 * defined for must be rejected with MPI_ERR_OP; MINLOC/MAXLOC tie rule on all pair types (in
 * their own layout, packed contiguous, and strided derived layouts); MPI_REPLACE / MPI_NO_OP;
 * user operators (argument order, datatype handle, the _c form); derived types of one basic
 * type; handle round trips. No MPI runtime: the datatype layer is initialized directly. */
#include <complex.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coll/op.h"
#include "datatype/construct.h"
#include "datatype/datatype.h"

#include "../common/unit_check.h"

#define N 7

static const MPI_Op all_ops[] = {MPI_SUM,  MPI_PROD, MPI_MIN,    MPI_MAX,    MPI_LAND,
                                 MPI_LOR,  MPI_LXOR, MPI_BAND,   MPI_BOR,    MPI_BXOR,
                                 MPI_MINLOC, MPI_MAXLOC};
#define NOPS (sizeof(all_ops) / sizeof(all_ops[0]))

static struct coll_op *op_of(MPI_Op h)
{
    struct coll_op *op = coll_op_from_handle(h);
    if (!op) {
        fprintf(stderr, "FAIL: no object for op handle %p\n", (void *)h);
        exit(1);
    }
    return op;
}

static struct dt_type *type_of(MPI_Datatype h)
{
    struct dt_type *t = dt_from_handle(h);
    if (!t) {
        fprintf(stderr, "FAIL: no object for datatype handle %p\n", (void *)h);
        exit(1);
    }
    return t;
}

/* Which operators MPI defines for a family of types (MPI-4.1 §6.9.2). */
enum family { FAM_INT, FAM_FLOAT, FAM_COMPLEX, FAM_BOOL, FAM_BYTE, FAM_CHAR, FAM_PAIR };

static int defined_for(MPI_Op op, enum family f)
{
    int arith = op == MPI_SUM || op == MPI_PROD, order = op == MPI_MIN || op == MPI_MAX;
    int logical = op == MPI_LAND || op == MPI_LOR || op == MPI_LXOR;
    int bitwise = op == MPI_BAND || op == MPI_BOR || op == MPI_BXOR;
    int loc = op == MPI_MINLOC || op == MPI_MAXLOC;
    switch (f) {
    case FAM_INT: return arith || order || logical || bitwise;
    case FAM_FLOAT: return arith || order;
    case FAM_COMPLEX: return arith;
    case FAM_BOOL: return logical;
    case FAM_BYTE: return bitwise;
    case FAM_CHAR: return 0;
    case FAM_PAIR: return loc;
    }
    return 0;
}

static void check_validity(MPI_Datatype h, const char *name, enum family f)
{
    struct dt_type *t = type_of(h);
    for (size_t i = 0; i < NOPS; i++) {
        struct coll_op *op = op_of(all_ops[i]);
        int want = defined_for(all_ops[i], f) ? MPI_SUCCESS : MPI_ERR_OP;
        CHECK(coll_op_check_reduction(op, t) == want, "%s on %s: check gave %d, want %d",
              coll_op_name(op), name, coll_op_check_reduction(op, t), want);
    }
    CHECK(coll_op_check(op_of(MPI_REPLACE), t) == MPI_SUCCESS, "REPLACE on %s", name);
    CHECK(coll_op_check_reduction(op_of(MPI_REPLACE), t) == MPI_ERR_OP,
          "REPLACE in a reduction on %s", name);
    CHECK(coll_op_check_reduction(op_of(MPI_NO_OP), t) == MPI_ERR_OP,
          "NO_OP in a reduction on %s", name);
}

/* ---- integers: reference in int64 / uint64 arithmetic, truncated to the type ----------- */

static int64_t int_ref(MPI_Op op, int64_t a, int64_t b)
{
    if (op == MPI_SUM) return (int64_t)((uint64_t)a + (uint64_t)b);
    if (op == MPI_PROD) return (int64_t)((uint64_t)a * (uint64_t)b);
    if (op == MPI_MIN) return a < b ? a : b;
    if (op == MPI_MAX) return a > b ? a : b;
    if (op == MPI_LAND) return a && b;
    if (op == MPI_LOR) return a || b;
    if (op == MPI_LXOR) return !a != !b;
    if (op == MPI_BAND) return a & b;
    if (op == MPI_BOR) return a | b;
    return a ^ b;
}

static uint64_t uint_ref(MPI_Op op, uint64_t a, uint64_t b)
{
    if (op == MPI_MIN) return a < b ? a : b;
    if (op == MPI_MAX) return a > b ? a : b;
    return (uint64_t)int_ref(op, (int64_t)a, (int64_t)b);
}

static const int64_t int_in[N] = {0, 1, -3, 7, -128, 100, 5};
static const int64_t int_io[N] = {0, 0, 2, 7, 127, -100, 6};

#define TEST_INT_TYPE(handle, ctype, is_signed)                                                \
    do {                                                                                       \
        struct dt_type *t = type_of(handle);                                                   \
        check_validity(handle, #handle, FAM_INT);                                              \
        for (size_t k = 0; k < NOPS; k++) {                                                    \
            if (!defined_for(all_ops[k], FAM_INT))                                             \
                continue;                                                                      \
            ctype in[N], io[N], want[N];                                                       \
            for (int i = 0; i < N; i++) {                                                      \
                in[i] = (ctype)int_in[i];                                                      \
                io[i] = (ctype)int_io[i];                                                      \
                want[i] = is_signed ? (ctype)int_ref(all_ops[k], (int64_t)in[i], (int64_t)io[i]) \
                                    : (ctype)uint_ref(all_ops[k], (uint64_t)in[i],             \
                                                      (uint64_t)io[i]);                        \
            }                                                                                  \
            int rc = coll_op_apply(op_of(all_ops[k]), in, io, N, t);                           \
            CHECK(rc == MPI_SUCCESS, "%s on %s: rc %d", coll_op_name(op_of(all_ops[k])),       \
                  #handle, rc);                                                                \
            for (int i = 0; i < N; i++)                                                        \
                CHECK(io[i] == want[i], "%s on %s [%d]: got %lld want %lld",                   \
                      coll_op_name(op_of(all_ops[k])), #handle, i, (long long)io[i],           \
                      (long long)want[i]);                                                     \
        }                                                                                      \
    } while (0)

static void test_integers(void)
{
    TEST_INT_TYPE(MPI_INT8_T, int8_t, 1);
    TEST_INT_TYPE(MPI_UINT8_T, uint8_t, 0);
    TEST_INT_TYPE(MPI_INT16_T, int16_t, 1);
    TEST_INT_TYPE(MPI_UINT16_T, uint16_t, 0);
    TEST_INT_TYPE(MPI_INT32_T, int32_t, 1);
    TEST_INT_TYPE(MPI_UINT32_T, uint32_t, 0);
    TEST_INT_TYPE(MPI_INT64_T, int64_t, 1);
    TEST_INT_TYPE(MPI_UINT64_T, uint64_t, 0);
    TEST_INT_TYPE(MPI_SIGNED_CHAR, signed char, 1);
    TEST_INT_TYPE(MPI_UNSIGNED_CHAR, unsigned char, 0);
    TEST_INT_TYPE(MPI_SHORT, short, 1);
    TEST_INT_TYPE(MPI_UNSIGNED_SHORT, unsigned short, 0);
    TEST_INT_TYPE(MPI_INT, int, 1);
    TEST_INT_TYPE(MPI_UNSIGNED, unsigned, 0);
    TEST_INT_TYPE(MPI_LONG, long, 1);
    TEST_INT_TYPE(MPI_UNSIGNED_LONG, unsigned long, 0);
    TEST_INT_TYPE(MPI_LONG_LONG, long long, 1);
    TEST_INT_TYPE(MPI_UNSIGNED_LONG_LONG, unsigned long long, 0);
    TEST_INT_TYPE(MPI_AINT, MPI_Aint, 1);
    TEST_INT_TYPE(MPI_COUNT, MPI_Count, 1);
    TEST_INT_TYPE(MPI_OFFSET, MPI_Offset, 1);
    TEST_INT_TYPE(MPI_INTEGER, int, 1);

    /* signed overflow wraps like every MPI (no undefined behaviour in the kernel) */
    int32_t a = INT32_MAX, b = 1;
    coll_op_apply(op_of(MPI_SUM), &a, &b, 1, type_of(MPI_INT32_T));
    CHECK(b == INT32_MIN, "INT32_MAX + 1 wrapped to %d", b);
}

/* ---- floating point: values whose results are exact ------------------------------------ */

#define TEST_FLOAT_TYPE(handle, ctype)                                                         \
    do {                                                                                       \
        struct dt_type *t = type_of(handle);                                                   \
        check_validity(handle, #handle, FAM_FLOAT);                                            \
        const ctype vin[N] = {0.5, -1.25, 3, 1e10, -0.0, 7, 2};                                \
        const ctype vio[N] = {0.25, -1.5, 3, -1e10, 4, -7, 0.5};                               \
        for (size_t k = 0; k < NOPS; k++) {                                                    \
            MPI_Op o = all_ops[k];                                                             \
            if (!defined_for(o, FAM_FLOAT))                                                    \
                continue;                                                                      \
            ctype in[N], io[N], want[N];                                                       \
            for (int i = 0; i < N; i++) {                                                      \
                in[i] = vin[i];                                                                \
                io[i] = vio[i];                                                                \
                want[i] = o == MPI_SUM    ? in[i] + io[i]                                      \
                          : o == MPI_PROD ? in[i] * io[i]                                      \
                          : o == MPI_MIN  ? (in[i] < io[i] ? in[i] : io[i])                    \
                                          : (in[i] > io[i] ? in[i] : io[i]);                   \
            }                                                                                  \
            CHECK(coll_op_apply(op_of(o), in, io, N, t) == MPI_SUCCESS, "apply");              \
            for (int i = 0; i < N; i++)                                                        \
                CHECK(io[i] == want[i], "%s on %s [%d]: got %Lg want %Lg",                     \
                      coll_op_name(op_of(o)), #handle, i, (long double)io[i],                  \
                      (long double)want[i]);                                                   \
        }                                                                                      \
    } while (0)

static void test_floats(void)
{
    TEST_FLOAT_TYPE(MPI_FLOAT, float);
    TEST_FLOAT_TYPE(MPI_DOUBLE, double);
    TEST_FLOAT_TYPE(MPI_LONG_DOUBLE, long double);
    TEST_FLOAT_TYPE(MPI_REAL, float);
    TEST_FLOAT_TYPE(MPI_DOUBLE_PRECISION, double);
}

/* ---- complex: (a+bi)(c+di) = (ac-bd) + (ad+bc)i, written out by hand ---------------------- */

#define TEST_COMPLEX_TYPE(handle, rtype, ctype)                                                \
    do {                                                                                       \
        struct dt_type *t = type_of(handle);                                                   \
        check_validity(handle, #handle, FAM_COMPLEX);                                          \
        const rtype re_in[3] = {1, -2, 0.5}, im_in[3] = {2, 3, -4};                            \
        const rtype re_io[3] = {3, 0.25, 2}, im_io[3] = {-1, 8, 1};                            \
        ctype in[3], io[3];                                                                    \
        for (int i = 0; i < 3; i++) {                                                          \
            in[i] = re_in[i] + im_in[i] * (ctype)I;                                            \
            io[i] = re_io[i] + im_io[i] * (ctype)I;                                            \
        }                                                                                      \
        coll_op_apply(op_of(MPI_SUM), in, io, 3, t);                                           \
        for (int i = 0; i < 3; i++)                                                            \
            CHECK(creall(io[i]) == re_in[i] + re_io[i] && cimagl(io[i]) == im_in[i] + im_io[i], \
                  "SUM on %s [%d]", #handle, i);                                               \
        for (int i = 0; i < 3; i++)                                                            \
            io[i] = re_io[i] + im_io[i] * (ctype)I;                                            \
        coll_op_apply(op_of(MPI_PROD), in, io, 3, t);                                          \
        for (int i = 0; i < 3; i++) {                                                          \
            rtype re = re_in[i] * re_io[i] - im_in[i] * im_io[i];                              \
            rtype im = re_in[i] * im_io[i] + im_in[i] * re_io[i];                              \
            CHECK(creall(io[i]) == re && cimagl(io[i]) == im,                                  \
                  "PROD on %s [%d]: got %Lg%+Lgi want %Lg%+Lgi", #handle, i,                   \
                  (long double)creall(io[i]), (long double)cimagl(io[i]), (long double)re,     \
                  (long double)im);                                                            \
        }                                                                                      \
    } while (0)

static void test_complex(void)
{
    TEST_COMPLEX_TYPE(MPI_C_FLOAT_COMPLEX, float, float _Complex);
    TEST_COMPLEX_TYPE(MPI_C_DOUBLE_COMPLEX, double, double _Complex);
    TEST_COMPLEX_TYPE(MPI_C_LONG_DOUBLE_COMPLEX, long double, long double _Complex);
    TEST_COMPLEX_TYPE(MPI_CXX_DOUBLE_COMPLEX, double, double _Complex);
    TEST_COMPLEX_TYPE(MPI_COMPLEX, float, float _Complex);
    TEST_COMPLEX_TYPE(MPI_DOUBLE_COMPLEX, double, double _Complex);
}

/* ---- bool, byte, char ------------------------------------------------------------------ */

static void test_bool_byte_char(void)
{
    check_validity(MPI_C_BOOL, "MPI_C_BOOL", FAM_BOOL);
    check_validity(MPI_CXX_BOOL, "MPI_CXX_BOOL", FAM_BOOL);
    const _Bool a[4] = {0, 0, 1, 1}, b[4] = {0, 1, 0, 1};
    const _Bool land[4] = {0, 0, 0, 1}, lor[4] = {0, 1, 1, 1}, lxor[4] = {0, 1, 1, 0};
    const MPI_Op ops[3] = {MPI_LAND, MPI_LOR, MPI_LXOR};
    const _Bool *want[3] = {land, lor, lxor};
    for (int k = 0; k < 3; k++) {
        _Bool io[4];
        memcpy(io, b, sizeof io);
        coll_op_apply(op_of(ops[k]), a, io, 4, type_of(MPI_C_BOOL));
        for (int i = 0; i < 4; i++)
            CHECK(io[i] == want[k][i], "%s on C_BOOL [%d]", coll_op_name(op_of(ops[k])), i);
    }

    check_validity(MPI_BYTE, "MPI_BYTE", FAM_BYTE);
    unsigned char x[3] = {0xf0, 0x0f, 0xaa}, y[3] = {0xff, 0x01, 0x55};
    coll_op_apply(op_of(MPI_BXOR), x, y, 3, type_of(MPI_BYTE));
    CHECK(y[0] == 0x0f && y[1] == 0x0e && y[2] == 0xff, "BXOR on BYTE");
    y[0] = 0x3c;
    coll_op_apply(op_of(MPI_BAND), x, y, 1, type_of(MPI_BYTE));
    CHECK(y[0] == 0x30, "BAND on BYTE");
    coll_op_apply(op_of(MPI_BOR), x, y, 1, type_of(MPI_BYTE));
    CHECK(y[0] == 0xf0, "BOR on BYTE");

    check_validity(MPI_CHAR, "MPI_CHAR", FAM_INT); /* as MPICH: the platform's char */
    check_validity(MPI_CHARACTER, "MPI_CHARACTER", FAM_CHAR);
    check_validity(MPI_WCHAR, "MPI_WCHAR", FAM_CHAR);
}

/* ---- MINLOC / MAXLOC on every pair type ------------------------------------------------- */

struct pair_case {
    int value_in, index_in, value_io, index_io;
};

/* value ties pick the lower index, in either operand order */
static const struct pair_case pair_cases[] = {
    {1, 5, 2, 3}, {2, 3, 1, 5}, {4, 9, 4, 2}, {4, 2, 4, 9}, {-3, 0, -3, 0}, {7, 1, -7, 8},
};
#define NPAIRS (int)(sizeof(pair_cases) / sizeof(pair_cases[0]))

static void pair_want(const struct pair_case *c, int want_max, int *value, int *index)
{
    int take_in = want_max ? c->value_in > c->value_io : c->value_in < c->value_io;
    if (c->value_in == c->value_io)
        take_in = c->index_in < c->index_io;
    *value = take_in ? c->value_in : c->value_io;
    *index = take_in ? c->index_in : c->index_io;
}

#define TEST_PAIR_TYPE(handle, vtype, itype)                                                   \
    do {                                                                                       \
        struct pair { vtype v; itype i; };                                                     \
        struct dt_type *t = type_of(handle);                                                   \
        check_validity(handle, #handle, FAM_PAIR);                                             \
        CHECK(t->extent == (MPI_Aint)sizeof(struct pair), "%s extent %ld vs struct %zu",       \
              #handle, (long)t->extent, sizeof(struct pair));                                  \
        for (int m = 0; m < 2; m++) {                                                          \
            struct pair in[NPAIRS], io[NPAIRS];                                                \
            for (int k = 0; k < NPAIRS; k++) {                                                 \
                in[k] = (struct pair){(vtype)pair_cases[k].value_in,                           \
                                      (itype)pair_cases[k].index_in};                          \
                io[k] = (struct pair){(vtype)pair_cases[k].value_io,                           \
                                      (itype)pair_cases[k].index_io};                          \
            }                                                                                  \
            MPI_Op o = m ? MPI_MAXLOC : MPI_MINLOC;                                            \
            CHECK(coll_op_apply(op_of(o), in, io, NPAIRS, t) == MPI_SUCCESS, "apply");         \
            for (int k = 0; k < NPAIRS; k++) {                                                 \
                int wv, wi;                                                                    \
                pair_want(&pair_cases[k], m, &wv, &wi);                                        \
                CHECK(io[k].v == (vtype)wv && io[k].i == (itype)wi,                            \
                      "%s on %s case %d: got (%g,%g) want (%d,%d)", m ? "MAXLOC" : "MINLOC",   \
                      #handle, k, (double)io[k].v, (double)io[k].i, wv, wi);                   \
            }                                                                                  \
        }                                                                                      \
    } while (0)

static void test_pairs(void)
{
    TEST_PAIR_TYPE(MPI_FLOAT_INT, float, int);
    TEST_PAIR_TYPE(MPI_DOUBLE_INT, double, int);
    TEST_PAIR_TYPE(MPI_LONG_INT, long, int);
    TEST_PAIR_TYPE(MPI_2INT, int, int);
    TEST_PAIR_TYPE(MPI_SHORT_INT, short, int);
    TEST_PAIR_TYPE(MPI_LONG_DOUBLE_INT, long double, int);
    TEST_PAIR_TYPE(MPI_2REAL, float, float);
    TEST_PAIR_TYPE(MPI_2DOUBLE_PRECISION, double, double);
    TEST_PAIR_TYPE(MPI_2INTEGER, int, int);
}

/* Pairs inside derived types: contiguous(3, 2INT) is packed; vector of DOUBLE_INT is strided
 * (the pack-based path). */
static void test_derived_pairs(void)
{
    struct dt_type *c3;
    CHECK(dt_create_contiguous(3, type_of(MPI_2INT), &c3) == MPI_SUCCESS && dt_commit(c3) == 0,
          "contiguous(3, 2INT)");
    int in[6] = {5, 1, 2, 2, 9, 4}, io[6] = {5, 0, 3, 1, 9, 7};
    coll_op_apply(op_of(MPI_MAXLOC), in, io, 1, c3);
    CHECK(io[0] == 5 && io[1] == 0 && io[2] == 3 && io[3] == 1 && io[4] == 9 && io[5] == 4,
          "MAXLOC on contiguous(3, 2INT): %d %d %d %d %d %d", io[0], io[1], io[2], io[3], io[4],
          io[5]);
    dt_release(c3);

    struct di { double v; int i; };
    struct dt_type *vec;
    CHECK(dt_create_vector(2, 1, 2 * sizeof(struct di), type_of(MPI_DOUBLE_INT), &vec) == MPI_SUCCESS &&
              dt_commit(vec) == 0,
          "vector(2,1,2,DOUBLE_INT)");
    struct di a[4] = {{1, 1}, {99, 99}, {4, 0}, {99, 99}};
    struct di b[4] = {{2, 7}, {-5, -5}, {4, 3}, {-5, -5}};
    coll_op_apply(op_of(MPI_MINLOC), a, b, 1, vec);
    CHECK(b[0].v == 1 && b[0].i == 1 && b[2].v == 4 && b[2].i == 0, "MINLOC on strided pairs");
    CHECK(b[1].v == -5 && b[1].i == -5 && b[3].v == -5, "gap of strided pairs touched");
    dt_release(vec);
}

/* ---- derived types of one basic type -------------------------------------------------- */

static void test_derived_basic(void)
{
    /* vector(3 blocks of 2 doubles, stride 3): elements 0,1, 3,4, 6,7 */
    struct dt_type *vec;
    CHECK(dt_create_vector(3, 2, 3 * sizeof(double), type_of(MPI_DOUBLE), &vec) == MPI_SUCCESS &&
              dt_commit(vec) == 0,
          "vector of doubles");
    CHECK(coll_op_check_reduction(op_of(MPI_SUM), vec) == MPI_SUCCESS, "SUM on vector");
    CHECK(coll_op_check_reduction(op_of(MPI_BAND), vec) == MPI_ERR_OP, "BAND on vector");
    double in[16], io[16];
    for (int i = 0; i < 16; i++) {
        in[i] = i;
        io[i] = 100 * i;
    }
    /* count 2: the second element starts one extent (8 doubles) later */
    coll_op_apply(op_of(MPI_SUM), in, io, 2, vec);
    for (int i = 0; i < 16; i++) {
        int covered = (i % 8) != 2 && (i % 8) != 5; /* blocks at 0-1, 3-4, 6-7 of 8 */
        double want = covered ? 101.0 * i : 100.0 * i;
        CHECK(io[i] == want, "SUM on vector [%d]: got %g want %g", i, io[i], want);
    }
    dt_release(vec);

    struct dt_type *mixed;
    MPI_Count lens[2] = {1, 1};
    MPI_Aint displs[2] = {0, 8};
    struct dt_type *types[2] = {type_of(MPI_INT), type_of(MPI_DOUBLE)};
    CHECK(dt_create_struct(2, lens, displs, types, &mixed) == MPI_SUCCESS && dt_commit(mixed) == 0,
          "struct int+double");
    CHECK(coll_op_check_reduction(op_of(MPI_SUM), mixed) == MPI_ERR_OP, "SUM on a mixed struct");
    CHECK(coll_op_check_reduction(op_of(MPI_REPLACE), mixed) == MPI_ERR_OP,
          "REPLACE in a reduction");
    dt_release(mixed);
}

/* ---- REPLACE, NO_OP -------------------------------------------------------------------- */

static void test_replace_noop(void)
{
    int in[3] = {1, 2, 3}, io[3] = {7, 8, 9};
    coll_op_apply(op_of(MPI_NO_OP), in, io, 3, type_of(MPI_INT));
    CHECK(io[0] == 7 && io[2] == 9, "NO_OP changed data");
    coll_op_apply(op_of(MPI_REPLACE), in, io, 3, type_of(MPI_INT));
    CHECK(io[0] == 1 && io[1] == 2 && io[2] == 3, "REPLACE did not copy");
}

/* ---- user operators --------------------------------------------------------------------- */

static MPI_Datatype seen_type;
static int seen_len;

/* 2x2 integer matrix product, inout = in x inout (not commutative) */
static void matmul(void *in_, void *inout_, int *len, MPI_Datatype *type)
{
    const int *a = in_;
    int *b = inout_;
    seen_type = *type;
    seen_len = *len;
    for (int k = 0; k < *len; k++, a += 4, b += 4) {
        int c[4] = {a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3],
                    a[2] * b[0] + a[3] * b[2], a[2] * b[1] + a[3] * b[3]};
        memcpy(b, c, sizeof c);
    }
}

static MPI_Count seen_len_c;

static void sum_c(void *in_, void *inout_, MPI_Count *len, MPI_Datatype *type)
{
    (void)type;
    seen_len_c = *len;
    for (MPI_Count i = 0; i < *len; i++)
        ((double *)inout_)[i] += ((double *)in_)[i];
}

static void test_user_ops(void)
{
    struct dt_type *mat;
    CHECK(dt_create_contiguous(4, type_of(MPI_INT), &mat) == MPI_SUCCESS && dt_commit(mat) == 0,
          "matrix type");
    struct coll_op *op;
    CHECK(coll_op_create(matmul, NULL, 0, &op) == MPI_SUCCESS, "create");
    CHECK(!op->commutative && !op->predefined, "flags");
    MPI_Op h = coll_op_to_handle(op);
    CHECK(coll_op_from_handle(h) == op, "handle round trip");
    CHECK(coll_op_check_reduction(op, mat) == MPI_SUCCESS, "user ops take any type");
    int a[8] = {1, 2, 3, 4, 0, 1, 1, 0}, b[8] = {5, 6, 7, 8, 2, 0, 0, 2};
    coll_op_apply(op, a, b, 2, mat);
    CHECK(b[0] == 19 && b[1] == 22 && b[2] == 43 && b[3] == 50, "A x B (in op inout order)");
    CHECK(b[4] == 0 && b[5] == 2 && b[6] == 2 && b[7] == 0, "second matrix");
    CHECK(seen_len == 2 && seen_type == dt_to_handle(mat), "len %d / datatype handle", seen_len);
    coll_op_release(op);
    dt_release(mat);

    struct coll_op *opc;
    CHECK(coll_op_create(NULL, sum_c, 1, &opc) == MPI_SUCCESS && opc->commutative, "create_c");
    double x[5] = {1, 2, 3, 4, 5}, y[5] = {10, 20, 30, 40, 50};
    coll_op_apply(opc, x, y, 5, type_of(MPI_DOUBLE));
    CHECK(y[0] == 11 && y[4] == 55 && seen_len_c == 5, "user _c op");
    coll_op_release(opc);
}

static void test_handles(void)
{
    for (size_t i = 0; i < NOPS; i++) {
        struct coll_op *op = op_of(all_ops[i]);
        CHECK(coll_op_to_handle(op) == all_ops[i], "predefined handle round trip");
        CHECK(op->commutative && op->predefined, "predefined flags");
    }
    CHECK(coll_op_from_handle(MPI_OP_NULL) == NULL, "OP_NULL has no object");
    CHECK(coll_op_from_handle((MPI_Op)(uintptr_t)0x25) == NULL, "unused value 0x25");
    CHECK(coll_op_from_handle((MPI_Op)(uintptr_t)0x999) == NULL, "unused value 0x999");
    CHECK(strcmp(coll_op_name(op_of(MPI_MAXLOC)), "MPI_MAXLOC") == 0, "name");
}

int main(void)
{
    if (dt_init() != MPI_SUCCESS) {
        fprintf(stderr, "FAIL: dt_init\n");
        return 1;
    }
    test_handles();
    test_integers();
    test_floats();
    test_complex();
    test_bool_byte_char();
    test_pairs();
    test_derived_pairs();
    test_derived_basic();
    test_replace_noop();
    test_user_ops();
    dt_finalize();
    return unit_finish("test_op");
}
