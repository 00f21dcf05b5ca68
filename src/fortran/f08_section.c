/* f08_section.c - datatypes that map mpi_f08's "virtual contiguous buffer" of a non-contiguous
 * array section (MPI-4.1 section 19.1.12) onto the section's memory, so that nonblocking,
 * persistent, one-sided, I/O and partitioned calls can use sections without copies
 * (f08_section.h). The virtual buffer's byte v is byte v % elem_len of the section's element
 * v / elem_len in array element order.
 *
 * A type is built one of three ways, the first that applies:
 *  - nest: the user's datatype, or the one basic type a gap-free homogeneous datatype is made
 *    of, fits a whole number of times into an element: the element type is contiguous(k,
 *    that type), whole lower dimensions are hvector nests of it, and the first n elements
 *    (a prefix when the message is shorter than the section) are a struct of at most rank + 1
 *    such nests plus the part of element n the message still covers. The type map keeps the
 *    user's basic types, as reductions and accumulates need.
 *  - flat: anything else (a datatype with holes larger than an element, an element length
 *    the datatype does not divide): the user's type map, basic element by basic element,
 *    each placed where the virtual buffer puts it (a struct of coalesced runs). A basic
 *    element that straddles two array elements is split into MPI_BYTEs, which moves the same
 *    bytes but cannot be reduced (MPI_ERR_OP then comes from the reduction itself).
 *  - blocks: f08_section_blocks' resized block, when the blocks have one layout in memory. */
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "datatype/datatype.h"
#include "fortran/f08.h"
#include "fortran/f08_section.h"

/* The section with dimensions of one element dropped and each dimension whose stride
 * continues the previous one merged into it: equal layouts compare equal, and a section
 * whose blocks repeat with one stride has that stride in its last dimension. */
struct layout {
    int rank;
    MPI_Aint elem_len;
    MPI_Count elements;
    MPI_Count extent[CFI_MAX_RANK];
    MPI_Aint stride[CFI_MAX_RANK]; /* bytes */
};

static void layout_of(const CFI_cdesc_t *buffer, struct layout *l)
{
    l->rank = 0;
    l->elem_len = (MPI_Aint)buffer->elem_len;
    l->elements = 1;
    for (int i = 0; i < buffer->rank; i++) {
        MPI_Count extent = buffer->dim[i].extent;
        MPI_Aint stride = buffer->dim[i].sm;
        l->elements *= extent;
        if (extent == 1)
            continue;
        int last = l->rank - 1;
        if (last >= 0 && stride == l->stride[last] * (MPI_Aint)l->extent[last]) {
            l->extent[last] *= extent;
            continue;
        }
        l->extent[l->rank] = extent;
        l->stride[l->rank] = stride;
        l->rank++;
    }
}

/* Whether count datatypes need the same type in both layouts: same element length and the
 * same strides, with the same extents below the last dimension (the last one's extent only
 * bounds the buffer, which each side checks for itself). A contiguous buffer is a layout too. */
static bool same_layout(const struct layout *a, const struct layout *b)
{
    if (a->elem_len != b->elem_len || a->rank != b->rank)
        return false;
    for (int i = 0; i < a->rank; i++)
        if (a->stride[i] != b->stride[i] || (i < a->rank - 1 && a->extent[i] != b->extent[i]))
            return false;
    return true;
}

/* Byte displacement of element k (array element order) from the first element. */
static MPI_Aint element_disp(const struct layout *l, MPI_Count k)
{
    MPI_Aint disp = 0;
    for (int i = 0; i < l->rank; i++) {
        disp += (MPI_Aint)(k % l->extent[i]) * l->stride[i];
        k /= l->extent[i];
    }
    return disp;
}

/* What went wrong while building, for the caller's message. */
enum failure { BUILT, PASS_THROUGH, TOO_SHORT, STRADDLES, NOT_UNIFORM, NO_MEMORY, MPI_FAILED };

struct built {
    MPI_Datatype type;  /* new (owned) or, when owned is false, the user's */
    bool owned;
};

/* ---- nest ------------------------------------------------------------------------------- */

/* The first n elements of the section, each an `element` (data within one element), then
 * `rest` (or MPI_DATATYPE_NULL) at element n: a struct of one hvector nest per dimension
 * whose whole sub-blocks the prefix covers. */
