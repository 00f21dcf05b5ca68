/* rma.h - one-sided communication: windows, epochs and operations, for the API layer
 * (src/mpi/rma.c). Every function returns an MPI error class; the API layer checks handles,
 * counts, ranks and datatypes first and turns a class into the window's error handler action.
 * Operations are issued immediately and are complete (at origin and target) when they return:
 * shared-memory windows by load/store and CPU atomics, user-memory windows by CMA
 * (process_vm_readv/writev) - no target progress is ever needed. */
#ifndef NODEMPI_RMA_H
#define NODEMPI_RMA_H

#include <stdatomic.h>
#include <stdint.h>

#include <mpi.h>

struct core_comm;
struct core_errhandler;
struct core_group;
struct core_info;
struct coll_op;
struct dt_type;
struct rma_shm_header;
struct rma_target_ctrl;
struct rma_region;
struct rma_peer;
struct rma_origin_flag;

enum rma_access {
    RMA_ACCESS_NONE,
    RMA_ACCESS_FENCE,     /* after a fence without MPI_MODE_NOSUCCEED */
    RMA_ACCESS_PSCW,      /* between start and complete */
    RMA_ACCESS_LOCK,      /* one or more Win_lock epochs */
    RMA_ACCESS_LOCK_ALL,
};

/* lock_kind[target] values (the MPI lock type never needs more). */
enum { RMA_UNLOCKED = 0, RMA_LOCKED_SHARED = 1, RMA_LOCKED_EXCLUSIVE = 2, RMA_LOCKED_NOCHECK = 4 };

struct rma_win {
    unsigned magic;
    int flavor;                   /* MPI_WIN_FLAVOR_* */
    int shared_memory;            /* window memory in the shm object (allocate flavors) */
    int cma_ok;                   /* process_vm_readv/writev permitted (user-memory windows) */
    struct core_comm *comm;       /* private duplicate of the user's communicator */
    int rank, size;
    struct rma_peer *peers;       /* [size] */
    int *rank_of_world;           /* [world size]: window rank or -1 */

    /* the shared control area and memory */
    char *shm;
    size_t shm_bytes;
    struct rma_shm_header *header;
    struct rma_target_ctrl *targets;  /* [size] */
    _Atomic uint32_t *posts;          /* [origin * size + target]: posts, target -> origin */
    _Atomic uint32_t *completes;      /* [target * size + origin]: Win_complete count */
    struct rma_region *regions;       /* [rank * RMA_MAX_REGIONS + i] (dynamic windows) */
    struct rma_origin_flag *atomic_flags; /* [size] */

    /* epochs, local view */
    enum rma_access access;
    int ops_since_fence;
    unsigned char *lock_kind;     /* [size] RMA_LOCKED_* */
    int locked_targets;
    int lock_all_nocheck;
    unsigned char *in_access_group;  /* [size]: target of the current PSCW access epoch */
    int *access_group;
    int access_group_size;
    int access_nocheck;
    uint32_t *posts_consumed;     /* [size]: posts from each target this origin has used */
    int exposed;                  /* between post and wait/test */
    int *exposure_group;
    int exposure_group_size;
    int exposure_nocheck;
    uint32_t *completes_expected; /* [size]: completes from each origin that end our posts */

    /* accumulate.c: the last (operator, predefined type) pair the fast paths accepted, and how
     * many bytes of that type the element-atomic path takes (0: none). Both objects are
     * predefined, hence never freed, so their addresses identify them for good. */
    const struct coll_op *fast_op;
    const struct dt_type *fast_type;
    size_t fast_atomic_bytes;
    const struct dt_type *fast_cas_type;  /* the last type Compare_and_swap's fast path took */

    /* attributes, name, handler, hints */
    void *attr_base;
    MPI_Aint attr_size;
    int attr_disp_unit;
    int attr_flavor;
    int attr_model;
    void *attributes;             /* owned by src/core/attr.c */
    struct core_errhandler *errhandler;
    struct core_info *info;
    char name[MPI_MAX_OBJECT_NAME];
};


/* The API layer reads comm, rank, size, flavor, errhandler, attributes, name and the attr_*
 * values (returned by pointer from MPI_Win_get_attr) and writes errhandler, attributes and
 * name; everything else belongs to src/rma. */

