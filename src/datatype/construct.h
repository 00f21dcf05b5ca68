/* construct.h - the datatype layer's interface for the API layer (src/mpi/datatype.c): type
 * constructors on checked, normalized arguments (counts as MPI_Count, displacements in bytes),
 * commit, envelope/contents, names and the external32 representation. Every function returns
 * an MPI error class; new types come back with one reference (the user's handle), uncommitted. */
#ifndef NODEMPI_DATATYPE_CONSTRUCT_H
#define NODEMPI_DATATYPE_CONSTRUCT_H

#include "datatype/datatype.h"

int dt_create_contiguous(MPI_Count count, struct dt_type *oldtype, struct dt_type **out);
/* stride in bytes (MPI_Type_vector passes stride * extent of oldtype). */
int dt_create_vector(MPI_Count count, MPI_Count blocklen, MPI_Aint stride,
                     struct dt_type *oldtype, struct dt_type **out);
/* blocklens == NULL: every block has blocklen copies (the *_block constructors). */
int dt_create_indexed(MPI_Count count, const MPI_Count *blocklens, MPI_Count blocklen,
                      const MPI_Aint *displs, struct dt_type *oldtype, struct dt_type **out);
int dt_create_struct(MPI_Count count, const MPI_Count *blocklens, const MPI_Aint *displs,
                     struct dt_type *const *types, struct dt_type **out);
int dt_create_resized(struct dt_type *oldtype, MPI_Aint lb, MPI_Aint extent,
                      struct dt_type **out);
/* Same type map and committed state (MPI_Type_dup). */
int dt_create_dup(struct dt_type *oldtype, struct dt_type **out);
/* order: MPI_ORDER_C or MPI_ORDER_FORTRAN; arguments already checked for consistency. */
int dt_create_subarray(int ndims, const MPI_Count *sizes, const MPI_Count *subsizes,
                       const MPI_Count *starts, int order, struct dt_type *oldtype,
                       struct dt_type **out);
/* MPI_ERR_ARG when a block distribution's darg is too small to cover the array. */
int dt_create_darray(int size, int rank, int ndims, const MPI_Count *gsizes,
                     const int *distribs, const int *dargs, const int *psizes, int order,
                     struct dt_type *oldtype, struct dt_type **out);

/* Record the arguments MPI_Type_get_contents returns (copied; types retained). */
int dt_set_contents(struct dt_type *type, int combiner, MPI_Count nints, const int *ints,
                    MPI_Count naddrs, const MPI_Aint *addrs, MPI_Count ncounts,
                    const MPI_Count *counts, MPI_Count ntypes, const MPI_Datatype *types);
/* Predefined types report MPI_COMBINER_NAMED and no arguments. */
void dt_get_envelope(const struct dt_type *type, MPI_Count *nints, MPI_Count *naddrs,
                     MPI_Count *ncounts, MPI_Count *ntypes, int *combiner);
/* Copies the stored arguments; each returned derived type gains a reference (the caller's new
 * handle). The arrays must have room for the envelope's numbers. */
void dt_get_contents(const struct dt_type *type, int *ints, MPI_Aint *addrs, MPI_Count *counts,
                     MPI_Datatype *types);

int dt_commit(struct dt_type *type);

/* Names: set truncates to MPI_MAX_OBJECT_NAME - 1 characters. */
void dt_set_name(struct dt_type *type, const char *name);

/* MPI_LB or MPI_UB when type is that bound marker (src/datatype/markers.c, an MPI-1 name kept
 * as a nodempi extension), else MPI_DATATYPE_NULL. */
MPI_Datatype dt_marker_handle(const struct dt_type *type);

/* MPI_Type_match_size: a predefined type of the class and size, or NULL. */
struct dt_type *dt_match_size(int typeclass, int size);
/* MPI_Type_create_f90_integer/real/complex: combiner MPI_COMBINER_F90_INTEGER (r only) or
 * _REAL/_COMPLEX; p or r may be MPI_UNDEFINED (not both: MPI_ERR_ARG). The type is made once
 * per (combiner, p, r), acts as predefined (type->permanent) and reports the combiner and p, r
 * to MPI_Type_get_envelope/contents. MPI_ERR_ARG when no predefined type fits. */
int dt_f90_type(int combiner, int p, int r, struct dt_type **out);
/* MPI_Type_get_value_index: the predefined pair type, or NULL (MPI_DATATYPE_NULL). */
struct dt_type *dt_value_index(const struct dt_type *value, const struct dt_type *index);

/* "external32": big-endian, standard sizes (MPI-4.1 section 13.5.2). */
MPI_Count dt_external32_size(const struct dt_type *type, MPI_Count count);
/* 1 when pred holds for every basic type of type's map (asked once per run of copies), else 0:
 * how a file view checks a user data representation's extents (src/io/datarep.c). */
typedef int dt_basic_pred(void *ctx, const struct dt_type *basic);
int dt_all_basic(const struct dt_type *type, dt_basic_pred *pred, void *ctx);
void dt_pack_external32(const struct dt_type *type, const void *buf, MPI_Count count, void *dst);
void dt_unpack_external32(const struct dt_type *type, void *buf, MPI_Count count,
                          const void *src);

#endif
