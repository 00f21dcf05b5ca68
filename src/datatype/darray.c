/* darray.c - MPI_Type_create_subarray and MPI_Type_create_darray, built from the basic
 * constructors: one (h)vector per dimension from the fastest-varying outwards, a displacement
 * for the start offsets, and a resize to the extent of the whole array. Each dimension's type is
 * resized to span its whole hyperplane, so the next dimension can place copies by extent (the
 * fix ROMIO applies to MPICH's original algorithm). The result is wrapped so the user's type
 * reports MPI_COMBINER_SUBARRAY/DARRAY; arguments were checked by the API layer. */
#include "datatype/construct.h"
#include "datatype/internal.h"

/* Replace *t by next (made from it), releasing the old one: next holds its own reference. */
static int replace(struct dt_type **t, int err, struct dt_type *next)
{
    dt_release(*t);
    if (err == MPI_SUCCESS)
        *t = next;
    else
        *t = NULL;
    return err;
}

static int contiguous(struct dt_type **t, MPI_Count n)
{
    struct dt_type *next = NULL;
    int err = dt_create_contiguous(n, *t, &next);
    return replace(t, err, next);
}

static int hvector(struct dt_type **t, MPI_Count count, MPI_Count blocklen, MPI_Aint stride)
{
    struct dt_type *next = NULL;
    int err = dt_create_vector(count, blocklen, stride, *t, &next);
    return replace(t, err, next);
}

static int resized(struct dt_type **t, MPI_Aint lb, MPI_Aint extent)
{
    struct dt_type *next = NULL;
    int err = dt_create_resized(*t, lb, extent, &next);
    return replace(t, err, next);
}

/* One block of *t at displacement disp (an hindexed with one block). */
static int shifted(struct dt_type **t, MPI_Aint disp)
{
    struct dt_type *next = NULL;
    int err = dt_create_indexed(1, NULL, 1, &disp, *t, &next);
    return replace(t, err, next);
}

/* Dimension order from fastest- to slowest-varying: dim(k) is the k-th fastest. */
static int dim_at(int ndims, int order, int k)
{
    return order == MPI_ORDER_C ? ndims - 1 - k : k;
}

int dt_create_subarray(int ndims, const MPI_Count *sizes, const MPI_Count *subsizes,
                       const MPI_Count *starts, int order, struct dt_type *oldtype,
                       struct dt_type **out)
{
    MPI_Aint extent = oldtype->extent, stride = extent, disp = 0;
    struct dt_type *t = oldtype;
    int err;
    dt_retain(t);
    for (int k = 0; k < ndims; k++) {
        int d = dim_at(ndims, order, k);
        err = k == 0 ? contiguous(&t, subsizes[d]) : hvector(&t, subsizes[d], 1, stride);
        if (err != MPI_SUCCESS)
            return err;
        disp += (MPI_Aint)starts[d] * stride;
        stride *= (MPI_Aint)sizes[d];
    }
    if (disp != 0 && (err = shifted(&t, disp)) != MPI_SUCCESS)
        return err;
    if ((err = resized(&t, 0, stride)) != MPI_SUCCESS)
        return err;
    return dt_wrap_built(t, out);
}

/* Block distribution of dimension `dim` over nprocs processes; *start: first index I own. */
static int darray_block(struct dt_type **t, MPI_Count gsize, int nprocs, int rank, int darg,
                        MPI_Aint stride, int first, MPI_Count *start)
{
    MPI_Count block = darg == MPI_DISTRIBUTE_DFLT_DARG ? (gsize + nprocs - 1) / nprocs : darg;
    MPI_Count mine = gsize - block * rank;
    if (mine > block)
        mine = block;
    if (mine < 0)
        mine = 0;
    *start = mine > 0 ? block * rank : 0;
    int err = first ? contiguous(t, mine) : hvector(t, mine, 1, stride);
    return err;
}

/* Cyclic(darg) distribution of one dimension. The first (fastest) dimension puts its own start
 * offset in the type; others report it in *start. */
