/* mpitest.h - shared helpers for the portable MPI test programs (header-only).
 * Check macros report file:line, rank, expected and actual values; data pattern
 * fill/verify helpers; status checks; sleep; error-class names.
 * Include this header FIRST in every test (it sets _POSIX_C_SOURCE). */
#ifndef MPITEST_H
#define MPITEST_H

#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include <mpi.h>

/* MPICH defines MPI_STATUSES_IGNORE as (MPI_Status *)1, which gcc >= 11 reports as an
 * out-of-bounds access to the array parameter of MPI_Waitall & co. */
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 11
#pragma GCC diagnostic ignored "-Wstringop-overflow"
#endif

#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Rank/size in MPI_COMM_WORLD (set by mt_init / mt_setup), error counter. */
static int mt_rank = -1;
static int mt_size = 0;
static long mt_errors = 0;

#define MT_MAX_REPORTS 25 /* stop printing after this many failures per rank */

/* ------------------------------------------------------------------ */
/* failure reporting                                                    */

static inline void mt_vfail(const char *file, int line, const char *fmt, va_list ap)
{
    mt_errors++;
    if (mt_errors > MT_MAX_REPORTS)
        return;
    /* format into one buffer so that lines of different ranks do not interleave */
    char msg[1024];
    int len = snprintf(msg, sizeof msg, "FAIL %s:%d rank %d: ", file, line, mt_rank);
    if (len < 0 || len >= (int)sizeof msg - 2)
        len = 0;
    vsnprintf(msg + len, sizeof msg - 1 - (size_t)len, fmt, ap);
    strcat(msg, "\n");
    fputs(msg, stderr);
    if (mt_errors == MT_MAX_REPORTS)
        fprintf(stderr, "FAIL rank %d: too many failures, further reports suppressed\n", mt_rank);
    fflush(stderr);
}

static inline void mt_fail(const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    mt_vfail(file, line, fmt, ap);
    va_end(ap);
}

/* Report and abort the whole job immediately (continuing makes no sense). */
static inline void mt_fatal(const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    mt_errors = 0; /* make sure it is printed */
    mt_vfail(file, line, fmt, ap);
    va_end(ap);
    MPI_Abort(MPI_COMM_WORLD, 1);
    exit(1); /* not reached */
}

/* MT_CHECK(cond, "fmt", args...): record a failure with a message when cond is false. */
#define MT_CHECK(cond, ...)                                                                   \
    do {                                                                                      \
        if (!(cond))                                                                          \
            mt_fail(__FILE__, __LINE__, __VA_ARGS__);                                         \
    } while (0)

/* MT_ASSERT(cond, "fmt", args...): like MT_CHECK but aborts the job. */
#define MT_ASSERT(cond, ...)                                                                  \
    do {                                                                                      \
        if (!(cond))                                                                          \
            mt_fatal(__FILE__, __LINE__, __VA_ARGS__);                                        \
    } while (0)

static inline int mt_check_int_(const char *file, int line, long long expected, long long got,
                                const char *what)
{
    if (expected != got) {
        mt_fail(file, line, "%s: expected %lld, got %lld", what, expected, got);
        return 0;
    }
    return 1;
}

/* MT_CHECK_INT(expected, got, what): integer equality with expected/got in the report. */
#define MT_CHECK_INT(expected, got, what)                                                     \
    mt_check_int_(__FILE__, __LINE__, (long long)(expected), (long long)(got), (what))

/* ------------------------------------------------------------------ */
/* error classes                                                        */

static inline const char *mt_errclass_name(int cls)
{
#define MT_EC(c)                                                                              \
    if (cls == c)                                                                             \
        return #c;
    MT_EC(MPI_SUCCESS) MT_EC(MPI_ERR_BUFFER) MT_EC(MPI_ERR_COUNT) MT_EC(MPI_ERR_TYPE)
    MT_EC(MPI_ERR_TAG) MT_EC(MPI_ERR_COMM) MT_EC(MPI_ERR_RANK) MT_EC(MPI_ERR_REQUEST)
    MT_EC(MPI_ERR_ROOT) MT_EC(MPI_ERR_GROUP) MT_EC(MPI_ERR_OP) MT_EC(MPI_ERR_TOPOLOGY)
    MT_EC(MPI_ERR_DIMS) MT_EC(MPI_ERR_ARG) MT_EC(MPI_ERR_UNKNOWN) MT_EC(MPI_ERR_TRUNCATE)
    MT_EC(MPI_ERR_OTHER) MT_EC(MPI_ERR_INTERN) MT_EC(MPI_ERR_IN_STATUS) MT_EC(MPI_ERR_PENDING)
#undef MT_EC
    return "(other class)";
}

