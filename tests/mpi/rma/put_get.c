/* put_get.c - MPI_Put and MPI_Get with every epoch kind (fence, post/start/complete/wait with
 * Win_wait and with Win_test, lock exclusive, lock shared, lock_all + flush) on every window
 * flavor (Win_create, Win_allocate, Win_allocate_shared, Win_create_dynamic), with contiguous
 * and derived datatypes on both sides (origin vector -> target indexed; target vector -> origin
 * strided). Every rank writes to its right neighbour and reads a static region of it; results
 * are checked against values computed locally. */
#include "mpitest.h"

enum { N = 64, STATIC_AT = 40 };
enum { FLAVOR_CREATE, FLAVOR_ALLOCATE, FLAVOR_SHARED, FLAVOR_DYNAMIC, FLAVORS };
enum { EPOCH_FENCE, EPOCH_PSCW_WAIT, EPOCH_PSCW_TEST, EPOCH_LOCK_EXCL, EPOCH_LOCK_SHARED,
       EPOCH_LOCK_ALL, EPOCHS };

static const char *flavor_names[] = {"create", "allocate", "allocate_shared", "dynamic"};
static const char *epoch_names[] = {"fence", "pscw+wait", "pscw+test", "lock exclusive",
                                    "lock shared", "lock_all+flush"};

struct window {
    MPI_Win win;
    int flavor;
    int *base;          /* this rank's N ints */
    int *owned;         /* memory to free (create, dynamic) */
    MPI_Aint *addrs;    /* dynamic: every rank's base address */
};

static int static_value(int owner, int i)
{
    return 1000 * owner + i;
}

static int put_value(int origin, int round, int i)
{
    return 100000 * (round + 1) + 100 * origin + i;
}

/* Displacement of int i at target (dynamic windows address memory absolutely). */
static MPI_Aint disp_of(const struct window *w, int target, int i)
{
    if (w->flavor == FLAVOR_DYNAMIC)
        return MPI_Aint_add(w->addrs[target], (MPI_Aint)i * (MPI_Aint)sizeof(int));
    return i;
}

static void make_window(struct window *w, int flavor)
{
    int disp_unit = sizeof(int);
    MPI_Aint bytes = N * sizeof(int);
    memset(w, 0, sizeof(*w));
    w->flavor = flavor;
    switch (flavor) {
    case FLAVOR_CREATE:
        w->owned = w->base = mt_malloc(bytes);
        MT_MPI(MPI_Win_create(w->base, bytes, disp_unit, MPI_INFO_NULL, MPI_COMM_WORLD, &w->win));
        break;
    case FLAVOR_ALLOCATE:
        MT_MPI(MPI_Win_allocate(bytes, disp_unit, MPI_INFO_NULL, MPI_COMM_WORLD, &w->base,
                                &w->win));
        break;
    case FLAVOR_SHARED:
        MT_MPI(MPI_Win_allocate_shared(bytes, disp_unit, MPI_INFO_NULL, MPI_COMM_WORLD, &w->base,
                                       &w->win));
        break;
    default:
        w->owned = w->base = mt_malloc(bytes);
        MT_MPI(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &w->win));
        MT_MPI(MPI_Win_attach(w->win, w->base, bytes));
        w->addrs = mt_malloc(mt_size * sizeof(MPI_Aint));
        MPI_Aint mine;
        MPI_Get_address(w->base, &mine);
        MPI_Allgather(&mine, 1, MPI_AINT, w->addrs, 1, MPI_AINT, MPI_COMM_WORLD);
        break;
    }
    MPI_Win_set_errhandler(w->win, MPI_ERRORS_RETURN);
    /* the static region other ranks read, written before anyone accesses the window */
    MT_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, mt_rank, 0, w->win));
    for (int i = 0; i < N; i++)
        w->base[i] = i >= STATIC_AT ? static_value(mt_rank, i) : -1;
    MT_MPI(MPI_Win_unlock(mt_rank, w->win));
    MPI_Barrier(MPI_COMM_WORLD);
}

