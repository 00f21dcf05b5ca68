/* heap_malloc.c - malloc and its family, replaced (glibc supports this: "Replacing malloc" in
 * its manual) so that the large blocks of an MPI rank come from the shared heap (heap.h), where
 * the other ranks read and write them with memcpy instead of process_vm_readv/writev. Blocks
 * below SHM_HEAP_MIN_BYTES, every block of a process that is not a rank of a multi-rank job, and
 * whatever the heap cannot hold go to glibc's own entry points (__libc_malloc & co.); a pointer
 * is freed or resized by whoever owns its address, so memory from either side may be passed to
 * any of these functions. Compiled out under AddressSanitizer and ThreadSanitizer, whose
 * runtimes replace malloc themselves; NODEMPI_SHARED_HEAP=off keeps everything in glibc. */
#include <dlfcn.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "shm/heap.h"

#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)

extern void *__libc_malloc(size_t bytes);
extern void __libc_free(void *p);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *p, size_t bytes);
extern void *__libc_memalign(size_t align, size_t bytes);

#define EXPORTED __attribute__((visibility("default")))

static void *large_block(size_t bytes, size_t align, int zeroed)
{
    if (bytes < SHM_HEAP_MIN_BYTES || !shm_heap_active)
        return NULL;
    return shm_heap_alloc(bytes, align, zeroed);
}

EXPORTED void *malloc(size_t bytes)
{
    void *p = large_block(bytes, 16, 0);
    return p ? p : __libc_malloc(bytes);
}

EXPORTED void free(void *p)
{
    if (shm_heap_owns(p))
        shm_heap_free(p);
    else
        __libc_free(p);
}

EXPORTED void *calloc(size_t count, size_t size)
{
    size_t bytes;
    if (__builtin_mul_overflow(count, size, &bytes)) {
        errno = ENOMEM;
        return NULL;
    }
    void *p = large_block(bytes, 16, 1);
    return p ? p : __libc_calloc(count, size);
}

EXPORTED void *realloc(void *p, size_t bytes)
{
    if (!shm_heap_owns(p)) /* glibc's block (or NULL): glibc resizes it where it likes */
        return p ? __libc_realloc(p, bytes) : malloc(bytes);
    if (bytes == 0) { /* as glibc: the block is freed */
        shm_heap_free(p);
        return NULL;
    }
    size_t usable = shm_heap_usable(p);
    if (bytes <= usable && bytes >= usable / 2)
        return p;
    void *q = malloc(bytes);
    if (!q)
        return NULL;
    memcpy(q, p, bytes < usable ? bytes : usable);
    shm_heap_free(p);
    return q;
}

EXPORTED void *reallocarray(void *p, size_t count, size_t size)
{
    size_t bytes;
    if (__builtin_mul_overflow(count, size, &bytes)) {
        errno = ENOMEM;
        return NULL;
    }
    return realloc(p, bytes);
}

EXPORTED size_t malloc_usable_size(void *p)
{
    if (shm_heap_owns(p))
        return shm_heap_usable(p);
    static size_t (*libc_usable)(void *);
    if (!libc_usable)
        libc_usable = (size_t(*)(void *))dlsym(RTLD_NEXT, "malloc_usable_size");
    return libc_usable ? libc_usable(p) : 0;
}

static void *aligned_block(size_t align, size_t bytes)
{
    void *p = large_block(bytes, align, 0);
    return p ? p : __libc_memalign(align, bytes);
}

EXPORTED int posix_memalign(void **out, size_t align, size_t bytes)
{
    if (align < sizeof(void *) || (align & (align - 1)))
        return EINVAL;
    int saved = errno;
    void *p = aligned_block(align, bytes);
    errno = saved;
    if (!p)
        return ENOMEM;
    *out = p;
    return 0;
}

EXPORTED void *aligned_alloc(size_t align, size_t bytes)
{
    if (align == 0 || (align & (align - 1))) {
        errno = EINVAL;
        return NULL;
    }
    return aligned_block(align, bytes);
}

EXPORTED void *memalign(size_t align, size_t bytes)
{
    if (align & (align - 1)) { /* glibc rounds such an alignment up */
        size_t a = 1;
        while (a < align)
            a <<= 1;
        align = a;
    }
    return aligned_block(align, bytes);
}

/* Is this file's malloc the one the process calls? Not when the library was loaded with
 * dlopen after the program started (Python), nor when the program brings its own allocator:
 * then the heap would never see a block, and is not created. */
static int malloc_is_ours(void)
{
    /* &malloc here would go through the GOT to whichever malloc won: compare the objects
     * instead (the winner's and this function's) */
    Dl_info winner, self;
    void *found = dlsym(RTLD_DEFAULT, "malloc");
    return found && dladdr(found, &winner) && dladdr((void *)(uintptr_t)&malloc_is_ours, &self) &&
           winner.dli_fbase == self.dli_fbase;
}

__attribute__((constructor)) static void heap_malloc_start(void)
{
    const char *job = getenv("NODEMPI_JOB");
    const char *size = getenv("NODEMPI_SIZE");
    if (!job || !*job || !size || atoi(size) < 2 || !malloc_is_ours())
        return;
    shm_heap_create();
}

#endif
