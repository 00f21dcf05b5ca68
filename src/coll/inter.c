/* inter.c - collectives on intercommunicators (not yet implemented). */
#include "coll/algorithms.h"

int coll_inter_build(struct coll_sched *s, const struct coll_args *a)
{
    (void)s;
    (void)a;
    return MPI_ERR_COMM;
}
