/* explicit.c - data access with explicit offsets (MPI-4.1 14.4.2): write_at/read_at and their
 * collective and nonblocking forms, noncontiguous memory types, statuses (Get_count and
 * Get_elements, short reads at end of file), requests completed by Waitall, Test and Wait. */
#include "mpitest.h"

#include "iotest.h"

enum { N = 1000 };   /* ints per rank */

static void fill_ints(int *buf, int n, int rank, int salt)
{
    for (int i = 0; i < n; i++)
        buf[i] = rank * 1000003 + i * 7 + salt;
}

static void check_ints(const int *buf, int n, int rank, int salt, const char *what)
{
    for (int i = 0; i < n; i++)
        if (buf[i] != rank * 1000003 + i * 7 + salt) {
            MT_CHECK(0, "%s: int %d is %d, expected %d", what, i, buf[i],
                     rank * 1000003 + i * 7 + salt);
            return;
        }
}

static void check_count(MPI_Status *status, MPI_Datatype type, int expected, const char *what)
{
    int count = -1;
    MPI_Get_count(status, type, &count);
    MT_CHECK_INT(expected, count, what);
}

/* Independent blocking writes and reads of a neighbour's block. */
static void blocking(MPI_File fh)
{
    int out[N], in[N];
    MPI_Status status;
    fill_ints(out, N, mt_rank, 1);
    MT_MPI(MPI_File_write_at(fh, (MPI_Offset)mt_rank * N * 4, out, N, MPI_INT, &status));
    check_count(&status, MPI_INT, N, "write_at count");
    MT_MPI(MPI_File_sync(fh));
    MPI_Barrier(MPI_COMM_WORLD);
    MT_MPI(MPI_File_sync(fh));
    int peer = mt_right();
    memset(in, 0, sizeof in);
    MT_MPI(MPI_File_read_at(fh, (MPI_Offset)peer * N * 4, in, N, MPI_INT, &status));
    check_count(&status, MPI_INT, N, "read_at count");
    check_ints(in, N, peer, 1, "read_at of the right neighbour's block");
    MPI_Barrier(MPI_COMM_WORLD);   /* the block is overwritten next */
}

/* Collective forms with a strided memory type: every other int of a 2N buffer. */
static void collective_strided(MPI_File fh)
{
    static int out[2 * N], in[2 * N];
    int packed[N];
    MPI_Datatype every_other;
    MPI_Type_vector(N, 1, 2, MPI_INT, &every_other);
    MPI_Type_commit(&every_other);
    fill_ints(packed, N, mt_rank, 2);
    for (int i = 0; i < 2 * N; i++)
        out[i] = (i % 2) ? -1 : packed[i / 2];
    MPI_Status status;
    MT_MPI(MPI_File_write_at_all(fh, (MPI_Offset)mt_rank * N * 4, out, 1, every_other, &status));
    check_count(&status, every_other, 1, "write_at_all count");
    MT_MPI(MPI_File_sync(fh));
    MPI_Barrier(MPI_COMM_WORLD);
    MT_MPI(MPI_File_sync(fh));
    for (int i = 0; i < 2 * N; i++)
        in[i] = -7;
    int peer = mt_left();
    MT_MPI(MPI_File_read_at_all(fh, (MPI_Offset)peer * N * 4, in, 1, every_other, &status));
    int elements = -1;
    MPI_Get_elements(&status, every_other, &elements);
    MT_CHECK_INT(N, elements, "read_at_all elements");
    for (int i = 0; i < 2 * N; i++) {
        int expected = (i % 2) ? -7 : peer * 1000003 + (i / 2) * 7 + 2;
        if (in[i] != expected) {
            MT_CHECK(0, "strided read: int %d is %d, expected %d", i, in[i], expected);
            break;
        }
    }
    MPI_Type_free(&every_other);
}

/* Three nonblocking writes completed by Waitall, reads by Test and Wait. */
static void nonblocking(MPI_File fh)
{
    int out[3][N], in[3][N];
    MPI_Request requests[3];
    MPI_Status statuses[3];
    MPI_Offset base = (MPI_Offset)(mt_size + mt_rank * 3) * N * 4;
    for (int k = 0; k < 3; k++) {
        fill_ints(out[k], N, mt_rank, 10 + k);
        if (k == 1)
            MT_MPI(MPI_File_iwrite_at_all(fh, base + k * N * 4, out[k], N, MPI_INT,
                                          &requests[k]));
        else
            MT_MPI(MPI_File_iwrite_at(fh, base + k * N * 4, out[k], N, MPI_INT, &requests[k]));
    }
    MT_MPI(MPI_Waitall(3, requests, statuses));
    for (int k = 0; k < 3; k++) {
        check_count(&statuses[k], MPI_INT, N, "iwrite_at count");
        MT_CHECK(requests[k] == MPI_REQUEST_NULL, "request %d not freed", k);
    }
    MT_MPI(MPI_File_sync(fh));
    MPI_Barrier(MPI_COMM_WORLD);
    MT_MPI(MPI_File_sync(fh));
    memset(in, 0, sizeof in);
    MT_MPI(MPI_File_iread_at(fh, base, in[0], N, MPI_INT, &requests[0]));
    int flag = 0;
    while (!flag)
        MT_MPI(MPI_Test(&requests[0], &flag, &statuses[0]));
    check_count(&statuses[0], MPI_INT, N, "iread_at count");
    MT_MPI(MPI_File_iread_at_all(fh, base + N * 4, in[1], 2 * N, MPI_INT, &requests[1]));
    MT_MPI(MPI_Wait(&requests[1], &statuses[1]));
    check_count(&statuses[1], MPI_INT, 2 * N, "iread_at_all count");
    for (int k = 0; k < 3; k++)
        check_ints(in[k], N, mt_rank, 10 + k, "nonblocking read back");
}

/* A read across the end of file returns what is there; Get_count says how much. */
static void short_read(MPI_File fh)
{
    MPI_Offset size;
    MT_MPI(MPI_File_get_size(fh, &size));
    MT_CHECK_INT((MPI_Offset)4 * mt_size * N * 4, size, "file size");
    int in[N];
    MPI_Status status;
    MT_MPI(MPI_File_read_at(fh, size - 40, in, N, MPI_INT, &status));
    check_count(&status, MPI_INT, 10, "ints read across the end of file");
    for (int i = 0; i < 10; i++)   /* the end of the last rank's third block */
        MT_CHECK_INT((mt_size - 1) * 1000003 + (N - 10 + i) * 7 + 12, in[i], "int at the end");
    MT_MPI(MPI_File_read_at(fh, size - 2, in, 1, MPI_INT, &status));
    check_count(&status, MPI_INT, MPI_UNDEFINED, "half an int at the end of file");
    MPI_Count bytes = -1;
    MPI_Get_elements_x(&status, MPI_BYTE, &bytes);
    MT_CHECK_INT(2, bytes, "bytes read at the end of file");
    MT_MPI(MPI_File_read_at(fh, size + 100, in, N, MPI_INT, &status));
    check_count(&status, MPI_INT, 0, "read beyond the end of file");
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    io_make_dir(MPI_COMM_WORLD);
    char path[512];
    io_path(path, sizeof path, "explicit");
    MPI_File fh;
    MT_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR |
                         MPI_MODE_DELETE_ON_CLOSE, MPI_INFO_NULL, &fh));
    blocking(fh);
    collective_strided(fh);
    nonblocking(fh);
    MPI_Barrier(MPI_COMM_WORLD);
    short_read(fh);
    MT_MPI(MPI_File_close(&fh));
    io_remove_dir(MPI_COMM_WORLD);
    return mt_finish();
}
