/* profile.h - what nodempi-probe measured on this machine (per distance class: one-way latency,
 * two-copy and single-copy bandwidth, the single-copy threshold; cache sizes; memory
 * contention), stored as a key=value text file and read at MPI_Init. Without a file every value
 * has a default derived from the hwloc cache sizes (profile.c says how). The file is
 * $NODEMPI_PROFILE, else $XDG_CACHE_HOME/nodempi/profile-<host>.txt, else
 * ~/.cache/nodempi/profile-<host>.txt. */
#ifndef NODEMPI_TOPO_PROFILE_H
#define NODEMPI_TOPO_PROFILE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "topo/hardware.h"

#define TOPO_PROFILE_VERSION 1
#define TOPO_PROFILE_CACHE_LEVELS 3
/* cma_threshold value meaning "single copy never wins for this class". */
#define TOPO_THRESHOLD_NEVER SIZE_MAX

struct topo_profile_class {
    int measured;             /* 1 when cma_threshold came from a profile file */
    int cpu_a, cpu_b;         /* the CPU pair that was measured, -1 if none */
    double latency_ns;        /* one-way cache-line latency, median over runs (0 = unknown) */
    double latency_min_ns, latency_max_ns;
    double two_copy_gbps;     /* best pipelined copy through a shared buffer, GB/s (1e9 B/s) */
    double two_copy_stream_gbps; /* same with streaming (non-temporal) stores into the ring */
    double cma_gbps;          /* best single copy (process_vm_readv), GB/s */
    size_t cma_threshold;     /* smallest message pulled with single copy, or NEVER */
    size_t cma_threshold_stream; /* the same against the streaming-store pipeline */
};

struct topo_profile {
    char source[512];         /* the file read, "" when everything is default */
    int cpus;                 /* PUs of the machine probed (0 = not stated) */
    size_t cache_bytes[TOPO_PROFILE_CACHE_LEVELS]; /* L1d, L2, L3 of CPU 0 (0 = unknown) */
    double memcpy_gbps;       /* one core copying a cache-resident buffer */
    double memory_gbps_alone; /* one core streaming beyond the last-level cache */
    double memory_gbps_shared;/* per core, when two cores stream at once (contention) */
    struct topo_profile_class cls[TOPO_DISTANCE_CLASSES];
};

/* ---- the process's profile (loaded by topo_hw_init) ------------------------------------- */

/* Smallest rendezvous message worth single copy between two ranks of class d, in bytes;
 * TOPO_THRESHOLD_NEVER when the pipelined copy always wins. TOPO_UNKNOWN (unbound ranks) gets
 * the value of topo_distance_unbound()'s class unless the profile names "unknown" itself.
 * The pipelined copy measured is memcpy into the ring; topo_profile_cma_threshold_stream is the
 * threshold against a pipeline that writes the ring with streaming stores. */
size_t topo_profile_cma_threshold(enum topo_distance d);
size_t topo_profile_cma_threshold_stream(enum topo_distance d);
/* The whole profile in use (defaults where the file said nothing). */
const struct topo_profile *topo_profile_current(void);
/* Cache of `level` (1-3) as the loaded profile measured it, 0 when no profile is loaded (yet)
 * or the level is unknown. */
size_t topo_profile_cache_bytes(int level);

void topo_profile_init(void);     /* called by topo_hw_init */
void topo_profile_finalize(void); /* called by topo_hw_finalize */

/* ---- files (nodempi-probe, tests) ------------------------------------------------------- */

/* Defaults for this machine (needs topo_hw_init). */
void topo_profile_defaults(struct topo_profile *p);
/* $NODEMPI_PROFILE or the per-host default path; returns 1 when the path came from
 * NODEMPI_PROFILE, 0 for the default, -1 when no path can be formed (no HOME). */
int topo_profile_path(char *out, size_t out_len);
/* Read key=value lines over *p (which holds defaults). A malformed line, an unknown key or a
 * bad value is reported on diag (if not NULL) with file and line, and ignored: the value keeps
 * its default. A profile of another machine (cpus= differs) is ignored whole. Returns the
 * number of rejected lines, or -1 when the file cannot be opened (errno set). */
int topo_profile_read(const char *path, struct topo_profile *p, FILE *diag);
int topo_profile_parse(FILE *in, const char *name, struct topo_profile *p, FILE *diag);
/* Write p to path (creating its directory), atomically (temporary file + rename). Returns 0,
 * or -1 with a reason in why. */
int topo_profile_write(const char *path, const struct topo_profile *p, char *why,
                       size_t why_len);
void topo_profile_format(FILE *out, const struct topo_profile *p);

/* "never" or the size in bytes (with a binary unit when exact: "64K", "2M"). */
const char *topo_profile_threshold_text(size_t bytes, char *buf, size_t buf_len);

#endif
