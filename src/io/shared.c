/* shared.c - the shared file pointer: one 64-bit word in a memfd that rank 0 of the file's
 * communicator creates and the others open through /proc/<pid>/fd (same user: the access CMA
 * needs already). A memfd has no name in /dev/shm or on disk, so nothing can leak, whoever
 * dies when: the memory goes with the last mapping. One process alone uses private memory. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "coll/coll.h"
#include "core/comm.h"
#include "io/io.h"

enum { SHARED_BYTES = 4096 };

/* Rank 0: the memfd, sized and mapped. Returns the descriptor or -1. */
static int create_word(void **base)
{
    int fd = memfd_create("nodempi-io-shared", MFD_CLOEXEC);
    if (fd < 0)
        return -1;
    void *p = MAP_FAILED;
    if (ftruncate(fd, SHARED_BYTES) == 0)
        p = mmap(NULL, SHARED_BYTES, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (p == MAP_FAILED) {
        close(fd);
        return -1;
    }
    *base = p;
    return fd;
}

static void *open_word(int64_t pid, int64_t fd)
{
    char path[64];
    snprintf(path, sizeof(path), "/proc/%lld/fd/%lld", (long long)pid, (long long)fd);
    int mine = open(path, O_RDWR | O_CLOEXEC);
    if (mine < 0)
        return NULL;
    void *p = mmap(NULL, SHARED_BYTES, PROT_READ | PROT_WRITE, MAP_SHARED, mine, 0);
    close(mine);
    return p == MAP_FAILED ? NULL : p;
}

/* Every process learns whether all mapped the word (an allgather of flags). */
static int all_mapped(struct core_comm *comm, int mapped)
{
    int *flags = malloc((size_t)comm->size * sizeof(int));
    if (!flags)
        return 0;
    struct dt_type *int_type = dt_from_handle(MPI_INT);
    int ok = coll_allgather(&mapped, 1, int_type, flags, 1, int_type, comm) == MPI_SUCCESS;
    for (int i = 0; ok && i < comm->size; i++)
        ok = flags[i];
    free(flags);
    return ok;
}

int io_shared_create(struct io_shared *shared, struct core_comm *comm)
{
    shared->mapped = comm->size > 1;
    if (!shared->mapped) {
        shared->word = calloc(1, sizeof(*shared->word));
        return shared->word ? MPI_SUCCESS : MPI_ERR_NO_MEM;
    }
    void *base = NULL;
    int64_t where[2] = {getpid(), -1};   /* creator's pid and descriptor */
    if (comm->rank == 0)
        where[1] = create_word(&base);
    int rc = coll_bcast(where, 2, dt_from_handle(MPI_INT64_T), 0, comm);
    if (rc != MPI_SUCCESS)
        return rc;
    if (comm->rank != 0 && where[1] >= 0)
        base = open_word(where[0], where[1]);
    int ok = all_mapped(comm, base != NULL);   /* also keeps rank 0's memfd open till now */
    if (comm->rank == 0 && where[1] >= 0)
        close((int)where[1]);
    if (!ok) {
        if (base)
            munmap(base, SHARED_BYTES);
        return MPI_ERR_OTHER;
    }
    shared->word = base;
    return MPI_SUCCESS;
}

void io_shared_destroy(struct io_shared *shared)
{
    if (!shared->word)
        return;
    if (shared->mapped)
        munmap((void *)shared->word, SHARED_BYTES);
    else
        free((void *)shared->word);
    shared->word = NULL;
}

MPI_Offset io_shared_fetch_add(struct io_shared *shared, MPI_Offset etypes)
{
    return atomic_fetch_add(shared->word, etypes);
}

MPI_Offset io_shared_get(const struct io_shared *shared)
{
    return atomic_load(shared->word);
}

void io_shared_set(struct io_shared *shared, MPI_Offset value)
{
    atomic_store(shared->word, value);
}
