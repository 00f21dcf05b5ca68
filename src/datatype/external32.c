/* external32.c - the portable "external32" data representation (MPI-4.1 section 13.5.2) for
 * MPI_Pack_external/Unpack_external: big-endian, standard sizes (long is 4 bytes, wchar 2, long
 * double IEEE binary128). Walks the basic elements of the type map and converts each; this is
 * not a fast path. Assumes a little-endian host (x86_64, aarch64). */
#include <float.h>
#include <string.h>

#include "datatype/construct.h"
#include "datatype/internal.h"

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "external32.c assumes a little-endian host"
#endif

static void reverse(unsigned char *dst, const unsigned char *src, size_t n)
{
    for (size_t i = 0; i < n; i++)
        dst[i] = src[n - 1 - i];
}

static void put_be64(unsigned char *dst, uint64_t v)
{
    for (int i = 7; i >= 0; i--, v >>= 8)
        dst[i] = (unsigned char)v;
}

static uint64_t get_be64(const unsigned char *src)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v = v << 8 | src[i];
    return v;
}

#if LDBL_MANT_DIG == 64
/* x87 extended (64-bit mantissa with explicit integer bit, 15-bit exponent) <-> binary128
 * (112-bit fraction, same exponent bias): the fraction moves up by 49 bits, exactly. */
static void long_double_to_quad(unsigned char *dst, const unsigned char *src)
{
    uint64_t mantissa;
    uint16_t sign_exponent;
    memcpy(&mantissa, src, 8);
    memcpy(&sign_exponent, src + 8, 2);
    uint64_t fraction = mantissa & UINT64_C(0x7fffffffffffffff);
    put_be64(dst, (uint64_t)sign_exponent << 48 | fraction >> 15);
    put_be64(dst + 8, fraction << 49);
}

static void quad_to_long_double(unsigned char *dst, const unsigned char *src)
{
    uint64_t hi = get_be64(src), lo = get_be64(src + 8);
    uint16_t sign_exponent = (uint16_t)(hi >> 48);
    /* The 49 fraction bits beyond x87 precision are dropped (truncation). */
    uint64_t mantissa = (hi & UINT64_C(0xffffffffffff)) << 15 | lo >> 49;
    if (sign_exponent & 0x7fff)
        mantissa |= UINT64_C(1) << 63;
    memset(dst, 0, 16);
    memcpy(dst, &mantissa, 8);
    memcpy(dst + 8, &sign_exponent, 2);
}
#else
/* long double is already binary128 (aarch64): only the byte order changes. */
static void long_double_to_quad(unsigned char *dst, const unsigned char *src)
{
    reverse(dst, src, 16);
}

static void quad_to_long_double(unsigned char *dst, const unsigned char *src)
{
    reverse(dst, src, 16);
}
#endif

static void to_external(const struct dt_type *basic, const unsigned char *src,
                        unsigned char *dst)
{
    const struct dt_basic *info = &dt_basic_info[dt_predefined_index(basic)];
    size_t size = (size_t)basic->size, ext = (size_t)info->layout.ext32_size;
    switch (info->cls) {
    case DT_CLASS_PAIR: {
        const struct dt_type *first = &dt_predefined_types[info->first_index];
        to_external(first, src, dst);
        to_external(&dt_predefined_types[info->second_index], src + info->pair_second_offset,
                    dst + dt_basic_info[info->first_index].layout.ext32_size);
        break;
    }
    case DT_CLASS_LONG_DOUBLE:
        long_double_to_quad(dst, src);
        break;
    case DT_CLASS_LONG_DOUBLE_COMPLEX:
        long_double_to_quad(dst, src);
        long_double_to_quad(dst + 16, src + 16);
        break;
    case DT_CLASS_COMPLEX:
        reverse(dst, src, size / 2);
        reverse(dst + size / 2, src + size / 2, size / 2);
        break;
    case DT_CLASS_BYTES:
        memcpy(dst, src, size);
        break;
    default: /* integers (narrowed to their low bytes when external32 is smaller), floats */
        reverse(dst, src, ext < size ? ext : size);
        break;
    }
}

