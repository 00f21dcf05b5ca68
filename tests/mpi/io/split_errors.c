/* split_errors.c - split collectives (MPI-4.1 14.4.5), error handlers of files (14.7: user
 * handlers, MPI_FILE_NULL's handler as the default that new files inherit, call_errhandler),
 * error classes of bad data access calls, and the large-count _c forms. */
#include "mpitest.h"

#include "iotest.h"

enum { N = 256 };

static int handler_calls;
static int handler_class;
static MPI_File handler_file;

static void count_errors(MPI_File *fh, int *code, ...)
{
    handler_calls++;
    handler_file = *fh;
    MPI_Error_class(*code, &handler_class);
}

static void check_count(MPI_Status *status, int expected, const char *what)
{
    int count = -1;
    MPI_Get_count(status, MPI_INT, &count);
    MT_CHECK_INT(expected, count, what);
}

static void fill(int *buf, int n, int salt)
{
    for (int i = 0; i < n; i++)
        buf[i] = salt * 100000 + mt_rank * 1000 + i;
}

static void check_data(const int *buf, int n, int rank, int salt, const char *what)
{
    for (int i = 0; i < n; i++)
        if (buf[i] != salt * 100000 + rank * 1000 + i) {
            MT_CHECK(0, "%s: int %d is %d", what, i, buf[i]);
            return;
        }
}

static void split_collectives(MPI_File fh)
{
    int out[N], in[N];
    MPI_Status status;
    MPI_Offset mine = (MPI_Offset)mt_rank * N * 4;
    fill(out, N, 1);
    MT_MPI(MPI_File_write_at_all_begin(fh, mine, out, N, MPI_INT));
    MT_MPI(MPI_File_write_at_all_end(fh, out, &status));
    check_count(&status, N, "write_at_all_end count");
    MT_MPI(MPI_File_sync(fh));
    MPI_Barrier(MPI_COMM_WORLD);
    MT_MPI(MPI_File_sync(fh));
    MT_MPI(MPI_File_read_at_all_begin(fh, mine, in, N, MPI_INT));
    MT_MPI(MPI_File_read_at_all_end(fh, in, &status));
    check_count(&status, N, "read_at_all_end count");
    check_data(in, N, mt_rank, 1, "read_at_all_begin/end");
    /* Individual pointer: the second half of the file. */
    MPI_Offset second = (MPI_Offset)(mt_size + mt_rank) * N * 4;
    fill(out, N, 2);
    MT_MPI(MPI_File_seek(fh, second, MPI_SEEK_SET));
    MT_MPI(MPI_File_write_all_begin(fh, out, N, MPI_INT));
    MT_MPI(MPI_File_write_all_end(fh, out, &status));
    check_count(&status, N, "write_all_end count");
    MT_MPI(MPI_File_seek(fh, second, MPI_SEEK_SET));
    MT_MPI(MPI_File_read_all_begin(fh, in, N, MPI_INT));
    MT_MPI(MPI_File_read_all_end(fh, in, &status));
    check_data(in, N, mt_rank, 2, "read_all_begin/end");
    /* Ordered: after everything written so far. */
    fill(out, N, 3);
    MT_MPI(MPI_File_seek_shared(fh, 2 * mt_size * N * 4, MPI_SEEK_SET));
    MT_MPI(MPI_File_write_ordered_begin(fh, out, N, MPI_INT));
    MT_MPI(MPI_File_write_ordered_end(fh, out, &status));
    check_count(&status, N, "write_ordered_end count");
    MT_MPI(MPI_File_seek_shared(fh, 2 * mt_size * N * 4, MPI_SEEK_SET));
    MT_MPI(MPI_File_read_ordered_begin(fh, in, N, MPI_INT));
    MT_MPI(MPI_File_read_ordered_end(fh, in, &status));
    check_data(in, N, mt_rank, 3, "read_ordered_begin/end");
}

