/* predefined.c - the table of predefined datatypes (every one of the MPI-5.0 ABI list), indexed
 * by ABI handle value - 0x200, and handle <-> object conversion for all types. Sizes, extents
 * and alignments come from the C compiler (sizeof/offsetof/_Alignof of the real C types and
 * pair structs), so the table is right on any LP64 target. Fortran-named types take the sizes
 * of their usual C counterparts. Must not allocate anything per call: dt_from_handle is on
 * every typed MPI call. */
#include <complex.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "datatype/construct.h"
#include "datatype/internal.h"

struct dt_type dt_predefined_types[DT_PREDEFINED_COUNT];
struct dt_basic dt_basic_info[DT_PREDEFINED_COUNT];

/* The C layouts of the value-index pairs (MPI-4.1 section 6.9.4). */
struct dt_float_int { float value; int index; };
struct dt_double_int { double value; int index; };
struct dt_long_int { long value; int index; };
struct dt_2int { int value; int index; };
struct dt_short_int { short value; int index; };
struct dt_long_double_int { long double value; int index; };
struct dt_2float { float value; float index; };
struct dt_2double { double value; double index; };

struct dt_basic_desc {
    MPI_Datatype handle;
    const char *name;
    MPI_Count size;
    int align;
    enum dt_class cls;
    int ext32_size;
    enum dt_element element;      /* DT_ELEMENT_COUNT: derive from class and size */
    MPI_Datatype first, second;   /* pairs */
    int second_offset;
    MPI_Aint extent;              /* pairs: sizeof the struct; others: size */
};

#define DT_C(h, name, ctype, cls, ext32) \
    { h, name, sizeof(ctype), _Alignof(ctype), cls, ext32, DT_ELEMENT_COUNT, 0, 0, 0, 0 }
/* Types without a C counterpart here (REAL2, REAL16, INTEGER16...): explicit size. */
#define DT_SIZED(h, name, size, align, cls, element) \
    { h, name, size, align, cls, size, element, 0, 0, 0, 0 }
#define DT_PAIR(h, name, ctype, first, second, element, ext32)                            \
    { h, name, 0, _Alignof(ctype), DT_CLASS_PAIR, ext32, element, first, second,           \
      offsetof(ctype, index), sizeof(ctype) }