static void from_external(const struct dt_type *basic, const unsigned char *src,
                          unsigned char *dst)
{
    const struct dt_basic *info = &dt_basic_info[dt_predefined_index(basic)];
    size_t size = (size_t)basic->size, ext = (size_t)info->layout.ext32_size;
    switch (info->cls) {
    case DT_CLASS_PAIR: {
        const struct dt_type *first = &dt_predefined_types[info->first_index];
        from_external(first, src, dst);
        from_external(&dt_predefined_types[info->second_index],
                      src + dt_basic_info[info->first_index].layout.ext32_size,
                      dst + info->pair_second_offset);
        break;
    }
    case DT_CLASS_LONG_DOUBLE:
        quad_to_long_double(dst, src);
        break;
    case DT_CLASS_LONG_DOUBLE_COMPLEX:
        quad_to_long_double(dst, src);
        quad_to_long_double(dst + 16, src + 16);
        break;
    case DT_CLASS_COMPLEX:
        reverse(dst, src, size / 2);
        reverse(dst + size / 2, src + size / 2, size / 2);
        break;
    case DT_CLASS_BYTES:
        memcpy(dst, src, size);
        break;
    default:
        if (ext < size) { /* widen: sign- or zero-extend */
            int negative = info->cls == DT_CLASS_SIGNED && (src[0] & 0x80);
            memset(dst + ext, negative ? 0xff : 0, size - ext);
        }
        reverse(dst, src, ext < size ? ext : size);
        break;
    }
}

struct convert {
    uintptr_t base;
    unsigned char *packed;
    int to_external;
};

static int convert_leaf(void *ctx, const struct dt_type *basic, MPI_Aint disp, MPI_Count n)
{
    struct convert *c = ctx;
    size_t ext = (size_t)dt_basic_info[dt_predefined_index(basic)].layout.ext32_size;
    for (MPI_Count i = 0; i < n; i++) {
        unsigned char *typed =
            (unsigned char *)(c->base + (uintptr_t)(disp + (MPI_Aint)i * basic->extent));
        if (c->to_external)
            to_external(basic, typed, c->packed);
        else
            from_external(basic, c->packed, typed);
        c->packed += ext;
    }
    return 0;
}

MPI_Count dt_external32_size(const struct dt_type *type, MPI_Count count)
{
    return dt_layout_of(type)->ext32_size * count;
}

void dt_pack_external32(const struct dt_type *type, const void *buf, MPI_Count count, void *dst)
{
    struct convert c = {(uintptr_t)buf, dst, 1};
    for (MPI_Count i = 0; i < count; i++)
        dt_walk_leaves(type, (MPI_Aint)i * type->extent, convert_leaf, &c);
}

void dt_unpack_external32(const struct dt_type *type, void *buf, MPI_Count count,
                          const void *src)
{
    struct convert c = {(uintptr_t)buf, (unsigned char *)(uintptr_t)src, 0};
    for (MPI_Count i = 0; i < count; i++)
        dt_walk_leaves(type, (MPI_Aint)i * type->extent, convert_leaf, &c);
}

struct all_basic {
    dt_basic_pred *pred;
    void *ctx;
};

static int check_leaf(void *ctx, const struct dt_type *basic, MPI_Aint disp, MPI_Count n)
{
    (void)disp;
    struct all_basic *a = ctx;
    return n > 0 && !a->pred(a->ctx, basic); /* nonzero stops the walk */
}

int dt_all_basic(const struct dt_type *type, dt_basic_pred *pred, void *ctx)
{
    struct all_basic a = {pred, ctx};
    return dt_walk_leaves(type, 0, check_leaf, &a) == 0;
}
