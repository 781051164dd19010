// PVIA's firmware counters: what it sent and delivered, every way a message
// or doorbell was dropped, and how its queues behaved. Plain C symbols, so
// that tests and tools can read them from SRAM by name.
#pragma once

#include <stdint.h>

extern "C" {
extern volatile uint32_t pvia_sends_completed;      // send descriptors completed, errors included
extern volatile uint32_t pvia_sends_failed;         // ... of which with an error status
extern volatile uint32_t pvia_receives_completed;   // receive descriptors completed, errors included
extern volatile uint32_t pvia_receives_failed;      // ... of which with an error status
extern volatile uint32_t pvia_packets_sent;
extern volatile uint32_t pvia_packets_received;     // taken off the receive DMA
extern volatile uint32_t pvia_bad_packets;          // damaged, truncated or malformed: dropped
extern volatile uint32_t pvia_unmatched_packets;    // no connected VI expects them: dropped
extern volatile uint32_t pvia_unreliable_drops;     // no receive posted on an unreliable VI
extern volatile uint32_t pvia_recvq_empty_errors;   // no receive posted on a reliable VI: VI broken
extern volatile uint32_t pvia_sequence_gaps;        // packets not numbered as their VI expected
extern volatile uint32_t pvia_descriptor_faults;    // descriptors unreadable or not written back
extern volatile uint32_t pvia_doorbell_overflows;   // times the doorbell hardware dropped some
extern volatile uint32_t pvia_ring_overflows;       // doorbells for a full VI ring: dropped
extern volatile uint32_t pvia_stale_descriptors;    // posted before the host flushed the VI: dropped
extern volatile uint32_t pvia_bad_doorbells;        // doorbells naming no VI: dropped
extern volatile uint32_t pvia_hdma_refusals;        // host DMA requests that could never be queued
extern volatile uint32_t pvia_hdma_overflows;       // requests kept aside while the queue was full
extern volatile uint32_t pvia_hdma_strays;          // completions no request was waiting for
extern volatile uint32_t pvia_hdma_late_inserts;    // stamp-ordered inserts that landed behind their place
extern volatile uint32_t pvia_hdma_reordered;       // completions found away from the shadow's head
extern volatile uint32_t pvia_nrdma_refusals;       // receive DMA arms refused
extern volatile uint32_t pvia_receive_prefetches;   // receive descriptors fetched before their data
extern volatile uint32_t pvia_arrival_stalls;       // packets that waited for a free receive record
}

// Counters are volatile so that a reader outside the LANai always sees the
// latest value; C++20 has no compound assignment on volatile.
namespace pvia {
inline void count(volatile uint32_t& counter) { counter = counter + 1u; }
} // namespace pvia
