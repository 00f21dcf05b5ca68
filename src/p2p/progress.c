/* progress.c - p2p setup/teardown and one progress round: poll the incoming queues (queue.c:
 * each record handled in arrival order per sender, which is what keeps matching order = send
 * order), then push whatever waits in outgoing queues. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/config.h"
#include "core/progress.h"
#include "core/state.h"
#include "p2p/internal.h"
#include "p2p/p2p.h"
#include "shm/cma.h"
#include "shm/copy.h"
#include "topo/hardware.h"
#include "topo/profile.h"

struct p2p_state p2p;

/* Topology-aware switch points (seed 001 §4.1): each pair gets the single-copy threshold of its
 * distance class (measured by nodempi-probe, or derived from the cache sizes) and a pipeline
 * fragment that keeps the data in the cache the two CPUs share. Explicit NODEMPI_* settings
 * override the per-class values for every pair. */
void p2p_set_pair_thresholds(int r)
{
    struct p2p_peer *peer = &p2p.peers[r];
    int my_cpu = -1, peer_cpu = -1;
    if (nodempi.segment && r < p2p.local_nranks) {
        my_cpu = shm_rank_block(nodempi.segment, p2p.me)->core;
        peer_cpu = shm_rank_block(nodempi.segment, r)->core;
    }
    enum topo_distance d = topo_distance_between_cpus(my_cpu, peer_cpu);
    peer->distance = d;
    peer->eager_limit = p2p.eager_limit;
    /* Streaming stores pay off between different CPUs and lose on one (shm/copy.h). */
    peer->stream_copy = core_config.stream_copy == CORE_SWITCH_ON ||
                        (core_config.stream_copy == CORE_SWITCH_AUTO && d != TOPO_SAME_CORE);
    peer->cma_threshold = core_config_is_set("NODEMPI_CMA_THRESHOLD") ? p2p.cma_threshold
                          : peer->stream_copy ? topo_profile_cma_threshold_stream(d)
                                              : topo_profile_cma_threshold(d);
    peer->chunk = p2p.chunk;
    /* Two ranks on one CPU take turns on it: their working set is its L2, not the L1. */
    size_t shared = d == TOPO_SAME_CORE ? topo_hw_cache_bytes(my_cpu, 2)
                                        : topo_shared_cache_bytes(my_cpu, peer_cpu);
    /* Eight fragments in flight must fit in a quarter of the shared cache, so the copy-in and
     * copy-out of a fragment both hit it (seed 000 §5.2). */
    if (!core_config_is_set("NODEMPI_PIPELINE_CHUNK") && shared && shared / 32 < peer->chunk)
        peer->chunk = shared / 32 > 1024 ? shared / 32 : 1024;
}

/* Fragments of at least this size are written with streaming stores; smaller records stay in
 * the cache, where the receiver reads them soonest (latency over bandwidth). */
enum { STREAM_COPY_MIN_BYTES = 2048 };

void p2p_copy_to_ring(const struct p2p_peer *peer, void *dst, const void *src, size_t len)
{
    if (peer->stream_copy && len >= STREAM_COPY_MIN_BYTES)
        shm_copy_streaming(dst, src, len);
    else
        shm_copy(dst, src, len);
}

/* Unset, the eager limit is 16 KiB while the ranks fit the cores: streams of 8-16 KiB both ways
 * then go eagerly instead of RTS, pull and FIN (2 ranks, one receive buffer: 1.17x far,
 * 1.08-1.33x close; one way 1.00-1.03x; osu_bibw 8 KiB was 0.81x MPICH's). Oversubscribed it
 * stays NODEMPI_EAGER_LIMIT's 4 KiB: 4 ranks on 2 cores broadcast 8 / 16 KiB 2-3x slower with
 * 16 KiB (docs/benchmarks.md, session 12). */
enum { P2P_EAGER_LIMIT_FITTING = 16384 };

size_t p2p_configured_eager_limit(void)
{
    if (!core_config_is_set("NODEMPI_EAGER_LIMIT") && !nodempi.oversubscribed)
        return P2P_EAGER_LIMIT_FITTING;
    return core_config.eager_limit;
}

