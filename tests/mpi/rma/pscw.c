/* pscw.c - general active target synchronization with groups larger than one:
 *   - star: rank 0 exposes its window to all others, each puts into its own slot;
 *   - all-to-all: every rank exposes to and accesses every rank, in one epoch;
 *   - many consecutive epochs alternating partners (left exposes, right accesses and back),
 *     ended by MPI_Win_wait and by MPI_Win_test polling, with accumulates in between;
 *   - MPI_MODE_NOCHECK on matching post and start calls (ordered by a barrier).
 * Every window slot is checked against the values its writers must have left. */
#include "mpitest.h"

static MPI_Group group_of(const int *ranks, int n)
{
    MPI_Group world, g;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Group_incl(world, n, ranks, &g);
    MPI_Group_free(&world);
    return g;
}

static MPI_Group all_but(int excluded)
{
    MPI_Group world, g;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    if (excluded < 0) {
        g = world;
        return g;
    }
    MPI_Group_excl(world, 1, &excluded, &g);
    MPI_Group_free(&world);
    return g;
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    int *base;
    MPI_Win win;
    MT_MPI(MPI_Win_allocate(mt_size * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD,
                            &base, &win));
    for (int i = 0; i < mt_size; i++)
        base[i] = -1;
    MPI_Barrier(MPI_COMM_WORLD);

    /* star: everybody but 0 writes rank 0's slot r */
    if (mt_size > 1) {
        if (mt_rank == 0) {
            MPI_Group others = all_but(0);
            MT_MPI(MPI_Win_post(others, 0, win));
            MT_MPI(MPI_Win_wait(win));
            MPI_Group_free(&others);
            for (int r = 1; r < mt_size; r++)
                MT_CHECK(base[r] == 10 * r, "star: slot %d = %d", r, base[r]);
        } else {
            int zero = 0, v = 10 * mt_rank;
            MPI_Group g = group_of(&zero, 1);
            MT_MPI(MPI_Win_start(g, 0, win));
            MT_MPI(MPI_Put(&v, 1, MPI_INT, 0, mt_rank, 1, MPI_INT, win));
            MT_MPI(MPI_Win_complete(win));
            MPI_Group_free(&g);
        }
    }
    MPI_Barrier(MPI_COMM_WORLD);

    /* all-to-all in one epoch */
    MPI_Group everyone = all_but(-1);
    MT_MPI(MPI_Win_post(everyone, 0, win));
    MT_MPI(MPI_Win_start(everyone, 0, win));
    int v = 100 + mt_rank;
    for (int t = 0; t < mt_size; t++)
        MT_MPI(MPI_Put(&v, 1, MPI_INT, t, mt_rank, 1, MPI_INT, win));
    MT_MPI(MPI_Win_complete(win));
    MT_MPI(MPI_Win_wait(win));
    for (int r = 0; r < mt_size; r++)
        MT_CHECK(base[r] == 100 + r, "all-to-all: slot %d = %d", r, base[r]);
    MPI_Group_free(&everyone);
    MPI_Barrier(MPI_COMM_WORLD);

    /* alternating partners: even epochs right accesses left... every rank both exposes to its
     * left and accesses its right, so each rank is origin and target in every epoch */
    int left = mt_left(), right = mt_right();
    MPI_Group lg = group_of(&left, 1), rg = group_of(&right, 1);
    for (int i = 0; i < mt_size; i++)
        base[i] = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    for (int epoch = 0; epoch < 30; epoch++) {
        int one = epoch + 1;
        MT_MPI(MPI_Win_post(lg, MPI_MODE_NOSTORE, win));
        MT_MPI(MPI_Win_start(rg, 0, win));
        MT_MPI(MPI_Accumulate(&one, 1, MPI_INT, right, 0, 1, MPI_INT, MPI_SUM, win));
        MT_MPI(MPI_Win_complete(win));
        if (epoch % 2) {
            MT_MPI(MPI_Win_wait(win));
        } else {
            int flag = 0;
            while (!flag)
                MT_MPI(MPI_Win_test(win, &flag));
        }
        MT_CHECK(base[0] == (epoch + 1) * (epoch + 2) / 2,
                 "epoch %d: accumulated %d, expected %d", epoch, base[0],
                 (epoch + 1) * (epoch + 2) / 2);
    }
    MPI_Barrier(MPI_COMM_WORLD);

    /* NOCHECK on both sides: the post is known to come first (a barrier orders it) */
    MT_MPI(MPI_Win_post(lg, MPI_MODE_NOCHECK, win));
    MPI_Barrier(MPI_COMM_WORLD);
    MT_MPI(MPI_Win_start(rg, MPI_MODE_NOCHECK, win));
    v = 7000 + mt_rank;
    MT_MPI(MPI_Put(&v, 1, MPI_INT, right, 1 % mt_size, 1, MPI_INT, win));
    MT_MPI(MPI_Win_complete(win));
    MT_MPI(MPI_Win_wait(win));
    MT_CHECK(base[1 % mt_size] == 7000 + left, "NOCHECK epoch: %d", base[1 % mt_size]);

    MPI_Group_free(&lg);
    MPI_Group_free(&rg);
    MT_MPI(MPI_Win_free(&win));
    return mt_finish();
}
