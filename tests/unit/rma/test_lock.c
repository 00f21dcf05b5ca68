/* test_lock.c - stress test of src/rma/lock.c under contention between processes (fork) on
 * shared memory, like ranks on one window: exclusive, shared and lock_all holders mixed at
 * random, each checking on entry that no conflicting holder is inside; exclusive holders and
 * mutex holders increment plain (non-atomic) counters with a yield in the middle of the
 * read-modify-write, so a broken lock loses increments. Checks the final counts are exact, the
 * words are idle at the end, and the 16-bit ticket fields survive wrapping (more than 65536
 * acquisitions of one word). lock_all scans two target words (the locked one and an idle
 * one, as a window of two ranks would). No MPI runtime. */
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "rma/lock.h"

enum { NPROC = 6, ITERATIONS = 10000 };

struct shared {
    _Atomic uint64_t lock;
    _Atomic uint64_t idle_lock; /* a second target nobody locks: lock_all still reads it */
    _Atomic uint64_t lock_all;
    struct rma_mutex mutex;
    _Atomic int writers_in, readers_in, all_in;
    _Atomic long errors;
    long counter;              /* exclusive holders only */
    long mutex_counter;        /* mutex holders only */
    _Atomic long exclusive_done, mutex_done, shared_done, all_done;
};

static void relax(unsigned *spins)
{
    if (++*spins % 64 == 0)
        sched_yield();
}

static void fail(struct shared *s, const char *what)
{
    atomic_fetch_add(&s->errors, 1);
    fprintf(stderr, "FAIL pid %d: %s\n", (int)getpid(), what);
}

static void exclusive(struct shared *s, unsigned *seed)
{
    unsigned spins = 0;
    uint16_t ticket = rma_rwlock_writer_arrive(&s->lock);
    while (!rma_rwlock_writer_ready(&s->lock, ticket))
        relax(&spins);
    while (!rma_exclusive_ready(&s->lock_all))
        relax(&spins);
    if (atomic_fetch_add(&s->writers_in, 1) != 0 || atomic_load(&s->readers_in) != 0 ||
        atomic_load(&s->all_in) != 0)
        fail(s, "exclusive lock shared with another holder");
    long value = s->counter;
    if (rand_r(seed) % 8 == 0)
        sched_yield();
    s->counter = value + 1;
    atomic_fetch_sub(&s->writers_in, 1);
    rma_rwlock_writer_release(&s->lock);
    atomic_fetch_add(&s->exclusive_done, 1);
}

static void shared_lock(struct shared *s, unsigned *seed)
{
    unsigned spins = 0;
    uint16_t ticket = rma_rwlock_arrive(&s->lock);
    while (!rma_rwlock_reader_try_enter(&s->lock, ticket))
        relax(&spins);
    atomic_fetch_add(&s->readers_in, 1);
    long before = s->counter;
    if (rand_r(seed) % 8 == 0)
        sched_yield();
    if (atomic_load(&s->writers_in) != 0 || s->counter != before)
        fail(s, "writer inside a shared lock");
    atomic_fetch_sub(&s->readers_in, 1);
    rma_rwlock_reader_release(&s->lock);
    atomic_fetch_add(&s->shared_done, 1);
}

static void lock_all(struct shared *s, unsigned *seed)
{
    unsigned spins = 0;
    struct rma_lock_words words = {&s->lock, sizeof(_Atomic uint64_t), 2};
    while (!rma_lockall_try(&s->lock_all, &words))
        while (!rma_lockall_may_retry(&words))
            relax(&spins);
    atomic_fetch_add(&s->all_in, 1);
    if (rand_r(seed) % 8 == 0)
        sched_yield();
    if (atomic_load(&s->writers_in) != 0)
        fail(s, "exclusive holder inside lock_all");
    atomic_fetch_sub(&s->all_in, 1);
    rma_lockall_release(&s->lock_all);
    atomic_fetch_add(&s->all_done, 1);
}

static void mutex(struct shared *s, unsigned *seed)
{
    unsigned spins = 0;
    uint32_t ticket = rma_mutex_arrive(&s->mutex);
    while (!rma_mutex_ready(&s->mutex, ticket))
        relax(&spins);
    long value = s->mutex_counter;
    if (rand_r(seed) % 8 == 0)
        sched_yield();
    s->mutex_counter = value + 1;
    rma_mutex_release(&s->mutex);
    atomic_fetch_add(&s->mutex_done, 1);
}

static void child(struct shared *s, int id)
{
    unsigned seed = 12345u + 7919u * (unsigned)id;
    for (int i = 0; i < ITERATIONS; i++) {
        unsigned r = (unsigned)rand_r(&seed) % 10;
        if (r < 4)
            exclusive(s, &seed);
        else if (r < 7)
            shared_lock(s, &seed);
        else if (r < 8)
            lock_all(s, &seed);
        else
            mutex(s, &seed);
    }
}

/* Ticket fields wrap at 2^16: one process, many acquisitions of one word. */
static int wrap_test(void)
{
    _Atomic uint64_t word = 0;
    for (int i = 0; i < 200000; i++) {
        uint16_t t = i % 3 == 0 ? rma_rwlock_arrive(&word) : rma_rwlock_writer_arrive(&word);
        if (i % 3 == 0) {
            if (!rma_rwlock_reader_try_enter(&word, t))
                return 1;
            rma_rwlock_reader_release(&word);
        } else {
            if (!rma_rwlock_writer_ready(&word, t))
                return 1;
            rma_rwlock_writer_release(&word);
        }
    }
    return rma_rwlock_idle(&word) ? 0 : 1;
}

int main(void)
{
    alarm(240);
    if (wrap_test()) {
        fprintf(stderr, "FAIL: ticket wrap-around\n");
        return 1;
    }
    struct shared *s = mmap(NULL, sizeof(*s), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
                            -1, 0);
    if (s == MAP_FAILED)
        return 1;
    memset(s, 0, sizeof(*s));
    pid_t pids[NPROC];
    for (int i = 0; i < NPROC; i++) {
        pids[i] = fork();
        if (pids[i] == 0) {
            child(s, i);
            _exit(0);
        }
    }
    int bad = 0;
    for (int i = 0; i < NPROC; i++) {
        int status;
        waitpid(pids[i], &status, 0);
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
            bad = 1;
    }
    long total = s->exclusive_done + s->shared_done + s->all_done + s->mutex_done;
    if (bad || s->errors || total != (long)NPROC * ITERATIONS ||
        s->counter != s->exclusive_done || s->mutex_counter != s->mutex_done ||
        !rma_rwlock_idle(&s->lock) || atomic_load(&s->lock_all) != 0) {
        fprintf(stderr,
                "FAIL: children %s, errors %ld, ops %ld/%ld, counter %ld (exclusive %ld), "
                "mutex counter %ld (%ld), lock idle %d, lock_all word %llu\n",
                bad ? "failed" : "ok", (long)s->errors, total, (long)NPROC * ITERATIONS,
                s->counter, (long)s->exclusive_done, s->mutex_counter, (long)s->mutex_done,
                rma_rwlock_idle(&s->lock), (unsigned long long)atomic_load(&s->lock_all));
        return 1;
    }
    printf("lock stress: %d processes, %ld exclusive, %ld shared, %ld lock_all, %ld mutex: ok\n",
           NPROC, (long)s->exclusive_done, (long)s->shared_done, (long)s->all_done,
           (long)s->mutex_done);
    return 0;
}
