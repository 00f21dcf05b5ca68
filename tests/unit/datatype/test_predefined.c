/* test_predefined.c - the predefined datatype table and handle conversion (every ABI datatype
 * valid, holes and garbage rejected, pair layouts from the real C structs, element kinds for
 * reductions, names), external32 images of values whose representation changes (long, long
 * double, wchar), MPI_BOTTOM addressing, O(1) positioning deep into a huge stream, zero-size
 * types and references. Internal dt_* API only (no MPI_Init). */
#include <complex.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "datatype/construct.h"
#include "datatype/datatype.h"

#include "../common/unit_check.h"

static const MPI_Datatype all_types[] = {
    MPI_AINT, MPI_COUNT, MPI_OFFSET, MPI_PACKED, MPI_SHORT, MPI_INT, MPI_LONG, MPI_LONG_LONG,
    MPI_UNSIGNED_SHORT, MPI_UNSIGNED, MPI_UNSIGNED_LONG, MPI_UNSIGNED_LONG_LONG, MPI_FLOAT,
    MPI_C_FLOAT_COMPLEX, MPI_CXX_FLOAT_COMPLEX, MPI_DOUBLE, MPI_C_DOUBLE_COMPLEX,
    MPI_CXX_DOUBLE_COMPLEX, MPI_LOGICAL, MPI_INTEGER, MPI_REAL, MPI_COMPLEX,
    MPI_DOUBLE_PRECISION, MPI_DOUBLE_COMPLEX, MPI_CHARACTER, MPI_LONG_DOUBLE,
    MPI_C_LONG_DOUBLE_COMPLEX, MPI_CXX_LONG_DOUBLE_COMPLEX, MPI_FLOAT_INT, MPI_DOUBLE_INT,
    MPI_LONG_INT, MPI_2INT, MPI_SHORT_INT, MPI_LONG_DOUBLE_INT, MPI_2REAL,
    MPI_2DOUBLE_PRECISION, MPI_2INTEGER, MPI_C_BOOL, MPI_CXX_BOOL, MPI_WCHAR, MPI_INT8_T,
    MPI_UINT8_T, MPI_CHAR, MPI_SIGNED_CHAR, MPI_UNSIGNED_CHAR, MPI_BYTE, MPI_INT16_T,
    MPI_UINT16_T, MPI_INT32_T, MPI_UINT32_T, MPI_INT64_T, MPI_UINT64_T, MPI_LOGICAL1,
    MPI_INTEGER1, MPI_LOGICAL2, MPI_INTEGER2, MPI_REAL2, MPI_LOGICAL4, MPI_INTEGER4, MPI_REAL4,
    MPI_COMPLEX4, MPI_LOGICAL8, MPI_INTEGER8, MPI_REAL8, MPI_COMPLEX8, MPI_LOGICAL16,
    MPI_INTEGER16, MPI_REAL16, MPI_COMPLEX16, MPI_COMPLEX32,
};

static struct dt_type *T(MPI_Datatype h) { return dt_from_handle(h); }

static void test_table(void)
{
    size_t n = sizeof(all_types) / sizeof(all_types[0]);
    for (size_t i = 0; i < n; i++) {
        struct dt_type *t = T(all_types[i]);
        CHECK(t != NULL, "handle %#lx not valid", (unsigned long)(uintptr_t)all_types[i]);
        if (!t)
            continue;
        CHECK(t->predefined && t->committed && t->size > 0 && t->extent >= t->size &&
                  strncmp(t->name, "MPI_", 4) == 0 && t->nblocks >= 1,
              "%s: bad entry", t->name);
        CHECK(dt_to_handle(t) == all_types[i], "%s: handle round trip", t->name);
    }
    /* Not datatypes: null, holes in the table, other objects' ranges, garbage. */
    static const uintptr_t invalid[] = {0x200, 0x204, 0x205, 0x206, 0x211, 0x2ff, 0x300, 0x0,
                                        0x101, 0xfff};
    for (size_t i = 0; i < sizeof(invalid) / sizeof(invalid[0]); i++)
        CHECK(dt_from_handle((MPI_Datatype)invalid[i]) == NULL, "%#lx accepted",
              (unsigned long)invalid[i]);
    uint64_t *garbage = calloc(64, sizeof(uint64_t));
    CHECK(dt_from_handle((MPI_Datatype)(garbage + 8)) == NULL, "zeroed heap memory accepted");
    CHECK(dt_from_handle((MPI_Datatype)((char *)garbage + 67)) == NULL, "misaligned accepted");
    free(garbage);
}

