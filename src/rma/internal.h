/* internal.h - the window object and its shared control area, for the files of src/rma only
 * (the API layer sees rma.h). One POSIX shm object per window holds the control area (lock
 * words, PSCW counters, accumulate mutexes, dynamic-window region tables) and, for
 * Win_allocate / Win_allocate_shared, the window memory itself; every process maps it at its
 * own address, so the layout is offsets, never pointers. */
#ifndef NODEMPI_RMA_INTERNAL_H
#define NODEMPI_RMA_INTERNAL_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <mpi.h>

#include "rma/lock.h"
#include "rma/rma.h"

#define RMA_CACHE_LINE 64
/* Attached regions per rank of a dynamic window. Linked structures attach one region per
 * element (MPICH's test suite: 1000 per rank); unused entries of the table are never touched,
 * so their shm pages are never allocated. */
#define RMA_MAX_REGIONS 4096

/* Window-wide words, first cache lines of the control area. */
struct rma_shm_header {
    _Atomic uint64_t lock_all;   /* lock.h: open lock_all epochs (and arrivals backing off) */
    char pad0[RMA_CACHE_LINE - 8];
    _Atomic uint32_t waiters;    /* processes in a wait loop on this window (wake-up hint) */
    char pad1[RMA_CACHE_LINE - 4];
};

/* One per rank of the window, one cache line: the lock word apart from the mutex would cost a
 * second line per target for little (both are touched by the same origins). */
struct rma_target_ctrl {
    _Atomic uint64_t lock;       /* lock.h ticket reader/writer lock */
    struct rma_mutex mutex;      /* accumulates that are not single hardware atomics; held or
                                  * wanted (next != serving) also tells element-atomic updaters
                                  * to keep off (accumulate.c) */
    _Atomic uint32_t regions;    /* dynamic windows: entries used in this rank's region table */
    char pad[RMA_CACHE_LINE - 20];
};

/* One per rank, one cache line written only by that rank: the target (+1) it is updating with
 * element atomics right now, 0 otherwise (accumulate.c: how bulk and atomic updates exclude
 * each other). One word per rank suffices: a rank issues one operation at a time
 * (MPI_THREAD_SERIALIZED at most). */
struct rma_origin_flag {
    _Atomic uint32_t target;
    char pad[RMA_CACHE_LINE - 4];
};

/* An attached region of a dynamic window, as the owner published it. */
struct rma_region {
    _Atomic uint64_t base;
    _Atomic uint64_t size;
};

/* Where a window rank's memory is, seen from this process. */
struct rma_peer {
    char *local;          /* direct == 1: this process's address of the peer's window base */
    uintptr_t remote;     /* the base in the peer's own address space (CMA addresses) */
    MPI_Aint size;
    MPI_Aint disp_unit;
    pid_t pid;
    int world_rank;
    int direct;           /* load/store reaches it: shared mapping, or our own memory */
};

/* shmobj.c: the window's POSIX shm object, created by rank 0 of comm, mapped by all, unlinked
 * once everyone has it mapped. Collective; *base is NULL on error. */
int rma_shm_create(struct core_comm *comm, size_t bytes, void **base);

/* sync.c: wait (progressing, then sleeping like every waiter) until ready(arg) holds, and wake
 * waiters of this window after publishing something they may wait for. */
void rma_wait_until(struct rma_win *win, int (*ready)(void *), void *arg);
/* The same when the caller has just seen ready(arg) fail (fast paths test it inline). */
void rma_wait_slow(struct rma_win *win, int (*ready)(void *), void *arg);
void rma_wake_waiters(struct rma_win *win);
void rma_wake_rank(struct rma_win *win, int rank);
/* Per-target mutex around non-atomic accumulates. Inline: every bulk accumulate takes it;
 * only a wait for the turn leaves the straight line (sync.c). */
void rma_mutex_wait(struct rma_win *win, struct rma_mutex *mutex, uint32_t ticket);

static inline void rma_mutex_lock(struct rma_win *win, int target)
{
    struct rma_mutex *mutex = &win->targets[target].mutex;
    uint32_t ticket = rma_mutex_arrive(mutex);
    if (!rma_mutex_ready(mutex, ticket))
        rma_mutex_wait(win, mutex, ticket);
}

/* The release wakes sleepers (other bulk updaters, element updaters waiting for idle). */
static inline void rma_mutex_unlock(struct rma_win *win, int target)
{
    rma_mutex_release(&win->targets[target].mutex);
    rma_wake_waiters(win);
}

/* transfer.c: the address of `bytes` contiguous bytes at disp of a target this process
 * addresses directly (shared memory or itself, not dynamic), or NULL when the fast paths do
 * not apply (they leave every error to the checked path). */
char *rma_direct_address(struct rma_win *win, int target, MPI_Aint disp, size_t bytes);

/* transfer.c: typed copies. Target memory is (base, count, type) either in this address space
 * (direct) or in process pid (CMA); positions are bytes of the packed stream. */
struct rma_target_mem {
    int direct;
    char *local;          /* direct: target address (displacement applied) */
    uintptr_t remote;     /* CMA: target address in the target process */
    pid_t pid;
    MPI_Count count;
    struct dt_type *type;
};
int rma_target_mem(struct rma_win *win, int target, MPI_Aint disp, MPI_Count count,
                   struct dt_type *type, struct rma_target_mem *mem);
/* Copy packed bytes [position, position + len) of the target to/from a contiguous buffer. */
int rma_target_read(const struct rma_target_mem *mem, size_t position, void *dst, size_t len);
int rma_target_write(const struct rma_target_mem *mem, size_t position, const void *src,
                     size_t len);
/* Copy `bytes` from one typed buffer to another in this address space. */
void rma_copy_typed(void *dst, MPI_Count dcount, struct dt_type *dtype, const void *src,
                    MPI_Count scount, struct dt_type *stype, size_t bytes);

#endif
