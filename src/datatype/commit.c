/* commit.c - compiles a type into its block list: the type map of one element as (offset,
 * length) byte ranges in type-map order, adjacent ranges merged, followed by the packed-stream
 * position of each block; then into runs (equal blocks at a constant stride) that the copy loops
 * of pack.c use. Types are compiled bottom-up: a child's list is compiled once (and kept) and
 * copied shifted into its parents, and a run of copies of a dense child (one block filling its
 * extent) is one block. Compiling caches lists in uncommitted children: two threads committing
 * types that share an uncommitted child at the same moment would race (not locked).
 * Also the walk over basic elements that external32 and element counting use. */
#include <stdlib.h>
#include <string.h>

#include "datatype/internal.h"

/* Flat block lists (struct dt_type.blocks) longer than this are not materialized: blocks
 * stays NULL and only the runs describe the type (nblocks is still exact). 2^20 blocks are
 * 16 MiB; a vector of 10^8 chars would otherwise need 1.6 GB of list for 100 MB of data. */
#define DT_FLAT_BLOCKS_MAX ((size_t)1 << 20)

struct builder {
    struct dt_run *runs;
    size_t n, capacity;
    int failed;
};

static struct dt_run *new_run(struct builder *b)
{
    if (b->n == b->capacity) {
        size_t capacity = b->capacity ? 2 * b->capacity : 8;
        struct dt_run *grown = realloc(b->runs, capacity * sizeof(*grown));
        if (!grown) {
            b->failed = 1;
            return NULL;
        }
        b->runs = grown;
        b->capacity = capacity;
    }
    return &b->runs[b->n++];
}

static MPI_Aint last_block_offset(const struct dt_run *run)
{
    return run->offset + (MPI_Aint)(run->count - 1) * run->stride;
}

/* One block, in type-map order: merged with the previous block when adjacent (so the blocks
 * are those of the merged flat list), else added to the last run when it continues its
 * stride, else the start of a new run. */
static void push_block(struct builder *b, MPI_Aint offset, MPI_Count length)
{
    if (length == 0 || b->failed)
        return;
    if (b->n > 0) {
        struct dt_run *last = &b->runs[b->n - 1];
        MPI_Aint last_offset = last_block_offset(last);
        if (last_offset + last->length == offset) {
            if (last->count == 1) {
                last->length += length;
                return;
            }
            MPI_Count merged = last->length + length; /* the last block leaves its run */
            last->count--;
            struct dt_run *run = new_run(b);
            if (run)
                *run = (struct dt_run){last_offset, 0, merged, 1};
            return;
        }
        if (last->length == length &&
            (last->count == 1 || offset - last_offset == last->stride)) {
            last->stride = offset - last_offset;
            last->count++;
            return;
        }
    }
    struct dt_run *run = new_run(b);
    if (run)
        *run = (struct dt_run){offset, 0, length, 1};
}

/* count blocks of length bytes, stride apart. */
static void push_run(struct builder *b, MPI_Aint offset, MPI_Aint stride, MPI_Count length,
                     MPI_Count count)
{
    if (count <= 0 || length == 0 || b->failed)
        return;
    if (stride == length || count == 1) { /* one block */
        push_block(b, offset, length * count);
        return;
    }
    push_block(b, offset, length);
    struct dt_run *last = &b->runs[b->n - 1];
    if (!b->failed && last_block_offset(last) == offset && last->length == length &&
        (last->count == 1 || last->stride == stride)) {
        last->stride = stride; /* the first block is where the run continues */
        last->count += count - 1;
        return;
    }
    struct dt_run *run = new_run(b);
    if (run)
        *run = (struct dt_run){offset + stride, stride, length, count - 1};
}

