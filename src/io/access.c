/* access.c - moving data between a typed memory buffer and the file through the view: the
 * memory side is one contiguous run (contiguous types) or a bounce buffer packed/unpacked with
 * the datatype engine (always, converting, for external32 views); the file side is the view's
 * segments, one pread/pwrite each, except that a read of many small dense segments reads the
 * span they lie in by windows and copies them out (data sieving, as ROMIO's reads). Atomic mode
 * locks the whole span. Does not move file pointers: callers decide the position. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "coll/coll.h"
#include "coll/op.h"
#include "core/comm.h"
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
/* pread / pwrite `length` bytes at file offset `at`, again after EINTR and short transfers;
 * returns the bytes moved, fewer at the end of file (or a write that moved nothing), and on a
 * failure sets *error to the MPI error class. */
static size_t file_transfer(int fd, int write, char *buf, size_t length, MPI_Offset at,
                            int *error)
{
    size_t done = 0;
    while (done < length) {
        off_t pos = (off_t)(at + (MPI_Offset)done);
        ssize_t n = write ? pwrite(fd, buf + done, length - done, pos)
                          : pread(fd, buf + done, length - done, pos);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            *error = io_errno_class(errno);
            break;
        }
        if (n == 0)
            break;   /* end of file (reads) */
        done += (size_t)n;
    }
    return done;
}