int p2p_init(void)
{
    memset(&p2p, 0, sizeof(p2p));
    p2p.nranks = nodempi.world_size;
    p2p.local_nranks = p2p.nranks;
    p2p.me = nodempi.world_rank;
    p2p.eager_limit = p2p_configured_eager_limit();
    p2p.recv_in_place = core_config.recv_in_place != CORE_SWITCH_OFF;
    p2p.fastbox_tail = core_config.fastbox_tail != CORE_SWITCH_OFF;
    p2p.recv_partial_drain = core_config.recv_partial_drain != CORE_SWITCH_OFF;
    p2p.fastbox_pack = core_config.fastbox_pack != CORE_SWITCH_OFF;
    p2p.cma_threshold = core_config.cma_threshold;
    p2p.chunk = core_config.pipeline_chunk ? core_config.pipeline_chunk : 16384;
    p2p.wake_peers = core_config.wait == CORE_WAIT_BLOCK ||
                     (core_config.wait == CORE_WAIT_AUTO && nodempi.oversubscribed);
    if (core_config.single_copy != CORE_SINGLE_COPY_NONE) {
        p2p.cma = shm_cma_probe();
        if (!p2p.cma && core_config.single_copy == CORE_SINGLE_COPY_CMA && p2p.me == 0)
            fprintf(stderr, "nodempi: NODEMPI_SINGLE_COPY=cma but process_vm_readv is not "
                            "permitted here; using the pipelined copy\n");
    }
    p2p_split_init();
    p2p.peers = calloc((size_t)p2p.nranks, sizeof(*p2p.peers));
    if (!p2p.peers)
        return MPI_ERR_NO_MEM;
    p2p.skew_adapt = core_config.skew;
    p2p_set_idle_eager();
    /* An explicit threshold or copy mechanism is an instruction, not a starting point. */
    p2p.copy_adapt = core_config.copy_adapt == CORE_SWITCH_ON ||
                     (core_config.copy_adapt == CORE_SWITCH_AUTO &&
                      !core_config_is_set("NODEMPI_CMA_THRESHOLD") &&
                      !core_config_is_set("NODEMPI_SINGLE_COPY"));
    p2p.skew_eager_limit = core_config.skew_eager_limit;
    topo_hw_init();
    for (int r = 0; r < p2p.nranks; r++)
        p2p_set_pair_thresholds(r);
    int rc = p2p_queue_init(); /* rings, inboxes and channels of the NODEMPI_QUEUE design */
    if (rc != MPI_SUCCESS)
        return rc;
    nodempi.p2p = &p2p;
    return MPI_SUCCESS;
}

void p2p_finalize(void)
{
    struct p2p_outgoing *o = p2p.free_outgoing;
    while (o) {
        struct p2p_outgoing *next = o->next;
        free(o);
        o = next;
    }
    p2p_free_queues();
    p2p_queue_finalize();
    p2p_unexpected_pool_release();
    p2p_staging_release();
    topo_hw_finalize();
    free(p2p.peers);
    memset(&p2p, 0, sizeof(p2p));
}

/* An explicit eager limit is an instruction, not a starting point (as for the copy choice);
 * one-way streams follow idle eager unless told otherwise. */
void p2p_set_idle_eager(void)
{
    p2p.idle_eager = core_config.idle_eager == CORE_SWITCH_ON ||
                     (core_config.idle_eager == CORE_SWITCH_AUTO &&
                      !core_config_is_set("NODEMPI_EAGER_LIMIT"));
    p2p.eager_when_room = p2p.idle_eager && nodempi.oversubscribed;
    p2p.stream_eager = core_config.stream_eager == CORE_SWITCH_ON ||
                       (core_config.stream_eager == CORE_SWITCH_AUTO && p2p.idle_eager &&
                        !nodempi.oversubscribed);
}

void p2p_flush(void)
{
    unsigned idle = 0;
    /* A cancelled send the user freed (MPI_Request_free) still awaits its answer; the receiver
     * gives it from any MPI call, MPI_Finalize's barrier included. */
    while (p2p.pending_peers || p2p.cancels_pending) {
        if (p2p_progress())
            idle = 0;
        else
            core_progress_idle(++idle);
    }
}

int p2p_progress(void)
{
    int did = p2p_queue_poll();
    if (p2p.split_pending)
        did |= p2p_split_progress();
    if (p2p.pending_peers)
        for (int r = 0; r < p2p.nranks && p2p.pending_peers; r++)
            if (p2p.peers[r].out_head)
                did |= p2p_push_outgoing(r);
    return did;
}
