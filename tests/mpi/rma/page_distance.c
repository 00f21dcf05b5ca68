/* page_distance.c - MPI_Put and MPI_Get between an origin buffer and a window whose bytes lie a
 * short distance apart modulo 4 KiB (1-63: where `rep movsb`, the kernel's too, is slow, so
 * nodempi moves such ranges through a bounce buffer; src/rma/transfer.c) and at the distances
 * around them. Windows from MPI_Win_create on a static array (outside the shared heap: the
 * kernel's copy) and on malloc'd memory (the shared heap where the library replaces malloc);
 * sizes from 4 KiB to 1 MiB + 5 across the bounce buffer's pieces. Every rank puts into and
 * gets from its right neighbour; each transfer must move exactly the bytes asked for and leave
 * the bytes around the origin buffer and the target range alone. */
#include "mpitest.h" /* first: it sets _POSIX_C_SOURCE for the libc headers */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_BYTES ((1u << 20) + 5)
#define SPAN (MAX_BYTES + 2 * 4096)

static _Alignas(4096) unsigned char static_win[SPAN];
static _Alignas(4096) unsigned char origin_area[SPAN];

static size_t check_fill(const unsigned char *p, size_t n, unsigned char v)
{
    size_t bad = 0;
    for (size_t i = 0; i < n; i++)
        bad += p[i] != v;
    return bad;
}

static void round_trip(MPI_Win win, unsigned char *base, size_t distance, size_t bytes,
                       uint64_t seed, const char *where)
{
    /* The target range starts at a page of the window (displacement 4096); the origin buffer
     * lies distance bytes past a page, so (origin - target) mod 4096 = distance. */
    unsigned char *origin = origin_area + 4096 + distance;
    const MPI_Aint disp = 4096;

    memset(base, 0x33, SPAN);
    memset(origin_area, 0x5A, SPAN);
    mt_fill(origin, bytes, seed + (uint64_t)mt_rank);
    MT_MPI(MPI_Win_fence(0, win));
    MT_MPI(MPI_Put(origin, (int)bytes, MPI_BYTE, mt_right(), disp, (int)bytes, MPI_BYTE, win));
    MT_MPI(MPI_Win_fence(0, win));
    /* our window now holds the left neighbour's bytes at disp, 0x33 around them */
    size_t bad = mt_verify_(__FILE__, __LINE__, base + disp, bytes, seed + (uint64_t)mt_left(),
                            "put");
    size_t outside = check_fill(base, (size_t)disp, 0x33) +
                     check_fill(base + disp + bytes, SPAN - (size_t)disp - bytes, 0x33);
    MT_CHECK(bad == 0 && outside == 0,
             "%s put, %zu bytes at page distance %zu: %zu wrong, %zu written outside", where,
             bytes, distance, bad, outside);

    memset(origin_area, 0x5A, SPAN);
    MT_MPI(MPI_Get(origin, (int)bytes, MPI_BYTE, mt_right(), disp, (int)bytes, MPI_BYTE, win));
    MT_MPI(MPI_Win_fence(0, win));
    /* the right neighbour's window holds what we put there */
    bad = mt_verify_(__FILE__, __LINE__, origin, bytes, seed + (uint64_t)mt_rank, "get");
    outside = check_fill(origin_area, 4096 + distance, 0x5A) +
              check_fill(origin + bytes, SPAN - 4096 - distance - bytes, 0x5A);
    MT_CHECK(bad == 0 && outside == 0,
             "%s get, %zu bytes at page distance %zu: %zu wrong, %zu written outside", where,
             bytes, distance, bad, outside);
    MT_MPI(MPI_Win_fence(0, win));
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    const size_t sizes[] = {4096, 65536 + 3, 300000, MAX_BYTES};
    const size_t distances[] = {0, 1, 16, 31, 63, 64, 4080};
    unsigned char *heap_block = malloc(SPAN + 4096);
    MT_ASSERT(heap_block, "allocation");
    unsigned char *heap_win =
        (unsigned char *)(((uintptr_t)heap_block + 4095) & ~(uintptr_t)4095);
    struct {
        unsigned char *base;
        const char *name;
    } wins[] = {{static_win, "static window"}, {heap_win, "malloc'd window"}};
    uint64_t seed = 7;
    for (size_t w = 0; w < 2; w++) {
        MPI_Win win;
        MT_MPI(MPI_Win_create(wins[w].base, SPAN, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win));
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
            for (size_t d = 0; d < sizeof distances / sizeof distances[0]; d++)
                round_trip(win, wins[w].base, distances[d], sizes[s], seed++ * 16,
                           wins[w].name);
        MT_MPI(MPI_Win_free(&win));
    }
    free(heap_block);
    return mt_finish();
}
