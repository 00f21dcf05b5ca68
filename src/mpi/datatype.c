/* datatype.c - API layer for datatypes: constructors (int and large-count `_c` forms), commit,
 * free, dup, size/extent queries, envelope/contents, names, match_size, value_index and the
 * MPI_Type_create_f90_* lookups.
 * Checks arguments in the standard's order and turns int arrays into the layer's MPI_Count /
 * byte-displacement form; the type objects themselves live in src/datatype. Errors without a
 * communicator go to MPI_COMM_SELF's handler (core_error_raise(NULL, ...)). */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "datatype/construct.h"
#include "mpi/api.h"
#include "mpi/legacy.h"

/* ---- argument checks ---- */

static int get_type(MPI_Datatype handle, struct dt_type **type, const char *function)
{
    *type = dt_from_handle(handle);
    if (*type)
        return MPI_SUCCESS;
    return core_error_raise(NULL, MPI_ERR_TYPE, function, "invalid datatype%s",
                            handle == MPI_DATATYPE_NULL ? " MPI_DATATYPE_NULL" : "");
}

static int check_count(MPI_Count count, const char *function)
{
    if (count >= 0)
        return MPI_SUCCESS;
    return core_error_raise(NULL, MPI_ERR_COUNT, function, "invalid count %lld",
                            (long long)count);
}

static int check_blocklen(MPI_Count blocklen, MPI_Count index, const char *function)
{
    if (blocklen >= 0)
        return MPI_SUCCESS;
    if (index < 0)
        return core_error_raise(NULL, MPI_ERR_ARG, function, "invalid blocklength %lld",
                                (long long)blocklen);
    return core_error_raise(NULL, MPI_ERR_ARG, function,
                            "invalid array_of_blocklengths[%lld] = %lld", (long long)index,
                            (long long)blocklen);
}

static int check_pointer(const void *pointer, const char *what, const char *function)
{
    if (pointer)
        return MPI_SUCCESS;
    return core_error_raise(NULL, MPI_ERR_ARG, function, "%s is NULL", what);
}

/* An array argument may be NULL only when it has no elements. */
static int check_array(const void *array, MPI_Count n, const char *what, const char *function)
{
    return n > 0 ? check_pointer(array, what, function) : MPI_SUCCESS;
}

static int no_memory(const char *function)
{
    return core_error_raise(NULL, MPI_ERR_NO_MEM, function, "out of memory");
}

/* Hand the new type to the user, or free it and raise. */
static int finish(int err, struct dt_type *type, MPI_Datatype *newtype, const char *function)
{
    if (err == MPI_SUCCESS) {
        *newtype = dt_to_handle(type);
        return MPI_SUCCESS;
    }
    if (type)
        dt_release(type);
    if (err == MPI_ERR_NO_MEM)
        return no_memory(function);
    return core_error_raise(NULL, err, function, "invalid arguments");
}

static MPI_Count *counts_of(const int *values, MPI_Count n)
{
    MPI_Count *c = malloc((size_t)(n > 0 ? n : 1) * sizeof(*c));
    for (MPI_Count i = 0; c && i < n; i++)
        c[i] = values[i];
    return c;
}

static MPI_Aint *displs_of(const int *ints, const MPI_Aint *aints, const MPI_Count *counts,
                           MPI_Count n, MPI_Aint scale)
{
    MPI_Aint *d = malloc((size_t)(n > 0 ? n : 1) * sizeof(*d));
    for (MPI_Count i = 0; d && i < n; i++)
        d[i] = (ints ? (MPI_Aint)ints[i] : aints ? aints[i] : (MPI_Aint)counts[i]) * scale;
    return d;
}

/* ---- contiguous, vector, hvector ---- */

static int type_contiguous(MPI_Count count, MPI_Datatype oldtype, MPI_Datatype *newtype,
                           int large, const char *function)
{
    struct dt_type *old, *type = NULL;
    int err, icount = (int)count;
    if ((err = mpi_check_initialized(function)) || (err = check_count(count, function)) ||
        (err = get_type(oldtype, &old, function)) ||
        (err = check_pointer(newtype, "newtype", function)))
        return err;
    err = dt_create_contiguous(count, old, &type);
    if (err == MPI_SUCCESS)
        err = dt_set_contents(type, MPI_COMBINER_CONTIGUOUS, !large, &icount, 0, NULL, large,
                              &count, 1, &oldtype);
    return finish(err, type, newtype, function);
}

int PMPI_Type_contiguous(int count, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return type_contiguous(count, oldtype, newtype, 0, "MPI_Type_contiguous");
}
#pragma weak MPI_Type_contiguous = PMPI_Type_contiguous

int PMPI_Type_contiguous_c(MPI_Count count, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return type_contiguous(count, oldtype, newtype, 1, "MPI_Type_contiguous_c");
}
#pragma weak MPI_Type_contiguous_c = PMPI_Type_contiguous_c

/* combiner: VECTOR (stride in elements) or HVECTOR (bytes). */
static int type_vector(MPI_Count count, MPI_Count blocklen, MPI_Count stride,
                       MPI_Datatype oldtype, MPI_Datatype *newtype, int combiner, int large,
                       const char *function)
{
    struct dt_type *old, *type = NULL;
    int err;
    if ((err = mpi_check_initialized(function)) || (err = check_count(count, function)) ||
        (err = check_blocklen(blocklen, -1, function)) ||
        (err = get_type(oldtype, &old, function)) ||
        (err = check_pointer(newtype, "newtype", function)))
        return err;
    MPI_Aint bytes = combiner == MPI_COMBINER_VECTOR ? (MPI_Aint)stride * old->extent
                                                     : (MPI_Aint)stride;
    err = dt_create_vector(count, blocklen, bytes, old, &type);
    if (err == MPI_SUCCESS && large) {
        MPI_Count counts[3] = {count, blocklen, stride};
        err = dt_set_contents(type, combiner, 0, NULL, 0, NULL, 3, counts, 1, &oldtype);
    } else if (err == MPI_SUCCESS) {
        int ints[3] = {(int)count, (int)blocklen, (int)stride};
        MPI_Aint addr = (MPI_Aint)stride;
        int vector = combiner == MPI_COMBINER_VECTOR;
        err = dt_set_contents(type, combiner, vector ? 3 : 2, ints, !vector, &addr, 0, NULL, 1,
                              &oldtype);
    }
    return finish(err, type, newtype, function);
}

int PMPI_Type_vector(int count, int blocklength, int stride, MPI_Datatype oldtype,
                     MPI_Datatype *newtype)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return type_vector(count, blocklength, stride, oldtype, newtype, MPI_COMBINER_VECTOR, 0,
                       "MPI_Type_vector");
}
#pragma weak MPI_Type_vector = PMPI_Type_vector

