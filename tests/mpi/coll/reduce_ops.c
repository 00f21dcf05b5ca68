/* reduce_ops.c - MPI_Reduce and MPI_Allreduce with every predefined operator on every C type it
 * is defined for (integers, floating point, complex, C_BOOL, BYTE, MINLOC/MAXLOC pairs with
 * ties), odd counts (1, 7, 1031 - the last crosses into the large-message algorithms), every
 * root up to 3 of them, and MPI_IN_PLACE; plus SUM over a strided derived type (the gaps must
 * stay untouched). Results are compared with a reference folded locally
 * over the ranks' inputs, which are a function of (rank, index); values are chosen so float
 * results are exact in any order. */
#include "mpitest.h"

#include <complex.h>
#include <stdbool.h>

static const int counts[] = {1, 7, 1031};
#define NCOUNTS (int)(sizeof(counts) / sizeof(counts[0]))

/* ---- value patterns ---------------------------------------------------------------------- */

static int small_value(int rank, int i, int for_prod)
{
    if (for_prod)
        return (rank + i) % 3 + 1; /* 1..3: products stay exact and small */
    return (rank * 5 + i * 3) % 7; /* 0..6, zeros included for the logical ops */
}

/* Roots to try: 0, the last rank and one in the middle. */
static int nroots(void)
{
    return mt_size >= 3 ? 3 : mt_size;
}

static int root_at(int k)
{
    return k == 0 ? 0 : k == 1 ? mt_size - 1 : mt_size / 2;
}

static const char *op_name(MPI_Op op)
{
    if (op == MPI_SUM) return "SUM";
    if (op == MPI_PROD) return "PROD";
    if (op == MPI_MIN) return "MIN";
    if (op == MPI_MAX) return "MAX";
    if (op == MPI_LAND) return "LAND";
    if (op == MPI_LOR) return "LOR";
    if (op == MPI_LXOR) return "LXOR";
    if (op == MPI_BAND) return "BAND";
    if (op == MPI_BOR) return "BOR";
    if (op == MPI_BXOR) return "BXOR";
    if (op == MPI_MINLOC) return "MINLOC";
    if (op == MPI_MAXLOC) return "MAXLOC";
    return "?";
}

/* Run Allreduce (normal + in place) and Reduce (every root, normal + in place at the root) of
 * `count` elements and compare with `want` through `same(a, b, i)`. */
typedef void fill_fn(void *buf, int rank, int count, MPI_Op op);
typedef int same_fn(const void *got, const void *want, int i);

static void run_case(MPI_Datatype type, size_t elem, const char *tname, MPI_Op op, int count,
                     fill_fn *fill, same_fn *same, const void *want)
{
    char *send = mt_malloc(elem * count), *recv = mt_malloc(elem * count);
    fill(send, mt_rank, count, op);

    memset(recv, 0x5a, elem * count);
    MT_MPI(MPI_Allreduce(send, recv, count, type, op, MPI_COMM_WORLD));
    for (int i = 0; i < count; i++)
        if (!same(recv, want, i)) {
            mt_fail(__FILE__, __LINE__, "Allreduce %s %s count %d: wrong element %d", op_name(op),
                    tname, count, i);
            break;
        }

    fill(recv, mt_rank, count, op);
    MT_MPI(MPI_Allreduce(MPI_IN_PLACE, recv, count, type, op, MPI_COMM_WORLD));
    for (int i = 0; i < count; i++)
        if (!same(recv, want, i)) {
            mt_fail(__FILE__, __LINE__, "Allreduce IN_PLACE %s %s count %d: wrong element %d",
                    op_name(op), tname, count, i);
            break;
        }

    for (int k = 0; k < nroots(); k++) {
        int root = root_at(k);
        for (int in_place = 0; in_place < 2; in_place++) {
            memset(recv, 0x5a, elem * count);
            const void *sb = send;
            if (in_place && mt_rank == root) {
                fill(recv, mt_rank, count, op);
                sb = MPI_IN_PLACE;
            }
            MT_MPI(MPI_Reduce(sb, recv, count, type, op, root, MPI_COMM_WORLD));
            if (mt_rank != root)
                continue;
            for (int i = 0; i < count; i++)
                if (!same(recv, want, i)) {
                    mt_fail(__FILE__, __LINE__, "Reduce%s %s %s count %d root %d: wrong "
                            "element %d", in_place ? " IN_PLACE" : "", op_name(op), tname,
                            count, root, i);
                    break;
                }
        }
    }
    free(send);
    free(recv);
}