/* When `copies` consecutive copies of child continue one run, its parameters. */
static int fold_copies(const struct dt_type *child, MPI_Count copies, struct dt_run *folded)
{
    const struct dt_runs *runs = dt_runs_of(child);
    if (runs->n != 1)
        return 0;
    const struct dt_run *r = &runs->run[0];
    if (r->count > 1 && r->stride * (MPI_Aint)r->count != child->extent)
        return 0;
    *folded = (struct dt_run){r->offset, r->count > 1 ? r->stride : child->extent, r->length,
                              r->count * copies};
    return 1;
}

/* `copies` consecutive copies of a compiled child, the first at disp. */
static void push_copies(struct builder *b, const struct dt_type *child, MPI_Aint disp,
                        MPI_Count copies)
{
    struct dt_run folded;
    if (copies <= 0 || child->size == 0)
        return;
    if (fold_copies(child, copies, &folded)) {
        push_run(b, disp + folded.offset, folded.stride, folded.length, folded.count);
        return;
    }
    const struct dt_runs *runs = dt_runs_of(child);
    for (MPI_Count j = 0; j < copies && !b->failed; j++) {
        MPI_Aint base = disp + (MPI_Aint)j * child->extent;
        for (size_t k = 0; k < runs->n; k++)
            push_run(b, base + runs->run[k].offset, runs->run[k].stride, runs->run[k].length,
                     runs->run[k].count);
    }
}

/* A vector whose blocks are single blocks (of basic or dense types) is one run. */
static void push_vector(struct builder *b, const struct dt_derived *d)
{
    struct dt_run folded;
    if (d->blocklen > 0 && d->child->size > 0 && fold_copies(d->child, d->blocklen, &folded) &&
        (folded.count == 1 || folded.stride == folded.length)) {
        push_run(b, folded.offset, d->stride, folded.length * folded.count, d->count);
        return;
    }
    for (MPI_Count i = 0; i < d->count && !b->failed; i++)
        push_copies(b, d->child, (MPI_Aint)i * d->stride, d->blocklen);
}

struct dt_block *dt_alloc_blocks(size_t n)
{
    return malloc((n ? n : 1) * sizeof(struct dt_block));
}

void dt_free_blocks(struct dt_type *type)
{
    free(type->blocks);
    type->blocks = NULL;
    type->nblocks = 0;
}

static int compile_children(struct dt_derived *d)
{
    if (d->kind != DT_KIND_STRUCT)
        return dt_compile(d->child);
    for (MPI_Count i = 0; i < d->count; i++) {
        int err = dt_compile(d->children[i]);
        if (err != MPI_SUCCESS)
            return err;
    }
    return MPI_SUCCESS;
}

static void build(struct builder *b, const struct dt_derived *d)
{
    switch (d->kind) {
    case DT_KIND_CONTIGUOUS:
        push_copies(b, d->child, 0, d->count);
        break;
    case DT_KIND_VECTOR:
        push_vector(b, d);
        break;
    case DT_KIND_INDEXED:
        for (MPI_Count i = 0; i < d->count && !b->failed; i++)
            push_copies(b, d->child, d->displs[i], d->blocklens ? d->blocklens[i] : d->blocklen);
        break;
    case DT_KIND_STRUCT:
        for (MPI_Count i = 0; i < d->count && !b->failed; i++)
            push_copies(b, d->children[i], d->displs[i], d->blocklens[i]);
        break;
    case DT_KIND_RESIZED:
    case DT_KIND_WRAP:
        push_copies(b, d->child, 0, 1);
        break;
    }
}

/* The flat list from the runs, when it is small enough to keep. */
static int expand_blocks(struct dt_type *type, const struct dt_runs *runs)
{
    size_t n = 0;
    for (size_t i = 0; i < runs->n; i++)
        n += (size_t)runs->run[i].count;
    type->nblocks = n;
    type->blocks = NULL;
    if (n > DT_FLAT_BLOCKS_MAX)
        return MPI_SUCCESS;
    type->blocks = dt_alloc_blocks(n);
    if (!type->blocks)
        return MPI_ERR_NO_MEM;
    struct dt_block *out = type->blocks;
    for (size_t i = 0; i < runs->n; i++) {
        const struct dt_run *r = &runs->run[i];
        for (MPI_Count k = 0; k < r->count; k++)
            *out++ = (struct dt_block){r->offset + (MPI_Aint)k * r->stride, r->length};
    }
    return MPI_SUCCESS;
}