int PMPI_Type_vector_c(MPI_Count count, MPI_Count blocklength, MPI_Count stride,
                       MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return type_vector(count, blocklength, stride, oldtype, newtype, MPI_COMBINER_VECTOR, 1,
                       "MPI_Type_vector_c");
}
#pragma weak MPI_Type_vector_c = PMPI_Type_vector_c

int PMPI_Type_create_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype,
                             MPI_Datatype *newtype)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return type_vector(count, blocklength, stride, oldtype, newtype, MPI_COMBINER_HVECTOR, 0,
                       "MPI_Type_create_hvector");
}
#pragma weak MPI_Type_create_hvector = PMPI_Type_create_hvector

int PMPI_Type_create_hvector_c(MPI_Count count, MPI_Count blocklength, MPI_Count stride,
                               MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return type_vector(count, blocklength, stride, oldtype, newtype, MPI_COMBINER_HVECTOR, 1,
                       "MPI_Type_create_hvector_c");
}
#pragma weak MPI_Type_create_hvector_c = PMPI_Type_create_hvector_c

/* ---- indexed family ---- */

/* The four indexed constructors in both forms. Exactly one of the displacement arrays is
 * non-NULL when count > 0; blocklens == NULL (both forms) means the *_block constructors. */
struct indexed_args {
    MPI_Count count;
    const int *blocklens;         /* int forms */
    const MPI_Count *blocklens_c; /* large-count forms */
    MPI_Count blocklen;           /* *_block */
    const int *displs;            /* indexed, indexed_block */
    const MPI_Aint *displs_aint;  /* hindexed, hindexed_block */
    const MPI_Count *displs_c;    /* large-count forms */
    int combiner;
    int large;
};

static int indexed_contents(struct dt_type *type, const struct indexed_args *a,
                            MPI_Datatype oldtype)
{
    MPI_Count n = a->count;
    int block = a->combiner == MPI_COMBINER_INDEXED_BLOCK ||
                a->combiner == MPI_COMBINER_HINDEXED_BLOCK;
    int in_bytes = a->combiner == MPI_COMBINER_HINDEXED ||
                   a->combiner == MPI_COMBINER_HINDEXED_BLOCK;
    MPI_Count nlens = block ? 1 : n;
    int err;
    if (a->large) {
        MPI_Count *c = malloc((size_t)(1 + nlens + n) * sizeof(*c));
        if (!c)
            return MPI_ERR_NO_MEM;
        c[0] = n;
        for (MPI_Count i = 0; i < nlens; i++)
            c[1 + i] = block ? a->blocklen : a->blocklens_c[i];
        for (MPI_Count i = 0; i < n; i++)
            c[1 + nlens + i] = a->displs_c[i];
        err = dt_set_contents(type, a->combiner, 0, NULL, 0, NULL, 1 + nlens + n, c, 1, &oldtype);
        free(c);
        return err;
    }
    MPI_Count nints = 1 + nlens + (in_bytes ? 0 : n);
    int *ints = malloc((size_t)nints * sizeof(*ints));
    if (!ints)
        return MPI_ERR_NO_MEM;
    ints[0] = (int)n;
    for (MPI_Count i = 0; i < nlens; i++)
        ints[1 + i] = block ? (int)a->blocklen : a->blocklens[i];
    for (MPI_Count i = 0; !in_bytes && i < n; i++)
        ints[1 + nlens + i] = a->displs[i];
    err = dt_set_contents(type, a->combiner, nints, ints, in_bytes ? n : 0, a->displs_aint, 0,
                          NULL, 1, &oldtype);
    free(ints);
    return err;
}

static int type_indexed(const struct indexed_args *a, MPI_Datatype oldtype,
                        MPI_Datatype *newtype, const char *function)
{
    struct dt_type *old, *type = NULL;
    int block = a->combiner == MPI_COMBINER_INDEXED_BLOCK ||
                a->combiner == MPI_COMBINER_HINDEXED_BLOCK;
    int in_bytes = a->combiner == MPI_COMBINER_HINDEXED ||
                   a->combiner == MPI_COMBINER_HINDEXED_BLOCK;
    const void *lens = a->large ? (const void *)a->blocklens_c : (const void *)a->blocklens;
    const void *displs = a->large ? (const void *)a->displs_c
                         : in_bytes ? (const void *)a->displs_aint : (const void *)a->displs;
    int err;
    if ((err = mpi_check_initialized(function)) || (err = check_count(a->count, function)) ||
        (block ? (err = check_blocklen(a->blocklen, -1, function))
               : (err = check_array(lens, a->count, "array_of_blocklengths", function))) ||
        (err = check_array(displs, a->count, "array_of_displacements", function)))
        return err;
    for (MPI_Count i = 0; !block && i < a->count; i++) {
        MPI_Count len = a->large ? a->blocklens_c[i] : a->blocklens[i];
        if ((err = check_blocklen(len, i, function)))
            return err;
    }
    if ((err = get_type(oldtype, &old, function)) ||
        (err = check_pointer(newtype, "newtype", function)))
        return err;
    MPI_Count *lens_c = block ? NULL : a->large ? (MPI_Count *)a->blocklens_c
                                                : counts_of(a->blocklens, a->count);
    MPI_Aint *bytes = displs_of(a->large ? NULL : in_bytes ? NULL : a->displs,
                                in_bytes && !a->large ? a->displs_aint : NULL, a->displs_c,
                                a->count, in_bytes ? 1 : old->extent);
    if ((!block && !lens_c) || !bytes)
        err = MPI_ERR_NO_MEM;
    else
        err = dt_create_indexed(a->count, lens_c, a->blocklen, bytes, old, &type);
    if (lens_c != a->blocklens_c)
        free(lens_c);
    free(bytes);
    if (err == MPI_SUCCESS)
        err = indexed_contents(type, a, oldtype);
    return finish(err, type, newtype, function);
}

int PMPI_Type_indexed(int count, const int array_of_blocklengths[],
                      const int array_of_displacements[], MPI_Datatype oldtype,
                      MPI_Datatype *newtype)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    struct indexed_args a = {.count = count, .blocklens = array_of_blocklengths,
                             .displs = array_of_displacements,
                             .combiner = MPI_COMBINER_INDEXED};
    return type_indexed(&a, oldtype, newtype, "MPI_Type_indexed");
}
#pragma weak MPI_Type_indexed = PMPI_Type_indexed

int PMPI_Type_indexed_c(MPI_Count count, const MPI_Count array_of_blocklengths[],
                        const MPI_Count array_of_displacements[], MPI_Datatype oldtype,
                        MPI_Datatype *newtype)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    struct indexed_args a = {.count = count, .blocklens_c = array_of_blocklengths,
                             .displs_c = array_of_displacements,
                             .combiner = MPI_COMBINER_INDEXED, .large = 1};
    return type_indexed(&a, oldtype, newtype, "MPI_Type_indexed_c");
}
#pragma weak MPI_Type_indexed_c = PMPI_Type_indexed_c

