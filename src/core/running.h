/* running.h - "is the rank I wait for on a core right now?", for waiters of an oversubscribed
 * job (core/running.c). */
#ifndef NODEMPI_CORE_RUNNING_H
#define NODEMPI_CORE_RUNNING_H

/* Note that this rank is running (called from every progress round when oversubscribed). */
void core_running_beat(void);

/* The world rank whose message or answer this rank waits for next (p2p: a posted receive from
 * one source, a rendezvous send's receiver); -1 when unknown (wildcards). */
void core_running_await(int world_rank);

/* Did the awaited rank make a progress round within the last few microseconds? */
int core_running_awaited_runs(void);

#endif
