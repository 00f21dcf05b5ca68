/* test_atomic.c - unit test of src/rma/atomic.c: every predefined operator on every element
 * kind the atomic path takes, one element at a time against coll_op_apply (the reference the
 * locked path uses, so both paths agree), including the previous value returned for fetch;
 * compare-and-swap hits and misses; then exact totals under contention between processes
 * (integer SUM, double SUM of exactly representable values, MAX, a CAS-loop counter).
 * No MPI runtime. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "coll/op.h"
#include "datatype/datatype.h"
#include "rma/atomic.h"

static int failures;

#define CHECK(cond, ...)                                                                       \
    do {                                                                                       \
        if (!(cond)) {                                                                         \
            failures++;                                                                        \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);                               \
            fprintf(stderr, __VA_ARGS__);                                                      \
            fputc('\n', stderr);                                                               \
        }                                                                                      \
    } while (0)

static const MPI_Datatype types[] = {MPI_INT8_T,  MPI_UINT8_T,  MPI_INT16_T, MPI_UINT16_T,
                                     MPI_INT32_T, MPI_UINT32_T, MPI_INT64_T, MPI_UINT64_T,
                                     MPI_INT,     MPI_LONG,     MPI_UNSIGNED, MPI_FLOAT,
                                     MPI_DOUBLE,  MPI_C_BOOL,   MPI_BYTE,    MPI_CHAR};
static const MPI_Op ops[] = {MPI_SUM, MPI_PROD, MPI_MIN,  MPI_MAX,     MPI_LAND,  MPI_LOR,
                             MPI_LXOR, MPI_BAND, MPI_BOR, MPI_BXOR, MPI_REPLACE, MPI_NO_OP};

static void random_value(const struct dt_type *t, unsigned char *v, unsigned *seed)
{
    size_t size = (size_t)t->size;
    if (t->element == DT_ELEMENT_FLOAT) {
        float f = (float)(rand_r(seed) % 2001 - 1000) / 8.0f;
        memcpy(v, &f, sizeof(f));
    } else if (t->element == DT_ELEMENT_DOUBLE) {
        double d = (double)(rand_r(seed) % 200001 - 100000) / 16.0;
        memcpy(v, &d, sizeof(d));
    } else if (t->element == DT_ELEMENT_BOOL) {
        v[0] = (unsigned char)(rand_r(seed) % 2);
    } else {
        for (size_t i = 0; i < size; i++)
            v[i] = (unsigned char)rand_r(seed);
        if (rand_r(seed) % 4 == 0)
            memset(v, 0, size); /* zero matters for the logical operators */
    }
}

static void single_elements(void)
{
    unsigned seed = 42;
    for (size_t ti = 0; ti < sizeof(types) / sizeof(types[0]); ti++) {
        struct dt_type *t = dt_from_handle(types[ti]);
        CHECK(rma_atomic_supported(t), "%s should take the atomic path", t->name);
        size_t size = (size_t)t->size;
        for (size_t oi = 0; oi < sizeof(ops) / sizeof(ops[0]); oi++) {
            struct coll_op *op = coll_op_from_handle(ops[oi]);
            if (coll_op_check(op, t) != MPI_SUCCESS)
                continue;
            for (int trial = 0; trial < 200; trial++) {
                _Alignas(8) unsigned char origin[8], target[8], ref[8], old[8], start[8];
                random_value(t, origin, &seed);
                random_value(t, target, &seed);
                memcpy(ref, target, size);
                memcpy(start, target, size);
                coll_op_apply(op, origin, ref, 1, t);
                rma_atomic_apply(t->element, size, op->kind, target, origin, old);
                CHECK(memcmp(target, ref, size) == 0, "%s on %s: result differs",
                      coll_op_name(op), t->name);
                CHECK(memcmp(old, start, size) == 0, "%s on %s: old value differs",
                      coll_op_name(op), t->name);
            }
        }
    }
    CHECK(!rma_atomic_supported(dt_from_handle(MPI_LONG_DOUBLE)), "long double is not atomic");
    CHECK(!rma_atomic_supported(dt_from_handle(MPI_DOUBLE_INT)), "pairs are not atomic");
    CHECK(!rma_atomic_supported(dt_from_handle(MPI_C_DOUBLE_COMPLEX)), "complex16 not atomic");
}