int PMPI_Type_create_hindexed(int count, const int array_of_blocklengths[],
                              const MPI_Aint array_of_displacements[], MPI_Datatype oldtype,
                              MPI_Datatype *newtype)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    struct indexed_args a = {.count = count, .blocklens = array_of_blocklengths,
                             .displs_aint = array_of_displacements,
                             .combiner = MPI_COMBINER_HINDEXED};
    return type_indexed(&a, oldtype, newtype, "MPI_Type_create_hindexed");
}
#pragma weak MPI_Type_create_hindexed = PMPI_Type_create_hindexed

int PMPI_Type_create_hindexed_c(MPI_Count count, const MPI_Count array_of_blocklengths[],
                                const MPI_Count array_of_displacements[], MPI_Datatype oldtype,
                                MPI_Datatype *newtype)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    struct indexed_args a = {.count = count, .blocklens_c = array_of_blocklengths,
                             .displs_c = array_of_displacements,
                             .combiner = MPI_COMBINER_HINDEXED, .large = 1};
    return type_indexed(&a, oldtype, newtype, "MPI_Type_create_hindexed_c");
}
#pragma weak MPI_Type_create_hindexed_c = PMPI_Type_create_hindexed_c

int PMPI_Type_create_indexed_block(int count, int blocklength, const int array_of_displacements[],
                                   MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    struct indexed_args a = {.count = count, .blocklen = blocklength,
                             .displs = array_of_displacements,
                             .combiner = MPI_COMBINER_INDEXED_BLOCK};
    return type_indexed(&a, oldtype, newtype, "MPI_Type_create_indexed_block");
}
#pragma weak MPI_Type_create_indexed_block = PMPI_Type_create_indexed_block

int PMPI_Type_create_indexed_block_c(MPI_Count count, MPI_Count blocklength,
                                     const MPI_Count array_of_displacements[],
                                     MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    struct indexed_args a = {.count = count, .blocklen = blocklength,
                             .displs_c = array_of_displacements,
                             .combiner = MPI_COMBINER_INDEXED_BLOCK, .large = 1};
    return type_indexed(&a, oldtype, newtype, "MPI_Type_create_indexed_block_c");
}
#pragma weak MPI_Type_create_indexed_block_c = PMPI_Type_create_indexed_block_c

int PMPI_Type_create_hindexed_block(int count, int blocklength,
                                    const MPI_Aint array_of_displacements[],
                                    MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    struct indexed_args a = {.count = count, .blocklen = blocklength,
                             .displs_aint = array_of_displacements,
                             .combiner = MPI_COMBINER_HINDEXED_BLOCK};
    return type_indexed(&a, oldtype, newtype, "MPI_Type_create_hindexed_block");
}
#pragma weak MPI_Type_create_hindexed_block = PMPI_Type_create_hindexed_block

int PMPI_Type_create_hindexed_block_c(MPI_Count count, MPI_Count blocklength,
                                      const MPI_Count array_of_displacements[],
                                      MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    struct indexed_args a = {.count = count, .blocklen = blocklength,
                             .displs_c = array_of_displacements,
                             .combiner = MPI_COMBINER_HINDEXED_BLOCK, .large = 1};
    return type_indexed(&a, oldtype, newtype, "MPI_Type_create_hindexed_block_c");
}
#pragma weak MPI_Type_create_hindexed_block_c = PMPI_Type_create_hindexed_block_c

/* ---- struct ---- */

static int struct_contents(struct dt_type *type, MPI_Count count, const int *lens,
                           const MPI_Aint *displs, const MPI_Count *lens_c,
                           const MPI_Count *displs_c, const MPI_Datatype *types)
{
    int err;
    if (lens_c) {
        MPI_Count *c = malloc((size_t)(1 + 2 * count) * sizeof(*c));
        if (!c)
            return MPI_ERR_NO_MEM;
        c[0] = count;
        memcpy(c + 1, lens_c, (size_t)count * sizeof(*c));
        memcpy(c + 1 + count, displs_c, (size_t)count * sizeof(*c));
        err = dt_set_contents(type, MPI_COMBINER_STRUCT, 0, NULL, 0, NULL, 1 + 2 * count, c,
                              count, types);
        free(c);
        return err;
    }
    int *ints = malloc((size_t)(1 + count) * sizeof(*ints));
    if (!ints)
        return MPI_ERR_NO_MEM;
    ints[0] = (int)count;
    if (count > 0)
        memcpy(ints + 1, lens, (size_t)count * sizeof(*ints));
    err = dt_set_contents(type, MPI_COMBINER_STRUCT, 1 + count, ints, count, displs, 0, NULL,
                          count, types);
    free(ints);
    return err;
}

static int type_struct(MPI_Count count, const int *lens, const MPI_Aint *displs,
                       const MPI_Count *lens_c, const MPI_Count *displs_c,
                       const MPI_Datatype *types, MPI_Datatype *newtype, int large,
                       const char *function)
{
    struct dt_type *type = NULL, **objects = NULL;
    MPI_Count *len_values = NULL;
    MPI_Aint *disp_values = NULL;
    int err;
    if ((err = mpi_check_initialized(function)) || (err = check_count(count, function)) ||
        (err = check_array(large ? (const void *)lens_c : (const void *)lens, count,
                           "array_of_blocklengths", function)) ||
        (err = check_array(large ? (const void *)displs_c : (const void *)displs, count,
                           "array_of_displacements", function)) ||
        (err = check_array(types, count, "array_of_types", function)))
        return err;
    for (MPI_Count i = 0; i < count; i++) {
        if ((err = check_blocklen(large ? lens_c[i] : lens[i], i, function)))
            return err;
        if (!dt_from_handle(types[i]))
            return core_error_raise(NULL, MPI_ERR_TYPE, function,
                                    "invalid array_of_types[%lld]%s", (long long)i,
                                    types[i] == MPI_DATATYPE_NULL ? " MPI_DATATYPE_NULL" : "");
    }
    if ((err = check_pointer(newtype, "newtype", function)))
        return err;
    objects = malloc((size_t)(count > 0 ? count : 1) * sizeof(*objects));
    len_values = large ? (MPI_Count *)lens_c : counts_of(lens, count);
    disp_values = displs_of(NULL, large ? NULL : displs, displs_c, count, 1);
    if (!objects || !len_values || !disp_values) {
        err = MPI_ERR_NO_MEM;
    } else {
        for (MPI_Count i = 0; i < count; i++)
            objects[i] = dt_from_handle(types[i]);
        err = dt_create_struct(count, len_values, disp_values, objects, &type);
    }
    if (len_values != lens_c)
        free(len_values);
    free(disp_values);
    free(objects);
    if (err == MPI_SUCCESS)
        err = struct_contents(type, count, lens, displs, large ? lens_c : NULL, displs_c, types);
    return finish(err, type, newtype, function);
}

