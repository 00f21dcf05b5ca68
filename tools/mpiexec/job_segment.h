/* job_segment.h - the launcher's side of the job segment's life: created under a unique name,
 * removed on every exit path of mpiexec (normal, error, exit(), crash), and removed at the
 * next start when a SIGKILLed mpiexec left it behind. The layout itself is src/shm/segment.h. */
#ifndef NODEMPI_MPIEXEC_JOB_SEGMENT_H
#define NODEMPI_MPIEXEC_JOB_SEGMENT_H

#include <stddef.h>
#include <sys/types.h>

#include "shm/segment.h"

/* Job ids carry the launcher's pid in their upper 32 bits (the lower 32 are random), so that
 * a segment whose launcher no longer exists can be recognised as stale. */
unsigned long long job_segment_new_id(void);

/* Creates the segment for nranks under a fresh job id and arranges its removal at exit and on
 * a crash of mpiexec. Returns NULL with a message printed on failure. */
struct shm_header *job_segment_create(int nranks, char *name, size_t name_len);

/* Unlinks the segment if one was created; safe to call twice and from a signal handler. */
void job_segment_remove(void);

/* Unlinks /dev/shm/nodempi-<uid>-<id> segments whose launcher pid no longer exists. */
void job_segment_remove_stale(void);

/* Unlinks /dev/shm/nodempi-<uid>-<id> segments whose id names this launcher pid: the reaper's
 * work right after that launcher died (a dead launcher its parent has not reaped yet still
 * exists for job_segment_remove_stale). */
void job_segment_remove_launched_by(pid_t launcher);

#endif
