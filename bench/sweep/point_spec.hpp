// From a point of a jitter sweep (firmware x load point) to the spec of one
// emulator run: its channels, traffic, seeds and times. Seeds depend on the
// load point and the channel, never on the firmware, so every firmware is
// measured under the very same offered traffic.
#pragma once

#include <cstddef>
#include <cstdint>

#include "bench/sweep/experiment_file.hpp"
#include "bench/sweep/load_points.hpp"
#include "bench/workloads/stream_point.hpp"

namespace lanai::bench {

// splitmix64 of `value`: a well-mixed 64-bit function of a 64-bit input.
std::uint64_t splitmix64(std::uint64_t value);
// A seed for stream `stream` below `parent`.
std::uint64_t derive_seed(std::uint64_t parent, std::uint64_t stream);

// A point of the sweep; points are numbered firmware-major.
struct SweepPoint {
  std::size_t index = 0;
  std::size_t firmware = 0; // into Experiment::firmwares
  std::size_t load = 0;     // into the load points
};
SweepPoint sweep_point(std::size_t index, std::size_t load_points);

// The run of one point. Channels come class by class in the classes' order
// (N channels of a class are N VIs), the best-effort channel last.
StreamPointSpec point_spec(const Experiment& experiment, const LoadPoint& load,
                           const SweepPoint& point);

} // namespace lanai::bench