/* Error class of an error code (the code itself if MPI_Error_class fails). */
static inline int mt_errclass(int code)
{
    int cls = code;
    if (MPI_Error_class(code, &cls) != MPI_SUCCESS)
        return code;
    return cls;
}

static inline int mt_check_mpi_(int rc, const char *call, const char *file, int line)
{
    if (rc != MPI_SUCCESS) {
        char msg[MPI_MAX_ERROR_STRING];
        int len = 0;
        msg[0] = '\0';
        MPI_Error_string(rc, msg, &len);
        mt_fail(file, line, "%s returned %d (%s): %s", call, rc, mt_errclass_name(mt_errclass(rc)),
                msg);
    }
    return rc;
}

/* MT_MPI(call): call must return MPI_SUCCESS (only observable with MPI_ERRORS_RETURN). */
#define MT_MPI(call) mt_check_mpi_((call), #call, __FILE__, __LINE__)

static inline int mt_check_errclass_(const char *file, int line, int rc, int expected_class,
                                     const char *what)
{
    int cls = mt_errclass(rc);
    if (cls != expected_class) {
        mt_fail(file, line, "%s: expected error class %d (%s), got code %d class %d (%s)", what,
                expected_class, mt_errclass_name(expected_class), rc, cls,
                mt_errclass_name(cls));
        return 0;
    }
    return 1;
}

/* MT_CHECK_ERRCLASS(rc, MPI_ERR_xxx, what): rc's error class must be the expected one. */
#define MT_CHECK_ERRCLASS(rc, expected_class, what)                                           \
    mt_check_errclass_(__FILE__, __LINE__, (rc), (expected_class), (what))

/* ------------------------------------------------------------------ */
/* init / finish                                                        */

/* Record rank/size of MPI_COMM_WORLD (call after MPI_Init/MPI_Init_thread). */
static inline void mt_setup(void)
{
    MPI_Comm_rank(MPI_COMM_WORLD, &mt_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &mt_size);
}

static inline void mt_init(int *argc, char ***argv)
{
    MPI_Init(argc, argv);
    mt_setup();
}

/* Abort unless the job has at least `n` ranks. */
static inline void mt_require_ranks(int n)
{
    if (mt_size < n) {
        if (mt_rank == 0)
            fprintf(stderr, "FAIL: this test needs at least %d ranks, got %d\n", n, mt_size);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
}

/* Sum the failure counts, finalize, return the process exit code. */
static inline int mt_finish(void)
{
    long total = 0;
    MPI_Allreduce(&mt_errors, &total, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    if (mt_rank == 0) {
        if (total == 0)
            printf("No errors\n");
        else
            fprintf(stderr, "FAILED: %ld check(s) failed in total\n", total);
        fflush(stdout);
    }
    MPI_Finalize();
    return mt_errors ? 1 : 0;
}

static inline void mt_set_errors_return(MPI_Comm comm)
{
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
}

/* ------------------------------------------------------------------ */
/* misc                                                                 */

/* A counter of this process from /proc/self/io ("syscr:" read, "syscw:" write system calls);
 * -1 when it cannot be read. */
static inline long long mt_proc_io(const char *key)
{
    FILE *f = fopen("/proc/self/io", "r");
    long long found = -1, value;
    char name[64];
    while (f && fscanf(f, "%63s %lld", name, &value) == 2)
        if (strcmp(name, key) == 0)
            found = value;
    if (f)
        fclose(f);
    return found;
}

static inline void mt_sleep(double seconds)
{
    struct timespec ts;
    ts.tv_sec = (time_t)seconds;
    ts.tv_nsec = (long)((seconds - (double)ts.tv_sec) * 1e9);
    while (nanosleep(&ts, &ts) != 0) {
    }
}

static inline void *mt_malloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    MT_ASSERT(p != NULL, "malloc(%zu) failed", n);
    return p;
}

/* True if MPI_Get_library_version's string starts with `prefix` (e.g. "Open MPI", "MPICH").
 * Only used to tolerate documented deviations of the reference MPIs. */
static inline int mt_library_is(const char *prefix)
{
    char lib[MPI_MAX_LIBRARY_VERSION_STRING];
    int len = 0;
    lib[0] = '\0';
    MPI_Get_library_version(lib, &len);
    return strncmp(lib, prefix, strlen(prefix)) == 0;
}

/* Value of the MPI_TAG_UB attribute of MPI_COMM_WORLD. */
static inline int mt_tag_ub(void)
{
    int *val = NULL, flag = 0;
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &val, &flag);
    MT_ASSERT(flag && val != NULL, "MPI_TAG_UB attribute not set");
    return *val;
}

