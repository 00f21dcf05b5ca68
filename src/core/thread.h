/* thread.h - MPI_THREAD_MULTIPLE: one process-wide lock (the "big lock") around every MPI call,
 * released by threads that wait so that other threads can progress (and complete what they
 * wait for). Off unless a thread level of MPI_THREAD_MULTIPLE was granted: then
 * nodempi.thread_multiple is 1 and stays 1 for the life of the process, and each API entry point
 * costs one predictable branch on nodempi.api_track (mpi_enter / mpi_leave in src/mpi/api.h),
 * which is 1 then, or after an MPI_T event registration (core_thread_track_calls). */
#ifndef NODEMPI_CORE_THREAD_H
#define NODEMPI_CORE_THREAD_H

#include <stdatomic.h>

/* Take / drop the lock for one MPI call. Re-entrant: a per-thread depth counts nested calls (an
 * MPI function calling a public one, a user callback calling MPI), only the outermost takes and
 * drops the lock. core_thread_leave with depth 0 does nothing (the call that turned the lock on
 * entered without it). */
void core_thread_enter(void);
void core_thread_leave(void);

/* Turn the lock on (MPI_THREAD_MULTIPLE granted by MPI_Init_thread or a session). Called with
 * the lock held through core_thread_enter. */
void core_thread_enable(void);

/* A waiting thread lets others in: if a thread waits for the lock, drop it, let a waiter
 * have it, take it again. Only from a point where the caller's state is consistent (the wait
 * loops: core_progress_idle and friends). */
void core_thread_yield(void);

/* Are threads waiting for the lock? (Cheap; for waiters deciding whether to hand over.) */
int core_thread_contended(void);

/* Drop the lock entirely around an action that may block for long (a futex sleep), whatever the
 * nesting depth, and take it back after. Returns the depth to give core_thread_resume. */
unsigned core_thread_suspend(void);
void core_thread_resume(unsigned depth);

/* Waiting threads share the polling (thread.c): core_thread_poll_turn says whether this
 * thread polls for everyone (it is, or now becomes, the poller); a thread that does not parks
 * (core_thread_park: lock dropped until the progress epoch moves or about 1 ms passed).
 * core_thread_note_progress moves the epoch (progress did something). */
int core_thread_poll_turn(void);
void core_thread_park(void);
void core_thread_note_progress(void);

/* Make every API entry point take the lock and count its nesting whatever the thread level
 * (nodempi.api_track; for good): MPI_T event registrations need the outermost call's end.
 * With the lock on below MULTIPLE, a futex sleep's safety-net timeout is 1 ms instead of
 * 50 (core/progress.c: a thread that holds the lock sleeps briefly), nothing else changes. */
void core_thread_track_calls(void);

/* Work for a thread at the end of its outermost MPI call, after the lock is dropped: when
 * core_thread_leave_pending is set, core_thread_leave calls core_thread_leave_work (MPI_T event
 * callbacks; defined in mpi/mpit_event.c, which sets and clears the flag). */
extern _Atomic int core_thread_leave_pending;
void core_thread_leave_work(void);

/* Ask that fn runs when this thread leaves its outermost MPI call (the context-id agreement
 * releases its process-wide claim then: src/core/comm_create.c). One at a time per thread. */
void core_thread_at_leave(void (*fn)(void));

#endif