static int prefix_type(const struct layout *l, MPI_Count n, MPI_Datatype element,
                       MPI_Datatype rest, MPI_Datatype *out)
{
    MPI_Datatype whole[CFI_MAX_RANK + 1]; /* whole[d]: one block of dimensions 0..d-1 */
    MPI_Count below[CFI_MAX_RANK + 1];    /* its number of elements */
    MPI_Datatype types[CFI_MAX_RANK + 2];
    MPI_Aint disps[CFI_MAX_RANK + 2];
    MPI_Count lengths[CFI_MAX_RANK + 2];
    bool owned[CFI_MAX_RANK + 2] = {false};
    int made = 1, nblocks = 0, rc = MPI_SUCCESS;
    whole[0] = element;
    below[0] = 1;
    for (int d = 1; d < l->rank && rc == MPI_SUCCESS; d++, made++) {
        below[d] = below[d - 1] * l->extent[d - 1];
        rc = MPI_Type_create_hvector_c(l->extent[d - 1], 1, l->stride[d - 1], whole[d - 1],
                                       &whole[d]);
    }
    MPI_Aint disp = 0;
    for (int d = l->rank; d >= 1 && rc == MPI_SUCCESS; d--) {
        MPI_Count q = n / below[d - 1];
        n %= below[d - 1];
        if (q == 0)
            continue;
        types[nblocks] = whole[d - 1];
        if (q > 1) {
            rc = MPI_Type_create_hvector_c(q, 1, l->stride[d - 1], whole[d - 1], &types[nblocks]);
            owned[nblocks] = true;
        }
        disps[nblocks] = disp;
        lengths[nblocks++] = 1;
        disp += (MPI_Aint)q * l->stride[d - 1];
    }
    if (rest != MPI_DATATYPE_NULL) {
        types[nblocks] = rest;
        disps[nblocks] = disp;
        lengths[nblocks++] = 1;
    }
    if (rc == MPI_SUCCESS)
        rc = MPI_Type_create_struct_c(nblocks, lengths, disps, types, out);
    for (int i = 0; i < nblocks; i++)
        if (owned[i] && types[i] != MPI_DATATYPE_NULL)
            MPI_Type_free(&types[i]);
    for (int d = 1; d < made; d++)
        MPI_Type_free(&whole[d]);
    return rc;
}

/* count `unit`s (extent unit_extent, data within it), k to an element. */
static enum failure nest_type(const struct layout *l, MPI_Count count, MPI_Datatype unit,
                              MPI_Aint unit_extent, struct built *out)
{
    MPI_Count k = l->elem_len / unit_extent;
    MPI_Count full = count / k, rem = count % k;
    if (full + (rem > 0) > l->elements)
        return TOO_SHORT;
    MPI_Datatype element = unit, rest = MPI_DATATYPE_NULL;
    int rc = MPI_SUCCESS;
    if (k > 1)
        rc = MPI_Type_contiguous_c(k, unit, &element);
    if (rc == MPI_SUCCESS && rem > 0)
        rc = MPI_Type_contiguous_c(rem, unit, &rest);
    if (rc == MPI_SUCCESS)
        rc = prefix_type(l, full, element, rest, &out->type);
    if (element != unit)
        MPI_Type_free(&element);
    if (rest != MPI_DATATYPE_NULL)
        MPI_Type_free(&rest);
    out->owned = rc == MPI_SUCCESS;
    return rc == MPI_SUCCESS ? BUILT : MPI_FAILED;
}

/* ---- flat ------------------------------------------------------------------------------- */

struct flat {
    const struct layout *l;
    MPI_Aint base;       /* virtual displacement of the datatype copy being walked */
    MPI_Count total;     /* bytes of the virtual buffer */
    MPI_Count n, capacity;
    MPI_Count *lengths;
    MPI_Aint *disps;
    MPI_Datatype *types;
    MPI_Aint last_extent;
    enum failure failure;
};

