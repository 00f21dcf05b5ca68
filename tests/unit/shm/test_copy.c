/* test_copy.c - src/shm/copy.c: shm_copy (memcpy in pieces) and shm_copy_streaming copy every
 * byte of lengths around the piece sizes and their multiples, from and to unaligned addresses
 * and at every kind of page distance (the short distances shm_copy copies in small pieces, and
 * the ones next to them), and write nothing outside the destination. shm_copy_short copies
 * every length 0-32 at every alignment, and reads nothing past its source's end (the source
 * ends where an inaccessible page starts). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "shm/copy.h"

static int failures;

static void check(void (*copy)(void *, const void *, size_t), const char *name, size_t len,
                  size_t src_off, size_t dst_off, unsigned char *src, unsigned char *dst,
                  size_t cap)
{
    for (size_t i = 0; i < cap; i++) {
        src[i] = (unsigned char)(i * 131 + 7);
        dst[i] = 0xEE;
    }
    copy(dst + dst_off, src + src_off, len);
    if (memcmp(dst + dst_off, src + src_off, len) != 0) {
        fprintf(stderr, "FAIL %s: %zu bytes from +%zu to +%zu differ\n", name, len, src_off,
                dst_off);
        failures++;
        return;
    }
    for (size_t i = 0; i < cap; i++)
        if ((i < dst_off || i >= dst_off + len) && dst[i] != 0xEE) {
            fprintf(stderr, "FAIL %s: %zu bytes from +%zu to +%zu wrote byte %zu outside\n",
                    name, len, src_off, dst_off, i);
            failures++;
            return;
        }
}

/* Copy within one block (src and dst apart, not overlapping): the destination holds the source
 * bytes and every other byte keeps the block's pattern. */
static void check_within(const char *name, size_t len, size_t src_off, size_t dst_off,
                         unsigned char *block, size_t cap)
{
    for (size_t i = 0; i < cap; i++)
        block[i] = (unsigned char)(i * 131 + 7);
    shm_copy(block + dst_off, block + src_off, len);
    for (size_t i = 0; i < cap; i++) {
        int inside = i >= dst_off && i < dst_off + len;
        unsigned char want = (unsigned char)((inside ? i - dst_off + src_off : i) * 131 + 7);
        if (block[i] != want) {
            fprintf(stderr, "FAIL %s: %zu bytes from +%zu to +%zu: byte %zu is %u, not %u\n",
                    name, len, src_off, dst_off, i, block[i], want);
            failures++;
            return;
        }
    }
}

static void copy_short(void *dst, const void *src, size_t len)
{
    if (len <= 32)
        shm_copy_short(dst, src, len);
}

/* Sources that end right at an inaccessible page: an over-read would fault. */
static void check_short_at_page_end(void)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    unsigned char *map = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE,
                              MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (map == MAP_FAILED || mprotect(map + page, page, PROT_NONE) != 0) {
        fprintf(stderr, "FAIL: no guard page\n");
        failures++;
        return;
    }
    for (size_t len = 0; len <= 32; len++) {
        unsigned char *src = map + page - len, dst[48];
        for (size_t i = 0; i < len; i++)
            src[i] = (unsigned char)(len * 7 + i);
        memset(dst, 0xEE, sizeof dst);
        shm_copy_short(dst + 8, src, len);
        for (size_t i = 0; i < sizeof dst; i++) {
            int inside = i >= 8 && i < 8 + len;
            if (dst[i] != (inside ? (unsigned char)(len * 7 + i - 8) : 0xEE)) {
                fprintf(stderr, "FAIL shm_copy_short at page end: %zu bytes, byte %zu\n", len,
                        i);
                failures++;
                break;
            }
        }
    }
    munmap(map, 2 * page);
}

int main(void)
{
    unsigned char small_src[64], small_dst[64];
    for (size_t len = 0; len <= 32; len++)
        for (size_t s = 0; s < 8; s++)
            for (size_t d = 0; d < 8; d++)
                check(copy_short, "shm_copy_short", len, s, d, small_src, small_dst,
                      sizeof small_dst);
    check_short_at_page_end();

    const size_t piece = SHM_COPY_PIECE;
    const size_t lengths[] = {0, 1, 63, 64, 4095, piece - 1, piece, piece + 1, 2 * piece,
                              3 * piece + 17};
    const size_t offsets[] = {0, 1, 8, 63};
    size_t cap = 3 * piece + 17 + 64;
    unsigned char *src = malloc(cap), *dst = malloc(cap);
    if (!src || !dst)
        return 2;
    for (size_t l = 0; l < sizeof lengths / sizeof lengths[0]; l++)
        for (size_t s = 0; s < sizeof offsets / sizeof offsets[0]; s++)
            for (size_t d = 0; d < sizeof offsets / sizeof offsets[0]; d++) {
                check(shm_copy, "shm_copy", lengths[l], offsets[s], offsets[d], src,
                      dst, cap);
                check(shm_copy_streaming, "shm_copy_streaming", lengths[l], offsets[s],
                      offsets[d], src, dst, cap);
            }
    free(src);
    free(dst);

    /* Page distances: one block, dst = src + 1 MiB + distance, (dst - src) mod 4096 = distance
     * (and 4096 - distance for the copy the other way). */
    const size_t distances[] = {0, 1, 16, 31, 32, 63, 64, 4032, 4095};
    const size_t short_lengths[] = {2 * SHM_COPY_SHORT_PIECE - 1, 2 * SHM_COPY_SHORT_PIECE,
                                    2 * SHM_COPY_SHORT_PIECE + 1, 16384 + 5, piece - 1, piece,
                                    piece + 3, piece + 70000};
    size_t span = (1u << 20) + 4096 + piece + 70000;
    unsigned char *block = malloc(span);
    if (!block)
        return 2;
    for (size_t l = 0; l < sizeof short_lengths / sizeof short_lengths[0]; l++)
        for (size_t k = 0; k < sizeof distances / sizeof distances[0]; k++) {
            size_t len = short_lengths[l], far = (1u << 20) + distances[k];
            check_within("shm_copy forward", len, 0, far, block, span);
            check_within("shm_copy backward", len, far, 0, block, span);
        }
    free(block);
    if (failures) {
        fprintf(stderr, "%d check(s) failed\n", failures);
        return 1;
    }
    printf("test_copy: all checks passed\n");
    return 0;
}
