/* test_random_types.c - random nested derived datatypes (every constructor, up to 4 levels,
 * negative displacements, resized, subarray, darray) checked against a brute-force reference:
 * the type map built entry by entry from the MPI definitions. Checks size/lb/extent/true
 * bounds, pack (whole and at random split points) against the reference byte order, unpack
 * identity with gaps untouched, iovec ranges (exact addresses and minimal merging), element
 * counts of partial data, and external32 round trips. Uses the internal dt_* API (no MPI_Init).
 * Usage: test_random_types [ntypes] [seed]. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "datatype/construct.h"
#include "datatype/datatype.h"

static long failures;
#define CHECK(cond, ...)                                                                      \
    do {                                                                                      \
        if (!(cond)) {                                                                        \
            failures++;                                                                       \
            if (failures < 30) {                                                              \
                fprintf(stderr, "FAIL %s:%d (type %d): ", __FILE__, __LINE__, current_type);  \
                fprintf(stderr, __VA_ARGS__);                                                 \
                fputc('\n', stderr);                                                          \
            }                                                                                 \
        }                                                                                     \
    } while (0)

static int current_type;
static unsigned long long rng_state = 88172645463325252ull;

static unsigned rnd(unsigned n) /* 0..n-1, xorshift64 */
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return n ? (unsigned)(rng_state % n) : 0;
}

static long rnd_range(long lo, long hi) { return lo + (long)rnd((unsigned)(hi - lo + 1)); }

/* A count or block length: zero now and then, mostly 1..max. */
static MPI_Count rnd_len(int max) { return rnd(8) == 0 ? 0 : rnd_range(1, max); }

/* ---- the reference: explicit type maps ---- */

/* E_SPAN: where one copy of a derived child ends, its extent's padding included (the end of
 * [disp + lb, disp + ub) of the copy): without an ub marker, ub covers it (construct.c). */
enum { E_DATA, E_LB, E_UB, E_SPAN };
struct entry {
    int kind;
    MPI_Aint disp;
    int size, align;
    int basic_ext32; /* external32 bytes; -1 when not checked (long double) */
};

struct ref {
    struct entry *e;
    size_t n, cap;
};

static void ref_push(struct ref *r, struct entry e)
{
    if (r->n == r->cap) {
        r->cap = r->cap ? 2 * r->cap : 16;
        r->e = realloc(r->e, r->cap * sizeof(*r->e));
    }
    r->e[r->n++] = e;
}

/* Append the entries of src shifted by disp; markers optionally dropped. */
static void ref_append(struct ref *dst, const struct ref *src, MPI_Aint disp, int markers)
{
    for (size_t i = 0; i < src->n; i++) {
        struct entry e = src->e[i];
        if (e.kind != E_DATA && !markers)
            continue;
        e.disp += disp;
        ref_push(dst, e);
    }
}

struct bounds {
    MPI_Aint lb, ub, true_lb, true_ub;
    MPI_Count size;
};

/* MPI-4.1 5.1.7 applied literally, with each copy of a child spanning its whole extent. */
static struct bounds ref_bounds(const struct ref *r)
{
    struct bounds b = {0, 0, 0, 0, 0};
    int has_data = 0, has_lb = 0, has_ub = 0, has_span = 0, align = 1;
    MPI_Aint lbm = 0, ubm = 0, span = 0;
    for (size_t i = 0; i < r->n; i++) {
        const struct entry *e = &r->e[i];
        if (e->kind == E_SPAN) {
            span = has_span && span > e->disp ? span : e->disp;
            has_span = 1;
        } else if (e->kind == E_LB) {
            lbm = has_lb && lbm < e->disp ? lbm : e->disp;
            has_lb = 1;
        } else if (e->kind == E_UB) {
            ubm = has_ub && ubm > e->disp ? ubm : e->disp;
            has_ub = 1;
        } else {
            if (!has_data || e->disp < b.true_lb)
                b.true_lb = e->disp;
            if (!has_data || e->disp + e->size > b.true_ub)
                b.true_ub = e->disp + e->size;
            has_data = 1;
            b.size += e->size;
            if (e->align > align)
                align = e->align;
        }
    }
    b.lb = has_lb ? lbm : b.true_lb;
    b.ub = has_ub ? ubm : has_span && span > b.true_ub ? span : b.true_ub;
    if (!has_ub && b.ub - b.lb > 0 && (b.ub - b.lb) % align)
        b.ub += align - (b.ub - b.lb) % align;
    return b;
}

