/* accumulate.c - Accumulate, Get_accumulate, Fetch_and_op and Compare_and_swap.
 *
 * Shared-memory windows (allocate flavors) have two paths that exclude each other per target:
 *   atomic - a few aligned elements of a type the CPU updates atomically (atomic.h): one
 *            hardware atomic per element, straight on the target's memory (Fetch_and_op,
 *            Compare_and_swap and small accumulates: the latency path);
 *   bulk   - everything else (many elements, long double, complex, pairs, misaligned data):
 *            under the target's mutex, read the target bytes, apply the operator with
 *            coll_op_apply (vectorized by the compiler), write them back (seed 004 ch. 7:
 *            get-modify-put made atomic by a lock at the target).
 * A bulk update must not interleave with element atomics on the same memory, so they meet
 * Dekker-style: an atomic updater publishes "I am updating target t" in its own flag line and
 * then checks that t's mutex is idle; a bulk updater takes a ticket of t's mutex (that RMW
 * is its announcement: the mutex is not idle from then until its release) and, its turn
 * come, waits until no flag names t. Both sides use seq_cst for the store (RMW) and the load
 * that follows it, so at least one sees the other (an atomic updater that sees the mutex
 * held or wanted backs off and waits until it is idle). Atomic updaters never write a shared
 * word, so concurrent Fetch_and_ops on one counter cost one contended cache line, not two;
 * a bulk updater pays one RMW (its ticket) for both the mutex and the announcement.
 *
 * An origin holding an EXCLUSIVE lock on the target needs neither (holds_exclusive): no other
 * process may access that target's window during its epoch (MPI-4.1 12.5.3: exclusive-lock
 * accesses are not concurrent with other lock-protected ones, and a locked window must not be
 * exposed to active-target epochs at the same time), and this process's own threads reach
 * RMA one call at a time (MPI_THREAD_MULTIPLE runs every call under the big lock), so the
 * fast paths update the target memory directly, without flag, mutex or per-element atomics.
 *
 * User-memory windows (Win_create, dynamic) have only the bulk path, through CMA when the
 * target is another process. Data moves in chunks of whole elements, so large accumulates need
 * bounded buffers. */
#include <stdlib.h>
#include <string.h>

#include "coll/op.h"
#include "datatype/datatype.h"
#include "rma/atomic.h"
#include "rma/internal.h"

#include <sched.h>

#include "core/progress.h"
#include "core/state.h"
#include "core/thread.h"
#include "shm/copy.h"

enum {
    STACK_CHUNK = 2048,        /* bytes staged on the stack (small accumulates: no malloc) */
    HEAP_CHUNK = 256 * 1024,   /* larger ones: a buffer that stays in L2 */
    ATOMIC_MAX_ELEMENTS = 4,   /* integers: more take the bulk path (docs/rma.md: crossover) */
};

/* The predefined type whose packed elements the operator works on, per element kind. */
static MPI_Datatype basic_handle(enum dt_element kind)
{
    switch (kind) {
    case DT_ELEMENT_INT8: return MPI_INT8_T;
    case DT_ELEMENT_UINT8: return MPI_UINT8_T;
    case DT_ELEMENT_INT16: return MPI_INT16_T;
    case DT_ELEMENT_UINT16: return MPI_UINT16_T;
    case DT_ELEMENT_INT32: return MPI_INT32_T;
    case DT_ELEMENT_UINT32: return MPI_UINT32_T;
    case DT_ELEMENT_INT64: return MPI_INT64_T;
    case DT_ELEMENT_UINT64: return MPI_UINT64_T;
    case DT_ELEMENT_FLOAT: return MPI_FLOAT;
    case DT_ELEMENT_DOUBLE: return MPI_DOUBLE;
    case DT_ELEMENT_LONG_DOUBLE: return MPI_LONG_DOUBLE;
    case DT_ELEMENT_C_FLOAT_COMPLEX: return MPI_C_FLOAT_COMPLEX;
    case DT_ELEMENT_C_DOUBLE_COMPLEX: return MPI_C_DOUBLE_COMPLEX;
    case DT_ELEMENT_C_LONG_DOUBLE_COMPLEX: return MPI_C_LONG_DOUBLE_COMPLEX;
    case DT_ELEMENT_BOOL: return MPI_C_BOOL;
    case DT_ELEMENT_CHAR: return MPI_CHAR;
    case DT_ELEMENT_BYTE: return MPI_BYTE;
    case DT_ELEMENT_WCHAR: return MPI_WCHAR;
    case DT_ELEMENT_FLOAT_INT: return MPI_FLOAT_INT;
    case DT_ELEMENT_DOUBLE_INT: return MPI_DOUBLE_INT;
    case DT_ELEMENT_LONG_INT: return MPI_LONG_INT;
    case DT_ELEMENT_2INT: return MPI_2INT;
    case DT_ELEMENT_SHORT_INT: return MPI_SHORT_INT;
    case DT_ELEMENT_LONG_DOUBLE_INT: return MPI_LONG_DOUBLE_INT;
    case DT_ELEMENT_2FLOAT: return MPI_2REAL;
    case DT_ELEMENT_2DOUBLE: return MPI_2DOUBLE_PRECISION;
    default: return MPI_DATATYPE_NULL;
    }
}