struct ldi { long double v; int i; };
struct di { double v; int i; };
struct si { short v; int i; };
struct fi { float v; int i; };

static void test_layouts(void)
{
    struct dt_type *t = T(MPI_LONG_DOUBLE_INT);
    CHECK(t->size == 20 && t->extent == sizeof(struct ldi) && t->extent == 32 &&
              !t->contiguous && t->true_extent == (MPI_Aint)offsetof(struct ldi, i) + 4,
          "MPI_LONG_DOUBLE_INT: size %lld extent %ld", (long long)t->size, (long)t->extent);
    t = T(MPI_DOUBLE_INT);
    CHECK(t->size == 12 && t->extent == sizeof(struct di) && !t->contiguous && t->nblocks == 1,
          "MPI_DOUBLE_INT layout");
    t = T(MPI_SHORT_INT);
    CHECK(t->size == 6 && t->extent == sizeof(struct si) && t->nblocks == 2 &&
              t->blocks[1].offset == (MPI_Aint)offsetof(struct si, i) && !t->contiguous,
          "MPI_SHORT_INT: two blocks around the padding");
    t = T(MPI_FLOAT_INT);
    CHECK(t->size == 8 && t->extent == 8 && t->contiguous, "MPI_FLOAT_INT is contiguous");
    CHECK(T(MPI_2INT)->contiguous && T(MPI_INT)->contiguous && T(MPI_LONG_DOUBLE)->contiguous,
          "plain types contiguous");
    CHECK(T(MPI_REAL2)->size == 2 && T(MPI_REAL16)->size == 16 && T(MPI_COMPLEX32)->size == 32 &&
              T(MPI_COMPLEX4)->size == 4 && T(MPI_INTEGER16)->size == 16,
          "Fortran sized types");
    CHECK(T(MPI_LOGICAL)->size == 4 && T(MPI_DOUBLE_COMPLEX)->size == 16 &&
              T(MPI_CHARACTER)->size == 1 && T(MPI_2DOUBLE_PRECISION)->size == 16,
          "Fortran types");
    CHECK(strcmp(T(MPI_LONG_LONG)->name, "MPI_LONG_LONG_INT") == 0 &&
              strcmp(T(MPI_2INT)->name, "MPI_2INT") == 0 &&
              strcmp(T(MPI_WCHAR)->name, "MPI_WCHAR") == 0,
          "names");
}

