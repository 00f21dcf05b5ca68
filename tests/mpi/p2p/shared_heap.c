/* shared_heap.c - messages and one-sided operations whose buffers lie in the shared heap
 * (src/shm/heap.c: large malloc'd blocks that peers copy with memcpy instead of
 * process_vm_readv). Every rank exchanges with its neighbours, both directions at once, sizes
 * from 16 KiB to 4 MiB across the eager, single-copy and split-copy thresholds, between every
 * pairing of buffer kinds: malloc (heap), posix_memalign to 2 MiB (heap), a static array (not
 * heap), an offset into a heap block, a strided datatype over a heap block; then a window
 * created on malloc'd memory takes puts, gets and accumulates from every rank; then rank 0
 * forks a child that scribbles over its send buffer before exiting, and the message sent
 * after it must carry the parent's data. Where the library replaces malloc (no sanitizer,
 * NODEMPI_SHARED_HEAP not off) the heap must show in /proc/self/maps: a silent fallback to
 * the kernel copy would otherwise pass unnoticed. */
#include "mpitest.h" /* first: it sets _POSIX_C_SOURCE for the libc headers */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_BYTES (4u << 20)

enum kind { HEAP, ALIGNED, STATIC, INNER, KINDS };
static const char *kind_name[KINDS] = {"malloc", "posix_memalign", "static", "inner"};
static unsigned char static_send[MAX_BYTES], static_recv[MAX_BYTES];

static unsigned char *buffer(enum kind k, int recv, void **block)
{
    *block = NULL;
    switch (k) {
    case HEAP:
        return *block = malloc(MAX_BYTES);
    case ALIGNED:
        if (posix_memalign(block, 2u << 20, MAX_BYTES))
            return NULL;
        return *block;
    case STATIC:
        return recv ? static_recv : static_send;
    default: /* 1 MiB + 8 bytes into a larger block */
        *block = malloc(MAX_BYTES + (2u << 20));
        return *block ? (unsigned char *)*block + (1u << 20) + 8 : NULL;
    }
}

#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
static int heap_mapped(void)
{
    FILE *f = fopen("/proc/self/maps", "r");
    char line[512];
    int found = 0;
    while (f && fgets(line, sizeof(line), f))
        found |= strstr(line, "nodempi-heap") != NULL;
    if (f)
        fclose(f);
    return found;
}
#endif

static void exchange(enum kind sk, enum kind rk, size_t bytes, uint64_t seed)
{
    void *sblock, *rblock;
    unsigned char *s = buffer(sk, 0, &sblock), *r = buffer(rk, 1, &rblock);
    MT_ASSERT(s && r, "allocation");
    mt_fill(s, bytes, seed + (uint64_t)mt_rank);
    memset(r, 0, bytes);
    MPI_Request req[2];
    MT_MPI(MPI_Irecv(r, (int)bytes, MPI_BYTE, mt_left(), 7, MPI_COMM_WORLD, &req[0]));
    MT_MPI(MPI_Isend(s, (int)bytes, MPI_BYTE, mt_right(), 7, MPI_COMM_WORLD, &req[1]));
    MT_MPI(MPI_Waitall(2, req, MPI_STATUSES_IGNORE));
    size_t bad = mt_verify_(__FILE__, __LINE__, r, bytes, seed + (uint64_t)mt_left(), "data");
    MT_CHECK(bad == 0, "%s -> %s, %zu bytes: %zu bytes wrong", kind_name[sk], kind_name[rk],
             bytes, bad);
    free(sblock);
    free(rblock);
}

