/* internal.h - private to src/datatype: the heap object behind a derived datatype handle, the
 * table of predefined types, the bookkeeping that composing types needs beyond struct dt_type
 * (bound markers, alignment, external32 size), and helpers shared by the files of this layer.
 * Nothing outside src/datatype includes this header; other layers use datatype.h/construct.h. */
#ifndef NODEMPI_DATATYPE_INTERNAL_H
#define NODEMPI_DATATYPE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "datatype/datatype.h"

/* First word of every derived type object: a handle whose object lacks it is not a datatype
 * (garbage, another kind of handle, or a freed type). */
#define DT_MAGIC UINT64_C(0x6e6f64656d706974)

/* How composing a type with others sees it (MPI-4.1 section 5.1.7): lb/ub markers left by
 * MPI_Type_create_resized stick to every type built from it, and a type map without an ub
 * marker has its extent rounded up to its largest alignment. */
struct dt_layout {
    MPI_Aint lb_marker, ub_marker;
    unsigned char has_lb_marker, has_ub_marker;
    unsigned char align;          /* largest alignment of a basic type in the type map */
    MPI_Count ext32_size;         /* bytes of one element in the "external32" representation */
};

/* Conversion classes of basic types, for external32 and partial-element counting. */
enum dt_class {
    DT_CLASS_SIGNED,       /* two's complement integers, Fortran LOGICALs */
    DT_CLASS_UNSIGNED,
    DT_CLASS_FLOAT,        /* IEEE binary32/binary64 (and opaque REAL2/REAL16 of the same size) */
    DT_CLASS_LONG_DOUBLE,  /* C long double (x87 extended on x86_64), external32: binary128 */
    DT_CLASS_COMPLEX,      /* two components of size/2 bytes, each swapped */
    DT_CLASS_LONG_DOUBLE_COMPLEX,
    DT_CLASS_BYTES,        /* char, byte, bool: copied */
    DT_CLASS_PAIR,         /* value-index pairs: first and second are basic types */
};

/* The block list run-length encoded for the copy loops: `count` blocks of `length` bytes, the
 * k-th at offset + k * stride. A vector is one run whatever its count, so packing reads no
 * per-block metadata. */
struct dt_run {
    MPI_Aint offset;
    MPI_Aint stride;
    MPI_Count length;
    MPI_Count count;
};

/* Runs of one element, followed in the same allocation by nruns + 1 packed positions. */
struct dt_runs {
    size_t n;
    struct dt_run *run;
};

/* Per predefined type: what struct dt_type does not hold. */
struct dt_basic {
    struct dt_layout layout;
    struct dt_runs runs;
    enum dt_class cls;
    int pair_second_offset;       /* pairs: offset of the index (second) field */
    unsigned char first_index;    /* pairs: table index of the value (first) type */
    unsigned char second_index;   /* pairs: table index of the second type */
};

extern struct dt_basic dt_basic_info[DT_PREDEFINED_COUNT];

/* How a derived type is made from others; subarray and darray are built from these. */
enum dt_kind {
    DT_KIND_CONTIGUOUS,   /* count copies of child */
    DT_KIND_VECTOR,       /* count blocks of blocklen copies of child, block i at i * stride */
    DT_KIND_INDEXED,      /* count blocks of blocklens[i] (or blocklen) copies at displs[i] */
    DT_KIND_STRUCT,       /* like indexed, each block with its own children[i] */
    DT_KIND_RESIZED,      /* child with new lb/ub markers */
    DT_KIND_WRAP,         /* exactly child (dup, subarray, darray) */
};

/* Constructor arguments as MPI_Type_get_contents returns them. */
struct dt_contents {
    int combiner;
    MPI_Count nints, naddrs, ncounts, ntypes;
    int *ints;
    MPI_Aint *addrs;
    MPI_Count *counts;
    MPI_Datatype *types;          /* each retained */
};

struct dt_derived {
    uint64_t magic;
    struct dt_type type;          /* the handle points here */
    struct dt_layout layout;
    struct dt_runs runs;          /* set by commit */
    enum dt_kind kind;
    MPI_Count count;
    MPI_Count blocklen;           /* vector; indexed when blocklens == NULL */
    MPI_Aint stride;              /* vector, bytes */
    MPI_Count *blocklens;         /* indexed, struct */
    MPI_Aint *displs;             /* indexed, struct: bytes */
    struct dt_type *child;        /* all kinds but struct; retained */
    struct dt_type **children;    /* struct; each retained */
    struct dt_contents contents;
};

static inline int dt_predefined_index(const struct dt_type *type)
{
    return (int)(type - dt_predefined_types);
}

static inline struct dt_derived *dt_derived_of(const struct dt_type *type)
{
    return (struct dt_derived *)((char *)type - offsetof(struct dt_derived, type));
}

static inline const struct dt_layout *dt_layout_of(const struct dt_type *type)
{
    if (type->predefined)
        return &dt_basic_info[dt_predefined_index(type)].layout;
    return &dt_derived_of(type)->layout;
}

static inline const struct dt_runs *dt_runs_of(const struct dt_type *type)
{
    if (type->predefined)
        return &dt_basic_info[dt_predefined_index(type)].runs;
    return &dt_derived_of(type)->runs;
}

static inline const MPI_Count *dt_run_positions(const struct dt_runs *runs)
{
    return (const MPI_Count *)(runs->run + runs->n);
}

/* Runs of a predefined type from its blocks (MPI_ERR_NO_MEM) / free runs. */
int dt_build_runs(const struct dt_type *type, struct dt_runs *runs);
void dt_free_runs(struct dt_runs *runs);
/* Free a derived type object now, whatever its reference count (dt_release's last step; the
 * F90 types' teardown at dt_finalize). */
void dt_destroy_derived(struct dt_type *type);
/* markers.c: make (at dt_init) and free the MPI_LB / MPI_UB objects; the object of either
 * handle, NULL for any other value. */
int dt_markers_init(void);
void dt_markers_finalize(void);
struct dt_type *dt_marker_from_handle(MPI_Datatype handle);
/* f90.c: free the cached MPI_Type_create_f90_* types (at dt_finalize). */
void dt_f90_finalize(void);

/* Wrap a type built internally (subarray, darray) so the user's type reports its own combiner;
 * takes over the reference to built. */
int dt_wrap_built(struct dt_type *built, struct dt_type **out);

/* Compile type (and, first, the types it is made of) into runs, plus the flat block list when
 * it has at most 2^20 blocks; MPI_SUCCESS or MPI_ERR_NO_MEM. Idempotent. */
int dt_compile(struct dt_type *type);
struct dt_block *dt_alloc_blocks(size_t n);
void dt_free_blocks(struct dt_type *type);

#endif
