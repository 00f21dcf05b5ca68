/* comm_dup_concurrent: NTHREADS threads per rank create communicators at the same time, each
 * from its own parent: MPI_Comm_dup and MPI_Comm_split in a loop. The context-id agreement of
 * one thread must not hand out the ids another thread is agreeing on: every new communicator
 * is checked by a ring exchange on it that would cross threads if two shared a context (all
 * threads use the same tag), and by an allreduce. Threads start in different orders on
 * different ranks (rank-dependent start delays). Then the pattern of MPICH's
 * threads/comm/comm_dup_deadlock: thread i of rank i starts late, and every thread duplicates
 * MPI_COMM_SELF before its parent; a one-process agreement must not wait for the claim of a
 * thread that waits for a late peer. */
#include "threads_common.h"

enum { NTHREADS = 4, ROUNDS = 40 };

struct arg {
    int id;
    MPI_Comm parent;
};

static void check_comm(MPI_Comm comm, int id, int round, int size)
{
    int rank;
    MPI_Comm_rank(comm, &rank);
    int right = (rank + 1) % size, left = (rank + size - 1) % size, got = -1;
    int token = id * 100000 + round;
    MPI_Sendrecv(&token, 1, MPI_INT, right, 5, &got, 1, MPI_INT, left, 5, comm,
                 MPI_STATUS_IGNORE);
    TC_CHECK(got == token, "thread %d round %d: ring got %d", id, round, got);
    int sum = 0, one = 1;
    MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, comm);
    TC_CHECK(sum == size, "thread %d round %d: allreduce %d of %d", id, round, sum, size);
}

static void *creator(void *p)
{
    struct arg *a = p;
    mt_sleep(0.001 * ((mt_rank * 3 + a->id) % NTHREADS));
    for (int r = 0; r < ROUNDS; r++) {
        MPI_Comm dup, half;
        MPI_Comm_dup(a->parent, &dup);
        check_comm(dup, a->id, r, mt_size);
        MPI_Comm_split(a->parent, mt_rank % 2, mt_rank, &half);
        int half_size;
        MPI_Comm_size(half, &half_size);
        TC_CHECK(half_size == (mt_size + 1 - mt_rank % 2) / 2, "thread %d: split size %d",
                 a->id, half_size);
        check_comm(half, a->id, r, half_size);
        int result;
        MPI_Comm_compare(dup, a->parent, &result);
        TC_CHECK(result == MPI_CONGRUENT, "thread %d: dup compares %d", a->id, result);
        MPI_Comm_free(&half);
        MPI_Comm_free(&dup);
    }
    return NULL;
}

static void *self_then_parent(void *p)
{
    struct arg *a = p;
    for (int r = 0; r < 3; r++) {
        if (a->id == mt_rank % NTHREADS)
            mt_sleep(0.2);
        MPI_Comm self_dup, dup;
        MPI_Comm_dup(MPI_COMM_SELF, &self_dup);
        int size = 0;
        MPI_Comm_size(self_dup, &size);
        TC_CHECK(size == 1, "thread %d: MPI_COMM_SELF dup has size %d", a->id, size);
        MPI_Barrier(self_dup);
        MPI_Comm_dup(a->parent, &dup);
        check_comm(dup, a->id, r, mt_size);
        MPI_Comm_free(&dup);
        MPI_Comm_free(&self_dup);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    tc_init_multiple(&argc, &argv);
    struct arg args[NTHREADS];
    for (int i = 0; i < NTHREADS; i++) {
        args[i].id = i;
        MT_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &args[i].parent));
    }
    tc_run(NTHREADS, creator, args, sizeof(args[0]));
    tc_run(NTHREADS, self_then_parent, args, sizeof(args[0]));
    for (int i = 0; i < NTHREADS; i++)
        MPI_Comm_free(&args[i].parent);
    return mt_finish();
}