static int transfer_segment(void *ctx, MPI_Offset file_offset, size_t length, size_t data_pos)
{
    struct transfer *t = ctx;
    size_t done = file_transfer(t->fd, t->write, t->data + data_pos, length, file_offset,
                                &t->error);
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

/* Data sieving. HDF5's point and hyperslab selections become filetypes of millions of 8-byte
 * blocks with a rank's neighbours' data between them (HDF5 1.10.8 testpar t_bigio: 2 Mi blocks
 * per rank and access, 2-3 million system calls per rank per run). An access whose segments
 * average under SIEVE_PIECE bytes and fill at least 1 / SIEVE_DENSITY of the span goes through
 * windows of SIEVE_WINDOW bytes: a read reads each window and copies the segments out (reading
 * the bytes between them is harmless); a write reads the window, copies the segments in and
 * writes it back, which rewrites the bytes between them, so it is only done in a blocking
 * collective write where every writer of the file is excluded (io_access_all). Segments of half
 * a window or more go directly. */
enum { SIEVE_PIECE = 4096, SIEVE_DENSITY = 16, SIEVE_WINDOW = 4 << 20 };

struct sieve {
    struct transfer *t;
    char *window;
    MPI_Offset start;       /* file offset of window[0] */
    size_t valid;           /* bytes of the window read (fewer than asked: end of file) */
    size_t asked;
    size_t size;            /* of the window buffer */
    MPI_Offset span_end;    /* end of the access's span: windows stop there */
    size_t dirty_lo, dirty_hi;  /* writes: the window bytes [lo, hi) to write back */
};

/* Read the window that starts at file offset `at` and holds at least `need` bytes. */
static int sieve_load(struct sieve *s, MPI_Offset at, size_t need)
{
    MPI_Offset left = s->span_end - at;
    if (left < (MPI_Offset)need)
        left = (MPI_Offset)need;   /* a filetype whose tiles overlap goes back and forth */
    s->start = at;
    s->asked = left < (MPI_Offset)s->size ? (size_t)left : s->size;
    int error = MPI_SUCCESS;
    s->valid = file_transfer(s->t->fd, 0, s->window, s->asked, at, &error);
    if (error != MPI_SUCCESS) {
        s->t->error = error;
        return 1;
    }
    if (s->t->write)   /* beyond the end of file: what a hole reads as */
        memset(s->window + s->valid, 0, s->asked - s->valid);
    s->dirty_lo = s->asked;
    s->dirty_hi = 0;
    return 0;
}

/* Writes: write the window's changed bytes back. */
static int sieve_flush(struct sieve *s)
{
    if (!s->t->write || s->dirty_hi <= s->dirty_lo)
        return 0;
    size_t length = s->dirty_hi - s->dirty_lo;
    int error = MPI_SUCCESS;
    if (file_transfer(s->t->fd, 1, s->window + s->dirty_lo, length,
                      s->start + (MPI_Offset)s->dirty_lo, &error) < length) {
        s->t->error = error != MPI_SUCCESS ? error : MPI_ERR_IO;
        return 1;
    }
    s->dirty_hi = 0;
    return 0;
}

/* io_segment_fn: one segment out of the windows; returns 1 at the end of file or an error. */
static int sieve_segment(void *ctx, MPI_Offset file_offset, size_t length, size_t data_pos)
{
    struct sieve *s = ctx;
    if (length >= s->size / 2) {
        if (sieve_flush(s))
            return 1;
        s->asked = 0;   /* the window is forgotten: the direct write may overlap it */
        return transfer_segment(s->t, file_offset, length, data_pos);
    }
    while (length > 0) {
        if (file_offset < s->start || file_offset >= s->start + (MPI_Offset)s->asked) {
            if (sieve_flush(s) || sieve_load(s, file_offset, length))
                return 1;
        }
        size_t in = (size_t)(file_offset - s->start);
        size_t room = s->asked - in;               /* bytes of this window from file_offset */
        size_t want = length < room ? length : room;
        size_t got = want;
        if (s->t->write) {
            memcpy(s->window + in, s->t->data + data_pos, got);
            s->dirty_lo = in < s->dirty_lo ? in : s->dirty_lo;
            s->dirty_hi = in + got > s->dirty_hi ? in + got : s->dirty_hi;
        } else {
            got = in < s->valid ? s->valid - in : 0;
            if (got > want)
                got = want;
            memcpy(s->t->data + data_pos, s->window + in, got);
        }
        s->t->moved += got;
        if (got < want)
            return 1;   /* end of file */
        file_offset += (MPI_Offset)got;
        data_pos += got;
        length -= got;
    }
    return 0;
}

/* Is the access [start, start + length) holding `bytes` of data worth sieving? */
static int sieve_worth(const struct io_view *view, size_t bytes, MPI_Offset length)
{
    return view->nblocks > 0 && view->tile_size / (MPI_Count)view->nblocks < SIEVE_PIECE &&
           bytes >= 2 * SIEVE_PIECE && length > (MPI_Offset)bytes &&
           length / SIEVE_DENSITY <= (MPI_Offset)bytes;
}

static void transfer_sieved(const struct io_view *view, MPI_Offset d, struct transfer *t,
                            size_t bytes, MPI_Offset start, MPI_Offset length)
{
    struct sieve s = {.t = t, .start = -1, .span_end = start + length};
    s.size = length < SIEVE_WINDOW ? (size_t)length : SIEVE_WINDOW;
    if (!(s.window = malloc(s.size))) {
        io_view_for_each_segment(view, d, bytes, transfer_segment, t);   /* unsieved */
        return;
    }
    if (io_view_for_each_segment(view, d, bytes, sieve_segment, &s) == 0)
        sieve_flush(&s);
    free(s.window);
}

/* How a write goes: directly (independent writes, and collective ones where nobody sieves),
 * under an exclusive lock of its span (a collective write in which some process sieves), or
 * sieved under that lock. */
enum write_plan { WRITE_DIRECT, WRITE_LOCKED, WRITE_SIEVED };

static int move_through_view(struct io_file *file, MPI_Offset d, struct transfer *t,
                             size_t bytes, enum write_plan plan)
{
    MPI_Offset start = 0, length = 0;
    access_span(&file->view, d, bytes, &start, &length);
    int lock = file->atomic || (t->write && plan != WRITE_DIRECT);
    if (lock) {
        int rc = io_lock_range(file->fd, t->write, start, length);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    if (t->write ? plan == WRITE_SIEVED : sieve_worth(&file->view, bytes, length))
        transfer_sieved(&file->view, d, t, bytes, start, length);
    else
        io_view_for_each_segment(&file->view, d, bytes, transfer_segment, t);
    if (lock)
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

static int access_with(struct io_file *file, MPI_Offset position, void *buf, MPI_Count count,
                       struct dt_type *type, int write, enum write_plan plan, MPI_Count *bytes)
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
    rc = move_through_view(file, d, &t, total, plan);
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

int io_access(struct io_file *file, MPI_Offset position, void *buf, MPI_Count count,
              struct dt_type *type, int write, MPI_Count *bytes)
{
    return access_with(file, position, buf, count, type, write, WRITE_DIRECT, bytes);
}

/* Would this process sieve the write? Not in a file opened MPI_MODE_WRONLY (no reading). */
static int write_worth_sieving(const struct io_file *file, MPI_Offset position, MPI_Count count,
                               struct dt_type *type)
{
    size_t total = dt_packed_size(type, count);
    if (total == 0 || (file->amode & MPI_MODE_WRONLY) || file->view.tile_size == 0)
        return 0;
    MPI_Offset start, length;
    access_span(&file->view, position * file->view.etype->size, total, &start, &length);
    return sieve_worth(&file->view, total, length);
}

/* A blocking collective access. Reads are io_access's. A write agrees with the others whether
 * anyone sieves; if so, every writer locks its span (so a read-modify-write excludes the
 * writes of the bytes it rewrites) and a barrier at the end keeps everyone's next accesses
 * after the rewrites. Every process is inside the call from the agreement to the barrier, so
 * no independent access of this handle can fall between a window's read and its write back;
 * other handles of the file are not excluded (as ROMIO's collective writes do not). */
int io_access_all(struct io_file *file, MPI_Offset position, void *buf, MPI_Count count,
                  struct dt_type *type, int write, MPI_Count *bytes)
{
    if (!write)
        return io_access(file, position, buf, count, type, write, bytes);
    int mine = write_worth_sieving(file, position, count, type), anyone = 0;
    struct dt_type *int_type = dt_from_handle(MPI_INT);
    int rc = coll_allreduce(&mine, &anyone, 1, int_type, coll_op_from_handle(MPI_MAX),
                            file->comm);
    if (rc != MPI_SUCCESS) {
        *bytes = 0;
        return rc;
    }
    if (!anyone)
        return io_access(file, position, buf, count, type, write, bytes);
    rc = access_with(file, position, buf, count, type, write,
                     mine ? WRITE_SIEVED : WRITE_LOCKED, bytes);
    int synced = coll_barrier(file->comm);
    return rc != MPI_SUCCESS ? rc : synced;
}