/* ---- argument rules ----------------------------------------------------------------------- */

int rma_check_accumulate_types(const struct dt_type *a, const struct dt_type *b)
{
    return a->element == b->element ? MPI_SUCCESS : MPI_ERR_TYPE;
}

int rma_check_accumulate_op(const struct coll_op *op, const struct dt_type *type)
{
    if (!op->predefined)
        return MPI_ERR_OP;
    if (op->kind == COLL_OP_REPLACE || op->kind == COLL_OP_NO_OP)
        return MPI_SUCCESS;
    if (basic_handle(type->element) == MPI_DATATYPE_NULL)
        return MPI_ERR_OP;
    return coll_op_check(op, type);
}

int rma_check_cas_type(const struct dt_type *type)
{
    if (!type->predefined || !rma_atomic_supported(type) || type->element == DT_ELEMENT_FLOAT ||
        type->element == DT_ELEMENT_DOUBLE || type->size != type->element_size)
        return MPI_ERR_TYPE;
    return MPI_SUCCESS;
}

/* ---- atomic and bulk updaters of one target (see the top of the file) ------------------- */

static int mutex_idle(void *mutex)
{
    return rma_mutex_idle(mutex);
}

static void atomic_enter(struct rma_win *win, int target)
{
    _Atomic uint32_t *mine = &win->atomic_flags[win->rank].target;
    struct rma_mutex *mutex = &win->targets[target].mutex;
    for (;;) {
        atomic_exchange_explicit(mine, (uint32_t)target + 1, memory_order_seq_cst);
        if (rma_mutex_idle(mutex))
            return;
        atomic_store_explicit(mine, 0, memory_order_release);
        rma_wait_until(win, mutex_idle, mutex);
    }
}

static void atomic_leave(struct rma_win *win)
{
    atomic_store_explicit(&win->atomic_flags[win->rank].target, 0, memory_order_release);
}

/* Bulk updaters hold the target's mutex; on shared-memory windows they also wait out the
 * atomic updaters already inside (their ticket announced them, see the top of the file).
 * Those leave within a few instructions unless preempted, so this wait yields instead of
 * sleeping (nobody would wake a sleeper: atomic updaters do not pay for a wake-up check). */
static void bulk_enter(struct rma_win *win, int target)
{
    rma_mutex_lock(win, target);
    if (!win->shared_memory)
        return;
    for (int r = 0; r < win->size; r++) {
        while (atomic_load_explicit(&win->atomic_flags[r].target, memory_order_seq_cst) ==
               (uint32_t)target + 1) {
            core_progress();
            if (nodempi.thread_multiple)
                core_thread_yield(); /* MPI_THREAD_MULTIPLE: queued threads run first */
            sched_yield();
        }
    }
}

static void bulk_leave(struct rma_win *win, int target)
{
    rma_mutex_unlock(win, target); /* wakes atomic updaters waiting for an idle mutex too */
}

