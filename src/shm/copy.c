/* copy.c - streaming copy (see copy.h): SSE2 non-temporal 16-byte stores on x86-64 for the
 * 16-byte-aligned bulk, plain memcpy for the unaligned head and tail and on other CPUs; and
 * shm_copy_large, memcpy in SHM_COPY_PIECE pieces. */
#include "shm/copy.h"

#include <stdint.h>
#include <string.h>

#if defined(__x86_64__) || defined(__SSE2__)
#include <emmintrin.h>

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

void shm_copy_large(void *dst, const void *src, size_t len)
{
    char *d = dst;
    const char *s = src;
    while (len > SHM_COPY_PIECE) {
        memcpy(d, s, SHM_COPY_PIECE);
        d += SHM_COPY_PIECE;
        s += SHM_COPY_PIECE;
        len -= SHM_COPY_PIECE;
    }
    memcpy(d, s, len);
}
