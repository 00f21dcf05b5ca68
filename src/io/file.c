/* file.c - the file as a whole: open (collective, with every process agreeing on the outcome),
 * close, delete, size, preallocation and sync, and errno -> MPI error class. Owns the file
 * object's lifetime; data transfer is access.c's, the view view.c's. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "coll/coll.h"
#include "core/comm.h"
#include "core/comm_create.h"
#include "core/error.h"
#include "core/info.h"
#include "io/io.h"

int io_errno_class(int err)
{
    switch (err) {
    case ENOENT:
        return MPI_ERR_NO_SUCH_FILE;
    case EEXIST:
        return MPI_ERR_FILE_EXISTS;
    case EACCES:
    case EPERM:
        return MPI_ERR_ACCESS;
    case EROFS:
        return MPI_ERR_READ_ONLY;
    case ENOSPC:
        return MPI_ERR_NO_SPACE;
    case EDQUOT:
        return MPI_ERR_QUOTA;
    case ENAMETOOLONG:
    case ENOTDIR:
    case EISDIR:
    case ELOOP:
        return MPI_ERR_BAD_FILE;
    case ENOMEM:
        return MPI_ERR_NO_MEM;
    case EFBIG:
    case EINVAL:
        return MPI_ERR_ARG;
    default:
        return MPI_ERR_IO;
    }
}

int io_check_amode(int amode)
{
    const int known = MPI_MODE_APPEND | MPI_MODE_CREATE | MPI_MODE_DELETE_ON_CLOSE |
                      MPI_MODE_EXCL | MPI_MODE_RDONLY | MPI_MODE_RDWR | MPI_MODE_SEQUENTIAL |
                      MPI_MODE_UNIQUE_OPEN | MPI_MODE_WRONLY;
    int access = amode & (MPI_MODE_RDONLY | MPI_MODE_RDWR | MPI_MODE_WRONLY);
    if ((amode & ~known) != 0)
        return MPI_ERR_AMODE;
    if (access != MPI_MODE_RDONLY && access != MPI_MODE_RDWR && access != MPI_MODE_WRONLY)
        return MPI_ERR_AMODE;
    if (access == MPI_MODE_RDONLY && (amode & (MPI_MODE_CREATE | MPI_MODE_EXCL)))
        return MPI_ERR_AMODE;
    if (access == MPI_MODE_RDWR && (amode & MPI_MODE_SEQUENTIAL))
        return MPI_ERR_AMODE;   /* as ROMIO: a sequential file is read or written, not both */
    return MPI_SUCCESS;
}

/* The first class that is not MPI_SUCCESS among everyone's (an allgather), so all processes
 * return the same result from a collective operation that can fail in some of them. */
static int agree(struct core_comm *comm, int mine)
{
    int *all = malloc((size_t)comm->size * sizeof(int));
    if (!all)
        return MPI_ERR_NO_MEM;
    struct dt_type *int_type = dt_from_handle(MPI_INT);
    int rc = coll_allgather(&mine, 1, int_type, all, 1, int_type, comm);
    for (int i = 0; rc == MPI_SUCCESS && i < comm->size; i++)
        if (all[i] != MPI_SUCCESS)
            rc = all[i];
    free(all);
    return rc;
}

/* Every process passed the same value (MPI_ERR_NOT_SAME otherwise, everywhere). */
static int agree_same(struct core_comm *comm, int64_t value)
{
    int64_t first = value;
    int rc = coll_bcast(&first, 1, dt_from_handle(MPI_INT64_T), 0, comm);
    if (rc != MPI_SUCCESS)
        return rc;
    return agree(comm, first == value ? MPI_SUCCESS : MPI_ERR_NOT_SAME);
}

int io_check_same(struct io_file *file, int64_t value)
{
    return agree_same(file->comm, value);
}

static int open_flags(int amode, int creator)
{
    int flags = O_CLOEXEC;
    if (amode & MPI_MODE_RDONLY)
        flags |= O_RDONLY;
    else if (amode & MPI_MODE_WRONLY)
        flags |= O_WRONLY;
    else
        flags |= O_RDWR;
    if (creator && (amode & MPI_MODE_CREATE))
        flags |= O_CREAT;
    if (creator && (amode & MPI_MODE_EXCL))
        flags |= O_EXCL;
    return flags;   /* never O_APPEND: it would make pwrite ignore the offset */
}

/* open(2) of one process; a directory is not a file MPI can access. */
static int open_one(const char *path, int flags, int *fd)
{
    *fd = open(path, flags, 0666);
    if (*fd < 0)
        return io_errno_class(errno);
    struct stat st;
    if (fstat(*fd, &st) == 0 && S_ISDIR(st.st_mode)) {
        close(*fd);
        *fd = -1;
        return MPI_ERR_BAD_FILE;
    }
    return MPI_SUCCESS;
}

/* Rank 0 creates (honouring EXCL) before the others open, so exactly one process creates. */
static int open_all(struct core_comm *comm, const char *path, int amode, int *fd)
{
    int rc0 = MPI_SUCCESS;
    *fd = -1;
    if (comm->rank == 0)
        rc0 = open_one(path, open_flags(amode, 1), fd);
    int rc = coll_bcast(&rc0, 1, dt_from_handle(MPI_INT), 0, comm);
    if (rc == MPI_SUCCESS)
        rc = rc0;
    int mine = MPI_SUCCESS;
    if (rc == MPI_SUCCESS && comm->rank != 0)
        mine = open_one(path, open_flags(amode, 0), fd);
    if (rc == MPI_SUCCESS)
        rc = agree(comm, mine);
    if (rc != MPI_SUCCESS && *fd >= 0) {
        close(*fd);
        *fd = -1;
    }
    return rc;
}

