// Taking the host's doorbells off the card: draining the doorbell queues
// (one FIFO, or one per VI), filing each doorbell's descriptor in a per-VI
// ring, and popping those rings in posting order, round-robin over VIs.
#pragma once

#include <stdint.h>

#include "common/descriptor_ring.h"
#include "common/devices.h"
#include "common/ready_list.h"

namespace via {

// Empties the doorbell queues (every created VI's if `per_vi`) and hands
// each doorbell that names a VI to `file`; the rest are counted and
// dropped. Reports overflows to the host. `events` is the event-status
// word that showed doorbells waiting.
void drain_doorbell_queues(uint32_t events, bool per_vi, void (*file)(const Doorbell&));

// Appends the doorbell's descriptor to `ring`; false (counted and reported
// to the host) if the ring is full.
bool push_posted(const Doorbell& doorbell, DescriptorRing& ring);

// Pops the oldest entry the host has not flushed since posting it; older
// ones (posted before a disconnect, say) are dropped: the host already
// completed them.
bool pop_current(uint32_t vi, DescriptorRing& ring, PostedDescriptor& posted);

// The next send in round-robin order over the VIs in `ready`, whose send
// rings `send_ring` gives; a VI goes back on the list while it has more.
bool next_round_robin(ReadyList& ready, DescriptorRing& (*send_ring)(uint32_t vi), uint32_t& vi,
                      PostedDescriptor& posted);

} // namespace via