static int flat_add(struct flat *f, MPI_Datatype type, MPI_Aint extent, MPI_Aint disp,
                    MPI_Count length)
{
    if (f->n > 0 && f->types[f->n - 1] == type &&
        f->disps[f->n - 1] + (MPI_Aint)f->lengths[f->n - 1] * extent == disp) {
        f->lengths[f->n - 1] += length;
        return 0;
    }
    if (f->n == f->capacity) {
        MPI_Count capacity = f->capacity ? 2 * f->capacity : 64;
        MPI_Count *lengths = realloc(f->lengths, (size_t)capacity * sizeof *lengths);
        if (lengths)
            f->lengths = lengths;
        MPI_Aint *disps = realloc(f->disps, (size_t)capacity * sizeof *disps);
        if (disps)
            f->disps = disps;
        MPI_Datatype *types = realloc(f->types, (size_t)capacity * sizeof *types);
        if (types)
            f->types = types;
        if (!lengths || !disps || !types) {
            f->failure = NO_MEMORY;
            return 1;
        }
        f->capacity = capacity;
    }
    f->types[f->n] = type;
    f->disps[f->n] = disp;
    f->lengths[f->n++] = length;
    return 0;
}

static int flat_leaf(void *ctx, const struct dt_type *basic, MPI_Aint disp, MPI_Count n)
{
    struct flat *f = ctx;
    MPI_Aint len = f->l->elem_len;
    for (MPI_Count i = 0; i < n; i++) {
        MPI_Aint v = f->base + disp + (MPI_Aint)i * basic->extent + basic->true_lb;
        MPI_Aint bytes = basic->true_extent;
        if (v < 0 || v + bytes > f->total) {
            f->failure = TOO_SHORT;
            return 1;
        }
        MPI_Count element = v / len;
        MPI_Aint within = v - (MPI_Aint)element * len;
        if (within + bytes <= len) {
            if (flat_add(f, dt_to_handle(basic), basic->extent,
                         element_disp(f->l, element) + within - basic->true_lb, 1))
                return 1;
            continue;
        }
        if (basic->size != basic->true_extent) { /* a pair type with padding inside */
            f->failure = STRADDLES;
            return 1;
        }
        while (bytes > 0) {
            MPI_Aint piece = len - within < bytes ? len - within : bytes;
            if (flat_add(f, MPI_BYTE, 1, element_disp(f->l, element) + within, piece))
                return 1;
            bytes -= piece;
            element++;
            within = 0;
        }
    }
    return 0;
}

static enum failure flat_type(const struct layout *l, MPI_Count count,
                              const struct dt_type *type, struct built *out)
{
    struct flat f = {.l = l, .total = l->elements * l->elem_len, .failure = BUILT};
    for (MPI_Count k = 0; k < count && f.failure == BUILT; k++) {
        f.base = (MPI_Aint)k * type->extent;
        dt_walk_leaves(type, 0, flat_leaf, &f);
    }
    if (f.failure == BUILT) {
        int rc = MPI_Type_create_struct_c(f.n, f.lengths, f.disps, f.types, &out->type);
        f.failure = rc == MPI_SUCCESS ? BUILT : MPI_FAILED;
        out->owned = rc == MPI_SUCCESS;
    }
    free(f.lengths);
    free(f.disps);
    free(f.types);
    return f.failure;
}

/* ---- choosing ----------------------------------------------------------------------------- */

static int first_leaf(void *ctx, const struct dt_type *basic, MPI_Aint disp, MPI_Count n)
{
    (void)disp;
    (void)n;
    *(const struct dt_type **)ctx = basic;
    return 1;
}

/* Whether each copy of type keeps its data within its own extent from 0: copies then tile
 * the virtual buffer, k of them per element when the extent divides the element length. */
static bool fits_extent(const struct dt_type *type)
{
    return type->extent > 0 && type->true_lb >= 0 &&
           type->true_lb + type->true_extent <= type->extent;
}

/* count datatypes from the start of the virtual buffer. PASS_THROUGH when the call can take
 * them as they are: nothing to move, an invalid count or datatype (the C routine reports
 * it), or data within the first element. */
