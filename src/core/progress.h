/* progress.h - the progress engine: one call advances every layer once; waiting loops spin,
 * yield or sleep on the rank's futex depending on NODEMPI_WAIT and oversubscription. */
#ifndef NODEMPI_CORE_PROGRESS_H
#define NODEMPI_CORE_PROGRESS_H

struct core_request;

/* Advance everything once; returns nonzero when something happened (a message moved, a request
 * completed), so waiters know whether to back off. */
int core_progress(void);

/* Wait until *flag becomes nonzero, progressing meanwhile. */
void core_progress_wait_flag(const int *flag);

/* Generic requests (nonblocking collectives, RMA) register here to be polled by core_progress
 * until complete. */
void core_progress_add_generic(struct core_request *request);

/* A waiter that found nothing to do for a while calls this: spin, yield or sleep as
 * configured. idle_rounds counts consecutive empty progress calls. */
void core_progress_idle(unsigned idle_rounds);

#endif