/* ---- random types: reference and implementation built side by side ---- */

struct node {
    struct dt_type *type;
    struct ref map;
    struct bounds b;
};

struct basic_choice {
    MPI_Datatype handle;
    struct entry parts[2];
    int nparts;
};

static const struct basic_choice basics[] = {
    {MPI_CHAR, {{E_DATA, 0, 1, 1, 1}}, 1},
    {MPI_SHORT, {{E_DATA, 0, 2, 2, 2}}, 1},
    {MPI_INT, {{E_DATA, 0, 4, 4, 4}}, 1},
    {MPI_DOUBLE, {{E_DATA, 0, 8, 8, 8}}, 1},
    {MPI_FLOAT_INT, {{E_DATA, 0, 4, 4, 4}, {E_DATA, 4, 4, 4, 4}}, 2},
    {MPI_DOUBLE_INT, {{E_DATA, 0, 8, 8, 8}, {E_DATA, 8, 4, 4, 4}}, 2},
    {MPI_SHORT_INT, {{E_DATA, 0, 2, 2, 2}, {E_DATA, 4, 4, 4, 4}}, 2},
    {MPI_LONG_DOUBLE_INT, {{E_DATA, 0, 16, 16, -1}, {E_DATA, 16, 4, 4, 4}}, 2},
};

#define MAX_ENTRIES 3000

static void node_basic(struct node *n)
{
    const struct basic_choice *c = &basics[rnd(sizeof(basics) / sizeof(basics[0]))];
    memset(n, 0, sizeof(*n));
    n->type = dt_from_handle(c->handle);
    for (int i = 0; i < c->nparts; i++)
        ref_push(&n->map, c->parts[i]);
    n->b = ref_bounds(&n->map);
}

static void node_free(struct node *n)
{
    if (n->type)
        dt_release(n->type);
    free(n->map.e);
    memset(n, 0, sizeof(*n));
}

static MPI_Aint extent_of(const struct node *n) { return n->b.ub - n->b.lb; }

/* copies of child at disp, disp + ext, ... */
static void ref_block(struct ref *r, const struct node *child, MPI_Count len, MPI_Aint disp)
{
    for (MPI_Count j = 0; j < len; j++) {
        MPI_Aint at = disp + (MPI_Aint)j * extent_of(child);
        ref_append(r, &child->map, at, 1);
        if (child->b.size > 0)
            ref_push(r, (struct entry){E_SPAN, at + child->b.ub, 0, 0, 0});
    }
}

static int gen(struct node *n, int depth);

static int build_contiguous(struct node *n, struct node *c)
{
    MPI_Count count = rnd_len(4);
    ref_block(&n->map, c, count, 0);
    return dt_create_contiguous(count, c->type, &n->type);
}

static int build_vector(struct node *n, struct node *c, int bytes)
{
    MPI_Count count = rnd_len(4), bl = rnd_len(3);
    MPI_Aint stride = bytes ? rnd_range(-64, 64) : rnd_range(-4, 6) * extent_of(c);
    for (MPI_Count i = 0; i < count; i++)
        ref_block(&n->map, c, bl, (MPI_Aint)i * stride);
    return dt_create_vector(count, bl, stride, c->type, &n->type);
}

static int build_indexed(struct node *n, struct node *c, int bytes, int same_len)
{
    MPI_Count count = rnd_len(4), bls[5], bl = rnd_len(3);
    MPI_Aint displs[5];
    for (MPI_Count i = 0; i < count; i++) {
        bls[i] = same_len ? bl : rnd_len(3);
        displs[i] = bytes ? rnd_range(-64, 64) : rnd_range(-5, 8) * extent_of(c);
        ref_block(&n->map, c, bls[i], displs[i]);
    }
    return dt_create_indexed(count, same_len ? NULL : bls, bl, displs, c->type, &n->type);
}

