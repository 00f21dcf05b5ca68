/* foreign.c - peers of other jobs (spawned children, accepted or connected groups, a joined
 * process). They are appended to the peer table after this job's ranks, so every protocol,
 * matching and progress path handles them by index as it does a local rank; what differs is
 * only where their rings live (a connection segment, src/core/dpm_connect.c) and that they
 * always use the pair design's channel (ring and fastbox) without single copy (their pid may
 * be ptrace-fenced, and the copy slots, inboxes and doorbells are per job). Peers are added
 * between MPI calls only (the table moves). */
#include <stdlib.h>
#include <string.h>

#include "core/config.h"
#include "core/state.h"
#include "p2p/internal.h"
#include "shm/segment.h"

static int grow_tables(void)
{
    size_t n = (size_t)p2p.nranks + 1;
    struct p2p_peer *peers = realloc(p2p.peers, n * sizeof(*peers));
    if (!peers)
        return MPI_ERR_NO_MEM;
    p2p.peers = peers;
    memset(&p2p.peers[p2p.nranks], 0, sizeof(*peers));
    if (p2p.cor_active) {
        int *active = realloc(p2p.cor_active, n * sizeof(int));
        if (!active)
            return MPI_ERR_NO_MEM;
        p2p.cor_active = active;
    }
    return MPI_SUCCESS;
}

int p2p_foreign_add(struct shm_header *conn, int conn_me, int conn_peer,
                    struct shm_rank_block *wake_block, int *index)
{
    int rc = grow_tables();
    if (rc != MPI_SUCCESS)
        return rc;
    int r = p2p.nranks;
    struct p2p_peer *peer = &p2p.peers[r];
    shm_ring_view(&peer->to_peer, conn, conn_me, conn_peer);
    shm_ring_view(&peer->from_peer, conn, conn_peer, conn_me);
    /* Every design drains a foreign peer with the pair design's drain (queue.c), which reads
     * the fastbox in order with the ring, so small records may use it as in the pair design. */
    shm_fastbox_view(&peer->to_fb, conn, conn_me, conn_peer);
    shm_fastbox_view(&peer->from_fb, conn, conn_peer, conn_me);
    peer->fastbox = core_config.fastbox != CORE_SWITCH_OFF;
    peer->block = wake_block;
    peer->channel = p2p.queue == P2P_QUEUE_COR ? P2P_CHANNEL_RING_COR : P2P_CHANNEL_RING;
    peer->cor_slot = -1;
    peer->foreign = 1;
    p2p.nranks++;
    p2p_set_pair_thresholds(r);
    /* The other job may sleep on its futex (it may be oversubscribed when ours is not), and
     * the two jobs' processes share the cores: count them when deciding how to wait. */
    p2p.wake_peers = 1;
    nodempi.foreign_peers++;
    nodempi.oversubscribed = nodempi.world_size + nodempi.foreign_peers > nodempi.cores;
    *index = r;
    return MPI_SUCCESS;
}
