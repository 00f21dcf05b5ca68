/* shmobj.c - one POSIX shm object per window: created by rank 0 of the window's communicator,
 * mapped by every rank, and unlinked as soon as all have mapped it, so nothing stays in
 * /dev/shm even if a rank dies later (the mappings keep the memory alive). The name is
 * /nodempi-<uid>-<id> (shm_segment_name) with the launcher's pid in the id's upper 32 bits,
 * so mpiexec's stale cleanup (tools/mpiexec/job_segment.c) removes the object of a job whose
 * launcher is gone; the lower 32 bits are random, made unique by O_EXCL. Must not know about
 * windows: it returns zero-filled shared memory. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "coll/coll.h"
#include "coll/op.h"
#include "core/comm.h"
#include "datatype/datatype.h"
#include "rma/internal.h"
#include "shm/segment.h"

enum { NAME_BYTES = 64, CREATE_ATTEMPTS = 16 };

/* The launcher's pid (NODEMPI_LAUNCHER_PID) or ours for a singleton. */
static uint32_t owner_pid(void)
{
    const char *env = getenv("NODEMPI_LAUNCHER_PID");
    char *end = NULL;
    long pid = env ? strtol(env, &end, 10) : 0;
    if (!env || *end != '\0' || pid <= 0)
        pid = getpid();
    return (uint32_t)pid;
}

static uint32_t random_low(void)
{
    uint32_t value;
    if (getrandom(&value, sizeof(value), GRND_NONBLOCK) == (ssize_t)sizeof(value))
        return value;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (uint32_t)now.tv_nsec ^ ((uint32_t)getpid() << 12);
}

static void *map_fd(int fd, size_t bytes)
{
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    return p == MAP_FAILED ? NULL : p;
}

/* Rank 0: create, size (reserving the pages now so a full /dev/shm is an error here rather
 * than SIGBUS at the first store) and map. Returns the id, 0 on failure. */
static unsigned long long create_object(size_t bytes, void **base)
{
    char name[NAME_BYTES];
    for (int attempt = 0; attempt < CREATE_ATTEMPTS; attempt++) {
        unsigned long long id = ((unsigned long long)owner_pid() << 32) | random_low();
        if (id == 0)
            continue;
        shm_segment_name(name, sizeof(name), id);
        int fd = shm_open(name, O_CREAT | O_EXCL | O_RDWR, 0600);
        if (fd < 0 && errno == EEXIST)
            continue;
        if (fd < 0)
            return 0;
        int ok = ftruncate(fd, (off_t)bytes) == 0 && posix_fallocate(fd, 0, (off_t)bytes) == 0;
        *base = ok ? map_fd(fd, bytes) : NULL;
        close(fd);
        if (!*base) {
            shm_unlink(name);
            return 0;
        }
        return id;
    }
    return 0;
}

static void *open_object(unsigned long long id, size_t bytes)
{
    char name[NAME_BYTES];
    shm_segment_name(name, sizeof(name), id);
    int fd = shm_open(name, O_RDWR, 0600);
    if (fd < 0)
        return NULL;
    struct stat st;
    void *base = fstat(fd, &st) == 0 && (size_t)st.st_size >= bytes ? map_fd(fd, bytes) : NULL;
    close(fd);
    return base;
}

int rma_shm_create(struct core_comm *comm, size_t bytes, void **base)
{
    struct dt_type *u64 = dt_from_handle(MPI_UINT64_T);
    struct dt_type *i32 = dt_from_handle(MPI_INT);
    unsigned long long id = 0;
    *base = NULL;
    if (comm->rank == 0)
        id = create_object(bytes, base);
    int rc = coll_bcast(&id, 1, u64, 0, comm);
    if (rc != MPI_SUCCESS) {
        if (*base)
            munmap(*base, bytes);
        *base = NULL;
        return rc;
    }
    if (id != 0 && comm->rank != 0)
        *base = open_object(id, bytes);
    /* Everyone has mapped (or failed) once this allreduce is done: the name can go. */
    int failed = *base == NULL, any_failed = 1;
    rc = coll_allreduce(&failed, &any_failed, 1, i32, coll_op_from_handle(MPI_MAX), comm);
    if (comm->rank == 0 && id != 0) {
        char name[NAME_BYTES];
        shm_segment_name(name, sizeof(name), id);
        shm_unlink(name);
    }
    if (rc == MPI_SUCCESS && !any_failed)
        return MPI_SUCCESS;
    if (*base)
        munmap(*base, bytes);
    *base = NULL;
    return rc != MPI_SUCCESS ? rc : MPI_ERR_NO_MEM;
}
