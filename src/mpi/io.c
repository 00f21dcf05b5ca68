/* io.c - API: MPI-IO (MPI-4.1 chapter 14): file handles, the checks of every I/O call in the
 * standard's order, error handlers of files (MPI_FILE_NULL's handler, MPI_ERRORS_RETURN unless
 * changed, serves errors without a file and is inherited by new files), statuses and requests.
 * Nonblocking and split collective calls do their I/O at the start (a local disk) and hand
 * back a completed request or a stored status. The work is src/io's. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/group.h"
#include "core/info.h"
#include "core/init.h"
#include "core/request.h"
#include "io/io.h"
#include "mpi/api.h"

/* ---- handles and error handlers ----------------------------------------------------------- */

/* The handler of MPI_FILE_NULL (NULL: the default, MPI_ERRORS_RETURN). */
static struct core_errhandler *file_null_errhandler;

static void release_file_null_errhandler(void)
{
    if (file_null_errhandler)
        core_errhandler_release(file_null_errhandler);
    file_null_errhandler = NULL;
}

static struct core_errhandler *null_errhandler(void)
{
    if (!file_null_errhandler)
        return core_errhandler_predefined(CORE_ERRHANDLER_RETURN);
    return file_null_errhandler;
}

static struct io_file *file_from_handle(MPI_File handle)
{
    struct io_file *file = (struct io_file *)handle;
    if ((uintptr_t)handle < 0x1000 || file->magic != IO_FILE_MAGIC)
        return NULL;
    return file;
}

/* Raise `code` on the file's handler (MPI_FILE_NULL's when file is NULL). */
static int file_error(struct io_file *file, int code, const char *function, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static int file_error(struct io_file *file, int code, const char *function, const char *fmt, ...)
{
    char message[600], object[320];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, sizeof(message), fmt, ap);
    va_end(ap);
    snprintf(object, sizeof(object), "file %s", file ? file->path : "MPI_FILE_NULL");
    struct core_errhandler *eh = file ? file->errhandler : null_errhandler();
    MPI_File handle = file ? (MPI_File)file : MPI_FILE_NULL;
    return core_error_raise_object(eh, (void *)handle, object, code, function, "%s", message);
}

/* The text of an error class for messages ("MPI_ERR_IO: ..."). */
static const char *class_text(int code)
{
    const char *text = core_error_string(code);
    return text ? text : "error";
}

static int begin_file(MPI_File handle, struct io_file **file, const char *function)
{
    int rc = mpi_check_initialized(function);
    if (rc != MPI_SUCCESS)
        return rc;
    *file = file_from_handle(handle);
    if (*file)
        return MPI_SUCCESS;
    return file_error(NULL, MPI_ERR_FILE, function, "invalid file handle%s",
                      handle == MPI_FILE_NULL ? " MPI_FILE_NULL" : "");
}

static int check_out(struct io_file *file, const void *pointer, const char *name,
                     const char *function)
{
    if (pointer)
        return MPI_SUCCESS;
    return file_error(file, MPI_ERR_ARG, function, "%s is NULL", name);
}

static int get_file_type(struct io_file *file, MPI_Datatype handle, struct dt_type **type,
                         const char *name, const char *function)
{
    *type = dt_from_handle(handle);
    if (!*type)
        return file_error(file, MPI_ERR_TYPE, function, "invalid %s%s", name,
                          handle == MPI_DATATYPE_NULL ? " MPI_DATATYPE_NULL" : "");
    if (!(*type)->committed)
        return file_error(file, MPI_ERR_TYPE, function,
                          "%s is not committed (call MPI_Type_commit)", name);
    return MPI_SUCCESS;
}

/* An info argument: a valid object or MPI_INFO_NULL (*info = NULL). */
static int get_info_arg(struct io_file *file, MPI_Info handle, struct core_info **info,
                        const char *function)
{
    *info = NULL;
    if (handle == MPI_INFO_NULL)
        return MPI_SUCCESS;
    if ((*info = core_info_from_handle(handle)))
        return MPI_SUCCESS;
    return file_error(file, MPI_ERR_INFO, function, "invalid info object");
}

/* ---- file manipulation -------------------------------------------------------------------- */

static int check_amode(int amode, const char *function)
{
    if (io_check_amode(amode) == MPI_SUCCESS)
        return MPI_SUCCESS;
    return file_error(NULL, MPI_ERR_AMODE, function,
                      "invalid amode 0x%x (exactly one of MPI_MODE_RDONLY, MPI_MODE_RDWR, "
                      "MPI_MODE_WRONLY; RDONLY excludes CREATE and EXCL; SEQUENTIAL excludes "
                      "RDWR)",
                      (unsigned)amode);
}

int PMPI_File_open(MPI_Comm comm, const char *filename, int amode, MPI_Info info, MPI_File *fh)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    const char *function = "MPI_File_open";
    struct core_comm *c;
    struct core_info *i;
    int rc;
    if ((rc = mpi_check_initialized(function)) || (rc = mpi_get_comm(comm, &c, function)))
        return rc;
    if (c->is_inter)
        return file_error(NULL, MPI_ERR_COMM, function,
                          "intercommunicators cannot open files");
    if ((rc = check_out(NULL, filename, "filename", function)) ||
        (rc = check_amode(amode, function)) || (rc = get_info_arg(NULL, info, &i, function)) ||
        (rc = check_out(NULL, fh, "fh", function)))
        return rc;
    struct io_file *file;
    if ((rc = io_file_open(c, filename, amode, i, &file)) != MPI_SUCCESS) {
        *fh = MPI_FILE_NULL;
        return file_error(NULL, rc, function, "cannot open %s with amode 0x%x: %s", filename,
                          (unsigned)amode, class_text(rc));
    }
    file->errhandler = null_errhandler();
    core_errhandler_retain(file->errhandler);
    *fh = (MPI_File)file;
    return MPI_SUCCESS;
}
#pragma weak MPI_File_open = PMPI_File_open

int PMPI_File_close(MPI_File *fh)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    const char *function = "MPI_File_close";
    struct io_file *file;
    int rc = mpi_check_initialized(function);
    if (rc != MPI_SUCCESS || (rc = check_out(NULL, fh, "fh", function)) ||
        (rc = begin_file(*fh, &file, function)))
        return rc;
    if (file->split.kind != IO_SPLIT_NONE)
        return file_error(file, MPI_ERR_OTHER, function,
                          "a split collective is still active (call its _end first)");
    /* The object goes away in io_file_close; its handler must survive a failure report. */
    struct core_errhandler *eh = file->errhandler;
    core_errhandler_retain(eh);
    MPI_File old = *fh;
    *fh = MPI_FILE_NULL;
    if ((rc = io_file_close(file)) != MPI_SUCCESS)
        rc = core_error_raise_object(eh, (void *)old, "file", rc, function,
                                     "closing the file failed: %s", class_text(rc));
    core_errhandler_release(eh);
    return rc;
}
#pragma weak MPI_File_close = PMPI_File_close

static int register_datarep(const char *datarep, const struct io_datarep_functions *fns,
                            const char *function)
{
    int rc;
    if ((rc = mpi_check_initialized(function)) ||
        (rc = check_out(NULL, datarep, "datarep", function)))
        return rc;
    size_t len = strlen(datarep);
    if (len == 0 || len >= MPI_MAX_DATAREP_STRING)
        return file_error(NULL, MPI_ERR_ARG, function,
                          "datarep must be 1 to %d characters long, not %zu",
                          MPI_MAX_DATAREP_STRING - 1, len);
    if (!fns->extent)
        return file_error(NULL, MPI_ERR_ARG, function,
                          "dtype_file_extent_fn must be a function (it is NULL)");
    if ((rc = io_datarep_register(datarep, fns)) == MPI_ERR_DUP_DATAREP)
        return file_error(NULL, rc, function, "data representation \"%s\" is already defined",
                          datarep);
    if (rc != MPI_SUCCESS)
        return file_error(NULL, rc, function, "cannot register \"%s\": %s", datarep,
                          class_text(rc));
    return MPI_SUCCESS;
}