static enum failure whole_type(const struct layout *l, MPI_Count count, MPI_Datatype datatype,
                               struct built *out)
{
    const struct dt_type *type = dt_from_handle(datatype);
    out->type = datatype;
    out->owned = false;
    if (count <= 0 || !type || !type->committed || type->size == 0)
        return PASS_THROUGH;
    if (type->true_lb >= 0 &&
        (MPI_Aint)(count - 1) * type->extent + type->true_lb + type->true_extent <= l->elem_len &&
        type->extent >= 0)
        return PASS_THROUGH;
    if (fits_extent(type) && l->elem_len % type->extent == 0)
        return nest_type(l, count, datatype, type->extent, out);
    const struct dt_type *basic = NULL;
    if (type->contiguous && type->true_lb == 0 && type->element != DT_ELEMENT_MIXED) {
        dt_walk_leaves(type, 0, first_leaf, &basic);
        if (basic && fits_extent(basic) && basic->size == basic->extent &&
            type->size % basic->size == 0 && l->elem_len % basic->extent == 0)
            return nest_type(l, count * (type->size / basic->size), dt_to_handle(basic),
                             basic->extent, out);
    }
    return flat_type(l, count, type, out);
}

/* ---- the entry points --------------------------------------------------------------------- */

static void pass_through(struct f08_section *section, const CFI_cdesc_t *buffer)
{
    section->address = buffer->base_addr;
    section->type = MPI_DATATYPE_NULL;
}

static bool take(struct f08_section *section, struct built *b, MPI_Fint *ierror,
                 const char *function)
{
    if (!b->owned) {
        section->type = MPI_DATATYPE_NULL;
        return true;
    }
    int rc = MPI_Type_commit(&b->type);
    if (rc != MPI_SUCCESS) {
        MPI_Type_free(&b->type);
        f08_set_ierror(ierror, f_no_memory(function));
        return false;
    }
    section->type = b->type;
    section->datatype = MPI_Type_toint(b->type);
    section->count = 1;
    section->count_c = 1;
    return true;
}

static bool refuse(enum failure failure, const struct layout *l, MPI_Count count,
                   const char *function, const char *argument, MPI_Fint *ierror)
{
    int error;
    switch (failure) {
    case TOO_SHORT:
        error = core_error_raise(NULL, MPI_ERR_BUFFER, function,
                                 "%s is an array section of %lld elements of %lld bytes, too "
                                 "short for %lld elements of the datatype",
                                 argument, (long long)l->elements, (long long)l->elem_len,
                                 (long long)count);
        break;
    case STRADDLES:
        error = core_error_raise(NULL, MPI_ERR_TYPE, function,
                                 "%s is a non-contiguous array section, and a basic element of "
                                 "the datatype (a pair type) straddles two array elements "
                                 "(%lld bytes)",
                                 argument, (long long)l->elem_len);
        break;
    case NOT_UNIFORM:
        error = core_error_raise(NULL, MPI_ERR_BUFFER, function,
                                 "%s is a non-contiguous array section whose blocks of %lld "
                                 "datatypes do not all lie alike in memory (each block must be "
                                 "whole elements and whole lower dimensions of the section, "
                                 "repeating with one positive stride); pass a contiguous array",
                                 argument, (long long)count);
        break;
    case NO_MEMORY:
        error = f_no_memory(function);
        break;
    default:
        error = core_error_raise(NULL, MPI_ERR_INTERN, function,
                                 "making a datatype for the array section %s failed", argument);
        break;
    }
    f08_set_ierror(ierror, error);
    return false;
}

/* What f08_section_whole and f08_section_blocks share: a contiguous buffer as it is, else the
 * type `build` makes for n datatypes (or blocks of n), or the refusal. */
typedef enum failure section_builder(const struct layout *l, MPI_Count n, MPI_Datatype datatype,
                                     struct built *out);

static bool section_with(section_builder *build, struct f08_section *section,
                         const CFI_cdesc_t *buffer, MPI_Count n, MPI_Fint datatype,
                         const char *function, const char *argument, MPI_Fint *ierror)
{
    pass_through(section, buffer);
    if (f08_is_contiguous(buffer))
        return true;
    struct layout l;
    layout_of(buffer, &l);
    struct built b;
    enum failure failure = build(&l, n, MPI_Type_fromint(datatype), &b);
    if (failure == PASS_THROUGH)
        return true;
    if (failure != BUILT)
        return refuse(failure, &l, n, function, argument, ierror);
    return take(section, &b, ierror, function);
}

bool f08_section_whole(struct f08_section *section, const CFI_cdesc_t *buffer, MPI_Count count,
                       MPI_Fint datatype, const char *function, const char *argument,
                       MPI_Fint *ierror)
{
    return section_with(whole_type, section, buffer, count, datatype, function, argument,
                        ierror);
}

