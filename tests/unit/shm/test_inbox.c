/* test_inbox.c - the multi-producer inbox under contention: several producer threads push
 * records of random sizes (crossing the wrap-around, filling the inbox) into one consumer, which
 * checks that every record arrives once, intact, in each producer's order, with the sender's
 * rank decoded from the stamp. Producers that find the inbox full do not retry until the
 * consumer names them in the waiters bitmap, so a lost wake-up shows as a stall (reported). */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "shm/inbox.h"
#include "shm/segment.h"

enum { PRODUCERS = 5, NRANKS = 8, STALL_SECONDS = 20 };

/* 400k records per producer by default; NODEMPI_TEST_SCALE=0.1 shrinks it for sanitizers. */
static uint64_t per_producer = 400000;

static struct shm_header *segment;
static _Atomic uint32_t wake_count[NRANKS]; /* the consumer's "futex wake" of each producer */
static _Atomic int failed;

static size_t payload_size(int producer, uint64_t i)
{
    uint64_t x = (i + 1) * 2654435761u ^ (uint64_t)producer * 40503u;
    /* mostly tiny, sometimes big: up to the inbox's record limit */
    if (x % 64 == 0)
        return (size_t)(x >> 8) % (segment->inbox_data_bytes / 4 - SHM_RECORD_HEADER_BYTES);
    return (x % 8 == 0) ? (size_t)(x >> 7) % 4000 : (size_t)(x >> 5) % 100;
}

static unsigned char byte_at(int producer, uint64_t i, size_t k)
{
    return (unsigned char)(i * 31 + k * 7 + (uint64_t)producer * 13);
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + t.tv_nsec * 1e-9;
}

/* Like a rank that sleeps on its futex: wait until the consumer names us. */
static void wait_for_wake(int rank, uint32_t seen)
{
    double start = now();
    while (atomic_load(&wake_count[rank]) == seen) {
        if (atomic_load(&failed))
            return;
        if (now() - start > STALL_SECONDS) {
            fprintf(stderr, "producer %d: never woken after finding the inbox full\n", rank);
            atomic_store(&failed, 1);
            return;
        }
        sched_yield();
    }
}

static void *producer(void *arg)
{
    int rank = (int)(intptr_t)arg;
    struct shm_inbox box;
    shm_inbox_view(&box, segment, 0, rank);
    for (uint64_t i = 0; i < per_producer && !atomic_load(&failed); i++) {
        size_t n = payload_size(rank, i);
        struct shm_record *rec;
        for (;;) {
            uint32_t seen = atomic_load(&wake_count[rank]);
            if ((rec = shm_inbox_try_reserve(&box, n)))
                break;
            wait_for_wake(rank, seen);
            if (atomic_load(&failed))
                return NULL;
        }
        rec->kind = 7;
        rec->tag = (int32_t)(i & 0x7fffffff);
        rec->size = n;
        unsigned char *p = shm_record_payload(rec);
        for (size_t k = 0; k < n; k++)
            p[k] = byte_at(rank, i, k);
        shm_inbox_publish(&box, rec);
    }
    return NULL;
}

static int check_record(struct shm_record *rec, uint64_t *next)
{
    int rank = shm_inbox_sender(rec);
    if (rank < 1 || rank > PRODUCERS) {
        fprintf(stderr, "record with sender %d in its stamp\n", rank);
        return 1;
    }
    uint64_t i = next[rank]++;
    size_t n = payload_size(rank, i);
    if (rec->kind != 7 || rec->tag != (int32_t)(i & 0x7fffffff) || rec->size != n) {
        fprintf(stderr, "producer %d record %llu: kind %d tag %d size %llu, expected size %zu\n",
                rank, (unsigned long long)i, rec->kind, rec->tag,
                (unsigned long long)rec->size, n);
        return 1;
    }
    const unsigned char *p = shm_record_payload(rec);
    for (size_t k = 0; k < n; k++)
        if (p[k] != byte_at(rank, i, k)) {
            fprintf(stderr, "producer %d record %llu byte %zu corrupt\n", rank,
                    (unsigned long long)i, k);
            return 1;
        }
    return 0;
}

static void wake_waiters(struct shm_inbox *box)
{
    shm_inbox_fence_before_waiters();
    for (int w = 0; w < box->nwords; w++) {
        uint64_t bits = shm_inbox_take_waiters(box, w);
        for (int b = 0; b < 64; b++)
            if (bits & (1ull << b))
                atomic_fetch_add(&wake_count[w * 64 + b], 1);
    }
}