static void test_elements_kinds(void)
{
    CHECK(T(MPI_LONG)->element == (sizeof(long) == 8 ? DT_ELEMENT_INT64 : DT_ELEMENT_INT32),
          "MPI_LONG element");
    CHECK(T(MPI_UNSIGNED)->element == DT_ELEMENT_UINT32 &&
              T(MPI_UNSIGNED)->element_size == 4, "MPI_UNSIGNED element");
    CHECK(T(MPI_DOUBLE)->element == DT_ELEMENT_DOUBLE, "MPI_DOUBLE element");
    CHECK(T(MPI_CHAR)->element == (CHAR_MIN < 0 ? DT_ELEMENT_INT8 : DT_ELEMENT_UINT8) &&
              T(MPI_CHARACTER)->element == DT_ELEMENT_CHAR && T(MPI_BYTE)->element == DT_ELEMENT_BYTE &&
              T(MPI_C_BOOL)->element == DT_ELEMENT_BOOL, "char/byte/bool elements");
    CHECK(T(MPI_FLOAT_INT)->element == DT_ELEMENT_FLOAT_INT &&
              T(MPI_FLOAT_INT)->element_count == 2 &&
              T(MPI_FLOAT_INT)->element_size == sizeof(struct fi), "MPI_FLOAT_INT element");
    CHECK(T(MPI_LONG_DOUBLE_INT)->element == DT_ELEMENT_LONG_DOUBLE_INT &&
              T(MPI_LONG_DOUBLE_INT)->element_size == sizeof(struct ldi), "LONG_DOUBLE_INT");
    CHECK(T(MPI_2INTEGER)->element == DT_ELEMENT_2INT && T(MPI_2REAL)->element ==
              DT_ELEMENT_2FLOAT, "Fortran pairs");
    CHECK(T(MPI_REAL16)->element == DT_ELEMENT_MIXED && T(MPI_REAL16)->element_size == 0 &&
              T(MPI_REAL2)->element == DT_ELEMENT_MIXED, "no arithmetic for REAL2/REAL16");
    CHECK(T(MPI_COMPLEX16)->element == DT_ELEMENT_C_DOUBLE_COMPLEX &&
              T(MPI_INTEGER8)->element == DT_ELEMENT_INT64, "sized Fortran kinds");

    struct dt_type *v, *s;
    dt_create_vector(10, 2, 64, T(MPI_DOUBLE), &v);
    CHECK(v->element == DT_ELEMENT_DOUBLE && v->element_size == 8 && v->element_count == 20,
          "vector of doubles is homogeneous");
    MPI_Count lens[2] = {1, 1};
    MPI_Aint displs[2] = {0, 8};
    struct dt_type *types[2] = {T(MPI_INT), T(MPI_DOUBLE)};
    dt_create_struct(2, lens, displs, types, &s);
    CHECK(s->element == DT_ELEMENT_MIXED && s->element_size == 0 && s->element_count == 2,
          "struct of int and double is mixed");
    dt_release(v);
    dt_release(s);

    CHECK(dt_match_size(MPI_TYPECLASS_REAL, 8) == T(MPI_REAL8) &&
              dt_match_size(MPI_TYPECLASS_INTEGER, 2) == T(MPI_INTEGER2) &&
              dt_match_size(MPI_TYPECLASS_COMPLEX, 32) == T(MPI_COMPLEX32) &&
              dt_match_size(MPI_TYPECLASS_INTEGER, 3) == NULL, "match_size");
    CHECK(dt_value_index(T(MPI_DOUBLE), T(MPI_INT)) == T(MPI_DOUBLE_INT) &&
              dt_value_index(T(MPI_INT), T(MPI_INT)) == T(MPI_2INT) &&
              dt_value_index(T(MPI_INT), T(MPI_DOUBLE)) == NULL, "value_index");
}

static void check_image(const unsigned char *got, const unsigned char *expected, int n,
                        const char *what)
{
    int ok = memcmp(got, expected, (size_t)n) == 0;
    CHECK(ok, "external32 image of %s", what);
    if (!ok) {
        for (int i = 0; i < n; i++)
            fprintf(stderr, " %02x/%02x", got[i], expected[i]);
        fputc('\n', stderr);
    }
}