static const struct dt_basic_desc basic_descs[] = {
    DT_C(MPI_AINT, "MPI_AINT", MPI_Aint, DT_CLASS_SIGNED, 8),
    DT_C(MPI_COUNT, "MPI_COUNT", MPI_Count, DT_CLASS_SIGNED, 8),
    DT_C(MPI_OFFSET, "MPI_OFFSET", MPI_Offset, DT_CLASS_SIGNED, 8),
    DT_C(MPI_PACKED, "MPI_PACKED", unsigned char, DT_CLASS_BYTES, 1),
    DT_C(MPI_SHORT, "MPI_SHORT", short, DT_CLASS_SIGNED, 2),
    DT_C(MPI_INT, "MPI_INT", int, DT_CLASS_SIGNED, 4),
    DT_C(MPI_LONG, "MPI_LONG", long, DT_CLASS_SIGNED, 4),
    DT_C(MPI_LONG_LONG, "MPI_LONG_LONG_INT", long long, DT_CLASS_SIGNED, 8),
    DT_C(MPI_UNSIGNED_SHORT, "MPI_UNSIGNED_SHORT", unsigned short, DT_CLASS_UNSIGNED, 2),
    DT_C(MPI_UNSIGNED, "MPI_UNSIGNED", unsigned, DT_CLASS_UNSIGNED, 4),
    DT_C(MPI_UNSIGNED_LONG, "MPI_UNSIGNED_LONG", unsigned long, DT_CLASS_UNSIGNED, 4),
    DT_C(MPI_UNSIGNED_LONG_LONG, "MPI_UNSIGNED_LONG_LONG", unsigned long long,
         DT_CLASS_UNSIGNED, 8),
    DT_C(MPI_FLOAT, "MPI_FLOAT", float, DT_CLASS_FLOAT, 4),
    DT_C(MPI_C_FLOAT_COMPLEX, "MPI_C_FLOAT_COMPLEX", float _Complex, DT_CLASS_COMPLEX, 8),
    DT_C(MPI_CXX_FLOAT_COMPLEX, "MPI_CXX_FLOAT_COMPLEX", float _Complex, DT_CLASS_COMPLEX, 8),
    DT_C(MPI_DOUBLE, "MPI_DOUBLE", double, DT_CLASS_FLOAT, 8),
    DT_C(MPI_C_DOUBLE_COMPLEX, "MPI_C_DOUBLE_COMPLEX", double _Complex, DT_CLASS_COMPLEX, 16),
    DT_C(MPI_CXX_DOUBLE_COMPLEX, "MPI_CXX_DOUBLE_COMPLEX", double _Complex, DT_CLASS_COMPLEX,
         16),
    DT_C(MPI_LOGICAL, "MPI_LOGICAL", int, DT_CLASS_SIGNED, 4),
    DT_C(MPI_INTEGER, "MPI_INTEGER", int, DT_CLASS_SIGNED, 4),
    DT_C(MPI_REAL, "MPI_REAL", float, DT_CLASS_FLOAT, 4),
    DT_C(MPI_COMPLEX, "MPI_COMPLEX", float _Complex, DT_CLASS_COMPLEX, 8),
    DT_C(MPI_DOUBLE_PRECISION, "MPI_DOUBLE_PRECISION", double, DT_CLASS_FLOAT, 8),
    DT_C(MPI_DOUBLE_COMPLEX, "MPI_DOUBLE_COMPLEX", double _Complex, DT_CLASS_COMPLEX, 16),
    DT_C(MPI_CHARACTER, "MPI_CHARACTER", char, DT_CLASS_BYTES, 1),
    DT_C(MPI_LONG_DOUBLE, "MPI_LONG_DOUBLE", long double, DT_CLASS_LONG_DOUBLE, 16),
    DT_C(MPI_C_LONG_DOUBLE_COMPLEX, "MPI_C_LONG_DOUBLE_COMPLEX", long double _Complex,
         DT_CLASS_LONG_DOUBLE_COMPLEX, 32),
    DT_C(MPI_CXX_LONG_DOUBLE_COMPLEX, "MPI_CXX_LONG_DOUBLE_COMPLEX", long double _Complex,
         DT_CLASS_LONG_DOUBLE_COMPLEX, 32),
    DT_PAIR(MPI_FLOAT_INT, "MPI_FLOAT_INT", struct dt_float_int, MPI_FLOAT, MPI_INT,
            DT_ELEMENT_FLOAT_INT, 8),
    DT_PAIR(MPI_DOUBLE_INT, "MPI_DOUBLE_INT", struct dt_double_int, MPI_DOUBLE, MPI_INT,
            DT_ELEMENT_DOUBLE_INT, 12),
    DT_PAIR(MPI_LONG_INT, "MPI_LONG_INT", struct dt_long_int, MPI_LONG, MPI_INT,
            DT_ELEMENT_LONG_INT, 8),
    DT_PAIR(MPI_2INT, "MPI_2INT", struct dt_2int, MPI_INT, MPI_INT, DT_ELEMENT_2INT, 8),
    DT_PAIR(MPI_SHORT_INT, "MPI_SHORT_INT", struct dt_short_int, MPI_SHORT, MPI_INT,
            DT_ELEMENT_SHORT_INT, 6),
    DT_PAIR(MPI_LONG_DOUBLE_INT, "MPI_LONG_DOUBLE_INT", struct dt_long_double_int,
            MPI_LONG_DOUBLE, MPI_INT, DT_ELEMENT_LONG_DOUBLE_INT, 20),
    DT_PAIR(MPI_2REAL, "MPI_2REAL", struct dt_2float, MPI_REAL, MPI_REAL, DT_ELEMENT_2FLOAT,
            8),
    DT_PAIR(MPI_2DOUBLE_PRECISION, "MPI_2DOUBLE_PRECISION", struct dt_2double,
            MPI_DOUBLE_PRECISION, MPI_DOUBLE_PRECISION, DT_ELEMENT_2DOUBLE, 16),
    DT_PAIR(MPI_2INTEGER, "MPI_2INTEGER", struct dt_2int, MPI_INTEGER, MPI_INTEGER,
            DT_ELEMENT_2INT, 8),
    DT_C(MPI_C_BOOL, "MPI_C_BOOL", _Bool, DT_CLASS_BYTES, 1),
    DT_C(MPI_CXX_BOOL, "MPI_CXX_BOOL", _Bool, DT_CLASS_BYTES, 1),
    /* external32 wide characters are 2 bytes (MPI-4.1 table 13.2). */
    DT_C(MPI_WCHAR, "MPI_WCHAR", wchar_t, DT_CLASS_UNSIGNED, 2),
    DT_C(MPI_INT8_T, "MPI_INT8_T", int8_t, DT_CLASS_SIGNED, 1),
    DT_C(MPI_UINT8_T, "MPI_UINT8_T", uint8_t, DT_CLASS_UNSIGNED, 1),
    DT_C(MPI_CHAR, "MPI_CHAR", char, DT_CLASS_BYTES, 1),
    DT_C(MPI_SIGNED_CHAR, "MPI_SIGNED_CHAR", signed char, DT_CLASS_SIGNED, 1),
    DT_C(MPI_UNSIGNED_CHAR, "MPI_UNSIGNED_CHAR", unsigned char, DT_CLASS_UNSIGNED, 1),
    DT_C(MPI_BYTE, "MPI_BYTE", unsigned char, DT_CLASS_BYTES, 1),
    DT_C(MPI_INT16_T, "MPI_INT16_T", int16_t, DT_CLASS_SIGNED, 2),
    DT_C(MPI_UINT16_T, "MPI_UINT16_T", uint16_t, DT_CLASS_UNSIGNED, 2),
    DT_C(MPI_INT32_T, "MPI_INT32_T", int32_t, DT_CLASS_SIGNED, 4),
    DT_C(MPI_UINT32_T, "MPI_UINT32_T", uint32_t, DT_CLASS_UNSIGNED, 4),
    DT_C(MPI_INT64_T, "MPI_INT64_T", int64_t, DT_CLASS_SIGNED, 8),
    DT_C(MPI_UINT64_T, "MPI_UINT64_T", uint64_t, DT_CLASS_UNSIGNED, 8),
    DT_C(MPI_LOGICAL1, "MPI_LOGICAL1", int8_t, DT_CLASS_SIGNED, 1),
    DT_C(MPI_INTEGER1, "MPI_INTEGER1", int8_t, DT_CLASS_SIGNED, 1),
    DT_C(MPI_LOGICAL2, "MPI_LOGICAL2", int16_t, DT_CLASS_SIGNED, 2),
    DT_C(MPI_INTEGER2, "MPI_INTEGER2", int16_t, DT_CLASS_SIGNED, 2),
    /* Half precision: no arithmetic here, so reductions reject it (DT_ELEMENT_MIXED). */
    DT_SIZED(MPI_REAL2, "MPI_REAL2", 2, 2, DT_CLASS_FLOAT, DT_ELEMENT_MIXED),
    DT_C(MPI_LOGICAL4, "MPI_LOGICAL4", int32_t, DT_CLASS_SIGNED, 4),
    DT_C(MPI_INTEGER4, "MPI_INTEGER4", int32_t, DT_CLASS_SIGNED, 4),
    DT_C(MPI_REAL4, "MPI_REAL4", float, DT_CLASS_FLOAT, 4),
    DT_SIZED(MPI_COMPLEX4, "MPI_COMPLEX4", 4, 2, DT_CLASS_COMPLEX, DT_ELEMENT_MIXED),
    DT_C(MPI_LOGICAL8, "MPI_LOGICAL8", int64_t, DT_CLASS_SIGNED, 8),
    DT_C(MPI_INTEGER8, "MPI_INTEGER8", int64_t, DT_CLASS_SIGNED, 8),
    DT_C(MPI_REAL8, "MPI_REAL8", double, DT_CLASS_FLOAT, 8),
    DT_C(MPI_COMPLEX8, "MPI_COMPLEX8", float _Complex, DT_CLASS_COMPLEX, 8),
    DT_SIZED(MPI_LOGICAL16, "MPI_LOGICAL16", 16, 16, DT_CLASS_SIGNED, DT_ELEMENT_MIXED),
    DT_SIZED(MPI_INTEGER16, "MPI_INTEGER16", 16, 16, DT_CLASS_SIGNED, DT_ELEMENT_MIXED),
    /* REAL16 is IEEE binary128 (not the x87 long double): no arithmetic for it here. */
    DT_SIZED(MPI_REAL16, "MPI_REAL16", 16, 16, DT_CLASS_FLOAT, DT_ELEMENT_MIXED),
    DT_C(MPI_COMPLEX16, "MPI_COMPLEX16", double _Complex, DT_CLASS_COMPLEX, 16),
    DT_SIZED(MPI_COMPLEX32, "MPI_COMPLEX32", 32, 16, DT_CLASS_COMPLEX, DT_ELEMENT_MIXED),
};