int PMPI_Register_datarep(const char *datarep,
                          MPI_Datarep_conversion_function *read_conversion_fn,
                          MPI_Datarep_conversion_function *write_conversion_fn,
                          MPI_Datarep_extent_function *dtype_file_extent_fn, void *extra_state)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    struct io_datarep_functions fns = {.read = read_conversion_fn,
                                       .write = write_conversion_fn,
                                       .extent = dtype_file_extent_fn,
                                       .extra_state = extra_state};
    return register_datarep(datarep, &fns, "MPI_Register_datarep");
}
#pragma weak MPI_Register_datarep = PMPI_Register_datarep

int PMPI_Register_datarep_c(const char *datarep,
                            MPI_Datarep_conversion_function_c *read_conversion_fn,
                            MPI_Datarep_conversion_function_c *write_conversion_fn,
                            MPI_Datarep_extent_function *dtype_file_extent_fn,
                            void *extra_state)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    struct io_datarep_functions fns = {.read_c = read_conversion_fn,
                                       .write_c = write_conversion_fn,
                                       .extent = dtype_file_extent_fn,
                                       .extra_state = extra_state};
    return register_datarep(datarep, &fns, "MPI_Register_datarep_c");
}
#pragma weak MPI_Register_datarep_c = PMPI_Register_datarep_c

int PMPI_File_delete(const char *filename, MPI_Info info)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    const char *function = "MPI_File_delete";
    struct core_info *i;
    int rc;
    if ((rc = mpi_check_initialized(function)) ||
        (rc = check_out(NULL, filename, "filename", function)) ||
        (rc = get_info_arg(NULL, info, &i, function)))
        return rc;
    if ((rc = io_file_delete(filename)) != MPI_SUCCESS)
        return file_error(NULL, rc, function, "cannot delete %s: %s", filename, class_text(rc));
    return MPI_SUCCESS;
}
#pragma weak MPI_File_delete = PMPI_File_delete

/* set_size and preallocate: a nonnegative size on a file that may be written. */
static int begin_resize(MPI_File fh, MPI_Offset size, struct io_file **file,
                        const char *function)
{
    int rc = begin_file(fh, file, function);
    if (rc != MPI_SUCCESS)
        return rc;
    if (size < 0)
        return file_error(*file, MPI_ERR_ARG, function, "invalid size %lld", (long long)size);
    if ((*file)->amode & MPI_MODE_RDONLY)
        return file_error(*file, MPI_ERR_READ_ONLY, function,
                          "the file was opened MPI_MODE_RDONLY");
    if ((*file)->amode & MPI_MODE_SEQUENTIAL)
        return file_error(*file, MPI_ERR_UNSUPPORTED_OPERATION, function,
                          "the file was opened MPI_MODE_SEQUENTIAL");
    return MPI_SUCCESS;
}

int PMPI_File_set_size(MPI_File fh, MPI_Offset size)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    const char *function = "MPI_File_set_size";
    struct io_file *file;
    int rc = begin_resize(fh, size, &file, function);
    if (rc != MPI_SUCCESS)
        return rc;
    if ((rc = io_file_set_size(file, size)) != MPI_SUCCESS)
        return file_error(file, rc, function, "resizing to %lld bytes failed: %s",
                          (long long)size, class_text(rc));
    return MPI_SUCCESS;
}
#pragma weak MPI_File_set_size = PMPI_File_set_size

int PMPI_File_preallocate(MPI_File fh, MPI_Offset size)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    const char *function = "MPI_File_preallocate";
    struct io_file *file;
    int rc = begin_resize(fh, size, &file, function);
    if (rc != MPI_SUCCESS)
        return rc;
    if ((rc = io_file_preallocate(file, size)) != MPI_SUCCESS)
        return file_error(file, rc, function, "preallocating %lld bytes failed: %s",
                          (long long)size, class_text(rc));
    return MPI_SUCCESS;
}
#pragma weak MPI_File_preallocate = PMPI_File_preallocate

int PMPI_File_get_size(MPI_File fh, MPI_Offset *size)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    const char *function = "MPI_File_get_size";
    struct io_file *file;
    int rc;
    if ((rc = begin_file(fh, &file, function)) || (rc = check_out(file, size, "size", function)))
        return rc;
    if ((rc = io_file_get_size(file, size)) != MPI_SUCCESS)
        return file_error(file, rc, function, "fstat failed: %s", class_text(rc));
    return MPI_SUCCESS;
}
#pragma weak MPI_File_get_size = PMPI_File_get_size

int PMPI_File_get_group(MPI_File fh, MPI_Group *group)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    const char *function = "MPI_File_get_group";
    struct io_file *file;
    struct core_group *g;
    int rc;
    if ((rc = begin_file(fh, &file, function)) ||
        (rc = check_out(file, group, "group", function)))
        return rc;
    if ((rc = core_group_of_comm(file->comm, &g)) != MPI_SUCCESS)
        return file_error(file, rc, function, "out of memory");
    *group = core_group_to_handle(g);
    return MPI_SUCCESS;
}
#pragma weak MPI_File_get_group = PMPI_File_get_group

int PMPI_File_get_amode(MPI_File fh, int *amode)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    const char *function = "MPI_File_get_amode";
    struct io_file *file;
    int rc;
    if ((rc = begin_file(fh, &file, function)) ||
        (rc = check_out(file, amode, "amode", function)))
        return rc;
    *amode = file->amode;
    return MPI_SUCCESS;
}
#pragma weak MPI_File_get_amode = PMPI_File_get_amode

/* Hints are kept as given (none changes what this implementation does). */
int PMPI_File_set_info(MPI_File fh, MPI_Info info)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    const char *function = "MPI_File_set_info";
    struct io_file *file;
    struct core_info *i, *copy;
    int rc;
    if ((rc = begin_file(fh, &file, function)) || (rc = get_info_arg(file, info, &i, function)))
        return rc;
    if (!i)
        return MPI_SUCCESS;
    if ((rc = core_info_dup(i, &copy)) != MPI_SUCCESS)
        return file_error(file, rc, function, "out of memory");
    core_info_free(file->info);
    file->info = copy;
    return MPI_SUCCESS;
}
#pragma weak MPI_File_set_info = PMPI_File_set_info

int PMPI_File_get_info(MPI_File fh, MPI_Info *info_used)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    const char *function = "MPI_File_get_info";
    struct io_file *file;
    struct core_info *copy;
    int rc;
    if ((rc = begin_file(fh, &file, function)) ||
        (rc = check_out(file, info_used, "info_used", function)))
        return rc;
    if ((rc = core_info_dup(file->info, &copy)) != MPI_SUCCESS)
        return file_error(file, rc, function, "out of memory");
    *info_used = core_info_to_handle(copy);
    return MPI_SUCCESS;
}
#pragma weak MPI_File_get_info = PMPI_File_get_info

int PMPI_File_sync(MPI_File fh)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    const char *function = "MPI_File_sync";
    struct io_file *file;
    int rc = begin_file(fh, &file, function);
    if (rc != MPI_SUCCESS)
        return rc;
    if ((rc = io_file_sync(file)) != MPI_SUCCESS)
        return file_error(file, rc, function, "fsync failed: %s", class_text(rc));
    return MPI_SUCCESS;
}
#pragma weak MPI_File_sync = PMPI_File_sync

int PMPI_File_set_atomicity(MPI_File fh, int flag)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    const char *function = "MPI_File_set_atomicity";
    struct io_file *file;
    int rc = begin_file(fh, &file, function);
    if (rc != MPI_SUCCESS)
        return rc;
    if ((rc = io_check_same(file, flag != 0)) != MPI_SUCCESS)
        return file_error(file, rc, function, "flag must be the same in every process");
    file->atomic = flag != 0;
    return MPI_SUCCESS;
}
#pragma weak MPI_File_set_atomicity = PMPI_File_set_atomicity

int PMPI_File_get_atomicity(MPI_File fh, int *flag)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    const char *function = "MPI_File_get_atomicity";
    struct io_file *file;
    int rc;
    if ((rc = begin_file(fh, &file, function)) || (rc = check_out(file, flag, "flag", function)))
        return rc;
    *flag = file->atomic;
    return MPI_SUCCESS;
}
#pragma weak MPI_File_get_atomicity = PMPI_File_get_atomicity

