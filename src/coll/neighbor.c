/* neighbor.c - neighborhood collectives (MPI_Neighbor_allgather(v), _alltoall(v,w)) on the
 * neighbor lists src/topo keeps for Cartesian, graph and distributed-graph communicators: one
 * round in which every receive from sources[i] and every send to destinations[i] is posted.
 * MPI_PROC_NULL neighbors (non-periodic Cartesian borders) are skipped; their receive blocks
 * stay untouched.
 *
 * Matching: a Cartesian process can be both neighbors of a dimension (a periodic dimension of
 * size 1 or 2). The block it sends "down" (to its -1 neighbor, list slot 2d) must land in the
 * receiver's "up" slot (2d+1) and vice versa, so each direction gets its own tag: send slot i
 * uses tag base + i, receive slot j expects base + (j ^ 1). Graph topologies with repeated
 * edges rely on the order of the lists instead (k-th send to a peer = k-th receive from it). */
#include "coll/algorithms.h"
#include "topo/topo.h"

struct neighbors {
    int indegree, outdegree;
    const int *sources, *destinations;
    int tag_base, per_direction;
};

static int neighbors_of(struct coll_sched *s, const struct coll_args *a, struct neighbors *nb)
{
    int rc = topo_neighbors(a->comm, &nb->indegree, &nb->sources, &nb->outdegree,
                            &nb->destinations);
    if (rc != MPI_SUCCESS)
        return rc;
    nb->tag_base = s->tag;
    nb->per_direction = topo_kind(a->comm) == MPI_CART;
    /* reserve one tag per direction from the sequence (same count on every rank: ndims) */
    if (nb->per_direction)
        for (int i = 1; i < nb->outdegree; i++)
            coll_next_tag(a->comm, s->tag_space);
    return MPI_SUCCESS;
}

static void send_tag(struct coll_sched *s, const struct neighbors *nb, int slot)
{
    s->tag = nb->per_direction ? coll_tag_add(nb->tag_base, slot) : nb->tag_base;
}

static void recv_tag(struct coll_sched *s, const struct neighbors *nb, int slot)
{
    s->tag = nb->per_direction ? coll_tag_add(nb->tag_base, slot ^ 1) : nb->tag_base;
}

static void recv_block(struct coll_sched *s, const struct coll_args *a, int i, int peer)
{
    switch (a->kind) {
    case COLL_NEIGHBOR_ALLGATHER:
    case COLL_NEIGHBOR_ALLTOALL:
        coll_sched_recv(s, a->comm, peer,
                        coll_elem(a->recvbuf, (MPI_Count)i * a->recvcount, a->recvtype),
                        a->recvcount, a->recvtype);
        break;
    case COLL_NEIGHBOR_ALLGATHERV:
    case COLL_NEIGHBOR_ALLTOALLV:
        coll_sched_recv(s, a->comm, peer, coll_elem(a->recvbuf, a->rdispls[i], a->recvtype),
                        a->recvcounts[i], a->recvtype);
        break;
    default:
        coll_sched_recv(s, a->comm, peer, (char *)a->recvbuf + a->rdispls[i], a->recvcounts[i],
                        a->recvtypes[i]);
        break;
    }
}

static void send_block(struct coll_sched *s, const struct coll_args *a, int i, int peer)
{
    switch (a->kind) {
    case COLL_NEIGHBOR_ALLGATHER:
    case COLL_NEIGHBOR_ALLGATHERV:
        coll_sched_send(s, a->comm, peer, a->sendbuf, a->sendcount, a->sendtype);
        break;
    case COLL_NEIGHBOR_ALLTOALL:
        coll_sched_send(s, a->comm, peer,
                        coll_elem(a->sendbuf, (MPI_Count)i * a->sendcount, a->sendtype),
                        a->sendcount, a->sendtype);
        break;
    case COLL_NEIGHBOR_ALLTOALLV:
        coll_sched_send(s, a->comm, peer, coll_elem(a->sendbuf, a->sdispls[i], a->sendtype),
                        a->sendcounts[i], a->sendtype);
        break;
    default:
        coll_sched_send(s, a->comm, peer, (const char *)a->sendbuf + a->sdispls[i],
                        a->sendcounts[i], a->sendtypes[i]);
        break;
    }
}

int coll_neighbor_build(struct coll_sched *s, const struct coll_args *a)
{
    struct neighbors nb;
    int rc = neighbors_of(s, a, &nb);
    if (rc != MPI_SUCCESS)
        return rc;
    for (int i = 0; i < nb.indegree; i++) {
        if (nb.sources[i] == MPI_PROC_NULL)
            continue;
        recv_tag(s, &nb, i);
        recv_block(s, a, i, nb.sources[i]);
    }
    for (int i = 0; i < nb.outdegree; i++) {
        if (nb.destinations[i] == MPI_PROC_NULL)
            continue;
        send_tag(s, &nb, i);
        send_block(s, a, i, nb.destinations[i]);
    }
    coll_sched_round(s);
    s->tag = nb.tag_base;
    return MPI_SUCCESS;
}