/* How many elements of type the atomic path takes at most (rma_atomic_supported types). Floats
 * and doubles are compare-and-swap loops whatever the operator: from two elements on, one
 * mutex round trip costs less (docs/rma.md, "Costs": 4 floats 48 ns as CAS loops, 35 ns in
 * bulk); integers of up to 4 elements stay (SUM/REPLACE are single instructions). */
static size_t atomic_max_bytes(const struct dt_type *type)
{
    int real = type->element == DT_ELEMENT_FLOAT || type->element == DT_ELEMENT_DOUBLE;
    return (size_t)type->element_size * (real ? 1 : ATOMIC_MAX_ELEMENTS);
}

/* The atomic path needs every target element aligned to its size. */
static int aligned_elements(const struct rma_target_mem *mem)
{
    const struct dt_type *type = mem->type;
    uintptr_t size = (uintptr_t)type->element_size;
    if (dt_is_contiguous(type, mem->count))
        return ((uintptr_t)(mem->local + type->true_lb) & (size - 1)) == 0;
    if (((uintptr_t)mem->local & (size - 1)) || ((uintptr_t)type->extent & (size - 1)))
        return 0;
    for (size_t b = 0; b < type->nblocks; b++)
        if ((uintptr_t)type->blocks[b].offset & (size - 1))
            return 0;
    return 1;
}

/* ---- atomic path -------------------------------------------------------------------------- */

struct acc_args {
    struct rma_win *win;
    int target;
    const void *origin;
    MPI_Count origin_count;
    struct dt_type *origin_type;
    void *result;
    MPI_Count result_count;
    struct dt_type *result_type;
    struct rma_target_mem mem;
    struct coll_op *op;
    size_t bytes;
};

static void element_update(struct acc_args *a, char *target, const char *origin, char *result)
{
    rma_atomic_apply(a->mem.type->element, (size_t)a->mem.type->element_size, a->op->kind,
                     target, origin, result);
}

static int all_contiguous(const struct acc_args *a)
{
    int origin_ok = a->op->kind == COLL_OP_NO_OP ||
                    dt_is_contiguous(a->origin_type, a->origin_count);
    int result_ok = !a->result || dt_is_contiguous(a->result_type, a->result_count);
    return origin_ok && result_ok && dt_is_contiguous(a->mem.type, a->mem.count);
}

static int accumulate_atomic(struct acc_args *a)
{
    size_t size = (size_t)a->mem.type->element_size;
    if (all_contiguous(a)) {
        char *t = a->mem.local + a->mem.type->true_lb;
        const char *o = a->op->kind == COLL_OP_NO_OP
                            ? NULL
                            : (const char *)a->origin + a->origin_type->true_lb;
        char *r = a->result ? (char *)a->result + a->result_type->true_lb : NULL;
        for (size_t i = 0; i < a->bytes; i += size)
            element_update(a, t + i, o ? o + i : NULL, r ? r + i : NULL);
        return MPI_SUCCESS;
    }
    /* Stage origin and result through packed buffers (a few elements: one round); walk the
     * target's blocks. */
    enum { STAGE = ATOMIC_MAX_ELEMENTS * 8 };
    _Alignas(16) char in[STAGE], out[STAGE];
    struct iovec iov[32];
    size_t position = 0;
    while (position < a->bytes) {
        size_t covered;
        int n = dt_iovec_range(a->mem.type, a->mem.local, a->mem.count, position, iov, 32,
                               &covered);
        size_t len = a->bytes - position < STAGE ? a->bytes - position : STAGE;
        if (covered < len)
            len = covered;
        len -= len % size;
        if (len == 0)
            return MPI_ERR_INTERN;
        if (a->op->kind != COLL_OP_NO_OP)
            dt_pack_range(a->origin_type, a->origin, a->origin_count, position, in, len);
        size_t done = 0;
        for (int v = 0; v < n && done < len; v++) {
            char *t = iov[v].iov_base;
            for (size_t i = 0; i < iov[v].iov_len && done < len; i += size, done += size)
                element_update(a, t + i, in + done, a->result ? out + done : NULL);
        }
        if (a->result)
            dt_unpack_range(a->result_type, a->result, a->result_count, position, out, len);
        position += len;
    }
    return MPI_SUCCESS;
}

