/* datarep.c - user data representations (MPI_Register_datarep): this process's table of names
 * with their conversion and extent functions, and the conversions io_access applies to the
 * views that name one. A view may use one when the file extent the user's extent function
 * gives every basic type of etype and filetype equals the type's native size: the file layout
 * is then native's and only the bytes of each element change (as for external32 here, view.c);
 * other views get MPI_ERR_UNSUPPORTED_DATAREP at MPI_File_set_view. Entries live until
 * MPI_Finalize (MPI has no call to remove one). */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/init.h"
#include "datatype/construct.h"
#include "io/io.h"

struct io_datarep {
    struct io_datarep *next;
    char name[MPI_MAX_DATAREP_STRING];
    MPI_Datarep_conversion_function *read, *write;       /* MPI_Register_datarep */
    MPI_Datarep_conversion_function_c *read_c, *write_c; /* MPI_Register_datarep_c */
    MPI_Datarep_extent_function *extent;
    void *extra_state;
};

static struct io_datarep *datarep_table;

static int is_predefined(const char *name)
{
    return strcmp(name, "native") == 0 || strcmp(name, "internal") == 0 ||
           strcmp(name, "external32") == 0;
}

const struct io_datarep *io_datarep_find(const char *name)
{
    for (struct io_datarep *d = datarep_table; d; d = d->next)
        if (strcmp(d->name, name) == 0)
            return d;
    return NULL;
}

int io_datarep_register(const char *name, const struct io_datarep_functions *fns)
{
    if (is_predefined(name) || io_datarep_find(name))
        return MPI_ERR_DUP_DATAREP;
    struct io_datarep *d = calloc(1, sizeof(*d));
    if (!d)
        return MPI_ERR_NO_MEM;
    snprintf(d->name, sizeof(d->name), "%s", name);
    d->read = fns->read;
    d->write = fns->write;
    d->read_c = fns->read_c;
    d->write_c = fns->write_c;
    d->extent = fns->extent;
    d->extra_state = fns->extra_state;
    if (!datarep_table)
        core_at_finalize(io_datarep_finalize);
    d->next = datarep_table;
    datarep_table = d;
    return MPI_SUCCESS;
}

void io_datarep_finalize(void)
{
    while (datarep_table) {
        struct io_datarep *next = datarep_table->next;
        free(datarep_table);
        datarep_table = next;
    }
}

int io_datarep_basic_extent(const struct io_datarep *d, const struct dt_type *basic,
                            MPI_Aint *extent)
{
    MPI_Aint file_extent = -1;
    if (d->extent(dt_to_handle(basic), &file_extent, d->extra_state) != MPI_SUCCESS)
        return MPI_ERR_CONVERSION;
    *extent = file_extent;
    return MPI_SUCCESS;
}

static int file_size_is_native(void *ctx, const struct dt_type *basic)
{
    MPI_Aint file_extent = -1;
    return io_datarep_basic_extent(ctx, basic, &file_extent) == MPI_SUCCESS &&
           file_extent == (MPI_Aint)basic->size;
}

int io_datarep_same_size(const struct io_datarep *d, const struct dt_type *type)
{
    return dt_all_basic(type, file_size_is_native, (void *)d);
}

/* One call of the user's function over items [first, first + n) of userbuf; filebuf holds
 * those items packed. */
static int convert_items(const struct io_datarep *d, int to_file, void *userbuf,
                         MPI_Datatype handle, MPI_Count n, void *filebuf, MPI_Count first)
{
    MPI_Datarep_conversion_function_c *fn_c = to_file ? d->write_c : d->read_c;
    if (fn_c)
        return fn_c(userbuf, handle, n, filebuf, (MPI_Offset)first, d->extra_state);
    MPI_Datarep_conversion_function *fn = to_file ? d->write : d->read;
    return fn(userbuf, handle, (int)n, filebuf, (MPI_Offset)first, d->extra_state);
}

int io_datarep_convert(const struct io_datarep *d, int to_file, void *userbuf,
                       struct dt_type *type, MPI_Count count, void *filebuf)
{
    int has_fn = to_file ? (d->write || d->write_c) : (d->read || d->read_c);
    size_t total = dt_packed_size(type, count);
    if (!has_fn) { /* MPI_CONVERSION_FN_NULL: the file holds native bytes */
        if (to_file)
            dt_pack_range(type, userbuf, count, 0, filebuf, total);
        else
            dt_unpack_range(type, userbuf, count, 0, filebuf, total);
        return MPI_SUCCESS;
    }
    /* The int-count functions take at most INT_MAX items a call: position says where in
     * userbuf (in items) each call starts, and filebuf moves past the items done. */
    MPI_Count step = (to_file ? d->write_c : d->read_c) ? count : INT_MAX;
    MPI_Datatype handle = dt_to_handle(type);
    for (MPI_Count first = 0; first < count; first += step) {
        MPI_Count n = count - first < step ? count - first : step;
        char *packed = (char *)filebuf + (size_t)first * (size_t)type->size;
        if (convert_items(d, to_file, userbuf, handle, n, packed, first) != MPI_SUCCESS)
            return MPI_ERR_CONVERSION;
    }
    return MPI_SUCCESS;
}
