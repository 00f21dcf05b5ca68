/* context_claim.c - one context-id agreement at a time per process under MPI_THREAD_MULTIPLE
 * (the rule is in context_claim.h). Everything here runs under the big lock (core/thread.c):
 * the waiting list and the owner are plain variables. */
#include "core/context_claim.h"

#include <string.h>

#include "core/state.h"
#include "core/thread.h"

/* Agreements of this process in progress, by parent context id. A full list only makes the
 * rule less fair (an unlisted agreement claims as if it were lowest), never wrong. */
enum { WAITING_MAX = 256 };
static uint32_t waiting[WAITING_MAX];
static int waiting_count;

/* The thread holding the claim: the address of its thread-local marker, NULL when free. */
static _Thread_local __attribute__((tls_model("initial-exec"))) char marker;
static const char *owner;

static void claim_drop(void)
{
    if (owner == &marker)
        owner = NULL;
}

void core_context_claim_begin(uint32_t key)
{
    if (nodempi.thread_multiple && waiting_count < WAITING_MAX)
        waiting[waiting_count++] = key;
}

void core_context_claim_end(uint32_t key)
{
    for (int i = 0; i < waiting_count; i++)
        if (waiting[i] == key) {
            waiting[i] = waiting[--waiting_count];
            return;
        }
}

static int lowest_waiting(uint32_t key)
{
    for (int i = 0; i < waiting_count; i++)
        if (waiting[i] < key)
            return 0;
    return 1;
}

static int claim(uint32_t key)
{
    if (!nodempi.thread_multiple || owner == &marker)
        return 1;
    if (owner || !lowest_waiting(key))
        return 0;
    owner = &marker;
    core_thread_at_leave(claim_drop); /* the new pair is in the map by the call's end */
    return 1;
}

void core_context_claim_contribute(uint32_t key, const uint64_t *free_bits, uint64_t *words)
{
    int mine = claim(key);
    if (mine)
        memcpy(words, free_bits, sizeof(uint64_t) * CORE_CONTEXT_WORDS);
    else
        memset(words, 0, sizeof(uint64_t) * CORE_CONTEXT_WORDS);
    words[CORE_CONTEXT_WORDS] = mine ? ~UINT64_C(0) : 0;
}

int core_context_claim_agreed(const uint64_t *words)
{
    if (words[CORE_CONTEXT_WORDS] == ~UINT64_C(0))
        return 1;
    claim_drop();
    core_thread_yield();
    return 0;
}
