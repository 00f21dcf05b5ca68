/* view_empty.c - a filetype of size 0 (MPI-4.1 14.3: a filetype is built from etypes; zero of
 * them is a view without data). PnetCDF's fill (ncmpio_fill.c) splits a variable's elements
 * over the ranks and, on a rank that gets none, sets a view of an hindexed type with one
 * zero-length block, then calls MPI_File_write_at_all with count 0; nodempi refused that view
 * with MPI_ERR_ARG, so that rank left MPI_File_set_view before its barrier and the job hung
 * (pnetcdf test/header at 4 ranks). Here: 3 ints split over the ranks the same way, the empty
 * view at every rank count (rank >= 3, and a second pass where every rank's view is empty),
 * the collective zero-byte write, the file's contents, and what an empty view answers:
 * get_view, get_byte_offset, seek END, and a nonzero access (MPI_ERR_IO, no hang). */
#include "mpitest.h"

#include "iotest.h"

enum { N = 3 };   /* ints of the "variable": fewer than the ranks at 4 ranks */

/* Rank r's share of N ints: count and first index, PnetCDF's split. */
static void share(int r, int *count, int *start)
{
    *count = N / mt_size;
    *start = *count * r;
    if (r < N % mt_size) {
        *start += r;
        (*count)++;
    } else {
        *start += N % mt_size;
    }
}

/* One hindexed block of `count` ints at `start` (a zero-length block when count is 0). */
static void fill_through_view(MPI_File fh, int count, int start, int seed)
{
    int blocklength = count * (int)sizeof(int);
    MPI_Aint offset = (MPI_Aint)start * (MPI_Aint)sizeof(int);
    MPI_Datatype filetype;
    MT_MPI(MPI_Type_create_hindexed(1, &blocklength, &offset, MPI_BYTE, &filetype));
    MT_MPI(MPI_Type_commit(&filetype));
    int size = -1;
    MPI_Type_size(filetype, &size);
    MT_CHECK_INT(blocklength, size, "filetype size");
    MT_MPI(MPI_File_set_view(fh, 0, MPI_BYTE, filetype, "native", MPI_INFO_NULL));
    MPI_Type_free(&filetype);
    int data[N];
    for (int i = 0; i < count; i++)
        data[i] = seed + start + i;
    MPI_Status status;
    MT_MPI(MPI_File_write_at_all(fh, 0, data, count * (int)sizeof(int), MPI_BYTE, &status));
    int got = -1;
    MPI_Get_count(&status, MPI_BYTE, &got);
    MT_CHECK_INT(blocklength, got, "bytes written");
    if (count == 0) {
        /* What a view without data answers. */
        MPI_Offset disp = -1, byte = -1, position = -1;
        MPI_Datatype etype, ftype;
        char rep[MPI_MAX_DATAREP_STRING];
        MT_MPI(MPI_File_get_view(fh, &disp, &etype, &ftype, rep));
        MT_CHECK_INT(0, disp, "empty view's displacement");
        MPI_Type_size(ftype, &size);
        MT_CHECK_INT(0, size, "empty view's filetype size");
        MPI_Type_free(&ftype);
        MT_MPI(MPI_File_get_byte_offset(fh, 0, &byte));
        MT_CHECK_INT(0, byte, "byte offset of position 0 in an empty view");
        MT_MPI(MPI_File_seek(fh, 0, MPI_SEEK_END));
        MT_MPI(MPI_File_get_position(fh, &position));
        MT_CHECK_INT(0, position, "end of an empty view");
        int rc = MPI_File_write_at(fh, 0, data, 1, MPI_INT, &status);
        MT_CHECK_ERRCLASS(rc, MPI_ERR_IO, "writing 4 bytes through an empty view");
        rc = MPI_File_read_at(fh, 0, data, 1, MPI_INT, &status);
        MT_CHECK_ERRCLASS(rc, MPI_ERR_IO, "reading 4 bytes through an empty view");
    }
    MT_MPI(MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL));
}

static void check_file(MPI_File fh, int seed)
{
    int data[N] = {0};
    MPI_Status status;
    MT_MPI(MPI_File_sync(fh));
    MPI_Barrier(MPI_COMM_WORLD);
    MT_MPI(MPI_File_sync(fh));
    MT_MPI(MPI_File_read_at(fh, 0, data, N, MPI_INT, &status));
    for (int i = 0; i < N; i++)
        MT_CHECK_INT(seed + i, data[i], "int of the file");
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    io_make_dir(MPI_COMM_WORLD);
    char path[512];
    io_path(path, sizeof path, "view_empty");
    MPI_File fh;
    MT_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL,
                         &fh));
    int count, start;
    share(mt_rank, &count, &start);
    fill_through_view(fh, count, start, 1000);
    check_file(fh, 1000);
    /* Every rank's view empty (nobody writes), then the data is unchanged. */
    fill_through_view(fh, 0, 0, 2000);
    check_file(fh, 1000);
    MT_MPI(MPI_File_close(&fh));
    if (mt_rank == 0)
        MT_MPI(MPI_File_delete(path, MPI_INFO_NULL));
    io_remove_dir(MPI_COMM_WORLD);
    return mt_finish();
}
