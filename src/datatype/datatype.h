/* datatype.h - the datatype layer's contract: type objects, handle conversion, and the three
 * ways upper layers move typed data: contiguous check, pack/unpack of a byte range of the packed
 * stream, and iovecs of that range (for CMA). Byte positions refer to the packed stream of
 * `count` elements, so transfers can be split into fragments anywhere. */
#ifndef NODEMPI_DATATYPE_H
#define NODEMPI_DATATYPE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/uio.h>

#include <mpi.h>

/* Element kinds the reduction code understands. A type whose type map holds one kind only
 * (e.g. a vector of doubles) reports it in dt_type.element, else DT_ELEMENT_MIXED. */
enum dt_element {
    DT_ELEMENT_MIXED = 0,
    DT_ELEMENT_INT8, DT_ELEMENT_UINT8, DT_ELEMENT_INT16, DT_ELEMENT_UINT16,
    DT_ELEMENT_INT32, DT_ELEMENT_UINT32, DT_ELEMENT_INT64, DT_ELEMENT_UINT64,
    DT_ELEMENT_FLOAT, DT_ELEMENT_DOUBLE, DT_ELEMENT_LONG_DOUBLE,
    DT_ELEMENT_C_FLOAT_COMPLEX, DT_ELEMENT_C_DOUBLE_COMPLEX, DT_ELEMENT_C_LONG_DOUBLE_COMPLEX,
    DT_ELEMENT_BOOL,        /* C _Bool / C++ bool (1 byte) */
    DT_ELEMENT_CHAR,        /* MPI_CHARACTER: no arithmetic defined */
    DT_ELEMENT_BYTE,        /* MPI_BYTE, MPI_PACKED: bitwise ops only */
    DT_ELEMENT_WCHAR,
    DT_ELEMENT_FLOAT_INT, DT_ELEMENT_DOUBLE_INT, DT_ELEMENT_LONG_INT, DT_ELEMENT_2INT,
    DT_ELEMENT_SHORT_INT, DT_ELEMENT_LONG_DOUBLE_INT, DT_ELEMENT_2FLOAT, DT_ELEMENT_2DOUBLE,
    DT_ELEMENT_2INT64,
    DT_ELEMENT_COUNT
};

/* One contiguous piece of a type map, relative to the buffer pointer. */
struct dt_block {
    MPI_Aint offset;
    MPI_Count length;
};

struct dt_type {
    int predefined;           /* 1 for the table of predefined types (never freed) */
    int permanent;            /* derived object that acts as predefined (the F90 types of
                               * src/datatype/f90.c): no reference counting, not user-freeable */
    int committed;
    int refcount;             /* user handle + requests/derived types that use it */
    MPI_Count size;           /* bytes of data in one element */
    MPI_Aint lb, extent;      /* as MPI defines them (with resized/marker adjustments) */
    MPI_Aint true_lb, true_extent;
    int contiguous;           /* one element is size bytes at true_lb, and extent == size */
    enum dt_element element;  /* homogeneous element kind, or DT_ELEMENT_MIXED */
    MPI_Count element_count;  /* basic elements in one element of this type (Get_elements;
                               * a pair such as MPI_DOUBLE_INT counts as 2) */
    MPI_Count element_size;   /* bytes of one basic element when homogeneous, else 0; for the
                               * pair kinds: sizeof the C pair struct (its stride in arrays) */
    size_t nblocks;           /* the compiled type map of one element (merged blocks) */
    struct dt_block *blocks;  /* NULL when nblocks > 2^20: then use dt_for_each_block */
    char name[MPI_MAX_OBJECT_NAME];
    void *layer_private;      /* constructor arguments, attributes: owned by src/datatype */
    void *attributes;         /* owned by the attribute code (MPI_Type_set_attr); see below */
};

/* Predefined handles are 0x200..0x2ff in the MPI-5.0 ABI; the table is indexed by value - 0x200
 * (entries the ABI leaves unused have predefined == 0). */
#define DT_PREDEFINED_BASE 0x200u
#define DT_PREDEFINED_COUNT 0x100u
extern struct dt_type dt_predefined_types[DT_PREDEFINED_COUNT];

/* Handle <-> object. dt_from_handle returns NULL for MPI_DATATYPE_NULL and invalid handles.
 * Inline for predefined types (every typed call converts one: a call measured 15 instructions
 * of the 8-byte MPI_Send's ~240); dt_from_handle_other does the rest. */
