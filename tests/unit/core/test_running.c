/* test_running.c - the "is the awaited rank running?" hint (core/running.c) on a segment of
 * two rank blocks: nobody runs before a stamp; a fresh stamp of the awaited rank counts, its
 * own, a wildcard's (-1) and an out-of-range rank's never do; a stamp goes stale after its
 * freshness window (1 us; the check allows 2 ms of scheduling slack); a rank that keeps
 * stamping keeps being seen running. */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/running.h"
#include "core/state.h"
#include "shm/segment.h"

#include "../common/unit_check.h"

static void pause_for(long ns)
{
    struct timespec t = {ns / 1000000000L, ns % 1000000000L};
    nanosleep(&t, NULL);
}

int main(void)
{
    /* the header, then the two rank blocks, in whole pages (aligned_alloc wants a multiple of
     * the alignment) */
    size_t header = (sizeof(struct shm_header) + 4095) & ~(size_t)4095;
    size_t bytes = header + 4096;
    _Static_assert(2 * sizeof(struct shm_rank_block) <= 4096, "two rank blocks fit a page");
    struct shm_header *seg = aligned_alloc(4096, bytes);
    memset(seg, 0, bytes);
    seg->nranks = 2;
    seg->ranks_offset = header;
    nodempi.segment = seg;
    nodempi.world_size = 2;
    nodempi.world_rank = 0;

    core_running_await(1);
    CHECK(!core_running_awaited_runs(), "rank 1 never stamped but counts as running");

    /* Rank 1 stamps (as rank 1), then rank 0 looks at once; a look may come late (a
     * preemption, a sanitizer's first-use costs: 3-5 us under ThreadSanitizer), so it may try
     * again. */
    int counted = 0;
    for (int i = 0; i < 1000 && !counted; i++) {
        nodempi.world_rank = 1;
        core_running_beat();
        nodempi.world_rank = 0;
        counted = core_running_awaited_runs();
    }
    CHECK(atomic_load(&shm_rank_block(seg, 1)->running_ticks) != 0,
          "core_running_beat wrote no stamp");
    CHECK(counted, "a fresh stamp of the awaited rank does not count");

    core_running_await(0);
    CHECK(!core_running_awaited_runs(), "waiting for oneself counts as running");
    core_running_await(-1);
    CHECK(!core_running_awaited_runs(), "a wildcard counts as running");
    core_running_await(2);
    CHECK(!core_running_awaited_runs(), "a rank outside the job counts as running");

    core_running_await(1);
    pause_for(2 * 1000 * 1000);
    CHECK(!core_running_awaited_runs(), "a 2 ms old stamp still counts as running");

    /* A rank that keeps stamping keeps counting: stamp as rank 1 (rate-limited to one store
     * per 200 ns), look as rank 0, again and again. A preemption between the two may make a
     * look miss, so most looks, not all, must see it. */
    int seen = 0, looks = 0;
    for (int i = 0; i < 20000; i++) {
        nodempi.world_rank = 1;
        core_running_beat();
        nodempi.world_rank = 0;
        looks++;
        seen += core_running_awaited_runs();
    }
    CHECK(seen * 2 > looks, "a stamping rank was seen running in %d of %d looks", seen, looks);
    pause_for(2 * 1000 * 1000);
    CHECK(!core_running_awaited_runs(), "stamps stopped 2 ms ago, still running");

    nodempi.segment = NULL;
    free(seg);
    return unit_finish("test_running");
}