/* ---- locked path -------------------------------------------------------------------------- */

/* cur = in op cur on `len` packed bytes of elements of `basic` (pairs are unpacked into their
 * C struct layout first: coll_op_apply works on typed buffers, and a pair's packed size is
 * not its extent). */
static int combine(struct coll_op *op, struct dt_type *basic, const char *in, char *cur,
                   size_t len)
{
    if (op->kind == COLL_OP_REPLACE || !basic) {
        shm_copy(cur, in, len);
        return MPI_SUCCESS;
    }
    MPI_Count n = (MPI_Count)(len / (size_t)basic->size);
    if (dt_is_contiguous(basic, n))
        return coll_op_apply(op, in, cur, n, basic);
    size_t bytes = (size_t)(n * basic->extent);
    char *a = malloc(bytes), *b = malloc(bytes);
    int rc = a && b ? MPI_SUCCESS : MPI_ERR_NO_MEM;
    if (rc == MPI_SUCCESS) {
        dt_unpack_range(basic, a, n, 0, in, len);
        dt_unpack_range(basic, b, n, 0, cur, len);
        rc = coll_op_apply(op, a, b, n, basic);
        dt_pack_range(basic, b, n, 0, cur, len);
    }
    free(a);
    free(b);
    return rc;
}

static int locked_chunks(struct acc_args *a, struct dt_type *basic, char *in, char *cur,
                         size_t chunk)
{
    for (size_t position = 0; position < a->bytes; position += chunk) {
        size_t len = a->bytes - position < chunk ? a->bytes - position : chunk;
        int rc = rma_target_read(&a->mem, position, cur, len);
        if (rc != MPI_SUCCESS)
            return rc;
        if (a->result)
            dt_unpack_range(a->result_type, a->result, a->result_count, position, cur, len);
        if (a->op->kind == COLL_OP_NO_OP)
            continue;
        dt_pack_range(a->origin_type, a->origin, a->origin_count, position, in, len);
        if ((rc = combine(a->op, basic, in, cur, len)) != MPI_SUCCESS ||
            (rc = rma_target_write(&a->mem, position, cur, len)) != MPI_SUCCESS)
            return rc;
    }
    return MPI_SUCCESS;
}

/* Target memory we can address, origin, target and result contiguous, a basic type whose
 * packed form is its array form: apply the operator in place, no staging. */
static int bulk_in_place(struct acc_args *a, struct dt_type *basic)
{
    if (!a->mem.direct || !all_contiguous(a) || (basic && !dt_is_contiguous(basic, 2)))
        return 0;
    char *t = a->mem.local + a->mem.type->true_lb;
    if (a->result)
        shm_copy((char *)a->result + a->result_type->true_lb, t, a->bytes);
    if (a->op->kind == COLL_OP_NO_OP)
        return 1;
    const char *o = (const char *)a->origin + a->origin_type->true_lb;
    if (a->op->kind == COLL_OP_REPLACE || !basic)
        memmove(t, o, a->bytes);
    else
        coll_op_apply(a->op, o, t, (MPI_Count)(a->bytes / (size_t)basic->size), basic);
    return 1;
}

static int accumulate_locked(struct acc_args *a)
{
    MPI_Datatype handle = basic_handle(a->mem.type->element);
    struct dt_type *basic = handle == MPI_DATATYPE_NULL ? NULL : dt_from_handle(handle);
    size_t unit = basic ? (size_t)basic->size : 1;
    bulk_enter(a->win, a->target);
    int rc = MPI_SUCCESS;
    if (!bulk_in_place(a, basic)) {
        /* stage through buffers of whole elements: on the stack when small */
        size_t chunk = a->bytes <= STACK_CHUNK ? STACK_CHUNK
                                               : (a->bytes < HEAP_CHUNK ? a->bytes : HEAP_CHUNK);
        chunk -= chunk % unit;
        _Alignas(16) char stack_in[STACK_CHUNK], stack_cur[STACK_CHUNK];
        char *in = chunk > STACK_CHUNK ? malloc(chunk) : stack_in;
        char *cur = chunk > STACK_CHUNK ? malloc(chunk) : stack_cur;
        rc = in && cur ? locked_chunks(a, basic, in, cur, chunk) : MPI_ERR_NO_MEM;
        if (chunk > STACK_CHUNK) {
            free(in);
            free(cur);
        }
    }
    bulk_leave(a->win, a->target);
    return rc;
}

