/* view.c - file views (MPI-4.1 14.3) and individual file pointers (14.4.3): ranks interleave
 * blocks of ints through a resized filetype (collective and nonblocking writes), an indexed
 * filetype with holes read into a strided memory type, seek (SET/CUR/END), get_position,
 * get_byte_offset, get_view, external32 and an unknown data representation. Every byte of the
 * file is checked against a reference computed here. */
#include "mpitest.h"

#include "iotest.h"

enum { B = 3, ROUNDS = 50 };   /* ints per block, blocks per rank */

/* The value of the i-th int of rank r's data stream. */
static int value(int r, int i)
{
    return r * 100000 + i;
}

/* Rank r owns blocks r, r + size, r + 2 size, ... of B ints each. */
static void set_interleaved_view(MPI_File fh, MPI_Datatype *filetype)
{
    MPI_Datatype block;
    MPI_Type_contiguous(B, MPI_INT, &block);
    MPI_Type_create_resized(block, 0, (MPI_Aint)mt_size * B * sizeof(int), filetype);
    MPI_Type_commit(filetype);
    MPI_Type_free(&block);
    MT_MPI(MPI_File_set_view(fh, (MPI_Offset)mt_rank * B * sizeof(int), MPI_INT, *filetype,
                             "native", MPI_INFO_NULL));
}

/* Half the data with write_all, a quarter with iwrite_all, the rest with two iwrite calls
 * completed by one Waitall. */
static void write_interleaved(MPI_File fh)
{
    enum { TOTAL = B * ROUNDS };
    static int data[TOTAL];
    for (int i = 0; i < TOTAL; i++)
        data[i] = value(mt_rank, i);
    MPI_Status status;
    int half = TOTAL / 2, quarter = TOTAL / 4;
    MT_MPI(MPI_File_write_all(fh, data, half, MPI_INT, &status));
    MPI_Offset position = -1;
    MT_MPI(MPI_File_get_position(fh, &position));
    MT_CHECK_INT(half, position, "pointer after write_all");
    MPI_Request requests[2];
    MT_MPI(MPI_File_iwrite_all(fh, data + half, quarter, MPI_INT, &requests[0]));
    MT_MPI(MPI_Wait(&requests[0], MPI_STATUS_IGNORE));
    int rest = TOTAL - half - quarter, first = rest / 2;
    MT_MPI(MPI_File_iwrite(fh, data + half + quarter, first, MPI_INT, &requests[0]));
    MT_MPI(MPI_File_iwrite(fh, data + half + quarter + first, rest - first, MPI_INT,
                           &requests[1]));
    MT_MPI(MPI_Waitall(2, requests, MPI_STATUSES_IGNORE));
    MT_MPI(MPI_File_get_position(fh, &position));
    MT_CHECK_INT(TOTAL, position, "pointer after all writes");
    /* Byte offset of etype 7 of this view: block 7 / B of this rank, int 7 % B in it. */
    MPI_Offset byte = -1;
    MT_MPI(MPI_File_get_byte_offset(fh, 7, &byte));
    MT_CHECK_INT(((7 / B) * mt_size + mt_rank) * B * 4 + (7 % B) * 4, byte, "get_byte_offset");
}

/* Everyone reads the whole file through a plain byte view and checks every int. */
static void check_whole_file(MPI_File fh)
{
    enum { TOTAL = B * ROUNDS };
    int n = TOTAL * mt_size;
    int *all = malloc((size_t)n * sizeof(int));
    MT_MPI(MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL));
    MPI_Status status;
    MT_MPI(MPI_File_read_at_all(fh, 0, all, n, MPI_INT, &status));
    int count = -1;
    MPI_Get_count(&status, MPI_INT, &count);
    MT_CHECK_INT(n, count, "ints in the file");
    for (int k = 0; k < n; k++) {
        int block = k / B, owner = block % mt_size, i = (block / mt_size) * B + k % B;
        if (all[k] != value(owner, i)) {
            MT_CHECK(0, "file int %d is %d, expected %d", k, all[k], value(owner, i));
            break;
        }
    }
    free(all);
}

/* Read back my own stream through the interleaved view with read, read_all, iread and
 * iread_all, after seeks. */
