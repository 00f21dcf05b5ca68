/* construct.c - derived datatype objects: the constructors (from checked, normalized arguments),
 * bounds and size computed from the children without expanding the type map, references and
 * freeing, and the stored constructor arguments for MPI_Type_get_envelope/contents.
 * Compiling the block list is commit.c's job; nothing here walks a whole type map. */
#include <stdlib.h>
#include <string.h>

#include "datatype/construct.h"
#include "datatype/internal.h"

/* Bounds, size and element kind of a type map, accumulated block by block. */
struct accum {
    MPI_Count size, element_count, ext32_size;
    int has_data, has_lb_marker, has_ub_marker, has_element;
    MPI_Aint data_lb, data_ub, lb_marker, ub_marker;
    MPI_Aint span_ub; /* the furthest end of a copy's whole extent (accum_finish says why) */
    int align;
    enum dt_element element;
    MPI_Count element_size;
};

static MPI_Aint min_aint(MPI_Aint a, MPI_Aint b) { return a < b ? a : b; }
static MPI_Aint max_aint(MPI_Aint a, MPI_Aint b) { return a > b ? a : b; }

/* Add `copies` copies of child whose displacements range over [lo, hi]. */
static void accum_add(struct accum *acc, const struct dt_type *child, MPI_Count copies,
                      MPI_Aint lo, MPI_Aint hi)
{
    const struct dt_layout *cl = dt_layout_of(child);
    if (copies <= 0)
        return;
    acc->size += copies * child->size;
    acc->element_count += copies * child->element_count;
    acc->ext32_size += copies * cl->ext32_size;
    if (child->size > 0) {
        MPI_Aint true_ub = child->true_lb + child->true_extent;
        acc->data_lb = acc->has_data ? min_aint(acc->data_lb, lo + child->true_lb)
                                     : lo + child->true_lb;
        acc->data_ub = acc->has_data ? max_aint(acc->data_ub, hi + true_ub) : hi + true_ub;
        MPI_Aint span_ub = hi + child->lb + child->extent;
        acc->span_ub = acc->has_data ? max_aint(acc->span_ub, span_ub) : span_ub;
        acc->has_data = 1;
        if (!acc->has_element) {
            acc->element = child->element;
            acc->element_size = child->element_size;
            acc->has_element = 1;
        } else if (acc->element != child->element) {
            acc->element = DT_ELEMENT_MIXED;
            acc->element_size = 0;
        }
        if (cl->align > acc->align)
            acc->align = cl->align;
    }
    if (cl->has_lb_marker) {
        MPI_Aint m = lo + cl->lb_marker;
        acc->lb_marker = acc->has_lb_marker ? min_aint(acc->lb_marker, m) : m;
        acc->has_lb_marker = 1;
    }
    if (cl->has_ub_marker) {
        MPI_Aint m = hi + cl->ub_marker;
        acc->ub_marker = acc->has_ub_marker ? max_aint(acc->ub_marker, m) : m;
        acc->has_ub_marker = 1;
    }
}

/* One block of blocklen consecutive copies (stride: the child's extent) at disp. */
static void accum_block(struct accum *acc, const struct dt_type *child, MPI_Count blocklen,
                        MPI_Aint disp)
{
    MPI_Aint span = (MPI_Aint)(blocklen - 1) * child->extent;
    accum_add(acc, child, blocklen, disp + min_aint(0, span), disp + max_aint(0, span));
}

/* lb, ub and extent per MPI-4.1 section 5.1.7: markers win; without an ub marker the extent
 * is rounded up to the type map's largest alignment (as Open MPI and MPICH do for structs).
 * Without an ub marker, ub also covers every copy's whole extent, the padding the alignment
 * rule gave a derived child included, as Open MPI and MPICH do: a vector of a 66-byte-data,
 * 68-byte-extent child whose last copy starts at 409 ends at 477 (then 480 aligned), where
 * the type map's last byte alone gives 475 (476). NumPy, and so mpi4py's datatype tests,
 * require the former (the copies are array elements of the child's extent). */
