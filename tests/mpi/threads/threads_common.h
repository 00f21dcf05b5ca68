/* threads_common.h - what the MPI_THREAD_MULTIPLE tests share: start MPI at MULTIPLE (a test
 * that does not get it fails: nodempi grants it), run n threads over one function. */
#ifndef THREADS_COMMON_H
#define THREADS_COMMON_H

#include "../common/mpitest.h"

#include <pthread.h>

static inline void tc_init_multiple(int *argc, char ***argv)
{
    int provided = -1;
    MT_ASSERT(MPI_Init_thread(argc, argv, MPI_THREAD_MULTIPLE, &provided) == MPI_SUCCESS,
              "MPI_Init_thread failed");
    mt_setup();
    MT_ASSERT(provided == MPI_THREAD_MULTIPLE, "provided %d, not MPI_THREAD_MULTIPLE", provided);
}

/* Failures are counted from several threads: one lock around the shared counter. */
static pthread_mutex_t tc_fail_lock = PTHREAD_MUTEX_INITIALIZER;
#define TC_CHECK(cond, ...)                                                                   \
    do {                                                                                      \
        if (!(cond)) {                                                                        \
            pthread_mutex_lock(&tc_fail_lock);                                                \
            mt_fail(__FILE__, __LINE__, __VA_ARGS__);                                         \
            pthread_mutex_unlock(&tc_fail_lock);                                              \
        }                                                                                     \
    } while (0)

/* Run fn(i) on threads 0..n-1, released together (a barrier: otherwise the first threads
 * may be done before the last start, and nothing runs concurrently), and wait for all. */
struct tc_start {
    pthread_barrier_t *barrier;
    void *(*fn)(void *);
    void *arg;
};

static inline void *tc_started(void *p)
{
    struct tc_start *s = p;
    pthread_barrier_wait(s->barrier);
    return s->fn(s->arg);
}

static inline void tc_run(int n, void *(*fn)(void *), void *args, size_t arg_size)
{
    pthread_t tid[64];
    struct tc_start start[64];
    pthread_barrier_t barrier;
    MT_ASSERT(n <= 64, "too many threads");
    pthread_barrier_init(&barrier, NULL, (unsigned)n);
    for (int i = 0; i < n; i++) {
        start[i] = (struct tc_start){&barrier, fn, (char *)args + (size_t)i * arg_size};
        MT_ASSERT(pthread_create(&tid[i], NULL, tc_started, &start[i]) == 0,
                  "pthread_create failed");
    }
    for (int i = 0; i < n; i++)
        pthread_join(tid[i], NULL);
    pthread_barrier_destroy(&barrier);
}

#endif
