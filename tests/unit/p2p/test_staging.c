/* test_staging.c - the sending side's blocks for set-aside data (src/p2p/staging.c): a freed
 * block comes back for the next request of its size class, holds what is written into it, sizes
 * below 1 KiB, above the largest class and beyond the cache's cap go to malloc, and release
 * empties the cache (LeakSanitizer checks that nothing is lost). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "p2p/internal.h"

static int failures;

#define CHECK(cond)                                                                        \
    do {                                                                                   \
        if (!(cond)) {                                                                     \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);       \
            failures++;                                                                    \
        }                                                                                  \
    } while (0)

int main(void)
{
    /* Reuse within a class: 16 KiB and 12 KiB share the 16 KiB class. */
    char *a = p2p_staging_alloc(16384);
    CHECK(a != NULL);
    memset(a, 0x5a, 16384);
    p2p_staging_free(a, 16384);
    char *b = p2p_staging_alloc(12288);
    CHECK(b == a);
    memset(b, 0x33, 12288); /* the whole request is writable */
    /* A different class does not get it; below 1 KiB malloc keeps its own chunks. */
    char *c = p2p_staging_alloc(4096);
    CHECK(c != NULL && c != b);
    memset(c, 1, 4096);
    p2p_staging_free(c, 4096);
    char *tiny = p2p_staging_alloc(0);
    CHECK(tiny != NULL);
    p2p_staging_free(tiny, 0);
    char *small = p2p_staging_alloc(100);
    CHECK(small != NULL);
    memset(small, 2, 100);
    p2p_staging_free(small, 100);
    p2p_staging_free(b, 12288);

    /* Above the largest class (256 KiB): plain malloc/free, never cached. */
    char *big = p2p_staging_alloc((256u << 10) + 1);
    CHECK(big != NULL);
    memset(big, 7, (256u << 10) + 1);
    p2p_staging_free(big, (256u << 10) + 1);

    /* Many blocks at once: all distinct and writable; freeing 100 x 256 KiB = 25 MiB keeps at
     * most the 16 MiB cap, the rest goes back to malloc (LeakSanitizer sees no loss). */
    p2p_staging_release(); /* an empty cache: the cap then holds exactly 64 of them */
    enum { MANY = 100 };
    char *blocks[MANY];
    for (int i = 0; i < MANY; i++) {
        blocks[i] = p2p_staging_alloc(256u << 10);
        CHECK(blocks[i] != NULL);
        memset(blocks[i], i, 256u << 10);
    }
    for (int i = 0; i < MANY; i++)
        for (int j = i + 1; j < MANY; j++)
            CHECK(blocks[i] != blocks[j]);
    for (int i = 0; i < MANY; i++)
        p2p_staging_free(blocks[i], 256u << 10);
    /* The cap keeps the first 64 freed (16 MiB / 256 KiB) and hands the last of them back first;
     * the later ones went to free(), so only kept blocks are compared with. */
    char *again = p2p_staging_alloc(200000);
    CHECK(again == blocks[63]);
    p2p_staging_free(again, 200000);
    p2p_staging_free(NULL, 4096); /* no-op */
    p2p_staging_release();
    p2p_staging_release(); /* twice is harmless */
    if (failures)
        fprintf(stderr, "test_staging: %d check(s) failed\n", failures);
    return failures != 0;
}
