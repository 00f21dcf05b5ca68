/* copy_choice.h - blocking collectives choose single copy or pipeline for their rendezvous
 * messages from their own measured run time (copy_choice.c). */
#ifndef NODEMPI_COLL_COPY_CHOICE_H
#define NODEMPI_COLL_COPY_CHOICE_H

#include <stddef.h>
#include <stdint.h>

#include "coll/coll.h"
#include "p2p/policy.h"

struct p2p_adapt;

struct coll_copy_choice {
    struct p2p_adapt *adapt;
    size_t bytes;
    enum p2p_protocol used;
    uint64_t started;
};

/* Before a blocking collective: 1 when a choice was made (then call _end after it). */
int coll_copy_choice_begin(const struct coll_args *a, struct coll_copy_choice *c);
void coll_copy_choice_end(struct coll_copy_choice *c);

#endif
