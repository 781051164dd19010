// The load axis of a jitter sweep: how many channels of each QoS class run
// at each point, and the total load they inject with the best-effort
// channel. Channels are added one at a time, cycling through the add order
// (at a given total, passing over classes that no longer fit).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace lanai::bench {

struct JitterSetup;

inline constexpr std::uint32_t max_channels_per_point = 1000;
inline constexpr std::size_t max_load_points = 1000;

struct LoadPoint {
  std::vector<std::uint32_t> channels; // per class, in the classes' order
  double total_mbytes_per_s = 0;       // QoS channels' rates + best-effort mean
  std::uint32_t qos_channels() const;
};

// The points of the sweep, in rising load. Throws std::invalid_argument if
// the sweep would have more than max_load_points points or a point more
// than max_channels_per_point channels, or (totals) if a total leaves room
// for no channel or gives the same channels as the one before.
std::vector<LoadPoint> load_points(const JitterSetup& setup);

} // namespace lanai::bench
