/* sieve_read.c - reads through a view of many small blocks with the other ranks' data between
 * them, as HDF5's point selections make them (HDF5 1.10.8 testpar t_bigio: 2 Mi blocks of 8
 * bytes per rank and access, one pread each: 2-3 million system calls per rank). Such a read
 * now reads the span by windows (src/io/access.c, data sieving): checked are the data, the
 * status count when the read meets the end of file in the middle of the span, the bytes around
 * the blocks in memory left alone, atomic mode, and that the read took fewer than N / 16 read
 * system calls (/proc/self/io's syscr; nodempi only: any MPI may read as it likes). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "mpitest.h"

#include "iotest.h"

enum { N = 20000 };   /* 8-byte items per rank */

static int64_t item(int rank, int i)
{
    return (int64_t)rank * 1000003 + i;
}

/* Rank r's items sit at 8 * (i * size + r): a vector filetype of N blocks of one int64. */
static void set_view(MPI_File fh)
{
    MPI_Datatype filetype;
    MT_MPI(MPI_Type_vector(N, 1, mt_size, MPI_INT64_T, &filetype));
    MT_MPI(MPI_Type_commit(&filetype));
    MT_MPI(MPI_File_set_view(fh, (MPI_Offset)mt_rank * 8, MPI_INT64_T, filetype, "native",
                             MPI_INFO_NULL));
    MT_MPI(MPI_Type_free(&filetype));
}

/* Read `count` items from etype `first` of the view (collectively when `all`); `present` of
 * them are in the file. The buffer has a guard item on each side. */
static void read_check(MPI_File fh, int first, int count, int present, int all, const char *what)
{
    int64_t *buf = malloc((size_t)(count + 2) * sizeof(*buf));
    for (int i = 0; i < count + 2; i++)
        buf[i] = -7;
    MPI_Status status;
    long long before = mt_proc_io("syscr:");
    if (all)
        MT_MPI(MPI_File_read_at_all(fh, first, buf + 1, count, MPI_INT64_T, &status));
    else
        MT_MPI(MPI_File_read_at(fh, first, buf + 1, count, MPI_INT64_T, &status));
    long long calls = mt_proc_io("syscr:") - before;
    int got = -1;
    MT_MPI(MPI_Get_count(&status, MPI_INT64_T, &got));
    MT_CHECK_INT(present, got, what);
    int wrong = 0;
    for (int i = 0; i < present && wrong < 5; i++)
        if (buf[1 + i] != item(mt_rank, first + i)) {
            MT_CHECK(0, "%s: item %d is %lld, not %lld", what, first + i, (long long)buf[1 + i],
                     (long long)item(mt_rank, first + i));
            wrong++;
        }
    for (int i = present; i < count && wrong < 5; i++)
        if (buf[1 + i] != -7) {
            MT_CHECK(0, "%s: item %d beyond the end of file was written", what, first + i);
            wrong++;
        }
    MT_CHECK(buf[0] == -7 && buf[count + 1] == -7, "%s: the guard items were overwritten", what);
    if (mt_library_is("nodempi") && before >= 0)
        MT_CHECK(calls < count / 16, "%s: %lld read system calls for %d items", what, calls,
                 count);
    free(buf);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    io_make_dir(MPI_COMM_WORLD);
    char name[300];
    io_path(name, sizeof name, "sieve");
    MPI_File fh;
    MT_MPI(MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL,
                         &fh));
    /* Rank 0 writes everyone's items with a plain byte view; the last rank's last 100 items
     * are left out, so the file ends inside the other ranks' spans. */
    if (mt_rank == 0) {
        size_t total = (size_t)N * mt_size - 100;
        int64_t *all = malloc(total * sizeof(*all));
        for (size_t k = 0; k < total; k++)
            all[k] = item((int)(k % mt_size), (int)(k / mt_size));
        MT_MPI(MPI_File_write_at(fh, 0, all, (int)total, MPI_INT64_T, MPI_STATUS_IGNORE));
        free(all);
    }
    MT_MPI(MPI_File_sync(fh));
    MPI_Barrier(MPI_COMM_WORLD);
    MT_MPI(MPI_File_sync(fh));
    set_view(fh);
    /* Item i of rank r is in the file when its slot i * size + r is below N * size - 100. */
    int present = (N * mt_size - 101 - mt_rank) / mt_size + 1;
    read_check(fh, 0, N, present, 1, "read_at_all of every item");
    read_check(fh, 3, 5000, 5000, 0, "read_at of 5000 items from item 3");
    MT_MPI(MPI_File_set_atomicity(fh, 1));
    read_check(fh, 1000, 9000, 9000, 1, "read_at_all of 9000 items, atomic mode");
    MT_MPI(MPI_File_set_atomicity(fh, 0));
    MT_MPI(MPI_File_close(&fh));
    MPI_Barrier(MPI_COMM_WORLD);
    if (mt_rank == 0)
        MT_MPI(MPI_File_delete(name, MPI_INFO_NULL));
    io_remove_dir(MPI_COMM_WORLD);
    return mt_finish();
}
