/* datarep.c - user data representations (MPI_Register_datarep, MPI-4.1 14.5.3): a
 * representation that stores 4-byte integers byte-swapped, registered on every rank; each rank
 * writes its block through a view naming it (from a contiguous buffer and from a strided vector
 * type), the raw bytes read back through a "native" view are the swapped values, reading through
 * the representation gives the originals. Also: the conversion functions see the caller's
 * datatype, count, position and extra_state; MPI_CONVERSION_FN_NULL stores native bytes; the _c
 * registration; MPI_File_get_type_extent asks the extent function; a failing conversion is
 * MPI_ERR_CONVERSION; a representation whose extents differ from native sizes is refused by
 * MPI_File_set_view (MPI_ERR_UNSUPPORTED_DATAREP); names taken and bad arguments. */
#include "mpitest.h"

#include <string.h>

#include "iotest.h"

enum { N = 12 };

struct calls {
    int reads, writes, extents;
    long long last_position;
};

static uint32_t swap32(uint32_t v) { return __builtin_bswap32(v); }

static int extent_native(MPI_Datatype type, MPI_Aint *extent, void *extra)
{
    struct calls *c = extra;
    c->extents++;
    int size;
    MPI_Type_size(type, &size);
    *extent = size;
    return MPI_SUCCESS;
}

/* The conversions get the user's buffer and datatype: pack items [position, position + count)
 * natively, then swap each 4-byte word (the test's types are made of MPI_INT only). */
static int write_swapped(void *userbuf, MPI_Datatype type, int count, void *filebuf,
                         MPI_Offset position, void *extra)
{
    struct calls *c = extra;
    c->writes++;
    c->last_position = position;
    MPI_Aint lb, extent;
    int size;
    MPI_Type_get_extent(type, &lb, &extent);
    MPI_Type_size(type, &size);
    int packed = 0;
    char *first = (char *)userbuf + position * extent;
    MPI_Pack(first, count, type, filebuf, count * size, &packed, MPI_COMM_SELF);
    uint32_t *words = filebuf;
    for (int i = 0; i < packed / 4; i++)
        words[i] = swap32(words[i]);
    return MPI_SUCCESS;
}

static int read_swapped(void *userbuf, MPI_Datatype type, int count, void *filebuf,
                        MPI_Offset position, void *extra)
{
    struct calls *c = extra;
    c->reads++;
    c->last_position = position;
    MPI_Aint lb, extent;
    int size;
    MPI_Type_get_extent(type, &lb, &extent);
    MPI_Type_size(type, &size);
    uint32_t *native = malloc((size_t)count * (size_t)size + 1);
    const uint32_t *words = filebuf;
    for (int i = 0; i < count * size / 4; i++)
        native[i] = swap32(words[i]);
    int at = 0;
    MPI_Unpack(native, count * size, &at, (char *)userbuf + position * extent, count, type,
               MPI_COMM_SELF);
    free(native);
    return MPI_SUCCESS;
}

static int write_swapped_c(void *userbuf, MPI_Datatype type, MPI_Count count, void *filebuf,
                           MPI_Offset position, void *extra)
{
    return write_swapped(userbuf, type, (int)count, filebuf, position, extra);
}

static int read_swapped_c(void *userbuf, MPI_Datatype type, MPI_Count count, void *filebuf,
                          MPI_Offset position, void *extra)
{
    return read_swapped(userbuf, type, (int)count, filebuf, position, extra);
}

static int extent_wide(MPI_Datatype type, MPI_Aint *extent, void *extra)
{
    (void)type;
    (void)extra;
    *extent = 8; /* an int takes 8 bytes in this representation: not the native layout */
    return MPI_SUCCESS;
}

static int write_fails(void *userbuf, MPI_Datatype type, int count, void *filebuf,
                       MPI_Offset position, void *extra)
{
    (void)userbuf, (void)type, (void)count, (void)filebuf, (void)position, (void)extra;
    return MPI_ERR_OTHER;
}

static int value(int rank, int i) { return 0x01020304 * (rank + 1) + i * 0x10001; }

/* Write this rank's N ints at int offset rank * N through datarep, from a contiguous buffer
 * (vector = 0) or from every other int of a 2N buffer (vector = 1). */
static void write_block(MPI_File fh, const char *datarep, int vector)
{
    MT_MPI(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, datarep, MPI_INFO_NULL));
    int data[2 * N];
    for (int i = 0; i < 2 * N; i++)
        data[i] = vector ? (i % 2 ? -1 : value(mt_rank, i / 2)) : value(mt_rank, i);
    MPI_Datatype type = MPI_INT;
    int count = N;
    if (vector) {
        MT_MPI(MPI_Type_vector(N, 1, 2, MPI_INT, &type));
        MT_MPI(MPI_Type_commit(&type));
        count = 1;
    }
    MPI_Status status;
    MT_MPI(MPI_File_write_at_all(fh, (MPI_Offset)mt_rank * N, data, count, type, &status));
    int got = -1;
    MPI_Get_count(&status, type, &got);
    MT_CHECK_INT(count, got, "items written");
    if (vector)
        MPI_Type_free(&type);
    MT_MPI(MPI_File_sync(fh));
    MPI_Barrier(MPI_COMM_WORLD);
    MT_MPI(MPI_File_sync(fh));
}

