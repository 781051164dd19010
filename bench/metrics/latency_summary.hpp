// The latency columns network benchmarks print (as perftest does): min,
// median, mean, standard deviation, 99th and 99.9th percentile of a set of
// samples, all in the samples' unit.
#pragma once

#include <cstddef>
#include <span>

namespace lanai::bench {

struct LatencySummary {
  std::size_t count = 0;
  double min = 0, median = 0, avg = 0, stdev = 0, p99 = 0, p999 = 0;
  // Member by member: the record codec's round trip is checked with it.
  bool operator==(const LatencySummary&) const = default;
};

// Percentiles by the nearest-rank method on the sorted samples (p99 of 100
// samples is the 99th smallest); median is the mean of the two middle ones
// for an even count; stdev is the population standard deviation. All zero
// for no samples.
LatencySummary summarize(std::span<const double> samples);

} // namespace lanai::bench
