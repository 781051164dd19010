// The throughput a card can carry at most, from its hardware profile alone:
// what its engines need for each message of a stream of equal messages.
// Each message costs the sending card's host DMA a descriptor fetch, the
// data and a completion write (each with the request setup), and its
// network send DMA the packet (start-up, route, header, data); the
// receiving card's host DMA the same three transfers. A pipelined firmware
// overlaps the engines, so the busiest one bounds it; a sequential one does
// the host DMA's work and then the network's, one message at a time.
#pragma once

#include <cstdint>

#include "emulator/profile/hardware_profile.hpp"

namespace lanai::models {

struct ThroughputBound {
  double host_dma_us = 0;            // host DMA time per message (either card)
  double network_us = 0;             // network send DMA time per message
  double pipelined_mbytes_per_s = 0; // message bytes / max(host DMA, network)
  double serial_mbytes_per_s = 0;    // message bytes / (host DMA + network)
};

// `route_bytes`: the source route's length (one per switch on the path).
ThroughputBound throughput_bound(const profile::HardwareProfile& profile,
                                 std::uint32_t message_bytes, std::uint32_t route_bytes = 1);

} // namespace lanai::models
