/* view.c - file views (MPI-4.1 14.3): the filetype flattened once into its blocks in file order,
 * and the arithmetic from a data position (bytes of etype data from the view's start) to file
 * bytes. Knows nothing of file descriptors; data representations other than native are
 * refused here (internal aliases native). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "datatype/construct.h"
#include "io/io.h"

struct collect {
    struct dt_block *blocks;
    size_t count, capacity;
    int backwards;
};

/* dt_for_each_block callback: append a block, merging it with its predecessor when adjacent. */
static int collect_block(void *ctx, MPI_Aint offset, MPI_Count length)
{
    struct collect *c = ctx;
    if (length == 0)
        return 0;
    if (c->count > 0) {
        struct dt_block *last = &c->blocks[c->count - 1];
        if (offset < last->offset + last->length) {
            c->backwards = 1;   /* the standard requires nondecreasing, disjoint blocks */
            return 1;
        }
        if (offset == last->offset + last->length) {
            last->length += length;
            return 0;
        }
    }
    if (c->count == c->capacity) {
        size_t capacity = c->capacity ? 2 * c->capacity : 16;
        struct dt_block *grown = realloc(c->blocks, capacity * sizeof(*grown));
        if (!grown)
            return -1;
        c->blocks = grown;
        c->capacity = capacity;
    }
    c->blocks[c->count].offset = offset;
    c->blocks[c->count].length = length;
    c->count++;
    return 0;
}

/* native and internal (an alias) store memory's bytes; external32 is taken when the view's
 * types have the same size in both representations (true of every C type on x86_64 Linux:
 * then the file layout is native's and only the bytes of each element change, access.c). */
static int datarep_supported(const char *datarep, struct dt_type *etype,
                             struct dt_type *filetype)
{
    if (strcmp(datarep, "native") == 0 || strcmp(datarep, "internal") == 0)
        return 1;
    if (strcmp(datarep, "external32") == 0)
        return io_external32_same_size(etype) && io_external32_same_size(filetype);
    const struct io_datarep *user = io_datarep_find(datarep); /* datarep.c: the same rule */
    return user && io_datarep_same_size(user, etype) && io_datarep_same_size(user, filetype);
}

int io_external32_same_size(const struct dt_type *type)
{
    return dt_external32_size(type, 1) == type->size;
}

int io_view_set(struct io_view *view, MPI_Offset disp, struct dt_type *etype,
                struct dt_type *filetype, const char *datarep)
{
    if (!datarep_supported(datarep, etype, filetype))
        return MPI_ERR_UNSUPPORTED_DATAREP;
    /* A filetype of size 0 (no etype at all, e.g. an hindexed of zero-length blocks) is a view
     * without data: a process with nothing to access in a collective passes one (PnetCDF's
     * fill of a variable smaller than the job does); only zero-size accesses go through it. */
    int empty = filetype->size == 0;
    if (etype->size <= 0 || filetype->size < 0 || filetype->size % etype->size != 0 ||
        (!empty && filetype->extent <= 0))
        return MPI_ERR_ARG;
    struct collect c = {0};
    int rc = empty ? 0 : dt_for_each_block(filetype, 1, collect_block, &c);
    if (rc != 0 || c.backwards || (!empty && (c.count == 0 || c.blocks[0].offset < 0))) {
        free(c.blocks);
        return rc < 0 ? MPI_ERR_NO_MEM : MPI_ERR_ARG;
    }
    MPI_Count *prefix = malloc((c.count ? c.count : 1) * sizeof(*prefix));
    if (!prefix) {
        free(c.blocks);
        return MPI_ERR_NO_MEM;
    }
    MPI_Count sum = 0;
    for (size_t i = 0; i < c.count; i++) {
        prefix[i] = sum;
        sum += c.blocks[i].length;
    }
    dt_retain(etype);
    dt_retain(filetype);
    io_view_free(view);
    view->disp = disp;
    view->etype = etype;
    view->filetype = filetype;
    snprintf(view->datarep, sizeof(view->datarep), "%s", datarep);
    view->user_datarep = io_datarep_find(datarep);
    view->blocks = c.blocks;
    view->nblocks = c.count;
    view->prefix = prefix;
    view->tile_size = filetype->size;
    view->tile_extent = filetype->extent;
    return MPI_SUCCESS;
}

