/* atomic.c - atomic mode (MPI-4.1 14.6.1): with MPI_File_set_atomicity(1), concurrent
 * overlapping writes of all ranks through a strided view (many file pieces per call) must each
 * land whole: every tile of the file ends up with the bytes of a single writer, and a reader
 * concurrent with the writers sees either old or new data per call, never a mix. */
#include "mpitest.h"

#include "iotest.h"

enum { PIECE = 512, PIECES = 64, ROUNDS = 20 };

/* All PIECES pieces of the view hold one writer's bytes (seed: writer + 1). */
static int single_writer(const unsigned char *buf, size_t n)
{
    for (size_t i = 1; i < n; i++)
        if (buf[i] != buf[0])
            return 0;
    return buf[0] >= 1 && buf[0] <= mt_size;
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    io_make_dir(MPI_COMM_WORLD);
    char path[512];
    io_path(path, sizeof path, "atomic");
    MPI_File fh;
    MT_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR |
                         MPI_MODE_DELETE_ON_CLOSE, MPI_INFO_NULL, &fh));
    MT_MPI(MPI_File_set_atomicity(fh, 1));
    /* Every other PIECE bytes: each write is PIECES separate pieces of the file. */
    MPI_Datatype filetype;
    MPI_Type_vector(PIECES, PIECE, 2 * PIECE, MPI_BYTE, &filetype);
    MPI_Type_commit(&filetype);
    MT_MPI(MPI_File_set_view(fh, 0, MPI_BYTE, filetype, "native", MPI_INFO_NULL));
    size_t n = (size_t)PIECE * PIECES;
    unsigned char *out = malloc(n), *in = malloc(n);
    memset(out, mt_rank + 1, n);
    if (mt_rank == 0)
        MT_MPI(MPI_File_write_at(fh, 0, out, (int)n, MPI_BYTE, MPI_STATUS_IGNORE));
    MPI_Barrier(MPI_COMM_WORLD);
    for (int round = 0; round < ROUNDS; round++) {
        if (round % 2 == 0 || mt_rank % 2 == 0) {
            MT_MPI(MPI_File_write_at(fh, 0, out, (int)n, MPI_BYTE, MPI_STATUS_IGNORE));
        } else {
            MT_MPI(MPI_File_read_at(fh, 0, in, (int)n, MPI_BYTE, MPI_STATUS_IGNORE));
            MT_CHECK(single_writer(in, n), "round %d: a read saw a mix of writers", round);
        }
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MT_MPI(MPI_File_read_at(fh, 0, in, (int)n, MPI_BYTE, MPI_STATUS_IGNORE));
    MT_CHECK(single_writer(in, n), "the file holds a mix of writers");
    int flag = 0;
    MT_MPI(MPI_File_get_atomicity(fh, &flag));
    MT_CHECK_INT(1, flag, "atomicity");
    MPI_Type_free(&filetype);
    free(out);
    free(in);
    MT_MPI(MPI_File_close(&fh));
    io_remove_dir(MPI_COMM_WORLD);
    return mt_finish();
}
