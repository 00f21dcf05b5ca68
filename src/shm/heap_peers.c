/* heap_peers.c - other ranks' shared heaps (heap.h), mapped into this process on first use.
 * A copy from or into a peer's buffer asks for the address of that range here: a rank of the
 * same job whose heap holds the whole range answers with its mapping, anything else (a process
 * of another job, memory outside the heap, a peer whose memfd cannot be opened) answers NULL
 * and the caller goes through the kernel. Peers are found by pid in the job segment's rank
 * blocks; a mapping is kept until the process exits. MPI calls reach here one thread at a
 * time (the big lock of MPI_THREAD_MULTIPLE, core/thread.h), so the table needs no lock. */
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "shm/heap.h"
#include "shm/segment.h"

enum peer_state { PEER_UNKNOWN = 0, PEER_MAPPED, PEER_NONE };

struct peer_heap {
    pid_t pid;
    enum peer_state state;
    uint64_t remote_base;
    size_t bytes;
    char *local;
};

static struct shm_header *job_segment;
static struct peer_heap *peers; /* one per rank of the job, indexed by rank */
static int last_rank;           /* the rank the last lookup found: messages come in streams */
static pid_t own_pid;

void shm_heap_peers_attach(struct shm_header *segment)
{
    if (!shm_heap_active || peers)
        return;
    own_pid = getpid();
    peers = calloc(segment->nranks, sizeof(*peers));
    if (peers)
        job_segment = segment;
}

/* Map rank's heap, if it published one: open its memfd through /proc and map all of it. */
static void map_peer(int rank, struct peer_heap *peer)
{
    struct shm_rank_block *block = shm_rank_block(job_segment, rank);
    /* acquire: pairs with the publisher's release; fd, base and size are then valid */
    if (!atomic_load_explicit(&block->heap_published, memory_order_acquire)) {
        return; /* not yet (or never): asked again next time */
    }
    peer->state = PEER_NONE;
    char path[64];
    snprintf(path, sizeof(path), "/proc/%d/fd/%d", (int)peer->pid, block->heap_fd);
    int fd = open(path, O_RDWR | O_CLOEXEC);
    if (fd < 0)
        return;
    void *local = mmap(NULL, block->heap_bytes, PROT_READ | PROT_WRITE,
                       MAP_SHARED | MAP_NORESERVE, fd, 0);
    close(fd);
    if (local == MAP_FAILED)
        return;
    peer->remote_base = block->heap_base;
    peer->bytes = block->heap_bytes;
    peer->local = local;
    peer->state = PEER_MAPPED;
}

static struct peer_heap *find_peer(pid_t pid)
{
    int nranks = (int)job_segment->nranks;
    if (peers[last_rank].pid == pid)
        return &peers[last_rank];
    for (int r = 0; r < nranks; r++) {
        struct peer_heap *peer = &peers[r];
        if (!peer->pid) /* relaxed: the pid was stored before the init barrier we passed */
            peer->pid = atomic_load_explicit(&shm_rank_block(job_segment, r)->pid,
                                             memory_order_relaxed);
        if (peer->pid == pid) {
            last_rank = r;
            return peer;
        }
    }
    return NULL;
}

void *shm_heap_peer_address(pid_t pid, uint64_t remote, size_t len)
{
    if (!peers)
        return NULL;
    if (pid == own_pid) /* our own heap: the address itself */
        return shm_heap_owns((void *)(uintptr_t)remote) &&
                       len <= shm_heap_bytes - (remote - shm_heap_base)
                   ? (void *)(uintptr_t)remote
                   : NULL;
    struct peer_heap *peer = find_peer(pid);
    if (!peer)
        return NULL;
    if (peer->state == PEER_UNKNOWN)
        map_peer((int)(peer - peers), peer);
    if (peer->state != PEER_MAPPED)
        return NULL;
    uint64_t offset = remote - peer->remote_base;
    if (offset >= peer->bytes || len > peer->bytes - offset)
        return NULL;
    return peer->local + offset;
}