/* native and internal store data as in memory: the extent is the type's. So does external32
 * for the types its views take; a user representation gives a basic type's file extent with
 * its extent function (views take derived types whose basic types keep their size). */
static int type_extent(MPI_File fh, MPI_Datatype datatype, const void *extent, MPI_Aint *out,
                       const char *function)
{
    struct io_file *file;
    struct dt_type *type;
    int rc;
    if ((rc = begin_file(fh, &file, function)))
        return rc;
    type = dt_from_handle(datatype);
    if (!type)
        return file_error(file, MPI_ERR_TYPE, function, "invalid datatype");
    if ((rc = check_out(file, extent, "extent", function)))
        return rc;
    *out = type->extent;
    const struct io_datarep *user = file->view.user_datarep;
    if (user && type->predefined && (rc = io_datarep_basic_extent(user, type, out)))
        return file_error(file, rc, function,
                          "the extent function of data representation \"%s\" failed",
                          file->view.datarep);
    return MPI_SUCCESS;
}

int PMPI_File_get_type_extent(MPI_File fh, MPI_Datatype datatype, MPI_Aint *extent)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    MPI_Aint value = 0;
    int rc = type_extent(fh, datatype, extent, &value, "MPI_File_get_type_extent");
    if (rc == MPI_SUCCESS)
        *extent = value;
    return rc;
}
#pragma weak MPI_File_get_type_extent = PMPI_File_get_type_extent

int PMPI_File_get_type_extent_c(MPI_File fh, MPI_Datatype datatype, MPI_Count *extent)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    MPI_Aint value = 0;
    int rc = type_extent(fh, datatype, extent, &value, "MPI_File_get_type_extent_c");
    if (rc == MPI_SUCCESS)
        *extent = value;
    return rc;
}
#pragma weak MPI_File_get_type_extent_c = PMPI_File_get_type_extent_c

/* ---- views and pointers ------------------------------------------------------------------- */

int PMPI_File_set_view(MPI_File fh, MPI_Offset disp, MPI_Datatype etype, MPI_Datatype filetype,
                       const char *datarep, MPI_Info info)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    const char *function = "MPI_File_set_view";
    struct io_file *file;
    struct dt_type *e, *f;
    struct core_info *i;
    int rc;
    if ((rc = begin_file(fh, &file, function)))
        return rc;
    int sequential = (file->amode & MPI_MODE_SEQUENTIAL) != 0;
    if (disp == MPI_DISPLACEMENT_CURRENT && sequential)
        disp = io_view_file_byte(&file->view,
                                 io_shared_get(&file->shared) * file->view.etype->size);
    else if (disp < 0)
        return file_error(file, MPI_ERR_ARG, function, "invalid displacement %lld%s",
                          (long long)disp,
                          disp == MPI_DISPLACEMENT_CURRENT
                              ? " (MPI_DISPLACEMENT_CURRENT needs MPI_MODE_SEQUENTIAL)"
                              : "");
    if ((rc = get_file_type(file, etype, &e, "etype", function)) ||
        (rc = get_file_type(file, filetype, &f, "filetype", function)) ||
        (rc = check_out(file, datarep, "datarep", function)) ||
        (rc = get_info_arg(file, info, &i, function)))
        return rc;
    if ((rc = io_view_set(&file->view, disp, e, f, datarep)) != MPI_SUCCESS) {
        if (rc == MPI_ERR_UNSUPPORTED_DATAREP)
            return file_error(file, rc, function,
                              "data representation \"%s\" is not supported with these types "
                              "(native, internal; external32 for types of equal size in both)",
                              datarep);
        return file_error(file, rc, function,
                          "filetype must be whole etypes (size %lld is not a multiple of "
                          "%lld) with nonnegative, nondecreasing displacements",
                          (long long)f->size, (long long)e->size);
    }
    file->position = 0;
    /* The shared pointer goes back to 0 between two barriers (io_seek_shared). */
    if ((rc = io_seek_shared(file, 0)) != MPI_SUCCESS)
        return file_error(file, rc, function, "synchronizing failed: %s", class_text(rc));
    return MPI_SUCCESS;
}
#pragma weak MPI_File_set_view = PMPI_File_set_view

/* A derived etype or filetype handed out is a new reference the caller frees. */
static MPI_Datatype type_out(struct dt_type *type)
{
    if (!type->predefined)
        dt_retain(type);
    return dt_to_handle(type);
}

int PMPI_File_get_view(MPI_File fh, MPI_Offset *disp, MPI_Datatype *etype,
                       MPI_Datatype *filetype, char *datarep)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    const char *function = "MPI_File_get_view";
    struct io_file *file;
    int rc;
    if ((rc = begin_file(fh, &file, function)) || (rc = check_out(file, disp, "disp", function)) ||
        (rc = check_out(file, etype, "etype", function)) ||
        (rc = check_out(file, filetype, "filetype", function)) ||
        (rc = check_out(file, datarep, "datarep", function)))
        return rc;
    *disp = file->view.disp;
    *etype = type_out(file->view.etype);
    *filetype = type_out(file->view.filetype);
    snprintf(datarep, MPI_MAX_DATAREP_STRING, "%s", file->view.datarep);
    return MPI_SUCCESS;
}
#pragma weak MPI_File_get_view = PMPI_File_get_view

/* The new pointer for a seek from `current`; MPI_ERR_ARG for a bad whence or a negative
 * result. */
static int seek_target(struct io_file *file, MPI_Offset current, MPI_Offset offset, int whence,
                       MPI_Offset *target, const char *function)
{
    MPI_Offset base;
    if (whence == MPI_SEEK_SET) {
        base = 0;
    } else if (whence == MPI_SEEK_CUR) {
        base = current;
    } else if (whence == MPI_SEEK_END) {
        MPI_Offset size;
        int rc = io_file_get_size(file, &size);
        if (rc != MPI_SUCCESS)
            return file_error(file, rc, function, "fstat failed: %s", class_text(rc));
        base = io_view_etypes_below(&file->view, size);
    } else {
        return file_error(file, MPI_ERR_ARG, function,
                          "invalid whence %d (MPI_SEEK_SET, MPI_SEEK_CUR or MPI_SEEK_END)",
                          whence);
    }
    if (base + offset < 0)
        return file_error(file, MPI_ERR_ARG, function,
                          "offset %lld would move the file pointer before the view's start",
                          (long long)offset);
    *target = base + offset;
    return MPI_SUCCESS;
}

static int no_individual_pointer(struct io_file *file, const char *function)
{
    if (!(file->amode & MPI_MODE_SEQUENTIAL))
        return MPI_SUCCESS;
    return file_error(file, MPI_ERR_UNSUPPORTED_OPERATION, function,
                      "files opened MPI_MODE_SEQUENTIAL have only the shared file pointer");
}

int PMPI_File_seek(MPI_File fh, MPI_Offset offset, int whence)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    const char *function = "MPI_File_seek";
    struct io_file *file;
    MPI_Offset target = 0;
    int rc;
    if ((rc = begin_file(fh, &file, function)) || (rc = no_individual_pointer(file, function)) ||
        (rc = seek_target(file, file->position, offset, whence, &target, function)))
        return rc;
    file->position = target;
    return MPI_SUCCESS;
}
#pragma weak MPI_File_seek = PMPI_File_seek

int PMPI_File_get_position(MPI_File fh, MPI_Offset *offset)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    const char *function = "MPI_File_get_position";
    struct io_file *file;
    int rc;
    if ((rc = begin_file(fh, &file, function)) || (rc = no_individual_pointer(file, function)) ||
        (rc = check_out(file, offset, "offset", function)))
        return rc;
    *offset = file->position;
    return MPI_SUCCESS;
}
#pragma weak MPI_File_get_position = PMPI_File_get_position

int PMPI_File_get_byte_offset(MPI_File fh, MPI_Offset offset, MPI_Offset *disp)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    const char *function = "MPI_File_get_byte_offset";
    struct io_file *file;
    int rc;
    if ((rc = begin_file(fh, &file, function)) || (rc = no_individual_pointer(file, function)))
        return rc;
    if (offset < 0)
        return file_error(file, MPI_ERR_ARG, function, "invalid offset %lld", (long long)offset);
    if ((rc = check_out(file, disp, "disp", function)))
        return rc;
    *disp = io_view_file_byte(&file->view, offset * file->view.etype->size);
    return MPI_SUCCESS;
}
#pragma weak MPI_File_get_byte_offset = PMPI_File_get_byte_offset

