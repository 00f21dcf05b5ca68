/* policy.h - the switch policy: which protocol moves a message of a given size to a given peer.
 * Kept apart from the protocols so topology- and skew-aware thresholds (seed 001 §4) change
 * only this decision, never how a protocol works. */
#ifndef NODEMPI_P2P_POLICY_H
#define NODEMPI_P2P_POLICY_H

#include <stddef.h>

#include "core/request.h"

enum p2p_protocol {
    P2P_PROTOCOL_EAGER,         /* header + data in one record */
    P2P_PROTOCOL_RNDV_CMA,      /* RTS; the receiver pulls with process_vm_readv */
    P2P_PROTOCOL_RNDV_PIPELINE, /* RTS; CTS; fragments through the ring */
};

struct p2p_policy_input {
    size_t size;                /* packed message size */
    enum core_send_mode mode;
    int cma_usable;             /* CMA works and the layout fits in iovecs */
    size_t eager_limit;
    size_t cma_threshold;       /* for this pair: smallest size CMA is used for */
};

enum p2p_protocol p2p_choose_protocol(const struct p2p_policy_input *in);
const char *p2p_protocol_name(enum p2p_protocol protocol);

#endif