/* Every other int of a heap block, as one vector type on both sides. */
static void strided(size_t count)
{
    int *s = malloc(2 * count * sizeof(int)), *r = malloc(2 * count * sizeof(int));
    MPI_Datatype every_other;
    MT_MPI(MPI_Type_vector((int)count, 1, 2, MPI_INT, &every_other));
    MT_MPI(MPI_Type_commit(&every_other));
    for (size_t i = 0; i < 2 * count; i++) {
        s[i] = (int)(i * 3 + (size_t)mt_rank);
        r[i] = -1;
    }
    MT_MPI(MPI_Sendrecv(s, 1, every_other, mt_right(), 9, r, 1, every_other, mt_left(), 9,
                        MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    size_t bad = 0;
    for (size_t i = 0; i < 2 * count; i++)
        bad += r[i] != (i % 2 ? -1 : (int)(i * 3 + (size_t)mt_left()));
    MT_CHECK(bad == 0, "strided heap exchange of %zu ints: %zu wrong", count, bad);
    MT_MPI(MPI_Type_free(&every_other));
    free(s);
    free(r);
}

static void window_on_heap(void)
{
    const int n = 1 << 17; /* 512 KiB of ints: in the heap */
    int *base = malloc((size_t)n * sizeof(int));
    for (int i = 0; i < n; i++)
        base[i] = 0;
    MPI_Win win;
    MT_MPI(MPI_Win_create(base, (MPI_Aint)n * (MPI_Aint)sizeof(int), sizeof(int),
                          MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    int *mine = malloc((size_t)n * sizeof(int)), *back = malloc((size_t)n * sizeof(int));
    for (int i = 0; i < n; i++)
        mine[i] = i + mt_rank;
    MT_MPI(MPI_Win_fence(0, win));
    MT_MPI(MPI_Put(mine, n / 2, MPI_INT, mt_right(), 0, n / 2, MPI_INT, win));
    MT_MPI(MPI_Win_fence(0, win));
    MT_MPI(MPI_Accumulate(mine, n / 2, MPI_INT, mt_right(), n / 2, n / 2, MPI_INT, MPI_SUM,
                          win));
    MT_MPI(MPI_Win_fence(0, win));
    MT_MPI(MPI_Get(back, n, MPI_INT, mt_right(), 0, n, MPI_INT, win));
    MT_MPI(MPI_Win_fence(0, win));
    size_t bad = 0;
    for (int i = 0; i < n / 2; i++)
        bad += base[i] != i + mt_left() || base[n / 2 + i] != i + mt_left() ||
               back[i] != i + mt_rank || back[n / 2 + i] != i + mt_rank;
    MT_CHECK(bad == 0, "window on malloc'd memory: %zu wrong", bad);
    MT_MPI(MPI_Win_free(&win));
    free(base);
    free(mine);
    free(back);
}

/* A forked child's writes to a heap block stay in the child. */
static void fork_keeps_data_private(void)
{
    size_t bytes = 1u << 20;
    unsigned char *s = malloc(bytes), *r = malloc(bytes);
    mt_fill(s, bytes, 99 + (uint64_t)mt_rank);
    if (mt_rank == 0) {
        fflush(NULL);
        pid_t child = fork();
        if (child == 0) {
            memset(s, 0xAB, bytes);
            _exit(0);
        }
        MT_ASSERT(child > 0, "fork");
        waitpid(child, NULL, 0);
    }
    MT_MPI(MPI_Sendrecv(s, (int)bytes, MPI_BYTE, mt_right(), 11, r, (int)bytes, MPI_BYTE,
                        mt_left(), 11, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    size_t bad = mt_verify_(__FILE__, __LINE__, r, bytes, 99 + (uint64_t)mt_left(), "after fork");
    MT_CHECK(bad == 0, "message after a fork: %zu bytes wrong", bad);
    free(s);
    free(r);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
    const char *setting = getenv("NODEMPI_SHARED_HEAP");
    if (mt_size > 1 && mt_library_is("nodempi") && !(setting && !strcmp(setting, "off"))) {
        void *probe = malloc(1u << 20);
        MT_CHECK(heap_mapped(), "no shared heap mapped in a rank of %d", mt_size);
        free(probe);
    }
#endif
    const size_t sizes[] = {16u << 10, 64u << 10, 200000, 1u << 20, MAX_BYTES};
    uint64_t seed = 1;
    for (int sk = 0; sk < KINDS; sk++)
        for (int rk = 0; rk < KINDS; rk++)
            for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
                exchange((enum kind)sk, (enum kind)rk, sizes[i], seed++);
    strided(100000);
    strided(1u << 20);
    window_on_heap();
    fork_keeps_data_private();
    return mt_finish();
}
