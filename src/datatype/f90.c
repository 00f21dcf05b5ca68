/* f90.c - MPI_Type_create_f90_integer/real/complex (MPI-4.1 19.1.9): picks the Fortran sized
 * type (MPI_INTEGERn, MPI_REALn, MPI_COMPLEXn) that SELECTED_INT_KIND / SELECTED_REAL_KIND
 * would choose, and keeps one permanent wrapper of it per (combiner, p, r) so the handle reports
 * MPI_COMBINER_F90_* with p, r and the same request always gives the same handle. Owns that
 * cache (freed at dt_finalize); must not be used for anything the user may free. */
#include <stdlib.h>
#include <string.h>

#include "datatype/construct.h"
#include "datatype/internal.h"

struct f90_entry {
    struct f90_entry *next;
    int combiner, p, r;
    struct dt_type *type;
};

static struct f90_entry *f90_cache;

/* Decimal range (Fortran RANGE) and precision (PRECISION) of each kind, from the IEEE formats
 * and two's complement widths, as gfortran reports them. SELECTED_INT_KIND(r) is the smallest
 * integer with RANGE >= r: 10^r must fit (int8 holds 10^2, int16 10^4, int32 10^9, int64
 * 10^18). MPICH and Open MPI stop at INTEGER8 too, though MPI_INTEGER16 exists. */
static MPI_Datatype f90_integer(int r)
{
    static const struct { int range; MPI_Datatype type; } kinds[] = {
        {2, MPI_INTEGER1}, {4, MPI_INTEGER2}, {9, MPI_INTEGER4}, {18, MPI_INTEGER8}};
    for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
        if (r <= kinds[i].range) /* a negative r (MPI_UNDEFINED too) asks for nothing */
            return kinds[i].type;
    return MPI_DATATYPE_NULL;
}

/* SELECTED_REAL_KIND(p, r): the smallest real with PRECISION >= p and RANGE >= r; binary32
 * (6, 37), binary64 (15, 307), binary128 = REAL*16 (33, 4931). MPI_REAL2 is left out: no
 * Fortran compiler offers a half-precision kind. */
static MPI_Datatype f90_real(int p, int r, int complex)
{
    static const struct { int precision, range; MPI_Datatype real, complex; } kinds[] = {
        {6, 37, MPI_REAL4, MPI_COMPLEX8},
        {15, 307, MPI_REAL8, MPI_COMPLEX16},
        {33, 4931, MPI_REAL16, MPI_COMPLEX32}};
    for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
        if (p <= kinds[i].precision && r <= kinds[i].range)
            return complex ? kinds[i].complex : kinds[i].real;
    return MPI_DATATYPE_NULL;
}

static MPI_Datatype f90_choose(int combiner, int p, int r)
{
    if (combiner == MPI_COMBINER_F90_INTEGER)
        return f90_integer(r);
    /* MPI_UNDEFINED stands for the argument SELECTED_REAL_KIND leaves out; not both. */
    if (p == MPI_UNDEFINED && r == MPI_UNDEFINED)
        return MPI_DATATYPE_NULL;
    return f90_real(p == MPI_UNDEFINED ? 0 : p, r == MPI_UNDEFINED ? 0 : r,
                    combiner == MPI_COMBINER_F90_COMPLEX);
}

static int f90_make(int combiner, int p, int r, struct dt_type *basic, struct dt_type **out)
{
    int ints[2] = {p, r};
    int nints = 2;
    if (combiner == MPI_COMBINER_F90_INTEGER) {
        ints[0] = r;
        nints = 1;
    }
    struct dt_type *type;
    int err = dt_create_dup(basic, &type);
    if (err != MPI_SUCCESS)
        return err;
    err = dt_set_contents(type, combiner, nints, ints, 0, NULL, 0, NULL, 0, NULL);
    if (err != MPI_SUCCESS) {
        dt_release(type);
        return err;
    }
    dt_set_name(type, basic->name);
    type->permanent = 1;
    *out = type;
    return MPI_SUCCESS;
}

int dt_f90_type(int combiner, int p, int r, struct dt_type **out)
{
    if (combiner == MPI_COMBINER_F90_INTEGER)
        p = 0; /* not part of the request */
    for (struct f90_entry *e = f90_cache; e; e = e->next)
        if (e->combiner == combiner && e->p == p && e->r == r) {
            *out = e->type;
            return MPI_SUCCESS;
        }
    struct dt_type *basic = dt_from_handle(f90_choose(combiner, p, r));
    if (!basic)
        return MPI_ERR_ARG;
    struct f90_entry *e = calloc(1, sizeof(*e));
    if (!e)
        return MPI_ERR_NO_MEM;
    int err = f90_make(combiner, p, r, basic, &e->type);
    if (err != MPI_SUCCESS) {
        free(e);
        return err;
    }
    e->combiner = combiner;
    e->p = p;
    e->r = r;
    e->next = f90_cache;
    f90_cache = e;
    *out = e->type;
    return MPI_SUCCESS;
}

void dt_f90_finalize(void)
{
    while (f90_cache) {
        struct f90_entry *e = f90_cache;
        f90_cache = e->next;
        dt_destroy_derived(e->type);
        free(e);
    }
}
