/* large.c - large one-sided transfers on every flavor: 2 MiB puts and gets (contiguous, and a
 * strided vector on the target side), a 2 MiB accumulate of doubles (contiguous: in place;
 * origin vector -> target contiguous: staged in chunks) and Get_accumulate returning the old
 * contents; data patterns are checked byte for byte. */
#include "mpitest.h"

enum { BYTES = 2 << 20, DOUBLES = BYTES / 8 };

static void run(int flavor)
{
    const char *fname = flavor == 0 ? "create" : flavor == 1 ? "allocate" : "allocate_shared";
    char *base = NULL, *owned = NULL;
    MPI_Win win;
    if (flavor == 0) {
        owned = base = mt_malloc(BYTES);
        MT_MPI(MPI_Win_create(base, BYTES, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    } else if (flavor == 1) {
        MT_MPI(MPI_Win_allocate(BYTES, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win));
    } else {
        MT_MPI(MPI_Win_allocate_shared(BYTES, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win));
    }
    int right = mt_right(), left = mt_left();
    char *src = mt_malloc(BYTES), *dst = mt_malloc(BYTES);
    uint64_t seed = 1000 + (uint64_t)mt_rank;

    /* contiguous put, then a get of what the left neighbour put into the right one */
    mt_fill(src, BYTES, seed);
    MT_MPI(MPI_Win_fence(0, win));
    MT_MPI(MPI_Put(src, BYTES, MPI_BYTE, right, 0, BYTES, MPI_BYTE, win));
    MT_MPI(MPI_Win_fence(0, win));
    MT_VERIFY(base, BYTES, 1000 + (uint64_t)left, "large put");
    MT_MPI(MPI_Get(dst, BYTES, MPI_BYTE, right, 0, BYTES, MPI_BYTE, win));
    MT_MPI(MPI_Win_fence(0, win));
    MT_VERIFY(dst, BYTES, 1000 + (uint64_t)mt_rank, "large get");

    /* target-side vector: every other 64-byte block */
    MPI_Datatype blocks;
    MPI_Type_vector(BYTES / 128, 64, 128, MPI_BYTE, &blocks);
    MPI_Type_commit(&blocks);
    memset(base, 0, BYTES);
    MT_MPI(MPI_Win_fence(0, win));
    MT_MPI(MPI_Put(src, BYTES / 2, MPI_BYTE, right, 0, 1, blocks, win));
    MT_MPI(MPI_Win_fence(0, win));
    /* the left neighbour's pattern, spread over every other block */
    char *expect = mt_malloc(BYTES), *left_src = mt_malloc(BYTES);
    mt_fill(left_src, BYTES, 1000 + (uint64_t)left);
    memset(expect, 0, BYTES);
    for (size_t b = 0; b < BYTES / 128; b++)
        memcpy(expect + 128 * b, left_src + 64 * b, 64);
    MT_CHECK(memcmp(base, expect, BYTES) == 0, "%s: strided large put differs", fname);
    MPI_Type_free(&blocks);

    /* accumulate doubles: contiguous (in place), then origin vector -> target contiguous */
    double *d = (double *)base, *dsrc = (double *)src, *old = (double *)dst;
    for (size_t i = 0; i < DOUBLES; i++)
        d[i] = (double)(i % 1000);
    for (size_t i = 0; i < DOUBLES; i++)
        dsrc[i] = (double)(mt_rank + 1);
    MT_MPI(MPI_Win_fence(0, win));
    MT_MPI(MPI_Accumulate(dsrc, DOUBLES, MPI_DOUBLE, right, 0, DOUBLES, MPI_DOUBLE, MPI_SUM,
                          win));
    MT_MPI(MPI_Win_fence(0, win));
    MPI_Datatype evens;
    MPI_Type_vector(DOUBLES / 2, 1, 2, MPI_DOUBLE, &evens);
    MPI_Type_commit(&evens);
    for (size_t i = 0; i < DOUBLES; i++)
        dsrc[i] = (i % 2) ? -1e9 : 0.5;
    MT_MPI(MPI_Get_accumulate(dsrc, 1, evens, old, DOUBLES / 2, MPI_DOUBLE, right, 0,
                              DOUBLES / 2, MPI_DOUBLE, MPI_SUM, win));
    MT_MPI(MPI_Win_fence(0, win));
    size_t bad = 0;
    for (size_t i = 0; i < DOUBLES; i++) {
        double want = (double)(i % 1000) + (left + 1) + (i < DOUBLES / 2 ? 0.5 : 0.0);
        bad += d[i] != want;
    }
    MT_CHECK(bad == 0, "%s: large accumulate: %zu doubles wrong", fname, bad);
    bad = 0;
    for (size_t i = 0; i < DOUBLES / 2; i++)
        bad += old[i] != (double)(i % 1000) + (mt_rank + 1);
    MT_CHECK(bad == 0, "%s: large get_accumulate: %zu old values wrong", fname, bad);
    MPI_Type_free(&evens);
    MT_MPI(MPI_Win_free(&win));
    free(src);
    free(dst);
    free(expect);
    free(left_src);
    free(owned);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    for (int flavor = 0; flavor < 3; flavor++)
        run(flavor);
    return mt_finish();
}
