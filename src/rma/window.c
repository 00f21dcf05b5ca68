/* window.c - window objects: creation for the four flavors (create, allocate, allocate_shared,
 * dynamic), the layout of the shared control area, attach/detach, shared_query, info hints,
 * and free. Creation exchanges every rank's base, size, displacement unit and pid once, so an
 * operation finds its target's memory without asking the target. Must not move data or
 * synchronize epochs (transfer.c, accumulate.c, sync.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "coll/coll.h"
#include "core/comm.h"
#include "core/comm_create.h"
#include "core/error.h"
#include "core/group.h"
#include "core/info.h"
#include "core/state.h"
#include "datatype/datatype.h"
#include "rma/internal.h"
#include "shm/cma.h"

/* What each rank tells the others at creation. */
struct rank_info {
    uint64_t size;
    int64_t disp_unit;
    uint64_t base;        /* address in the rank's own space (Win_create) */
    int32_t pid;
    int32_t pad;
};

/* Byte offsets of the parts of the control area; data starts page-aligned after them. */
struct layout {
    size_t targets, flags, posts, completes, regions, data, total;
};

static size_t round_up(size_t n, size_t to)
{
    return (n + to - 1) / to * to;
}

static void compute_layout(int p, int dynamic, size_t data_bytes, struct layout *l)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size_t off = sizeof(struct rma_shm_header);
    l->targets = off;
    off += (size_t)p * sizeof(struct rma_target_ctrl);
    l->flags = off;
    off += (size_t)p * sizeof(struct rma_origin_flag);
    l->posts = off;
    off += round_up((size_t)p * (size_t)p * sizeof(uint32_t), RMA_CACHE_LINE);
    l->completes = off;
    off += round_up((size_t)p * (size_t)p * sizeof(uint32_t), RMA_CACHE_LINE);
    l->regions = off;
    if (dynamic)
        off += (size_t)p * RMA_MAX_REGIONS * sizeof(struct rma_region);
    l->data = round_up(off, page);
    l->total = round_up(l->data + data_bytes, page);
}

/* Windows this process holds (win_new to win_destroy): an MPI_T level (src/mpi/mpit.c). */
static int open_windows;

int rma_open_windows(void)
{
    return open_windows;
}

static void win_destroy(struct rma_win *win)
{
    open_windows--;
    if (win->shm)
        munmap(win->shm, win->shm_bytes);
    if (win->comm)
        core_comm_release(win->comm);
    if (win->info)
        core_info_free(win->info);
    core_errhandler_release(win->errhandler);
    free(win->peers);
    free(win->rank_of_world);
    free(win->lock_kind);
    free(win->in_access_group);
    free(win->access_group);
    free(win->posts_consumed);
    free(win->exposure_group);
    free(win->completes_expected);
    win->magic = 0;
    free(win);
}

/* The object with its private communicator and per-target bookkeeping, no memory yet. */
static int win_new(struct core_comm *comm, int flavor, struct core_info *info,
                   struct rma_win **out)
{
    struct rma_win *win = calloc(1, sizeof(*win));
    if (!win)
        return MPI_ERR_NO_MEM;
    open_windows++;
    win->magic = RMA_WIN_MAGIC;
    win->flavor = flavor;
    win->errhandler = core_errhandler_predefined(CORE_ERRHANDLER_FATAL);
    int rc = core_comm_dup_bare(comm, &win->comm);
    if (rc != MPI_SUCCESS) {
        win->comm = NULL;
        win_destroy(win);
        return rc;
    }
    snprintf(win->comm->name, sizeof(win->comm->name), "window communicator");
    int p = win->comm->size;
    win->rank = win->comm->rank;
    win->size = p;
    win->peers = calloc((size_t)p, sizeof(*win->peers));
    win->rank_of_world = malloc((size_t)nodempi.world_size * sizeof(int));
    win->lock_kind = calloc((size_t)p, 1);
    win->in_access_group = calloc((size_t)p, 1);
    win->access_group = malloc((size_t)p * sizeof(int));
    win->posts_consumed = calloc((size_t)p, sizeof(uint32_t));
    win->exposure_group = malloc((size_t)p * sizeof(int));
    win->completes_expected = calloc((size_t)p, sizeof(uint32_t));
    if (info)
        rc = core_info_dup(info, &win->info);
    else
        win->info = core_info_new();
    if (!win->peers || !win->rank_of_world || !win->lock_kind || !win->in_access_group ||
        !win->access_group || !win->posts_consumed || !win->exposure_group ||
        !win->completes_expected || rc != MPI_SUCCESS || !win->info) {
        win_destroy(win);
        return MPI_ERR_NO_MEM;
    }
    for (int w = 0; w < nodempi.world_size; w++)
        win->rank_of_world[w] = -1;
    for (int r = 0; r < p; r++) {
        win->peers[r].world_rank = core_comm_peer_world_rank(win->comm, r);
        win->rank_of_world[win->peers[r].world_rank] = r;
    }
    win->attr_model = MPI_WIN_UNIFIED;
    win->attr_flavor = flavor;
    *out = win;
    return MPI_SUCCESS;
}