static unsigned table_index(MPI_Datatype handle)
{
    return (unsigned)((uintptr_t)handle - DT_PREDEFINED_BASE);
}

static enum dt_element int_element(MPI_Count size, int is_signed)
{
    switch (size) {
    case 1: return is_signed ? DT_ELEMENT_INT8 : DT_ELEMENT_UINT8;
    case 2: return is_signed ? DT_ELEMENT_INT16 : DT_ELEMENT_UINT16;
    case 4: return is_signed ? DT_ELEMENT_INT32 : DT_ELEMENT_UINT32;
    case 8: return is_signed ? DT_ELEMENT_INT64 : DT_ELEMENT_UINT64;
    default: return DT_ELEMENT_MIXED;
    }
}

/* The element kind reductions see, from the class and size (MPI_LONG is INT64 on LP64). */
static enum dt_element element_of(const struct dt_basic_desc *d)
{
    if (d->element != DT_ELEMENT_COUNT)
        return d->element;
    /* MPI-4.1 6.9.2 lists MPI_CHAR under no reduction group, so MPI_SUM on it is erroneous;
     * MPICH reduces it as the platform's char and programs (and MPICH's tests) rely on that:
     * so does nodempi. Fortran's MPI_CHARACTER stays without arithmetic. */
    if (d->handle == MPI_CHAR)
        return int_element(1, CHAR_MIN < 0);
    if (d->handle == MPI_CHARACTER)
        return DT_ELEMENT_CHAR;
    if (d->handle == MPI_BYTE || d->handle == MPI_PACKED)
        return DT_ELEMENT_BYTE;
    if (d->handle == MPI_C_BOOL || d->handle == MPI_CXX_BOOL)
        return DT_ELEMENT_BOOL;
    if (d->handle == MPI_WCHAR)
        return DT_ELEMENT_WCHAR;
    switch (d->cls) {
    case DT_CLASS_SIGNED: return int_element(d->size, 1);
    case DT_CLASS_UNSIGNED: return int_element(d->size, 0);
    case DT_CLASS_FLOAT: return d->size == 4 ? DT_ELEMENT_FLOAT : DT_ELEMENT_DOUBLE;
    case DT_CLASS_LONG_DOUBLE: return DT_ELEMENT_LONG_DOUBLE;
    case DT_CLASS_COMPLEX:
        return d->size == 8 ? DT_ELEMENT_C_FLOAT_COMPLEX : DT_ELEMENT_C_DOUBLE_COMPLEX;
    case DT_CLASS_LONG_DOUBLE_COMPLEX: return DT_ELEMENT_C_LONG_DOUBLE_COMPLEX;
    default: return DT_ELEMENT_MIXED;
    }
}

