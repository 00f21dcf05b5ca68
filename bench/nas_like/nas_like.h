/* nas_like.h - shared helpers of the NAS-like communication kernels (cg_like, is_like,
 * mg_like): timing, the report line, integer helpers. Portable MPI C11, header only.
 * Each kernel prints one line:
 *   <pattern> np=<ranks> iters=<n> us_per_iter=<slowest rank's mean> check=<ok|FAILED>
 * and exits 1 if its data check failed. */
#ifndef NAS_LIKE_H
#define NAS_LIKE_H

#define _POSIX_C_SOURCE 200809L
#include <mpi.h>

/* MPICH defines MPI_STATUSES_IGNORE as (MPI_Status *)1, which gcc >= 11 reports as an
 * out-of-bounds access to MPI_Waitall's array parameter. */
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 11
#pragma GCC diagnostic ignored "-Wstringop-overflow"
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static inline int nl_log2(int v)
{
    int l = 0;
    while ((1 << (l + 1)) <= v)
        l++;
    return l;
}

static inline int nl_is_pow2(int v) { return v > 0 && (v & (v - 1)) == 0; }

static inline void *nl_malloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) {
        fprintf(stderr, "out of memory (%zu bytes)\n", n);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    return p;
}

/* Integer argument i of argv, or fallback. */
static inline int nl_arg(int argc, char **argv, int i, int fallback)
{
    return argc > i ? atoi(argv[i]) : fallback;
}

/* Print the report line (rank 0) and return the exit code; errors is this rank's count. */
static inline int nl_report(const char *pattern, int iters, double seconds, long errors)
{
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    double slowest = 0;
    long total_errors = 0;
    MPI_Reduce(&seconds, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    MPI_Reduce(&errors, &total_errors, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        printf("%s np=%d iters=%d us_per_iter=%.1f check=%s\n", pattern, size, iters,
               slowest / iters * 1e6, total_errors ? "FAILED" : "ok");
        fflush(stdout);
    }
    MPI_Bcast(&total_errors, 1, MPI_LONG, 0, MPI_COMM_WORLD);
    return total_errors ? 1 : 0;
}

#endif
