/* test_context_map.c - unit test of the context-id map of src/core/comm_create.c: reserved
 * pairs, lowest-common selection over several simulated processes (the AND an allreduce would
 * compute), reuse after free, and no exhaustion in a create/free loop. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/comm_create.h"

static int failures;

#define CHECK(cond, ...)                                                                      \
    do {                                                                                      \
        if (!(cond)) {                                                                        \
            failures++;                                                                       \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);                              \
            fprintf(stderr, __VA_ARGS__);                                                     \
            fputc('\n', stderr);                                                              \
        }                                                                                     \
    } while (0)

enum { PROCS = 5 };

static struct core_context_map maps[PROCS];

/* The agreement of a communicator made of the processes in members[]: AND, lowest n. */
static int agree(const int *members, int count, int n, int *pairs)
{
    uint64_t mask[CORE_CONTEXT_WORDS];
    memset(mask, 0xff, sizeof(mask));
    for (int m = 0; m < count; m++)
        for (int w = 0; w < CORE_CONTEXT_WORDS; w++)
            mask[w] &= maps[members[m]].free_bits[w];
    return core_context_lowest(mask, n, pairs);
}

int main(void)
{
    for (int p = 0; p < PROCS; p++)
        core_context_map_init(&maps[p]);
    CHECK(!core_context_map_is_free(&maps[0], 0), "pair 0 (MPI_COMM_WORLD) free");
    CHECK(!core_context_map_is_free(&maps[0], 1), "pair 1 (MPI_COMM_SELF) free");
    CHECK(core_context_map_is_free(&maps[0], 2), "pair 2 not free");

    int all[PROCS] = {0, 1, 2, 3, 4}, pair = -1;
    CHECK(agree(all, PROCS, 1, &pair) == 1 && pair == 2, "first pair %d", pair);
    for (int p = 0; p < PROCS; p++)
        core_context_map_take(&maps[p], 2);

    /* a communicator of {0, 1} takes 3; then one of {1, 2} must skip 3 but {2, 3} may use it */
    int g01[] = {0, 1}, g12[] = {1, 2}, g23[] = {2, 3};
    CHECK(agree(g01, 2, 1, &pair) == 1 && pair == 3, "{0,1} got %d", pair);
    core_context_map_take(&maps[0], 3);
    core_context_map_take(&maps[1], 3);
    CHECK(agree(g12, 2, 1, &pair) == 1 && pair == 4, "{1,2} got %d", pair);
    CHECK(agree(g23, 2, 1, &pair) == 1 && pair == 3, "{2,3} got %d", pair);

    /* two pairs at once (intercommunicator + its local communicator) */
    int two[2];
    CHECK(agree(all, PROCS, 2, two) == 2 && two[0] == 3 + 1 && two[1] == 5,
          "two pairs %d %d", two[0], two[1]);

    /* freeing returns the pair */
    core_context_map_put(&maps[0], 3);
    core_context_map_put(&maps[1], 3);
    CHECK(agree(g01, 2, 1, &pair) == 1 && pair == 3, "freed pair not reused (%d)", pair);

    /* a create/free loop far longer than the map never runs out */
    for (int i = 0; i < 3 * CORE_CONTEXT_PAIRS; i++) {
        int got = agree(all, PROCS, 1, &pair);
        if (got != 1) {
            CHECK(0, "ran out of pairs at iteration %d", i);
            break;
        }
        for (int p = 0; p < PROCS; p++)
            core_context_map_take(&maps[p], pair);
        for (int p = 0; p < PROCS; p++)
            core_context_map_put(&maps[p], pair);
    }

    /* exhaustion is reported, not wrapped around */
    struct core_context_map full;
    core_context_map_init(&full);
    int taken = 0;
    while (core_context_lowest(full.free_bits, 1, &pair) == 1) {
        core_context_map_take(&full, pair);
        taken++;
    }
    CHECK(taken == CORE_CONTEXT_PAIRS - 2, "took %d pairs, expected %d", taken,
          CORE_CONTEXT_PAIRS - 2);
    CHECK(core_context_lowest(full.free_bits, 1, &pair) == 0, "a full map found a pair");
    core_context_map_put(&full, CORE_CONTEXT_PAIRS - 1);
    CHECK(core_context_lowest(full.free_bits, 1, &pair) == 1 && pair == CORE_CONTEXT_PAIRS - 1,
          "last pair %d", pair);

    if (failures) {
        fprintf(stderr, "%d failure(s)\n", failures);
        return 1;
    }
    printf("test_context_map: all passed\n");
    return 0;
}