int PMPI_File_seek_shared(MPI_File fh, MPI_Offset offset, int whence)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    const char *function = "MPI_File_seek_shared";
    struct io_file *file;
    MPI_Offset target = 0;
    int rc;
    if ((rc = begin_file(fh, &file, function)))
        return rc;
    if ((rc = io_check_same(file, offset)) != MPI_SUCCESS ||
        (rc = io_check_same(file, whence)) != MPI_SUCCESS)
        return file_error(file, rc, function,
                          "offset %lld and whence %d must be the same in every process",
                          (long long)offset, whence);
    if ((rc = seek_target(file, io_shared_get(&file->shared), offset, whence, &target,
                          function)))
        return rc;
    if ((rc = io_seek_shared(file, target)) != MPI_SUCCESS)
        return file_error(file, rc, function, "synchronizing failed: %s", class_text(rc));
    return MPI_SUCCESS;
}
#pragma weak MPI_File_seek_shared = PMPI_File_seek_shared

int PMPI_File_get_position_shared(MPI_File fh, MPI_Offset *offset)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    const char *function = "MPI_File_get_position_shared";
    struct io_file *file;
    int rc;
    if ((rc = begin_file(fh, &file, function)) ||
        (rc = check_out(file, offset, "offset", function)))
        return rc;
    *offset = io_shared_get(&file->shared);
    return MPI_SUCCESS;
}
#pragma weak MPI_File_get_position_shared = PMPI_File_get_position_shared

/* ---- error handlers ----------------------------------------------------------------------- */

int PMPI_File_create_errhandler(MPI_File_errhandler_function *file_errhandler_fn,
                                MPI_Errhandler *errhandler)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    const char *function = "MPI_File_create_errhandler";
    int rc = mpi_check_initialized(function);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!file_errhandler_fn || !errhandler)
        return file_error(NULL, MPI_ERR_ARG, function, "NULL function or handle pointer");
    struct core_errhandler *eh = calloc(1, sizeof(*eh));
    if (!eh)
        return file_error(NULL, MPI_ERR_NO_MEM, function, "out of memory");
    eh->kind = CORE_ERRHANDLER_USER_FILE;
    eh->refcount = 1;
    eh->file_fn = file_errhandler_fn;
    *errhandler = core_errhandler_to_handle(eh);
    return MPI_SUCCESS;
}
#pragma weak MPI_File_create_errhandler = PMPI_File_create_errhandler

/* MPI_FILE_NULL is a valid argument of the error handler calls: file is then NULL. */
static int begin_file_or_null(MPI_File handle, struct io_file **file, const char *function)
{
    int rc = mpi_check_initialized(function);
    if (rc != MPI_SUCCESS)
        return rc;
    *file = NULL;
    return handle == MPI_FILE_NULL ? MPI_SUCCESS : begin_file(handle, file, function);
}

int PMPI_File_set_errhandler(MPI_File fh, MPI_Errhandler errhandler)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    const char *function = "MPI_File_set_errhandler";
    struct io_file *file;
    int rc = begin_file_or_null(fh, &file, function);
    if (rc != MPI_SUCCESS)
        return rc;
    struct core_errhandler *eh = core_errhandler_from_handle(errhandler);
    if (!eh)
        return file_error(file, MPI_ERR_ARG, function, "invalid error handler");
    if (!eh->predefined && eh->kind != CORE_ERRHANDLER_USER_FILE)
        return file_error(file, MPI_ERR_ARG, function,
                          "the error handler was not made by MPI_File_create_errhandler");
    core_errhandler_retain(eh);
    if (file) {
        core_errhandler_release(file->errhandler);
        file->errhandler = eh;
        return MPI_SUCCESS;
    }
    if (file_null_errhandler)
        core_errhandler_release(file_null_errhandler);
    else
        core_at_finalize(release_file_null_errhandler);
    file_null_errhandler = eh;
    return MPI_SUCCESS;
}
#pragma weak MPI_File_set_errhandler = PMPI_File_set_errhandler

int PMPI_File_get_errhandler(MPI_File fh, MPI_Errhandler *errhandler)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    const char *function = "MPI_File_get_errhandler";
    struct io_file *file;
    int rc;
    if ((rc = begin_file_or_null(fh, &file, function)) ||
        (rc = check_out(file, errhandler, "errhandler", function)))
        return rc;
    struct core_errhandler *eh = file ? file->errhandler : null_errhandler();
    core_errhandler_retain(eh);   /* freed by the caller's MPI_Errhandler_free */
    *errhandler = core_errhandler_to_handle(eh);
    return MPI_SUCCESS;
}
#pragma weak MPI_File_get_errhandler = PMPI_File_get_errhandler

int PMPI_File_call_errhandler(MPI_File fh, int errorcode)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    const char *function = "MPI_File_call_errhandler";
    struct io_file *file;
    int rc = begin_file_or_null(fh, &file, function);
    if (rc != MPI_SUCCESS)
        return rc;
    const char *text = core_error_string(errorcode);
    file_error(file, errorcode, function, "%s", text ? text : "user error code");
    return MPI_SUCCESS;   /* the handler returned */
}
#pragma weak MPI_File_call_errhandler = PMPI_File_call_errhandler

/* ---- data access -------------------------------------------------------------------------- */

/* Which file pointer an access uses (MPI-4.1 table 14.1). */
enum access_pointer { ACCESS_EXPLICIT, ACCESS_INDIVIDUAL, ACCESS_SHARED, ACCESS_ORDERED };

/* What distinguishes the data access calls from each other. */
struct access_call {
    const char *function;
    enum access_pointer pointer;
    int write;
    int nonblocking;            /* hands back a completed request */
    enum io_split_kind split;   /* a split collective's begin: where the status goes */
    int blocking_collective;    /* MPI_File_write_all & co.: io_access_all (may sieve) */
};

static int check_access_mode(struct io_file *file, const struct access_call *call)
{
    const char *function = call->function;
    if (call->write && (file->amode & MPI_MODE_RDONLY))
        return file_error(file, MPI_ERR_READ_ONLY, function,
                          "the file was opened MPI_MODE_RDONLY");
    if (!call->write && (file->amode & MPI_MODE_WRONLY))
        return file_error(file, MPI_ERR_ACCESS, function,
                          "the file was opened MPI_MODE_WRONLY");
    if (call->pointer == ACCESS_EXPLICIT || call->pointer == ACCESS_INDIVIDUAL)
        return no_individual_pointer(file, function);
    return MPI_SUCCESS;
}

static int check_access_args(struct io_file *file, MPI_Offset offset, const void *buf,
                             MPI_Count count, MPI_Datatype datatype, struct dt_type **type,
                             const struct access_call *call)
{
    const char *function = call->function;
    int rc;
    if (call->pointer == ACCESS_EXPLICIT && offset < 0)
        return file_error(file, MPI_ERR_ARG, function, "invalid offset %lld",
                          (long long)offset);
    if (count < 0)
        return file_error(file, MPI_ERR_COUNT, function, "invalid count %lld",
                          (long long)count);
    if ((rc = get_file_type(file, datatype, type, "datatype", function)))
        return rc;
    if (!buf && count > 0 && (*type)->size > 0 && (*type)->predefined)
        return file_error(file, MPI_ERR_BUFFER, function, "NULL buffer with count %lld",
                          (long long)count);
    MPI_Count esize = file->view.etype->size;
    if (file->view.tile_size == 0 && (*type)->size * count > 0)
        return file_error(file, MPI_ERR_IO, function,
                          "the view's filetype holds no data (size 0): only accesses of 0 "
                          "bytes are possible, not %lld", (long long)((*type)->size * count));
    if (((*type)->size * count) % esize != 0)
        return file_error(file, MPI_ERR_IO, function,
                          "%lld bytes of data are not a whole number of etypes (%lld bytes)",
                          (long long)((*type)->size * count), (long long)esize);
    return check_access_mode(file, call);
}

