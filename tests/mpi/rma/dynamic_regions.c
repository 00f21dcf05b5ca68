/* dynamic_regions.c - dynamic windows with many attached regions and a target range spanning
 * adjacent regions: every rank attaches one region per element of a 1000-element array (the
 * way a linked structure does), then the two halves of a second array separately; the left
 * neighbour puts into, accumulates into and reads back one range across both halves. Also:
 * MPI_Win_shared_query gives base NULL for a rank of an allocate_shared window with size 0. */
#include "mpitest.h"

enum { ELEMS = 1000, HALF = 300 };

static void many_regions_and_spanning_range(void)
{
    MPI_Win win;
    long *elems = mt_malloc(ELEMS * sizeof(long));
    int *array = mt_malloc(2 * HALF * sizeof(int));
    MT_MPI(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    for (int i = 0; i < ELEMS; i++) {
        elems[i] = mt_rank * 10000L + i;
        MT_MPI(MPI_Win_attach(win, &elems[i], sizeof(long)));
    }
    for (int i = 0; i < 2 * HALF; i++)
        array[i] = -1;
    MT_MPI(MPI_Win_attach(win, array, HALF * sizeof(int)));
    MT_MPI(MPI_Win_attach(win, array + HALF, HALF * sizeof(int)));
    MPI_Aint addrs[3], remote[3];
    MT_MPI(MPI_Get_address(array, &addrs[0]));
    MT_MPI(MPI_Get_address(&elems[ELEMS - 1], &addrs[1]));
    MT_MPI(MPI_Get_address(array + HALF / 2, &addrs[2]));
    MPI_Request req[2];
    MT_MPI(MPI_Irecv(remote, 3, MPI_AINT, mt_right(), 0, MPI_COMM_WORLD, &req[0]));
    MT_MPI(MPI_Isend(addrs, 3, MPI_AINT, mt_left(), 0, MPI_COMM_WORLD, &req[1]));
    MT_MPI(MPI_Waitall(2, req, MPI_STATUSES_IGNORE));

    int *out = mt_malloc(2 * HALF * sizeof(int)), *back = mt_malloc(2 * HALF * sizeof(int));
    for (int i = 0; i < 2 * HALF; i++)
        out[i] = mt_rank * 1000 + i;
    long last = -1;
    int ones[HALF];
    for (int i = 0; i < HALF; i++)
        ones[i] = 1;
    MT_MPI(MPI_Win_lock_all(0, win));
    MT_MPI(MPI_Put(out, 2 * HALF, MPI_INT, mt_right(), remote[0], 2 * HALF, MPI_INT, win));
    MT_MPI(MPI_Win_flush(mt_right(), win));
    /* HALF/2 .. 3*HALF/2 crosses the boundary between the two attached halves */
    MT_MPI(MPI_Accumulate(ones, HALF, MPI_INT, mt_right(), remote[2], HALF, MPI_INT, MPI_SUM,
                          win));
    MT_MPI(MPI_Win_flush(mt_right(), win));
    MT_MPI(MPI_Get(back, 2 * HALF, MPI_INT, mt_right(), remote[0], 2 * HALF, MPI_INT, win));
    MT_MPI(MPI_Get(&last, 1, MPI_LONG, mt_right(), remote[1], 1, MPI_LONG, win));
    MT_MPI(MPI_Win_unlock_all(win));
    for (int i = 0; i < 2 * HALF; i++) {
        int expect = out[i] + (i >= HALF / 2 && i < HALF / 2 + HALF);
        if (back[i] != expect) {
            MT_CHECK_INT(expect, back[i], "element read back across the two regions");
            break;
        }
    }
    MT_CHECK_INT(mt_right() * 10000L + ELEMS - 1, last, "last of 1000 attached elements");
    MT_MPI(MPI_Barrier(MPI_COMM_WORLD));
    for (int i = 0; i < ELEMS; i++)
        MT_MPI(MPI_Win_detach(win, &elems[i]));
    MT_MPI(MPI_Win_detach(win, array));
    MT_MPI(MPI_Win_detach(win, array + HALF));
    MT_MPI(MPI_Win_free(&win));
    free(elems);
    free(array);
    free(out);
    free(back);
}

static void shared_query_zero_size(void)
{
    MPI_Win win;
    int *mine = NULL;
    MPI_Aint bytes = mt_rank % 2 ? 0 : 16 * sizeof(int);
    MT_MPI(MPI_Win_allocate_shared(bytes, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &mine,
                                   &win));
    for (int r = 0; r < mt_size; r++) {
        MPI_Aint size = -1;
        int unit = 0;
        void *base = (void *)&unit;
        MT_MPI(MPI_Win_shared_query(win, r, &size, &unit, &base));
        MT_CHECK_INT(r % 2 ? 0 : 16 * (long)sizeof(int), size, "shared_query size");
        MT_CHECK((r % 2 == 0) == (base != NULL), "shared_query base of rank %d is %p", r, base);
    }
    MT_MPI(MPI_Win_free(&win));
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    many_regions_and_spanning_range();
    shared_query_zero_size();
    return mt_finish();
}