static int exchange(struct rma_win *win, const struct rank_info *mine, struct rank_info *all)
{
    struct dt_type *byte = dt_from_handle(MPI_BYTE);
    return coll_allgather(mine, sizeof(*mine), byte, all, sizeof(*mine), byte, win->comm);
}

/* Map the control area (plus data_bytes of window memory) and point the window at it. */
static int map_control(struct rma_win *win, size_t data_bytes, struct layout *l)
{
    compute_layout(win->size, win->flavor == MPI_WIN_FLAVOR_DYNAMIC, data_bytes, l);
    void *base;
    int rc = rma_shm_create(win->comm, l->total, &base);
    if (rc != MPI_SUCCESS)
        return rc;
    win->shm = base;
    win->shm_bytes = l->total;
    win->header = (struct rma_shm_header *)win->shm;
    win->targets = (struct rma_target_ctrl *)(win->shm + l->targets);
    win->posts = (_Atomic uint32_t *)(win->shm + l->posts);
    win->completes = (_Atomic uint32_t *)(win->shm + l->completes);
    win->regions = (struct rma_region *)(win->shm + l->regions);
    win->atomic_flags = (struct rma_origin_flag *)(win->shm + l->flags);
    return MPI_SUCCESS;
}

static void fill_peers(struct rma_win *win, const struct rank_info *all)
{
    for (int r = 0; r < win->size; r++) {
        struct rma_peer *peer = &win->peers[r];
        peer->size = (MPI_Aint)all[r].size;
        peer->disp_unit = (MPI_Aint)all[r].disp_unit;
        peer->pid = (pid_t)all[r].pid;
        peer->remote = (uintptr_t)all[r].base;
    }
}

int rma_win_create(void *base, MPI_Aint size, MPI_Aint disp_unit, struct core_info *info,
                   struct core_comm *comm, struct rma_win **out)
{
    struct rma_win *win;
    int rc = win_new(comm, MPI_WIN_FLAVOR_CREATE, info, &win);
    if (rc != MPI_SUCCESS)
        return rc;
    struct rank_info mine = {(uint64_t)size, disp_unit, (uint64_t)(uintptr_t)base,
                             (int32_t)getpid(), 0};
    struct rank_info *all = malloc((size_t)win->size * sizeof(*all));
    struct layout l;
    rc = all ? exchange(win, &mine, all) : MPI_ERR_NO_MEM;
    if (rc == MPI_SUCCESS)
        rc = map_control(win, 0, &l);
    if (rc != MPI_SUCCESS) {
        free(all);
        win_destroy(win);
        return rc;
    }
    fill_peers(win, all);
    free(all);
    win->peers[win->rank].direct = 1;
    win->peers[win->rank].local = base;
    win->cma_ok = win->size == 1 || shm_cma_probe();
    win->attr_base = base;
    win->attr_size = size;
    win->attr_disp_unit = (int)disp_unit;
    *out = win;
    return MPI_SUCCESS;
}

static int info_is_true(struct core_info *info, const char *key)
{
    const char *value = info ? core_info_get(info, key) : NULL;
    return value && strcmp(value, "true") == 0;
}

/* Offsets of each rank's memory in the data part. Win_allocate_shared is contiguous in rank
 * order by default (the standard's default: base[r] + size[r] == base[r + 1]); with
 * alloc_shared_noncontig each segment starts on a page. Win_allocate pads to cache lines so
 * ranks never share a line. */
static size_t data_offsets(const struct rank_info *all, int p, int shared, int noncontig,
                           size_t *offsets)
{
    size_t align = !shared ? RMA_CACHE_LINE : noncontig ? (size_t)sysconf(_SC_PAGESIZE) : 1;
    size_t off = 0;
    for (int r = 0; r < p; r++) {
        off = round_up(off, align);
        offsets[r] = off;
        off += (size_t)all[r].size;
    }
    return off;
}