struct dt_type *dt_from_handle_other(MPI_Datatype handle);
static inline struct dt_type *dt_from_handle(MPI_Datatype handle)
{
    uintptr_t index = (uintptr_t)handle - DT_PREDEFINED_BASE; /* wraps for handles below */
    if (index < DT_PREDEFINED_COUNT && dt_predefined_types[index].predefined)
        return &dt_predefined_types[index];
    return dt_from_handle_other(handle);
}
MPI_Datatype dt_to_handle(const struct dt_type *type);

/* Reference counting so a type freed by the user stays alive while a request uses it (or a
 * type built from it). Predefined and permanent types are not counted: inline for those, as
 * every typed request takes and drops a reference; the counted cases are out of line. */
void dt_retain_counted(struct dt_type *type);
void dt_release_counted(struct dt_type *type);
static inline void dt_retain(struct dt_type *type)
{
    if (!type->predefined && !type->permanent)
        dt_retain_counted(type);
}

static inline void dt_release(struct dt_type *type)
{
    if (!type->predefined && !type->permanent)
        dt_release_counted(type);
}

/* Bytes of data in count elements. */
static inline size_t dt_packed_size(const struct dt_type *type, MPI_Count count)
{
    return (size_t)(type->size * count);
}

/* True when count elements are one byte range starting at buf + true_lb. */
static inline int dt_is_contiguous(const struct dt_type *type, MPI_Count count)
{
    return type->contiguous || count == 0 || (count == 1 && type->nblocks <= 1);
}

/* Copy packed-stream bytes [position, position + len) of (buf, count, type) into dst, or
 * from src into the typed buffer. len may end mid-element; both return len. */
size_t dt_pack_range(const struct dt_type *type, const void *buf, MPI_Count count,
                     size_t position, void *dst, size_t len);
size_t dt_unpack_range(const struct dt_type *type, void *buf, MPI_Count count, size_t position,
                       const void *src, size_t len);

/* Fill at most max_iov iovecs covering packed-stream bytes from position on (merging adjacent
 * blocks); returns the number filled and sets *covered to the bytes they span. */
int dt_iovec_range(const struct dt_type *type, const void *buf, MPI_Count count,
                   size_t position, struct iovec *iov, int max_iov, size_t *covered);

/* Every block of count elements in type-map order (offsets relative to the buffer), whether
 * or not type->blocks is kept; stops early when fn returns nonzero (and returns that). */
typedef int dt_block_fn(void *ctx, MPI_Aint offset, MPI_Count length);
int dt_for_each_block(const struct dt_type *type, MPI_Count count, dt_block_fn *fn, void *ctx);

/* Visit the basic (predefined) types of one element of type in type-map order: fn gets the
 * basic type, the displacement of the first of `n` consecutive copies (stride: its extent).
 * A nonzero return from fn stops the walk and is returned. (mpi_f08's array sections map a
 * type's basic elements onto array elements with it: src/fortran/f08_section.c.) */
typedef int dt_leaf_fn(void *ctx, const struct dt_type *basic, MPI_Aint disp, MPI_Count n);
int dt_walk_leaves(const struct dt_type *type, MPI_Aint disp, dt_leaf_fn *fn, void *ctx);

/* Basic elements (MPI_Get_elements) in `bytes` of packed data of type: *elements is
 * MPI_UNDEFINED when the bytes end inside a basic element. A pair type (MPI_DOUBLE_INT...)
 * counts as two basic elements. dt_elements_to_bytes is the inverse (MPI_Status_set_elements):
 * MPI_ERR_ARG when `elements` does not end on a basic element boundary of the type map. */
void dt_get_elements(const struct dt_type *type, MPI_Count bytes, MPI_Count *elements);
int dt_elements_to_bytes(const struct dt_type *type, MPI_Count elements, MPI_Count *bytes);

/* Attribute hooks, defined (weakly referenced here) by the attribute code: MPI_Type_free calls
 * the delete hook when type->attributes is non-NULL, MPI_Type_dup the copy hook. */
int core_attr_type_delete_all(struct dt_type *type) __attribute__((weak));
int core_attr_type_copy_all(struct dt_type *oldtype, struct dt_type *newtype)
    __attribute__((weak));

/* Startup and teardown of the predefined table and type bookkeeping. */
int dt_init(void);
void dt_finalize(void);

#endif
