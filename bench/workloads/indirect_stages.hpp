// A path's pipeline figures by the indirect (black-box) method, from the
// host programs alone: (1) the unpipelined 1-way latency against the
// message size gives the sums of every stage's g and G; (2) messages sent
// back to back as fast as the sender can, their mean inter-arrival time at
// the receiving program against the size gives the bottleneck's g_b and
// G_b. Whatever limits the stream counts, including a resource several
// stages share (the LANai's processor), which the direct method, timing
// each stage alone, cannot see.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "bench/workloads/pingpong.hpp"

namespace lanai::bench {

struct IndirectStages {
  std::vector<std::uint32_t> sizes;    // message sizes measured
  std::vector<double> latency_us;      // unpipelined 1-way latency per size
  std::vector<double> interarrival_us; // back-to-back inter-arrival per size
  double sum_g_us = 0, sum_G_us_per_kb = 0;
  double g_b_us = 0, G_b_us_per_kb = 0;
  // The fixed-size theorem's curve with these figures:
  // k g_b + (B/k)(sum G - G_b) + (sum g - g_b) + B G_b.
  double fixed_us(double bytes, std::int64_t k) const;
};

// Messages of `sizes` (at least two different) on `base` (its size,
// fragments and breakdown are set here): ping-pongs of whole messages,
// then streams of `stream` messages (3..kMaxHostFragments) back to back.
// Throws std::invalid_argument for bad sizes and std::runtime_error if a
// run fails.
IndirectStages measure_indirect(const PingPongSpec& base, std::span<const std::uint32_t> sizes,
                                std::uint32_t stream = 16);

} // namespace lanai::bench