static void read_interleaved(MPI_File fh)
{
    enum { TOTAL = B * ROUNDS };
    static int in[TOTAL];
    MPI_Datatype filetype;
    set_interleaved_view(fh, &filetype);
    MPI_Offset position = -1;
    MT_MPI(MPI_File_get_position(fh, &position));
    MT_CHECK_INT(0, position, "set_view resets the pointer");
    MT_MPI(MPI_File_read_all(fh, in, 10, MPI_INT, MPI_STATUS_IGNORE));
    MT_MPI(MPI_File_read(fh, in + 10, 5, MPI_INT, MPI_STATUS_IGNORE));
    MPI_Request requests[2];
    MT_MPI(MPI_File_iread(fh, in + 15, 20, MPI_INT, &requests[0]));
    MT_MPI(MPI_Wait(&requests[0], MPI_STATUS_IGNORE));
    MT_MPI(MPI_File_iread_all(fh, in + 35, TOTAL - 35, MPI_INT, &requests[1]));
    MT_MPI(MPI_Wait(&requests[1], MPI_STATUS_IGNORE));
    for (int i = 0; i < TOTAL; i++)
        if (in[i] != value(mt_rank, i)) {
            MT_CHECK(0, "view read: int %d is %d, expected %d", i, in[i], value(mt_rank, i));
            break;
        }
    /* Seeks: SET, CUR, END (the end of my data: the file ends with the last rank's block). */
    int one = -1;
    MT_MPI(MPI_File_seek(fh, 40, MPI_SEEK_SET));
    MT_MPI(MPI_File_seek(fh, -3, MPI_SEEK_CUR));
    MT_MPI(MPI_File_read(fh, &one, 1, MPI_INT, MPI_STATUS_IGNORE));
    MT_CHECK_INT(value(mt_rank, 37), one, "int after SEEK_SET 40, SEEK_CUR -3");
    MT_MPI(MPI_File_seek(fh, -1, MPI_SEEK_END));
    MT_MPI(MPI_File_get_position(fh, &position));
    MT_CHECK_INT(TOTAL - 1, position, "position after SEEK_END -1");
    MT_MPI(MPI_File_read(fh, &one, 1, MPI_INT, MPI_STATUS_IGNORE));
    MT_CHECK_INT(value(mt_rank, TOTAL - 1), one, "last int of my stream");
    int rc = MPI_File_seek(fh, -1, MPI_SEEK_SET);
    MT_CHECK_ERRCLASS(rc, MPI_ERR_ARG, "seek before the start");
    MPI_Offset disp = -1;
    MPI_Datatype etype, ftype;
    char datarep[MPI_MAX_DATAREP_STRING];
    MT_MPI(MPI_File_get_view(fh, &disp, &etype, &ftype, datarep));
    MT_CHECK_INT(mt_rank * B * 4, disp, "get_view disp");
    MT_CHECK(etype == MPI_INT, "get_view etype is not MPI_INT");
    MT_CHECK(strcmp(datarep, "native") == 0, "get_view datarep %s", datarep);
    MPI_Aint lb, extent;
    MPI_Type_get_extent(ftype, &lb, &extent);
    MT_CHECK_INT(mt_size * B * 4, extent, "get_view filetype extent");
    MPI_Type_free(&ftype);
    MPI_Type_free(&filetype);
}

/* An indexed filetype with holes (ints 0-1 and 5-7 of every 10), read into every third int of
 * memory: the memory and file sides are both noncontiguous. */