int rma_win_allocate(MPI_Aint size, MPI_Aint disp_unit, struct core_info *info,
                     struct core_comm *comm, int shared, void **baseptr, struct rma_win **out)
{
    struct rma_win *win;
    int rc = win_new(comm, shared ? MPI_WIN_FLAVOR_SHARED : MPI_WIN_FLAVOR_ALLOCATE, info,
                     &win);
    if (rc != MPI_SUCCESS)
        return rc;
    struct rank_info mine = {(uint64_t)size, disp_unit, 0, (int32_t)getpid(), 0};
    struct rank_info *all = malloc((size_t)win->size * sizeof(*all));
    size_t *offsets = malloc((size_t)win->size * sizeof(size_t));
    struct layout l;
    rc = all && offsets ? exchange(win, &mine, all) : MPI_ERR_NO_MEM;
    if (rc == MPI_SUCCESS) {
        size_t data = data_offsets(all, win->size, shared,
                                   info_is_true(info, "alloc_shared_noncontig"), offsets);
        rc = map_control(win, data, &l);
    }
    if (rc != MPI_SUCCESS) {
        free(all);
        free(offsets);
        win_destroy(win);
        return rc;
    }
    fill_peers(win, all);
    for (int r = 0; r < win->size; r++) {
        win->peers[r].direct = 1;
        win->peers[r].local = win->shm + l.data + offsets[r];
    }
    free(all);
    free(offsets);
    win->shared_memory = 1;
    win->cma_ok = 1;
    win->attr_base = win->peers[win->rank].local;
    win->attr_size = size;
    win->attr_disp_unit = (int)disp_unit;
    *baseptr = win->attr_base;
    *out = win;
    return MPI_SUCCESS;
}

int rma_win_create_dynamic(struct core_info *info, struct core_comm *comm, struct rma_win **out)
{
    struct rma_win *win;
    int rc = win_new(comm, MPI_WIN_FLAVOR_DYNAMIC, info, &win);
    if (rc != MPI_SUCCESS)
        return rc;
    struct rank_info mine = {0, 1, 0, (int32_t)getpid(), 0};
    struct rank_info *all = malloc((size_t)win->size * sizeof(*all));
    struct layout l;
    rc = all ? exchange(win, &mine, all) : MPI_ERR_NO_MEM;
    if (rc == MPI_SUCCESS)
        rc = map_control(win, 0, &l);
    if (rc != MPI_SUCCESS) {
        free(all);
        win_destroy(win);
        return rc;
    }
    fill_peers(win, all);
    free(all);
    /* displacements are addresses: the base is 0 (MPI_BOTTOM) */
    win->peers[win->rank].direct = 1;
    win->peers[win->rank].local = NULL;
    win->cma_ok = win->size == 1 || shm_cma_probe();
    win->attr_base = MPI_BOTTOM;
    win->attr_size = 0;
    win->attr_disp_unit = 1;
    *out = win;
    return MPI_SUCCESS;
}

/* ---- dynamic windows: the region table of this rank --------------------------------------
 * The owner writes entries, then publishes the count (release); origins read the count
 * (acquire), then entries. Attaching while others access this rank is erroneous in MPI, so a
 * reader never races a writer on an entry it uses. */

static struct rma_region *my_regions(struct rma_win *win)
{
    return &win->regions[(size_t)win->rank * RMA_MAX_REGIONS];
}

int rma_win_attach(struct rma_win *win, void *base, MPI_Aint size)
{
    if (win->flavor != MPI_WIN_FLAVOR_DYNAMIC)
        return MPI_ERR_RMA_FLAVOR;
    _Atomic uint32_t *count = &win->targets[win->rank].regions;
    uint32_t n = atomic_load_explicit(count, memory_order_relaxed);
    struct rma_region *regions = my_regions(win);
    uint64_t lo = (uint64_t)(uintptr_t)base, hi = lo + (uint64_t)size;
    for (uint32_t i = 0; i < n; i++) {
        uint64_t b = atomic_load_explicit(&regions[i].base, memory_order_relaxed);
        uint64_t s = atomic_load_explicit(&regions[i].size, memory_order_relaxed);
        if (lo < b + s && b < hi)
            return MPI_ERR_RMA_ATTACH;
    }
    if (n == RMA_MAX_REGIONS)
        return MPI_ERR_RMA_ATTACH;
    atomic_store_explicit(&regions[n].base, lo, memory_order_relaxed);
    atomic_store_explicit(&regions[n].size, (uint64_t)size, memory_order_relaxed);
    atomic_store_explicit(count, n + 1, memory_order_release);
    return MPI_SUCCESS;
}

