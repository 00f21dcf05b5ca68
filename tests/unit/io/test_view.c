/* test_view.c - the view arithmetic of src/io/view.c against a brute-force reference: random
 * filetypes (vector, indexed, resized with gaps at either end), displacements and etypes; for
 * every data byte its file byte, the segments of random ranges (exact bytes, adjacent pieces
 * merged) and the etypes below random file sizes. Uses the internal dt_* and io_* API. */
#include <stdlib.h>
#include <string.h>

#include "../common/unit_check.h"
#include "datatype/construct.h"
#include "datatype/datatype.h"
#include "io/io.h"

static unsigned long long rng = 0x9e3779b97f4a7c15ull;

static unsigned rnd(unsigned n)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return n ? (unsigned)(rng % n) : 0;
}

/* A random filetype of ints: a vector or an indexed type, resized to a larger extent. */
static struct dt_type *random_filetype(void)
{
    struct dt_type *ints = dt_from_handle(MPI_INT), *inner = NULL, *out = NULL;
    if (rnd(2)) {
        MPI_Count count = 1 + rnd(4), blocklen = 1 + rnd(3);
        dt_create_vector(count, blocklen, (MPI_Aint)(blocklen + rnd(3)) * 4, ints, &inner);
    } else {
        MPI_Count lens[4];
        MPI_Aint displs[4], at = rnd(3) * 4;
        int n = 1 + (int)rnd(4);
        for (int i = 0; i < n; i++) {
            lens[i] = 1 + rnd(3);
            displs[i] = at;
            at += (lens[i] + rnd(3)) * 4;
        }
        dt_create_indexed(n, lens, 0, displs, ints, &inner);
    }
    dt_commit(inner);
    dt_create_resized(inner, 0, inner->true_lb + inner->true_extent + rnd(3) * 4, &out);
    dt_commit(out);
    dt_release(inner);
    return out;
}

struct reference {
    MPI_Offset *file_byte;   /* file byte of data byte d */
    size_t n;
};

static int add_block(void *ctx, MPI_Aint offset, MPI_Count length)
{
    struct reference *r = ctx;
    for (MPI_Count i = 0; i < length; i++)
        r->file_byte[r->n++] = offset + i;
    return 0;
}

/* The file bytes of `tiles` tiles, from the type map and the MPI definition of a view. */
static void build_reference(struct reference *r, struct dt_type *filetype, MPI_Offset disp,
                            int tiles)
{
    r->file_byte = malloc((size_t)(filetype->size * tiles) * sizeof(MPI_Offset));
    r->n = 0;
    for (int k = 0; k < tiles; k++) {
        size_t first = r->n;
        dt_for_each_block(filetype, 1, add_block, r);
        for (size_t i = first; i < r->n; i++)
            r->file_byte[i] += disp + (MPI_Offset)k * filetype->extent;
    }
}

struct collected {
    const struct reference *r;
    MPI_Offset d0;
    size_t expected_pos;
    MPI_Offset last_end;
    int bad;
};

static int check_segment(void *ctx, MPI_Offset file_offset, size_t length, size_t data_pos)
{
    struct collected *c = ctx;
    if (data_pos != c->expected_pos || file_offset == c->last_end)
        c->bad = 1;   /* out of order, or two pieces that should have been merged */
    for (size_t i = 0; i < length; i++)
        if (c->r->file_byte[c->d0 + data_pos + i] != file_offset + (MPI_Offset)i)
            c->bad = 1;
    c->expected_pos = data_pos + length;
    c->last_end = file_offset + (MPI_Offset)length;
    return 0;
}

static void check_view(int round)
{
    struct dt_type *filetype = random_filetype();
    struct dt_type *etype = dt_from_handle(rnd(2) ? MPI_INT : MPI_BYTE);
    MPI_Offset disp = rnd(5) * 4;
    struct io_view view;
    CHECK(io_view_init_default(&view) == MPI_SUCCESS, "default view");
    CHECK(io_view_set(&view, disp, etype, filetype, "native") == MPI_SUCCESS, "set view");
    enum { TILES = 6 };
    struct reference r;
    build_reference(&r, filetype, disp, TILES);
    for (size_t d = 0; d < r.n; d++)
        if (io_view_file_byte(&view, (MPI_Offset)d) != r.file_byte[d]) {
            CHECK(0, "round %d: data byte %zu at %lld, expected %lld", round, d,
                  (long long)io_view_file_byte(&view, (MPI_Offset)d),
                  (long long)r.file_byte[d]);
            break;
        }
    for (int t = 0; t < 20; t++) {
        MPI_Offset d0 = rnd((unsigned)r.n);
        size_t length = rnd((unsigned)(r.n - (size_t)d0)) + 1;
        struct collected c = {&r, d0, 0, -1, 0};
        io_view_for_each_segment(&view, d0, length, check_segment, &c);
        CHECK(!c.bad && c.expected_pos == length, "round %d: segments of [%lld, +%zu)", round,
              (long long)d0, length);
    }
    for (int t = 0; t < 20; t++) {
        MPI_Offset size = rnd((unsigned)(r.file_byte[r.n - 1] + 2));
        size_t below = 0;
        for (size_t d = 0; d < r.n; d++)
            below += r.file_byte[d] < size;
        MPI_Offset expected = (MPI_Offset)((below + (size_t)etype->size - 1) / etype->size);
        CHECK(io_view_etypes_below(&view, size) == expected,
              "round %d: etypes below %lld: %lld, expected %lld", round, (long long)size,
              (long long)io_view_etypes_below(&view, size), (long long)expected);
    }
    free(r.file_byte);
    io_view_free(&view);
    dt_release(filetype);
}

int main(void)
{
    if (dt_init() != MPI_SUCCESS)
        return 1;
    for (int round = 0; round < 300; round++)
        check_view(round);
    /* A filetype that goes backwards is refused. */
    struct dt_type *ints = dt_from_handle(MPI_INT), *backwards = NULL;
    MPI_Count lens[2] = {1, 1};
    MPI_Aint displs[2] = {8, 0};
    dt_create_indexed(2, lens, 0, displs, ints, &backwards);
    dt_commit(backwards);
    struct io_view view;
    io_view_init_default(&view);
    CHECK(io_view_set(&view, 0, ints, backwards, "native") == MPI_ERR_ARG, "backwards filetype");
    CHECK(io_view_set(&view, 0, ints, dt_from_handle(MPI_BYTE), "native") == MPI_ERR_ARG,
          "filetype of fewer bytes than the etype");
    CHECK(io_view_set(&view, 0, ints, ints, "big-endian-please") == MPI_ERR_UNSUPPORTED_DATAREP,
          "unknown representation");
    io_view_free(&view);
    dt_release(backwards);
    dt_finalize();
    return unit_finish("test_view");
}
