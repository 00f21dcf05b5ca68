/* shm_barrier.c - MPI_Barrier under contention on several communicators at once (at 3+ ranks
 * of an oversubscribed job nodempi runs it on a counter in the job segment, src/coll/
 * shm_barrier.c): no rank leaves a barrier before every rank of its communicator entered it,
 * however the ranks are delayed and whichever rank releases (a broadcast from a varying root
 * between some barriers makes that root the next releaser); more communicators than the segment has counter slots; a
 * rendezvous send in flight while its sender waits in a barrier. Portable MPI. */
#include "mpitest.h"

#include <sched.h>

enum { ROUNDS = 3000, MANY_COMMS = 300 };

/* Each rank publishes in a shared window how many barriers of each communicator it entered. */
static int *entered; /* [comm index][world rank] */
static MPI_Win win;

static void publish(int which, int count)
{
    __atomic_store_n(&entered[which * mt_size + mt_rank], count, __ATOMIC_RELEASE);
    MPI_Win_sync(win);
}

/* After barrier `count` of communicator `which`, every member must have entered it. */
static void check_all_entered(int which, MPI_Comm comm, int count)
{
    MPI_Win_sync(win);
    int size;
    MPI_Comm_size(comm, &size);
    MPI_Group world_group, group;
    MPI_Comm_group(MPI_COMM_WORLD, &world_group);
    MPI_Comm_group(comm, &group);
    for (int r = 0; r < size; r++) {
        int w;
        MPI_Group_translate_ranks(group, 1, &r, world_group, &w);
        int seen = __atomic_load_n(&entered[which * mt_size + w], __ATOMIC_ACQUIRE);
        if (seen < count) {
            mt_fail(__FILE__, __LINE__, "comm %d barrier %d: world rank %d entered only %d",
                    which, count, w, seen);
            break;
        }
    }
    MPI_Group_free(&group);
    MPI_Group_free(&world_group);
}

/* Some ranks dawdle (yield or spin) before some barriers, a different set each round. */
static void dawdle(int round)
{
    uint64_t x = mt_mix((uint64_t)round, (uint64_t)mt_rank);
    if (x % 5 == 0)
        sched_yield();
    else if (x % 7 == 0)
        for (volatile int i = 0; i < 2000; i++)
            ;
}

/* World, a duplicate, and a split in three (groups of 1-3 ranks get the barrier of their
 * size): their barriers interleave in a fixed order on every rank, as MPI requires. */
static void interleaved(void)
{
    MPI_Comm comms[3];
    comms[0] = MPI_COMM_WORLD;
    MT_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &comms[1]));
    MT_MPI(MPI_Comm_split(MPI_COMM_WORLD, mt_rank % 3, mt_size - mt_rank, &comms[2]));
    int counts[3] = {0, 0, 0};
    for (int round = 0; round < ROUNDS && !mt_errors; round++) {
        int which = (int)(mt_mix(round, 99) % 3); /* the same on every rank */
        dawdle(round);
        publish(which, ++counts[which]);
        MT_MPI(MPI_Barrier(comms[which]));
        check_all_entered(which, comms[which], counts[which]);
        if (round % 3 == 1) {
            /* a rooted call after the barrier: the next barrier of that communicator is
             * released by this root (src/coll/shm_barrier.c, auto) */
            int size, value = round;
            MPI_Comm_size(comms[which], &size);
            MT_MPI(MPI_Bcast(&value, 1, MPI_INT, (round / 3) % size, comms[which]));
            MT_CHECK_INT(round, value, "broadcast between barriers");
        }
    }
    MPI_Comm_free(&comms[1]);
    MPI_Comm_free(&comms[2]);
}

/* More live communicators than counter slots (256): some fall back to message barriers; after
 * freeing them all, new ones claim the slots again. */
static void many_comms(void)
{
    MPI_Comm *comms = mt_malloc(sizeof(MPI_Comm) * MANY_COMMS);
    for (int pass = 0; pass < 2; pass++) {
        for (int i = 0; i < MANY_COMMS; i++) {
            MT_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &comms[i]));
            MT_MPI(MPI_Barrier(comms[i]));
        }
        for (int round = 0; round < 3; round++) {
            for (int i = 0; i < MANY_COMMS; i += 37) {
                dawdle(round * MANY_COMMS + i);
                publish(3, pass * 1000000 + round * MANY_COMMS + i + 1);
                MT_MPI(MPI_Barrier(comms[i]));
                check_all_entered(3, MPI_COMM_WORLD, pass * 1000000 + round * MANY_COMMS + i + 1);
            }
        }
        for (int i = 0; i < MANY_COMMS; i++)
            MT_MPI(MPI_Comm_free(&comms[i]));
    }
    free(comms);
}

/* Rank 0 sends 1 MiB (a rendezvous) and waits in the barrier before completing the send;
 * rank 1 receives before its barrier, so rank 0's barrier must keep the transfer moving. */
static void send_across_barrier(void)
{
    size_t n = 1 << 20;
    char *buf = mt_malloc(n);
    if (mt_rank == 0) {
        mt_fill(buf, n, 7);
        MPI_Request req;
        MT_MPI(MPI_Isend(buf, (int)n, MPI_BYTE, 1, 5, MPI_COMM_WORLD, &req));
        MT_MPI(MPI_Barrier(MPI_COMM_WORLD));
        MT_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
    } else {
        if (mt_rank == 1) {
            MT_MPI(MPI_Recv(buf, (int)n, MPI_BYTE, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            MT_VERIFY(buf, n, 7, "message sent across the barrier");
        }
        MT_MPI(MPI_Barrier(MPI_COMM_WORLD));
    }
    free(buf);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    MPI_Comm node;
    MT_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node));
    int node_size;
    MPI_Comm_size(node, &node_size);
    MT_ASSERT(node_size == mt_size, "all ranks on one node (%d of %d)", node_size, mt_size);
    MT_MPI(MPI_Win_allocate_shared(mt_rank == 0 ? (MPI_Aint)(4 * mt_size * sizeof(int)) : 0,
                                   sizeof(int), MPI_INFO_NULL, node, &entered, &win));
    MPI_Aint bytes;
    int disp;
    MT_MPI(MPI_Win_shared_query(win, 0, &bytes, &disp, &entered));
    MT_MPI(MPI_Win_lock_all(MPI_MODE_NOCHECK, win));
    if (mt_rank == 0)
        memset(entered, 0, 4 * mt_size * sizeof(int));
    MPI_Win_sync(win);
    MT_MPI(MPI_Barrier(MPI_COMM_WORLD));
    MPI_Win_sync(win);
    interleaved();
    many_comms();
    if (mt_size > 1)
        send_across_barrier();
    MT_MPI(MPI_Win_unlock_all(win));
    MT_MPI(MPI_Win_free(&win));
    MPI_Comm_free(&node);
    return mt_finish();
}
