/* test_doorbell.c - the hybrid design's doorbell bitmap under contention: producer threads each
 * own a pair ring to rank 0 and ring their doorbell bit after every publish, in short bursts
 * after each of which they wait until the consumer has taken everything (so the end of every
 * burst is a chance to lose the last doorbell: the bit is often set, or being cleared). The
 * consumer drains only rings whose bit it took. A lost doorbell leaves records nobody looks at:
 * reported as a stall. Every record must arrive once, intact and in order per producer. */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "shm/doorbell.h"
#include "shm/ring.h"
#include "shm/segment.h"

/* 70 ranks so the bitmap has two words; producers are ranks 1-3 and 64-66. */
enum { NRANKS = 70, PRODUCERS = 6, STALL_SECONDS = 20 };
static const int producer_rank[PRODUCERS] = {1, 2, 3, 64, 65, 66};

static uint64_t per_producer = 200000; /* NODEMPI_TEST_SCALE shrinks it */
static struct shm_header *segment;
static _Atomic int failed;
static _Atomic uint64_t received[NRANKS]; /* records the consumer has taken, per producer */

static size_t payload_size(uint64_t i) { return (size_t)((i * 2654435761u) >> 9) % 200; }

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + t.tv_nsec * 1e-9;
}

static void *producer(void *arg)
{
    int rank = (int)(intptr_t)arg;
    struct shm_ring ring;
    shm_ring_view(&ring, segment, rank, 0);
    _Atomic uint64_t *doorbells = shm_doorbells(segment, 0);
    for (uint64_t i = 0; i < per_producer && !atomic_load(&failed); i++) {
        size_t n = payload_size(i);
        struct shm_record *rec;
        while (!(rec = shm_ring_try_reserve(&ring, n))) {
            if (atomic_load(&failed))
                return NULL;
            sched_yield();
        }
        rec->kind = 7;
        rec->tag = (int32_t)(i & 0x7fffffff);
        rec->size = n;
        memset(shm_record_payload(rec), (int)(i & 0xff), n);
        shm_ring_publish(&ring, rec);
        atomic_thread_fence(memory_order_seq_cst);
        shm_doorbell_ring(doorbells, rank);
        if ((i * 7919) % 5 != 0)
            continue; /* bursts of about five records */
        double start = now();
        while (atomic_load(&received[rank]) != i + 1 && !atomic_load(&failed)) {
            if (now() - start > STALL_SECONDS) {
                fprintf(stderr, "producer %d: record %llu never taken: lost doorbell\n", rank,
                        (unsigned long long)i);
                atomic_store(&failed, 1);
            }
            sched_yield();
        }
    }
    return NULL;
}

static int drain(struct shm_ring *ring, int rank, uint64_t *next)
{
    struct shm_record *rec;
    while ((rec = shm_ring_peek(ring))) {
        uint64_t i = next[rank]++;
        size_t n = payload_size(i);
        const unsigned char *p = shm_record_payload(rec);
        if (rec->tag != (int32_t)(i & 0x7fffffff) || rec->size != n ||
            (n && (p[0] != (i & 0xff) || p[n - 1] != (i & 0xff)))) {
            fprintf(stderr, "producer %d record %llu: tag %d size %llu, expected size %zu\n",
                    rank, (unsigned long long)i, rec->tag, (unsigned long long)rec->size, n);
            return 1;
        }
        shm_ring_release(ring, rec);
        atomic_store(&received[rank], next[rank]);
    }
    return 0;
}

static int consume_all(void)
{
    static struct shm_ring rings[NRANKS];
    uint64_t next[NRANKS] = {0};
    for (int p = 0; p < PRODUCERS; p++)
        shm_ring_view(&rings[producer_rank[p]], segment, producer_rank[p], 0);
    _Atomic uint64_t *doorbells = shm_doorbells(segment, 0);
    int words = (int)shm_bitmap_words(NRANKS);
    uint64_t total = per_producer * PRODUCERS, got = 0;
    double last_progress = now();
    while (got < total) {
        int any = 0;
        for (int w = 0; w < words; w++) {
            uint64_t bits = shm_doorbell_take(doorbells, w);
            for (int b = 0; b < 64; b++) {
                if (!(bits & (1ull << b)))
                    continue;
                int rank = w * 64 + b;
                uint64_t before = next[rank];
                if (drain(&rings[rank], rank, next))
                    return 1;
                got += next[rank] - before;
                any = 1;
            }
        }
        if (any) {
            last_progress = now();
        } else if (now() - last_progress > STALL_SECONDS) {
            fprintf(stderr, "no doorbell for %d s with %llu of %llu records received: lost\n",
                    STALL_SECONDS, (unsigned long long)got, (unsigned long long)total);
            return 1;
        } else if (atomic_load(&failed)) {
            return 1;
        } else {
            sched_yield();
        }
    }
    for (int p = 0; p < PRODUCERS; p++)
        if (shm_ring_peek(&rings[producer_rank[p]])) {
            fprintf(stderr, "extra record from producer %d\n", producer_rank[p]);
            return 1;
        }
    return 0;
}

int main(void)
{
    const char *scale = getenv("NODEMPI_TEST_SCALE");
    if (scale)
        per_producer = (uint64_t)(per_producer * atof(scale));
    char name[64];
    snprintf(name, sizeof(name), "/nodempi-test-doorbell-%d", (int)getpid());
    segment = shm_segment_create(name, NRANKS);
    if (!segment) {
        perror("shm_segment_create");
        return 1;
    }
    shm_unlink(name);
    pthread_t threads[PRODUCERS];
    for (int p = 0; p < PRODUCERS; p++)
        pthread_create(&threads[p], NULL, producer, (void *)(intptr_t)producer_rank[p]);
    int rc = consume_all();
    if (rc)
        atomic_store(&failed, 1);
    for (int p = 0; p < PRODUCERS; p++)
        pthread_join(threads[p], NULL);
    shm_segment_detach(segment);
    if (rc)
        return 1;
    printf("%d producers x %llu records arrived through doorbells, none lost\n", PRODUCERS,
           (unsigned long long)per_producer);
    return 0;
}