static int consume_all(void)
{
    struct shm_inbox box;
    shm_inbox_view(&box, segment, 0, 0);
    uint64_t next[NRANKS] = {0};
    uint64_t total = per_producer * PRODUCERS;
    double last_progress = now();
    for (uint64_t got = 0; got < total;) {
        struct shm_record *rec = shm_inbox_peek(&box);
        if (!rec) {
            if (atomic_load(&failed))
                return 1;
            if (now() - last_progress > STALL_SECONDS) {
                fprintf(stderr, "consumer: no record for %d s after %llu of %llu\n",
                        STALL_SECONDS, (unsigned long long)got, (unsigned long long)total);
                return 1;
            }
            sched_yield();
            continue;
        }
        last_progress = now();
        if (check_record(rec, next))
            return 1;
        shm_inbox_release(&box, rec);
        got++;
        if (got % 4 == 0 || !shm_inbox_peek(&box))
            wake_waiters(&box);
    }
    wake_waiters(&box);
    if (shm_inbox_peek(&box)) {
        fprintf(stderr, "extra record after the last one\n");
        return 1;
    }
    return 0;
}

/* Single-threaded: a producer that fills the inbox is named in the waiters bitmap, and finds
 * room again once the consumer has released records. */
static int check_waiter_handshake(void)
{
    struct shm_inbox producer_view, consumer_view;
    shm_inbox_view(&producer_view, segment, 0, 5);
    shm_inbox_view(&consumer_view, segment, 0, 0);
    int reserved = 0;
    struct shm_record *rec;
    while ((rec = shm_inbox_try_reserve(&producer_view, 1000))) {
        rec->kind = 7;
        shm_inbox_publish(&producer_view, rec);
        reserved++;
    }
    shm_inbox_fence_before_waiters();
    uint64_t waiters = shm_inbox_take_waiters(&consumer_view, 0);
    int received = 0;
    while ((rec = shm_inbox_peek(&consumer_view))) {
        if (shm_inbox_sender(rec) != 5)
            return 1;
        shm_inbox_release(&consumer_view, rec);
        received++;
    }
    rec = shm_inbox_try_reserve(&producer_view, 1000);
    if (waiters != 1ull << 5 || received != reserved || !rec) {
        fprintf(stderr, "handshake: waiters %llx, %d of %d records, room %d\n",
                (unsigned long long)waiters, received, reserved, rec != NULL);
        return 1;
    }
    rec->kind = 7;
    shm_inbox_publish(&producer_view, rec);
    rec = shm_inbox_peek(&consumer_view);
    shm_inbox_release(&consumer_view, rec);
    /* The stress test below starts from an empty inbox at a new position: that is fine, but
     * its own views start at 0, so hand it a fresh segment. */
    return 0;
}

int main(void)
{
    const char *scale = getenv("NODEMPI_TEST_SCALE");
    if (scale)
        per_producer = (uint64_t)(per_producer * atof(scale));
    char name[64];
    snprintf(name, sizeof(name), "/nodempi-test-inbox-%d", (int)getpid());
    segment = shm_segment_create(name, NRANKS);
    if (!segment) {
        perror("shm_segment_create");
        return 1;
    }
    shm_unlink(name);
    if (check_waiter_handshake())
        return 1;
    shm_segment_detach(segment);
    segment = shm_segment_create(name, NRANKS);
    if (!segment) {
        perror("shm_segment_create");
        return 1;
    }
    shm_unlink(name);
    pthread_t threads[PRODUCERS];
    for (int p = 0; p < PRODUCERS; p++)
        pthread_create(&threads[p], NULL, producer, (void *)(intptr_t)(p + 1));
    int rc = consume_all();
    if (rc)
        atomic_store(&failed, 1);
    for (int p = 0; p < PRODUCERS; p++)
        pthread_join(threads[p], NULL);
    size_t bytes = segment->inbox_data_bytes;
    shm_segment_detach(segment);
    if (rc)
        return 1;
    printf("%d producers x %llu records of 0-%zu bytes passed through a %zu-byte inbox\n",
           PRODUCERS, (unsigned long long)per_producer, bytes / 4 - SHM_RECORD_HEADER_BYTES,
           bytes);
    return 0;
}