/* The transfer itself, at the position its file pointer gives; moves that pointer. */
static int do_access(struct io_file *file, MPI_Offset offset, void *buf, MPI_Count count,
                     struct dt_type *type, const struct access_call *call, MPI_Count *bytes)
{
    MPI_Offset position;
    int rc;
    switch (call->pointer) {
    case ACCESS_EXPLICIT:
        return (call->blocking_collective ? io_access_all : io_access)(file, offset, buf, count,
                                                                       type, call->write, bytes);
    case ACCESS_INDIVIDUAL:
        /* MPI-4.1 14.4.3: once the call is initiated, the pointer points to the etype after the
         * last one it will access: what it asked for, also when a read meets the end of file
         * (the pointer does not depend on how much data was there; status counts that). */
        rc = (call->blocking_collective ? io_access_all : io_access)(
            file, file->position, buf, count, type, call->write, bytes);
        file->position += io_etypes_of(file, rc == MPI_SUCCESS ? (MPI_Count)dt_packed_size(type, count)
                                                               : *bytes);
        return rc;
    case ACCESS_SHARED:
        position = io_shared_fetch_add(&file->shared,
                                       io_etypes_of(file, dt_packed_size(type, count)));
        return io_access(file, position, buf, count, type, call->write, bytes);
    case ACCESS_ORDERED:
        return io_access_ordered(file, buf, count, type, call->write, bytes);
    }
    return MPI_ERR_INTERN;
}

static void fill_status(MPI_Status *status, MPI_Count bytes)
{
    int keep_error = status->MPI_ERROR;
    core_status_set_empty(status);
    status->MPI_ERROR = keep_error;
    core_status_set_count(status, bytes);
}

/* Checks, transfer, and the status (blocking calls) or a completed request (nonblocking) or
 * the stored status of a split collective. */
static int file_access(MPI_File fh, MPI_Offset offset, void *buf, MPI_Count count,
                       MPI_Datatype datatype, MPI_Status *status, MPI_Request *request,
                       const struct access_call *call)
{
    const char *function = call->function;
    struct io_file *file;
    struct dt_type *type = NULL;
    MPI_Count bytes = 0;
    int rc;
    if ((rc = begin_file(fh, &file, function)) ||
        (rc = check_access_args(file, offset, buf, count, datatype, &type, call)))
        return rc;
    if (call->nonblocking && (rc = check_out(file, request, "request", function)))
        return rc;
    if (call->split != IO_SPLIT_NONE && file->split.kind != IO_SPLIT_NONE)
        return file_error(file, MPI_ERR_OTHER, function,
                          "another split collective is active on this file");
    if ((rc = do_access(file, offset, buf, count, type, call, &bytes)) != MPI_SUCCESS)
        return file_error(file, rc, function, "%s failed after %lld bytes: %s",
                          call->write ? "writing" : "reading", (long long)bytes,
                          class_text(rc));
    if (call->split != IO_SPLIT_NONE) {
        file->split.kind = call->split;
        file->split.buf = buf;
        core_status_set_empty(&file->split.status);
        core_status_set_count(&file->split.status, bytes);
    } else if (call->nonblocking) {
        struct core_request *r = core_request_alloc(CORE_REQUEST_GENERIC);
        if (!r)
            return file_error(file, MPI_ERR_NO_MEM, function, "out of memory for the request");
        core_status_set_empty(&r->status);
        core_status_set_count(&r->status, bytes);
        r->complete = 1;
        *request = core_request_to_handle(r);
    } else if (status != MPI_STATUS_IGNORE) {
        fill_status(status, bytes);
    }
    return MPI_SUCCESS;
}

/* The _end of a split collective: the begin's status. */
static int split_end(MPI_File fh, const void *buf, MPI_Status *status, enum io_split_kind kind,
                     const char *function)
{
    struct io_file *file;
    int rc = begin_file(fh, &file, function);
    if (rc != MPI_SUCCESS)
        return rc;
    if (file->split.kind != kind)
        return file_error(file, MPI_ERR_OTHER, function,
                          "no matching split collective begin is active on this file");
    if (file->split.buf != buf)
        return file_error(file, MPI_ERR_BUFFER, function,
                          "buf differs from the buffer of the matching begin call");
    file->split.kind = IO_SPLIT_NONE;
    if (status != MPI_STATUS_IGNORE) {
        int keep_error = status->MPI_ERROR;
        *status = file->split.status;
        status->MPI_ERROR = keep_error;
    }
    return MPI_SUCCESS;
}

/* The data access functions: each names its record (function, file pointer, direction,
 * nonblocking, split collective) and passes its arguments on. */

int PMPI_File_read_at(MPI_File fh, MPI_Offset offset, void *buf, int count, MPI_Datatype datatype,
                      MPI_Status *status)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    static const struct access_call call = {"MPI_File_read_at", ACCESS_EXPLICIT, 0, 0,
                                             IO_SPLIT_NONE, 0};
    return file_access(fh, offset, buf, count, datatype, status, NULL, &call);
}
#pragma weak MPI_File_read_at = PMPI_File_read_at

int PMPI_File_read_at_c(MPI_File fh, MPI_Offset offset, void *buf, MPI_Count count,
                        MPI_Datatype datatype, MPI_Status *status)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    static const struct access_call call = {"MPI_File_read_at_c", ACCESS_EXPLICIT, 0, 0,
                                             IO_SPLIT_NONE, 0};
    return file_access(fh, offset, buf, count, datatype, status, NULL, &call);
}
#pragma weak MPI_File_read_at_c = PMPI_File_read_at_c

int PMPI_File_read_at_all(MPI_File fh, MPI_Offset offset, void *buf, int count,
                          MPI_Datatype datatype, MPI_Status *status)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    static const struct access_call call = {"MPI_File_read_at_all", ACCESS_EXPLICIT, 0, 0,
                                             IO_SPLIT_NONE, 1};
    return file_access(fh, offset, buf, count, datatype, status, NULL, &call);
}
#pragma weak MPI_File_read_at_all = PMPI_File_read_at_all

int PMPI_File_read_at_all_c(MPI_File fh, MPI_Offset offset, void *buf, MPI_Count count,
                            MPI_Datatype datatype, MPI_Status *status)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    static const struct access_call call = {"MPI_File_read_at_all_c", ACCESS_EXPLICIT, 0, 0,
                                             IO_SPLIT_NONE, 1};
    return file_access(fh, offset, buf, count, datatype, status, NULL, &call);
}
#pragma weak MPI_File_read_at_all_c = PMPI_File_read_at_all_c

int PMPI_File_iread_at(MPI_File fh, MPI_Offset offset, void *buf, int count, MPI_Datatype datatype,
                       MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    static const struct access_call call = {"MPI_File_iread_at", ACCESS_EXPLICIT, 0, 1,
                                             IO_SPLIT_NONE, 0};
    return file_access(fh, offset, buf, count, datatype, MPI_STATUS_IGNORE, request, &call);
}
#pragma weak MPI_File_iread_at = PMPI_File_iread_at

int PMPI_File_iread_at_c(MPI_File fh, MPI_Offset offset, void *buf, MPI_Count count,
                         MPI_Datatype datatype, MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    static const struct access_call call = {"MPI_File_iread_at_c", ACCESS_EXPLICIT, 0, 1,
                                             IO_SPLIT_NONE, 0};
    return file_access(fh, offset, buf, count, datatype, MPI_STATUS_IGNORE, request, &call);
}
#pragma weak MPI_File_iread_at_c = PMPI_File_iread_at_c

int PMPI_File_iread_at_all(MPI_File fh, MPI_Offset offset, void *buf, int count,
                           MPI_Datatype datatype, MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    static const struct access_call call = {"MPI_File_iread_at_all", ACCESS_EXPLICIT, 0, 1,
                                             IO_SPLIT_NONE, 0};
    return file_access(fh, offset, buf, count, datatype, MPI_STATUS_IGNORE, request, &call);
}
#pragma weak MPI_File_iread_at_all = PMPI_File_iread_at_all

int PMPI_File_iread_at_all_c(MPI_File fh, MPI_Offset offset, void *buf, MPI_Count count,
                             MPI_Datatype datatype, MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    static const struct access_call call = {"MPI_File_iread_at_all_c", ACCESS_EXPLICIT, 0, 1,
                                             IO_SPLIT_NONE, 0};
    return file_access(fh, offset, buf, count, datatype, MPI_STATUS_IGNORE, request, &call);
}
#pragma weak MPI_File_iread_at_all_c = PMPI_File_iread_at_all_c

