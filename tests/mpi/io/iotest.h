/* iotest.h - helpers of the MPI-IO tests: a private temporary directory made by rank 0 and
 * shared with everyone, file names inside it, and its removal. Include after mpitest.h. */
#ifndef IOTEST_H
#define IOTEST_H

#include <unistd.h>

static char io_dir[256];

/* Rank 0 makes /tmp/mpiio-XXXXXX; every rank of comm learns its name. */
static inline void io_make_dir(MPI_Comm comm)
{
    int rank;
    MPI_Comm_rank(comm, &rank);
    if (rank == 0) {
        snprintf(io_dir, sizeof io_dir, "/tmp/mpiio-XXXXXX");
        if (!mkdtemp(io_dir))
            mt_fatal(__FILE__, __LINE__, "mkdtemp failed");
    }
    MPI_Bcast(io_dir, sizeof io_dir, MPI_CHAR, 0, comm);
}

static inline void io_path(char *out, size_t size, const char *name)
{
    snprintf(out, size, "%s/%s", io_dir, name);
}

/* After everyone is done: rank 0 removes the directory, which must be empty by now (each
 * test deletes its files: a leftover is a failure). */
static inline void io_remove_dir(MPI_Comm comm)
{
    int rank;
    MPI_Barrier(comm);
    MPI_Comm_rank(comm, &rank);
    if (rank == 0)
        MT_CHECK(rmdir(io_dir) == 0, "temporary directory %s not empty or not removable", io_dir);
}

/* The byte a writer stores at file offset i in the tests: depends on both. */
static inline unsigned char io_byte(int seed, long long i)
{
    return (unsigned char)(seed * 131 + i * 7 + (i >> 8));
}

#endif
