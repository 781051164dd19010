// PVIA's own firmware counters: what it sent and delivered, how messages
// were dropped and how its queues behaved; doorbell, ring and arrival-check
// drops are the shared via_ counters. Plain C symbols, readable by name.
#pragma once

#include <stdint.h>

#include "common/sram_placement.h"
#include "common/via_counters.h"

extern "C" {
extern volatile uint32_t pvia_sends_completed;    // send descriptors completed, errors included
extern volatile uint32_t pvia_sends_failed;       // ... of which with an error status
extern volatile uint32_t pvia_receives_completed; // receive descriptors completed, errors included
extern volatile uint32_t pvia_receives_failed;    // ... of which with an error status
extern volatile uint32_t pvia_packets_sent;
extern volatile uint32_t pvia_packets_received;  // taken off the receive DMA
extern volatile uint32_t pvia_bad_packets;       // damaged, truncated or malformed: dropped
extern volatile uint32_t pvia_unmatched_packets; // no connected VI expects them: dropped
extern volatile uint32_t pvia_descriptor_faults; // descriptors unreadable or not written back
extern volatile uint32_t pvia_hdma_refusals;     // host DMA requests that could never be queued
extern volatile uint32_t pvia_hdma_overflows;    // requests kept aside while the queue was full
extern volatile uint32_t pvia_hdma_strays;       // completions no request was waiting for
extern volatile uint32_t
    pvia_hdma_late_inserts; // stamp-ordered inserts that landed behind their place
extern volatile uint32_t pvia_hdma_reordered;     // completions found away from the shadow's head
extern volatile uint32_t pvia_nrdma_refusals;     // receive DMA arms refused
extern volatile uint32_t pvia_receive_prefetches; // receive descriptors fetched before their data
extern volatile uint32_t pvia_arrival_stalls;     // packets that waited for a free receive record
extern volatile uint32_t pvia_stray_fragments; // fragments of no message being assembled: dropped
extern volatile uint32_t pvia_rdma_refused;    // RDMA writes refused at this card (reported)
extern volatile uint32_t pvia_broken_messages; // messages ended early by a fragment out of place
// Zero at load (placed apart, reached with full addresses).
VIA_LARGE_DATA extern volatile uint32_t
    pvia_messages_resumed; // messages that lost a fragment, taken again whole when resent
extern volatile uint32_t pvia_acks_sent;   // acknowledgements queued for the network
extern volatile uint32_t pvia_acks_merged; // ... merged into one not yet sent instead
extern volatile uint32_t
    pvia_acks_unroutable;                // acknowledgements for a node without a route: dropped
extern volatile uint32_t pvia_ack_waits; // completions that waited for an acknowledgement buffer
extern volatile uint32_t pvia_acks_received;
extern volatile uint32_t pvia_retransmissions; // messages sent again
extern volatile uint32_t pvia_acks_delayed;    // acknowledgements owed and sent late, many at once
extern volatile uint32_t pvia_retransmit_timeouts; // go-backs on a timeout
extern volatile uint32_t pvia_connections_lost;    // VIs broken past the retry limit
extern volatile uint32_t pvia_stray_acks;          // acknowledgements no send was waiting for
extern volatile uint32_t pvia_rdma_reads_served;   // RDMA reads queued here for a peer
extern volatile uint32_t pvia_rdma_reads_refused;  // ... refused before any data was read
}

// The shared code's counters (common/via_counters.h) are counted the same way.
namespace pvia {
using via::count;
} // namespace pvia
