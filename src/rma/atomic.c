/* atomic.c - the element atomics of atomic.h, on the GCC __atomic builtins (they work on plain
 * memory of the right alignment, which is what a window is). Values travel as 64-bit bit
 * patterns; compute() does the operator's arithmetic in the element's own type. */
#include "rma/atomic.h"

#include <stdint.h>
#include <string.h>

static int is_signed_kind(enum dt_element kind)
{
    return kind == DT_ELEMENT_INT8 || kind == DT_ELEMENT_INT16 || kind == DT_ELEMENT_INT32 ||
           kind == DT_ELEMENT_INT64;
}

static int is_integer_kind(enum dt_element kind)
{
    switch (kind) {
    case DT_ELEMENT_INT8: case DT_ELEMENT_UINT8: case DT_ELEMENT_INT16:
    case DT_ELEMENT_UINT16: case DT_ELEMENT_INT32: case DT_ELEMENT_UINT32:
    case DT_ELEMENT_INT64: case DT_ELEMENT_UINT64: case DT_ELEMENT_BOOL:
    case DT_ELEMENT_CHAR: case DT_ELEMENT_BYTE: case DT_ELEMENT_WCHAR:
        return 1;
    default:
        return 0;
    }
}

int rma_atomic_supported(const struct dt_type *type)
{
    size_t size = (size_t)type->element_size;
    if (size != 1 && size != 2 && size != 4 && size != 8)
        return 0;
    return is_integer_kind(type->element) ||
           (type->element == DT_ELEMENT_FLOAT && size == sizeof(float)) ||
           (type->element == DT_ELEMENT_DOUBLE && size == sizeof(double));
}

/* ---- bit patterns ------------------------------------------------------------------------- */

static uint64_t read_bits(const void *p, size_t size)
{
    uint8_t v8;
    uint16_t v16;
    uint32_t v32;
    uint64_t v64;
    switch (size) {
    case 1: memcpy(&v8, p, 1); return v8;
    case 2: memcpy(&v16, p, 2); return v16;
    case 4: memcpy(&v32, p, 4); return v32;
    default: memcpy(&v64, p, 8); return v64;
    }
}

static void write_bits(void *p, size_t size, uint64_t bits)
{
    uint8_t v8 = (uint8_t)bits;
    uint16_t v16 = (uint16_t)bits;
    uint32_t v32 = (uint32_t)bits;
    switch (size) {
    case 1: memcpy(p, &v8, 1); break;
    case 2: memcpy(p, &v16, 2); break;
    case 4: memcpy(p, &v32, 4); break;
    default: memcpy(p, &bits, 8); break;
    }
}

static int64_t sign_extend(uint64_t bits, size_t size)
{
    int shift = 64 - 8 * (int)size;
    return shift ? (int64_t)(bits << shift) >> shift : (int64_t)bits;
}

/* ---- the operators ------------------------------------------------------------------------ */

/* origin op target on integers, a and b already widened (sign-extended for signed kinds). */
static uint64_t compute_int(enum coll_op_kind op, uint64_t a, uint64_t b, int is_signed)
{
    int less = is_signed ? (int64_t)a < (int64_t)b : a < b;
    switch (op) {
    case COLL_OP_SUM: return a + b;
    case COLL_OP_PROD: return a * b;
    case COLL_OP_MIN: return less ? a : b;
    case COLL_OP_MAX: return less ? b : a;
    case COLL_OP_LAND: return (a != 0) && (b != 0);
    case COLL_OP_LOR: return (a != 0) || (b != 0);
    case COLL_OP_LXOR: return (a != 0) != (b != 0);
    case COLL_OP_BAND: return a & b;
    case COLL_OP_BOR: return a | b;
    case COLL_OP_BXOR: return a ^ b;
    case COLL_OP_REPLACE: return a;
    default: return b; /* NO_OP */
    }
}

static double compute_real(enum coll_op_kind op, double a, double b)
{
    switch (op) {
    case COLL_OP_SUM: return a + b;
    case COLL_OP_PROD: return a * b;
    case COLL_OP_MIN: return a < b ? a : b;
    case COLL_OP_MAX: return a > b ? a : b;
    case COLL_OP_REPLACE: return a;
    default: return b;
    }
}

/* New bit pattern of the target for origin bits a and target bits b. Floats compute in their
 * own precision (a double result rounded to float is the float result for + and *, but the
 * explicit float path says so without an argument). */
static uint64_t compute(enum dt_element kind, size_t size, enum coll_op_kind op, uint64_t a,
                        uint64_t b)
{
    if (kind == DT_ELEMENT_FLOAT) {
        float fa, fb, r;
        uint32_t a32 = (uint32_t)a, b32 = (uint32_t)b, out;
        memcpy(&fa, &a32, 4);
        memcpy(&fb, &b32, 4);
        switch (op) {
        case COLL_OP_SUM: r = fa + fb; break;
        case COLL_OP_PROD: r = fa * fb; break;
        case COLL_OP_MIN: r = fa < fb ? fa : fb; break;
        case COLL_OP_MAX: r = fa > fb ? fa : fb; break;
        case COLL_OP_REPLACE: r = fa; break;
        default: r = fb; break;
        }
        memcpy(&out, &r, 4);
        return out;
    }
    if (kind == DT_ELEMENT_DOUBLE) {
        double da, db, r;
        memcpy(&da, &a, 8);
        memcpy(&db, &b, 8);
        r = compute_real(op, da, db);
        uint64_t out;
        memcpy(&out, &r, 8);
        return out;
    }
    int is_signed = is_signed_kind(kind);
    if (is_signed) {
        a = (uint64_t)sign_extend(a, size);
        b = (uint64_t)sign_extend(b, size);
    }
    uint64_t r = compute_int(op, a, b, is_signed);
    return size == 8 ? r : r & ((1ull << (8 * size)) - 1);
}

