/* elements.c - counting basic elements in received bytes (MPI_Get_elements) and the inverse
 * (MPI_Status_set_elements). Whole elements of the type are counted arithmetically; only the
 * bytes of a final partial element walk the type map (of one element, never the whole message).
 * A pair type (MPI_DOUBLE_INT...) is two basic elements: its value, then its index. */
#include "datatype/internal.h"

struct count_bytes {
    MPI_Count bytes;     /* left to account for */
    MPI_Count elements;
    int undefined;
};

static MPI_Count pair_first_size(const struct dt_type *basic)
{
    const struct dt_basic *info = &dt_basic_info[dt_predefined_index(basic)];
    return dt_predefined_types[info->first_index].size;
}

static int count_leaf(void *ctx, const struct dt_type *basic, MPI_Aint disp, MPI_Count n)
{
    struct count_bytes *c = ctx;
    MPI_Count whole = c->bytes / basic->size;
    (void)disp;
    if (whole >= n) {
        c->elements += n * basic->element_count;
        c->bytes -= n * basic->size;
        return c->bytes == 0;
    }
    c->elements += whole * basic->element_count;
    c->bytes -= whole * basic->size;
    if (c->bytes > 0) {
        if (basic->element_count == 2 && c->bytes == pair_first_size(basic))
            c->elements += 1; /* the value of a pair, without its index */
        else
            c->undefined = 1;
        c->bytes = 0;
    }
    return 1;
}

void dt_get_elements(const struct dt_type *type, MPI_Count bytes, MPI_Count *elements)
{
    if (type->size == 0) {
        *elements = 0;
        return;
    }
    struct count_bytes c = {bytes % type->size, (bytes / type->size) * type->element_count, 0};
    if (c.bytes > 0)
        dt_walk_leaves(type, 0, count_leaf, &c);
    *elements = c.undefined ? MPI_UNDEFINED : c.elements;
}

struct count_elements {
    MPI_Count elements;  /* left to account for */
    MPI_Count bytes;
    int bad;
};

static int bytes_leaf(void *ctx, const struct dt_type *basic, MPI_Aint disp, MPI_Count n)
{
    struct count_elements *c = ctx;
    MPI_Count whole = c->elements / basic->element_count;
    (void)disp;
    if (whole >= n) {
        c->bytes += n * basic->size;
        c->elements -= n * basic->element_count;
        return c->elements == 0;
    }
    c->bytes += whole * basic->size;
    c->elements -= whole * basic->element_count;
    if (c->elements > 0) /* one of a pair's two elements */
        c->bytes += pair_first_size(basic);
    c->elements = 0;
    return 1;
}

int dt_elements_to_bytes(const struct dt_type *type, MPI_Count elements, MPI_Count *bytes)
{
    if (type->element_count == 0) {
        *bytes = 0;
        return elements == 0 ? MPI_SUCCESS : MPI_ERR_ARG;
    }
    struct count_elements c = {elements % type->element_count,
                               (elements / type->element_count) * type->size, 0};
    if (c.elements > 0)
        dt_walk_leaves(type, 0, bytes_leaf, &c);
    *bytes = c.bytes;
    return c.elements > 0 ? MPI_ERR_ARG : MPI_SUCCESS;
}
