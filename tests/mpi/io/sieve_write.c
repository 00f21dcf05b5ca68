/* sieve_write.c - collective writes through views of many small blocks with the other ranks'
 * data and untouched bytes between them (HDF5's point selections: HDF5 1.10.8 testpar t_bigio
 * wrote 2 Mi blocks of 8 bytes per rank and access with one pwrite each, 3.1 million write
 * system calls per rank). nodempi now sieves such a write_all / write_at_all (src/io/access.c:
 * read a window, copy the blocks in, write it back, every writer of the collective locked):
 * checked are the data of every rank, the bytes between the blocks that nobody writes (they
 * must keep what was there), a collective in which rank 0 writes nothing, one in which it
 * writes a contiguous run inside the others' span, and the write system calls (/proc/self/io's
 * syscw, nodempi only). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "mpitest.h"

#include "iotest.h"

enum { N = 8000 };   /* blocks per rank */

/* The file has 2 * N * size slots of 8 bytes; rank r writes slots 2 * i * size + r. */
static int64_t before_value(long long slot)
{
    return -slot - 1;
}

static int64_t item(int round, int rank, int i)
{
    return (int64_t)round * 100000000 + (int64_t)rank * 1000003 + i;
}

static void set_view(MPI_File fh)
{
    MPI_Datatype filetype;
    MT_MPI(MPI_Type_vector(N, 1, 2 * mt_size, MPI_INT64_T, &filetype));
    MT_MPI(MPI_Type_commit(&filetype));
    MT_MPI(MPI_File_set_view(fh, (MPI_Offset)mt_rank * 8, MPI_INT64_T, filetype, "native",
                             MPI_INFO_NULL));
    MT_MPI(MPI_Type_free(&filetype));
}

/* Everyone writes round `round` of its items, rank 0 only when `with_rank0`. */
static void write_round(MPI_File fh, int round, int with_rank0)
{
    int64_t *data = malloc(N * sizeof(*data));
    for (int i = 0; i < N; i++)
        data[i] = item(round, mt_rank, i);
    int count = mt_rank == 0 && !with_rank0 ? 0 : N;
    long long calls = mt_proc_io("syscw:");
    MT_MPI(MPI_File_write_at_all(fh, 0, data, count, MPI_INT64_T, MPI_STATUS_IGNORE));
    calls = mt_proc_io("syscw:") - calls;
    if (mt_library_is("nodempi") && calls >= 0 && count > 0 && mt_size > 1)
        MT_CHECK(calls < N / 16, "round %d: %lld write system calls for %d blocks", round, calls,
                 N);
    free(data);
}

/* Rank 0 checks every slot: slot k = 2 * i * size + r holds rank r's item i of `round` (of
 * `round0` for rank 0), the odd-numbered runs of slots their value from before. */
static void check_file(const char *name, int round, int round0)
{
    if (mt_rank != 0)
        return;
    MPI_File fh;
    long long slots = 2LL * N * mt_size;
    int64_t *all = malloc((size_t)slots * sizeof(*all));
    MT_MPI(MPI_File_open(MPI_COMM_SELF, name, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh));
    MT_MPI(MPI_File_read_at(fh, 0, all, (int)slots, MPI_INT64_T, MPI_STATUS_IGNORE));
    MT_MPI(MPI_File_close(&fh));
    int wrong = 0;
    for (long long k = 0; k < slots && wrong < 5; k++) {
        long long i = k / (2 * mt_size), r = k % (2 * mt_size);
        int64_t want = r < mt_size ? item(r == 0 ? round0 : round, (int)r, (int)i)
                                   : before_value(k);
        if (all[k] != want) {
            MT_CHECK(0, "round %d: slot %lld is %lld, not %lld", round, k, (long long)all[k],
                     (long long)want);
            wrong++;
        }
    }
    free(all);
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
    if (mt_rank == 0) {
        long long slots = 2LL * N * mt_size;
        int64_t *all = malloc((size_t)slots * sizeof(*all));
        for (long long k = 0; k < slots; k++)
            all[k] = before_value(k);
        MT_MPI(MPI_File_write_at(fh, 0, all, (int)slots, MPI_INT64_T, MPI_STATUS_IGNORE));
        free(all);
    }
    MT_MPI(MPI_File_sync(fh));
    MPI_Barrier(MPI_COMM_WORLD);
    MT_MPI(MPI_File_sync(fh));
    set_view(fh);
    write_round(fh, 1, 1);
    MT_MPI(MPI_File_sync(fh));
    check_file(name, 1, 1);
    MPI_Barrier(MPI_COMM_WORLD);
    write_round(fh, 2, 0);   /* rank 0 writes nothing; its items stay round 1's */
    MT_MPI(MPI_File_sync(fh));
    check_file(name, 2, 1);
    MPI_Barrier(MPI_COMM_WORLD);
    /* Rank 0 writes one item (8 contiguous bytes in the middle of the others' spans, not
     * sieved, locked) while the others write round 3 sieved: it must not be lost to their
     * windows. */
    if (mt_rank == 0) {
        int64_t mid = item(3, 0, N / 2);
        MT_MPI(MPI_File_write_at_all(fh, N / 2, &mid, 1, MPI_INT64_T, MPI_STATUS_IGNORE));
    } else {
        write_round(fh, 3, 1);
    }
    MT_MPI(MPI_File_sync(fh));
    MPI_Barrier(MPI_COMM_WORLD);
    if (mt_rank == 0) {
        /* Check that item, then put round 1's back for check_file. */
        long long slot = 2LL * (N / 2) * mt_size;
        int64_t got = 0, back = item(1, 0, N / 2);
        MPI_File self;
        MT_MPI(MPI_File_open(MPI_COMM_SELF, name, MPI_MODE_RDWR, MPI_INFO_NULL, &self));
        MT_MPI(MPI_File_read_at(self, slot * 8, &got, 1, MPI_INT64_T, MPI_STATUS_IGNORE));
        MT_CHECK(got == item(3, 0, N / 2), "rank 0's contiguous write was lost: %lld",
                 (long long)got);
        MT_MPI(MPI_File_write_at(self, slot * 8, &back, 1, MPI_INT64_T, MPI_STATUS_IGNORE));
        MT_MPI(MPI_File_close(&self));
    }
    check_file(name, 3, 1);
    MT_MPI(MPI_File_close(&fh));
    MPI_Barrier(MPI_COMM_WORLD);
    if (mt_rank == 0)
        MT_MPI(MPI_File_delete(name, MPI_INFO_NULL));
    io_remove_dir(MPI_COMM_WORLD);
    return mt_finish();
}
