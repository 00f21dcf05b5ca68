/* context_claim.h - context-id agreement when threads create communicators concurrently
 * (MPI_THREAD_MULTIPLE). Every communicator constructor ANDs the members' free maps of context
 * ids over its parent (comm_create.c). Two threads of one process agreeing at the same time over
 * different parents would both see the same free ids and both pick them. So one thread per
 * process holds the claim at a time; the others contribute an empty map and a "not mine" word,
 * the round fails on every member alike, and they try again. Who may claim: the agreement
 * whose parent context id is the lowest among those waiting in the process; context ids are the
 * same in every process, so the lowest agreement of the job wins everywhere and runs
 * (MPICH uses the same rule). The claim is kept until the thread leaves its MPI call (the new
 * pair is taken from the map by then) or dropped after a failed round.
 * Without MPI_THREAD_MULTIPLE every round is mine and succeeds at once. */
#ifndef NODEMPI_CORE_CONTEXT_CLAIM_H
#define NODEMPI_CORE_CONTEXT_CLAIM_H

#include <stdint.h>

#include "core/comm_create.h"

/* An agreement's words: the free map, then the all-members-hold-the-claim word. */
enum { CORE_AGREE_WORDS = CORE_CONTEXT_WORDS + 1 };

/* Bracket one agreement (all its rounds); key = the parent's context id. */
void core_context_claim_begin(uint32_t key);
void core_context_claim_end(uint32_t key);

/* This round's contribution: the free map and ~0 when this thread holds (or now takes) the
 * claim, zeros otherwise. */
void core_context_claim_contribute(uint32_t key, const uint64_t *free_bits, uint64_t *words);

/* After the AND over every member: 1 if the round counts (every member held its claim), else
 * 0 and this thread's claim is dropped for the retry. */
int core_context_claim_agreed(const uint64_t *words);

#endif
