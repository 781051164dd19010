// SVIA's firmware counters: what it sent and delivered and every way a
// message or doorbell was dropped. Plain C symbols, so that tests and tools
// can read them from SRAM by name.
#pragma once

#include <stdint.h>

extern "C" {
extern volatile uint32_t svia_sends_completed;      // send descriptors completed, errors included
extern volatile uint32_t svia_sends_failed;         // ... of which with an error status
extern volatile uint32_t svia_receives_completed;   // receive descriptors completed, errors included
extern volatile uint32_t svia_receives_failed;      // ... of which with an error status
extern volatile uint32_t svia_packets_sent;
extern volatile uint32_t svia_packets_received;     // taken off the receive DMA
extern volatile uint32_t svia_bad_packets;          // damaged, truncated or malformed: dropped
extern volatile uint32_t svia_unmatched_packets;    // no connected VI expects them: dropped
extern volatile uint32_t svia_unreliable_drops;     // no receive posted on an unreliable VI
extern volatile uint32_t svia_recvq_empty_errors;   // no receive posted on a reliable VI: VI broken
extern volatile uint32_t svia_sequence_gaps;        // packets not numbered as their VI expected
extern volatile uint32_t svia_descriptor_faults;    // descriptors unreadable or not written back
extern volatile uint32_t svia_doorbell_overflows;   // times the doorbell hardware dropped some
extern volatile uint32_t svia_ring_overflows;       // doorbells for a full VI ring: dropped
extern volatile uint32_t svia_stale_descriptors;    // posted before the host flushed the VI: dropped
extern volatile uint32_t svia_bad_doorbells;        // doorbells naming no VI: dropped
extern volatile uint32_t svia_hdma_refusals;        // host DMA requests the engine refused
extern volatile uint32_t svia_nrdma_refusals;       // receive DMA arms refused
}

// Counters are volatile so that a reader outside the LANai always sees the
// latest value; C++20 has no compound assignment on volatile.
namespace svia {
inline void count(volatile uint32_t& counter) { counter = counter + 1u; }
} // namespace svia
