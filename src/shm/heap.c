/* heap.c - the shared heap (see heap.h): one memfd per rank, mapped MAP_SHARED over a fixed
 * reservation, carved into page-granular blocks by a first-fit allocator under one mutex (only
 * allocations of SHM_HEAP_MIN_BYTES or more come here, so the lock is taken rarely). Each block
 * starts with a header page; the user's pointer follows it, page-aligned (or more). Freed
 * blocks keep their pages, as glibc keeps freed memory in its heap, until more than
 * RESIDENT_FREE_MAX bytes are free: then every free page is returned to the kernel (hole
 * punched in the memfd). A forked child gets a private copy of the heap (pthread_atfork), so
 * parent and child never share memory that fork should have copied. Peers' heaps are mapped on
 * first use, through /proc/<pid>/fd/<n> (the same ptrace permission CMA needs). */
#include "shm/heap.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/falloc.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include "shm/segment.h"

enum {
    PAGE = 4096,
    MAX_FREE_EXTENTS = 4096,
    MAX_PEERS = 1024,
};
/* 64 GiB of address space per rank (sparse: memory is taken only as pages are touched); a
 * rank that needs more falls back to the C library for the rest. */
#define HEAP_RESERVE_BYTES ((size_t)64 << 30)
/* Freed pages kept for reuse before they are returned (a program that allocates and frees a
 * large buffer in a loop then pays no page faults, as with glibc's heap). */
#define RESIDENT_FREE_MAX ((size_t)64 << 20)
#define HEADER_MAGIC 0x6e6f64656d706970ull

int shm_heap_active;
uintptr_t shm_heap_base;
size_t shm_heap_bytes;

/* The page before every user pointer. */
struct block_header {
    uint64_t magic;
    uint64_t first_page; /* the block's first page (its header may lie further in) */
    uint64_t pages;      /* the block's length in pages */
    uint64_t usable;     /* bytes from the user pointer to the block's end */
};

struct extent {
    size_t first, pages;
};

static struct {
    pthread_mutex_t lock;
    int fd;
    int shared;                 /* 0 in a forked child: private memory, never published */
    size_t capacity;            /* pages in the reservation */
    size_t top;                 /* pages below this were handed out at least once */
    size_t dirty_top;           /* pages below this may hold data (not zero) */
    size_t resident_free;       /* freed pages not yet returned to the kernel */
    int nfree;
    struct extent free[MAX_FREE_EXTENTS]; /* sorted by first page, never adjacent */
} heap = {.lock = PTHREAD_MUTEX_INITIALIZER, .fd = -1};

static char *page_address(size_t page) { return (char *)shm_heap_base + page * PAGE; }

static void punch(size_t first, size_t pages)
{
    if (pages)
        (void)fallocate(heap.fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
                        (off_t)(first * PAGE), (off_t)(pages * PAGE));
}

/* Return every free page to the kernel. */
static void release_free_pages(void)
{
    int saved = errno;
    for (int i = 0; i < heap.nfree; i++)
        punch(heap.free[i].first, heap.free[i].pages);
    punch(heap.top, heap.dirty_top - heap.top);
    heap.dirty_top = heap.top;
    heap.resident_free = 0;
    errno = saved;
}

/* Set by shm_heap_next_fork_execs, cleared by the fork handlers. Only the thread about to
 * fork sets it; both handlers run under the lock in the forking thread. */
static int next_fork_execs;

void shm_heap_next_fork_execs(void) { next_fork_execs = 1; }

static void fork_prepare(void) { pthread_mutex_lock(&heap.lock); }
static void fork_parent(void)
{
    next_fork_execs = 0;
    pthread_mutex_unlock(&heap.lock);
}

/* The child of a fork: copy the blocks in use out, map private memory over the reservation and
 * move the copies back, so neither process sees the other's later writes. */
static void fork_child(void)
{
    if (next_fork_execs) {
        next_fork_execs = 0;
        heap.shared = 0;
        pthread_mutex_unlock(&heap.lock);
        return;
    }
    size_t used = heap.top * PAGE;
    char *copy = used ? mmap(NULL, used, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                             -1, 0)
                      : NULL;
    if (copy != MAP_FAILED) {
        if (used)
            memcpy(copy, page_address(0), used);
        void *fresh = mmap((void *)shm_heap_base, shm_heap_bytes, PROT_READ | PROT_WRITE,
                           MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED | MAP_NORESERVE, -1, 0);
        if (fresh != MAP_FAILED && used &&
            mremap(copy, used, used, MREMAP_MAYMOVE | MREMAP_FIXED, page_address(0)) ==
                MAP_FAILED) {
            memcpy(page_address(0), copy, used);
            munmap(copy, used);
        }
    }
    close(heap.fd);
    heap.fd = -1;
    heap.shared = 0;
    pthread_mutex_unlock(&heap.lock);
}

void shm_heap_create(void)
{
    const char *setting = getenv("NODEMPI_SHARED_HEAP");
    if (setting && strcmp(setting, "off") == 0)
        return;
    /* Under an address-space limit the reservation would take the program's own room. */
    struct rlimit limit;
    if (getrlimit(RLIMIT_AS, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY)
        return;
    int fd = memfd_create("nodempi-heap", MFD_CLOEXEC);
    if (fd < 0)
        return;
    size_t bytes = HEAP_RESERVE_BYTES;
    if (ftruncate(fd, (off_t)bytes) != 0) {
        close(fd);
        return;
    }
    void *base = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_NORESERVE, fd, 0);
    if (base == MAP_FAILED) {
        close(fd);
        return;
    }
    heap.fd = fd;
    heap.shared = 1;
    heap.capacity = bytes / PAGE;
    shm_heap_base = (uintptr_t)base;
    shm_heap_bytes = bytes;
    pthread_atfork(fork_prepare, fork_parent, fork_child);
    shm_heap_active = 1;
}

