/* common.h - the little every nodempi benchmark shares: a clock, a size-list parser,
 * option parsing, a time-budgeted timing loop and the one output format.
 *
 * Output: rank 0 prints CSV lines "benchmark,x,ranks,metric,value" on stdout. x is the swept
 * parameter (message bytes, except skew: c2 in microseconds, halo2d/cg: local grid edge or
 * vector length). The metric name ends in its unit: _us/_ns lower is better, _MBps (1e6 B/s)
 * higher is better. bench/compare.py parses exactly this; anything else on stdout is ignored.
 */
#ifndef NODEMPI_BENCH_COMMON_H
#define NODEMPI_BENCH_COMMON_H

#include <mpi.h>
#include <stddef.h>

#define NB_MAX_SIZES 64

typedef struct {
    size_t sizes[NB_MAX_SIZES]; /* -s: swept values, ascending as given */
    int nsizes;
    double budget;              /* -t: seconds of timed work per point */
    int window;                 /* -w: messages in flight per window */
    size_t msg;                 /* -m: fixed message size where the sweep is something else */
    const char *select;         /* -c: comma list of sub-benchmarks, NULL = all */
    size_t recv_offset;         /* -a: receive buffers start this many bytes past a page */
    int rank, nranks;
} nb_opts;

/* MPI_Init, then parse argv. defaults: size list spec and -m value. Exits on bad options. */
void nb_init(int *argc, char ***argv, nb_opts *o, const char *default_sizes, size_t default_msg,
             const char *usage_extra);
void nb_finalize(void);

/* Ends the job (MPI_Abort, exit code 2) with "<bench>: needs at least <n> ranks" on stderr when
 * it has fewer ranks. */
void nb_require_ranks(const nb_opts *o, int n, const char *bench);

/* Monotonic wall clock in seconds (clock_gettime, not MPI_Wtime, so every MPI is timed alike). */
double nb_now(void);

/* Busy "computation" for the given seconds (skew benchmark). */
void nb_spin(double seconds);

/* "4:4M" = powers of two from 4 to 4 MiB; "8,1K,64K" = a list; suffixes K, M, G (binary). */
int nb_parse_sizes(const char *spec, size_t *out, int max);

/* Is name selected by -c (or is there no -c)? */
int nb_selected(const nb_opts *o, const char *name);

/* Page-aligned allocation, every page written so first-touch costs stay out of the timings. */
void *nb_alloc(size_t bytes);
/* The same, starting offset bytes past the page boundary (never freed: benchmarks exit). */
void *nb_alloc_offset(size_t bytes, size_t offset);

/* Last-level cache size in bytes from sysfs (32 MiB if unknown). */
size_t nb_llc_bytes(void);

/* Time fn(ctx): two warm-up calls, then as many calls as fill o->budget seconds. The count is
 * agreed by all ranks of comm (they all must call), so collectives stay matched. If prep is not
 * NULL it runs before every call outside the timed region. Returns this rank's seconds per call:
 * the median over up to 5 equal batches of the batch mean. */
double nb_time(const nb_opts *o, MPI_Comm comm, void (*prep)(void *), void (*fn)(void *),
               void *ctx);

/* MPI_Waitall into a scratch status array. Not MPI_STATUSES_IGNORE at the call sites: MPICH
 * defines it as (MPI_Status *)1 and GCC 12 then flags -Wstringop-overflow on the array argument. */
void nb_waitall(int n, MPI_Request *req);

/* Largest per-rank value over comm, valid on rank 0. */
double nb_max(double v, MPI_Comm comm);

/* Print one result line (rank 0 only; other ranks return). */
void nb_emit(const nb_opts *o, const char *bench, double x, const char *metric, double value);

#endif