int PMPI_File_read(MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Status *status)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    static const struct access_call call = {"MPI_File_read", ACCESS_INDIVIDUAL, 0, 0,
                                             IO_SPLIT_NONE, 0};
    return file_access(fh, 0, buf, count, datatype, status, NULL, &call);
}
#pragma weak MPI_File_read = PMPI_File_read

int PMPI_File_read_c(MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype,
                     MPI_Status *status)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    static const struct access_call call = {"MPI_File_read_c", ACCESS_INDIVIDUAL, 0, 0,
                                             IO_SPLIT_NONE, 0};
    return file_access(fh, 0, buf, count, datatype, status, NULL, &call);
}
#pragma weak MPI_File_read_c = PMPI_File_read_c

int PMPI_File_read_all(MPI_File fh, void *buf, int count, MPI_Datatype datatype,
                       MPI_Status *status)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    static const struct access_call call = {"MPI_File_read_all", ACCESS_INDIVIDUAL, 0, 0,
                                             IO_SPLIT_NONE, 1};
    return file_access(fh, 0, buf, count, datatype, status, NULL, &call);
}
#pragma weak MPI_File_read_all = PMPI_File_read_all

int PMPI_File_read_all_c(MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype,
                         MPI_Status *status)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    static const struct access_call call = {"MPI_File_read_all_c", ACCESS_INDIVIDUAL, 0, 0,
                                             IO_SPLIT_NONE, 1};
    return file_access(fh, 0, buf, count, datatype, status, NULL, &call);
}
#pragma weak MPI_File_read_all_c = PMPI_File_read_all_c

int PMPI_File_iread(MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    static const struct access_call call = {"MPI_File_iread", ACCESS_INDIVIDUAL, 0, 1,
                                             IO_SPLIT_NONE, 0};
    return file_access(fh, 0, buf, count, datatype, MPI_STATUS_IGNORE, request, &call);
}
#pragma weak MPI_File_iread = PMPI_File_iread

int PMPI_File_iread_c(MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype,
                      MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    static const struct access_call call = {"MPI_File_iread_c", ACCESS_INDIVIDUAL, 0, 1,
                                             IO_SPLIT_NONE, 0};
    return file_access(fh, 0, buf, count, datatype, MPI_STATUS_IGNORE, request, &call);
}
#pragma weak MPI_File_iread_c = PMPI_File_iread_c

int PMPI_File_iread_all(MPI_File fh, void *buf, int count, MPI_Datatype datatype,
                        MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    static const struct access_call call = {"MPI_File_iread_all", ACCESS_INDIVIDUAL, 0, 1,
                                             IO_SPLIT_NONE, 0};
    return file_access(fh, 0, buf, count, datatype, MPI_STATUS_IGNORE, request, &call);
}
#pragma weak MPI_File_iread_all = PMPI_File_iread_all

int PMPI_File_iread_all_c(MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype,
                          MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    static const struct access_call call = {"MPI_File_iread_all_c", ACCESS_INDIVIDUAL, 0, 1,
                                             IO_SPLIT_NONE, 0};
    return file_access(fh, 0, buf, count, datatype, MPI_STATUS_IGNORE, request, &call);
}
#pragma weak MPI_File_iread_all_c = PMPI_File_iread_all_c

int PMPI_File_read_shared(MPI_File fh, void *buf, int count, MPI_Datatype datatype,
                          MPI_Status *status)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    static const struct access_call call = {"MPI_File_read_shared", ACCESS_SHARED, 0, 0,
                                             IO_SPLIT_NONE, 0};
    return file_access(fh, 0, buf, count, datatype, status, NULL, &call);
}
#pragma weak MPI_File_read_shared = PMPI_File_read_shared

int PMPI_File_read_shared_c(MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype,
                            MPI_Status *status)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    static const struct access_call call = {"MPI_File_read_shared_c", ACCESS_SHARED, 0, 0,
                                             IO_SPLIT_NONE, 0};
    return file_access(fh, 0, buf, count, datatype, status, NULL, &call);
}
#pragma weak MPI_File_read_shared_c = PMPI_File_read_shared_c

int PMPI_File_iread_shared(MPI_File fh, void *buf, int count, MPI_Datatype datatype,
                           MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    static const struct access_call call = {"MPI_File_iread_shared", ACCESS_SHARED, 0, 1,
                                             IO_SPLIT_NONE, 0};
    return file_access(fh, 0, buf, count, datatype, MPI_STATUS_IGNORE, request, &call);
}
#pragma weak MPI_File_iread_shared = PMPI_File_iread_shared

int PMPI_File_iread_shared_c(MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype,
                             MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    static const struct access_call call = {"MPI_File_iread_shared_c", ACCESS_SHARED, 0, 1,
                                             IO_SPLIT_NONE, 0};
    return file_access(fh, 0, buf, count, datatype, MPI_STATUS_IGNORE, request, &call);
}
#pragma weak MPI_File_iread_shared_c = PMPI_File_iread_shared_c

int PMPI_File_read_ordered(MPI_File fh, void *buf, int count, MPI_Datatype datatype,
                           MPI_Status *status)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    static const struct access_call call = {"MPI_File_read_ordered", ACCESS_ORDERED, 0, 0,
                                             IO_SPLIT_NONE, 0};
    return file_access(fh, 0, buf, count, datatype, status, NULL, &call);
}
#pragma weak MPI_File_read_ordered = PMPI_File_read_ordered

int PMPI_File_read_ordered_c(MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype,
                             MPI_Status *status)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    static const struct access_call call = {"MPI_File_read_ordered_c", ACCESS_ORDERED, 0, 0,
                                             IO_SPLIT_NONE, 0};
    return file_access(fh, 0, buf, count, datatype, status, NULL, &call);
}
#pragma weak MPI_File_read_ordered_c = PMPI_File_read_ordered_c

int PMPI_File_read_at_all_begin(MPI_File fh, MPI_Offset offset, void *buf, int count,
                                MPI_Datatype datatype)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    static const struct access_call call = {"MPI_File_read_at_all_begin", ACCESS_EXPLICIT, 0, 0,
                                             IO_SPLIT_READ_AT_ALL, 0};
    return file_access(fh, offset, buf, count, datatype, MPI_STATUS_IGNORE, NULL, &call);
}
#pragma weak MPI_File_read_at_all_begin = PMPI_File_read_at_all_begin

int PMPI_File_read_at_all_begin_c(MPI_File fh, MPI_Offset offset, void *buf, MPI_Count count,
                                  MPI_Datatype datatype)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    static const struct access_call call = {"MPI_File_read_at_all_begin_c", ACCESS_EXPLICIT, 0, 0,
                                             IO_SPLIT_READ_AT_ALL, 0};
    return file_access(fh, offset, buf, count, datatype, MPI_STATUS_IGNORE, NULL, &call);
}
#pragma weak MPI_File_read_at_all_begin_c = PMPI_File_read_at_all_begin_c

int PMPI_File_read_all_begin(MPI_File fh, void *buf, int count, MPI_Datatype datatype)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    static const struct access_call call = {"MPI_File_read_all_begin", ACCESS_INDIVIDUAL, 0, 0,
                                             IO_SPLIT_READ_ALL, 0};
    return file_access(fh, 0, buf, count, datatype, MPI_STATUS_IGNORE, NULL, &call);
}
#pragma weak MPI_File_read_all_begin = PMPI_File_read_all_begin

int PMPI_File_read_all_begin_c(MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    static const struct access_call call = {"MPI_File_read_all_begin_c", ACCESS_INDIVIDUAL, 0, 0,
                                             IO_SPLIT_READ_ALL, 0};
    return file_access(fh, 0, buf, count, datatype, MPI_STATUS_IGNORE, NULL, &call);
}
#pragma weak MPI_File_read_all_begin_c = PMPI_File_read_all_begin_c

