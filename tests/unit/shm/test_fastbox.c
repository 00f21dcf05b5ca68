/* test_fastbox.c - a pair's fastbox and ring together under two threads: the producer sends
 * millions of records of random sizes: tiny ones mostly packed (as send.c's write_packed does
 * in a stream), now and then in a cell, small ones in a cell when one is free, the rest and the
 * overflow through the ring (as p2p_reserve does), in bursts that fill the box and wrap the
 * ring; the consumer takes records with shm_pair_peek and checks that every record arrives
 * once, in send order, intact. Both threads yield when blocked, so on two cores or
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
static unsigned char *packed_sent; /* per record: 1 if it went packed (written before publish) */

enum { KIND = 7, PACKED_KIND = 9, CONTEXT = 0x5eed, SOURCE = 3 };

static size_t payload_size(uint64_t i)
{
    /* Mostly tiny (packed: 0-36 bytes), fastbox-sized (0-64 bytes, the boundary included), some
     * ring-only ones. */
    uint64_t x = (i + 17) * 2654435761u;
    if (x % 8 == 0)
        return 65 + (size_t)(x >> 9) % 2000;
    return x % 8 < 4 ? (size_t)(x >> 5) % (SHM_FASTBOX_PACKED_PAYLOAD + 1)
                     : (size_t)(x >> 5) % 65;
}

static unsigned char byte_at(uint64_t i, size_t k) { return (unsigned char)(i * 31 + k * 7); }

/* One record as a cell or a ring record (whichever has room), 0 when neither has. */
static int send_record(struct shm_ring *ring, struct shm_fastbox *fb, uint64_t i,
                       const unsigned char *data, size_t n)
{
    struct shm_record *rec = NULL;
    if (n <= SHM_FASTBOX_PAYLOAD && (rec = shm_fastbox_try_reserve(fb)))
        sent_by_fastbox++;
    else if (!(rec = shm_ring_try_reserve(ring, n)))
        return 0;
    rec->kind = KIND;
    rec->tag = (int32_t)(i & 0x7fffffff);
    rec->context = CONTEXT;
    rec->src = SOURCE;
    rec->size = n;
    memcpy(shm_record_payload(rec), data, n);
    shm_pair_publish(ring, fb, rec);
    return 1;
}

static void *producer(void *arg)
{
    (void)arg;
    struct shm_ring ring;
    struct shm_fastbox fb;
    shm_ring_view(&ring, segment, 0, 1);
    shm_fastbox_view(&fb, segment, 0, 1);
    unsigned char data[4096];
    for (uint64_t i = 0; i < record_count; i++) {
        size_t n = payload_size(i);
        for (size_t k = 0; k < n; k++)
            data[k] = byte_at(i, k);
        /* tiny ones packed in runs, now and then in a cell (as after a reply) */
        int try_packed = n <= SHM_FASTBOX_PACKED_PAYLOAD && (i / 7) % 3 != 0;
        for (;;) {
            if (try_packed) {
                packed_sent[i] = 1;
                if (shm_fastbox_try_send_packed(&fb, &ring, (int32_t)(i & 0x7fffffff), CONTEXT,
                                                SOURCE, data, n)) {
                    sent_by_fastbox++;
                    break;
                }
                packed_sent[i] = 0;
            }
            if (send_record(&ring, &fb, i, data, n))
                break;
            sched_yield(); /* all full: let the consumer run */
        }
        if (i % 64 == 0)
            sched_yield(); /* bursts: let the consumer catch up now and then, mid-stream */
    }
    return NULL;
}