/* Blocks of unit datatypes (data within extent) repeat with one stride in memory when a
 * block is whole elements covering whole lower dimensions, all but the last: the stride is
 * then the last dimension's stride times the block's length in it. */
static enum failure blocks_type(const struct layout *l, MPI_Count unit, MPI_Datatype datatype,
                                struct built *out)
{
    const struct dt_type *type = dt_from_handle(datatype);
    out->type = datatype;
    out->owned = false;
    if (unit <= 0 || !type || !type->committed || type->size == 0)
        return PASS_THROUGH;
    MPI_Aint block = (MPI_Aint)unit * type->extent;
    if (!fits_extent(type) || block % l->elem_len != 0)
        return NOT_UNIFORM;
    MPI_Count m = block / l->elem_len, below = 1;
    for (int d = 0; d < l->rank - 1; d++) {
        if (m % (below * l->extent[d]) != 0)
            return NOT_UNIFORM;
        below *= l->extent[d];
    }
    MPI_Aint stride = (MPI_Aint)(m / below) * l->stride[l->rank - 1];
    if (stride <= 0)
        return NOT_UNIFORM;
    struct built one;
    enum failure failure = whole_type(l, unit, datatype, &one);
    if (failure != BUILT && failure != PASS_THROUGH)
        return failure;
    int rc = MPI_Type_create_resized_c(one.type, 0, stride, &out->type);
    if (one.owned)
        MPI_Type_free(&one.type);
    out->owned = rc == MPI_SUCCESS;
    return rc == MPI_SUCCESS ? BUILT : MPI_FAILED;
}

bool f08_section_blocks(struct f08_section *section, const CFI_cdesc_t *buffer, MPI_Count unit,
                        MPI_Fint datatype, const char *function, const char *argument,
                        MPI_Fint *ierror)
{
    return section_with(blocks_type, section, buffer, unit, datatype, function, argument,
                        ierror);
}

bool f08_section_first(struct f08_section *section, const CFI_cdesc_t *buffer, MPI_Count count,
                       MPI_Fint datatype, const char *function, const char *argument,
                       MPI_Fint *ierror)
{
    pass_through(section, buffer);
    if (f08_is_contiguous(buffer))
        return true;
    struct layout l;
    layout_of(buffer, &l);
    struct built b;
    enum failure failure = whole_type(&l, count, MPI_Type_fromint(datatype), &b);
    if (failure == PASS_THROUGH)
        return true;
    if (b.owned)
        MPI_Type_free(&b.type);
    if (failure != BUILT)
        return refuse(failure, &l, count, function, argument, ierror);
    f08_set_ierror(ierror,
                   core_error_raise(NULL, MPI_ERR_BUFFER, function,
                                    "%s is a non-contiguous array section and the datatype "
                                    "does not fit in its first element (%lld bytes); the "
                                    "routine's buffers share one datatype: pass a contiguous "
                                    "array", argument, (long long)l.elem_len));
    return false;
}

struct f08_reduce_roles f08_reduce_roles_all(void)
{
    return (struct f08_reduce_roles){true, true};
}

/* MPI_Ireduce's buffers: on an intracommunicator sendbuf everywhere and recvbuf at the root;
 * on an intercommunicator recvbuf at MPI_ROOT, sendbuf in the other group, neither at
 * MPI_PROC_NULL. An invalid communicator counts as both (the C routine reports it). */
struct f08_reduce_roles f08_reduce_roles_rooted(const MPI_Fint *root, const MPI_Fint *comm)
{
    MPI_Comm c = MPI_Comm_fromint(*comm);
    int inter = 0, rank = -1;
    if (c == MPI_COMM_NULL || MPI_Comm_test_inter(c, &inter) != MPI_SUCCESS)
        return f08_reduce_roles_all();
    if (inter)
        return (struct f08_reduce_roles){*root != MPI_ROOT && *root != MPI_PROC_NULL,
                                         *root == MPI_ROOT};
    MPI_Comm_rank(c, &rank);
    return (struct f08_reduce_roles){true, rank == *root};
}

