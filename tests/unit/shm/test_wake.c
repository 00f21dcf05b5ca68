/* test_wake.c - futex sleep/wake under contention: two threads hand a token back and forth,
 * each sleeping on its own wake word while waiting. The sleeper re-checks the token between
 * announcing its sleep and sleeping, exactly as core/progress.c does; a lost wake-up would
 * leave a thread asleep for the full 20 s timeout and the run would blow its time limit. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
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

int main(void)
{
    const char *scale = getenv("NODEMPI_TEST_SCALE");
    if (scale)
        rounds = (long)(rounds * atof(scale));
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
    return elapsed < 19.0 ? 0 : 1;
}
