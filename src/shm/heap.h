/* heap.h - the shared heap: large allocations of an MPI rank live in one memfd that the other
 * ranks of the job map, so a message from or into such a buffer is copied with memcpy through
 * the mapping instead of through the kernel (process_vm_readv pins and maps every page on every
 * call: 2-2.5x the time of a plain cross-core memcpy of 64 KiB - 16 MiB here, docs/benchmarks.md
 * session 15). shm/heap_malloc.c routes malloc & co. of at least SHM_HEAP_MIN_BYTES here in a
 * process started by mpiexec with two or more ranks; everything else stays with the C library.
 * This file owns the reservation, the page allocator over it, its publication in the job
 * segment, the mappings of peers' heaps and the privatisation of the heap in a forked child. */
#ifndef NODEMPI_SHM_HEAP_H
#define NODEMPI_SHM_HEAP_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct shm_header;

/* Allocations of at least this many bytes come from the heap: the sizes at which glibc itself
 * switches to mmap (128 KiB) and above, where the copy dominates a message's cost. */
#define SHM_HEAP_MIN_BYTES (128u << 10)

/* 1 once the heap exists (the process is a rank of a job of 2+ ranks, the C library's malloc is
 * interposed, NODEMPI_SHARED_HEAP is not off and the reservation succeeded). */
extern int shm_heap_active;
/* The reservation: [shm_heap_base, shm_heap_base + shm_heap_bytes). */
extern uintptr_t shm_heap_base;
extern size_t shm_heap_bytes;

/* Create the heap (called once, from heap_malloc.c's constructor). */
void shm_heap_create(void);

/* Is p inside the reservation? The malloc family asks this of every pointer it frees. */
static inline int shm_heap_owns(const void *p)
{
    return (uintptr_t)p - shm_heap_base < shm_heap_bytes;
}

/* Allocate bytes aligned to align (a power of two): NULL when the heap is full, and the caller
 * falls back to the C library. */
void *shm_heap_alloc(size_t bytes, size_t align, int zeroed);
void shm_heap_free(void *p);
/* Bytes usable at p (p from shm_heap_alloc). */
size_t shm_heap_usable(const void *p);

/* The next fork's child calls exec at once (MPI_Comm_spawn starting a launcher): it keeps the
 * shared mapping instead of copying the heap into private memory, which would cost time and
 * memory in proportion to the heap for nothing. Call just before fork(). */
void shm_heap_next_fork_execs(void);

/* Publish this rank's heap in its rank block of the job segment (MPI_Init). */
void shm_heap_publish(struct shm_header *segment, int rank);

/* Remember the job segment, where peers' heaps are published (MPI_Init). */
void shm_heap_peers_attach(struct shm_header *segment);

/* The address in this process at which [remote, remote + len) of process pid can be read and
 * written, when that range lies in pid's heap and pid is a rank of this job whose heap could be
 * mapped; else NULL (the caller copies through the kernel). */
void *shm_heap_peer_address(pid_t pid, uint64_t remote, size_t len);

#endif