static int build_resized(struct node *n, struct node *c)
{
    MPI_Aint lb = rnd_range(-32, 32), extent = rnd_range(0, 64);
    ref_append(&n->map, &c->map, 0, 0);
    ref_push(&n->map, (struct entry){E_LB, lb, 0, 0, 0});
    ref_push(&n->map, (struct entry){E_UB, lb + extent, 0, 0, 0});
    return dt_create_resized(c->type, lb, extent, &n->type);
}

/* Subarray: the elements in memory order, then markers at 0 and the array's extent. */
static int build_subarray(struct node *n, struct node *c)
{
    int ndims = (int)rnd_range(1, 3), order = rnd(2) ? MPI_ORDER_C : MPI_ORDER_FORTRAN;
    MPI_Count sizes[3], subsizes[3], starts[3], total = 1, sub_total = 1;
    for (int d = 0; d < ndims; d++) {
        sizes[d] = rnd_range(1, 4);
        subsizes[d] = rnd_range(1, sizes[d]);
        starts[d] = rnd_range(0, sizes[d] - subsizes[d]);
        total *= sizes[d];
        sub_total *= subsizes[d];
    }
    for (MPI_Count lin = 0; lin < total; lin++) {
        MPI_Count rest = lin, idx[3];
        for (int k = 0; k < ndims; k++) { /* k-th fastest dimension */
            int d = order == MPI_ORDER_C ? ndims - 1 - k : k;
            idx[d] = rest % sizes[d];
            rest /= sizes[d];
        }
        int inside = 1;
        for (int d = 0; d < ndims; d++)
            inside &= idx[d] >= starts[d] && idx[d] < starts[d] + subsizes[d];
        if (inside)
            ref_append(&n->map, &c->map, (MPI_Aint)lin * extent_of(c), 0);
    }
    (void)sub_total;
    ref_push(&n->map, (struct entry){E_LB, 0, 0, 0, 0});
    ref_push(&n->map, (struct entry){E_UB, (MPI_Aint)total * extent_of(c), 0, 0, 0});
    return dt_create_subarray(ndims, sizes, subsizes, starts, order, c->type, &n->type);
}

static int darray_owner(MPI_Count index, MPI_Count gsize, int distrib, int darg, int nprocs)
{
    if (distrib == MPI_DISTRIBUTE_NONE)
        return 0;
    if (distrib == MPI_DISTRIBUTE_BLOCK) {
        MPI_Count block = darg == MPI_DISTRIBUTE_DFLT_DARG ? (gsize + nprocs - 1) / nprocs : darg;
        return (int)(index / block);
    }
    MPI_Count block = darg == MPI_DISTRIBUTE_DFLT_DARG ? 1 : darg;
    return (int)((index / block) % nprocs);
}

static int build_darray(struct node *n, struct node *c)
{
    int ndims = (int)rnd_range(1, 3), order = rnd(2) ? MPI_ORDER_C : MPI_ORDER_FORTRAN;
    MPI_Count gsizes[3], total = 1;
    int distribs[3], dargs[3], psizes[3], coords[3], size = 1;
    for (int d = 0; d < ndims; d++) {
        gsizes[d] = rnd_range(1, 7);
        distribs[d] = (int)rnd_range(MPI_DISTRIBUTE_NONE, MPI_DISTRIBUTE_CYCLIC);
        psizes[d] = distribs[d] == MPI_DISTRIBUTE_NONE ? 1 : (int)rnd_range(1, 3);
        MPI_Count need = (gsizes[d] + psizes[d] - 1) / psizes[d];
        if (distribs[d] == MPI_DISTRIBUTE_BLOCK)
            dargs[d] = rnd(2) ? MPI_DISTRIBUTE_DFLT_DARG : (int)(need + rnd(2));
        else if (distribs[d] == MPI_DISTRIBUTE_CYCLIC)
            dargs[d] = rnd(2) ? MPI_DISTRIBUTE_DFLT_DARG : (int)rnd_range(1, 3);
        else
            dargs[d] = MPI_DISTRIBUTE_DFLT_DARG;
        coords[d] = (int)rnd((unsigned)psizes[d]);
        size *= psizes[d];
        total *= gsizes[d];
    }
    int rank = 0;
    for (int d = 0; d < ndims; d++)
        rank = rank * psizes[d] + coords[d];
    for (MPI_Count lin = 0; lin < total; lin++) {
        MPI_Count rest = lin;
        int mine = 1;
        for (int k = 0; k < ndims; k++) {
            int d = order == MPI_ORDER_C ? ndims - 1 - k : k;
            MPI_Count idx = rest % gsizes[d];
            rest /= gsizes[d];
            mine &= darray_owner(idx, gsizes[d], distribs[d], dargs[d], psizes[d]) == coords[d];
        }
        if (mine)
            ref_append(&n->map, &c->map, (MPI_Aint)lin * extent_of(c), 0);
    }
    ref_push(&n->map, (struct entry){E_LB, 0, 0, 0, 0});
    ref_push(&n->map, (struct entry){E_UB, (MPI_Aint)total * extent_of(c), 0, 0, 0});
    return dt_create_darray(size, rank, ndims, gsizes, distribs, dargs, psizes, order, c->type,
                            &n->type);
}