static void holes_and_strided_memory(MPI_File fh)
{
    int lengths[2] = {2, 3}, displs[2] = {0, 5};
    MPI_Datatype indexed, filetype, memtype;
    MPI_Type_indexed(2, lengths, displs, MPI_INT, &indexed);
    MPI_Type_create_resized(indexed, 0, 10 * sizeof(int), &filetype);
    MPI_Type_commit(&filetype);
    MPI_Type_vector(20, 1, 3, MPI_INT, &memtype);
    MPI_Type_commit(&memtype);
    MT_MPI(MPI_File_set_view(fh, 0, MPI_INT, filetype, "native", MPI_INFO_NULL));
    int mem[60];
    for (int i = 0; i < 60; i++)
        mem[i] = -5;
    MPI_Status status;
    MT_MPI(MPI_File_read_at(fh, 2, mem, 1, memtype, &status));
    int elements = -1;
    MPI_Get_elements(&status, MPI_INT, &elements);
    MT_CHECK_INT(20, elements, "ints read through the holes");
    /* View etype 2 + j is file int 10 * (t / 5) + (t % 5 < 2 ? t % 5 : t % 5 + 3), t = 2 + j. */
    for (int j = 0; j < 20; j++) {
        int t = 2 + j;
        int k = 10 * (t / 5) + (t % 5 < 2 ? t % 5 : t % 5 + 3);
        int block = k / B, owner = block % mt_size, i = (block / mt_size) * B + k % B;
        MT_CHECK_INT(value(owner, i), mem[3 * j], "int read through the holes");
        MT_CHECK_INT(-5, mem[3 * j + 1], "memory gap untouched");
    }
    int rc = MPI_File_set_view(fh, 0, MPI_INT, filetype, "no-such-representation",
                               MPI_INFO_NULL);
    MT_CHECK_ERRCLASS(rc, MPI_ERR_UNSUPPORTED_DATAREP, "set_view with an unknown datarep");
    MPI_Type_free(&filetype);
    MPI_Type_free(&indexed);
    MPI_Type_free(&memtype);
}

/* "external32": ints stored big-endian (checked byte by byte through a native view) and
 * read back as the same values. */
static void external32(const char *path)
{
    enum { E = 100 };
    MPI_File fh;
    int out[E], in[E];
    unsigned char raw[4 * E];
    MT_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR |
                         MPI_MODE_DELETE_ON_CLOSE, MPI_INFO_NULL, &fh));
    for (int i = 0; i < E; i++)
        out[i] = (mt_rank << 24) | (i << 8) | 0x5a;
    MPI_Offset at = (MPI_Offset)mt_rank * E;
    MT_MPI(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "external32", MPI_INFO_NULL));
    MT_MPI(MPI_File_write_at_all(fh, at, out, E, MPI_INT, MPI_STATUS_IGNORE));
    MT_MPI(MPI_File_sync(fh));
    MPI_Barrier(MPI_COMM_WORLD);
    MT_MPI(MPI_File_sync(fh));
    MT_MPI(MPI_File_read_at_all(fh, at, in, E, MPI_INT, MPI_STATUS_IGNORE));
    for (int i = 0; i < E; i++)
        MT_CHECK_INT(out[i], in[i], "int read back through the external32 view");
    MT_MPI(MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL));
    MT_MPI(MPI_File_read_at_all(fh, at * 4, raw, 4 * E, MPI_BYTE, MPI_STATUS_IGNORE));
    for (int i = 0; i < E; i++) {
        unsigned v = (unsigned)out[i];
        unsigned char be[4] = {(unsigned char)(v >> 24), (unsigned char)(v >> 16),
                               (unsigned char)(v >> 8), (unsigned char)v};
        if (memcmp(raw + 4 * i, be, 4) != 0) {
            MT_CHECK(0, "external32 int %d is not stored big-endian", i);
            break;
        }
    }
    MT_MPI(MPI_File_close(&fh));
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    io_make_dir(MPI_COMM_WORLD);
    char path[512];
    io_path(path, sizeof path, "view");
    MPI_File fh;
    MPI_Datatype filetype;
    MT_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL,
                         &fh));
    set_interleaved_view(fh, &filetype);
    MPI_Type_free(&filetype);   /* the view keeps it */
    write_interleaved(fh);
    MT_MPI(MPI_File_sync(fh));
    MPI_Barrier(MPI_COMM_WORLD);
    MT_MPI(MPI_File_sync(fh));
    check_whole_file(fh);
    read_interleaved(fh);
    holes_and_strided_memory(fh);
    MT_MPI(MPI_File_close(&fh));
    if (mt_rank == 0)
        MT_MPI(MPI_File_delete(path, MPI_INFO_NULL));
    char ext[512];
    io_path(ext, sizeof ext, "external32");
    external32(ext);
    io_remove_dir(MPI_COMM_WORLD);
    return mt_finish();
}
