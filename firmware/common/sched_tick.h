// A VI's reserved rate as the stamping policies read it: Vtick, the ideal
// cycles between two MTU-sized packets, and its cost for one message.
// Firmware SDK: stable.
#pragma once

#include <stdint.h>

#include "common/vi_table.h"

namespace via {

constexpr uint64_t kBestEffortTick = ~uint64_t{0};

inline uint64_t vi_vtick(uint32_t vi) {
  volatile via_vi_config& config = vi_config(vi);
  return (static_cast<uint64_t>(config.vtick_hi) << 32) | config.vtick_lo;
}

// A VI that reserved no rate.
inline bool vi_best_effort(uint32_t vi) { return vi_vtick(vi) == kBestEffortTick; }

// A send doorbell does not tell the message's size (the descriptor is still
// in host memory), so `bytes` 0 stands for "unknown" and costs a whole
// Vtick: a VI sending short messages is held to its reserved rate in
// MTU-sized packets, never above it. A known size below the MTU (a received
// packet) costs its share of a Vtick.
inline uint64_t message_cost(uint32_t vi, uint64_t tick, uint32_t bytes) {
  const uint32_t mtu = vi_config(vi).mtu;
  if (bytes == 0u || mtu == 0u || bytes >= mtu)
    return tick;
  return tick * bytes / mtu;
}

} // namespace via