int PMPI_File_read_ordered_begin(MPI_File fh, void *buf, int count, MPI_Datatype datatype)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    static const struct access_call call = {"MPI_File_read_ordered_begin", ACCESS_ORDERED, 0, 0,
                                             IO_SPLIT_READ_ORDERED, 0};
    return file_access(fh, 0, buf, count, datatype, MPI_STATUS_IGNORE, NULL, &call);
}
#pragma weak MPI_File_read_ordered_begin = PMPI_File_read_ordered_begin

int PMPI_File_read_ordered_begin_c(MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    static const struct access_call call = {"MPI_File_read_ordered_begin_c", ACCESS_ORDERED, 0, 0,
                                             IO_SPLIT_READ_ORDERED, 0};
    return file_access(fh, 0, buf, count, datatype, MPI_STATUS_IGNORE, NULL, &call);
}
#pragma weak MPI_File_read_ordered_begin_c = PMPI_File_read_ordered_begin_c

int PMPI_File_write_at(MPI_File fh, MPI_Offset offset, const void *buf, int count,
                       MPI_Datatype datatype, MPI_Status *status)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    static const struct access_call call = {"MPI_File_write_at", ACCESS_EXPLICIT, 1, 0,
                                             IO_SPLIT_NONE, 0};
    return file_access(fh, offset, (void *)buf, count, datatype, status, NULL, &call);
}
#pragma weak MPI_File_write_at = PMPI_File_write_at

int PMPI_File_write_at_c(MPI_File fh, MPI_Offset offset, const void *buf, MPI_Count count,
                         MPI_Datatype datatype, MPI_Status *status)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    static const struct access_call call = {"MPI_File_write_at_c", ACCESS_EXPLICIT, 1, 0,
                                             IO_SPLIT_NONE, 0};
    return file_access(fh, offset, (void *)buf, count, datatype, status, NULL, &call);
}
#pragma weak MPI_File_write_at_c = PMPI_File_write_at_c

int PMPI_File_write_at_all(MPI_File fh, MPI_Offset offset, const void *buf, int count,
                           MPI_Datatype datatype, MPI_Status *status)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    static const struct access_call call = {"MPI_File_write_at_all", ACCESS_EXPLICIT, 1, 0,
                                             IO_SPLIT_NONE, 1};
    return file_access(fh, offset, (void *)buf, count, datatype, status, NULL, &call);
}
#pragma weak MPI_File_write_at_all = PMPI_File_write_at_all

int PMPI_File_write_at_all_c(MPI_File fh, MPI_Offset offset, const void *buf, MPI_Count count,
                             MPI_Datatype datatype, MPI_Status *status)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    static const struct access_call call = {"MPI_File_write_at_all_c", ACCESS_EXPLICIT, 1, 0,
                                             IO_SPLIT_NONE, 1};
    return file_access(fh, offset, (void *)buf, count, datatype, status, NULL, &call);
}
#pragma weak MPI_File_write_at_all_c = PMPI_File_write_at_all_c

int PMPI_File_iwrite_at(MPI_File fh, MPI_Offset offset, const void *buf, int count,
                        MPI_Datatype datatype, MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    static const struct access_call call = {"MPI_File_iwrite_at", ACCESS_EXPLICIT, 1, 1,
                                             IO_SPLIT_NONE, 0};
    return file_access(fh, offset, (void *)buf, count, datatype, MPI_STATUS_IGNORE, request, &call);
}
#pragma weak MPI_File_iwrite_at = PMPI_File_iwrite_at

int PMPI_File_iwrite_at_c(MPI_File fh, MPI_Offset offset, const void *buf, MPI_Count count,
                          MPI_Datatype datatype, MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    static const struct access_call call = {"MPI_File_iwrite_at_c", ACCESS_EXPLICIT, 1, 1,
                                             IO_SPLIT_NONE, 0};
    return file_access(fh, offset, (void *)buf, count, datatype, MPI_STATUS_IGNORE, request, &call);
}
#pragma weak MPI_File_iwrite_at_c = PMPI_File_iwrite_at_c

int PMPI_File_iwrite_at_all(MPI_File fh, MPI_Offset offset, const void *buf, int count,
                            MPI_Datatype datatype, MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    static const struct access_call call = {"MPI_File_iwrite_at_all", ACCESS_EXPLICIT, 1, 1,
                                             IO_SPLIT_NONE, 0};
    return file_access(fh, offset, (void *)buf, count, datatype, MPI_STATUS_IGNORE, request, &call);
}
#pragma weak MPI_File_iwrite_at_all = PMPI_File_iwrite_at_all

int PMPI_File_iwrite_at_all_c(MPI_File fh, MPI_Offset offset, const void *buf, MPI_Count count,
                              MPI_Datatype datatype, MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    static const struct access_call call = {"MPI_File_iwrite_at_all_c", ACCESS_EXPLICIT, 1, 1,
                                             IO_SPLIT_NONE, 0};
    return file_access(fh, offset, (void *)buf, count, datatype, MPI_STATUS_IGNORE, request, &call);
}
#pragma weak MPI_File_iwrite_at_all_c = PMPI_File_iwrite_at_all_c

int PMPI_File_write(MPI_File fh, const void *buf, int count, MPI_Datatype datatype,
                    MPI_Status *status)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    static const struct access_call call = {"MPI_File_write", ACCESS_INDIVIDUAL, 1, 0,
                                             IO_SPLIT_NONE, 0};
    return file_access(fh, 0, (void *)buf, count, datatype, status, NULL, &call);
}
#pragma weak MPI_File_write = PMPI_File_write

int PMPI_File_write_c(MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype,
                      MPI_Status *status)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    static const struct access_call call = {"MPI_File_write_c", ACCESS_INDIVIDUAL, 1, 0,
                                             IO_SPLIT_NONE, 0};
    return file_access(fh, 0, (void *)buf, count, datatype, status, NULL, &call);
}
#pragma weak MPI_File_write_c = PMPI_File_write_c

int PMPI_File_write_all(MPI_File fh, const void *buf, int count, MPI_Datatype datatype,
                        MPI_Status *status)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    static const struct access_call call = {"MPI_File_write_all", ACCESS_INDIVIDUAL, 1, 0,
                                             IO_SPLIT_NONE, 1};
    return file_access(fh, 0, (void *)buf, count, datatype, status, NULL, &call);
}
#pragma weak MPI_File_write_all = PMPI_File_write_all

int PMPI_File_write_all_c(MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype,
                          MPI_Status *status)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    static const struct access_call call = {"MPI_File_write_all_c", ACCESS_INDIVIDUAL, 1, 0,
                                             IO_SPLIT_NONE, 1};
    return file_access(fh, 0, (void *)buf, count, datatype, status, NULL, &call);
}
#pragma weak MPI_File_write_all_c = PMPI_File_write_all_c

int PMPI_File_iwrite(MPI_File fh, const void *buf, int count, MPI_Datatype datatype,
                     MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    static const struct access_call call = {"MPI_File_iwrite", ACCESS_INDIVIDUAL, 1, 1,
                                             IO_SPLIT_NONE, 0};
    return file_access(fh, 0, (void *)buf, count, datatype, MPI_STATUS_IGNORE, request, &call);
}
#pragma weak MPI_File_iwrite = PMPI_File_iwrite

int PMPI_File_iwrite_c(MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype,
                       MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    static const struct access_call call = {"MPI_File_iwrite_c", ACCESS_INDIVIDUAL, 1, 1,
                                             IO_SPLIT_NONE, 0};
    return file_access(fh, 0, (void *)buf, count, datatype, MPI_STATUS_IGNORE, request, &call);
}
#pragma weak MPI_File_iwrite_c = PMPI_File_iwrite_c

int PMPI_File_iwrite_all(MPI_File fh, const void *buf, int count, MPI_Datatype datatype,
                         MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    static const struct access_call call = {"MPI_File_iwrite_all", ACCESS_INDIVIDUAL, 1, 1,
                                             IO_SPLIT_NONE, 0};
    return file_access(fh, 0, (void *)buf, count, datatype, MPI_STATUS_IGNORE, request, &call);
}
#pragma weak MPI_File_iwrite_all = PMPI_File_iwrite_all

