/* markers.c - MPI_LB and MPI_UB, the MPI-1 bound markers MPI-3.0 removed (a nodempi extension,
 * include/mpi-legacy.tsv): types of size 0 whose type map is one lower (upper) bound marker at
 * displacement 0. A struct holding one at displacement d gets the sticky bounds of MPI-2.2
 * section 4.1.6 (lb = the least such d, ub = the greatest) from the marker bookkeeping
 * construct.c keeps for MPI_Type_create_resized, nested types included. Owns the two permanent
 * objects (made at dt_init, freed at dt_finalize); nothing here runs on a transfer path. */
#include "datatype/construct.h"
#include "datatype/internal.h"

static struct dt_type *lb_type, *ub_type;

/* An empty struct (no data, nothing to compile) carrying one marker at displacement 0. */
static int marker_make(int upper, const char *name, struct dt_type **out)
{
    struct dt_type *type;
    int err = dt_create_struct(0, NULL, NULL, NULL, &type);
    if (err != MPI_SUCCESS)
        return err;
    struct dt_layout *layout = &dt_derived_of(type)->layout;
    if (upper)
        layout->has_ub_marker = 1;
    else
        layout->has_lb_marker = 1;
    dt_set_name(type, name);
    type->permanent = 1;
    err = dt_commit(type);
    if (err != MPI_SUCCESS) {
        dt_destroy_derived(type);
        return err;
    }
    *out = type;
    return MPI_SUCCESS;
}

int dt_markers_init(void)
{
    int err = MPI_SUCCESS;
    if (!lb_type)
        err = marker_make(0, "MPI_LB", &lb_type);
    if (err == MPI_SUCCESS && !ub_type)
        err = marker_make(1, "MPI_UB", &ub_type);
    return err;
}

void dt_markers_finalize(void)
{
    if (lb_type)
        dt_destroy_derived(lb_type);
    if (ub_type)
        dt_destroy_derived(ub_type);
    lb_type = ub_type = NULL;
}

struct dt_type *dt_marker_from_handle(MPI_Datatype handle)
{
    if (handle == MPI_LB)
        return lb_type;
    if (handle == MPI_UB)
        return ub_type;
    return NULL;
}

MPI_Datatype dt_marker_handle(const struct dt_type *type)
{
    if (type && type == lb_type)
        return MPI_LB;
    if (type && type == ub_type)
        return MPI_UB;
    return MPI_DATATYPE_NULL;
}
