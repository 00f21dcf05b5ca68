/* file_basic.c - MPI-IO file manipulation (MPI-4.1 14.2): open with every amode check and the
 * file-system errors (missing file, existing file with EXCL, no permission, directories),
 * MPI_ERR_NOT_SAME amodes, DELETE_ON_CLOSE, APPEND, size, preallocation, group, amode, info,
 * atomicity, type extent, sync, delete, MPI_COMM_SELF files, and the default
 * MPI_ERRORS_RETURN handler of files. */
#include "mpitest.h"

#include <sys/stat.h>

#include "iotest.h"

static int exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

static void check_amode_errors(const char *path)
{
    const int bad[] = {0, MPI_MODE_RDONLY | MPI_MODE_RDWR, MPI_MODE_RDWR | MPI_MODE_WRONLY,
                       MPI_MODE_RDONLY | MPI_MODE_CREATE, MPI_MODE_RDONLY | MPI_MODE_EXCL,
                       MPI_MODE_CREATE};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        MPI_File fh = MPI_FILE_NULL;
        int rc = MPI_File_open(MPI_COMM_WORLD, path, bad[i], MPI_INFO_NULL, &fh);
        MT_CHECK_ERRCLASS(rc, MPI_ERR_AMODE, "open with a bad amode");
        MT_CHECK(fh == MPI_FILE_NULL, "failed open left a handle (amode %d)", bad[i]);
    }
}

/* Processes that disagree on amode: MPI_ERR_NOT_SAME everywhere, and no file. */
static void check_amode_not_same(const char *path)
{
    if (mt_size < 2)
        return;
    MPI_File fh = MPI_FILE_NULL;
    int amode = MPI_MODE_CREATE | (mt_rank == 1 ? MPI_MODE_WRONLY : MPI_MODE_RDWR);
    int rc = MPI_File_open(MPI_COMM_WORLD, path, amode, MPI_INFO_NULL, &fh);
    MT_CHECK_ERRCLASS(rc, MPI_ERR_NOT_SAME, "open with amodes that differ between ranks");
    MT_CHECK(fh == MPI_FILE_NULL, "failed open left a handle");
    MPI_Barrier(MPI_COMM_WORLD);
    MT_CHECK(!exists(path), "a failed open created %s", path);
}

static void check_open_errors(const char *path)
{
    MPI_File fh;
    int rc = MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
    MT_CHECK_ERRCLASS(rc, MPI_ERR_NO_SUCH_FILE, "open of a missing file");
    MT_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_EXCL | MPI_MODE_RDWR,
                         MPI_INFO_NULL, &fh));
    MT_MPI(MPI_File_close(&fh));
    MT_CHECK(fh == MPI_FILE_NULL, "close did not set MPI_FILE_NULL");
    rc = MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_EXCL | MPI_MODE_WRONLY,
                       MPI_INFO_NULL, &fh);
    MT_CHECK_ERRCLASS(rc, MPI_ERR_FILE_EXISTS, "EXCL open of an existing file");
    /* A file nobody may write, even root: sysfs refuses writers of read-only attributes. */
    const char *readonly = "/sys/devices/system/cpu/online";
    if (exists(readonly)) {
        rc = MPI_File_open(MPI_COMM_WORLD, readonly, MPI_MODE_WRONLY, MPI_INFO_NULL, &fh);
        MT_CHECK_ERRCLASS(rc, MPI_ERR_ACCESS, "open of a read-only sysfs file for writing");
    }
    /* A directory, and a path through a regular file, are no files to open. */
    rc = MPI_File_open(MPI_COMM_WORLD, io_dir, MPI_MODE_RDWR, MPI_INFO_NULL, &fh);
    MT_CHECK_ERRCLASS(rc, MPI_ERR_BAD_FILE, "open of a directory for reading and writing");
    char through[600];
    snprintf(through, sizeof through, "%s/below", path);
    rc = MPI_File_open(MPI_COMM_WORLD, through, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
    MT_CHECK_ERRCLASS(rc, MPI_ERR_BAD_FILE, "open of a path whose parent is a file");
    /* Writing through a read-only handle. */
    MT_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh));
    char c = 'x';
    rc = MPI_File_write_at(fh, 0, &c, 1, MPI_CHAR, MPI_STATUS_IGNORE);
    MT_CHECK_ERRCLASS(rc, MPI_ERR_READ_ONLY, "write to a file opened MPI_MODE_RDONLY");
    MT_MPI(MPI_File_close(&fh));
}

static void check_size_calls(const char *path)
{
    MPI_File fh;
    MPI_Offset size = -1;
    MT_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDWR, MPI_INFO_NULL, &fh));
    MT_MPI(MPI_File_set_size(fh, 1000));
    MT_MPI(MPI_File_get_size(fh, &size));
    MT_CHECK_INT(1000, size, "size after set_size(1000)");
    MT_MPI(MPI_File_set_size(fh, 10));
    MT_MPI(MPI_File_get_size(fh, &size));
    MT_CHECK_INT(10, size, "size after set_size(10)");
    MT_MPI(MPI_File_preallocate(fh, 5000));
    MT_MPI(MPI_File_get_size(fh, &size));
    MT_CHECK_INT(5000, size, "size after preallocate(5000)");
    MT_MPI(MPI_File_preallocate(fh, 100));
    MT_MPI(MPI_File_get_size(fh, &size));
    MT_CHECK_INT(5000, size, "preallocate never shrinks");
    MT_MPI(MPI_File_sync(fh));
    MT_MPI(MPI_File_close(&fh));
}

