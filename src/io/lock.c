/* lock.c - byte-range locks that give atomic mode (MPI_File_set_atomicity) its guarantee:
 * an access holds a shared (read) or exclusive (write) lock over the bytes it spans, so
 * conflicting accesses of different processes are serialized. Open file description locks
 * (F_OFD_*), not classic POSIX locks: those belong to the process, so closing any other
 * descriptor of the file, or a second handle of the file in this process, would drop them. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>

#include "io/io.h"

static struct flock range(short type, MPI_Offset start, MPI_Offset length)
{
    struct flock lock;
    memset(&lock, 0, sizeof(lock));
    lock.l_type = type;
    lock.l_whence = SEEK_SET;
    lock.l_start = (off_t)start;
    lock.l_len = (off_t)length;
    return lock;
}

int io_lock_range(int fd, int write, MPI_Offset start, MPI_Offset length)
{
    struct flock lock = range(write ? F_WRLCK : F_RDLCK, start, length);
    while (fcntl(fd, F_OFD_SETLKW, &lock) != 0) {
        if (errno != EINTR)
            return io_errno_class(errno);
    }
    return MPI_SUCCESS;
}

void io_unlock_range(int fd, MPI_Offset start, MPI_Offset length)
{
    struct flock lock = range(F_UNLCK, start, length);
    (void)fcntl(fd, F_OFD_SETLK, &lock);
}
