/* taskfarm.c - the classic master/worker task farm: rank 0 hands out ranges of integers, the
 * workers return the primes in them. Results have varying (and sometimes zero) length, so the
 * master waits with MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG) (or polls with MPI_Iprobe), sizes its
 * buffer with MPI_Get_count and receives from status.MPI_SOURCE with status.MPI_TAG (the tag names
 * the task); workers take either work or a zero-length termination message with MPI_Mprobe +
 * MPI_Mrecv and report their statistics with another tag before leaving. The master checks every
 * result against a serial sieve and the statistics against the task count. With one rank the
 * master works alone. */
#include <mpi.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int errs, myrank;

static void fail(int line, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    if (errs++ >= 20)
        return;
    int n = snprintf(msg, sizeof msg, "FAIL taskfarm.c:%d rank %d: ", line, myrank);
    va_start(ap, fmt);
    vsnprintf(msg + n, sizeof msg - (size_t)n, fmt, ap);
    va_end(ap);
    fprintf(stderr, "%s\n", msg);
}
#define CHECK(c, ...) do { if (!(c)) fail(__LINE__, __VA_ARGS__); } while (0)

#define NTASKS 150
#define LIMIT 200000
enum { TAG_WORK = 1, TAG_STOP = 2, TAG_STATS = 3, TAG_RESULT = 1000 };

static void task_range(int t, long range[2])
{
    range[0] = (long)t * (LIMIT / NTASKS) + (t * 37) % 100;
    range[1] = t % 10 == 9 ? range[0] : range[0] + 100 + (long)(t * 7919) % 1200;
}

static int is_prime(long v)
{
    if (v < 2)
        return 0;
    for (long d = 2; d * d <= v; d++)
        if (v % d == 0)
            return 0;
    return 1;
}

/* Primes in [lo, hi) into out (caller sized), returns the count. */
static int primes_in(const long range[2], int *out)
{
    int n = 0;
    for (long v = range[0]; v < range[1]; v++)
        if (is_prime(v))
            out[n++] = (int)v;
    return n;
}

static void worker(void)
{
    int done = 0, *out = malloc(sizeof(int) * 2000);
    for (;;) {
        MPI_Status st;
        MPI_Message msg;
        MPI_Mprobe(0, MPI_ANY_TAG, MPI_COMM_WORLD, &msg, &st);
        if (st.MPI_TAG == TAG_STOP) {
            int cnt = -1;
            MPI_Get_count(&st, MPI_LONG, &cnt);
            CHECK(cnt == 0, "termination message has %d elements", cnt);
            MPI_Mrecv(NULL, 0, MPI_LONG, &msg, MPI_STATUS_IGNORE);
            CHECK(msg == MPI_MESSAGE_NULL, "MPI_Mrecv did not reset the message handle");
            break;
        }
        CHECK(st.MPI_TAG >= TAG_RESULT, "unexpected tag %d from the master", st.MPI_TAG);
        long range[2];
        MPI_Status rst;
        MPI_Mrecv(range, 2, MPI_LONG, &msg, &rst);
        CHECK(rst.MPI_TAG == st.MPI_TAG && rst.MPI_SOURCE == 0, "Mrecv status (%d, %d) after "
              "Mprobe (%d, %d)", rst.MPI_SOURCE, rst.MPI_TAG, st.MPI_SOURCE, st.MPI_TAG);
        int n = primes_in(range, out);
        MPI_Send(out, n, MPI_INT, 0, st.MPI_TAG, MPI_COMM_WORLD); /* tag names the task */
        done++;
    }
    MPI_Send(&done, 1, MPI_INT, 0, TAG_STATS, MPI_COMM_WORLD);
    free(out);
}