int io_view_init_default(struct io_view *view)
{
    memset(view, 0, sizeof(*view));
    struct dt_type *byte = dt_from_handle(MPI_BYTE);
    return io_view_set(view, 0, byte, byte, "native");
}

void io_view_free(struct io_view *view)
{
    if (view->etype)
        dt_release(view->etype);
    if (view->filetype)
        dt_release(view->filetype);
    free(view->blocks);
    free(view->prefix);
    memset(view, 0, sizeof(*view));
}

/* The block of the tile holding tile data byte r (binary search over the prefix sums). */
static size_t block_of(const struct io_view *view, MPI_Count r)
{
    size_t lo = 0, hi = view->nblocks - 1;
    while (lo < hi) {
        size_t mid = (lo + hi + 1) / 2;
        if (view->prefix[mid] <= r)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

MPI_Offset io_view_file_byte(const struct io_view *view, MPI_Offset d)
{
    if (view->tile_size == 0)
        return view->disp;   /* a view without data: every position is its start */
    MPI_Offset tile = d / view->tile_size;
    MPI_Count r = d % view->tile_size;
    size_t i = block_of(view, r);
    return view->disp + tile * view->tile_extent + view->blocks[i].offset +
           (r - view->prefix[i]);
}

MPI_Offset io_view_etypes_below(const struct io_view *view, MPI_Offset file_size)
{
    if (file_size <= view->disp || view->tile_size == 0)
        return 0;
    MPI_Offset rel = file_size - view->disp;
    MPI_Offset tiles = rel / view->tile_extent;
    MPI_Offset rest = rel - tiles * view->tile_extent;
    MPI_Offset data = tiles * view->tile_size;
    for (size_t i = 0; i < view->nblocks; i++) {
        MPI_Offset in = rest - view->blocks[i].offset;
        if (in <= 0)
            break;
        data += in < view->blocks[i].length ? in : view->blocks[i].length;
    }
    MPI_Count esize = view->etype->size;
    return (data + esize - 1) / esize;
}

/* Tiles that follow each other without gaps: data byte d is at a fixed distance from file
 * byte d. */
static int view_is_linear(const struct io_view *view)
{
    return view->nblocks == 1 && view->blocks[0].length == view->tile_extent;
}

/* Pieces that touch in the file (a contiguous filetype tiles into one run) are handed to fn
 * as one, so a plain byte view costs one system call per transfer. */
int io_view_for_each_segment(const struct io_view *view, MPI_Offset d, size_t bytes,
                             io_segment_fn *fn, void *ctx)
{
    if (view_is_linear(view))
        return bytes > 0 ? fn(ctx, io_view_file_byte(view, d), bytes, 0) : 0;
    MPI_Offset tile = d / view->tile_size;
    MPI_Count r = d % view->tile_size;
    size_t i = block_of(view, r);
    MPI_Count within = r - view->prefix[i];
    size_t done = 0, run_pos = 0, run_length = 0;
    MPI_Offset run_at = 0;
    while (done < bytes) {
        const struct dt_block *b = &view->blocks[i];
        size_t length = (size_t)(b->length - within);
        if (length > bytes - done)
            length = bytes - done;
        MPI_Offset at = view->disp + tile * view->tile_extent + b->offset + within;
        if (run_length > 0 && at == run_at + (MPI_Offset)run_length) {
            run_length += length;
        } else {
            int rc = run_length > 0 ? fn(ctx, run_at, run_length, run_pos) : 0;
            if (rc != 0)
                return rc;
            run_at = at;
            run_pos = done;
            run_length = length;
        }
        done += length;
        within = 0;
        if (++i == view->nblocks) {
            i = 0;
            tile++;
        }
    }
    return run_length > 0 ? fn(ctx, run_at, run_length, run_pos) : 0;
}
