// SVIA's own firmware counters: what it sent and delivered and how messages
// were dropped; doorbell, ring and arrival-check drops are the shared via_
// counters. Plain C symbols, so that tests and tools can read them by name.
#pragma once

#include <stdint.h>

#include "common/via_counters.h"

extern "C" {
extern volatile uint32_t svia_sends_completed;    // send descriptors completed, errors included
extern volatile uint32_t svia_sends_failed;       // ... of which with an error status
extern volatile uint32_t svia_receives_completed; // receive descriptors completed, errors included
extern volatile uint32_t svia_receives_failed;    // ... of which with an error status
extern volatile uint32_t svia_packets_sent;
extern volatile uint32_t svia_packets_received;   // taken off the receive DMA
extern volatile uint32_t svia_bad_packets;        // damaged, truncated or malformed: dropped
extern volatile uint32_t svia_unmatched_packets;  // no connected VI expects them: dropped
extern volatile uint32_t svia_descriptor_faults;  // descriptors unreadable or not written back
extern volatile uint32_t svia_hdma_refusals;      // host DMA requests the engine refused
extern volatile uint32_t svia_nrdma_refusals;     // receive DMA arms refused
extern volatile uint32_t svia_rdma_refused;       // RDMA writes refused at this card (reported)
extern volatile uint32_t svia_rdma_reads_refused; // RDMA read requests (SVIA serves none)
extern volatile uint32_t svia_acks_sent;
extern volatile uint32_t
    svia_acks_unroutable; // acknowledgements for a node without a route: dropped
extern volatile uint32_t svia_acks_received;
extern volatile uint32_t svia_stray_acks;      // acknowledgements nothing sent was waiting for
extern volatile uint32_t svia_retransmissions; // packets sent again for want of an acknowledgement
extern volatile uint32_t
    svia_retransmit_timeouts; // times a VI went back to its oldest unacknowledged packet
extern volatile uint32_t svia_connections_lost; // VIs broken at the retry limit
}

// The shared code's counters (common/via_counters.h) are counted the same way.
namespace svia {
using via::count;
} // namespace svia
