// The jitter metrics of a rate-controlled channel (nic-and-firmware.md,
// "Metrics"): for consecutive messages received with inter-receipt time d
// on a channel negotiated for inter-arrival time I, the jitter duration is
// max(0, d - I); theta is the mean jitter duration over all messages
// divided by I; the jittered share is the fraction of messages whose
// jitter duration is positive.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace lanai::bench {

struct JitterResult {
  std::size_t messages = 0;         // receipts considered
  std::size_t intervals = 0;        // consecutive pairs (messages - 1)
  std::size_t jittered = 0;         // pairs with jitter duration > 0
  double sum_jitter_ps = 0;         // sum of the jitter durations
  double theta() const;             // mean jitter / I; 0 without intervals
  double jittered_fraction() const; // jittered / intervals; 0 without intervals
  double interval_ps = 0;           // I
  // Member by member: the record codec's round trip is checked with it.
  bool operator==(const JitterResult&) const = default;
};

// `receipts_ps`: receipt times of one channel in message order (ascending
// times are not required: a late message counts d < 0 as no jitter).
// `interval_ps` > 0. Throws std::invalid_argument otherwise.
JitterResult jitter(std::span<const std::int64_t> receipts_ps, double interval_ps);

// Several channels of one class pooled: sums of the counts and durations
// (all must have the same I, or theta means nothing; throws otherwise).
JitterResult pool(std::span<const JitterResult> channels);

} // namespace lanai::bench