/* Whether the fast paths take this operator on this predefined contiguous type: the same
 * rules as the checked path, looked up once per pair and window (rma_win.fast_op). */
static int fast_pair_ok(struct rma_win *win, const struct coll_op *op,
                        const struct dt_type *type)
{
    if (op == win->fast_op && type == win->fast_type)
        return 1;
    if (!type->predefined || !type->contiguous || rma_check_accumulate_op(op, type) != MPI_SUCCESS)
        return 0;
    win->fast_op = op;
    win->fast_type = type;
    win->fast_atomic_bytes = rma_atomic_supported(type) ? atomic_max_bytes(type) : 0;
    return 1;
}

/* The caller's epoch to target is an exclusive lock (with or without MPI_MODE_NOCHECK): no
 * other process accesses its window until the unlock (top of the file). */
static int holds_exclusive(const struct rma_win *win, int target)
{
    return win->access == RMA_ACCESS_LOCK && (win->lock_kind[target] & RMA_LOCKED_EXCLUSIVE);
}

/* ---- entry points ------------------------------------------------------------------------- */

int rma_accumulate(struct rma_win *win, const void *origin, MPI_Count origin_count,
                   struct dt_type *origin_type, void *result, MPI_Count result_count,
                   struct dt_type *result_type, int target, MPI_Aint disp,
                   MPI_Count target_count, struct dt_type *target_type, struct coll_op *op)
{
    size_t target_bytes = dt_packed_size(target_type, target_count);
    size_t bytes = op->kind == COLL_OP_NO_OP ? target_bytes
                                              : dt_packed_size(origin_type, origin_count);
    if (bytes > target_bytes || (result && dt_packed_size(result_type, result_count) < bytes))
        return MPI_ERR_TRUNCATE;
    if (bytes == 0)
        return MPI_SUCCESS;
    struct acc_args a = {win, target, origin, origin_count, origin_type, result, result_count,
                         result_type, {0}, op, bytes};
    int rc = rma_target_mem(win, target, disp, target_count, target_type, &a.mem);
    if (rc != MPI_SUCCESS)
        return rc;
    if (win->shared_memory && rma_atomic_supported(target_type) &&
        bytes <= atomic_max_bytes(target_type) &&
        aligned_elements(&a.mem)) {
        atomic_enter(win, target);
        rc = accumulate_atomic(&a);
        atomic_leave(win);
        return rc;
    }
    return accumulate_locked(&a);
}

/* Accumulate and Get_accumulate whose origin, target and result are all `count` elements of
 * one predefined contiguous type on memory this process addresses: the same two paths as
 * rma_accumulate, without its general machinery (target memory descriptor, staging, iovecs).
 * Every rule it cannot see through cheaply (operator for the type, range, epoch) sends the
 * call back to the checked path, which reports the error. */
int rma_accumulate_fast(struct rma_win *win, const void *origin, void *result, MPI_Count count,
                        struct dt_type *type, int target, MPI_Aint disp, struct coll_op *op)
{
    size_t bytes;
    if (!win->shared_memory || count <= 0 ||
        __builtin_mul_overflow((size_t)count, (size_t)type->size, &bytes) ||
        !fast_pair_ok(win, op, type))
        return 0;
    char *t = rma_direct_address(win, target, disp, bytes);
    if (!t || rma_check_epoch(win, target) != MPI_SUCCESS)
        return 0;
    int exclusive = holds_exclusive(win, target);
    size_t size = (size_t)type->element_size;
    if (!exclusive && bytes <= win->fast_atomic_bytes && ((uintptr_t)t & (size - 1)) == 0) {
        const char *o = op->kind == COLL_OP_NO_OP ? NULL : origin;
        char *r = result;
        atomic_enter(win, target);
        for (size_t i = 0; i < bytes; i += size)
            rma_atomic_apply(type->element, size, op->kind, t + i, o ? o + i : NULL,
                             r ? r + i : NULL);
        atomic_leave(win);
        return 1;
    }
    /* In place, under the target's mutex unless we hold it exclusively (bulk_in_place; a
     * contiguous predefined type is its own basic type, so coll_op_apply takes it as it is). */
    if (!exclusive)
        bulk_enter(win, target);
    if (result)
        shm_copy(result, t, bytes);
    if (op->kind == COLL_OP_REPLACE)
        memmove(t, origin, bytes);
    else if (op->kind != COLL_OP_NO_OP)
        coll_op_apply(op, origin, t, count, type);
    if (!exclusive)
        bulk_leave(win, target);
    return 1;
}

