/* test_wake.c - futex sleep/wake under contention: two threads hand a token back and forth,
 * each sleeping on its own wake word while waiting. The sleeper re-checks the token between
 * announcing its sleep and sleeping, exactly as core/progress.c does; a lost wake-up would
 * leave a thread asleep for the full 20 s timeout and the run would blow its time limit.
 * Then three wakers against one sleeper: each round every waker publishes a step and wakes
 * the sleeper, which waits for all three. Only the waker that claims a sleep may make the
 * system call (shm_wake_peer_slow), so the wakes never outnumber the sleeper's announced
 * sleeps, and a claim that left a later waker's step unseen would cost 20 s. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <sched.h>
#include <time.h>

#include "shm/wake.h"

static struct shm_rank_block blocks[2];
static _Atomic long token;          /* even: thread 0's turn, odd: thread 1's */
static long rounds = 200000;
static _Atomic long slept[2];

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Wait until token has parity `me`, sleeping rather than spinning (after a few polls). */
static void wait_turn(int me, long value)
{
    for (int spins = 0; atomic_load(&token) != value; spins++) {
        if (spins < 16)
            continue;
        uint32_t seen = shm_wake_prepare_sleep(&blocks[me]);
        if (atomic_load(&token) != value) {
            shm_wake_sleep(&blocks[me], seen, 20L * 1000 * 1000 * 1000);
            atomic_fetch_add(&slept[me], 1);
        }
        shm_wake_end_sleep(&blocks[me]);
    }
}

static void *run(void *arg)
{
    int me = (int)(long)arg;
    for (long i = me; i < 2 * rounds; i += 2) {
        wait_turn(me, i);
        atomic_store(&token, i + 1); /* seq_cst: the publication the wake protocol orders */
        shm_wake_peer(&blocks[1 - me]);
    }
    return NULL;
}

enum { WAKERS = 3 };
static struct shm_rank_block sleeper_block;
static _Atomic long steps, round_done; /* steps published; rounds the sleeper has seen */
static long many_rounds = 20000;
static _Atomic long announced; /* the sleeper's shm_wake_prepare_sleep calls */

static void *sleeper(void *arg)
{
    (void)arg;
    for (long r = 1; r <= many_rounds; r++) {
        for (int spins = 0; atomic_load(&steps) < WAKERS * r; spins++) {
            if (spins < 16)
                continue;
            uint32_t seen = shm_wake_prepare_sleep(&sleeper_block);
            atomic_fetch_add(&announced, 1);
            if (atomic_load(&steps) < WAKERS * r)
                shm_wake_sleep(&sleeper_block, seen, 20L * 1000 * 1000 * 1000);
            shm_wake_end_sleep(&sleeper_block);
        }
        atomic_store(&round_done, r);
    }
    return NULL;
}

static void *waker(void *arg)
{
    (void)arg;
    for (long r = 1; r <= many_rounds; r++) {
        while (atomic_load(&round_done) < r - 1)
            sched_yield(); /* the wakers never sleep: only the one sleeper is under test */
        atomic_fetch_add(&steps, 1); /* seq_cst: the publication */
        shm_wake_peer(&sleeper_block);
    }
    return NULL;
}

int main(void)
{
    const char *scale = getenv("NODEMPI_TEST_SCALE");
    if (scale) {
        rounds = (long)(rounds * atof(scale));
        many_rounds = (long)(many_rounds * atof(scale));
    }
    double start = now();
    pthread_t threads[2];
    for (long t = 0; t < 2; t++)
        pthread_create(&threads[t], NULL, run, (void *)t);
    for (int t = 0; t < 2; t++)
        pthread_join(threads[t], NULL);
    double elapsed = now() - start;
    printf("%ld hand-offs in %.2f s, %ld + %ld sleeps, no lost wake-up\n", 2 * rounds, elapsed,
           atomic_load(&slept[0]), atomic_load(&slept[1]));
    /* A lost wake-up costs 20 s; a healthy run takes a few seconds at most. */
    if (elapsed >= 19.0)
        return 1;

    start = now();
    unsigned long long wakes_before = atomic_load(&shm_futex_wakes);
    pthread_t many[WAKERS + 1];
    pthread_create(&many[0], NULL, sleeper, NULL);
    for (int t = 1; t <= WAKERS; t++)
        pthread_create(&many[t], NULL, waker, NULL);
    for (int t = 0; t <= WAKERS; t++)
        pthread_join(many[t], NULL);
    elapsed = now() - start;
    unsigned long long wakes = atomic_load(&shm_futex_wakes) - wakes_before;
    printf("%d wakers: %ld rounds in %.2f s, %ld sleeps announced, %llu futex wakes\n", WAKERS,
           many_rounds, elapsed, atomic_load(&announced), wakes);
    if (wakes > (unsigned long long)atomic_load(&announced)) {
        printf("FAIL: more wakes than sleeps: wakers did not claim the sleep\n");
        return 1;
    }
    return elapsed < 19.0 ? 0 : 1;
}