/* Copy sendbuf's count datatypes into recvbuf's (both described by their own types). */
static bool fold_into(const CFI_cdesc_t *sendbuf, const struct layout *ls,
                      const CFI_cdesc_t *recvbuf, const struct layout *lr, MPI_Count count,
                      MPI_Datatype datatype, const char *function, MPI_Fint *ierror)
{
    struct built s, r;
    const struct dt_type *type = dt_from_handle(datatype);
    bool ok = false;
    enum failure failure = f08_is_contiguous(sendbuf)
                               ? (s = (struct built){datatype, false}, PASS_THROUGH)
                               : whole_type(ls, count, datatype, &s);
    if (failure != BUILT && failure != PASS_THROUGH)
        return refuse(failure, ls, count, function, "sendbuf", ierror);
    failure = f08_is_contiguous(recvbuf) ? (r = (struct built){datatype, false}, PASS_THROUGH)
                                         : whole_type(lr, count, datatype, &r);
    if (failure != BUILT && failure != PASS_THROUGH) {
        refuse(failure, lr, count, function, "recvbuf", ierror);
        goto out;
    }
    size_t bytes = dt_packed_size(type, count);
    char *packed = malloc(bytes ? bytes : 1);
    if (!packed || (s.owned && MPI_Type_commit(&s.type) != MPI_SUCCESS) ||
        (r.owned && MPI_Type_commit(&r.type) != MPI_SUCCESS)) {
        free(packed);
        f08_set_ierror(ierror, f_no_memory(function));
        goto out;
    }
    dt_pack_range(dt_from_handle(s.type), sendbuf->base_addr, s.owned ? 1 : count, 0, packed,
                  bytes);
    dt_unpack_range(dt_from_handle(r.type), recvbuf->base_addr, r.owned ? 1 : count, 0, packed,
                    bytes);
    free(packed);
    ok = true;
out:
    if (s.owned)
        MPI_Type_free(&s.type);
    if (r.owned)
        MPI_Type_free(&r.type);
    return ok;
}

bool f08_section_reduce(struct f08_section *section, void **send_address,
                        const CFI_cdesc_t *sendbuf, const CFI_cdesc_t *recvbuf,
                        struct f08_reduce_roles roles, MPI_Count count, MPI_Fint datatype,
                        bool blocks, bool fold, const char *function, MPI_Fint *ierror)
{
    pass_through(section, recvbuf);
    *send_address = sendbuf->base_addr;
    bool in_place = sendbuf->base_addr == &mpi_fortran_in_place_;
    bool send_used = roles.send_used && !in_place, recv_used = roles.recv_used;
    bool send_section = send_used && !f08_is_contiguous(sendbuf);
    bool recv_section = recv_used && !f08_is_contiguous(recvbuf);
    MPI_Datatype type = MPI_Type_fromint(datatype);
    const struct dt_type *checked = dt_from_handle(type);
    if ((!send_section && !recv_section) || count < 0 || !checked || !checked->committed)
        return true; /* as it is: the C routine reports a bad count or datatype */
    struct layout ls, lr;
    layout_of(sendbuf, &ls);
    layout_of(recvbuf, &lr);
    /* The layout the type describes; the other used buffer must lie alike. */
    const struct layout *l = recv_section ? &lr : &ls;
    const char *argument = recv_section ? "recvbuf" : "sendbuf";
    if (send_used && recv_used && !same_layout(&ls, &lr)) {
        if (!fold) {
            f08_set_ierror(ierror,
                           core_error_raise(NULL, MPI_ERR_BUFFER, function,
                                            "sendbuf and recvbuf share one count and datatype, "
                                            "so as non-contiguous array sections they must "
                                            "have the same shape and strides (a contiguous "
                                            "array has stride one element)"));
            return false;
        }
        if (!fold_into(sendbuf, &ls, recvbuf, &lr, count, type, function, ierror))
            return false;
        *send_address = &mpi_fortran_in_place_;
        if (!recv_section)
            return true;
    }
    struct built b;
    enum failure failure =
        blocks ? blocks_type(l, count, type, &b) : whole_type(l, count, type, &b);
    if (failure == PASS_THROUGH)
        return true;
    if (failure != BUILT)
        return refuse(failure, l, count, function, argument, ierror);
    return take(section, &b, ierror, function);
}

void f08_section_free(struct f08_section *section)
{
    if (section->type != MPI_DATATYPE_NULL)
        MPI_Type_free(&section->type);
}