int PMPI_Type_create_struct(int count, const int array_of_blocklengths[],
                            const MPI_Aint array_of_displacements[],
                            const MPI_Datatype array_of_types[], MPI_Datatype *newtype)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return type_struct(count, array_of_blocklengths, array_of_displacements, NULL, NULL,
                       array_of_types, newtype, 0, "MPI_Type_create_struct");
}
#pragma weak MPI_Type_create_struct = PMPI_Type_create_struct

int PMPI_Type_create_struct_c(MPI_Count count, const MPI_Count array_of_blocklengths[],
                              const MPI_Count array_of_displacements[],
                              const MPI_Datatype array_of_types[], MPI_Datatype *newtype)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return type_struct(count, NULL, NULL, array_of_blocklengths, array_of_displacements,
                       array_of_types, newtype, 1, "MPI_Type_create_struct_c");
}
#pragma weak MPI_Type_create_struct_c = PMPI_Type_create_struct_c

/* ---- the removed MPI-1 constructors (src/mpi/legacy.c) ----
 * The MPI-2 constructor under the old name: MPI_COMBINER_HVECTOR, _HINDEXED, _STRUCT. */

int mpi_type_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype,
                     MPI_Datatype *newtype, const char *function)
{
    return type_vector(count, blocklength, stride, oldtype, newtype, MPI_COMBINER_HVECTOR, 0,
                       function);
}

int mpi_type_hindexed(int count, const int array_of_blocklengths[],
                      const MPI_Aint array_of_displacements[], MPI_Datatype oldtype,
                      MPI_Datatype *newtype, const char *function)
{
    struct indexed_args a = {.count = count, .blocklens = array_of_blocklengths,
                             .displs_aint = array_of_displacements,
                             .combiner = MPI_COMBINER_HINDEXED};
    return type_indexed(&a, oldtype, newtype, function);
}

int mpi_type_struct(int count, const int array_of_blocklengths[],
                    const MPI_Aint array_of_displacements[], const MPI_Datatype array_of_types[],
                    MPI_Datatype *newtype, const char *function)
{
    return type_struct(count, array_of_blocklengths, array_of_displacements, NULL, NULL,
                       array_of_types, newtype, 0, function);
}

/* ---- subarray, darray ---- */

static int check_order(int order, const char *function)
{
    if (order == MPI_ORDER_C || order == MPI_ORDER_FORTRAN)
        return MPI_SUCCESS;
    return core_error_raise(NULL, MPI_ERR_ARG, function, "invalid order %d", order);
}

static int check_subarray(int ndims, const MPI_Count *sizes, const MPI_Count *subsizes,
                          const MPI_Count *starts, const char *function)
{
    for (int i = 0; i < ndims; i++) {
        if (sizes[i] <= 0)
            return core_error_raise(NULL, MPI_ERR_ARG, function,
                                    "invalid array_of_sizes[%d] = %lld (must be > 0)", i,
                                    (long long)sizes[i]);
        if (subsizes[i] < 0 || subsizes[i] > sizes[i])
            return core_error_raise(NULL, MPI_ERR_ARG, function,
                                    "invalid array_of_subsizes[%d] = %lld (size %lld)", i,
                                    (long long)subsizes[i], (long long)sizes[i]);
        if (starts[i] < 0 || starts[i] > sizes[i] - subsizes[i])
            return core_error_raise(NULL, MPI_ERR_ARG, function,
                                    "invalid array_of_starts[%d] = %lld (size %lld, subsize "
                                    "%lld)", i, (long long)starts[i], (long long)sizes[i],
                                    (long long)subsizes[i]);
    }
    return MPI_SUCCESS;
}

static int type_subarray(int ndims, const int *sizes, const int *subsizes, const int *starts,
                         const MPI_Count *sizes_c, const MPI_Count *subsizes_c,
                         const MPI_Count *starts_c, int order, MPI_Datatype oldtype,
                         MPI_Datatype *newtype, const char *function)
{
    int large = sizes == NULL && ndims > 0 && sizes_c != NULL;
    struct dt_type *old, *type = NULL;
    int err;
    if ((err = mpi_check_initialized(function)))
        return err;
    if (ndims <= 0)
        return core_error_raise(NULL, MPI_ERR_ARG, function, "invalid ndims %d (must be > 0)",
                                ndims);
    if ((err = check_pointer(large ? (const void *)sizes_c : (const void *)sizes,
                             "array_of_sizes", function)) ||
        (err = check_pointer(large ? (const void *)subsizes_c : (const void *)subsizes,
                             "array_of_subsizes", function)) ||
        (err = check_pointer(large ? (const void *)starts_c : (const void *)starts,
                             "array_of_starts", function)) ||
        (err = check_order(order, function)) || (err = get_type(oldtype, &old, function)) ||
        (err = check_pointer(newtype, "newtype", function)))
        return err;
    MPI_Count *all = malloc(3 * (size_t)ndims * sizeof(*all));
    if (!all)
        return no_memory(function);
    for (int i = 0; i < ndims; i++) {
        all[i] = large ? sizes_c[i] : sizes[i];
        all[ndims + i] = large ? subsizes_c[i] : subsizes[i];
        all[2 * ndims + i] = large ? starts_c[i] : starts[i];
    }
    err = check_subarray(ndims, all, all + ndims, all + 2 * ndims, function);
    if (err) {
        free(all);
        return err;
    }
    err = dt_create_subarray(ndims, all, all + ndims, all + 2 * ndims, order, old, &type);
    if (err == MPI_SUCCESS && large) {
        int ints[2] = {ndims, order};
        err = dt_set_contents(type, MPI_COMBINER_SUBARRAY, 2, ints, 0, NULL, 3 * ndims, all, 1,
                              &oldtype);
    } else if (err == MPI_SUCCESS) {
        int *ints = malloc((3 * (size_t)ndims + 2) * sizeof(*ints));
        if (!ints) {
            err = MPI_ERR_NO_MEM;
        } else {
            ints[0] = ndims;
            for (int i = 0; i < 3 * ndims; i++)
                ints[1 + i] = (int)all[i];
            ints[1 + 3 * ndims] = order;
            err = dt_set_contents(type, MPI_COMBINER_SUBARRAY, 3 * ndims + 2, ints, 0, NULL, 0,
                                  NULL, 1, &oldtype);
            free(ints);
        }
    }
    free(all);
    return finish(err, type, newtype, function);
}

