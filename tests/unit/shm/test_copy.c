/* test_copy.c - src/shm/copy.c: shm_copy_large (memcpy in SHM_COPY_PIECE pieces) and
 * shm_copy_streaming copy every byte of lengths around the piece size and its multiples, from
 * and to unaligned addresses, and write nothing outside the destination. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

int main(void)
{
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
                check(shm_copy_large, "shm_copy_large", lengths[l], offsets[s], offsets[d], src,
                      dst, cap);
                check(shm_copy_streaming, "shm_copy_streaming", lengths[l], offsets[s],
                      offsets[d], src, dst, cap);
            }
    free(src);
    free(dst);
    if (failures) {
        fprintf(stderr, "%d check(s) failed\n", failures);
        return 1;
    }
    printf("test_copy: all checks passed\n");
    return 0;
}