/* First fit among the free extents, else fresh pages at the top. Returns the first page or
 * (size_t)-1. Called with the lock held. */
static size_t take_pages(size_t pages, int *was_dirty)
{
    for (int i = 0; i < heap.nfree; i++) {
        struct extent *e = &heap.free[i];
        if (e->pages < pages)
            continue;
        size_t first = e->first;
        e->first += pages;
        e->pages -= pages;
        if (e->pages == 0) {
            memmove(e, e + 1, (size_t)(heap.nfree - i - 1) * sizeof(*e));
            heap.nfree--;
        }
        heap.resident_free = heap.resident_free > pages ? heap.resident_free - pages : 0;
        *was_dirty = 1;
        return first;
    }
    if (pages > heap.capacity - heap.top)
        return (size_t)-1;
    size_t first = heap.top;
    heap.top += pages;
    *was_dirty = first < heap.dirty_top;
    if (heap.top > heap.dirty_top) {
        heap.dirty_top = heap.top;
    } else {
        size_t reused = pages < heap.resident_free ? pages : heap.resident_free;
        heap.resident_free -= reused;
    }
    return first;
}

/* Give [first, first + pages) back, merging with its neighbours and the top. Lock held. */
static void give_pages(size_t first, size_t pages)
{
    heap.resident_free += pages;
    int i = 0;
    while (i < heap.nfree && heap.free[i].first < first)
        i++;
    struct extent *before = i > 0 ? &heap.free[i - 1] : NULL;
    struct extent *after = i < heap.nfree ? &heap.free[i] : NULL;
    if (before && before->first + before->pages == first) {
        before->pages += pages;
        if (after && first + pages == after->first) {
            before->pages += after->pages;
            memmove(after, after + 1, (size_t)(heap.nfree - i - 1) * sizeof(*after));
            heap.nfree--;
        }
    } else if (after && first + pages == after->first) {
        after->first = first;
        after->pages += pages;
    } else if (heap.nfree < MAX_FREE_EXTENTS) {
        memmove(&heap.free[i + 1], &heap.free[i], (size_t)(heap.nfree - i) * sizeof(*after));
        heap.free[i] = (struct extent){first, pages};
        heap.nfree++;
    } else { /* the table is full: return the pages and lose the addresses */
        punch(first, pages);
        heap.resident_free -= pages;
        return;
    }
    /* the last extent ends at the top: the top comes down */
    struct extent *last = &heap.free[heap.nfree - 1];
    if (last->first + last->pages == heap.top) {
        heap.top = last->first;
        heap.nfree--;
    }
    if (heap.resident_free * PAGE > RESIDENT_FREE_MAX)
        release_free_pages();
}

void *shm_heap_alloc(size_t bytes, size_t align, int zeroed)
{
    if (align < PAGE)
        align = PAGE;
    if (bytes > shm_heap_bytes || align > shm_heap_bytes)
        return NULL;
    /* a header page, then the user's bytes at the first aligned address after it */
    size_t pages = (PAGE + (align - PAGE) + bytes + PAGE - 1) / PAGE;
    int dirty = 0;
    pthread_mutex_lock(&heap.lock);
    size_t first = take_pages(pages, &dirty);
    pthread_mutex_unlock(&heap.lock);
    if (first == (size_t)-1)
        return NULL;
    uintptr_t start = (uintptr_t)page_address(first);
    uintptr_t user = (start + PAGE + align - 1) & ~(uintptr_t)(align - 1);
    struct block_header *header = (struct block_header *)(user - PAGE);
    header->magic = HEADER_MAGIC;
    header->first_page = first;
    header->pages = pages;
    header->usable = start + pages * PAGE - user;
    if (zeroed && dirty)
        memset((void *)user, 0, header->usable);
    return (void *)user;
}

static struct block_header *header_of(const void *p)
{
    struct block_header *header = (struct block_header *)((uintptr_t)p - PAGE);
    if (((uintptr_t)p & (PAGE - 1)) || !shm_heap_owns(header) || header->magic != HEADER_MAGIC) {
        fprintf(stderr, "nodempi: free(): invalid pointer %p (not a block of the shared heap)\n",
                p);
        abort();
    }
    return header;
}

void shm_heap_free(void *p)
{
    struct block_header *header = header_of(p);
    size_t first = header->first_page, pages = header->pages;
    header->magic = 0; /* a second free of the same block is caught */
    pthread_mutex_lock(&heap.lock);
    give_pages(first, pages);
    pthread_mutex_unlock(&heap.lock);
}

size_t shm_heap_usable(const void *p) { return header_of(p)->usable; }

void shm_heap_publish(struct shm_header *segment, int rank)
{
    if (!shm_heap_active || !heap.shared)
        return;
    struct shm_rank_block *me = shm_rank_block(segment, rank);
    me->heap_fd = heap.fd;
    me->heap_base = shm_heap_base;
    me->heap_bytes = shm_heap_bytes;
    /* release: a peer that sees the flag (acquire) sees the three fields */
    atomic_store_explicit(&me->heap_published, 1, memory_order_release);
}
