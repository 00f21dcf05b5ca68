/* fastbox.c - where a pair's fastbox lives in the segment: right after its ring's control line,
 * before the ring's data (segment.c sizes the pair's stride for both). The protocol is in
 * fastbox.h. */
#include "shm/fastbox.h"

void shm_fastbox_view(struct shm_fastbox *fb, struct shm_header *seg, int src, int dst)
{
    char *base = (char *)seg + seg->rings_offset +
                 ((size_t)src * seg->nranks + (size_t)dst) * seg->ring_stride +
                 shm_ring_control_bytes();
    fb->control = (struct shm_fastbox_control *)base;
    fb->slots = base + sizeof(struct shm_fastbox_control);
    fb->count = 0;
    fb->consumed_cache = 0;
    fb->taken_slots = 0;
}