static int darray_cyclic(struct dt_type **t, MPI_Count gsize, int nprocs, int rank, int darg,
                         MPI_Aint stride, MPI_Aint old_extent, int first, MPI_Count *start)
{
    MPI_Count block = darg == MPI_DISTRIBUTE_DFLT_DARG ? 1 : darg;
    MPI_Count begin = (MPI_Count)rank * block, mine = 0;
    if (begin < gsize) {
        MPI_Count span = gsize - begin, cycle = (MPI_Count)nprocs * block;
        mine = span / cycle * block + (span % cycle < block ? span % cycle : block);
    }
    MPI_Count count = mine / block, rest = mine % block;
    MPI_Aint cycle_stride = (MPI_Aint)nprocs * (MPI_Aint)block * stride;
    struct dt_type *old = *t, *full = NULL;
    int err = dt_create_vector(count, block, cycle_stride, old, &full);
    if (err == MPI_SUCCESS && rest > 0) {
        /* The last, shorter block after the whole ones. */
        struct dt_type *types[2] = {full, old}, *joined = NULL;
        MPI_Count lens[2] = {1, rest};
        MPI_Aint displs[2] = {0, (MPI_Aint)count * cycle_stride};
        err = dt_create_struct(2, lens, displs, types, &joined);
        dt_release(full);
        full = joined;
    }
    err = replace(t, err, full);
    *start = 0;
    if (err == MPI_SUCCESS && first)
        err = shifted(t, (MPI_Aint)begin * old_extent);
    else if (mine > 0)
        *start = begin;
    return err;
}

int dt_create_darray(int size, int rank, int ndims, const MPI_Count *gsizes,
                     const int *distribs, const int *dargs, const int *psizes, int order,
                     struct dt_type *oldtype, struct dt_type **out)
{
    MPI_Aint extent = oldtype->extent, stride = extent, disp = 0;
    struct dt_type *t = oldtype;
    int coords[ndims > 0 ? ndims : 1];
    int err = MPI_SUCCESS;
    (void)size;
    /* Process grid coordinates: row-major whatever the array order (MPI-4.1 5.1.4). */
    for (int i = ndims - 1, r = rank; i >= 0; i--) {
        coords[i] = r % psizes[i];
        r /= psizes[i];
    }
    for (int i = 0; i < ndims; i++) {
        if (distribs[i] == MPI_DISTRIBUTE_BLOCK && dargs[i] != MPI_DISTRIBUTE_DFLT_DARG &&
            (MPI_Count)dargs[i] * psizes[i] < gsizes[i])
            return MPI_ERR_ARG;
    }
    dt_retain(t);
    for (int k = 0; k < ndims && err == MPI_SUCCESS; k++) {
        int d = dim_at(ndims, order, k);
        MPI_Count start = 0;
        if (distribs[d] == MPI_DISTRIBUTE_CYCLIC)
            err = darray_cyclic(&t, gsizes[d], psizes[d], coords[d], dargs[d], stride, extent,
                                k == 0, &start);
        else if (distribs[d] == MPI_DISTRIBUTE_BLOCK)
            err = darray_block(&t, gsizes[d], psizes[d], coords[d], dargs[d], stride, k == 0,
                               &start);
        else /* MPI_DISTRIBUTE_NONE: the whole dimension */
            err = darray_block(&t, gsizes[d], 1, 0, MPI_DISTRIBUTE_DFLT_DARG, stride, k == 0,
                               &start);
        if (err == MPI_SUCCESS)
            err = resized(&t, 0, (MPI_Aint)gsizes[d] * stride); /* the whole hyperplane */
        disp += (MPI_Aint)start * stride;
        stride *= (MPI_Aint)gsizes[d];
    }
    if (err == MPI_SUCCESS && disp != 0)
        err = shifted(&t, disp);
    if (err == MPI_SUCCESS)
        err = resized(&t, 0, stride);
    if (err != MPI_SUCCESS) {
        if (t)
            dt_release(t);
        return err;
    }
    return dt_wrap_built(t, out);
}
