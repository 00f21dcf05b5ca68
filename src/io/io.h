/* io.h - the I/O layer's contract (MPI-IO on the node's POSIX file system): the file object,
 * its view (how a position counted in etypes maps to file bytes), data transfer through the
 * view, and the shared file pointer. Collective operations here synchronize over the file's
 * private communicator; argument checks and error handlers are the API layer's (src/mpi/io.c).
 * Every function returns an MPI error class. */
#ifndef NODEMPI_IO_H
#define NODEMPI_IO_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <mpi.h>

#include "datatype/datatype.h"

struct core_comm;
struct core_errhandler;
struct core_info;

/* The view (MPI_File_set_view): data position d (bytes of etype data counted from the view's
 * start) lies in tile k = d / tile_size at byte disp + k * tile_extent + the offset of the block
 * that holds d % tile_size. blocks are one filetype element's type map in file order. */
struct io_view {
    MPI_Offset disp;
    struct dt_type *etype;       /* retained */
    struct dt_type *filetype;    /* retained */
    char datarep[MPI_MAX_DATAREP_STRING];
    const struct io_datarep *user_datarep; /* a registered one (datarep.c), else NULL */
    size_t nblocks;
    struct dt_block *blocks;
    MPI_Count *prefix;           /* data bytes of the tile before block i */
    MPI_Count tile_size;         /* filetype->size */
    MPI_Aint tile_extent;        /* filetype->extent */
};

/* The shared file pointer: one 64-bit word (in etypes) in memory every process of the file's
 * group maps (src/io/shared.c). */
struct io_shared {
    _Atomic int64_t *word;
    int mapped;                  /* 1: a shared mapping; 0: private memory (one process) */
};

/* Split collective in progress (MPI_File_*_begin until the matching _end). */
enum io_split_kind {
    IO_SPLIT_NONE,
    IO_SPLIT_READ_ALL, IO_SPLIT_WRITE_ALL,
    IO_SPLIT_READ_AT_ALL, IO_SPLIT_WRITE_AT_ALL,
    IO_SPLIT_READ_ORDERED, IO_SPLIT_WRITE_ORDERED,
};

struct io_file {
    uint32_t magic;              /* IO_FILE_MAGIC while open: tells handles from garbage */
    int fd;
    int amode;
    int atomic;                  /* MPI_File_set_atomicity */
    char *path;                  /* as opened (MPI_MODE_DELETE_ON_CLOSE unlinks it) */
    struct core_comm *comm;      /* a private duplicate of the opening communicator */
    struct core_errhandler *errhandler;
    struct core_info *info;      /* hints as set (owned) */
    struct io_view view;
    MPI_Offset position;         /* individual file pointer, etypes relative to the view */
    struct io_shared shared;
    struct {
        enum io_split_kind kind;
        void *buf;               /* the buffer of the begin call (end must name it) */
        MPI_Status status;
    } split;
};

#define IO_FILE_MAGIC 0x4d50494fu  /* "MPIO" */

/* ---- file.c: open, close and the file as a whole ---- */

/* amode as the standard requires it, or MPI_ERR_AMODE (local check). */
int io_check_amode(int amode);
/* MPI_File_open: collective over comm; rank 0 creates the file, then everyone opens it and all
 * agree on the outcome (every process returns the same class). */
int io_file_open(struct core_comm *comm, const char *filename, int amode,
                 struct core_info *info, struct io_file **out);
/* MPI_File_close: collective; frees the object (also when an error is returned). */
int io_file_close(struct io_file *file);
int io_file_delete(const char *filename);
int io_file_set_size(struct io_file *file, MPI_Offset size);      /* collective */
int io_file_preallocate(struct io_file *file, MPI_Offset size);   /* collective */
int io_file_get_size(struct io_file *file, MPI_Offset *size);
int io_file_sync(struct io_file *file);                           /* collective */
/* Collective: MPI_ERR_NOT_SAME in every process unless all passed the same value. */
int io_check_same(struct io_file *file, int64_t value);
/* errno -> MPI error class. */
int io_errno_class(int err);

/* ---- view.c: the view and position arithmetic ---- */

/* The view of a newly opened file: displacement 0, etype = filetype = MPI_BYTE, "native". */
int io_view_init_default(struct io_view *view);
/* Replace the view (types are retained; the old ones released). MPI_ERR_ARG for a filetype
 * that is not made of whole etypes or whose type map goes backwards, MPI_ERR_UNSUPPORTED_DATAREP
 * for representations other than native/internal/external32 (external32 only for types of the
 * same size in both). */
int io_view_set(struct io_view *view, MPI_Offset disp, struct dt_type *etype,
                struct dt_type *filetype, const char *datarep);