static int build_struct(struct node *n, int depth)
{
    MPI_Count count = rnd_range(1, 3), bls[3];
    MPI_Aint displs[3];
    struct node kids[3];
    struct dt_type *types[3];
    int err;
    for (MPI_Count i = 0; i < count; i++) {
        gen(&kids[i], depth - 1);
        types[i] = kids[i].type;
        bls[i] = rnd_len(3);
        displs[i] = rnd_range(-64, 64);
        ref_block(&n->map, &kids[i], bls[i], displs[i]);
    }
    err = dt_create_struct(count, bls, displs, types, &n->type);
    for (MPI_Count i = 0; i < count; i++)
        node_free(&kids[i]);
    return err;
}

/* Make a random type of at most `depth` constructor levels; keeps maps below MAX_ENTRIES. */
static int gen(struct node *n, int depth)
{
    for (;;) {
        if (depth == 0 || rnd(5) == 0) {
            node_basic(n);
            return 0;
        }
        int kind = (int)rnd(13);
        struct node child;
        int err;
        memset(n, 0, sizeof(*n));
        if (kind == 12) {
            err = build_struct(n, depth);
        } else {
            gen(&child, depth - 1);
            switch (kind) {
            case 0: err = build_contiguous(n, &child); break;
            case 1: err = build_vector(n, &child, 0); break;
            case 2: err = build_vector(n, &child, 1); break;
            case 3: err = build_indexed(n, &child, 0, 0); break;
            case 4: err = build_indexed(n, &child, 1, 0); break;
            case 5: err = build_indexed(n, &child, 0, 1); break;
            case 6: err = build_indexed(n, &child, 1, 1); break;
            case 7: case 8: err = build_resized(n, &child); break;
            case 9: err = build_subarray(n, &child); break;
            case 10: err = build_darray(n, &child); break;
            default:
                ref_append(&n->map, &child.map, 0, 1);
                err = dt_create_dup(child.type, &n->type);
                break;
            }
            node_free(&child);
        }
        if (err != MPI_SUCCESS) {
            fprintf(stderr, "constructor kind %d failed: %d\n", kind, err);
            exit(1);
        }
        if (n->map.n <= MAX_ENTRIES) {
            n->b = ref_bounds(&n->map);
            return 0;
        }
        node_free(n); /* too big: try again */
    }
}

/* ---- checks ---- */

/* Address of every packed byte of count elements, in packed order. */
static uintptr_t *ref_addresses(const struct node *n, uintptr_t buf, MPI_Count count,
                                size_t *total)
{
    size_t bytes = (size_t)(n->b.size * count), k = 0;
    uintptr_t *addr = malloc((bytes ? bytes : 1) * sizeof(*addr));
    for (MPI_Count i = 0; i < count; i++)
        for (size_t j = 0; j < n->map.n; j++) {
            const struct entry *e = &n->map.e[j];
            if (e->kind != E_DATA)
                continue;
            uintptr_t a = buf + (uintptr_t)(i * extent_of(n) + e->disp);
            for (int b = 0; b < e->size; b++)
                addr[k++] = a + (uintptr_t)b;
        }
    *total = bytes;
    return addr;
}

