/* page_distance.c - messages whose receive buffer lies a short distance past the send buffer
 * modulo 4 KiB (1-63 bytes: where `rep movsb`, glibc's and the kernel's, is slow, so nodempi
 * copies in pieces and pulls such messages through the pipeline instead of process_vm_readv;
 * src/shm/copy.h, p2p/rndv.c) and at the distances around them. Every rank exchanges with its
 * neighbours, both directions at once, sizes from 4 KiB to 3 MiB + 5 (eager cells, pipeline,
 * single copy, split copy, heap memcpy), from a page-aligned send buffer into a receive buffer
 * d bytes past a page, for buffers in static arrays (outside the shared heap: the kernel's copy
 * or the pipeline) and from malloc (the shared heap where the library replaces malloc). Each
 * receive must hold exactly the sender's bytes and leave the bytes around it alone. */
#include "mpitest.h" /* first: it sets _POSIX_C_SOURCE for the libc headers */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_BYTES ((3u << 20) + 5)
#define GUARD 64
#define SPAN (MAX_BYTES + 2 * 4096 + 2 * GUARD)

static _Alignas(4096) unsigned char static_send[SPAN], static_recv[SPAN];

static void exchange(unsigned char *send, unsigned char *recv_area, size_t distance, size_t bytes,
                     uint64_t seed, const char *where)
{
    unsigned char *recv = recv_area + 4096 + distance;
    mt_fill(send, bytes, seed + (uint64_t)mt_rank);
    memset(recv_area, 0x5A, SPAN);
    MPI_Request req[2];
    MT_MPI(MPI_Irecv(recv, (int)bytes, MPI_BYTE, mt_left(), 3, MPI_COMM_WORLD, &req[0]));
    MT_MPI(MPI_Isend(send, (int)bytes, MPI_BYTE, mt_right(), 3, MPI_COMM_WORLD, &req[1]));
    MT_MPI(MPI_Waitall(2, req, MPI_STATUSES_IGNORE));
    size_t bad = mt_verify_(__FILE__, __LINE__, recv, bytes, seed + (uint64_t)mt_left(), "data");
    size_t outside = 0;
    for (unsigned char *p = recv_area; p < recv; p++)
        outside += *p != 0x5A;
    for (unsigned char *p = recv + bytes; p < recv_area + SPAN; p++)
        outside += *p != 0x5A;
    MT_CHECK(bad == 0 && outside == 0,
             "%s, %zu bytes at page distance %zu: %zu bytes wrong, %zu written outside", where,
             bytes, distance, bad, outside);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    const size_t sizes[] = {4096, 16384 + 3, 65536, 300000, 1u << 20, MAX_BYTES};
    const size_t distances[] = {0, 1, 16, 31, 32, 63, 64, 2048, 4080};
    unsigned char *heap_send = NULL, *heap_recv = NULL;
    void *block;
    if (posix_memalign(&block, 4096, SPAN) == 0)
        heap_send = block;
    heap_recv = malloc(SPAN + 4096);
    MT_ASSERT(heap_send && heap_recv, "allocation");
    /* malloc's block: round up to a page so that the distance is the one asked for */
    unsigned char *heap_recv_page =
        (unsigned char *)(((uintptr_t)heap_recv + 4095) & ~(uintptr_t)4095);
    uint64_t seed = 1;
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
        for (size_t d = 0; d < sizeof distances / sizeof distances[0]; d++) {
            exchange(static_send, static_recv, distances[d], sizes[s], seed++ * 16, "static");
            exchange(heap_send, heap_recv_page, distances[d], sizes[s], seed++ * 16, "malloc");
        }
    free(heap_send);
    free(heap_recv);
    return mt_finish();
}
