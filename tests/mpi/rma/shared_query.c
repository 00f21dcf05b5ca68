/* shared_query.c - MPI_Win_shared_query on the flavors other than Win_allocate_shared
 * (MPI-4.1 12.2.3: allowed on Win_create and Win_allocate windows; where a segment is not
 * reachable by load/store the answer is size 0 and a base as if MPI_Alloc_mem had 0 bytes;
 * dynamic windows are refused with MPI_ERR_RMA_FLAVOR). nodempi keeps Win_allocate memory in
 * shared memory, so there every rank's segment is reported and reachable; Win_create memory is
 * not shared, so the answer is size 0 and NULL. Libraries older than MPI-4.1 raise
 * MPI_ERR_RMA_FLAVOR for all of these and are not checked. */
#include "mpitest.h"

static MPI_Aint segment_size(int rank)
{
    return (MPI_Aint)(10 + 3 * rank) * (MPI_Aint)sizeof(int);
}

static void check_create(void)
{
    int *mem = mt_malloc((size_t)segment_size(mt_rank));
    MPI_Win win;
    MT_MPI(MPI_Win_create(mem, segment_size(mt_rank), sizeof(int), MPI_INFO_NULL,
                          MPI_COMM_WORLD, &win));
    MT_MPI(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
    for (int r = -1; r < mt_size; r++) {
        int rank = r < 0 ? MPI_PROC_NULL : r, disp_unit = -1;
        MPI_Aint size = -1;
        void *base = &size;
        MT_MPI(MPI_Win_shared_query(win, rank, &size, &disp_unit, &base));
        if (mt_library_is("nodempi"))
            MT_CHECK(size == 0 && base == NULL,
                     "Win_create, rank %d: size %ld base %p, expected 0 and NULL", rank,
                     (long)size, base);
        else if (size != 0) /* another library may share Win_create memory */
            MT_CHECK(size == segment_size(rank < 0 ? 0 : rank) && base != NULL,
                     "Win_create, rank %d: size %ld base %p", rank, (long)size, base);
    }
    MT_MPI(MPI_Win_free(&win));
    free(mem);
}

/* Every rank writes its segment; each reads all the others through the queried pointers. */
static void check_allocate(void)
{
    int *mine;
    MPI_Win win;
    MT_MPI(MPI_Win_allocate(segment_size(mt_rank), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD,
                            &mine, &win));
    MT_MPI(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
    MT_MPI(MPI_Win_lock_all(0, win));
    int n = (int)(segment_size(mt_rank) / (MPI_Aint)sizeof(int));
    for (int i = 0; i < n; i++)
        mine[i] = 100 * mt_rank + i;
    MT_MPI(MPI_Win_sync(win));
    MPI_Barrier(MPI_COMM_WORLD);
    MT_MPI(MPI_Win_sync(win));
    for (int r = -1; r < mt_size; r++) {
        int rank = r < 0 ? MPI_PROC_NULL : r, owner = r < 0 ? 0 : r, disp_unit = -1;
        MPI_Aint size = -1;
        int *base = NULL;
        MT_MPI(MPI_Win_shared_query(win, rank, &size, &disp_unit, &base));
        if (size == 0 && !mt_library_is("nodempi"))
            continue; /* not shared there: nothing more to check */
        MT_CHECK(size == segment_size(owner) && disp_unit == (int)sizeof(int),
                 "Win_allocate, rank %d: size %ld disp_unit %d, expected %ld and %d", rank,
                 (long)size, disp_unit, (long)segment_size(owner), (int)sizeof(int));
        if (owner == mt_rank)
            MT_CHECK(base == mine, "Win_allocate, rank %d: base %p, own base %p", rank,
                     (void *)base, (void *)mine);
        for (int i = 0; base && i < (int)(size / (MPI_Aint)sizeof(int)); i++)
            if (base[i] != 100 * owner + i) {
                MT_CHECK_INT(100 * owner + i, base[i], "element read through the query");
                break;
            }
    }
    MT_MPI(MPI_Win_unlock_all(win));
    MT_MPI(MPI_Win_free(&win));
}

static void check_dynamic(void)
{
    MPI_Win win;
    MT_MPI(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    MT_MPI(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
    MPI_Aint size;
    int disp_unit;
    void *base;
    MT_CHECK_ERRCLASS(MPI_Win_shared_query(win, 0, &size, &disp_unit, &base),
                      MPI_ERR_RMA_FLAVOR, "MPI_Win_shared_query on a dynamic window");
    MT_MPI(MPI_Win_free(&win));
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int version, subversion;
    MPI_Get_version(&version, &subversion);
    if (version * 10 + subversion >= 41) {
        check_create();
        check_allocate();
    }
    check_dynamic();
    return mt_finish();
}