/* ------------------------------------------------------------------ */
/* communication partners                                               */

/* Ring neighbours in MPI_COMM_WORLD (a 1-rank ring talks to itself). */
static inline int mt_right(void) { return (mt_rank + 1) % mt_size; }
static inline int mt_left(void) { return (mt_rank + mt_size - 1) % mt_size; }

/* Pairs (2k, 2k+1); an unpaired last rank is paired with itself. The even rank is the
 * "first" of the pair. */
static inline int mt_peer(void)
{
    int p = mt_rank ^ 1;
    return p < mt_size ? p : mt_rank;
}
static inline int mt_is_first(void) { return (mt_rank & 1) == 0; }

/* ------------------------------------------------------------------ */
/* data patterns                                                        */

/* splitmix64-style mixer: pattern word k for a seed. */
static inline uint64_t mt_mix(uint64_t seed, uint64_t k)
{
    uint64_t z = seed * 0x9E3779B97F4A7C15ULL + k * 0xBF58476D1CE4E5B9ULL + 0x94D049BB133111EBULL;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* Byte `i` of the pattern for `seed`. */
static inline unsigned char mt_pattern_byte(uint64_t seed, size_t i)
{
    uint64_t w = mt_mix(seed, i / 8);
    unsigned char b[8];
    memcpy(b, &w, 8);
    return b[i % 8];
}

/* Fill nbytes of buf with the pattern of `seed` (position dependent, seed dependent). */
static inline void mt_fill(void *buf, size_t nbytes, uint64_t seed)
{
    unsigned char *p = (unsigned char *)buf;
    size_t k, nw = nbytes / 8;
    for (k = 0; k < nw; k++) {
        uint64_t w = mt_mix(seed, k);
        memcpy(p + 8 * k, &w, 8);
    }
    if (nbytes % 8) {
        uint64_t w = mt_mix(seed, nw);
        memcpy(p + 8 * nw, &w, nbytes % 8);
    }
}

/* Count bytes differing from the pattern; report the first mismatch. Returns mismatches. */
static inline size_t mt_verify_(const char *file, int line, const void *buf, size_t nbytes,
                                uint64_t seed, const char *what)
{
    const unsigned char *p = (const unsigned char *)buf;
    size_t k, nw = (nbytes + 7) / 8, bad = 0, first = 0;
    unsigned char fexp = 0, fgot = 0;
    for (k = 0; k < nw; k++) {
        uint64_t w = mt_mix(seed, k);
        size_t len = (k == nw - 1 && nbytes % 8) ? nbytes % 8 : 8;
        if (memcmp(p + 8 * k, &w, len) != 0) {
            unsigned char e[8];
            size_t j;
            memcpy(e, &w, 8);
            for (j = 0; j < len; j++) {
                if (p[8 * k + j] != e[j]) {
                    if (!bad) {
                        first = 8 * k + j;
                        fexp = e[j];
                        fgot = p[8 * k + j];
                    }
                    bad++;
                }
            }
        }
    }
    if (bad)
        mt_fail(file, line,
                "%s: %zu of %zu bytes wrong; first at offset %zu: expected 0x%02x, got 0x%02x",
                what, bad, nbytes, first, fexp, fgot);
    return bad;
}

/* MT_VERIFY(buf, nbytes, seed, what): buffer must hold mt_fill(.., seed). */
#define MT_VERIFY(buf, nbytes, seed, what)                                                    \
    mt_verify_(__FILE__, __LINE__, (buf), (nbytes), (seed), (what))

/* Check that nbytes of buf all equal `val` (e.g. untouched receive buffers). */
static inline size_t mt_verify_const_(const char *file, int line, const void *buf, size_t nbytes,
                                      unsigned char val, const char *what)
{
    const unsigned char *p = (const unsigned char *)buf;
    size_t i, bad = 0, first = 0;
    for (i = 0; i < nbytes; i++)
        if (p[i] != val && bad++ == 0)
            first = i;
    if (bad)
        mt_fail(file, line,
                "%s: %zu of %zu bytes changed; first at offset %zu: expected 0x%02x, got 0x%02x",
                what, bad, nbytes, first, val, p[first]);
    return bad;
}

#define MT_VERIFY_CONST(buf, nbytes, val, what)                                               \
    mt_verify_const_(__FILE__, __LINE__, (buf), (nbytes), (unsigned char)(val), (what))

/* ------------------------------------------------------------------ */
/* status checks                                                        */

/* Status must have the given source, tag and element count of `type`
 * (pass MPI_DATATYPE_NULL to skip the count). */
static inline int mt_check_status_(const char *file, int line, const MPI_Status *st, int source,
                                   int tag, MPI_Datatype type, int count, const char *what)
{
    int ok = 1;
    if (st->MPI_SOURCE != source) {
        mt_fail(file, line, "%s: status.MPI_SOURCE expected %d, got %d", what, source,
                st->MPI_SOURCE);
        ok = 0;
    }
    if (st->MPI_TAG != tag) {
        mt_fail(file, line, "%s: status.MPI_TAG expected %d, got %d", what, tag, st->MPI_TAG);
        ok = 0;
    }
    if (type != MPI_DATATYPE_NULL) {
        int c = -12345;
        MPI_Get_count(st, type, &c);
        if (c != count) {
            mt_fail(file, line, "%s: MPI_Get_count expected %d, got %d", what, count, c);
            ok = 0;
        }
    }
    return ok;
}

#define MT_CHECK_STATUS(st, source, tag, type, count, what)                                   \
    mt_check_status_(__FILE__, __LINE__, (st), (source), (tag), (type), (count), (what))

/* Status returned by a receive/probe from MPI_PROC_NULL: source PROC_NULL, tag ANY_TAG, count 0. */
#define MT_CHECK_PROCNULL_STATUS(st, what)                                                    \
    mt_check_status_(__FILE__, __LINE__, (st), MPI_PROC_NULL, MPI_ANY_TAG, MPI_BYTE, 0, (what))

/* Empty status (completion of MPI_REQUEST_NULL / inactive request):
 * source ANY_SOURCE, tag ANY_TAG, count 0, not cancelled. */
static inline int mt_check_empty_status_(const char *file, int line, const MPI_Status *st,
                                         const char *what)
{
    int ok = mt_check_status_(file, line, st, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_BYTE, 0, what);
    int canc = -1;
    MPI_Test_cancelled(st, &canc);
    if (canc) {
        mt_fail(file, line, "%s: empty status reports cancelled", what);
        ok = 0;
    }
    return ok;
}

#define MT_CHECK_EMPTY_STATUS(st, what) mt_check_empty_status_(__FILE__, __LINE__, (st), (what))

/* Fill a status with garbage so that "was it written" can be checked. */
static inline void mt_poison_status(MPI_Status *st)
{
    memset(st, 0x5a, sizeof *st);
}

/* ------------------------------------------------------------------ */
/* RMA windows                                                          */

/* A window of `bytes` bytes on every rank of MPI_COMM_WORLD (MPI_Win_allocate, displacement unit
 * 1; its memory at *(void **)baseptr), zeroed and ready: the zeroing stores are made inside an
 * exclusive lock of this rank's own part, which is what the separate memory model asks of local
 * stores into window memory, and the barrier keeps other ranks' accesses after them. */
static inline MPI_Win mt_win_allocate_zeroed(MPI_Aint bytes, void *baseptr)
{
    MPI_Win win = MPI_WIN_NULL;
    MT_MPI(MPI_Win_allocate(bytes, 1, MPI_INFO_NULL, MPI_COMM_WORLD, baseptr, &win));
    MT_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, mt_rank, 0, win));
    memset(*(void **)baseptr, 0, (size_t)bytes);
    MT_MPI(MPI_Win_unlock(mt_rank, win));
    MT_MPI(MPI_Barrier(MPI_COMM_WORLD));
    return win;
}

#endif /* MPITEST_H */
