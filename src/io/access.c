/* access.c - moving data between a typed memory buffer and the file through the view: the
 * memory side is one contiguous run (contiguous types) or a bounce buffer packed/unpacked with
 * the datatype engine (always, converting, for external32 views); the file side is the view's
 * segments, one pread/pwrite each. Atomic mode locks the whole span. Does not move file
 * pointers: callers decide the position. */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "datatype/construct.h"
#include "io/io.h"

struct transfer {
    int fd;
    int write;
    char *data;             /* the packed data of the whole access */
    size_t moved;           /* bytes moved so far (reads: up to the first short read) */
    int error;              /* MPI error class of a failed call */
};

/* One segment; returns 1 to stop (error or end of file). */
static int transfer_segment(void *ctx, MPI_Offset file_offset, size_t length, size_t data_pos)
{
    struct transfer *t = ctx;
    size_t done = 0;
    while (done < length) {
        char *p = t->data + data_pos + done;
        off_t at = (off_t)(file_offset + (MPI_Offset)done);
        ssize_t n = t->write ? pwrite(t->fd, p, length - done, at)
                             : pread(t->fd, p, length - done, at);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            t->error = io_errno_class(errno);
            return 1;
        }
        if (n == 0)
            break;   /* end of file (reads) */
        done += (size_t)n;
    }
    t->moved += done;
    return done < length;
}

/* The span [*start, *start + *length) that the access touches, for atomic mode's lock. */
static void access_span(const struct io_view *view, MPI_Offset d, size_t bytes,
                        MPI_Offset *start, MPI_Offset *length)
{
    *start = io_view_file_byte(view, d);
    *length = io_view_file_byte(view, d + (MPI_Offset)bytes - 1) + 1 - *start;
}

static int move_through_view(struct io_file *file, MPI_Offset d, struct transfer *t,
                             size_t bytes)
{
    MPI_Offset start = 0, length = 0;
    if (file->atomic) {
        access_span(&file->view, d, bytes, &start, &length);
        int rc = io_lock_range(file->fd, t->write, start, length);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    io_view_for_each_segment(&file->view, d, bytes, transfer_segment, t);
    if (file->atomic)
        io_unlock_range(file->fd, start, length);
    return t->error;
}

static int pack(const struct io_view *view, struct dt_type *type, const void *buf,
                MPI_Count count, void *data, size_t total)
{
    if (view->user_datarep)
        return io_datarep_convert(view->user_datarep, 1, (void *)buf, type, count, data);
    if (io_view_is_external32(view))
        dt_pack_external32(type, buf, count, data);
    else
        dt_pack_range(type, buf, count, 0, data, total);
    return MPI_SUCCESS;
}

/* A short read converts the whole elements it got (a representation converts elements, not
 * bytes). */
static int unpack(const struct io_view *view, struct dt_type *type, void *buf, MPI_Count count,
                  const void *data, size_t moved)
{
    if (moved == 0)
        return MPI_SUCCESS;
    if (!view->user_datarep && !io_view_is_external32(view)) {
        dt_unpack_range(type, buf, count, 0, data, moved);
        return MPI_SUCCESS;
    }
    MPI_Count whole = (MPI_Count)moved / type->size;
    if (whole > count)
        whole = count;
    if (view->user_datarep)
        return io_datarep_convert(view->user_datarep, 0, buf, type, whole, (void *)data);
    dt_unpack_external32(type, buf, whole, data);
    return MPI_SUCCESS;
}

int io_access(struct io_file *file, MPI_Offset position, void *buf, MPI_Count count,
              struct dt_type *type, int write, MPI_Count *bytes)
{
    size_t total = dt_packed_size(type, count);
    *bytes = 0;
    if (total == 0)
        return MPI_SUCCESS;
    struct transfer t = {.fd = file->fd, .write = write};
    const struct io_view *view = &file->view;
    int converting = io_view_is_external32(view) || view->user_datarep;
    if (io_view_is_external32(view) && !io_external32_same_size(type))
        return MPI_ERR_UNSUPPORTED_DATAREP;
    if (view->user_datarep && !io_datarep_same_size(view->user_datarep, type))
        return MPI_ERR_UNSUPPORTED_DATAREP;
    int bounce = converting || !dt_is_contiguous(type, count);
    int rc = MPI_SUCCESS;
    if (bounce) {
        if (!(t.data = malloc(total)))
            return MPI_ERR_NO_MEM;
        if (write && (rc = pack(view, type, buf, count, t.data, total)) != MPI_SUCCESS) {
            free(t.data);
            return rc;
        }
    } else {
        t.data = (char *)buf + type->true_lb;
    }
    MPI_Offset d = position * view->etype->size;
    rc = move_through_view(file, d, &t, total);
    if (bounce) {
        if (!write) {
            int converted = unpack(view, type, buf, count, t.data, t.moved);
            if (rc == MPI_SUCCESS)
                rc = converted;
        }
        free(t.data);
    }
    *bytes = (MPI_Count)t.moved;
    return rc;
}
