/* shared.c - MPI_Win_allocate_shared and MPI_Win_shared_query: segments of different sizes
 * (one rank contributes 0 bytes) are contiguous in rank order by default; MPI_PROC_NULL
 * queries the first non-empty segment; with alloc_shared_noncontig each segment is still
 * reachable; direct load/store into the neighbours' segments synchronized by MPI_Win_sync and
 * barriers inside a lock_all epoch (the unified-model idiom), checked against locally computed
 * values; a flag handed through shared memory with Win_sync polling. */
#include "mpitest.h"

static MPI_Aint size_of(int rank)
{
    return rank == 1 ? 0 : (MPI_Aint)(rank % 3 + 1) * 24 * (MPI_Aint)sizeof(int);
}

static void check_layout(MPI_Win win, int contiguous, const char *what)
{
    char *prev_end = NULL;
    for (int r = 0; r < mt_size; r++) {
        MPI_Aint size = -1;
        int disp_unit = -1;
        char *base = NULL;
        MT_MPI(MPI_Win_shared_query(win, r, &size, &disp_unit, &base));
        /* Open MPI 4.1 reports noncontig segments rounded up to pages: tolerated there */
        int size_ok = size == size_of(r) ||
                      (!contiguous && mt_library_is("Open MPI") && size >= size_of(r));
        MT_CHECK(size_ok, "%s: rank %d size %ld, expected %ld", what, r, (long)size,
                 (long)size_of(r));
        MT_CHECK(disp_unit == (int)sizeof(int), "%s: rank %d disp_unit %d", what, r, disp_unit);
        if (contiguous && prev_end && size > 0)
            MT_CHECK(base == prev_end, "%s: rank %d segment not contiguous with rank %d's", what,
                     r, r - 1);
        if (size > 0 || !prev_end)
            prev_end = base + size;
    }
    MPI_Aint size = -1;
    int disp_unit = -1;
    char *base = NULL, *first = NULL;
    MT_MPI(MPI_Win_shared_query(win, MPI_PROC_NULL, &size, &disp_unit, &base));
    int first_rank = size_of(0) > 0 ? 0 : 2;
    if (first_rank < mt_size) {
        MPI_Aint s0;
        int d0;
        MPI_Win_shared_query(win, first_rank, &s0, &d0, &first);
        MT_CHECK((size == size_of(first_rank) || (!contiguous && size > size_of(first_rank) &&
                                                  mt_library_is("Open MPI"))) &&
                     base == first,
                 "%s: MPI_PROC_NULL query gives size %ld", what, (long)size);
    }
}

/* Every rank fills its segment, then reads the segments of all others directly. */
static void load_store(MPI_Win win, int *mine, const char *what)
{
    int n = (int)(size_of(mt_rank) / (MPI_Aint)sizeof(int));
    MT_MPI(MPI_Win_lock_all(0, win));
    for (int i = 0; i < n; i++)
        mine[i] = 1000 * mt_rank + i;
    MT_MPI(MPI_Win_sync(win));
    MPI_Barrier(MPI_COMM_WORLD);
    MT_MPI(MPI_Win_sync(win));
    for (int r = 0; r < mt_size; r++) {
        MPI_Aint size;
        int disp_unit;
        int *seg;
        MPI_Win_shared_query(win, r, &size, &disp_unit, &seg);
        (void)size;
        for (int i = 0; i < (int)(size_of(r) / (MPI_Aint)sizeof(int)); i++)
            if (seg[i] != 1000 * r + i) {
                MT_CHECK(0, "%s: rank %d's segment [%d] = %d, expected %d", what, r, i, seg[i],
                         1000 * r + i);
                break;
            }
    }
    MT_MPI(MPI_Win_unlock_all(win));
    MPI_Barrier(MPI_COMM_WORLD);
}

/* Rank 0 stores a value and raises a flag in rank last's segment; last polls with Win_sync. */
static void flag_handoff(MPI_Win win)
{
    int last = mt_size - 1;
    if (last == 1 || mt_size < 2) /* rank 1 has no memory */
        return;
    MPI_Aint size;
    int disp_unit;
    volatile int *seg;
    MPI_Win_shared_query(win, last, &size, &disp_unit, (void *)&seg);
    MT_MPI(MPI_Win_lock_all(0, win));
    if (mt_rank == last) {
        seg[0] = 0;
        seg[1] = 0;
        MT_MPI(MPI_Win_sync(win));
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (mt_rank == 0) {
        seg[1] = 4242;
        MT_MPI(MPI_Win_sync(win));
        seg[0] = 1;
        MT_MPI(MPI_Win_sync(win));
    } else if (mt_rank == last) {
        while (seg[0] == 0)
            MT_MPI(MPI_Win_sync(win));
        MT_CHECK(seg[1] == 4242, "value behind the flag: %d", seg[1]);
    }
    MT_MPI(MPI_Win_unlock_all(win));
    MPI_Barrier(MPI_COMM_WORLD);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    int *mine = NULL;
    MPI_Win win;
    MT_MPI(MPI_Win_allocate_shared(size_of(mt_rank), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD,
                                   &mine, &win));
    int flavor = 0, flag = 0, *flavor_p = NULL;
    MT_MPI(MPI_Win_get_attr(win, MPI_WIN_CREATE_FLAVOR, &flavor_p, &flag));
    if (flag && flavor_p)
        flavor = *flavor_p;
    MT_CHECK(flag && flavor == MPI_WIN_FLAVOR_SHARED, "create flavor %d", flavor);
    check_layout(win, 1, "contiguous");
    load_store(win, mine, "contiguous");
    flag_handoff(win);
    MT_MPI(MPI_Win_free(&win));

    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "alloc_shared_noncontig", "true");
    MT_MPI(MPI_Win_allocate_shared(size_of(mt_rank), sizeof(int), info, MPI_COMM_WORLD, &mine,
                                   &win));
    MPI_Info_free(&info);
    check_layout(win, 0, "noncontig");
    load_store(win, mine, "noncontig");
    MT_MPI(MPI_Win_free(&win));

    /* a shared window on a split communicator (node-local, as programs make them) */
    MPI_Comm node;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    double *d;
    MT_MPI(MPI_Win_allocate_shared(sizeof(double), sizeof(double), MPI_INFO_NULL, node, &d, &win));
    MT_MPI(MPI_Win_fence(0, win));
    *d = mt_rank + 0.5;
    MT_MPI(MPI_Win_fence(0, win));
    double *other;
    MPI_Aint size;
    int unit;
    MPI_Win_shared_query(win, mt_left(), &size, &unit, &other);
    MT_CHECK(*other == mt_left() + 0.5, "split-comm shared window: left holds %g", *other);
    MT_MPI(MPI_Win_fence(0, win));
    MT_MPI(MPI_Win_free(&win));
    MPI_Comm_free(&node);
    return mt_finish();
}