static void master(int np)
{
    int *count = malloc(sizeof(int) * NTASKS), **result = calloc(NTASKS, sizeof(int *));
    int next = 0, outstanding = 0, stats = 0, stats_msgs = 0, *per_worker = calloc((size_t)np,
                                                                                  sizeof(int));
    long range[2];
    if (np == 1) { /* nobody to farm out to */
        int *out = malloc(sizeof(int) * 2000);
        for (int t = 0; t < NTASKS; t++) {
            task_range(t, range);
            count[t] = primes_in(range, out);
            result[t] = malloc(sizeof(int) * (size_t)(count[t] + 1));
            memcpy(result[t], out, sizeof(int) * (size_t)count[t]);
        }
        free(out);
        stats = NTASKS;
    } else {
        for (int w = 1; w < np; w++) {
            if (next < NTASKS) {
                task_range(next, range);
                MPI_Send(range, 2, MPI_LONG, w, TAG_RESULT + next, MPI_COMM_WORLD);
                next++;
                outstanding++;
            } else {
                MPI_Send(NULL, 0, MPI_LONG, w, TAG_STOP, MPI_COMM_WORLD);
            }
        }
        while (outstanding > 0 || stats_msgs < np - 1) {
            MPI_Status st;
            int n = -1;
            if (next % 2) { /* some farms poll, doing other things in between */
                int flag = 0;
                while (!flag)
                    MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
            } else {
                MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
            }
            MPI_Get_count(&st, MPI_INT, &n);
            if (st.MPI_TAG == TAG_STATS) {
                int d;
                CHECK(n == 1, "statistics message of %d ints", n);
                MPI_Recv(&d, 1, MPI_INT, st.MPI_SOURCE, TAG_STATS, MPI_COMM_WORLD,
                         MPI_STATUS_IGNORE);
                CHECK(d == per_worker[st.MPI_SOURCE], "worker %d says it did %d tasks, the "
                      "master counted %d", st.MPI_SOURCE, d, per_worker[st.MPI_SOURCE]);
                stats += d;
                stats_msgs++;
                continue;
            }
            int t = st.MPI_TAG - TAG_RESULT;
            if (t < 0 || t >= NTASKS || result[t]) {
                fail(__LINE__, "result with tag %d from %d", st.MPI_TAG, st.MPI_SOURCE);
                MPI_Abort(MPI_COMM_WORLD, 3);
            }
            count[t] = n;
            result[t] = malloc(sizeof(int) * (size_t)(n + 1));
            MPI_Status rst;
            MPI_Recv(result[t], n, MPI_INT, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD, &rst);
            CHECK(rst.MPI_SOURCE == st.MPI_SOURCE && rst.MPI_TAG == st.MPI_TAG,
                  "received (%d, %d) after probing (%d, %d)", rst.MPI_SOURCE, rst.MPI_TAG,
                  st.MPI_SOURCE, st.MPI_TAG);
            per_worker[st.MPI_SOURCE]++;
            outstanding--;
            if (next < NTASKS) {
                task_range(next, range);
                MPI_Send(range, 2, MPI_LONG, st.MPI_SOURCE, TAG_RESULT + next, MPI_COMM_WORLD);
                next++;
                outstanding++;
            } else {
                MPI_Send(NULL, 0, MPI_LONG, st.MPI_SOURCE, TAG_STOP, MPI_COMM_WORLD);
            }
        }
    }

    /* check everything against a serial sieve */
    char *composite = calloc(LIMIT + 2000, 1);
    composite[0] = composite[1] = 1;
    for (long d = 2; d * d < LIMIT + 2000; d++)
        if (!composite[d])
            for (long v = d * d; v < LIMIT + 2000; v += d)
                composite[v] = 1;
    long total = 0;
    for (int t = 0; t < NTASKS; t++) {
        int k = 0;
        task_range(t, range);
        for (long v = range[0]; v < range[1]; v++)
            if (!composite[v]) {
                if (k >= count[t] || result[t][k] != v) {
                    fail(__LINE__, "task %d [%ld, %ld): prime %ld missing or misplaced", t,
                         range[0], range[1], v);
                    break;
                }
                k++;
            }
        CHECK(k == count[t], "task %d: %d primes returned, %d expected", t, count[t], k);
        total += count[t];
        free(result[t]);
    }
    CHECK(stats == NTASKS, "workers report %d tasks done, %d handed out", stats, NTASKS);
    printf("%d tasks on %d workers: %ld primes\n", NTASKS, np - 1, total);
    free(composite);
    free(count);
    free(result);
    free(per_worker);
}

int main(int argc, char **argv)
{
    int np;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &myrank);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    if (myrank == 0)
        master(np);
    else
        worker();
    int total = 0;
    MPI_Allreduce(&errs, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (myrank == 0 && total)
        printf("FAILED: %d errors\n", total);
    else if (myrank == 0)
        printf("No errors\n");
    MPI_Finalize();
    return total != 0;
}