static void check_bounds(const struct node *n)
{
    const struct dt_type *t = n->type;
    CHECK(t->size == n->b.size, "size %lld, expected %lld", (long long)t->size,
          (long long)n->b.size);
    CHECK(t->lb == n->b.lb, "lb %ld, expected %ld", (long)t->lb, (long)n->b.lb);
    CHECK(t->extent == n->b.ub - n->b.lb, "extent %ld, expected %ld", (long)t->extent,
          (long)(n->b.ub - n->b.lb));
    CHECK(t->true_lb == n->b.true_lb, "true lb %ld, expected %ld", (long)t->true_lb,
          (long)n->b.true_lb);
    CHECK(t->true_extent == n->b.true_ub - n->b.true_lb, "true extent %ld, expected %ld",
          (long)t->true_extent, (long)(n->b.true_ub - n->b.true_lb));
    MPI_Count elements = 0;
    for (size_t j = 0; j < n->map.n; j++)
        elements += n->map.e[j].kind == E_DATA;
    CHECK(t->element_count == elements, "element count %lld, expected %lld",
          (long long)t->element_count, (long long)elements);
}

/* Basic elements in the first `bytes` packed bytes, or MPI_UNDEFINED. */
static MPI_Count ref_elements(const struct node *n, MPI_Count count, MPI_Count bytes)
{
    MPI_Count elements = 0;
    for (MPI_Count i = 0; i < count && bytes > 0; i++)
        for (size_t j = 0; j < n->map.n && bytes > 0; j++) {
            const struct entry *e = &n->map.e[j];
            if (e->kind != E_DATA)
                continue;
            if (bytes < e->size)
                return MPI_UNDEFINED;
            bytes -= e->size;
            elements++;
        }
    return elements;
}

static void check_elements(const struct node *n, MPI_Count count)
{
    MPI_Count total = n->b.size * count;
    for (int trial = 0; trial < 8; trial++) {
        MPI_Count bytes = total ? (MPI_Count)rnd((unsigned)total + 1) : 0;
        MPI_Count got, expected = ref_elements(n, count, bytes);
        dt_get_elements(n->type, bytes, &got);
        CHECK(got == expected, "elements in %lld bytes: %lld, expected %lld", (long long)bytes,
              (long long)got, (long long)expected);
        if (expected != MPI_UNDEFINED) {
            MPI_Count back;
            int err = dt_elements_to_bytes(n->type, expected, &back);
            /* Bytes count back only up to the end of the last whole element. */
            CHECK(err == MPI_SUCCESS && ref_elements(n, count, back) == expected &&
                      back <= bytes,
                  "elements_to_bytes(%lld) = %lld (err %d)", (long long)expected,
                  (long long)back, err);
        }
    }
}