static void accum_finish(const struct accum *acc, struct dt_derived *d)
{
    struct dt_type *t = &d->type;
    MPI_Aint lb = acc->has_lb_marker ? acc->lb_marker : acc->has_data ? acc->data_lb : 0;
    MPI_Aint ub = acc->has_ub_marker ? acc->ub_marker
                  : acc->has_data    ? max_aint(acc->data_ub, acc->span_ub)
                                     : 0;
    if (!acc->has_ub_marker && acc->align > 1 && ub - lb > 0 && (ub - lb) % acc->align)
        ub += acc->align - (ub - lb) % acc->align;
    t->size = acc->size;
    t->lb = lb;
    t->extent = ub - lb;
    t->true_lb = acc->has_data ? acc->data_lb : 0;
    t->true_extent = acc->has_data ? acc->data_ub - acc->data_lb : 0;
    t->element = acc->has_element ? acc->element : DT_ELEMENT_MIXED;
    t->element_size = acc->has_element ? acc->element_size : 0;
    t->element_count = acc->element_count;
    d->layout.lb_marker = acc->lb_marker;
    d->layout.ub_marker = acc->ub_marker;
    d->layout.has_lb_marker = (unsigned char)acc->has_lb_marker;
    d->layout.has_ub_marker = (unsigned char)acc->has_ub_marker;
    d->layout.align = (unsigned char)(acc->align ? acc->align : 1);
    d->layout.ext32_size = acc->ext32_size;
}

static struct dt_derived *derived_new(enum dt_kind kind, struct dt_type *child)
{
    struct dt_derived *d = calloc(1, sizeof(*d));
    if (!d)
        return NULL;
    d->magic = DT_MAGIC;
    d->kind = kind;
    d->type.refcount = 1;
    d->type.layer_private = d;
    d->contents.combiner = MPI_COMBINER_NAMED;
    if (child) {
        dt_retain(child);
        d->child = child;
    }
    return d;
}

int dt_create_contiguous(MPI_Count count, struct dt_type *oldtype, struct dt_type **out)
{
    struct dt_derived *d = derived_new(DT_KIND_CONTIGUOUS, oldtype);
    struct accum acc = {0};
    if (!d)
        return MPI_ERR_NO_MEM;
    d->count = count;
    accum_block(&acc, oldtype, count, 0);
    accum_finish(&acc, d);
    *out = &d->type;
    return MPI_SUCCESS;
}

int dt_create_vector(MPI_Count count, MPI_Count blocklen, MPI_Aint stride,
                     struct dt_type *oldtype, struct dt_type **out)
{
    struct dt_derived *d = derived_new(DT_KIND_VECTOR, oldtype);
    struct accum acc = {0};
    if (!d)
        return MPI_ERR_NO_MEM;
    d->count = count;
    d->blocklen = blocklen;
    d->stride = stride;
    if (count > 0 && blocklen > 0) {
        /* Blocks are at i * stride: the extremes are the first and the last block. */
        MPI_Aint span = (MPI_Aint)(blocklen - 1) * oldtype->extent;
        MPI_Aint reach = (MPI_Aint)(count - 1) * stride;
        accum_add(&acc, oldtype, count * blocklen, min_aint(0, reach) + min_aint(0, span),
                  max_aint(0, reach) + max_aint(0, span));
    }
    accum_finish(&acc, d);
    *out = &d->type;
    return MPI_SUCCESS;
}

static int copy_blocks(struct dt_derived *d, MPI_Count count, const MPI_Count *blocklens,
                       const MPI_Aint *displs)
{
    size_t n = count > 0 ? (size_t)count : 1;
    d->displs = malloc(n * sizeof(*d->displs));
    if (!d->displs)
        return MPI_ERR_NO_MEM;
    if (count > 0)
        memcpy(d->displs, displs, (size_t)count * sizeof(*displs));
    if (blocklens) {
        d->blocklens = malloc(n * sizeof(*d->blocklens));
        if (!d->blocklens)
            return MPI_ERR_NO_MEM;
        if (count > 0)
            memcpy(d->blocklens, blocklens, (size_t)count * sizeof(*blocklens));
    }
    return MPI_SUCCESS;
}