static void check_queries(const char *path)
{
    MPI_File fh;
    MT_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDWR | MPI_MODE_UNIQUE_OPEN,
                         MPI_INFO_NULL, &fh));
    int amode = 0, flag = -1, result = -1;
    MT_MPI(MPI_File_get_amode(fh, &amode));
    MT_CHECK_INT(MPI_MODE_RDWR | MPI_MODE_UNIQUE_OPEN, amode, "get_amode");
    MPI_Group group, world_group;
    MT_MPI(MPI_File_get_group(fh, &group));
    MPI_Comm_group(MPI_COMM_WORLD, &world_group);
    MPI_Group_compare(group, world_group, &result);
    MT_CHECK_INT(MPI_IDENT, result, "file group vs world group");
    MPI_Group_free(&group);
    MPI_Group_free(&world_group);
    MT_MPI(MPI_File_get_atomicity(fh, &flag));
    MT_CHECK_INT(0, flag, "default atomicity");
    MT_MPI(MPI_File_set_atomicity(fh, 1));
    MT_MPI(MPI_File_get_atomicity(fh, &flag));
    MT_CHECK_INT(1, flag, "atomicity after set_atomicity(1)");
    MPI_Aint extent = 0;
    MT_MPI(MPI_File_get_type_extent(fh, MPI_DOUBLE, &extent));
    MT_CHECK_INT(sizeof(double), extent, "type extent of MPI_DOUBLE");
    MPI_Info info, used;
    int nkeys = -1;
    MPI_Info_create(&info);
    MPI_Info_set(info, "access_style", "read_mostly");
    MT_MPI(MPI_File_set_info(fh, info));
    MPI_Info_free(&info);
    MT_MPI(MPI_File_get_info(fh, &used));
    MT_MPI(MPI_Info_get_nkeys(used, &nkeys));
    MT_CHECK(nkeys >= 0, "get_info returned an info with %d keys", nkeys);
    MPI_Info_free(&used);
    MPI_Errhandler eh;
    MT_MPI(MPI_File_get_errhandler(fh, &eh));
    MT_CHECK(eh == MPI_ERRORS_RETURN, "a new file's handler is MPI_ERRORS_RETURN");
    MPI_Errhandler_free(&eh);
    MT_MPI(MPI_File_close(&fh));
}

/* APPEND puts both pointers at the end; DELETE_ON_CLOSE removes the file at close. */
static void check_append_and_delete_on_close(const char *path)
{
    MPI_File fh;
    MPI_Offset position = -1;
    MT_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_WRONLY | MPI_MODE_APPEND, MPI_INFO_NULL,
                         &fh));
    MT_MPI(MPI_File_get_position(fh, &position));
    MT_CHECK_INT(5000, position, "individual pointer after APPEND open");
    MT_MPI(MPI_File_get_position_shared(fh, &position));
    MT_CHECK_INT(5000, position, "shared pointer after APPEND open");
    MT_MPI(MPI_File_close(&fh));
    MT_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE,
                         MPI_INFO_NULL, &fh));
    MT_MPI(MPI_File_close(&fh));
    MPI_Barrier(MPI_COMM_WORLD);
    MT_CHECK(!exists(path), "DELETE_ON_CLOSE left %s", path);
}

static void check_delete(const char *path)
{
    int rc = MPI_File_delete(path, MPI_INFO_NULL);
    MT_CHECK_ERRCLASS(rc, MPI_ERR_NO_SUCH_FILE, "delete of a missing file");
    MPI_File fh;
    MT_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL,
                         &fh));
    MT_MPI(MPI_File_close(&fh));
    MPI_Barrier(MPI_COMM_WORLD);
    if (mt_rank == 0)
        MT_MPI(MPI_File_delete(path, MPI_INFO_NULL));
    MPI_Barrier(MPI_COMM_WORLD);
    MT_CHECK(!exists(path), "MPI_File_delete left %s", path);
}

/* Each rank alone (MPI_COMM_SELF) on a file of its own: shared pointer and data. */
static void check_self(void)
{
    char path[512], name[64];
    snprintf(name, sizeof name, "self-%d", mt_rank);
    io_path(path, sizeof path, name);
    MPI_File fh;
    MT_MPI(MPI_File_open(MPI_COMM_SELF, path, MPI_MODE_CREATE | MPI_MODE_RDWR |
                         MPI_MODE_DELETE_ON_CLOSE, MPI_INFO_NULL, &fh));
    unsigned char out[100], in[100];
    for (int i = 0; i < 100; i++)
        out[i] = io_byte(mt_rank, i);
    MT_MPI(MPI_File_write_shared(fh, out, 60, MPI_BYTE, MPI_STATUS_IGNORE));
    MT_MPI(MPI_File_write_shared(fh, out + 60, 40, MPI_BYTE, MPI_STATUS_IGNORE));
    MPI_Offset position = -1;
    MT_MPI(MPI_File_get_position_shared(fh, &position));
    MT_CHECK_INT(100, position, "shared pointer of a COMM_SELF file");
    MT_MPI(MPI_File_read_at(fh, 0, in, 100, MPI_BYTE, MPI_STATUS_IGNORE));
    MT_CHECK(memcmp(in, out, 100) == 0, "data of a COMM_SELF file");
    MT_MPI(MPI_File_close(&fh));
    MT_CHECK(!exists(path), "DELETE_ON_CLOSE left %s", path);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    io_make_dir(MPI_COMM_WORLD);
    char path[512], other[512];
    io_path(path, sizeof path, "basic");
    io_path(other, sizeof other, "second");
    check_amode_errors(path);
    check_amode_not_same(path);
    check_open_errors(path);
    check_size_calls(path);
    check_queries(path);
    check_append_and_delete_on_close(path);
    check_delete(other);
    check_self();
    io_remove_dir(MPI_COMM_WORLD);
    return mt_finish();
}