int PMPI_File_iwrite_all_c(MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype,
                           MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    static const struct access_call call = {"MPI_File_iwrite_all_c", ACCESS_INDIVIDUAL, 1, 1,
                                             IO_SPLIT_NONE, 0};
    return file_access(fh, 0, (void *)buf, count, datatype, MPI_STATUS_IGNORE, request, &call);
}
#pragma weak MPI_File_iwrite_all_c = PMPI_File_iwrite_all_c

int PMPI_File_write_shared(MPI_File fh, const void *buf, int count, MPI_Datatype datatype,
                           MPI_Status *status)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    static const struct access_call call = {"MPI_File_write_shared", ACCESS_SHARED, 1, 0,
                                             IO_SPLIT_NONE, 0};
    return file_access(fh, 0, (void *)buf, count, datatype, status, NULL, &call);
}
#pragma weak MPI_File_write_shared = PMPI_File_write_shared

int PMPI_File_write_shared_c(MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype,
                             MPI_Status *status)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    static const struct access_call call = {"MPI_File_write_shared_c", ACCESS_SHARED, 1, 0,
                                             IO_SPLIT_NONE, 0};
    return file_access(fh, 0, (void *)buf, count, datatype, status, NULL, &call);
}
#pragma weak MPI_File_write_shared_c = PMPI_File_write_shared_c

int PMPI_File_iwrite_shared(MPI_File fh, const void *buf, int count, MPI_Datatype datatype,
                            MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    static const struct access_call call = {"MPI_File_iwrite_shared", ACCESS_SHARED, 1, 1,
                                             IO_SPLIT_NONE, 0};
    return file_access(fh, 0, (void *)buf, count, datatype, MPI_STATUS_IGNORE, request, &call);
}
#pragma weak MPI_File_iwrite_shared = PMPI_File_iwrite_shared

int PMPI_File_iwrite_shared_c(MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype,
                              MPI_Request *request)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    static const struct access_call call = {"MPI_File_iwrite_shared_c", ACCESS_SHARED, 1, 1,
                                             IO_SPLIT_NONE, 0};
    return file_access(fh, 0, (void *)buf, count, datatype, MPI_STATUS_IGNORE, request, &call);
}
#pragma weak MPI_File_iwrite_shared_c = PMPI_File_iwrite_shared_c

int PMPI_File_write_ordered(MPI_File fh, const void *buf, int count, MPI_Datatype datatype,
                            MPI_Status *status)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    static const struct access_call call = {"MPI_File_write_ordered", ACCESS_ORDERED, 1, 0,
                                             IO_SPLIT_NONE, 0};
    return file_access(fh, 0, (void *)buf, count, datatype, status, NULL, &call);
}
#pragma weak MPI_File_write_ordered = PMPI_File_write_ordered

int PMPI_File_write_ordered_c(MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype,
                              MPI_Status *status)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    static const struct access_call call = {"MPI_File_write_ordered_c", ACCESS_ORDERED, 1, 0,
                                             IO_SPLIT_NONE, 0};
    return file_access(fh, 0, (void *)buf, count, datatype, status, NULL, &call);
}
#pragma weak MPI_File_write_ordered_c = PMPI_File_write_ordered_c

int PMPI_File_write_at_all_begin(MPI_File fh, MPI_Offset offset, const void *buf, int count,
                                 MPI_Datatype datatype)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    static const struct access_call call = {"MPI_File_write_at_all_begin", ACCESS_EXPLICIT, 1, 0,
                                             IO_SPLIT_WRITE_AT_ALL, 0};
    return file_access(fh, offset, (void *)buf, count, datatype, MPI_STATUS_IGNORE, NULL, &call);
}
#pragma weak MPI_File_write_at_all_begin = PMPI_File_write_at_all_begin

int PMPI_File_write_at_all_begin_c(MPI_File fh, MPI_Offset offset, const void *buf, MPI_Count count,
                                   MPI_Datatype datatype)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    static const struct access_call call = {"MPI_File_write_at_all_begin_c", ACCESS_EXPLICIT, 1, 0,
                                             IO_SPLIT_WRITE_AT_ALL, 0};
    return file_access(fh, offset, (void *)buf, count, datatype, MPI_STATUS_IGNORE, NULL, &call);
}
#pragma weak MPI_File_write_at_all_begin_c = PMPI_File_write_at_all_begin_c

int PMPI_File_write_all_begin(MPI_File fh, const void *buf, int count, MPI_Datatype datatype)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    static const struct access_call call = {"MPI_File_write_all_begin", ACCESS_INDIVIDUAL, 1, 0,
                                             IO_SPLIT_WRITE_ALL, 0};
    return file_access(fh, 0, (void *)buf, count, datatype, MPI_STATUS_IGNORE, NULL, &call);
}
#pragma weak MPI_File_write_all_begin = PMPI_File_write_all_begin

int PMPI_File_write_all_begin_c(MPI_File fh, const void *buf, MPI_Count count,
                                MPI_Datatype datatype)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    static const struct access_call call = {"MPI_File_write_all_begin_c", ACCESS_INDIVIDUAL, 1, 0,
                                             IO_SPLIT_WRITE_ALL, 0};
    return file_access(fh, 0, (void *)buf, count, datatype, MPI_STATUS_IGNORE, NULL, &call);
}
#pragma weak MPI_File_write_all_begin_c = PMPI_File_write_all_begin_c

int PMPI_File_write_ordered_begin(MPI_File fh, const void *buf, int count, MPI_Datatype datatype)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    static const struct access_call call = {"MPI_File_write_ordered_begin", ACCESS_ORDERED, 1, 0,
                                             IO_SPLIT_WRITE_ORDERED, 0};
    return file_access(fh, 0, (void *)buf, count, datatype, MPI_STATUS_IGNORE, NULL, &call);
}
#pragma weak MPI_File_write_ordered_begin = PMPI_File_write_ordered_begin

int PMPI_File_write_ordered_begin_c(MPI_File fh, const void *buf, MPI_Count count,
                                    MPI_Datatype datatype)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    static const struct access_call call = {"MPI_File_write_ordered_begin_c", ACCESS_ORDERED, 1, 0,
                                             IO_SPLIT_WRITE_ORDERED, 0};
    return file_access(fh, 0, (void *)buf, count, datatype, MPI_STATUS_IGNORE, NULL, &call);
}
#pragma weak MPI_File_write_ordered_begin_c = PMPI_File_write_ordered_begin_c

int PMPI_File_read_at_all_end(MPI_File fh, void *buf, MPI_Status *status)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return split_end(fh, buf, status, IO_SPLIT_READ_AT_ALL, "MPI_File_read_at_all_end");
}
#pragma weak MPI_File_read_at_all_end = PMPI_File_read_at_all_end

int PMPI_File_read_all_end(MPI_File fh, void *buf, MPI_Status *status)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return split_end(fh, buf, status, IO_SPLIT_READ_ALL, "MPI_File_read_all_end");
}
#pragma weak MPI_File_read_all_end = PMPI_File_read_all_end

int PMPI_File_read_ordered_end(MPI_File fh, void *buf, MPI_Status *status)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return split_end(fh, buf, status, IO_SPLIT_READ_ORDERED, "MPI_File_read_ordered_end");
}
#pragma weak MPI_File_read_ordered_end = PMPI_File_read_ordered_end

int PMPI_File_write_at_all_end(MPI_File fh, const void *buf, MPI_Status *status)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return split_end(fh, buf, status, IO_SPLIT_WRITE_AT_ALL, "MPI_File_write_at_all_end");
}
#pragma weak MPI_File_write_at_all_end = PMPI_File_write_at_all_end

int PMPI_File_write_all_end(MPI_File fh, const void *buf, MPI_Status *status)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return split_end(fh, buf, status, IO_SPLIT_WRITE_ALL, "MPI_File_write_all_end");
}
#pragma weak MPI_File_write_all_end = PMPI_File_write_all_end

int PMPI_File_write_ordered_end(MPI_File fh, const void *buf, MPI_Status *status)
{
    int entered __attribute__((cleanup(mpi_leave))) = mpi_enter();
    return split_end(fh, buf, status, IO_SPLIT_WRITE_ORDERED, "MPI_File_write_ordered_end");
}
#pragma weak MPI_File_write_ordered_end = PMPI_File_write_ordered_end