static int init_basic(const struct dt_basic_desc *d)
{
    unsigned i = table_index(d->handle);
    struct dt_type *t = &dt_predefined_types[i];
    struct dt_basic *info = &dt_basic_info[i];
    MPI_Count size = d->size;
    MPI_Aint extent = d->extent ? d->extent : (MPI_Aint)d->size;
    struct dt_type *first = NULL, *second = NULL;

    memset(t, 0, sizeof(*t));
    memset(info, 0, sizeof(*info));
    if (d->cls == DT_CLASS_PAIR) {
        first = &dt_predefined_types[table_index(d->first)];
        second = &dt_predefined_types[table_index(d->second)];
        size = first->size + second->size;
        info->first_index = (unsigned char)table_index(d->first);
        info->second_index = (unsigned char)table_index(d->second);
        info->pair_second_offset = d->second_offset;
    }
    /* Two blocks when padding separates the pair's fields (MPI_SHORT_INT), else one. */
    int two = first && d->second_offset != first->size;
    t->blocks = dt_alloc_blocks(two ? 2 : 1);
    if (!t->blocks)
        return MPI_ERR_NO_MEM;
    t->nblocks = two ? 2 : 1;
    t->blocks[0] = (struct dt_block){0, two ? first->size : size};
    if (two)
        t->blocks[1] = (struct dt_block){d->second_offset, second->size};

    t->predefined = 1;
    t->committed = 1;
    t->refcount = 1;
    t->size = size;
    t->lb = 0;
    t->extent = extent;
    t->true_lb = 0;
    t->true_extent = first ? d->second_offset + second->size : size;
    t->contiguous = (extent == size && !two);
    t->element = element_of(d);
    t->element_count = first ? 2 : 1;
    t->element_size = first ? extent : size;
    if (t->element == DT_ELEMENT_MIXED)
        t->element_size = 0;
    strncpy(t->name, d->name, sizeof(t->name) - 1);
    t->layer_private = info;

    if (dt_build_runs(t, &info->runs) != MPI_SUCCESS)
        return MPI_ERR_NO_MEM;
    info->cls = d->cls;
    info->layout.align = (unsigned char)d->align;
    info->layout.ext32_size = d->ext32_size;
    return MPI_SUCCESS;
}