#define RMA_WIN_MAGIC 0x77696e21u   /* "win!" while the object is alive */

/* NULL for MPI_WIN_NULL and invalid handles. Inline: it starts every one-sided call. */
static inline struct rma_win *rma_win_from_handle(MPI_Win handle)
{
    if ((uintptr_t)handle < 0x1000)
        return NULL;
    struct rma_win *win = (struct rma_win *)handle;
    return win->magic == RMA_WIN_MAGIC ? win : NULL;
}

static inline MPI_Win rma_win_to_handle(const struct rma_win *win)
{
    return win ? (MPI_Win)win : MPI_WIN_NULL;
}

/* ---- windows (window.c) ------------------------------------------------------------------ */
/* Collective over comm (an intracommunicator); info may be NULL. */
int rma_win_create(void *base, MPI_Aint size, MPI_Aint disp_unit, struct core_info *info,
                   struct core_comm *comm, struct rma_win **out);
/* Win_allocate (shared == 0) and Win_allocate_shared (shared == 1). */
int rma_win_allocate(MPI_Aint size, MPI_Aint disp_unit, struct core_info *info,
                     struct core_comm *comm, int shared, void **baseptr, struct rma_win **out);
int rma_win_create_dynamic(struct core_info *info, struct core_comm *comm, struct rma_win **out);
/* MPI_ERR_RMA_ATTACH when the region table is full or the region overlaps an attached one;
 * detach: MPI_ERR_RMA_ATTACH when base was not attached. */
int rma_win_attach(struct rma_win *win, void *base, MPI_Aint size);
int rma_win_detach(struct rma_win *win, const void *base);
/* MPI_ERR_RMA_SYNC inside an epoch (call before deleting the attributes); rma_win_free is
 * collective: it waits until nobody accesses the window, then frees everything. */
int rma_win_free_ready(const struct rma_win *win);
int rma_win_free(struct rma_win *win);
/* Windows this process currently holds (an MPI_T level). */
int rma_open_windows(void);
/* Size and displacement unit of a target's window memory (for error messages). */
void rma_win_target_extent(const struct rma_win *win, int target, MPI_Aint *size,
                           MPI_Aint *disp_unit);
/* The segment of rank as this process addresses it (allocate_shared, allocate: the memory is
 * shared); size 0 and NULL for Win_create windows; MPI_ERR_RMA_FLAVOR for dynamic windows
 * (MPI-4.1 12.2.3). rank may be MPI_PROC_NULL: the first rank with size > 0. */
int rma_win_shared_query(struct rma_win *win, int rank, MPI_Aint *size, MPI_Aint *disp_unit,
                         void **baseptr);
int rma_win_set_info(struct rma_win *win, struct core_info *info);
int rma_win_get_info(struct rma_win *win, struct core_info **out); /* a new object */

/* ---- operations (transfer.c, accumulate.c) ----------------------------------------------- */
/* MPI_ERR_RMA_SYNC unless an access epoch to target is open (passive: lock/lock_all only;
 * target -1: any). An operation in a fence epoch marks the epoch as begun. Inline: on every
 * operation. */
static inline int rma_check_epoch(struct rma_win *win, int target)
{
    switch (win->access) {
    case RMA_ACCESS_FENCE:
        win->ops_since_fence = 1;
        return MPI_SUCCESS;
    case RMA_ACCESS_PSCW:
        return win->in_access_group[target] ? MPI_SUCCESS : MPI_ERR_RMA_SYNC;
    case RMA_ACCESS_LOCK:
        return win->lock_kind[target] ? MPI_SUCCESS : MPI_ERR_RMA_SYNC;
    case RMA_ACCESS_LOCK_ALL:
        return MPI_SUCCESS;
    default:
        return MPI_ERR_RMA_SYNC;
    }
}

