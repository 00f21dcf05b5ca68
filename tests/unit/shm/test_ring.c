/* test_ring.c - the pair ring under two threads: a producer pushes millions of records of
 * random sizes (crossing the wrap-around), a consumer checks every record arrives once, in
 * order, with intact contents. In some stretches the producer waits for the consumer to take
 * each record before the next (a ping-pong), so records also go back to the ring's start early
 * (ring.c, wrap_early); the consumer counts those wraps and the test fails without any. Runs on
 * anonymous shared memory laid out like a job segment. */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "shm/ring.h"
#include "shm/segment.h"

/* 2M records by default; NODEMPI_TEST_SCALE=0.1 shrinks it for sanitizer builds. */
static uint64_t record_count = 2000000;

static struct shm_header *segment;

static size_t payload_size(uint64_t i)
{
    /* Mostly tiny (the common case), sometimes up to the record limit. */
    uint64_t x = i * 2654435761u;
    return (x % 16 == 0) ? (size_t)(x >> 7) % 3000 : (size_t)(x >> 5) % 48;
}

static unsigned char byte_at(uint64_t i, size_t k) { return (unsigned char)(i * 31 + k * 7); }

static void *producer(void *arg)
{
    (void)arg;
    struct shm_ring ring;
    shm_ring_view(&ring, segment, 0, 1);
    for (uint64_t i = 0; i < record_count; i++) {
        size_t n = payload_size(i);
        struct shm_record *rec;
        if (i % 16384 < 160) /* a ping-pong stretch: wait until the consumer has taken all */
            while (atomic_load_explicit(&ring.control->head, memory_order_acquire) !=
                   ring.position)
                sched_yield();
        while (!(rec = shm_ring_try_reserve(&ring, n)))
            sched_yield(); /* two cores or fewer: let the consumer run */
        rec->kind = 7;
        rec->tag = (int32_t)(i & 0x7fffffff);
        rec->size = n;
        unsigned char *p = shm_record_payload(rec);
        for (size_t k = 0; k < n; k++)
            p[k] = byte_at(i, k);
        shm_ring_publish(&ring, rec);
    }
    return NULL;
}

int main(void)
{
    const char *scale = getenv("NODEMPI_TEST_SCALE");
    if (scale)
        record_count = (uint64_t)(record_count * atof(scale));
    char name[64];
    snprintf(name, sizeof(name), "/nodempi-test-ring-%d", (int)getpid());
    segment = shm_segment_create(name, 2);
    if (!segment) {
        perror("shm_segment_create");
        return 1;
    }
    shm_unlink(name); /* the mapping stays; nothing is left in /dev/shm whatever happens */
    size_t ring_bytes = segment->ring_data_bytes;

    pthread_t thread;
    pthread_create(&thread, NULL, producer, NULL);
    struct shm_ring ring;
    shm_ring_view(&ring, segment, 0, 1);
    int failures = 0;
    uint64_t early_wraps = 0;
    for (uint64_t i = 0; i < record_count && failures < 5; i++) {
        struct shm_record *rec;
        uint64_t offset = ring.position & (ring_bytes - 1);
        while (!(rec = shm_ring_peek(&ring)))
            sched_yield();
        /* A pad was stepped over although the record would have fitted before the end. */
        if ((size_t)((char *)rec - ring.data) != offset &&
            ring_bytes - offset >= (uint64_t)rec->lines * SHM_CACHE_LINE)
            early_wraps++;
        size_t n = payload_size(i);
        if (rec->kind != 7 || rec->tag != (int32_t)(i & 0x7fffffff) || rec->size != n) {
            fprintf(stderr, "record %llu: kind %d tag %d size %llu, expected tag %d size %zu\n",
                    (unsigned long long)i, rec->kind, rec->tag, (unsigned long long)rec->size,
                    (int)(i & 0x7fffffff), n);
            failures++;
        }
        const unsigned char *p = shm_record_payload(rec);
        for (size_t k = 0; k < n && k < rec->size; k++)
            if (p[k] != byte_at(i, k)) {
                fprintf(stderr, "record %llu byte %zu corrupt\n", (unsigned long long)i, k);
                failures++;
                break;
            }
        shm_ring_release(&ring, rec);
    }
    pthread_join(thread, NULL);
    if (!failures && shm_ring_peek(&ring)) {
        fprintf(stderr, "extra record after the last one\n");
        failures++;
    }
    if (!failures && record_count >= 4096 && early_wraps == 0) {
        fprintf(stderr, "no record went back to the ring's start early\n");
        failures++;
    }
    shm_segment_detach(segment);
    if (failures)
        return 1;
    printf("%llu records of 0-3000 bytes passed through a %zu-byte ring in order, %llu early "
           "wraps\n",
           (unsigned long long)record_count, ring_bytes, (unsigned long long)early_wraps);
    return 0;
}