static void test_external32(void)
{
    unsigned char out[64];

    long l[2] = {0x12345678, -2}, lback[2];
    static const unsigned char long_image[] = {0x12, 0x34, 0x56, 0x78, 0xff, 0xff, 0xff, 0xfe};
    CHECK(dt_external32_size(T(MPI_LONG), 2) == 8, "external32 long is 4 bytes");
    dt_pack_external32(T(MPI_LONG), l, 2, out);
    check_image(out, long_image, 8, "long");
    dt_unpack_external32(T(MPI_LONG), lback, 2, out);
    CHECK(lback[0] == 0x12345678 && lback[1] == -2, "long round trip (sign extension)");

    unsigned long ul = 0xfffffffeul, ulback = 0;
    dt_pack_external32(T(MPI_UNSIGNED_LONG), &ul, 1, out);
    dt_unpack_external32(T(MPI_UNSIGNED_LONG), &ulback, 1, out);
    CHECK(ulback == 0xfffffffeul, "unsigned long round trip (zero extension)");

    wchar_t w = L'A', wback = 0;
    static const unsigned char wchar_image[] = {0x00, 0x41};
    CHECK(dt_external32_size(T(MPI_WCHAR), 1) == 2, "external32 wchar is 2 bytes");
    dt_pack_external32(T(MPI_WCHAR), &w, 1, out);
    check_image(out, wchar_image, 2, "wchar");
    dt_unpack_external32(T(MPI_WCHAR), &wback, 1, out);
    CHECK(wback == L'A', "wchar round trip");

    long double ld[3] = {1.0L, -2.5L, 0}, ldback[3];
    static const unsigned char ld_image[] = {
        0x3f, 0xff, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0xc0, 0x00, 0x40, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    dt_pack_external32(T(MPI_LONG_DOUBLE), ld, 2, out);
    check_image(out, ld_image, 32, "long double 1.0, -2.5");
    long double specials[5] = {LDBL_TRUE_MIN, LDBL_MAX, -INFINITY, 1.0L / 3.0L, -0.0L};
    for (int i = 0; i < 5; i++) {
        ld[0] = specials[i];
        dt_pack_external32(T(MPI_LONG_DOUBLE), ld, 1, out);
        memset(ldback, 0, sizeof ldback);
        dt_unpack_external32(T(MPI_LONG_DOUBLE), ldback, 1, out);
        CHECK(ldback[0] == specials[i] && signbit(ldback[0]) == signbit(specials[i]),
              "long double special %d round trip", i);
    }
    ld[0] = NAN;
    dt_pack_external32(T(MPI_LONG_DOUBLE), ld, 1, out);
    dt_unpack_external32(T(MPI_LONG_DOUBLE), ldback, 1, out);
    CHECK(isnan(ldback[0]), "long double NaN round trip");

    struct ldi pair = {0.5L, 7}, pairback;
    CHECK(dt_external32_size(T(MPI_LONG_DOUBLE_INT), 1) == 20, "external32 LONG_DOUBLE_INT");
    dt_pack_external32(T(MPI_LONG_DOUBLE_INT), &pair, 1, out);
    static const unsigned char ldi_image[] = {0x3f, 0xfe, 0, 0, 0, 0, 0, 0, 0, 0,
                                              0,    0,    0, 0, 0, 0, 0, 0, 0, 7};
    check_image(out, ldi_image, 20, "LONG_DOUBLE_INT 0.5, 7");
    dt_unpack_external32(T(MPI_LONG_DOUBLE_INT), &pairback, 1, out);
    CHECK(pairback.v == 0.5L && pairback.i == 7, "LONG_DOUBLE_INT round trip");

    double _Complex z = 1.0 + 2.0 * _Complex_I, zback;
    static const unsigned char z_image[] = {0x3f, 0xf0, 0, 0, 0, 0, 0, 0,
                                            0x40, 0x00, 0, 0, 0, 0, 0, 0};
    dt_pack_external32(T(MPI_C_DOUBLE_COMPLEX), &z, 1, out);
    check_image(out, z_image, 16, "double complex 1+2i");
    dt_unpack_external32(T(MPI_C_DOUBLE_COMPLEX), &zback, 1, out);
    CHECK(zback == z, "double complex round trip");
}

/* MPI_BOTTOM: displacements are absolute addresses, buf is NULL. */
static void test_bottom(void)
{
    int v[8] = {0, 0, 0, 22, 0, 0, 33, 0}; /* apart, so no two blocks are adjacent */
    int *a = &v[0], *b = &v[3], *c = &v[6];
    *a = 11;
    MPI_Aint displs[3] = {(MPI_Aint)c, (MPI_Aint)a, (MPI_Aint)b};
    struct dt_type *t;
    int packed[3] = {0, 0, 0};
    dt_create_indexed(3, NULL, 1, displs, T(MPI_INT), &t);
    dt_commit(t);
    dt_pack_range(t, NULL, 1, 0, packed, 12);
    CHECK(packed[0] == 33 && packed[1] == 11 && packed[2] == 22, "pack from MPI_BOTTOM");
    struct iovec iov[3];
    size_t covered;
    int n = dt_iovec_range(t, NULL, 1, 4, iov, 3, &covered);
    CHECK(n == 2 && covered == 8 && iov[0].iov_base == (void *)a && iov[1].iov_base == b,
          "iovecs from MPI_BOTTOM");
    packed[0] = 1;
    packed[1] = 2;
    packed[2] = 3;
    dt_unpack_range(t, NULL, 1, 0, packed, 12);
    CHECK(*c == 1 && *a == 2 && *b == 3, "unpack to MPI_BOTTOM");
    dt_release(t);
}

/* Positions deep in a stream of 10^15 elements: found arithmetically, not by scanning. */
static void test_huge_position(void)
{
    struct dt_type *t;
    dt_create_vector(3, 1, 16, T(MPI_INT), &t); /* ints at 0, 16, 32: size 12, extent 36 */
    dt_commit(t);
    const MPI_Count count = 1000000000000000LL;
    int mem[64];
    for (int i = 0; i < 64; i++)
        mem[i] = i;
    /* Place element count-1 at mem[0]. */
    uintptr_t buf = (uintptr_t)mem - (uintptr_t)((count - 1) * t->extent);
    size_t end = (size_t)(count * t->size);
    int out[2] = {-1, -1};
    dt_pack_range(t, (void *)buf, count, end - 8, out, 8);
    CHECK(out[0] == 4 && out[1] == 8, "pack at the end of a huge stream: %d %d", out[0], out[1]);
    struct iovec iov[4];
    size_t covered = 0;
    int n = dt_iovec_range(t, (void *)buf, count, end - 12, iov, 4, &covered);
    CHECK(n == 3 && covered == 12 && iov[0].iov_base == (void *)&mem[0] &&
              iov[2].iov_base == (void *)&mem[8], "iovecs at the end of a huge stream");
    dt_release(t);
}

static void test_zero_and_refs(void)
{
    struct dt_type *zero, *v, *c, *d;
    dt_create_contiguous(0, T(MPI_INT), &zero);
    CHECK(dt_commit(zero) == MPI_SUCCESS && zero->size == 0 && zero->extent == 0 &&
              zero->nblocks == 0 && dt_is_contiguous(zero, 5), "zero-size type");
    struct iovec iov[1];
    size_t covered = 1;
    CHECK(dt_iovec_range(zero, NULL, 7, 0, iov, 1, &covered) == 0 && covered == 0,
          "iovecs of a zero-size type");
    MPI_Count elements = -1;
    dt_get_elements(zero, 0, &elements);
    CHECK(elements == 0, "elements of a zero-size type");
    dt_release(zero);

    /* The user frees the inner type: the outer keeps it alive. */
    dt_create_vector(4, 1, 64, T(MPI_DOUBLE), &v); /* doubles 0, 8, 16, 24; extent 200 */
    dt_create_contiguous(2, v, &c);
    dt_release(v);
    CHECK(dt_commit(c) == MPI_SUCCESS && c->size == 64 && c->nblocks == 7, /* 24 | 25 merge */
          "contiguous of a released vector");
    dt_create_dup(c, &d);
    CHECK(d->committed && d->size == 64, "dup of a committed type is committed");
    dt_retain(d); /* a request */
    dt_release(d); /* the user */
    CHECK(dt_from_handle(dt_to_handle(d)) == d, "type alive while a request holds it");
    double src[64], dst[8];
    for (int i = 0; i < 64; i++)
        src[i] = i;
    dt_pack_range(d, src, 1, 0, dst, 64);
    CHECK(dst[0] == 0 && dst[1] == 8 && dst[4] == 25 && dst[7] == 49, "pack through a dup");
    dt_release(d);
    dt_release(c);
}

int main(void)
{
    if (dt_init() != MPI_SUCCESS) {
        fprintf(stderr, "dt_init failed\n");
        return 1;
    }
    test_table();
    test_layouts();
    test_elements_kinds();
    test_external32();
    test_bottom();
    test_huge_position();
    test_zero_and_refs();
    dt_finalize();
    return unit_finish("predefined datatypes");
}