/* Every rank's block, read raw (native view) and through datarep. */
static void check_blocks(MPI_File fh, const char *datarep, int swapped)
{
    int raw[N], converted[N];
    for (int r = 0; r < mt_size; r++) {
        MT_MPI(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "native", MPI_INFO_NULL));
        MT_MPI(MPI_File_read_at(fh, (MPI_Offset)r * N, raw, N, MPI_INT, MPI_STATUS_IGNORE));
        MT_MPI(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, datarep, MPI_INFO_NULL));
        MT_MPI(MPI_File_read_at(fh, (MPI_Offset)r * N, converted, N, MPI_INT,
                                MPI_STATUS_IGNORE));
        for (int i = 0; i < N; i++) {
            uint32_t want = (uint32_t)value(r, i);
            MT_CHECK_INT(swapped ? swap32(want) : want, (uint32_t)raw[i], "raw int in the file");
            MT_CHECK_INT(value(r, i), converted[i], "int read through the representation");
        }
    }
}

static void check_errors(MPI_File fh, struct calls *calls)
{
    int rc = MPI_Register_datarep("swap32", read_swapped, write_swapped, extent_native, calls);
    MT_CHECK_ERRCLASS(rc, MPI_ERR_DUP_DATAREP, "registering a name twice");
    rc = MPI_Register_datarep("external32", NULL, NULL, extent_native, NULL);
    MT_CHECK_ERRCLASS(rc, MPI_ERR_DUP_DATAREP, "registering external32");
    rc = MPI_Register_datarep("", NULL, NULL, extent_native, NULL);
    MT_CHECK_ERRCLASS(rc, MPI_ERR_ARG, "an empty name");
    rc = MPI_Register_datarep("no-extent", NULL, NULL, NULL, NULL);
    MT_CHECK_ERRCLASS(rc, MPI_ERR_ARG, "no extent function");

    MT_MPI(MPI_Register_datarep("wide", NULL, NULL, extent_wide, NULL));
    rc = MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "wide", MPI_INFO_NULL);
    MT_CHECK_ERRCLASS(rc, MPI_ERR_UNSUPPORTED_DATAREP, "ints of 8 bytes in the file");
    rc = MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "never-registered", MPI_INFO_NULL);
    MT_CHECK_ERRCLASS(rc, MPI_ERR_UNSUPPORTED_DATAREP, "a name nobody registered");

    MT_MPI(MPI_Register_datarep("fails", read_swapped, write_fails, extent_native, calls));
    MT_MPI(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "fails", MPI_INFO_NULL));
    int data[N] = {0};
    rc = MPI_File_write_at(fh, 0, data, N, MPI_INT, MPI_STATUS_IGNORE);
    MT_CHECK_ERRCLASS(rc, MPI_ERR_CONVERSION, "a write conversion that fails");
    MT_MPI(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "native", MPI_INFO_NULL));
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    io_make_dir(MPI_COMM_WORLD);
    char path[512];
    io_path(path, sizeof path, "datarep");
    struct calls calls = {0}, calls_c = {0};
    MT_MPI(MPI_Register_datarep("swap32", read_swapped, write_swapped, extent_native, &calls));
    MT_MPI(MPI_Register_datarep_c("swap32-c", read_swapped_c, write_swapped_c, extent_native,
                                  &calls_c));
    MT_MPI(MPI_Register_datarep("same-bytes", MPI_CONVERSION_FN_NULL, MPI_CONVERSION_FN_NULL,
                                extent_native, &calls));
    MPI_File fh;
    MT_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL,
                         &fh));

    write_block(fh, "swap32", 0);
    MT_CHECK(calls.extents > 0, "the extent function was never asked");
    MT_CHECK_INT(1, calls.writes, "write conversions for one contiguous write");
    MT_CHECK_INT(0, calls.last_position, "position of the first item");
    check_blocks(fh, "swap32", 1);
    MT_CHECK_INT(mt_size, calls.reads, "read conversions, one per block read");

    write_block(fh, "swap32", 1); /* a strided memory type: the function gets it */
    check_blocks(fh, "swap32", 1);
    write_block(fh, "swap32-c", 0);
    MT_CHECK(calls_c.writes == 1 && calls_c.reads == 0, "the _c functions: %d writes %d reads",
             calls_c.writes, calls_c.reads);
    check_blocks(fh, "swap32-c", 1);
    write_block(fh, "same-bytes", 0);
    check_blocks(fh, "same-bytes", 0);

    MT_MPI(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "swap32", MPI_INFO_NULL));
    MPI_Aint extent = -1;
    int asked = calls.extents;
    MT_MPI(MPI_File_get_type_extent(fh, MPI_DOUBLE, &extent));
    MT_CHECK_INT(8, extent, "file extent of MPI_DOUBLE");
    MT_CHECK(calls.extents > asked, "MPI_File_get_type_extent did not ask the extent function");
    char rep[MPI_MAX_DATAREP_STRING];
    MPI_Offset disp;
    MPI_Datatype etype, filetype;
    MT_MPI(MPI_File_get_view(fh, &disp, &etype, &filetype, rep));
    MT_CHECK(strcmp(rep, "swap32") == 0, "get_view names \"%s\"", rep);

    check_errors(fh, &calls);
    MT_MPI(MPI_File_close(&fh));
    MPI_Barrier(MPI_COMM_WORLD);
    if (mt_rank == 0)
        MT_MPI(MPI_File_delete(path, MPI_INFO_NULL));
    io_remove_dir(MPI_COMM_WORLD);
    return mt_finish();
}