static void free_window(struct window *w)
{
    if (w->flavor == FLAVOR_DYNAMIC)
        MT_MPI(MPI_Win_detach(w->win, w->base));
    MT_MPI(MPI_Win_free(&w->win));
    MT_CHECK(w->win == MPI_WIN_NULL, "Win_free must set MPI_WIN_NULL");
    free(w->owned);
    free(w->addrs);
}

/* The operations of one epoch, all aimed at `target`:
 *   [0, 16)     put, contiguous
 *   16..18, 24..28  put, origin vector(4 blocks of 2, stride 3) -> target indexed
 *               {3 at 16, 5 at 24}
 *   get of target ints 40,41,44,45,48,49 (vector 3x2 stride 4) into got[0,2,..,10]
 *   get of target [56, 64) contiguous into got2 */
static void issue(const struct window *w, int target, int round, int *src, int *vsrc,
                  int *got, int *got2, MPI_Datatype vec_origin, MPI_Datatype idx_target,
                  MPI_Datatype vec_target, MPI_Datatype strided_origin)
{
    for (int i = 0; i < 16; i++)
        src[i] = put_value(mt_rank, round, i);
    for (int i = 0; i < 11; i++)
        vsrc[i] = put_value(mt_rank, round, 50 + i);
    MT_MPI(MPI_Put(src, 16, MPI_INT, target, disp_of(w, target, 0), 16, MPI_INT, w->win));
    MT_MPI(MPI_Put(vsrc, 1, vec_origin, target, disp_of(w, target, 0), 1, idx_target, w->win));
    MT_MPI(MPI_Get(got, 1, strided_origin, target, disp_of(w, target, STATIC_AT), 1, vec_target,
                   w->win));
    MT_MPI(MPI_Get(got2, 8, MPI_INT, target, disp_of(w, target, 56), 8, MPI_INT, w->win));
}

static void check_gets(int target, const int *got, const int *got2, const char *what)
{
    static const int vec_idx[6] = {40, 41, 44, 45, 48, 49};
    for (int k = 0; k < 6; k++)
        MT_CHECK(got[2 * k] == static_value(target, vec_idx[k]), "%s: get vector [%d] = %d",
                 what, k, got[2 * k]);
    for (int k = 0; k < 6; k++)
        MT_CHECK(got[2 * k + 1] == -7, "%s: get wrote into a gap at %d", what, 2 * k + 1);
    for (int k = 0; k < 8; k++)
        MT_CHECK(got2[k] == static_value(target, 56 + k), "%s: get contiguous [%d] = %d", what,
                 k, got2[k]);
}

/* After the epoch: what the left neighbour must have put into our window. */
static void check_window(const struct window *w, int origin, int round, const char *what)
{
    static const int vec_src_idx[8] = {0, 1, 3, 4, 6, 7, 9, 10};
    static const int idx_target[8] = {16, 17, 18, 24, 25, 26, 27, 28};
    int expect[N];
    for (int i = 0; i < N; i++)
        expect[i] = i >= STATIC_AT ? static_value(mt_rank, i) : -1;
    for (int i = 0; i < 16; i++)
        expect[i] = put_value(origin, round, i);
    for (int k = 0; k < 8; k++)
        expect[idx_target[k]] = put_value(origin, round, 50 + vec_src_idx[k]);
    MT_MPI(MPI_Win_lock(MPI_LOCK_SHARED, mt_rank, 0, w->win));
    for (int i = 0; i < N; i++)
        MT_CHECK(w->base[i] == expect[i], "%s: window[%d] = %d, expected %d", what, i,
                 w->base[i], expect[i]);
    MT_MPI(MPI_Win_unlock(mt_rank, w->win));
}

static void reset_window(const struct window *w)
{
    MT_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, mt_rank, 0, w->win));
    for (int i = 0; i < STATIC_AT; i++)
        w->base[i] = -1;
    MT_MPI(MPI_Win_unlock(mt_rank, w->win));
}