/* One aligned element of `size` bytes on a shared-memory window, in an open epoch (the
 * caller has checked that its type is one the CPU updates atomically). */
static char *atomic_element(struct rma_win *win, size_t size, int target, MPI_Aint disp)
{
    if (!win->shared_memory)
        return NULL;
    char *t = rma_direct_address(win, target, disp, size);
    if (!t || ((uintptr_t)t & (size - 1)) || rma_check_epoch(win, target) != MPI_SUCCESS)
        return NULL;
    return t;
}

int rma_fetch_and_op_fast(struct rma_win *win, const void *origin, void *result,
                          struct dt_type *type, int target, MPI_Aint disp, struct coll_op *op)
{
    /* fast_pair_ok has checked the type: one element the atomic path takes is all we need */
    if (!fast_pair_ok(win, op, type) || win->fast_atomic_bytes < (size_t)type->size ||
        type->element_size != type->size)
        return 0;
    char *t = atomic_element(win, (size_t)type->size, target, disp);
    if (!t)
        return 0;
    /* Under an exclusive lock the element operation needs no flag; it stays one atomic
     * instruction (as cheap as a plain update when nobody else touches the line). */
    if (holds_exclusive(win, target)) {
        rma_atomic_apply(type->element, (size_t)type->size, op->kind, t, origin, result);
        return 1;
    }
    atomic_enter(win, target);
    rma_atomic_apply(type->element, (size_t)type->size, op->kind, t, origin, result);
    atomic_leave(win);
    return 1;
}

int rma_compare_and_swap_fast(struct rma_win *win, const void *origin, const void *compare,
                              void *result, struct dt_type *type, int target, MPI_Aint disp)
{
    /* the type rules once per type and window (predefined types are never freed) */
    if (type != win->fast_cas_type) {
        if (rma_check_cas_type(type) != MPI_SUCCESS)
            return 0;
        win->fast_cas_type = type;
    }
    char *t = atomic_element(win, (size_t)type->size, target, disp);
    if (!t)
        return 0;
    if (holds_exclusive(win, target)) { /* as in rma_fetch_and_op_fast */
        rma_atomic_cas((size_t)type->size, t, compare, origin, result);
        return 1;
    }
    atomic_enter(win, target);
    rma_atomic_cas((size_t)type->size, t, compare, origin, result);
    atomic_leave(win);
    return 1;
}

int rma_compare_and_swap(struct rma_win *win, const void *origin, const void *compare,
                         void *result, struct dt_type *type, int target, MPI_Aint disp)
{
    size_t size = (size_t)type->size;
    struct rma_target_mem mem;
    int rc = rma_target_mem(win, target, disp, 1, type, &mem);
    if (rc != MPI_SUCCESS)
        return rc;
    char *t = mem.local ? mem.local + type->true_lb : NULL;
    if (win->shared_memory && ((uintptr_t)t & (size - 1)) == 0) {
        atomic_enter(win, target);
        rma_atomic_cas(size, t, compare, origin, result);
        atomic_leave(win);
        return MPI_SUCCESS;
    }
    char old[8];
    bulk_enter(win, target);
    rc = rma_target_read(&mem, 0, old, size);
    if (rc == MPI_SUCCESS && memcmp(old, compare, size) == 0)
        rc = rma_target_write(&mem, 0, origin, size);
    bulk_leave(win, target);
    if (rc == MPI_SUCCESS)
        shm_copy(result, old, size);
    return rc;
}