/* The parts of the object that need no communication. */
static int file_new(const char *path, int amode, struct core_info *info, struct io_file **out)
{
    struct io_file *file = calloc(1, sizeof(*file));
    if (!file)
        return MPI_ERR_NO_MEM;
    file->fd = -1;
    file->amode = amode;
    file->path = strdup(path);
    int rc = file->path ? io_view_init_default(&file->view) : MPI_ERR_NO_MEM;
    if (rc == MPI_SUCCESS)
        rc = info ? core_info_dup(info, &file->info)
                  : ((file->info = core_info_new()) ? MPI_SUCCESS : MPI_ERR_NO_MEM);
    if (rc != MPI_SUCCESS) {
        io_view_free(&file->view);
        free(file->path);
        free(file);
        return rc;
    }
    *out = file;
    return MPI_SUCCESS;
}

static void file_destroy(struct io_file *file)
{
    if (file->fd >= 0)
        close(file->fd);
    io_shared_destroy(&file->shared);
    io_view_free(&file->view);
    if (file->info)
        core_info_free(file->info);
    if (file->comm)
        core_comm_release(file->comm);
    if (file->errhandler)
        core_errhandler_release(file->errhandler);
    free(file->path);
    file->magic = 0;
    free(file);
}

/* "ufs:" names the only file system there is (ROMIO's prefix convention). */
static const char *strip_prefix(const char *filename)
{
    return strncmp(filename, "ufs:", 4) == 0 ? filename + 4 : filename;
}

int io_file_open(struct core_comm *comm, const char *filename, int amode,
                 struct core_info *info, struct io_file **out)
{
    const char *path = strip_prefix(filename);
    struct io_file *file;
    int rc = file_new(path, amode, info, &file);
    if (rc != MPI_SUCCESS)
        return rc;
    if ((rc = core_comm_dup_bare(comm, &file->comm)) == MPI_SUCCESS &&
        (rc = agree_same(file->comm, amode)) == MPI_SUCCESS &&
        (rc = open_all(file->comm, path, amode, &file->fd)) == MPI_SUCCESS)
        rc = io_shared_create(&file->shared, file->comm);
    if (rc == MPI_SUCCESS && (amode & MPI_MODE_APPEND)) {
        /* Rank 0 moves the shared pointer before the agreement, so no process can use it
         * (after returning) before it is at the end. */
        MPI_Offset size = 0;
        int mine = io_file_get_size(file, &size);
        file->position = size;
        if (file->comm->rank == 0)
            io_shared_set(&file->shared, size);
        rc = agree(file->comm, mine);
    }
    if (rc != MPI_SUCCESS) {
        file_destroy(file);
        return rc;
    }
    file->magic = IO_FILE_MAGIC;
    *out = file;
    return MPI_SUCCESS;
}

int io_file_close(struct io_file *file)
{
    /* Everyone is done with the file before it may disappear. */
    int rc = coll_barrier(file->comm);
    int mine = MPI_SUCCESS;
    if (close(file->fd) != 0)
        mine = io_errno_class(errno);
    file->fd = -1;
    if ((file->amode & MPI_MODE_DELETE_ON_CLOSE) && file->comm->rank == 0 &&
        unlink(file->path) != 0 && mine == MPI_SUCCESS)
        mine = io_errno_class(errno);
    /* After the agreement the file is gone for everyone. */
    if (rc == MPI_SUCCESS)
        rc = agree(file->comm, mine);
    file_destroy(file);
    return rc;
}

int io_file_delete(const char *filename)
{
    const char *path = strip_prefix(filename);
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
        return MPI_ERR_BAD_FILE;
    return unlink(path) == 0 ? MPI_SUCCESS : io_errno_class(errno);
}

int io_file_get_size(struct io_file *file, MPI_Offset *size)
{
    struct stat st;
    if (fstat(file->fd, &st) != 0)
        return io_errno_class(errno);
    *size = (MPI_Offset)st.st_size;
    return MPI_SUCCESS;
}

/* Rank 0 changes the file; the barrier-like agreement publishes the result to everyone. */
int io_file_set_size(struct io_file *file, MPI_Offset size)
{
    int mine = MPI_SUCCESS;
    int rc = coll_barrier(file->comm);   /* earlier accesses of all processes are done */
    if (rc == MPI_SUCCESS && file->comm->rank == 0 && ftruncate(file->fd, (off_t)size) != 0)
        mine = io_errno_class(errno);
    return rc == MPI_SUCCESS ? agree(file->comm, mine) : rc;
}

int io_file_preallocate(struct io_file *file, MPI_Offset size)
{
    int mine = MPI_SUCCESS;
    int rc = coll_barrier(file->comm);   /* nobody still looks at the old size */
    if (rc != MPI_SUCCESS)
        return rc;
    if (file->comm->rank == 0 && size > 0) {
        int err = posix_fallocate(file->fd, 0, (off_t)size);
        if (err == EOPNOTSUPP || err == ENOSYS)
            err = 0;   /* no preallocation on this file system: allowed (a hint) */
        if (err != 0)
            mine = io_errno_class(err);
    }
    return agree(file->comm, mine);
}

int io_file_sync(struct io_file *file)
{
    int mine = MPI_SUCCESS;
    if ((file->amode & MPI_MODE_RDONLY) == 0 && fsync(file->fd) != 0)
        mine = io_errno_class(errno);
    return agree(file->comm, mine);
}
