/* test_policy.c - the protocol switch: eager up to the limit, synchronous sends always by
 * rendezvous, single copy only when usable and above the pair's threshold. */
#include <stdio.h>

#include "p2p/policy.h"

static int failures;

static void expect(size_t size, enum core_send_mode mode, int cma, enum p2p_protocol want)
{
    struct p2p_policy_input in = {size, mode, cma, 4096, 16384};
    enum p2p_protocol got = p2p_choose_protocol(&in);
    if (got != want) {
        fprintf(stderr, "size %zu mode %d cma %d: got %s, want %s\n", size, (int)mode, cma,
                p2p_protocol_name(got), p2p_protocol_name(want));
        failures++;
    }
}

int main(void)
{
    expect(0, CORE_SEND_STANDARD, 1, P2P_PROTOCOL_EAGER);
    expect(4096, CORE_SEND_STANDARD, 1, P2P_PROTOCOL_EAGER);
    expect(4097, CORE_SEND_STANDARD, 1, P2P_PROTOCOL_RNDV_PIPELINE);
    expect(16383, CORE_SEND_READY, 1, P2P_PROTOCOL_RNDV_PIPELINE);
    expect(16384, CORE_SEND_STANDARD, 1, P2P_PROTOCOL_RNDV_CMA);
    expect(1 << 30, CORE_SEND_STANDARD, 0, P2P_PROTOCOL_RNDV_PIPELINE);
    expect(8, CORE_SEND_SYNCHRONOUS, 1, P2P_PROTOCOL_RNDV_PIPELINE);
    expect(0, CORE_SEND_SYNCHRONOUS, 0, P2P_PROTOCOL_RNDV_PIPELINE);
    expect(1 << 20, CORE_SEND_SYNCHRONOUS, 1, P2P_PROTOCOL_RNDV_CMA);
    if (failures)
        return 1;
    printf("policy: all checks passed\n");
    return 0;
}