static void run_epoch(const struct window *w, int epoch, int round, MPI_Datatype *types)
{
    int right = mt_right(), left = mt_left();
    int src[16], vsrc[11], got[12], got2[8];
    for (int i = 0; i < 12; i++)
        got[i] = -7;
    char what[96];
    snprintf(what, sizeof(what), "%s window, %s epoch", flavor_names[w->flavor],
             epoch_names[epoch]);
    MPI_Group world_group, left_group, right_group;
    MPI_Comm_group(MPI_COMM_WORLD, &world_group);
    MPI_Group_incl(world_group, 1, &left, &left_group);
    MPI_Group_incl(world_group, 1, &right, &right_group);
    switch (epoch) {
    case EPOCH_FENCE:
        MT_MPI(MPI_Win_fence(MPI_MODE_NOPRECEDE, w->win));
        issue(w, right, round, src, vsrc, got, got2, types[0], types[1], types[2], types[3]);
        MT_MPI(MPI_Win_fence(MPI_MODE_NOSUCCEED, w->win));
        break;
    case EPOCH_PSCW_WAIT:
    case EPOCH_PSCW_TEST:
        MT_MPI(MPI_Win_post(left_group, 0, w->win));
        MT_MPI(MPI_Win_start(right_group, 0, w->win));
        issue(w, right, round, src, vsrc, got, got2, types[0], types[1], types[2], types[3]);
        MT_MPI(MPI_Win_complete(w->win));
        if (epoch == EPOCH_PSCW_WAIT) {
            MT_MPI(MPI_Win_wait(w->win));
        } else {
            int flag = 0;
            while (!flag)
                MT_MPI(MPI_Win_test(w->win, &flag));
        }
        break;
    case EPOCH_LOCK_EXCL:
    case EPOCH_LOCK_SHARED:
        MT_MPI(MPI_Win_lock(epoch == EPOCH_LOCK_EXCL ? MPI_LOCK_EXCLUSIVE : MPI_LOCK_SHARED,
                            right, 0, w->win));
        issue(w, right, round, src, vsrc, got, got2, types[0], types[1], types[2], types[3]);
        MT_MPI(MPI_Win_unlock(right, w->win));
        MPI_Barrier(MPI_COMM_WORLD);
        break;
    default:
        MT_MPI(MPI_Win_lock_all(0, w->win));
        issue(w, right, round, src, vsrc, got, got2, types[0], types[1], types[2], types[3]);
        MT_MPI(MPI_Win_flush(right, w->win));
        MT_MPI(MPI_Win_flush_all(w->win));
        MT_MPI(MPI_Win_unlock_all(w->win));
        MPI_Barrier(MPI_COMM_WORLD);
        break;
    }
    check_gets(right, got, got2, what);
    check_window(w, left, round, what);
    MPI_Barrier(MPI_COMM_WORLD);
    reset_window(w);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Group_free(&left_group);
    MPI_Group_free(&right_group);
    MPI_Group_free(&world_group);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    MPI_Datatype types[4];
    int blocklens[2] = {3, 5}, displs[2] = {16, 24};
    MPI_Type_vector(4, 2, 3, MPI_INT, &types[0]);      /* origin of the derived put */
    MPI_Type_indexed(2, blocklens, displs, MPI_INT, &types[1]);
    MPI_Type_vector(3, 2, 4, MPI_INT, &types[2]);      /* target of the derived get */
    MPI_Type_vector(6, 1, 2, MPI_INT, &types[3]);      /* origin of the derived get */
    for (int i = 0; i < 4; i++)
        MPI_Type_commit(&types[i]);
    int round = 0;
    for (int flavor = 0; flavor < FLAVORS; flavor++) {
        struct window w;
        make_window(&w, flavor);
        for (int epoch = 0; epoch < EPOCHS; epoch++)
            run_epoch(&w, epoch, round++, types);
        free_window(&w);
    }
    for (int i = 0; i < 4; i++)
        MPI_Type_free(&types[i]);
    return mt_finish();
}
