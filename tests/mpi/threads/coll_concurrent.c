/* coll_concurrent: NTHREADS threads per rank run collectives at the same time, each on its own
 * communicator (dup'ed in thread order before they start): allreduce, bcast, allgather,
 * barrier, and a nonblocking allreduce completed with MPI_Wait. */
#include "threads_common.h"

enum { NTHREADS = 4, ROUNDS = 100 };

struct arg {
    int id;
    MPI_Comm comm;
};

static void *collectives(void *p)
{
    struct arg *a = p;
    int *all = mt_malloc(sizeof(int) * (size_t)mt_size);
    for (int r = 0; r < ROUNDS; r++) {
        int mine = mt_rank + a->id * 1000 + r, sum = -1;
        MPI_Allreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, a->comm);
        int want = mt_size * (mt_size - 1) / 2 + mt_size * (a->id * 1000 + r);
        TC_CHECK(sum == want, "thread %d round %d: allreduce %d, want %d", a->id, r, sum, want);
        int value = mt_rank == r % mt_size ? a->id * 7 + r : -1;
        MPI_Bcast(&value, 1, MPI_INT, r % mt_size, a->comm);
        TC_CHECK(value == a->id * 7 + r, "thread %d round %d: bcast %d", a->id, r, value);
        MPI_Allgather(&mine, 1, MPI_INT, all, 1, MPI_INT, a->comm);
        for (int i = 0; i < mt_size; i++)
            TC_CHECK(all[i] == i + a->id * 1000 + r, "thread %d round %d: allgather[%d] = %d",
                     a->id, r, i, all[i]);
        MPI_Barrier(a->comm);
        MPI_Request req;
        int max = -1;
        MPI_Iallreduce(&mine, &max, 1, MPI_INT, MPI_MAX, a->comm, &req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        TC_CHECK(max == mt_size - 1 + a->id * 1000 + r, "thread %d round %d: iallreduce %d",
                 a->id, r, max);
    }
    free(all);
    return NULL;
}

int main(int argc, char **argv)
{
    tc_init_multiple(&argc, &argv);
    struct arg args[NTHREADS];
    for (int i = 0; i < NTHREADS; i++) {
        args[i].id = i;
        MT_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &args[i].comm));
    }
    tc_run(NTHREADS, collectives, args, sizeof(args[0]));
    for (int i = 0; i < NTHREADS; i++)
        MPI_Comm_free(&args[i].comm);
    return mt_finish();
}