int PMPI_Type_create_subarray(int ndims, const int array_of_sizes[],
                              const int array_of_subsizes[], const int array_of_starts[],
                              int order, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return type_subarray(ndims, array_of_sizes, array_of_subsizes, array_of_starts, NULL, NULL,
                         NULL, order, oldtype, newtype, "MPI_Type_create_subarray");
}
#pragma weak MPI_Type_create_subarray = PMPI_Type_create_subarray

int PMPI_Type_create_subarray_c(int ndims, const MPI_Count array_of_sizes[],
                                const MPI_Count array_of_subsizes[],
                                const MPI_Count array_of_starts[], int order,
                                MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return type_subarray(ndims, NULL, NULL, NULL, array_of_sizes, array_of_subsizes,
                         array_of_starts, order, oldtype, newtype, "MPI_Type_create_subarray_c");
}
#pragma weak MPI_Type_create_subarray_c = PMPI_Type_create_subarray_c

static int check_darray(int size, int rank, int ndims, const MPI_Count *gsizes,
                        const int *distribs, const int *dargs, const int *psizes,
                        const char *function)
{
    long long procs = 1;
    if (size <= 0)
        return core_error_raise(NULL, MPI_ERR_ARG, function, "invalid size %d", size);
    if (rank < 0 || rank >= size)
        return core_error_raise(NULL, MPI_ERR_ARG, function, "invalid rank %d (size %d)", rank,
                                size);
    for (int i = 0; i < ndims; i++) {
        if (gsizes[i] <= 0)
            return core_error_raise(NULL, MPI_ERR_ARG, function,
                                    "invalid array_of_gsizes[%d] = %lld", i,
                                    (long long)gsizes[i]);
        if (psizes[i] <= 0)
            return core_error_raise(NULL, MPI_ERR_ARG, function,
                                    "invalid array_of_psizes[%d] = %d", i, psizes[i]);
        procs *= psizes[i];
        if (distribs[i] != MPI_DISTRIBUTE_BLOCK && distribs[i] != MPI_DISTRIBUTE_CYCLIC &&
            distribs[i] != MPI_DISTRIBUTE_NONE)
            return core_error_raise(NULL, MPI_ERR_ARG, function,
                                    "invalid array_of_distribs[%d] = %d", i, distribs[i]);
        if (distribs[i] == MPI_DISTRIBUTE_NONE && psizes[i] != 1)
            return core_error_raise(NULL, MPI_ERR_ARG, function,
                                    "array_of_psizes[%d] = %d must be 1 for "
                                    "MPI_DISTRIBUTE_NONE", i, psizes[i]);
        if (dargs[i] != MPI_DISTRIBUTE_DFLT_DARG && dargs[i] <= 0)
            return core_error_raise(NULL, MPI_ERR_ARG, function,
                                    "invalid array_of_dargs[%d] = %d", i, dargs[i]);
        if (distribs[i] == MPI_DISTRIBUTE_BLOCK && dargs[i] != MPI_DISTRIBUTE_DFLT_DARG &&
            (long long)dargs[i] * psizes[i] < gsizes[i])
            return core_error_raise(NULL, MPI_ERR_ARG, function,
                                    "array_of_dargs[%d] = %d too small: %d processes cannot "
                                    "hold %lld elements in blocks", i, dargs[i], psizes[i],
                                    (long long)gsizes[i]);
    }
    if (procs != size)
        return core_error_raise(NULL, MPI_ERR_ARG, function,
                                "product of array_of_psizes is %lld, not size %d", procs, size);
    return MPI_SUCCESS;
}

static int type_darray(int size, int rank, int ndims, const int *gsizes,
                       const MPI_Count *gsizes_c, const int *distribs, const int *dargs,
                       const int *psizes, int order, MPI_Datatype oldtype,
                       MPI_Datatype *newtype, const char *function)
{
    int large = gsizes == NULL && gsizes_c != NULL;
    struct dt_type *old, *type = NULL;
    int err;
    if ((err = mpi_check_initialized(function)))
        return err;
    if (ndims <= 0)
        return core_error_raise(NULL, MPI_ERR_ARG, function, "invalid ndims %d (must be > 0)",
                                ndims);
    if ((err = check_pointer(large ? (const void *)gsizes_c : (const void *)gsizes,
                             "array_of_gsizes", function)) ||
        (err = check_pointer(distribs, "array_of_distribs", function)) ||
        (err = check_pointer(dargs, "array_of_dargs", function)) ||
        (err = check_pointer(psizes, "array_of_psizes", function)) ||
        (err = check_order(order, function)) || (err = get_type(oldtype, &old, function)) ||
        (err = check_pointer(newtype, "newtype", function)))
        return err;
    MPI_Count *g = large ? (MPI_Count *)gsizes_c : counts_of(gsizes, ndims);
    if (!g)
        return no_memory(function);
    err = check_darray(size, rank, ndims, g, distribs, dargs, psizes, function);
    if (err == MPI_SUCCESS) {
        err = dt_create_darray(size, rank, ndims, g, distribs, dargs, psizes, order, old, &type);
        int *ints = malloc((4 * (size_t)ndims + 4) * sizeof(*ints));
        int n = 0;
        if (err == MPI_SUCCESS && !ints)
            err = MPI_ERR_NO_MEM;
        if (err == MPI_SUCCESS) {
            ints[n++] = size;
            ints[n++] = rank;
            ints[n++] = ndims;
            for (int i = 0; !large && i < ndims; i++)
                ints[n++] = gsizes[i];
            for (int i = 0; i < ndims; i++)
                ints[n++] = distribs[i];
            for (int i = 0; i < ndims; i++)
                ints[n++] = dargs[i];
            for (int i = 0; i < ndims; i++)
                ints[n++] = psizes[i];
            ints[n++] = order;
            err = dt_set_contents(type, MPI_COMBINER_DARRAY, n, ints, 0, NULL,
                                  large ? ndims : 0, g, 1, &oldtype);
        }
        free(ints);
        err = finish(err, type, newtype, function);
    }
    if (!large)
        free(g);
    return err;
}

int PMPI_Type_create_darray(int size, int rank, int ndims, const int array_of_gsizes[],
                            const int array_of_distribs[], const int array_of_dargs[],
                            const int array_of_psizes[], int order, MPI_Datatype oldtype,
                            MPI_Datatype *newtype)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return type_darray(size, rank, ndims, array_of_gsizes, NULL, array_of_distribs,
                       array_of_dargs, array_of_psizes, order, oldtype, newtype,
                       "MPI_Type_create_darray");
}
#pragma weak MPI_Type_create_darray = PMPI_Type_create_darray

