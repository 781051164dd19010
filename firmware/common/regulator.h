// Whether reserved traffic leaves the card as soon as it can, or is held
// back to the pace its stamps set. The published designs are
// work-conserving, and every shipped firmware but one is built without
// regulation: the engine's regulating code is compiled out of it. The
// engine built with VIA_REGULATED=1 and a regulator part
// (regulator_stamp.cpp: qosvia-regulated) holds reserved packets:
//
// - a reserved data packet does not start on the wire before its release
//   cycle, and packets that are not held (best effort, acknowledgements,
//   reserved packets already released) pass one that is;
// - a reserved send is not taken from its VI's ring before its take cycle,
//   so that it holds a send record and a send buffer only for about as long
//   as its descriptor and data need to reach the card.
//
// Firmware SDK: stable. A variant replacing part "regulator" of
// qosvia-regulated defines the two functions below.
#pragma once

#include <stdint.h>

#include "common/scheduler.h"

#ifndef VIA_REGULATED
#define VIA_REGULATED 0
#endif

namespace via {

constexpr bool kRegulated = VIA_REGULATED != 0;

// The cycle before which `vi`'s data packet stamped `stamp`, whose data
// reached the card at cycle `now`, may not start on the wire; 0: at once.
// Called once per packet, as it joins the network send queue.
uint64_t release_cycle(uint32_t vi, Stamp stamp, uint64_t now);
// The cycle before which a send of `vi` stamped `stamp` is not taken from
// the VI's ring; 0: at once.
uint64_t take_cycle(uint32_t vi, Stamp stamp);

} // namespace via