static int check_record(uint64_t i, const struct shm_record *rec)
{
    size_t n = payload_size(i);
    int kind = packed_sent[i] ? PACKED_KIND : KIND;
    if (rec->kind != kind || rec->tag != (int32_t)(i & 0x7fffffff) || rec->size != n ||
        rec->context != CONTEXT || rec->src != SOURCE) {
        fprintf(stderr,
                "record %llu: kind %d tag %d size %llu context %u src %d, expected kind %d tag "
                "%d size %zu\n",
                (unsigned long long)i, rec->kind, rec->tag, (unsigned long long)rec->size,
                rec->context, rec->src, kind, (int)(i & 0x7fffffff), n);
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

/* Single-threaded, step by step: cells whose payload looks exactly like the packed record the
 * consumer will wait for in the same slot one lap later (number and ring position), then that
 * lap packed. After taking the packed record at a group's start, the consumer must find
 * nothing until the producer sends more: the producer marks the rest of the group (fastbox.h,
 * "stale words"); without the marks it would take the forged payload for a record. */
static int forged_payload(struct shm_header *seg)
{
    struct shm_ring pring, cring;
    struct shm_fastbox pfb, cfb;
    shm_ring_view(&pring, seg, 1, 0);
    shm_ring_view(&cring, seg, 1, 0);
    shm_fastbox_view(&pfb, seg, 1, 0);
    shm_fastbox_view(&cfb, seg, 1, 0);
    int failures = 0, in_fastbox;
    for (int lap = 0; lap < 3; lap++) {
        for (int g = 0; g < SHM_FASTBOX_SLOTS / SHM_FASTBOX_GROUP_SLOTS; g++) {
            struct shm_record *cell = shm_fastbox_try_reserve(&pfb);
            if (!cell)
                return 1;
            uint64_t later = pfb.count + SHM_FASTBOX_SLOTS + 1; /* this group's slot 1, next lap */
            uint64_t forged = (((later + 1) << 1) & SHM_FASTBOX_NUMBER_MASK) |
                              (uint64_t)(pring.position / SHM_CACHE_LINE) << 32 |
                              (uint64_t)4 << 25;
            cell->kind = KIND;
            cell->size = 16;
            memcpy(shm_record_payload(cell), &forged, 8);
            memcpy((char *)shm_record_payload(cell) + 8, &forged, 8);
            shm_pair_publish(&pring, &pfb, cell);
            struct shm_record *rec = shm_pair_peek(&cring, &cfb, PACKED_KIND, &in_fastbox);
            if (!rec || rec->kind != KIND) {
                fprintf(stderr, "forged payload: cell %d of lap %d not taken\n", g, lap);
                return 1;
            }
            shm_pair_release(&cring, &cfb, rec, in_fastbox);
        }
        for (int g = 0; g < SHM_FASTBOX_SLOTS / SHM_FASTBOX_GROUP_SLOTS; g++) {
            unsigned char byte = (unsigned char)g;
            if (!shm_fastbox_try_send_packed(&pfb, &pring, g, CONTEXT, SOURCE, &byte, 1))
                return 1;
            struct shm_record *rec = shm_pair_peek(&cring, &cfb, PACKED_KIND, &in_fastbox);
            if (!rec || rec->kind != PACKED_KIND || rec->tag != g || rec->size != 1 ||
                *(unsigned char *)shm_record_payload(rec) != byte) {
                fprintf(stderr, "forged payload: packed record %d of lap %d wrong\n", g, lap);
                return 1;
            }
            shm_pair_release(&cring, &cfb, rec, in_fastbox);
            rec = shm_pair_peek(&cring, &cfb, PACKED_KIND, &in_fastbox);
            if (rec) {
                fprintf(stderr, "forged payload: lap %d group %d: a record (kind %d tag %d) "
                                "where nothing was sent\n",
                        lap, g, rec->kind, rec->tag);
                failures++;
                shm_pair_release(&cring, &cfb, rec, in_fastbox);
            }
            /* the rest of the group stays empty: the next lap's cells go to the next groups */
            pfb.count = shm_fastbox_group_start(pfb.count);
            cfb.count = pfb.count;
            atomic_store_explicit(&cfb.control->consumed, cfb.count, memory_order_release);
        }
    }
    return failures;
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
    if (forged_payload(segment)) {
        shm_segment_detach(segment);
        return 1;
    }
    packed_sent = calloc(record_count, 1);
    if (!packed_sent)
        return 1;

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
        while (!(rec = shm_pair_peek(&ring, &fb, PACKED_KIND, &in_fastbox)))
            if (++spins % 64 == 0)
                sched_yield();
        failures += check_record(i, rec);
        from_fastbox += (uint64_t)in_fastbox;
        shm_pair_release(&ring, &fb, rec, in_fastbox);
    }
    pthread_join(thread, NULL);
    int in_fastbox;
    if (!failures && shm_pair_peek(&ring, &fb, PACKED_KIND, &in_fastbox)) {
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
    uint64_t packed = 0;
    for (uint64_t i = 0; i < record_count; i++)
        packed += packed_sent[i];
    if (!failures && (packed == 0 || packed == from_fastbox)) {
        fprintf(stderr, "the test never mixed packed records and cells (%llu packed of %llu)\n",
                (unsigned long long)packed, (unsigned long long)from_fastbox);
        failures++;
    }
    free(packed_sent);
    shm_segment_detach(segment);
    if (failures)
        return 1;
    printf("%llu records in order, %llu through the fastbox (%llu packed), the rest through "
           "the ring\n",
           (unsigned long long)record_count, (unsigned long long)from_fastbox,
           (unsigned long long)packed);
    return 0;
}
