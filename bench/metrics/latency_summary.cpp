// The perftest-style latency columns: order statistics by nearest rank on a
// sorted copy of the samples, mean and population standard deviation.
#include "bench/metrics/latency_summary.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace lanai::bench {
namespace {

// Nearest rank for the fraction per_mille/1000, in integers so that p99 of
// 100 samples is exactly rank 99 (0.99 * 100 in doubles need not be 99).
std::size_t nearest_rank(std::size_t count, std::size_t per_mille) {
  const std::size_t rank = (count * per_mille + 999) / 1000;
  return std::max<std::size_t>(rank, 1);
}

} // namespace

LatencySummary summarize(std::span<const double> samples) {
  LatencySummary s;
  if (samples.empty())
    return s;

  std::vector<double> sorted(samples.begin(), samples.end());
  std::sort(sorted.begin(), sorted.end());
  const std::size_t n = sorted.size();

  s.count = n;
  s.min = sorted.front();
  s.median = n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0;
  s.p99 = sorted[nearest_rank(n, 990) - 1];
  s.p999 = sorted[nearest_rank(n, 999) - 1];

  double sum = 0;
  for (double x : sorted)
    sum += x;
  s.avg = sum / static_cast<double>(n);

  // Two passes: deviations from the mean, so large offsets (absolute
  // timestamps) do not cancel catastrophically.
  double squares = 0;
  for (double x : sorted)
    squares += (x - s.avg) * (x - s.avg);
  s.stdev = std::sqrt(squares / static_cast<double>(n));
  return s;
}

} // namespace lanai::bench