static inline int rma_check_passive_epoch(const struct rma_win *win, int target)
{
    if (win->access == RMA_ACCESS_LOCK_ALL)
        return MPI_SUCCESS;
    if (win->access == RMA_ACCESS_LOCK && (target < 0 || win->lock_kind[target]))
        return MPI_SUCCESS;
    return MPI_ERR_RMA_SYNC;
}
/* MPI_ERR_RMA_RANGE unless count elements of type at disp lie in target's window memory. */
int rma_check_range(struct rma_win *win, int target, MPI_Aint disp, MPI_Count count,
                    const struct dt_type *type);

int rma_put(struct rma_win *win, const void *origin, MPI_Count origin_count,
            struct dt_type *origin_type, int target, MPI_Aint disp, MPI_Count target_count,
            struct dt_type *target_type);
int rma_get(struct rma_win *win, void *origin, MPI_Count origin_count,
            struct dt_type *origin_type, int target, MPI_Aint disp, MPI_Count target_count,
            struct dt_type *target_type);
/* Accumulate (result == NULL) and Get_accumulate; Fetch_and_op is one element of each.
 * Types must share one basic element kind (MPI_ERR_TYPE); op must be predefined (MPI_ERR_OP). */
int rma_accumulate(struct rma_win *win, const void *origin, MPI_Count origin_count,
                   struct dt_type *origin_type, void *result, MPI_Count result_count,
                   struct dt_type *result_type, int target, MPI_Aint disp,
                   MPI_Count target_count, struct dt_type *target_type, struct coll_op *op);
int rma_compare_and_swap(struct rma_win *win, const void *origin, const void *compare,
                         void *result, struct dt_type *type, int target, MPI_Aint disp);
/* Fast paths for the common case: contiguous bytes on a window whose memory this process
 * addresses, an open epoch, in range; Fetch_and_op / Compare_and_swap as one hardware atomic.
 * They return 1 when done and 0 when the caller must take the checked general path (which
 * also reports every error): they never fail. */
int rma_put_fast(struct rma_win *win, const void *origin, size_t bytes, int target,
                 MPI_Aint disp);
int rma_get_fast(struct rma_win *win, void *origin, size_t bytes, int target, MPI_Aint disp);
int rma_accumulate_fast(struct rma_win *win, const void *origin, void *result, MPI_Count count,
                        struct dt_type *type, int target, MPI_Aint disp, struct coll_op *op);
int rma_fetch_and_op_fast(struct rma_win *win, const void *origin, void *result,
                          struct dt_type *type, int target, MPI_Aint disp, struct coll_op *op);
int rma_compare_and_swap_fast(struct rma_win *win, const void *origin, const void *compare,
                              void *result, struct dt_type *type, int target, MPI_Aint disp);
/* Checks shared by the accumulate family (the API layer raises with its own message). */
int rma_check_accumulate_types(const struct dt_type *a, const struct dt_type *b);
int rma_check_accumulate_op(const struct coll_op *op, const struct dt_type *type);
int rma_check_cas_type(const struct dt_type *type);

/* ---- synchronization (sync.c) ------------------------------------------------------------ */
/* All return MPI_ERR_RMA_SYNC when called in the wrong epoch state. */
int rma_fence(struct rma_win *win, int assert);
int rma_post(struct rma_win *win, struct core_group *group, int assert);
int rma_start(struct rma_win *win, struct core_group *group, int assert);
int rma_complete(struct rma_win *win);
int rma_wait(struct rma_win *win);
int rma_test(struct rma_win *win, int *flag);
int rma_lock(struct rma_win *win, int lock_type, int target, int assert);
int rma_unlock(struct rma_win *win, int target);
int rma_lock_all(struct rma_win *win, int assert);
int rma_unlock_all(struct rma_win *win);
/* Flush, flush_local and their _all forms (target -1). Operations are complete at issue: a
 * flush only orders them before what follows (a seq_cst fence: a put then a get must not
 * pass each other). Inline: one of them follows nearly every passive-target operation. */
static inline int rma_flush(struct rma_win *win, int target)
{
    int rc = rma_check_passive_epoch(win, target);
    if (rc == MPI_SUCCESS)
        atomic_thread_fence(memory_order_seq_cst);
    return rc;
}
int rma_sync(struct rma_win *win);
/* MPI_ERR_GROUP: a group member is not in the window's group. */
int rma_group_ranks(struct rma_win *win, struct core_group *group, int *ranks);

#endif