int PMPI_Type_create_darray_c(int size, int rank, int ndims, const MPI_Count array_of_gsizes[],
                              const int array_of_distribs[], const int array_of_dargs[],
                              const int array_of_psizes[], int order, MPI_Datatype oldtype,
                              MPI_Datatype *newtype)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return type_darray(size, rank, ndims, NULL, array_of_gsizes, array_of_distribs,
                       array_of_dargs, array_of_psizes, order, oldtype, newtype,
                       "MPI_Type_create_darray_c");
}
#pragma weak MPI_Type_create_darray_c = PMPI_Type_create_darray_c

/* ---- resized, dup ---- */

static int type_resized(MPI_Datatype oldtype, MPI_Count lb, MPI_Count extent,
                        MPI_Datatype *newtype, int large, const char *function)
{
    struct dt_type *old, *type = NULL;
    int err;
    if ((err = mpi_check_initialized(function)) || (err = get_type(oldtype, &old, function)) ||
        (err = check_pointer(newtype, "newtype", function)))
        return err;
    err = dt_create_resized(old, (MPI_Aint)lb, (MPI_Aint)extent, &type);
    if (err == MPI_SUCCESS) {
        MPI_Aint addrs[2] = {(MPI_Aint)lb, (MPI_Aint)extent};
        MPI_Count counts[2] = {lb, extent};
        err = dt_set_contents(type, MPI_COMBINER_RESIZED, 0, NULL, large ? 0 : 2, addrs,
                              large ? 2 : 0, counts, 1, &oldtype);
    }
    return finish(err, type, newtype, function);
}

int PMPI_Type_create_resized(MPI_Datatype oldtype, MPI_Aint lb, MPI_Aint extent,
                             MPI_Datatype *newtype)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return type_resized(oldtype, lb, extent, newtype, 0, "MPI_Type_create_resized");
}
#pragma weak MPI_Type_create_resized = PMPI_Type_create_resized

int PMPI_Type_create_resized_c(MPI_Datatype oldtype, MPI_Count lb, MPI_Count extent,
                               MPI_Datatype *newtype)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return type_resized(oldtype, lb, extent, newtype, 1, "MPI_Type_create_resized_c");
}
#pragma weak MPI_Type_create_resized_c = PMPI_Type_create_resized_c

int PMPI_Type_dup(MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    static const char function[] = "MPI_Type_dup";
    struct dt_type *old, *type = NULL;
    int err;
    if ((err = mpi_check_initialized(function)) || (err = get_type(oldtype, &old, function)) ||
        (err = check_pointer(newtype, "newtype", function)))
        return err;
    err = dt_create_dup(old, &type);
    if (err == MPI_SUCCESS)
        err = dt_set_contents(type, MPI_COMBINER_DUP, 0, NULL, 0, NULL, 0, NULL, 1, &oldtype);
    if (err == MPI_SUCCESS && core_attr_type_copy_all) {
        err = core_attr_type_copy_all(old, type);
        if (err != MPI_SUCCESS) {
            dt_release(type);
            return core_error_raise(NULL, err, function, "attribute copy callback failed");
        }
    }
    return finish(err, type, newtype, function);
}
#pragma weak MPI_Type_dup = PMPI_Type_dup

/* ---- commit, free ---- */

int PMPI_Type_commit(MPI_Datatype *datatype)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    static const char function[] = "MPI_Type_commit";
    struct dt_type *type;
    int err;
    if ((err = mpi_check_initialized(function)) ||
        (err = check_pointer(datatype, "datatype", function)) ||
        (err = get_type(*datatype, &type, function)))
        return err;
    err = dt_commit(type);
    if (err != MPI_SUCCESS)
        return no_memory(function);
    return MPI_SUCCESS;
}
#pragma weak MPI_Type_commit = PMPI_Type_commit

int PMPI_Type_free(MPI_Datatype *datatype)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    static const char function[] = "MPI_Type_free";
    struct dt_type *type;
    int err;
    if ((err = mpi_check_initialized(function)) ||
        (err = check_pointer(datatype, "datatype", function)) ||
        (err = get_type(*datatype, &type, function)))
        return err;
    if (type->predefined || type->permanent)
        return core_error_raise(NULL, MPI_ERR_TYPE, function,
                                "cannot free predefined datatype %s%s", type->name,
                                type->permanent && dt_marker_handle(type) == MPI_DATATYPE_NULL
                                    ? " (made by MPI_Type_create_f90_*)"
                                    : "");
    if (type->attributes && core_attr_type_delete_all) {
        err = core_attr_type_delete_all(type);
        if (err != MPI_SUCCESS)
            return core_error_raise(NULL, err, function, "attribute delete callback failed");
    }
    /* Requests and derived types that use it hold their own references. */
    dt_release(type);
    *datatype = MPI_DATATYPE_NULL;
    return MPI_SUCCESS;
}
#pragma weak MPI_Type_free = PMPI_Type_free

/* ---- size and extent ---- */

static int type_query(MPI_Datatype datatype, struct dt_type **type, const void *out1,
                      const void *out2, const char *function)
{
    int err;
    if ((err = mpi_check_initialized(function)) || (err = get_type(datatype, type, function)) ||
        (err = check_pointer(out1, "output argument", function)) ||
        (err = check_pointer(out2, "output argument", function)))
        return err;
    return MPI_SUCCESS;
}

int PMPI_Type_size(MPI_Datatype datatype, int *size)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    struct dt_type *type;
    int err = type_query(datatype, &type, size, size, "MPI_Type_size");
    if (err == MPI_SUCCESS)
        *size = type->size > INT_MAX ? MPI_UNDEFINED : (int)type->size;
    return err;
}
#pragma weak MPI_Type_size = PMPI_Type_size

int PMPI_Type_size_x(MPI_Datatype datatype, MPI_Count *size)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    struct dt_type *type;
    int err = type_query(datatype, &type, size, size, "MPI_Type_size_x");
    if (err == MPI_SUCCESS)
        *size = type->size;
    return err;
}
#pragma weak MPI_Type_size_x = PMPI_Type_size_x

int PMPI_Type_size_c(MPI_Datatype datatype, MPI_Count *size)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    struct dt_type *type;
    int err = type_query(datatype, &type, size, size, "MPI_Type_size_c");
    if (err == MPI_SUCCESS)
        *size = type->size;
    return err;
}
#pragma weak MPI_Type_size_c = PMPI_Type_size_c

int PMPI_Type_get_extent(MPI_Datatype datatype, MPI_Aint *lb, MPI_Aint *extent)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    struct dt_type *type;
    int err = type_query(datatype, &type, lb, extent, "MPI_Type_get_extent");
    if (err == MPI_SUCCESS) {
        *lb = type->lb;
        *extent = type->extent;
    }
    return err;
}
#pragma weak MPI_Type_get_extent = PMPI_Type_get_extent

