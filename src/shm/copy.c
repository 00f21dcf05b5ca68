/* copy.c - streaming copy (see copy.h): SSE2 non-temporal 16-byte stores on x86-64 for the
 * 16-byte-aligned bulk, plain memcpy for the unaligned head and tail and on other CPUs; and
 * shm_copy's slow cases: large blocks in pieces, short page distances with a vector loop. */
#include "shm/copy.h"

#include <stdint.h>
#include <string.h>

#if defined(__x86_64__) || defined(__SSE2__)
#include <immintrin.h>

void shm_copy_streaming(void *dst, const void *src, size_t len)
{
    char *d = dst;
    const char *s = src;
    size_t head = (16 - ((uintptr_t)d & 15)) & 15;
    if (head > len)
        head = len;
    memcpy(d, s, head);
    d += head;
    s += head;
    len -= head;
    size_t bulk = len & ~(size_t)63;
    for (size_t i = 0; i < bulk; i += 64) {
        __m128i a = _mm_loadu_si128((const __m128i *)(s + i));
        __m128i b = _mm_loadu_si128((const __m128i *)(s + i + 16));
        __m128i c = _mm_loadu_si128((const __m128i *)(s + i + 32));
        __m128i e = _mm_loadu_si128((const __m128i *)(s + i + 48));
        _mm_stream_si128((__m128i *)(d + i), a);
        _mm_stream_si128((__m128i *)(d + i + 16), b);
        _mm_stream_si128((__m128i *)(d + i + 32), c);
        _mm_stream_si128((__m128i *)(d + i + 48), e);
    }
    memcpy(d + bulk, s + bulk, len - bulk);
    /* Order the streaming stores before the caller's release store of the record stamp. */
    _mm_sfence();
}
#else
void shm_copy_streaming(void *dst, const void *src, size_t len)
{
    memcpy(dst, src, len);
}
#endif

int shm_copy_pieces = 1;

/* The copy at a short page distance: a loop of unaligned vector loads and stores, which runs at
 * the speed of an aligned `rep movsb` (a 16 / 64 / 256 KiB block another core just wrote: 20 /
 * 31-35 / 28-30 GB/s with AVX2, 16 / 28 / 28 with SSE2, 17-22 with glibc's memcpy in 2 KiB
 * pieces, 1.7-2.8 with one memcpy; aligned rep movsb 18-21 / 31-32 / 31). */
#if defined(__x86_64__)
__attribute__((target("avx2"))) static void copy_vectors_avx2(char *d, const char *s, size_t len)
{
    size_t i = 0;
    for (; i + 128 <= len; i += 128) {
        __m256i a = _mm256_loadu_si256((const __m256i *)(s + i));
        __m256i b = _mm256_loadu_si256((const __m256i *)(s + i + 32));
        __m256i c = _mm256_loadu_si256((const __m256i *)(s + i + 64));
        __m256i e = _mm256_loadu_si256((const __m256i *)(s + i + 96));
        _mm256_storeu_si256((__m256i *)(d + i), a);
        _mm256_storeu_si256((__m256i *)(d + i + 32), b);
        _mm256_storeu_si256((__m256i *)(d + i + 64), c);
        _mm256_storeu_si256((__m256i *)(d + i + 96), e);
    }
    memcpy(d + i, s + i, len - i); /* under 128 bytes: glibc's vector code, no rep movsb */
}

static void copy_vectors_sse2(char *d, const char *s, size_t len)
{
    size_t i = 0;
    for (; i + 64 <= len; i += 64) {
        __m128i a = _mm_loadu_si128((const __m128i *)(s + i));
        __m128i b = _mm_loadu_si128((const __m128i *)(s + i + 16));
        __m128i c = _mm_loadu_si128((const __m128i *)(s + i + 32));
        __m128i e = _mm_loadu_si128((const __m128i *)(s + i + 48));
        _mm_storeu_si128((__m128i *)(d + i), a);
        _mm_storeu_si128((__m128i *)(d + i + 16), b);
        _mm_storeu_si128((__m128i *)(d + i + 32), c);
        _mm_storeu_si128((__m128i *)(d + i + 48), e);
    }
    memcpy(d + i, s + i, len - i);
}

static void copy_short_distance(char *d, const char *s, size_t len)
{
    if (__builtin_cpu_supports("avx2"))
        copy_vectors_avx2(d, s, len);
    else
        copy_vectors_sse2(d, s, len);
}
#else
static void copy_short_distance(char *d, const char *s, size_t len)
{
    while (len > SHM_COPY_SHORT_PIECE) { /* glibc's vector loop below its rep threshold */
        memcpy(d, s, SHM_COPY_SHORT_PIECE);
        d += SHM_COPY_SHORT_PIECE;
        s += SHM_COPY_SHORT_PIECE;
        len -= SHM_COPY_SHORT_PIECE;
    }
    memcpy(d, s, len);
}
#endif

void shm_copy_in_pieces(void *dst, const void *src, size_t len)
{
    char *d = dst;
    const char *s = src;
    while (len > SHM_COPY_PIECE) { /* glibc's vector loop at this size: fast at any distance */
        memcpy(d, s, SHM_COPY_PIECE);
        d += SHM_COPY_PIECE;
        s += SHM_COPY_PIECE;
        len -= SHM_COPY_PIECE;
    }
    if (len < SHM_COPY_PIECE && shm_short_page_distance((uintptr_t)d, (uintptr_t)s))
        copy_short_distance(d, s, len);
    else
        memcpy(d, s, len);
}
