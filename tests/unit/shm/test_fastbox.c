/* test_fastbox.c - a pair's fastbox and ring together under two threads: the producer sends
 * millions of records of random sizes, each small one through the fastbox when a cell is free
 * and through the ring otherwise (as p2p_reserve does), in bursts that fill the cells and
 * wrap the ring; the consumer takes records with shm_pair_peek and checks that every record
 * arrives once, in send order, intact. Both threads yield when blocked, so on two cores or
 * fewer they interleave at every point of the protocol. */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "shm/fastbox.h"
#include "shm/ring.h"
#include "shm/segment.h"

/* 2M records by default; NODEMPI_TEST_SCALE=0.1 shrinks it for sanitizer builds. */
static uint64_t record_count = 2000000;

static struct shm_header *segment;
static uint64_t sent_by_fastbox;

static size_t payload_size(uint64_t i)
{
    /* Mostly fastbox-sized (0-64 bytes, the boundary included), some ring-only ones. */
    uint64_t x = (i + 17) * 2654435761u;
    return (x % 8 == 0) ? 65 + (size_t)(x >> 9) % 2000 : (size_t)(x >> 5) % 65;
}

static unsigned char byte_at(uint64_t i, size_t k) { return (unsigned char)(i * 31 + k * 7); }

static void *producer(void *arg)
{
    (void)arg;
    struct shm_ring ring;
    struct shm_fastbox fb;
    shm_ring_view(&ring, segment, 0, 1);
    shm_fastbox_view(&fb, segment, 0, 1);
    for (uint64_t i = 0; i < record_count; i++) {
        size_t n = payload_size(i);
        struct shm_record *rec = NULL;
        for (;;) {
            if (n <= SHM_FASTBOX_PAYLOAD && (rec = shm_fastbox_try_reserve(&fb)))
                break;
            if ((rec = shm_ring_try_reserve(&ring, n)))
                break;
            sched_yield(); /* both full: let the consumer run */
        }
        rec->kind = 7;
        rec->tag = (int32_t)(i & 0x7fffffff);
        rec->size = n;
        unsigned char *p = shm_record_payload(rec);
        for (size_t k = 0; k < n; k++)
            p[k] = byte_at(i, k);
        if (shm_fastbox_owns(&fb, rec))
            sent_by_fastbox++;
        shm_pair_publish(&ring, &fb, rec);
        if (i % 64 == 0)
            sched_yield(); /* bursts: let the consumer catch up now and then, mid-stream */
    }
    return NULL;
}

static int check_record(uint64_t i, const struct shm_record *rec)
{
    size_t n = payload_size(i);
    if (rec->kind != 7 || rec->tag != (int32_t)(i & 0x7fffffff) || rec->size != n) {
        fprintf(stderr, "record %llu: kind %d tag %d size %llu, expected tag %d size %zu\n",
                (unsigned long long)i, rec->kind, rec->tag, (unsigned long long)rec->size,
                (int)(i & 0x7fffffff), n);
        return 1;
    }
    const unsigned char *p = shm_record_payload((struct shm_record *)rec);
    for (size_t k = 0; k < n; k++)
        if (p[k] != byte_at(i, k)) {
            fprintf(stderr, "record %llu byte %zu corrupt\n", (unsigned long long)i, k);
            return 1;
        }
    return 0;
}

int main(void)
{
    const char *scale = getenv("NODEMPI_TEST_SCALE");
    if (scale)
        record_count = (uint64_t)(record_count * atof(scale));
    char name[64];
    snprintf(name, sizeof(name), "/nodempi-test-fastbox-%d", (int)getpid());
    segment = shm_segment_create(name, 2);
    if (!segment) {
        perror("shm_segment_create");
        return 1;
    }
    shm_unlink(name); /* the mapping stays; nothing is left in /dev/shm whatever happens */

    pthread_t thread;
    pthread_create(&thread, NULL, producer, NULL);
    struct shm_ring ring;
    struct shm_fastbox fb;
    shm_ring_view(&ring, segment, 0, 1);
    shm_fastbox_view(&fb, segment, 0, 1);
    int failures = 0;
    uint64_t from_fastbox = 0;
    for (uint64_t i = 0; i < record_count && failures < 5; i++) {
        struct shm_record *rec;
        int in_fastbox;
        unsigned spins = 0;
        while (!(rec = shm_pair_peek(&ring, &fb, &in_fastbox)))
            if (++spins % 64 == 0)
                sched_yield();
        failures += check_record(i, rec);
        from_fastbox += (uint64_t)in_fastbox;
        shm_pair_release(&ring, &fb, rec, in_fastbox);
    }
    pthread_join(thread, NULL);
    int in_fastbox;
    if (!failures && shm_pair_peek(&ring, &fb, &in_fastbox)) {
        fprintf(stderr, "extra record after the last one\n");
        failures++;
    }
    if (!failures && from_fastbox != sent_by_fastbox) {
        fprintf(stderr, "%llu records sent through the fastbox, %llu taken from it\n",
                (unsigned long long)sent_by_fastbox, (unsigned long long)from_fastbox);
        failures++;
    }
    if (!failures && (from_fastbox == 0 || from_fastbox == record_count)) {
        fprintf(stderr, "the test never mixed the two queues (%llu of %llu by fastbox)\n",
                (unsigned long long)from_fastbox, (unsigned long long)record_count);
        failures++;
    }
    shm_segment_detach(segment);
    if (failures)
        return 1;
    printf("%llu records in order, %llu through the fastbox, the rest through the ring\n",
           (unsigned long long)record_count, (unsigned long long)from_fastbox);
    return 0;
}