void rma_element_apply(enum dt_element kind, size_t size, enum coll_op_kind op, void *target,
                       const void *origin)
{
    write_bits(target, size, compute(kind, size, op, read_bits(origin, size),
                                     read_bits(target, size)));
}

/* ---- atomics by width --------------------------------------------------------------------- */

/* GCC's __atomic builtins take their width from the pointer type, so these three functions
 * are the only code written once per width: one builtin each, no logic. Everything else in
 * this file works on 64-bit patterns. */

static uint64_t atomic_load_bits(void *p, size_t size)
{
    switch (size) {
    case 1: return __atomic_load_n((uint8_t *)p, __ATOMIC_RELAXED);
    case 2: return __atomic_load_n((uint16_t *)p, __ATOMIC_RELAXED);
    case 4: return __atomic_load_n((uint32_t *)p, __ATOMIC_RELAXED);
    default: return __atomic_load_n((uint64_t *)p, __ATOMIC_RELAXED);
    }
}

/* *p += a (SUM) or *p = a (REPLACE), returning the previous value: lock xadd and xchg on
 * x86-64, the only operators that are one instruction there when the old value is wanted
 * (fetch-and/or/xor compile to a compare-and-swap loop like the one below). */
static uint64_t atomic_add_or_swap_bits(void *p, size_t size, int add, uint64_t a)
{
    uint8_t v8 = (uint8_t)a;
    uint16_t v16 = (uint16_t)a;
    uint32_t v32 = (uint32_t)a;
    switch (size) {
    case 1:
        return add ? __atomic_fetch_add((uint8_t *)p, v8, __ATOMIC_RELAXED)
                   : __atomic_exchange_n((uint8_t *)p, v8, __ATOMIC_RELAXED);
    case 2:
        return add ? __atomic_fetch_add((uint16_t *)p, v16, __ATOMIC_RELAXED)
                   : __atomic_exchange_n((uint16_t *)p, v16, __ATOMIC_RELAXED);
    case 4:
        return add ? __atomic_fetch_add((uint32_t *)p, v32, __ATOMIC_RELAXED)
                   : __atomic_exchange_n((uint32_t *)p, v32, __ATOMIC_RELAXED);
    default:
        return add ? __atomic_fetch_add((uint64_t *)p, a, __ATOMIC_RELAXED)
                   : __atomic_exchange_n((uint64_t *)p, a, __ATOMIC_RELAXED);
    }
}

/* Compare-and-swap (weak: may fail spuriously); on failure *expected becomes the value found,
 * on success it stays what was there. */
static int atomic_cas_bits(void *p, size_t size, uint64_t *expected, uint64_t desired, int weak)
{
    uint8_t e8 = (uint8_t)*expected;
    uint16_t e16 = (uint16_t)*expected;
    uint32_t e32 = (uint32_t)*expected;
    int ok;
    switch (size) {
    case 1:
        ok = __atomic_compare_exchange_n((uint8_t *)p, &e8, (uint8_t)desired, weak,
                                         __ATOMIC_RELAXED, __ATOMIC_RELAXED);
        *expected = e8;
        return ok;
    case 2:
        ok = __atomic_compare_exchange_n((uint16_t *)p, &e16, (uint16_t)desired, weak,
                                         __ATOMIC_RELAXED, __ATOMIC_RELAXED);
        *expected = e16;
        return ok;
    case 4:
        ok = __atomic_compare_exchange_n((uint32_t *)p, &e32, (uint32_t)desired, weak,
                                         __ATOMIC_RELAXED, __ATOMIC_RELAXED);
        *expected = e32;
        return ok;
    default:
        return __atomic_compare_exchange_n((uint64_t *)p, expected, desired, weak,
                                           __ATOMIC_RELAXED, __ATOMIC_RELAXED);
    }
}

/* ---- the element operations --------------------------------------------------------------- */

void rma_atomic_apply(enum dt_element kind, size_t size, enum coll_op_kind op, void *target,
                      const void *origin, void *result)
{
    uint64_t old;
    if (op == COLL_OP_NO_OP) {
        old = atomic_load_bits(target, size);
    } else if (op == COLL_OP_REPLACE || (op == COLL_OP_SUM && is_integer_kind(kind))) {
        old = atomic_add_or_swap_bits(target, size, op == COLL_OP_SUM,
                                      read_bits(origin, size));
    } else {
        uint64_t a = read_bits(origin, size);
        old = atomic_load_bits(target, size);
        while (!atomic_cas_bits(target, size, &old, compute(kind, size, op, a, old), 1)) {
        }
    }
    if (result)
        write_bits(result, size, old);
}

void rma_atomic_cas(size_t size, void *target, const void *compare, const void *origin,
                    void *result)
{
    uint64_t expected = read_bits(compare, size);
    atomic_cas_bits(target, size, &expected, read_bits(origin, size), 0);
    /* strong CAS: on success expected is the old value, on failure the current one */
    write_bits(result, size, expected);
}