static void compare_and_swap(void)
{
    int64_t target = 5, compare = 5, origin = 9, result = 0;
    rma_atomic_cas(8, &target, &compare, &origin, &result);
    CHECK(target == 9 && result == 5, "CAS hit: target %lld result %lld", (long long)target,
          (long long)result);
    compare = 1;
    origin = 100;
    rma_atomic_cas(8, &target, &compare, &origin, &result);
    CHECK(target == 9 && result == 9, "CAS miss: target %lld result %lld", (long long)target,
          (long long)result);
    uint16_t t16 = 7, c16 = 7, o16 = 3, r16 = 0;
    rma_atomic_cas(2, &t16, &c16, &o16, &r16);
    CHECK(t16 == 3 && r16 == 7, "CAS 16-bit");
}

/* ---- contention --------------------------------------------------------------------------- */

enum { NPROC = 4, ROUNDS = 50000 };

struct counters {
    int64_t sum;
    double dsum;
    int32_t max;
    int64_t cas_counter;
};

static void hammer(struct counters *c, int id)
{
    int64_t one = 1;
    double quarter = 0.25;
    for (int i = 0; i < ROUNDS; i++) {
        rma_atomic_apply(DT_ELEMENT_INT64, 8, COLL_OP_SUM, &c->sum, &one, NULL);
        rma_atomic_apply(DT_ELEMENT_DOUBLE, 8, COLL_OP_SUM, &c->dsum, &quarter, NULL);
        int32_t candidate = id * ROUNDS + i;
        rma_atomic_apply(DT_ELEMENT_INT32, 4, COLL_OP_MAX, &c->max, &candidate, NULL);
        for (;;) { /* a counter by compare-and-swap, as MPI programs write it */
            int64_t seen, next, got;
            rma_atomic_apply(DT_ELEMENT_INT64, 8, COLL_OP_NO_OP, &c->cas_counter, NULL, &seen);
            next = seen + 1;
            rma_atomic_cas(8, &c->cas_counter, &seen, &next, &got);
            if (got == seen)
                break;
        }
    }
}

static void contention(void)
{
    struct counters *c = mmap(NULL, sizeof(*c), PROT_READ | PROT_WRITE,
                              MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (c == MAP_FAILED) {
        CHECK(0, "mmap");
        return;
    }
    memset(c, 0, sizeof(*c));
    pid_t pids[NPROC];
    for (int i = 0; i < NPROC; i++) {
        pids[i] = fork();
        if (pids[i] == 0) {
            hammer(c, i);
            _exit(0);
        }
    }
    for (int i = 0; i < NPROC; i++)
        waitpid(pids[i], NULL, 0);
    CHECK(c->sum == (int64_t)NPROC * ROUNDS, "int64 SUM %lld", (long long)c->sum);
    CHECK(c->dsum == 0.25 * NPROC * ROUNDS, "double SUM %g", c->dsum);
    CHECK(c->max == NPROC * ROUNDS - 1, "MAX %d", c->max);
    CHECK(c->cas_counter == (int64_t)NPROC * ROUNDS, "CAS counter %lld",
          (long long)c->cas_counter);
    munmap(c, sizeof(*c));
}

int main(void)
{
    if (dt_init() != MPI_SUCCESS)
        return 1;
    single_elements();
    compare_and_swap();
    contention();
    dt_finalize();
    if (failures)
        fprintf(stderr, "%d failure(s)\n", failures);
    return failures ? 1 : 0;
}
