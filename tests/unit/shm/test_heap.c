/* test_heap.c - src/shm/heap.c, the shared heap's page allocator: blocks of random sizes and
 * alignments never overlap and keep their bytes while others come and go (4 threads at once, so
 * the lock is contended), calloc-style blocks read zero even on reused pages, usable sizes
 * cover the request, freeing everything gives the address space back (the top comes down to
 * 0), and a forked child's heap is private (neither side sees the other's later writes).
 * Where malloc is replaced (no sanitizer), malloc & co. of large blocks land in the heap, small
 * ones do not, and realloc moves data between the two. */
#include <malloc.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "shm/heap.h"

#define THREADS 4
#define SLOTS 64

static _Atomic int failures;

static void fail(const char *what, long detail)
{
    fprintf(stderr, "FAIL %s (%ld)\n", what, detail);
    failures++;
}

static unsigned next_random(unsigned *state)
{
    *state = *state * 1103515245u + 12345u;
    return *state >> 8;
}

static int scale(int n)
{
    const char *s = getenv("NODEMPI_TEST_SCALE");
    double f = s ? atof(s) : 1.0;
    int m = (int)(n * f);
    return m < 10 ? 10 : m;
}

struct slot {
    unsigned char *p;
    size_t bytes;
    unsigned char mark;
};

static int holds(const struct slot *s)
{
    for (size_t i = 0; i < s->bytes; i += 509)
        if (s->p[i] != s->mark)
            return 0;
    return s->p[s->bytes - 1] == s->mark;
}

static void *churn(void *arg)
{
    unsigned state = (unsigned)(uintptr_t)arg * 7919u + 1;
    struct slot slots[SLOTS] = {0};
    int rounds = scale(4000);
    for (int r = 0; r < rounds; r++) {
        struct slot *s = &slots[next_random(&state) % SLOTS];
        if (s->p) {
            if (!holds(s))
                fail("a block lost its bytes", (long)s->bytes);
            if (!shm_heap_owns(s->p))
                fail("a block outside the reservation", (long)s->bytes);
            shm_heap_free(s->p);
            s->p = NULL;
            continue;
        }
        size_t bytes = SHM_HEAP_MIN_BYTES + next_random(&state) % (3u << 20);
        size_t align = (size_t)1 << (4 + next_random(&state) % 18); /* 16 B - 2 MiB */
        int zeroed = next_random(&state) & 1;
        unsigned char *p = shm_heap_alloc(bytes, align, zeroed);
        if (!p) {
            fail("allocation refused", (long)bytes);
            continue;
        }
        if ((uintptr_t)p & (align - 1))
            fail("misaligned block", (long)align);
        if (shm_heap_usable(p) < bytes)
            fail("usable size below the request", (long)bytes);
        if (zeroed)
            for (size_t i = 0; i < bytes; i += 4096)
                if (p[i] || p[bytes - 1])
                    fail("a zeroed block holds data", (long)i);
        s->p = p;
        s->bytes = bytes;
        s->mark = (unsigned char)(next_random(&state) | 1);
        memset(p, s->mark, bytes);
    }
    for (int i = 0; i < SLOTS; i++)
        if (slots[i].p) {
            if (!holds(&slots[i]))
                fail("a block lost its bytes at the end", (long)slots[i].bytes);
            shm_heap_free(slots[i].p);
        }
    return NULL;
}

/* A forked child's heap is its own: writes after the fork do not cross in either direction. */
static void check_fork(void)
{
    unsigned char *p = shm_heap_alloc(1 << 20, 4096, 0);
    memset(p, 'a', 1 << 20);
    int to_child[2], to_parent[2];
    if (pipe(to_child) || pipe(to_parent)) {
        fail("pipe", 0);
        return;
    }
    pid_t pid = fork();
    char c = 0;
    if (pid == 0) {
        int bad = p[0] != 'a' || p[(1 << 20) - 1] != 'a';
        memset(p, 'c', 1 << 20); /* the parent must not see this */
        unsigned char *q = shm_heap_alloc(256 << 10, 16, 1); /* the child still allocates */
        bad |= !q || q[0] != 0;
        if (write(to_parent[1], "x", 1) != 1 || read(to_child[0], &c, 1) != 1)
            bad = 1;
        bad |= p[0] != 'c'; /* the parent's 'p' after the fork must not arrive here */
        _exit(bad);
    }
    if (read(to_parent[0], &c, 1) != 1)
        fail("child did not answer", 0);
    if (p[0] != 'a' || p[12345] != 'a')
        fail("the child's write reached the parent", p[0]);
    memset(p, 'p', 1 << 20);
    if (write(to_child[1], "x", 1) != 1)
        fail("pipe write", 0);
    int status = 0;
    waitpid(pid, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        fail("the child saw the parent's memory or could not allocate", status);
    shm_heap_free(p);
    close(to_child[0]), close(to_child[1]), close(to_parent[0]), close(to_parent[1]);
}

/* Only where heap_malloc.c is compiled in: the replaced malloc family routes by size. */
static void check_malloc_family(void)
{
#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
    char *small = malloc(100), *large = malloc(1 << 20);
    if (shm_heap_owns(small) || !shm_heap_owns(large))
        fail("malloc did not route by size", 0);
    memset(small, 's', 100);
    small = realloc(small, 2 << 20); /* glibc's block grows where glibc likes */
    if (!small || small[99] != 's')
        fail("realloc of a small block lost data", 0);
    memset(large, 'L', 1 << 20);
    large = realloc(large, 3 << 20); /* a heap block moves within the heap */
    if (!shm_heap_owns(large) || large[(1 << 20) - 1] != 'L')
        fail("realloc of a heap block lost data", 0);
    large = realloc(large, 1000); /* shrinks to a small block: copied out */
    if (shm_heap_owns(large) || large[999] != 'L')
        fail("realloc down to a small block", 0);
    void *aligned = NULL;
    if (posix_memalign(&aligned, 1 << 21, 1 << 20) || ((uintptr_t)aligned & ((1 << 21) - 1)) ||
        !shm_heap_owns(aligned))
        fail("posix_memalign of a large block", 0);
    int *zero = calloc(1 << 18, sizeof(int));
    for (int i = 0; i < (1 << 18); i += 1000)
        if (zero[i])
            fail("calloc returned data", i);
    if (malloc_usable_size(zero) < (size_t)(1 << 18) * sizeof(int))
        fail("malloc_usable_size", 0);
    free(small), free(large), free(aligned), free(zero);
    free(NULL);
#endif
}

int main(void)
{
    shm_heap_create();
    if (!shm_heap_active) {
        printf("SKIP: no memfd or no 64 GiB reservation here\n");
        return 0;
    }
    check_malloc_family();
    pthread_t threads[THREADS];
    for (int i = 0; i < THREADS; i++)
        pthread_create(&threads[i], NULL, churn, (void *)(uintptr_t)i);
    for (int i = 0; i < THREADS; i++)
        pthread_join(threads[i], NULL);
    /* everything was freed: one block from the start of the reservation again */
    void *p = shm_heap_alloc(SHM_HEAP_MIN_BYTES, 16, 0);
    if ((uintptr_t)p != shm_heap_base + 4096)
        fail("the address space did not come back", (long)((uintptr_t)p - shm_heap_base));
    shm_heap_free(p);
    check_fork();
    if (failures)
        return 1;
    printf("heap: %d threads x %d rounds, fork, malloc family: ok\n", THREADS, scale(4000));
    return 0;
}