static void check_pack(const struct node *n, MPI_Count count, unsigned char *mem, size_t memsize,
                       uintptr_t buf)
{
    size_t total;
    uintptr_t *addr = ref_addresses(n, buf, count, &total);
    unsigned char *expected = malloc(total + 1), *packed = malloc(total + 1);
    unsigned char *copy = malloc(memsize);
    for (size_t i = 0; i < memsize; i++)
        mem[i] = (unsigned char)rnd(256);
    for (size_t k = 0; k < total; k++)
        expected[k] = *(unsigned char *)addr[k];

    /* Whole pack. */
    CHECK(dt_pack_range(n->type, (void *)buf, count, 0, packed, total) == total, "pack len");
    CHECK(memcmp(packed, expected, total) == 0, "pack differs from reference (%zu bytes)",
          total);

    /* Random split points. */
    memset(packed, 0, total + 1);
    for (size_t pos = 0; pos < total;) {
        size_t len = 1 + rnd((unsigned)(total - pos < 97 ? total - pos : 97));
        if (rnd(4) == 0)
            len = total - pos;
        dt_pack_range(n->type, (void *)buf, count, pos, packed + pos, len);
        pos += len;
    }
    CHECK(memcmp(packed, expected, total) == 0, "split pack differs");

    /* Unpack into a sentinel-filled buffer: covered bytes restored, gaps untouched. */
    memcpy(copy, mem, memsize);
    memset(mem, 0xEE, memsize);
    for (size_t pos = 0; pos < total;) {
        size_t len = 1 + rnd((unsigned)(total - pos < 131 ? total - pos : 131));
        dt_unpack_range(n->type, (void *)buf, count, pos, packed + pos, len);
        pos += len;
    }
    unsigned char *covered = calloc(memsize, 1);
    for (size_t k = 0; k < total; k++)
        covered[addr[k] - (uintptr_t)mem] = 1;
    size_t bad = 0;
    for (size_t i = 0; i < memsize; i++)
        if (covered[i] ? mem[i] != copy[i] : mem[i] != 0xEE)
            bad++;
    CHECK(bad == 0, "unpack: %zu bytes wrong (covered restored, gaps untouched)", bad);

    /* iovecs from random positions: exactly the reference addresses, minimally merged. */
    for (int trial = 0; trial < 4 && total > 0; trial++) {
        size_t pos = rnd((unsigned)total);
        int max_iov = 1 + (int)rnd(16);
        struct iovec iov[16];
        size_t got = 0, k = pos;
        int niov = dt_iovec_range(n->type, (void *)buf, count, pos, iov, max_iov, &got);
        int ok = niov >= 1 && niov <= max_iov && got <= total - pos;
        for (int v = 0; v < niov && ok; v++)
            for (size_t b = 0; b < iov[v].iov_len && ok; b++)
                ok = addr[k++] == (uintptr_t)iov[v].iov_base + b;
        ok = ok && k == pos + got;
        /* Runs of consecutive addresses in the reference = iovecs needed. */
        int runs = 1;
        size_t end = niov < max_iov ? total : pos + got;
        for (size_t i = pos + 1; i < end; i++)
            runs += addr[i] != addr[i - 1] + 1;
        if (niov < max_iov)
            ok = ok && got == total - pos && runs == niov;
        else
            ok = ok && runs == niov;
        CHECK(ok, "iovec range at %zu (max %d): %d iovecs, %zu bytes, %d runs", pos, max_iov,
              niov, got, runs);
    }
    free(covered);
    free(copy);
    free(expected);
    free(packed);
    free(addr);
}

static int has_unchecked_ext32(const struct node *n)
{
    for (size_t j = 0; j < n->map.n; j++)
        if (n->map.e[j].kind == E_DATA && n->map.e[j].basic_ext32 < 0)
            return 1;
    return 0;
}

/* external32: each basic element byte-reversed (chars copied), in type-map order. */
static void check_external32(const struct node *n, MPI_Count count, unsigned char *mem,
                             size_t memsize, uintptr_t buf)
{
    if (has_unchecked_ext32(n))
        return;
    size_t total = (size_t)dt_external32_size(n->type, count), k = 0;
    CHECK(total == (size_t)(n->b.size * count), "external32 size %zu", total);
    unsigned char *ext = malloc(total + 1), *expected = malloc(total + 1);
    unsigned char *copy = malloc(memsize);
    for (size_t i = 0; i < memsize; i++)
        mem[i] = (unsigned char)rnd(256);
    for (MPI_Count i = 0; i < count; i++)
        for (size_t j = 0; j < n->map.n; j++) {
            const struct entry *e = &n->map.e[j];
            if (e->kind != E_DATA)
                continue;
            const unsigned char *a = (const unsigned char *)(buf + (uintptr_t)(i * extent_of(n) +
                                                                               e->disp));
            for (int b = 0; b < e->size; b++)
                expected[k++] = a[e->size - 1 - b];
        }
    dt_pack_external32(n->type, (void *)buf, count, ext);
    CHECK(memcmp(ext, expected, total) == 0, "external32 pack differs");
    memcpy(copy, mem, memsize);
    dt_unpack_external32(n->type, (void *)buf, count, ext);
    CHECK(memcmp(copy, mem, memsize) == 0, "external32 round trip changed the buffer");
    free(ext);
    free(expected);
    free(copy);
}