int dt_create_indexed(MPI_Count count, const MPI_Count *blocklens, MPI_Count blocklen,
                      const MPI_Aint *displs, struct dt_type *oldtype, struct dt_type **out)
{
    struct dt_derived *d = derived_new(DT_KIND_INDEXED, oldtype);
    struct accum acc = {0};
    if (!d)
        return MPI_ERR_NO_MEM;
    d->count = count;
    d->blocklen = blocklen;
    if (copy_blocks(d, count, blocklens, displs) != MPI_SUCCESS) {
        dt_release(&d->type);
        return MPI_ERR_NO_MEM;
    }
    for (MPI_Count i = 0; i < count; i++)
        accum_block(&acc, oldtype, blocklens ? blocklens[i] : blocklen, displs[i]);
    accum_finish(&acc, d);
    *out = &d->type;
    return MPI_SUCCESS;
}

int dt_create_struct(MPI_Count count, const MPI_Count *blocklens, const MPI_Aint *displs,
                     struct dt_type *const *types, struct dt_type **out)
{
    struct dt_derived *d = derived_new(DT_KIND_STRUCT, NULL);
    struct accum acc = {0};
    if (!d)
        return MPI_ERR_NO_MEM;
    d->count = count;
    d->children = calloc(count > 0 ? (size_t)count : 1, sizeof(*d->children));
    if (!d->children || copy_blocks(d, count, blocklens, displs) != MPI_SUCCESS) {
        dt_release(&d->type);
        return MPI_ERR_NO_MEM;
    }
    for (MPI_Count i = 0; i < count; i++) {
        dt_retain(types[i]);
        d->children[i] = types[i];
        accum_block(&acc, types[i], blocklens[i], displs[i]);
    }
    accum_finish(&acc, d);
    *out = &d->type;
    return MPI_SUCCESS;
}

int dt_create_resized(struct dt_type *oldtype, MPI_Aint lb, MPI_Aint extent,
                      struct dt_type **out)
{
    struct dt_derived *d = derived_new(DT_KIND_RESIZED, oldtype);
    struct accum acc = {0};
    if (!d)
        return MPI_ERR_NO_MEM;
    /* The old markers are erased; the new ones sit at lb and lb + extent. */
    accum_block(&acc, oldtype, 1, 0);
    acc.has_lb_marker = acc.has_ub_marker = 1;
    acc.lb_marker = lb;
    acc.ub_marker = lb + extent;
    accum_finish(&acc, d);
    *out = &d->type;
    return MPI_SUCCESS;
}

/* A type identical to child (dup; subarray and darray around the type that implements them). */
static int create_wrap(struct dt_type *child, struct dt_type **out)
{
    struct dt_derived *d = derived_new(DT_KIND_WRAP, child);
    if (!d)
        return MPI_ERR_NO_MEM;
    const struct dt_layout *cl = dt_layout_of(child);
    struct dt_type *t = &d->type;
    t->size = child->size;
    t->lb = child->lb;
    t->extent = child->extent;
    t->true_lb = child->true_lb;
    t->true_extent = child->true_extent;
    t->element = child->element;
    t->element_count = child->element_count;
    t->element_size = child->element_size;
    d->layout = *cl;
    *out = t;
    return MPI_SUCCESS;
}

int dt_create_dup(struct dt_type *oldtype, struct dt_type **out)
{
    int err = create_wrap(oldtype, out);
    if (err == MPI_SUCCESS && oldtype->committed)
        err = dt_commit(*out);
    return err;
}

/* Subarray and darray: the implementing type is built from the constructors above, then
 * wrapped so that the user's type reports its own combiner. */
int dt_wrap_built(struct dt_type *built, struct dt_type **out)
{
    int err = create_wrap(built, out);
    dt_release(built); /* the wrapper holds the only reference now */
    return err;
}

int dt_commit(struct dt_type *type)
{
    if (type->committed)
        return MPI_SUCCESS;
    int err = dt_compile(type);
    if (err != MPI_SUCCESS)
        return err;
    type->contiguous = type->size == 0 ||
                       (type->nblocks == 1 && type->extent == (MPI_Aint)type->size);
    type->committed = 1;
    return MPI_SUCCESS;
}

/* Relaxed: a new reference is made from one the caller holds, so the object cannot go meanwhile
 * and nothing is published through the count. */