int dt_init(void)
{
    if (dt_predefined_types[table_index(MPI_INT)].predefined)
        return MPI_SUCCESS;
    /* Pairs refer to their component types: fill those first (they come first in the list,
     * but a second pass makes the order irrelevant). */
    for (int pass = 0; pass < 2; pass++) {
        for (size_t i = 0; i < sizeof(basic_descs) / sizeof(basic_descs[0]); i++) {
            if ((basic_descs[i].cls == DT_CLASS_PAIR) != pass)
                continue;
            int err = init_basic(&basic_descs[i]);
            if (err != MPI_SUCCESS)
                return err;
        }
    }
    return dt_markers_init();
}

void dt_finalize(void)
{
    dt_f90_finalize();
    dt_markers_finalize();
    for (unsigned i = 0; i < DT_PREDEFINED_COUNT; i++) {
        if (dt_predefined_types[i].predefined) {
            dt_free_blocks(&dt_predefined_types[i]);
            dt_free_runs(&dt_basic_info[i].runs);
        }
        dt_predefined_types[i].predefined = 0;
    }
}

struct dt_type *dt_from_handle_other(MPI_Datatype handle)
{
    uintptr_t value = (uintptr_t)handle;
    if (value < 0x1000) /* not a predefined type (dt_from_handle looked) */
        return dt_marker_from_handle(handle); /* MPI_LB, MPI_UB (markers.c) or NULL */
    if (value % _Alignof(struct dt_derived))
        return NULL;
    struct dt_derived *d = dt_derived_of((struct dt_type *)handle);
    return d->magic == DT_MAGIC ? &d->type : NULL;
}

MPI_Datatype dt_to_handle(const struct dt_type *type)
{
    if (!type)
        return MPI_DATATYPE_NULL;
    if (type->predefined)
        return (MPI_Datatype)(uintptr_t)(DT_PREDEFINED_BASE + (unsigned)dt_predefined_index(type));
    if (type->permanent && dt_marker_handle(type) != MPI_DATATYPE_NULL)
        return dt_marker_handle(type);
    return (MPI_Datatype)type;
}

void dt_set_name(struct dt_type *type, const char *name)
{
    strncpy(type->name, name, sizeof(type->name) - 1);
    type->name[sizeof(type->name) - 1] = '\0';
}

static struct dt_type *predefined(MPI_Datatype handle)
{
    return &dt_predefined_types[table_index(handle)];
}

struct dt_type *dt_match_size(int typeclass, int size)
{
    /* Fortran-sized types, as MPI-4.1 section 19.1.9 suggests for TYPE_MATCH_SIZE. */
    static const MPI_Datatype integers[] = {MPI_INTEGER1, MPI_INTEGER2, MPI_INTEGER4,
                                            MPI_INTEGER8, MPI_INTEGER16};
    static const MPI_Datatype reals[] = {MPI_REAL2, MPI_REAL4, MPI_REAL8, MPI_REAL16};
    static const MPI_Datatype complexes[] = {MPI_COMPLEX4, MPI_COMPLEX8, MPI_COMPLEX16,
                                             MPI_COMPLEX32};
    const MPI_Datatype *list;
    size_t n;
    switch (typeclass) {
    case MPI_TYPECLASS_INTEGER: list = integers; n = 5; break;
    case MPI_TYPECLASS_REAL: list = reals; n = 4; break;
    case MPI_TYPECLASS_COMPLEX: list = complexes; n = 4; break;
    default: return NULL;
    }
    for (size_t i = 0; i < n; i++)
        if (predefined(list[i])->size == size)
            return predefined(list[i]);
    return NULL;
}

struct dt_type *dt_value_index(const struct dt_type *value, const struct dt_type *index)
{
    static const MPI_Datatype pairs[] = {MPI_FLOAT_INT, MPI_DOUBLE_INT, MPI_LONG_INT,
                                         MPI_2INT, MPI_SHORT_INT, MPI_LONG_DOUBLE_INT,
                                         MPI_2REAL, MPI_2DOUBLE_PRECISION, MPI_2INTEGER};
    if (!value->predefined || !index->predefined)
        return NULL;
    for (size_t i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
        const struct dt_basic *info = &dt_basic_info[table_index(pairs[i])];
        if (info->first_index == dt_predefined_index(value) &&
            info->second_index == dt_predefined_index(index))
            return predefined(pairs[i]);
    }
    return NULL;
}