struct visit {
    const uintptr_t *addr;
    size_t k, total;
    int bad;
};

static int visit_block(void *ctx, MPI_Aint offset, MPI_Count length)
{
    struct visit *v = ctx;
    for (MPI_Count b = 0; b < length; b++, v->k++)
        v->bad |= v->k >= v->total || v->addr[v->k] != 0x100000 + (uintptr_t)(offset + b);
    return 0;
}

/* dt_for_each_block over count elements visits exactly the reference bytes, in order. */
static void check_for_each_block(const struct node *n, MPI_Count count)
{
    struct visit v = {0};
    uintptr_t *addr = ref_addresses(n, 0x100000, count, &v.total);
    v.addr = addr;
    dt_for_each_block(n->type, count, visit_block, &v);
    CHECK(!v.bad && v.k == v.total, "dt_for_each_block: %zu of %zu bytes, bad %d", v.k,
          v.total, v.bad);
    free(addr);
}

/* The compiled list has one block per run of consecutive addresses of one element. */
static void check_blocks(const struct node *n)
{
    size_t total, runs = 0, mismatch = 0;
    uintptr_t *addr = ref_addresses(n, 0x100000, 1, &total);
    for (size_t i = 0; i < total; i++) {
        int start = i == 0 || addr[i] != addr[i - 1] + 1;
        runs += start;
        /* Block runs-1 must start here and cover this byte. */
        if (n->type->blocks && runs <= n->type->nblocks) {
            const struct dt_block *b = &n->type->blocks[runs - 1];
            mismatch += start ? (uintptr_t)b->offset + 0x100000 != addr[i]
                              : (uintptr_t)(b->offset + b->length) + 0x100000 <= addr[i];
        }
    }
    CHECK(n->type->nblocks == runs, "%zu blocks, expected %zu", n->type->nblocks, runs);
    CHECK(n->type->blocks != NULL && mismatch == 0, "flat block list: %zu bytes misplaced",
          mismatch);
    CHECK(n->type->contiguous == (total == 0 || (runs == 1 && n->type->extent ==
                                                               (MPI_Aint)total)),
          "contiguous flag %d", n->type->contiguous);
    free(addr);
}

static void check_type(struct node *n)
{
    check_bounds(n);
    CHECK(dt_commit(n->type) == MPI_SUCCESS, "commit");
    check_blocks(n);
    check_for_each_block(n, 3);
    MPI_Count count = rnd(3) == 0 ? 1 : rnd_range(0, 5);
    /* Memory the type map touches for count elements, plus margins. */
    MPI_Aint lo = 0, hi = 0;
    int any = 0;
    for (MPI_Count i = 0; i < count; i++) {
        if (n->b.size == 0)
            break;
        MPI_Aint a = i * extent_of(n) + n->b.true_lb, b = i * extent_of(n) + n->b.true_ub;
        lo = any && lo < a ? lo : a;
        hi = any && hi > b ? hi : b;
        any = 1;
    }
    size_t memsize = (size_t)(hi - lo) + 64;
    unsigned char *mem = malloc(memsize);
    uintptr_t buf = (uintptr_t)mem + 32 - (uintptr_t)lo;
    check_pack(n, count, mem, memsize, buf);
    check_elements(n, count);
    check_external32(n, count, mem, memsize, buf);
    free(mem);
}

int main(int argc, char **argv)
{
    int ntypes = argc > 1 ? atoi(argv[1]) : 1000;
    if (argc > 2)
        rng_state = strtoull(argv[2], NULL, 0);
    if (dt_init() != MPI_SUCCESS) {
        fprintf(stderr, "dt_init failed\n");
        return 1;
    }
    for (current_type = 0; current_type < ntypes; current_type++) {
        struct node n;
        gen(&n, 4);
        check_type(&n);
        node_free(&n);
    }
    dt_finalize();
    if (failures) {
        fprintf(stderr, "%ld failures in %d random types\n", failures, ntypes);
        return 1;
    }
    printf("%d random types: all checks passed\n", ntypes);
    return 0;
}