int rma_win_detach(struct rma_win *win, const void *base)
{
    if (win->flavor != MPI_WIN_FLAVOR_DYNAMIC)
        return MPI_ERR_RMA_FLAVOR;
    _Atomic uint32_t *count = &win->targets[win->rank].regions;
    uint32_t n = atomic_load_explicit(count, memory_order_relaxed);
    struct rma_region *regions = my_regions(win);
    for (uint32_t i = 0; i < n; i++) {
        if (atomic_load_explicit(&regions[i].base, memory_order_relaxed) !=
            (uint64_t)(uintptr_t)base)
            continue;
        uint64_t last_base = atomic_load_explicit(&regions[n - 1].base, memory_order_relaxed);
        uint64_t last_size = atomic_load_explicit(&regions[n - 1].size, memory_order_relaxed);
        atomic_store_explicit(&regions[i].base, last_base, memory_order_relaxed);
        atomic_store_explicit(&regions[i].size, last_size, memory_order_relaxed);
        atomic_store_explicit(count, n - 1, memory_order_release);
        return MPI_SUCCESS;
    }
    return MPI_ERR_RMA_ATTACH;
}

int rma_win_shared_query(struct rma_win *win, int rank, MPI_Aint *size, MPI_Aint *disp_unit,
                         void **baseptr)
{
    if (win->flavor == MPI_WIN_FLAVOR_DYNAMIC)
        return MPI_ERR_RMA_FLAVOR;
    if (!win->shared_memory) {
        /* Win_create: user memory other processes reach only through CMA, so no segment is
         * shared (MPI-4.1 12.2.3: size 0 and a base as if MPI_Alloc_mem had 0 bytes). */
        *size = 0;
        *disp_unit = win->peers[rank == MPI_PROC_NULL ? 0 : rank].disp_unit;
        *baseptr = NULL;
        return MPI_SUCCESS;
    }
    if (rank == MPI_PROC_NULL) {
        rank = 0;
        for (int r = 0; r < win->size; r++) {
            if (win->peers[r].size > 0) {
                rank = r;
                break;
            }
        }
    }
    *size = win->peers[rank].size;
    *disp_unit = win->peers[rank].disp_unit;
    /* A rank that gave size 0 owns no bytes: NULL, as for Win_create above and in MPICH,
     * rather than the address where its (empty) segment would start. */
    *baseptr = *size > 0 ? win->peers[rank].local : NULL;
    return MPI_SUCCESS;
}

int rma_win_free_ready(const struct rma_win *win)
{
    if ((win->access != RMA_ACCESS_NONE && win->access != RMA_ACCESS_FENCE) || win->exposed)
        return MPI_ERR_RMA_SYNC;
    return MPI_SUCCESS;
}

void rma_win_target_extent(const struct rma_win *win, int target, MPI_Aint *size,
                           MPI_Aint *disp_unit)
{
    *size = win->peers[target].size;
    *disp_unit = win->peers[target].disp_unit;
}

int rma_win_free(struct rma_win *win)
{
    if (rma_win_free_ready(win) != MPI_SUCCESS)
        return MPI_ERR_RMA_SYNC;
    /* Collective: once everyone is here nobody accesses our memory or the control area. */
    int rc = coll_barrier(win->comm);
    win_destroy(win);
    return rc;
}

/* ---- info --------------------------------------------------------------------------------- */

/* The hints MPI defines for windows and the values in effect when the user gave none. */
static const char *const default_hints[][2] = {
    {"no_locks", "false"},
    {"accumulate_ordering", "rar,raw,war,waw"},
    {"accumulate_ops", "same_op_no_op"},
    {"same_size", "false"},
    {"same_disp_unit", "false"},
    {"mpi_accumulate_granularity", "0"},
};

int rma_win_set_info(struct rma_win *win, struct core_info *info)
{
    for (int i = 0; i < info->nkeys; i++) {
        int rc = core_info_set(win->info, info->entries[i].key, info->entries[i].value);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    return MPI_SUCCESS;
}

int rma_win_get_info(struct rma_win *win, struct core_info **out)
{
    struct core_info *copy;
    int rc = core_info_dup(win->info, &copy);
    if (rc != MPI_SUCCESS)
        return rc;
    for (size_t i = 0; i < sizeof(default_hints) / sizeof(default_hints[0]); i++) {
        if (!core_info_get(copy, default_hints[i][0]))
            rc = core_info_set(copy, default_hints[i][0], default_hints[i][1]);
        if (rc != MPI_SUCCESS) {
            core_info_free(copy);
            return rc;
        }
    }
    if (win->flavor == MPI_WIN_FLAVOR_SHARED && !core_info_get(copy, "alloc_shared_noncontig"))
        rc = core_info_set(copy, "alloc_shared_noncontig", "false");
    if (rc != MPI_SUCCESS) {
        core_info_free(copy);
        return rc;
    }
    *out = copy;
    return MPI_SUCCESS;
}
