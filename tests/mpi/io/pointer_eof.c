/* pointer_eof.c - the individual file pointer after a read that meets the end of file
 * (MPI-4.1 14.4.3: "After an individual file pointer operation is initiated, the individual
 * file pointer is updated to point to the next etype after the last one that will be
 * accessed"): the pointer moves by what the call asked for, whatever was there to read; the
 * status counts what was read. nodempi moved it by the data read (MPI_File_read of 8 ints at
 * position 6 of a 10-int file left it at 10, not 14), so the mpi-test-suite's IO test "read"
 * (seek + MPI_File_read through a view with holes, then MPI_File_get_position) stopped with
 * "Error in position"; Open MPI's ompio answers 14. Checked on a 10-int file: MPI_File_read,
 * MPI_File_iread (the pointer right after the call, before MPI_Wait), MPI_File_read_all,
 * MPI_File_read_all_begin/_end, a read wholly beyond the end, and a view whose filetype has a
 * hole after each int (4 etypes asked, 2 there); the data read and the explicit-offset and
 * shared-pointer reads (unchanged) along with them. */
#include "mpitest.h"

#include "iotest.h"

enum { N = 10 };   /* ints in the file */

static void check_read(MPI_Status *status, int *buf, int expected, int first, int stride,
                       const char *what)
{
    int got = -1;
    MPI_Get_count(status, MPI_INT, &got);
    MT_CHECK_INT(expected, got, what);
    for (int i = 0; i < expected && i < got; i++)
        MT_CHECK_INT(first + i * stride, buf[i], what);
}

static void check_position(MPI_File fh, MPI_Offset expected, const char *what)
{
    MPI_Offset position = -1;
    MT_MPI(MPI_File_get_position(fh, &position));
    MT_CHECK_INT(expected, position, what);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    io_make_dir(MPI_COMM_WORLD);
    char name[300];
    io_path(name, sizeof name, "pointer_eof");

    MPI_File fh;
    MPI_Status status;
    int buf[N + 8];
    MT_MPI(MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE,
                         MPI_INFO_NULL, &fh));
    if (mt_rank == 0) {
        int data[N];
        for (int i = 0; i < N; i++)
            data[i] = 100 + i;
        MT_MPI(MPI_File_write_at(fh, 0, data, N, MPI_INT, &status));
    }
    MT_MPI(MPI_File_sync(fh));
    MPI_Barrier(MPI_COMM_WORLD);
    MT_MPI(MPI_File_sync(fh));
    MT_MPI(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "native", MPI_INFO_NULL));

    /* Blocking read across the end: 4 of 8 ints, pointer at 6 + 8. */
    MT_MPI(MPI_File_seek(fh, 6, MPI_SEEK_SET));
    MT_MPI(MPI_File_read(fh, buf, 8, MPI_INT, &status));
    check_read(&status, buf, 4, 106, 1, "MPI_File_read across the end of file");
    check_position(fh, 14, "pointer after MPI_File_read across the end of file");

    /* Nonblocking: the pointer moves when the call is initiated. */
    MPI_Request request;
    MT_MPI(MPI_File_seek(fh, 6, MPI_SEEK_SET));
    MT_MPI(MPI_File_iread(fh, buf, 8, MPI_INT, &request));
    check_position(fh, 14, "pointer right after MPI_File_iread across the end of file");
    MT_MPI(MPI_Wait(&request, &status));
    check_read(&status, buf, 4, 106, 1, "MPI_File_iread across the end of file");
    check_position(fh, 14, "pointer after MPI_Wait of the MPI_File_iread");

    /* Collective and split collective. */
    MT_MPI(MPI_File_seek(fh, 7, MPI_SEEK_SET));
    MT_MPI(MPI_File_read_all(fh, buf, 5, MPI_INT, &status));
    check_read(&status, buf, 3, 107, 1, "MPI_File_read_all across the end of file");
    check_position(fh, 12, "pointer after MPI_File_read_all across the end of file");
    MT_MPI(MPI_File_seek(fh, 8, MPI_SEEK_SET));
    MT_MPI(MPI_File_read_all_begin(fh, buf, 6, MPI_INT));
    MT_MPI(MPI_File_read_all_end(fh, buf, &status));
    check_read(&status, buf, 2, 108, 1, "MPI_File_read_all_begin/_end across the end of file");
    check_position(fh, 14, "pointer after MPI_File_read_all_begin/_end across the end of file");

    /* Wholly beyond the end: nothing read, the pointer still moves by 3. */
    MT_MPI(MPI_File_seek(fh, 20, MPI_SEEK_SET));
    MT_MPI(MPI_File_read(fh, buf, 3, MPI_INT, &status));
    check_read(&status, buf, 0, 0, 1, "MPI_File_read beyond the end of file");
    check_position(fh, 23, "pointer after MPI_File_read beyond the end of file");

    /* Explicit offsets leave the individual pointer alone. */
    MT_MPI(MPI_File_read_at(fh, 8, buf, 5, MPI_INT, &status));
    check_read(&status, buf, 2, 108, 1, "MPI_File_read_at across the end of file");
    check_position(fh, 23, "pointer after MPI_File_read_at");

    /* A filetype with a hole after each int: etypes 3..6 of the view are file ints 6, 8, 10,
     * 12; only 6 and 8 exist. */
    MPI_Datatype holey;
    MT_MPI(MPI_Type_create_resized(MPI_INT, 0, 2 * (MPI_Aint)sizeof(int), &holey));
    MT_MPI(MPI_Type_commit(&holey));
    MT_MPI(MPI_File_set_view(fh, 0, MPI_INT, holey, "native", MPI_INFO_NULL));
    MPI_Type_free(&holey);
    MT_MPI(MPI_File_seek(fh, 3, MPI_SEEK_SET));
    MT_MPI(MPI_File_read(fh, buf, 4, MPI_INT, &status));
    check_read(&status, buf, 2, 106, 2, "MPI_File_read through a view with holes");
    check_position(fh, 7, "pointer after MPI_File_read through a view with holes");

    /* The shared pointer also moves by what was asked: rank 0 reads 8 ints at 6. */
    MT_MPI(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "native", MPI_INFO_NULL));
    MT_MPI(MPI_File_seek_shared(fh, 6, MPI_SEEK_SET));
    if (mt_rank == 0) {
        MT_MPI(MPI_File_read_shared(fh, buf, 8, MPI_INT, &status));
        check_read(&status, buf, 4, 106, 1, "MPI_File_read_shared across the end of file");
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Offset shared = -1;
    MT_MPI(MPI_File_get_position_shared(fh, &shared));
    MT_CHECK_INT(14, shared, "shared pointer after MPI_File_read_shared across the end of file");
    MT_MPI(MPI_File_close(&fh));
    io_remove_dir(MPI_COMM_WORLD);
    return mt_finish();
}
