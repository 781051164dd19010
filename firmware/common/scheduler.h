// The scheduling policy a VIA firmware is built with: it stamps each piece
// of work (a posted send, a received packet) and says whether the queues it
// feeds (VI selection, the host DMA queue, the network send queue) are kept
// in stamp order or simply first come, first served. One implementation is
// linked per firmware: sched_fcfs.cpp (PVIA, no stamps), sched_arrival.cpp
// (stamped FCFS), sched_virtual_clock.cpp, sched_sfq.cpp.
#pragma once

#include <stdint.h>

#include <lanai/register_map.h>

namespace via {

// Smaller stamps are served first; equal stamps keep their arrival order.
using Stamp = uint64_t;
// Best effort under VirtualClock: behind every reserved request.
constexpr Stamp kStampLast = ~Stamp{0};

// True if queues are kept in stamp order; false: plain FIFO order and
// round robin across VIs, with every stamp 0.
bool scheduler_orders_queues();
// A send doorbell of `vi` (or a packet that arrived for receiving VI `vi`)
// asks for `bytes` on the wire; returns its stamp.
Stamp stamp_send(uint32_t vi, uint32_t bytes);
Stamp stamp_receive(uint32_t vi, uint32_t bytes);
// The cycle from which work of `vi` stamped `stamp` may go ahead of best
// effort; before it, the VI is ahead of its reserved rate and yields to
// best effort, if any waits (0: always).
uint64_t eligible_from(uint32_t vi, Stamp stamp);
// Work that belongs to no one flow (a receive descriptor prefetch): urgent.
Stamp stamp_now();
// The request stamped `stamp` was chosen for service (SFQ's virtual time).
void stamp_served(Stamp stamp);

// The LANai cycle counter: the low word latches the high one.
inline uint64_t cycle_now() {
  const uint32_t lo = lanai_mmio_read(LANAI_REG_CYCLE_LO);
  const uint32_t hi = lanai_mmio_read(LANAI_REG_CYCLE_HI);
  return (static_cast<uint64_t>(hi) << 32) | lo;
}

} // namespace via