int PMPI_Type_get_extent_x(MPI_Datatype datatype, MPI_Count *lb, MPI_Count *extent)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    struct dt_type *type;
    int err = type_query(datatype, &type, lb, extent, "MPI_Type_get_extent_x");
    if (err == MPI_SUCCESS) {
        *lb = type->lb;
        *extent = type->extent;
    }
    return err;
}
#pragma weak MPI_Type_get_extent_x = PMPI_Type_get_extent_x

int PMPI_Type_get_extent_c(MPI_Datatype datatype, MPI_Count *lb, MPI_Count *extent)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    struct dt_type *type;
    int err = type_query(datatype, &type, lb, extent, "MPI_Type_get_extent_c");
    if (err == MPI_SUCCESS) {
        *lb = type->lb;
        *extent = type->extent;
    }
    return err;
}
#pragma weak MPI_Type_get_extent_c = PMPI_Type_get_extent_c

int PMPI_Type_get_true_extent(MPI_Datatype datatype, MPI_Aint *true_lb, MPI_Aint *true_extent)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    struct dt_type *type;
    int err = type_query(datatype, &type, true_lb, true_extent, "MPI_Type_get_true_extent");
    if (err == MPI_SUCCESS) {
        *true_lb = type->true_lb;
        *true_extent = type->true_extent;
    }
    return err;
}
#pragma weak MPI_Type_get_true_extent = PMPI_Type_get_true_extent

int PMPI_Type_get_true_extent_x(MPI_Datatype datatype, MPI_Count *true_lb,
                                MPI_Count *true_extent)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    struct dt_type *type;
    int err = type_query(datatype, &type, true_lb, true_extent, "MPI_Type_get_true_extent_x");
    if (err == MPI_SUCCESS) {
        *true_lb = type->true_lb;
        *true_extent = type->true_extent;
    }
    return err;
}
#pragma weak MPI_Type_get_true_extent_x = PMPI_Type_get_true_extent_x

int PMPI_Type_get_true_extent_c(MPI_Datatype datatype, MPI_Count *true_lb,
                                MPI_Count *true_extent)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    struct dt_type *type;
    int err = type_query(datatype, &type, true_lb, true_extent, "MPI_Type_get_true_extent_c");
    if (err == MPI_SUCCESS) {
        *true_lb = type->true_lb;
        *true_extent = type->true_extent;
    }
    return err;
}
#pragma weak MPI_Type_get_true_extent_c = PMPI_Type_get_true_extent_c

/* ---- envelope and contents ---- */

int PMPI_Type_get_envelope(MPI_Datatype datatype, int *num_integers, int *num_addresses,
                           int *num_datatypes, int *combiner)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    static const char function[] = "MPI_Type_get_envelope";
    struct dt_type *type;
    MPI_Count ni, na, nc, nt;
    int err;
    if ((err = mpi_check_initialized(function)) || (err = get_type(datatype, &type, function)) ||
        (err = check_pointer(num_integers, "num_integers", function)) ||
        (err = check_pointer(num_addresses, "num_addresses", function)) ||
        (err = check_pointer(num_datatypes, "num_datatypes", function)) ||
        (err = check_pointer(combiner, "combiner", function)))
        return err;
    dt_get_envelope(type, &ni, &na, &nc, &nt, combiner);
    if (nc > 0)
        return core_error_raise(NULL, MPI_ERR_TYPE, function,
                                "datatype was made by a large-count constructor: use "
                                "MPI_Type_get_envelope_c");
    *num_integers = (int)ni;
    *num_addresses = (int)na;
    *num_datatypes = (int)nt;
    return MPI_SUCCESS;
}
#pragma weak MPI_Type_get_envelope = PMPI_Type_get_envelope

int PMPI_Type_get_envelope_c(MPI_Datatype datatype, MPI_Count *num_integers,
                             MPI_Count *num_addresses, MPI_Count *num_large_counts,
                             MPI_Count *num_datatypes, int *combiner)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    static const char function[] = "MPI_Type_get_envelope_c";
    struct dt_type *type;
    int err;
    if ((err = mpi_check_initialized(function)) || (err = get_type(datatype, &type, function)) ||
        (err = check_pointer(num_integers, "num_integers", function)) ||
        (err = check_pointer(num_addresses, "num_addresses", function)) ||
        (err = check_pointer(num_large_counts, "num_large_counts", function)) ||
        (err = check_pointer(num_datatypes, "num_datatypes", function)) ||
        (err = check_pointer(combiner, "combiner", function)))
        return err;
    dt_get_envelope(type, num_integers, num_addresses, num_large_counts, num_datatypes,
                    combiner);
    return MPI_SUCCESS;
}
#pragma weak MPI_Type_get_envelope_c = PMPI_Type_get_envelope_c

static int check_contents(struct dt_type *type, MPI_Count max_integers,
                          MPI_Count max_addresses, MPI_Count max_large_counts,
                          MPI_Count max_datatypes, const int *ints, const MPI_Aint *addrs,
                          const MPI_Count *counts, const MPI_Datatype *types,
                          const char *function)
{
    MPI_Count ni, na, nc, nt;
    int combiner, err;
    dt_get_envelope(type, &ni, &na, &nc, &nt, &combiner);
    if (combiner == MPI_COMBINER_NAMED)
        return core_error_raise(NULL, MPI_ERR_TYPE, function,
                                "%s is a predefined datatype (MPI_COMBINER_NAMED)", type->name);
    if (max_integers < ni || max_addresses < na || max_large_counts < nc || max_datatypes < nt)
        return core_error_raise(NULL, MPI_ERR_ARG, function,
                                "arrays too small: the datatype needs %lld integers, %lld "
                                "addresses, %lld large counts, %lld datatypes", (long long)ni,
                                (long long)na, (long long)nc, (long long)nt);
    if ((err = check_array(ints, ni, "array_of_integers", function)) ||
        (err = check_array(addrs, na, "array_of_addresses", function)) ||
        (err = check_array(counts, nc, "array_of_large_counts", function)) ||
        (err = check_array(types, nt, "array_of_datatypes", function)))
        return err;
    return MPI_SUCCESS;
}

int PMPI_Type_get_contents(MPI_Datatype datatype, int max_integers, int max_addresses,
                           int max_datatypes, int array_of_integers[],
                           MPI_Aint array_of_addresses[], MPI_Datatype array_of_datatypes[])
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    static const char function[] = "MPI_Type_get_contents";
    struct dt_type *type;
    int err;
    if ((err = mpi_check_initialized(function)) || (err = get_type(datatype, &type, function)) ||
        (err = check_contents(type, max_integers, max_addresses, 0, max_datatypes,
                              array_of_integers, array_of_addresses, NULL, array_of_datatypes,
                              function)))
        return err;
    dt_get_contents(type, array_of_integers, array_of_addresses, NULL, array_of_datatypes);
    return MPI_SUCCESS;
}
#pragma weak MPI_Type_get_contents = PMPI_Type_get_contents

