/* atomic.h - one element of an accumulate, fetch-and-op or compare-and-swap as a single CPU
 * atomic on shared memory (ARCHITECTURE.md: hardware atomics per element, a lock only for
 * what the CPU cannot do atomically). Integers of 1, 2, 4 and 8 bytes (and bool, byte, char,
 * wchar) and float/double qualify: integer SUM and REPLACE are single instructions (lock xadd,
 * xchg), NO_OP a load, the other operators a compare-and-swap loop (which is also what the
 * compiler makes of fetch-and/or/xor on x86-64). Whether a type qualifies depends on the type
 * only, never on the operator, so every access to one location of one type takes the same
 * path (MPI's atomicity of concurrent accumulates with the same basic type).
 * Memory order: relaxed. MPI orders accumulates to the same location only (coherence does it)
 * and everything else at epoch ends, whose fences and release/acquire counters order these. */
#ifndef NODEMPI_RMA_ATOMIC_H
#define NODEMPI_RMA_ATOMIC_H

#include <stddef.h>

#include "coll/op.h"
#include "datatype/datatype.h"

/* 1 when elements of type (one basic kind) can be updated by rma_atomic_apply. */
int rma_atomic_supported(const struct dt_type *type);

/* *target = *origin op *target atomically; *result (if non-NULL) gets the previous value.
 * target must be aligned to size; origin and result need not be. */
void rma_atomic_apply(enum dt_element kind, size_t size, enum coll_op_kind op, void *target,
                      const void *origin, void *result);

/* The same on private memory (no atomics): the locked path for misaligned elements. */
void rma_element_apply(enum dt_element kind, size_t size, enum coll_op_kind op, void *target,
                       const void *origin);

/* *result = *target; if it equals *compare, *target = *origin. Atomically; size 1/2/4/8. */
void rma_atomic_cas(size_t size, void *target, const void *compare, const void *origin,
                    void *result);

#endif