/* The _c forms with MPI_Count counts. */
static void large_count_forms(MPI_File fh)
{
    int out[N], in[N];
    MPI_Status status;
    MPI_Count count = -1;
    MPI_Offset at = (MPI_Offset)(3 * mt_size + mt_rank) * N * 4;
    fill(out, N, 4);
    MT_MPI(MPI_File_write_at_c(fh, at, out, (MPI_Count)N, MPI_INT, &status));
    MPI_Get_count_c(&status, MPI_INT, &count);
    MT_CHECK_INT(N, count, "write_at_c count");
    MT_MPI(MPI_File_read_at_all_c(fh, at, in, (MPI_Count)N, MPI_INT, &status));
    check_data(in, N, mt_rank, 4, "read_at_all_c");
    MPI_Request request;
    memset(in, 0, sizeof in);
    MT_MPI(MPI_File_iread_at_c(fh, at, in, (MPI_Count)N, MPI_INT, &request));
    MT_MPI(MPI_Wait(&request, &status));
    MPI_Get_count_c(&status, MPI_INT, &count);
    MT_CHECK_INT(N, count, "iread_at_c count");
    check_data(in, N, mt_rank, 4, "iread_at_c");
    MT_MPI(MPI_File_seek(fh, at, MPI_SEEK_SET));
    memset(in, 0, sizeof in);
    MT_MPI(MPI_File_read_c(fh, in, (MPI_Count)N, MPI_INT, &status));
    check_data(in, N, mt_rank, 4, "read_c");
    MPI_Count extent = -1;
    MT_MPI(MPI_File_get_type_extent_c(fh, MPI_INT, &extent));
    MT_CHECK_INT(sizeof(int), extent, "get_type_extent_c");
}

static void file_errors(MPI_File fh, const char *path)
{
    int buf[4] = {0};
    int rc = MPI_File_read_at(fh, -1, buf, 1, MPI_INT, MPI_STATUS_IGNORE);
    MT_CHECK_ERRCLASS(rc, MPI_ERR_ARG, "read_at with a negative offset");
    rc = MPI_File_write_at(fh, 0, buf, -1, MPI_INT, MPI_STATUS_IGNORE);
    MT_CHECK_ERRCLASS(rc, MPI_ERR_COUNT, "write_at with a negative count");
    rc = MPI_File_write_at(fh, 0, buf, 1, MPI_DATATYPE_NULL, MPI_STATUS_IGNORE);
    MT_CHECK_ERRCLASS(rc, MPI_ERR_TYPE, "write_at with MPI_DATATYPE_NULL");
    rc = MPI_File_read_at(MPI_FILE_NULL, 0, buf, 1, MPI_INT, MPI_STATUS_IGNORE);
    MT_CHECK_ERRCLASS(rc, MPI_ERR_FILE, "read_at on MPI_FILE_NULL");
    rc = MPI_File_seek(fh, 0, 12345);
    MT_CHECK_ERRCLASS(rc, MPI_ERR_ARG, "seek with a bad whence");
    /* A write-only file cannot be read. */
    MPI_File wronly;
    MT_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_WRONLY, MPI_INFO_NULL, &wronly));
    rc = MPI_File_read_at(wronly, 0, buf, 1, MPI_INT, MPI_STATUS_IGNORE);
    MT_CHECK_ERRCLASS(rc, MPI_ERR_ACCESS, "read from a file opened MPI_MODE_WRONLY");
    MT_MPI(MPI_File_close(&wronly));
    /* Sequential files have no explicit offsets. */
    MPI_File sequential;
    MT_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDONLY | MPI_MODE_SEQUENTIAL,
                         MPI_INFO_NULL, &sequential));
    rc = MPI_File_read_at(sequential, 0, buf, 1, MPI_INT, MPI_STATUS_IGNORE);
    MT_CHECK_ERRCLASS(rc, MPI_ERR_UNSUPPORTED_OPERATION, "read_at on a sequential file");
    MT_MPI(MPI_File_read_shared(sequential, buf, 1, MPI_INT, MPI_STATUS_IGNORE));
    MT_MPI(MPI_File_close(&sequential));
}