void io_view_free(struct io_view *view);
/* A type whose external32 size equals its native size (what the external32 views take). */
int io_external32_same_size(const struct dt_type *type);
static inline int io_view_is_external32(const struct io_view *view)
{
    return strcmp(view->datarep, "external32") == 0;
}

/* User data representations (MPI_Register_datarep, datarep.c). */
struct io_datarep;
struct io_datarep_functions {
    MPI_Datarep_conversion_function *read, *write;
    MPI_Datarep_conversion_function_c *read_c, *write_c;
    MPI_Datarep_extent_function *extent;
    void *extra_state;
};
/* MPI_ERR_DUP_DATAREP for a name taken (native, internal, external32 included). */
int io_datarep_register(const char *name, const struct io_datarep_functions *fns);
const struct io_datarep *io_datarep_find(const char *name);
/* Does the representation store every basic type of type in its native size? */
int io_datarep_same_size(const struct io_datarep *d, const struct dt_type *type);
/* count items of type between userbuf and filebuf (packed, file representation) with the
 * user's function (to_file: the write conversion); MPI_ERR_CONVERSION when it fails. */
int io_datarep_convert(const struct io_datarep *d, int to_file, void *userbuf,
                       struct dt_type *type, MPI_Count count, void *filebuf);
/* A basic type's file extent from the representation's extent function (*extent unchanged and
 * MPI_ERR_CONVERSION when it fails). */
int io_datarep_basic_extent(const struct io_datarep *d, const struct dt_type *basic,
                            MPI_Aint *extent);
void io_datarep_finalize(void);
/* Absolute file byte of data byte d of the view. */
MPI_Offset io_view_file_byte(const struct io_view *view, MPI_Offset d);
/* Etypes of view data that lie (wholly or partly) before byte file_size. */
MPI_Offset io_view_etypes_below(const struct io_view *view, MPI_Offset file_size);
/* The contiguous file pieces holding view data bytes [d, d + bytes), in order: fn gets the
 * file offset, the length and the data position of the piece relative to d. Stops when fn
 * returns nonzero (and returns that). */
typedef int io_segment_fn(void *ctx, MPI_Offset file_offset, size_t length, size_t data_pos);
int io_view_for_each_segment(const struct io_view *view, MPI_Offset d, size_t bytes,
                             io_segment_fn *fn, void *ctx);

/* ---- access.c: moving data between memory and the file through the view ---- */

/* Read or write count elements of type at buf from/to view position `position` (etypes);
 * *bytes is what moved (a read stops early at end of file). Atomic mode holds a byte-range
 * lock over the span. External32 views convert each element (MPI_ERR_UNSUPPORTED_DATAREP for a
 * memory type whose external32 size differs from its size). */
int io_access(struct io_file *file, MPI_Offset position, void *buf, MPI_Count count,
              struct dt_type *type, int write, MPI_Count *bytes);
/* io_access for the blocking collective calls (MPI_File_write_all, _write_at_all, ...):
 * collective over the file's communicator; a write of many small segments may be sieved. */
int io_access_all(struct io_file *file, MPI_Offset position, void *buf, MPI_Count count,
                  struct dt_type *type, int write, MPI_Count *bytes);
/* Etypes that `bytes` of data cover (the pointer advance). */
static inline MPI_Offset io_etypes_of(const struct io_file *file, MPI_Count bytes)
{
    return (MPI_Offset)(bytes / file->view.etype->size);
}

/* ---- lock.c: byte-range locks for atomic mode ---- */

/* Lock [start, start + length) for reading or writing (blocking), and unlock it. Open file
 * description locks, so two handles of one file in one process exclude each other too. */
int io_lock_range(int fd, int write, MPI_Offset start, MPI_Offset length);
void io_unlock_range(int fd, MPI_Offset start, MPI_Offset length);

/* ---- shared.c: the shared file pointer ---- */

/* Collective over comm: map one zeroed word every process of comm sees. */
int io_shared_create(struct io_shared *shared, struct core_comm *comm);
void io_shared_destroy(struct io_shared *shared);
/* Take `etypes` from the shared pointer: returns the old value. */
MPI_Offset io_shared_fetch_add(struct io_shared *shared, MPI_Offset etypes);
MPI_Offset io_shared_get(const struct io_shared *shared);
void io_shared_set(struct io_shared *shared, MPI_Offset value);

/* ---- ordered.c: collective ordered access and the collective pointer moves ---- */

/* MPI_File_read_ordered / write_ordered: rank order through the shared pointer. */
int io_access_ordered(struct io_file *file, void *buf, MPI_Count count, struct dt_type *type,
                      int write, MPI_Count *bytes);
/* MPI_File_seek_shared: collective; value is the new pointer (already validated). */
int io_seek_shared(struct io_file *file, MPI_Offset value);

#endif
