/* progress.h - the progress engine: one call advances every layer once; waiting loops spin,
 * yield or sleep on the rank's futex depending on NODEMPI_WAIT and oversubscription. */
#ifndef NODEMPI_CORE_PROGRESS_H
#define NODEMPI_CORE_PROGRESS_H

struct core_request;

/* Advance everything once; returns nonzero when something happened (a message moved, a request
 * completed), so waiters know whether to back off. */
int core_progress(void);

/* core_progress for nonblocking calls (MPI_Test & co., MPI_Iprobe): when oversubscribed, a
 * process that keeps polling without result gives its core away now and then. */
int core_progress_poll(void);

/* Wait until *flag becomes nonzero, progressing meanwhile. */
void core_progress_wait_flag(const int *flag);

/* Generic requests (nonblocking collectives, RMA) register here to be polled by core_progress
 * until complete. */
void core_progress_add_generic(struct core_request *request);

/* A waiter that found nothing to do for a while calls this: spin, yield or sleep as
 * configured. idle_rounds counts consecutive empty progress calls. */
void core_progress_idle(unsigned idle_rounds);

/* One spin-wait step. x86's pause stops the core from speculating loads of the line we poll
 * past the peer's store to it (a memory-ordering machine clear per message otherwise): a
 * cache-line ping-pong between two processes measured 47 ns one-way without it and 34-37 ns with
 * it (vCPUs close; 1.0-1.5x fewer ns when far). */
static inline void core_cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

#endif