/* Shrink the builder's runs to their exact size with the packed positions appended. */
static int finish_runs(struct builder *b, struct dt_runs *runs)
{
    struct dt_run *run = b->failed ? NULL
                                   : realloc(b->runs, b->n * sizeof(struct dt_run) +
                                                          (b->n + 1) * sizeof(MPI_Count));
    if (!run) {
        free(b->runs);
        return MPI_ERR_NO_MEM;
    }
    runs->run = run;
    runs->n = b->n;
    MPI_Count *position = (MPI_Count *)(run + b->n);
    position[0] = 0;
    for (size_t i = 0; i < b->n; i++)
        position[i + 1] = position[i] + run[i].count * run[i].length;
    return MPI_SUCCESS;
}

int dt_compile(struct dt_type *type)
{
    struct dt_runs *runs = (struct dt_runs *)dt_runs_of(type);
    if (runs->run)
        return MPI_SUCCESS;
    struct dt_derived *d = dt_derived_of(type);
    int err = compile_children(d);
    if (err != MPI_SUCCESS)
        return err;
    struct builder b = {0};
    build(&b, d);
    if ((err = finish_runs(&b, runs)) != MPI_SUCCESS)
        return err;
    err = expand_blocks(type, runs);
    if (err != MPI_SUCCESS)
        dt_free_runs(runs);
    return err;
}

/* Runs of a predefined type from its (one or two) blocks. */
int dt_build_runs(const struct dt_type *type, struct dt_runs *runs)
{
    struct builder b = {0};
    for (size_t i = 0; i < type->nblocks; i++)
        push_block(&b, type->blocks[i].offset, type->blocks[i].length);
    return finish_runs(&b, runs);
}

void dt_free_runs(struct dt_runs *runs)
{
    free(runs->run);
    runs->run = NULL;
    runs->n = 0;
}

/* n copies of child from disp on, stride: child's extent. */
static int walk_copies(const struct dt_type *child, MPI_Aint disp, MPI_Count n, dt_leaf_fn *fn,
                       void *ctx)
{
    if (n <= 0 || child->size == 0)
        return 0;
    if (child->predefined)
        return fn(ctx, child, disp, n);
    for (MPI_Count j = 0; j < n; j++) {
        int stop = dt_walk_leaves(child, disp + (MPI_Aint)j * child->extent, fn, ctx);
        if (stop)
            return stop;
    }
    return 0;
}

int dt_walk_leaves(const struct dt_type *type, MPI_Aint disp, dt_leaf_fn *fn, void *ctx)
{
    if (type->predefined)
        return fn(ctx, type, disp, 1);
    const struct dt_derived *d = dt_derived_of(type);
    int stop = 0;
    switch (d->kind) {
    case DT_KIND_CONTIGUOUS:
        return walk_copies(d->child, disp, d->count, fn, ctx);
    case DT_KIND_VECTOR:
        for (MPI_Count i = 0; i < d->count && !stop; i++)
            stop = walk_copies(d->child, disp + (MPI_Aint)i * d->stride, d->blocklen, fn, ctx);
        return stop;
    case DT_KIND_INDEXED:
        for (MPI_Count i = 0; i < d->count && !stop; i++)
            stop = walk_copies(d->child, disp + d->displs[i],
                               d->blocklens ? d->blocklens[i] : d->blocklen, fn, ctx);
        return stop;
    case DT_KIND_STRUCT:
        for (MPI_Count i = 0; i < d->count && !stop; i++)
            stop = walk_copies(d->children[i], disp + d->displs[i], d->blocklens[i], fn, ctx);
        return stop;
    case DT_KIND_RESIZED:
    case DT_KIND_WRAP:
        return dt_walk_leaves(d->child, disp, fn, ctx);
    }
    return 0;
}