int PMPI_Type_get_contents_c(MPI_Datatype datatype, MPI_Count max_integers,
                             MPI_Count max_addresses, MPI_Count max_large_counts,
                             MPI_Count max_datatypes, int array_of_integers[],
                             MPI_Aint array_of_addresses[], MPI_Count array_of_large_counts[],
                             MPI_Datatype array_of_datatypes[])
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    static const char function[] = "MPI_Type_get_contents_c";
    struct dt_type *type;
    int err;
    if ((err = mpi_check_initialized(function)) || (err = get_type(datatype, &type, function)) ||
        (err = check_contents(type, max_integers, max_addresses, max_large_counts,
                              max_datatypes, array_of_integers, array_of_addresses,
                              array_of_large_counts, array_of_datatypes, function)))
        return err;
    dt_get_contents(type, array_of_integers, array_of_addresses, array_of_large_counts,
                    array_of_datatypes);
    return MPI_SUCCESS;
}
#pragma weak MPI_Type_get_contents_c = PMPI_Type_get_contents_c

/* ---- names, match_size, value_index ---- */

int PMPI_Type_get_name(MPI_Datatype datatype, char *type_name, int *resultlen)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    static const char function[] = "MPI_Type_get_name";
    struct dt_type *type;
    int err;
    if ((err = mpi_check_initialized(function)) ||
        (err = check_pointer(type_name, "type_name", function)) ||
        (err = check_pointer(resultlen, "resultlen", function)))
        return err;
    if (datatype == MPI_DATATYPE_NULL) { /* MPI-4.1: the null handle has a name too */
        *resultlen = snprintf(type_name, MPI_MAX_OBJECT_NAME, "MPI_DATATYPE_NULL");
        return MPI_SUCCESS;
    }
    if ((err = get_type(datatype, &type, function)))
        return err;
    size_t len = strnlen(type->name, MPI_MAX_OBJECT_NAME - 1);
    memcpy(type_name, type->name, len);
    type_name[len] = '\0';
    *resultlen = (int)len;
    return MPI_SUCCESS;
}
#pragma weak MPI_Type_get_name = PMPI_Type_get_name

int PMPI_Type_set_name(MPI_Datatype datatype, const char *type_name)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    static const char function[] = "MPI_Type_set_name";
    struct dt_type *type;
    int err;
    if ((err = mpi_check_initialized(function)) || (err = get_type(datatype, &type, function)) ||
        (err = check_pointer(type_name, "type_name", function)))
        return err;
    dt_set_name(type, type_name);
    return MPI_SUCCESS;
}
#pragma weak MPI_Type_set_name = PMPI_Type_set_name

int PMPI_Type_match_size(int typeclass, int size, MPI_Datatype *datatype)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    static const char function[] = "MPI_Type_match_size";
    int err;
    if ((err = mpi_check_initialized(function)))
        return err;
    if (typeclass != MPI_TYPECLASS_INTEGER && typeclass != MPI_TYPECLASS_REAL &&
        typeclass != MPI_TYPECLASS_COMPLEX)
        return core_error_raise(NULL, MPI_ERR_ARG, function, "invalid typeclass %d",
                                typeclass);
    if ((err = check_pointer(datatype, "datatype", function)))
        return err;
    struct dt_type *type = dt_match_size(typeclass, size);
    if (!type)
        return core_error_raise(NULL, MPI_ERR_ARG, function,
                                "no predefined type of this class has size %d", size);
    *datatype = dt_to_handle(type);
    return MPI_SUCCESS;
}
#pragma weak MPI_Type_match_size = PMPI_Type_match_size

/* The predefined type the Fortran kind selection picks (src/datatype/f90.c); the handle is
 * predefined in effect: no commit needed, MPI_Type_free refuses it. */
static int type_create_f90(int combiner, int p, int r, MPI_Datatype *newtype,
                           const char *function)
{
    int err;
    if ((err = mpi_check_initialized(function)) ||
        (err = check_pointer(newtype, "newtype", function)))
        return err;
    struct dt_type *type;
    err = dt_f90_type(combiner, p, r, &type);
    if (err == MPI_ERR_NO_MEM)
        return no_memory(function);
    if (err != MPI_SUCCESS && combiner == MPI_COMBINER_F90_INTEGER)
        return core_error_raise(NULL, MPI_ERR_ARG, function,
                                "no predefined integer type has a decimal range of %d", r);
    if (err != MPI_SUCCESS)
        return core_error_raise(NULL, MPI_ERR_ARG, function,
                                "no predefined %s type has precision %d and range %d%s",
                                combiner == MPI_COMBINER_F90_REAL ? "real" : "complex", p, r,
                                p == MPI_UNDEFINED && r == MPI_UNDEFINED
                                    ? " (p and r cannot both be MPI_UNDEFINED)"
                                    : "");
    *newtype = dt_to_handle(type);
    return MPI_SUCCESS;
}

int PMPI_Type_create_f90_integer(int r, MPI_Datatype *newtype)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return type_create_f90(MPI_COMBINER_F90_INTEGER, 0, r, newtype,
                           "MPI_Type_create_f90_integer");
}
#pragma weak MPI_Type_create_f90_integer = PMPI_Type_create_f90_integer

int PMPI_Type_create_f90_real(int p, int r, MPI_Datatype *newtype)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return type_create_f90(MPI_COMBINER_F90_REAL, p, r, newtype, "MPI_Type_create_f90_real");
}
#pragma weak MPI_Type_create_f90_real = PMPI_Type_create_f90_real

int PMPI_Type_create_f90_complex(int p, int r, MPI_Datatype *newtype)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return type_create_f90(MPI_COMBINER_F90_COMPLEX, p, r, newtype,
                           "MPI_Type_create_f90_complex");
}
#pragma weak MPI_Type_create_f90_complex = PMPI_Type_create_f90_complex

int PMPI_Type_get_value_index(MPI_Datatype value_type, MPI_Datatype index_type,
                              MPI_Datatype *pair_type)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    static const char function[] = "MPI_Type_get_value_index";
    struct dt_type *value, *index;
    int err;
    if ((err = mpi_check_initialized(function)) ||
        (err = get_type(value_type, &value, function)) ||
        (err = get_type(index_type, &index, function)) ||
        (err = check_pointer(pair_type, "pair_type", function)))
        return err;
    *pair_type = dt_to_handle(dt_value_index(value, index)); /* MPI_DATATYPE_NULL: no pair */
    return MPI_SUCCESS;
}
#pragma weak MPI_Type_get_value_index = PMPI_Type_get_value_index
