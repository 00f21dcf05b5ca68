/* commit.c - compiles a type into its block list: the type map of one element as (offset,
 * length) byte ranges in type-map order, adjacent ranges merged, followed by the packed-stream
 * position of each block (so pack.c finds the block holding any byte by binary search). Types
 * are compiled bottom-up: a child's list is compiled once (and kept) and copied shifted into its
 * parents, and a run of copies of a dense child (one block filling its extent) is one block.
 * Also the walk over basic elements that external32 and element counting use. */
#include <stdlib.h>
#include <string.h>

#include "datatype/internal.h"

struct builder {
    struct dt_block *blocks;
    size_t n, capacity;
    int failed;
};

static void push(struct builder *b, MPI_Aint offset, MPI_Count length)
{
    if (length == 0 || b->failed)
        return;
    if (b->n) {
        struct dt_block *last = &b->blocks[b->n - 1];
        if (last->offset + last->length == offset) {
            last->length += length;
            return;
        }
    }
    if (b->n == b->capacity) {
        size_t capacity = b->capacity ? 2 * b->capacity : 16;
        struct dt_block *grown = realloc(b->blocks, capacity * sizeof(*grown));
        if (!grown) {
            b->failed = 1;
            return;
        }
        b->blocks = grown;
        b->capacity = capacity;
    }
    b->blocks[b->n++] = (struct dt_block){offset, length};
}

/* `copies` consecutive copies of a compiled child, the first at disp. */
static void push_copies(struct builder *b, const struct dt_type *child, MPI_Aint disp,
                        MPI_Count copies)
{
    if (copies <= 0 || child->size == 0)
        return;
    if (child->nblocks == 1 && child->blocks[0].length == child->extent) {
        push(b, disp + child->blocks[0].offset, copies * child->blocks[0].length);
        return;
    }
    for (MPI_Count j = 0; j < copies && !b->failed; j++) {
        MPI_Aint base = disp + (MPI_Aint)j * child->extent;
        for (size_t k = 0; k < child->nblocks; k++)
            push(b, base + child->blocks[k].offset, child->blocks[k].length);
    }
}

struct dt_block *dt_alloc_blocks(size_t n)
{
    return malloc(n * sizeof(struct dt_block) + (n + 1) * sizeof(MPI_Count));
}

void dt_set_positions(struct dt_type *type)
{
    MPI_Count *position = (MPI_Count *)(type->blocks + type->nblocks);
    position[0] = 0;
    for (size_t i = 0; i < type->nblocks; i++)
        position[i + 1] = position[i] + type->blocks[i].length;
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
        for (MPI_Count i = 0; i < d->count && !b->failed; i++)
            push_copies(b, d->child, (MPI_Aint)i * d->stride, d->blocklen);
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

int dt_compile(struct dt_type *type)
{
    if (type->blocks)
        return MPI_SUCCESS;
    struct dt_derived *d = dt_derived_of(type);
    int err = compile_children(d);
    if (err != MPI_SUCCESS)
        return err;
    struct builder b = {0};
    build(&b, d);
    if (b.failed) {
        free(b.blocks);
        return MPI_ERR_NO_MEM;
    }
    /* Shrink to the exact size and append the positions in the same allocation. */
    struct dt_block *blocks =
        realloc(b.blocks, b.n * sizeof(struct dt_block) + (b.n + 1) * sizeof(MPI_Count));
    if (!blocks) {
        free(b.blocks);
        return MPI_ERR_NO_MEM;
    }
    type->blocks = blocks;
    type->nblocks = b.n;
    dt_set_positions(type);
    return MPI_SUCCESS;
}

/* Group consecutive blocks of equal length at a constant stride into runs (greedy, in
 * type-map order). */
int dt_build_runs(const struct dt_type *type, struct dt_runs *runs)
{
    const struct dt_block *b = type->blocks;
    size_t n = 0;
    /* First pass counts the runs (in scratch), second fills them: no over-allocation. */
    for (int fill = 0; fill < 2; fill++) {
        struct dt_run scratch, *run = NULL;
        n = 0;
        for (size_t i = 0; i < type->nblocks; i++) {
            if (run && b[i].length == run->length &&
                (run->count == 1 || b[i].offset - b[i - 1].offset == run->stride)) {
                if (run->count == 1)
                    run->stride = b[i].offset - b[i - 1].offset;
                run->count++;
                continue;
            }
            run = fill ? &runs->run[n] : &scratch;
            *run = (struct dt_run){b[i].offset, 0, b[i].length, 1};
            n++;
        }
        if (!fill) {
            runs->run = malloc(n * sizeof(struct dt_run) + (n + 1) * sizeof(MPI_Count));
            if (!runs->run)
                return MPI_ERR_NO_MEM;
            runs->n = n;
        }
    }
    MPI_Count *position = (MPI_Count *)(runs->run + n);
    position[0] = 0;
    for (size_t i = 0; i < n; i++)
        position[i + 1] = position[i] + runs->run[i].count * runs->run[i].length;
    return MPI_SUCCESS;
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