/* get_errhandler hands out a reference the caller frees (MPI-4.1 9.3.4); MPICH's files take
 * none (its Errhandler_free then asserts), so there the reference is not freed. */
static void release_gotten(MPI_Errhandler *got)
{
    if (!mt_library_is("MPICH"))
        MPI_Errhandler_free(got);
}

static void user_handlers(MPI_File fh, const char *path, const char *missing)
{
    MPI_Errhandler eh, got;
    MT_MPI(MPI_File_create_errhandler(count_errors, &eh));
    MT_MPI(MPI_File_set_errhandler(fh, eh));
    MT_MPI(MPI_File_get_errhandler(fh, &got));
    MT_CHECK(got == eh, "get_errhandler returned another handler");
    release_gotten(&got);
    int buf = 0;
    handler_calls = 0;
    MPI_File_read_at(fh, -5, &buf, 1, MPI_INT, MPI_STATUS_IGNORE);
    MT_CHECK_INT(1, handler_calls, "handler calls after a bad read_at");
    MT_CHECK_INT(MPI_ERR_ARG, handler_class, "class the handler saw");
    MT_CHECK(handler_file == fh, "the handler got another file handle");
    MT_MPI(MPI_File_call_errhandler(fh, MPI_ERR_OTHER));
    MT_CHECK_INT(2, handler_calls, "handler calls after call_errhandler");
    MT_CHECK_INT(MPI_ERR_OTHER, handler_class, "class passed by call_errhandler");
    MT_MPI(MPI_File_set_errhandler(fh, MPI_ERRORS_RETURN));

    /* MPI_FILE_NULL's handler: MPI_ERRORS_RETURN by default, serves open, inherited. */
    MT_MPI(MPI_File_get_errhandler(MPI_FILE_NULL, &got));
    MT_CHECK(got == MPI_ERRORS_RETURN, "MPI_FILE_NULL's default handler");
    MPI_Errhandler_free(&got);
    MT_MPI(MPI_File_set_errhandler(MPI_FILE_NULL, eh));
    MPI_File other;
    handler_calls = 0;
    int rc = MPI_File_open(MPI_COMM_WORLD, missing, MPI_MODE_RDONLY, MPI_INFO_NULL, &other);
    MT_CHECK_ERRCLASS(rc, MPI_ERR_NO_SUCH_FILE, "open of a missing file");
    MT_CHECK_INT(1, handler_calls, "MPI_FILE_NULL's handler called by a failed open");
    MT_CHECK_INT(MPI_ERR_NO_SUCH_FILE, handler_class, "class of the failed open");
    MT_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDONLY, MPI_INFO_NULL, &other));
    MT_MPI(MPI_File_get_errhandler(other, &got));
    MT_CHECK(got == eh, "a new file did not inherit MPI_FILE_NULL's handler");
    release_gotten(&got);
    MT_MPI(MPI_File_close(&other));
    MT_MPI(MPI_File_set_errhandler(MPI_FILE_NULL, MPI_ERRORS_RETURN));
    MPI_Errhandler_free(&eh);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    io_make_dir(MPI_COMM_WORLD);
    char path[512], missing[512];
    io_path(path, sizeof path, "split");
    io_path(missing, sizeof missing, "missing");
    MPI_File fh;
    MT_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL,
                         &fh));
    split_collectives(fh);
    large_count_forms(fh);
    file_errors(fh, path);
    user_handlers(fh, path, missing);
    MT_MPI(MPI_File_close(&fh));
    MPI_Barrier(MPI_COMM_WORLD);
    if (mt_rank == 0)
        MT_MPI(MPI_File_delete(path, MPI_INFO_NULL));
    io_remove_dir(MPI_COMM_WORLD);
    return mt_finish();
}
