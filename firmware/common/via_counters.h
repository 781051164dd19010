// Counters for the work every VIA firmware shares (doorbells, posted rings,
// arrival checks), under a via_ prefix. Plain C symbols, so that tests and
// tools can read them from SRAM by name.
// Firmware SDK: stable.
#pragma once

#include <stdint.h>

#include "common/sram_placement.h"

extern "C" {
extern volatile uint32_t via_doorbell_overflows; // times the doorbell hardware dropped some
extern volatile uint32_t via_ring_overflows;     // doorbells for a full VI ring: dropped
extern volatile uint32_t via_stale_descriptors;  // posted before the host flushed the VI: dropped
extern volatile uint32_t via_bad_doorbells;      // doorbells naming no VI: dropped
extern volatile uint32_t via_sequence_gaps;      // packets not numbered as their VI expected
extern volatile uint32_t
    via_duplicates_dropped; // messages taken before (or, unreliable, out of order): dropped
extern volatile uint32_t via_out_of_sequence_dropped; // reliable messages past a gap: dropped
extern volatile uint32_t via_unreliable_drops;        // no receive posted on an unreliable VI
extern volatile uint32_t via_recvq_empty_errors; // no receive posted on a reliable VI: VI broken
// Credit flow control (flow_control.cpp); zero at load (placed apart,
// reached with full addresses).
VIA_LARGE_DATA extern volatile uint32_t
    via_flow_credit_waits; // times a VI's send waited for a credit
VIA_LARGE_DATA extern volatile uint32_t via_flow_credits_sent; // credits sent for receives posted
VIA_LARGE_DATA extern volatile uint32_t
    via_flow_credit_requests; // credit requests sent by waiting senders
}

// Counters are volatile so that a reader outside the LANai always sees the
// latest value; C++20 has no compound assignment on volatile.
namespace via {
inline void count(volatile uint32_t& counter) { counter = counter + 1u; }
} // namespace via
