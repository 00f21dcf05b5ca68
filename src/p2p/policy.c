/* policy.c - protocol choice (see policy.h). Synchronous sends always use a rendezvous: its
 * completion (FIN or the last fragment after CTS) proves the receive was matched, which is what
 * MPI_Ssend promises, at no extra message. */
#include "p2p/policy.h"

enum p2p_protocol p2p_choose_protocol(const struct p2p_policy_input *in)
{
    if (in->size <= in->eager_limit && in->mode != CORE_SEND_SYNCHRONOUS)
        return P2P_PROTOCOL_EAGER;
    if (in->cma_usable && in->size >= in->cma_threshold)
        return P2P_PROTOCOL_RNDV_CMA;
    return P2P_PROTOCOL_RNDV_PIPELINE;
}

const char *p2p_protocol_name(enum p2p_protocol protocol)
{
    switch (protocol) {
    case P2P_PROTOCOL_EAGER: return "eager";
    case P2P_PROTOCOL_RNDV_CMA: return "rendezvous-cma";
    case P2P_PROTOCOL_RNDV_PIPELINE: return "rendezvous-pipeline";
    }
    return "?";
}