/* ---- integers ---------------------------------------------------------------------------- */

#define INT_TEST(name, ctype, handle, is_signed)                                               \
    static void fill_##name(void *buf, int rank, int count, MPI_Op op)                         \
    {                                                                                          \
        ctype *p = buf;                                                                        \
        for (int i = 0; i < count; i++)                                                        \
            p[i] = (ctype)(small_value(rank, i, op == MPI_PROD) - (is_signed ? 2 : 0));        \
    }                                                                                          \
    static int same_##name(const void *got, const void *want, int i)                           \
    {                                                                                          \
        return ((const ctype *)got)[i] == ((const ctype *)want)[i];                            \
    }                                                                                          \
    static ctype combine_##name(MPI_Op op, ctype a, ctype b)                                   \
    {                                                                                          \
        if (op == MPI_SUM) return (ctype)(a + b);                                              \
        if (op == MPI_PROD) return (ctype)(a * b);                                             \
        if (op == MPI_MIN) return a < b ? a : b;                                               \
        if (op == MPI_MAX) return a > b ? a : b;                                               \
        if (op == MPI_LAND) return (ctype)(a && b);                                            \
        if (op == MPI_LOR) return (ctype)(a || b);                                             \
        if (op == MPI_LXOR) return (ctype)(!a != !b);                                          \
        if (op == MPI_BAND) return (ctype)(a & b);                                             \
        if (op == MPI_BOR) return (ctype)(a | b);                                              \
        return (ctype)(a ^ b);                                                                 \
    }                                                                                          \
    static void test_##name(void)                                                              \
    {                                                                                          \
        const MPI_Op ops[] = {MPI_SUM,  MPI_PROD, MPI_MIN,  MPI_MAX,  MPI_LAND,               \
                              MPI_LOR,  MPI_LXOR, MPI_BAND, MPI_BOR,  MPI_BXOR};               \
        for (size_t o = 0; o < sizeof(ops) / sizeof(ops[0]); o++) {                            \
            for (int c = 0; c < NCOUNTS; c++) {                                                \
                int count = counts[c];                                                         \
                ctype *want = mt_malloc(sizeof(ctype) * count);                                \
                ctype *tmp = mt_malloc(sizeof(ctype) * count);                                 \
                fill_##name(want, 0, count, ops[o]);                                           \
                for (int r = 1; r < mt_size; r++) {                                            \
                    fill_##name(tmp, r, count, ops[o]);                                        \
                    for (int i = 0; i < count; i++)                                            \
                        want[i] = combine_##name(ops[o], want[i], tmp[i]);                     \
                }                                                                              \
                run_case(handle, sizeof(ctype), #handle, ops[o], count, fill_##name,           \
                         same_##name, want);                                                   \
                free(want);                                                                    \
                free(tmp);                                                                     \
            }                                                                                  \
        }                                                                                      \
    }

INT_TEST(schar, signed char, MPI_SIGNED_CHAR, 1)
INT_TEST(uchar, unsigned char, MPI_UNSIGNED_CHAR, 0)
INT_TEST(short, short, MPI_SHORT, 1)
INT_TEST(ushort, unsigned short, MPI_UNSIGNED_SHORT, 0)
INT_TEST(int, int, MPI_INT, 1)
INT_TEST(unsigned, unsigned, MPI_UNSIGNED, 0)
INT_TEST(long, long, MPI_LONG, 1)
INT_TEST(ulong, unsigned long, MPI_UNSIGNED_LONG, 0)
INT_TEST(llong, long long, MPI_LONG_LONG, 1)
INT_TEST(ullong, unsigned long long, MPI_UNSIGNED_LONG_LONG, 0)
INT_TEST(i8, int8_t, MPI_INT8_T, 1)
INT_TEST(u8, uint8_t, MPI_UINT8_T, 0)
INT_TEST(i16, int16_t, MPI_INT16_T, 1)
INT_TEST(u16, uint16_t, MPI_UINT16_T, 0)
INT_TEST(i32, int32_t, MPI_INT32_T, 1)
INT_TEST(u32, uint32_t, MPI_UINT32_T, 0)
INT_TEST(i64, int64_t, MPI_INT64_T, 1)
INT_TEST(u64, uint64_t, MPI_UINT64_T, 0)

/* ---- floating point ------------------------------------------------------------------------ */

#define FLOAT_TEST(name, ctype, handle)                                                        \
    static void fill_##name(void *buf, int rank, int count, MPI_Op op)                         \
    {                                                                                          \
        ctype *p = buf;                                                                        \
        for (int i = 0; i < count; i++)                                                        \
            p[i] = (ctype)small_value(rank, i, op == MPI_PROD) - (op == MPI_PROD ? 0 : 2.5);   \
    }                                                                                          \
    static int same_##name(const void *got, const void *want, int i)                           \
    {                                                                                          \
        return ((const ctype *)got)[i] == ((const ctype *)want)[i];                            \
    }                                                                                          \
    static void test_##name(void)                                                              \
    {                                                                                          \
        const MPI_Op ops[] = {MPI_SUM, MPI_PROD, MPI_MIN, MPI_MAX};                            \
        for (size_t o = 0; o < 4; o++) {                                                       \
            for (int c = 0; c < NCOUNTS; c++) {                                                \
                int count = counts[c];                                                         \
                ctype *want = mt_malloc(sizeof(ctype) * count);                                \
                ctype *tmp = mt_malloc(sizeof(ctype) * count);                                 \
                fill_##name(want, 0, count, ops[o]);                                           \
                for (int r = 1; r < mt_size; r++) {                                            \
                    fill_##name(tmp, r, count, ops[o]);                                        \
                    for (int i = 0; i < count; i++) {                                          \
                        ctype a = want[i], b = tmp[i];                                         \
                        want[i] = ops[o] == MPI_SUM    ? a + b                                 \
                                  : ops[o] == MPI_PROD ? a * b                                 \
                                  : ops[o] == MPI_MIN  ? (a < b ? a : b)                       \
                                                       : (a > b ? a : b);                      \
                    }                                                                          \
                }                                                                              \
                run_case(handle, sizeof(ctype), #handle, ops[o], count, fill_##name,           \
                         same_##name, want);                                                   \
                free(want);                                                                    \
                free(tmp);                                                                     \
            }                                                                                  \
        }                                                                                      \
    }

FLOAT_TEST(float, float, MPI_FLOAT)
FLOAT_TEST(double, double, MPI_DOUBLE)
FLOAT_TEST(ldouble, long double, MPI_LONG_DOUBLE)

/* ---- complex ----------------------------------------------------------------------------- */

#define COMPLEX_TEST(name, ctype, handle)                                                      \
    static void fill_##name(void *buf, int rank, int count, MPI_Op op)                         \
    {                                                                                          \
        ctype *p = buf;                                                                        \
        (void)op;                                                                              \
        for (int i = 0; i < count; i++)                                                        \
            p[i] = (ctype)((rank + i) % 3 - 1) + (ctype)((rank * 2 + i) % 3) * (ctype)I;       \
    }                                                                                          \
    static int same_##name(const void *got, const void *want, int i)                           \
    {                                                                                          \
        return ((const ctype *)got)[i] == ((const ctype *)want)[i];                            \
    }                                                                                          \
    static void test_##name(void)                                                              \
    {                                                                                          \
        const MPI_Op ops[] = {MPI_SUM, MPI_PROD};                                              \
        for (size_t o = 0; o < 2; o++) {                                                       \
            for (int c = 0; c < NCOUNTS; c++) {                                                \
                int count = counts[c];                                                         \
                ctype *want = mt_malloc(sizeof(ctype) * count);                                \
                ctype *tmp = mt_malloc(sizeof(ctype) * count);                                 \
                fill_##name(want, 0, count, ops[o]);                                           \
                for (int r = 1; r < mt_size; r++) {                                            \
                    fill_##name(tmp, r, count, ops[o]);                                        \
                    for (int i = 0; i < count; i++)                                            \
                        want[i] = ops[o] == MPI_SUM ? want[i] + tmp[i] : want[i] * tmp[i];     \
                }                                                                              \
                run_case(handle, sizeof(ctype), #handle, ops[o], count, fill_##name,           \
                         same_##name, want);                                                   \
                free(want);                                                                    \
                free(tmp);                                                                     \
            }                                                                                  \
        }                                                                                      \
    }

COMPLEX_TEST(cfloat, float _Complex, MPI_C_FLOAT_COMPLEX)
COMPLEX_TEST(cdouble, double _Complex, MPI_C_DOUBLE_COMPLEX)
COMPLEX_TEST(cldouble, long double _Complex, MPI_C_LONG_DOUBLE_COMPLEX)

/* ---- C_BOOL (logical ops) and BYTE (bitwise ops) --------------------------------------------- */

static void fill_bool(void *buf, int rank, int count, MPI_Op op)
{
    bool *p = buf;
    (void)op;
    for (int i = 0; i < count; i++)
        p[i] = (rank * 3 + i) % 4 != 0;
}

static int same_bool(const void *got, const void *want, int i)
{
    return ((const bool *)got)[i] == ((const bool *)want)[i];
}

static void fill_byte(void *buf, int rank, int count, MPI_Op op)
{
    unsigned char *p = buf;
    (void)op;
    for (int i = 0; i < count; i++)
        p[i] = (unsigned char)(0x11 * (rank + 1) + 7 * i);
}

static int same_byte(const void *got, const void *want, int i)
{
    return ((const unsigned char *)got)[i] == ((const unsigned char *)want)[i];
}

static void test_bool_byte(void)
{
    const MPI_Op lops[] = {MPI_LAND, MPI_LOR, MPI_LXOR}, bops[] = {MPI_BAND, MPI_BOR, MPI_BXOR};
    for (int o = 0; o < 3; o++) {
        for (int c = 0; c < NCOUNTS; c++) {
            int count = counts[c];
            bool *want = mt_malloc(count), *tmp = mt_malloc(count);
            unsigned char *bwant = mt_malloc(count), *btmp = mt_malloc(count);
            fill_bool(want, 0, count, lops[o]);
            fill_byte(bwant, 0, count, bops[o]);
            for (int r = 1; r < mt_size; r++) {
                fill_bool(tmp, r, count, lops[o]);
                fill_byte(btmp, r, count, bops[o]);
                for (int i = 0; i < count; i++) {
                    want[i] = o == 0 ? (want[i] && tmp[i])
                              : o == 1 ? (want[i] || tmp[i])
                                       : (want[i] != tmp[i]);
                    bwant[i] = (unsigned char)(o == 0 ? bwant[i] & btmp[i]
                                               : o == 1 ? bwant[i] | btmp[i]
                                                        : bwant[i] ^ btmp[i]);
                }
            }
            run_case(MPI_C_BOOL, sizeof(bool), "MPI_C_BOOL", lops[o], count, fill_bool,
                     same_bool, want);
            run_case(MPI_BYTE, 1, "MPI_BYTE", bops[o], count, fill_byte, same_byte, bwant);
            free(want);
            free(tmp);
            free(bwant);
            free(btmp);
        }
    }
}

/* ---- MINLOC / MAXLOC: many ties, lowest rank must win them ------------------------------ */

#define PAIR_TEST(name, vtype, handle)                                                         \
    struct pair_##name { vtype v; int i; };                                                    \
    static void fill_##name(void *buf, int rank, int count, MPI_Op op)                         \
    {                                                                                          \
        struct pair_##name *p = buf;                                                           \
        (void)op;                                                                              \
        for (int i = 0; i < count; i++) {                                                      \
            p[i].v = (vtype)((rank * 3 + i) % 4);                                              \
            p[i].i = rank;                                                                     \
        }                                                                                      \
    }                                                                                          \
    static int same_##name(const void *got, const void *want, int i)                           \
    {                                                                                          \
        const struct pair_##name *g = got, *w = want;                                          \
        return g[i].v == w[i].v && g[i].i == w[i].i;                                           \
    }                                                                                          \
    static void test_##name(void)                                                              \
    {                                                                                          \
        for (int m = 0; m < 2; m++) {                                                          \
            MPI_Op op = m ? MPI_MAXLOC : MPI_MINLOC;                                           \
            for (int c = 0; c < NCOUNTS; c++) {                                                \
                int count = counts[c];                                                         \
                struct pair_##name *want = mt_malloc(sizeof(*want) * count);                   \
                struct pair_##name *tmp = mt_malloc(sizeof(*tmp) * count);                     \
                fill_##name(want, 0, count, op);                                               \
                for (int r = 1; r < mt_size; r++) {                                            \
                    fill_##name(tmp, r, count, op);                                            \
                    for (int i = 0; i < count; i++) {                                          \
                        int better = m ? tmp[i].v > want[i].v : tmp[i].v < want[i].v;          \
                        if (better || (tmp[i].v == want[i].v && tmp[i].i < want[i].i))         \
                            want[i] = tmp[i];                                                  \
                    }                                                                          \
                }                                                                              \
                run_case(handle, sizeof(struct pair_##name), #handle, op, count,               \
                         fill_##name, same_##name, want);                                      \
                free(want);                                                                    \
                free(tmp);                                                                     \
            }                                                                                  \
        }                                                                                      \
    }

PAIR_TEST(float_int, float, MPI_FLOAT_INT)
PAIR_TEST(double_int, double, MPI_DOUBLE_INT)
PAIR_TEST(long_int, long, MPI_LONG_INT)
PAIR_TEST(two_int, int, MPI_2INT)
PAIR_TEST(short_int, short, MPI_SHORT_INT)
PAIR_TEST(ldouble_int, long double, MPI_LONG_DOUBLE_INT)

/* Allreduce / Reduce of 2 elements of vector(3 blocks of 2 doubles, stride 3). */
static void test_derived(void)
{
    MPI_Datatype vec;
    MPI_Comm dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN);
    MPI_Type_vector(3, 2, 3, MPI_DOUBLE, &vec);
    MPI_Type_commit(&vec);
    double in[16], out[16];
    for (int i = 0; i < 16; i++) {
        in[i] = mt_rank * 16 + i;
        out[i] = -1;
    }
    for (int root = -1; root < mt_size; root += mt_size > 2 ? mt_size / 2 + 1 : 1) {
        for (int i = 0; i < 16; i++)
            out[i] = -1;
        int rc;
        if (root < 0)
            rc = MPI_Allreduce(in, out, 2, vec, MPI_SUM, dup);
        else
            rc = MPI_Reduce(in, out, 2, vec, MPI_SUM, root, dup);
#ifndef NODEMPI
        /* predefined operators on derived types of one basic type are an MPICH (and nodempi)
         * extension; Open MPI rejects them */
        if (mt_errclass(rc) == MPI_ERR_OP)
            break;
#endif
        MT_MPI(rc);
        if (root >= 0 && mt_rank != root)
            continue;
        /* element k covers doubles 8k + {0,1,3,4,6,7}; extent is 8 doubles */
        for (int i = 0; i < 16; i++) {
            int covered = (i % 8) != 2 && (i % 8) != 5;
            double want = covered ? 16.0 * mt_size * (mt_size - 1) / 2 + (double)mt_size * i : -1;
            MT_CHECK(out[i] == want, "derived %s root %d: [%d] = %g want %g",
                     root < 0 ? "Allreduce" : "Reduce", root, i, out[i], want);
        }
    }
    MPI_Type_free(&vec);
    MPI_Comm_free(&dup);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    test_derived();
    test_schar();
    test_uchar();
    test_short();
    test_ushort();
    test_int();
    test_unsigned();
    test_long();
    test_ulong();
    test_llong();
    test_ullong();
    test_i8();
    test_u8();
    test_i16();
    test_u16();
    test_i32();
    test_u32();
    test_i64();
    test_u64();
    test_float();
    test_double();
    test_ldouble();
    test_cfloat();
    test_cdouble();
    test_cldouble();
    test_bool_byte();
    test_float_int();
    test_double_int();
    test_long_int();
    test_two_int();
    test_short_int();
    test_ldouble_int();
    return mt_finish();
}
