/* copy.c - streaming copy (see copy.h): SSE2 non-temporal 16-byte stores on x86-64 for the
 * 16-byte-aligned bulk, plain memcpy for the unaligned head and tail and on other CPUs; and
 * shm_copy, memcpy in pieces where glibc's one call would be slow. */
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

int shm_copy_pieces = 1;

/* 1 when memcpy(dst, src, len) would run glibc's `rep movsb` into the short-page-distance trap
 * (copy.h). Unsigned wrap-around makes (dst - src) mod 4096 right for dst below src too. */
static int short_page_distance(const void *dst, const void *src, size_t len)
{
    size_t distance = ((uintptr_t)dst - (uintptr_t)src) & 4095;
    return len >= 2 * SHM_COPY_SHORT_PIECE && len < SHM_COPY_PIECE && distance >= 1 &&
           distance <= 63;
}

void shm_copy_in_pieces(void *dst, const void *src, size_t len)
{
    char *d = dst;
    const char *s = src;
    size_t piece = short_page_distance(dst, src, len) ? SHM_COPY_SHORT_PIECE : SHM_COPY_PIECE;
    while (len > piece) {
        memcpy(d, s, piece);
        d += piece;
        s += piece;
        len -= piece;
    }
    memcpy(d, s, len);
}
