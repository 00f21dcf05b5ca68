/* neighbor.c - neighborhood collectives (not yet implemented). */
#include "coll/algorithms.h"

int coll_neighbor_build(struct coll_sched *s, const struct coll_args *a)
{
    (void)s;
    (void)a;
    return MPI_ERR_TOPOLOGY;
}