void dt_retain_counted(struct dt_type *type)
{
    __atomic_add_fetch(&type->refcount, 1, __ATOMIC_RELAXED);
}

static void free_contents(struct dt_contents *c)
{
    for (MPI_Count i = 0; i < c->ntypes; i++)
        dt_release(dt_from_handle(c->types[i]));
    free(c->ints);
    free(c->addrs);
    free(c->counts);
    free(c->types);
}

/* Acquire-release: every use of the type through a reference happens before the destruction
 * by whichever thread drops the last one. */
void dt_release_counted(struct dt_type *type)
{
    if (__atomic_sub_fetch(&type->refcount, 1, __ATOMIC_ACQ_REL) > 0)
        return;
    dt_destroy_derived(type);
}

void dt_destroy_derived(struct dt_type *type)
{
    struct dt_derived *d = dt_derived_of(type);
    if (d->child)
        dt_release(d->child);
    if (d->children) {
        for (MPI_Count i = 0; i < d->count; i++)
            if (d->children[i])
                dt_release(d->children[i]);
        free(d->children);
    }
    free(d->blocklens);
    free(d->displs);
    free_contents(&d->contents);
    dt_free_blocks(type);
    dt_free_runs(&d->runs);
    d->magic = 0;
    free(d);
}

static int copy_array(void **dst, const void *src, MPI_Count n, size_t elem)
{
    *dst = NULL;
    if (n <= 0)
        return MPI_SUCCESS;
    *dst = malloc((size_t)n * elem);
    if (!*dst)
        return MPI_ERR_NO_MEM;
    memcpy(*dst, src, (size_t)n * elem);
    return MPI_SUCCESS;
}

int dt_set_contents(struct dt_type *type, int combiner, MPI_Count nints, const int *ints,
                    MPI_Count naddrs, const MPI_Aint *addrs, MPI_Count ncounts,
                    const MPI_Count *counts, MPI_Count ntypes, const MPI_Datatype *types)
{
    struct dt_contents *c = &dt_derived_of(type)->contents;
    free_contents(c);
    memset(c, 0, sizeof(*c));
    c->combiner = combiner;
    if (copy_array((void **)&c->ints, ints, nints, sizeof(*ints)) ||
        copy_array((void **)&c->addrs, addrs, naddrs, sizeof(*addrs)) ||
        copy_array((void **)&c->counts, counts, ncounts, sizeof(*counts)) ||
        copy_array((void **)&c->types, types, ntypes, sizeof(*types)))
        return MPI_ERR_NO_MEM;
    c->nints = nints;
    c->naddrs = naddrs;
    c->ncounts = ncounts;
    c->ntypes = ntypes;
    for (MPI_Count i = 0; i < ntypes; i++)
        dt_retain(dt_from_handle(types[i]));
    return MPI_SUCCESS;
}

void dt_get_envelope(const struct dt_type *type, MPI_Count *nints, MPI_Count *naddrs,
                     MPI_Count *ncounts, MPI_Count *ntypes, int *combiner)
{
    if (type->predefined) {
        *nints = *naddrs = *ncounts = *ntypes = 0;
        *combiner = MPI_COMBINER_NAMED;
        return;
    }
    const struct dt_contents *c = &dt_derived_of(type)->contents;
    *nints = c->nints;
    *naddrs = c->naddrs;
    *ncounts = c->ncounts;
    *ntypes = c->ntypes;
    *combiner = c->combiner;
}

void dt_get_contents(const struct dt_type *type, int *ints, MPI_Aint *addrs, MPI_Count *counts,
                     MPI_Datatype *types)
{
    const struct dt_contents *c = &dt_derived_of(type)->contents;
    if (c->nints)
        memcpy(ints, c->ints, (size_t)c->nints * sizeof(*ints));
    if (c->naddrs)
        memcpy(addrs, c->addrs, (size_t)c->naddrs * sizeof(*addrs));
    if (c->ncounts)
        memcpy(counts, c->counts, (size_t)c->ncounts * sizeof(*counts));
    for (MPI_Count i = 0; i < c->ntypes; i++) {
        types[i] = c->types[i];
        dt_retain(dt_from_handle(types[i]));
    }
}
