// Expanding a jitter experiment's [load] table into its points.
#include "bench/sweep/load_points.hpp"

#include <fmt/format.h>

#include <numeric>
#include <stdexcept>

#include "bench/sweep/experiment_file.hpp"

namespace lanai::bench {

namespace {

double total_load(const JitterSetup& setup, const std::vector<std::uint32_t>& channels) {
  double total = setup.best_effort ? setup.best_effort->rate_mbytes_per_s : 0.0;
  for (std::size_t c = 0; c < channels.size(); ++c)
    total += channels[c] * setup.classes[c].rate_mbytes_per_s;
  return total;
}

} // namespace

std::uint32_t LoadPoint::qos_channels() const {
  return std::accumulate(channels.begin(), channels.end(), std::uint32_t{0});
}

std::vector<LoadPoint> load_points(const JitterSetup& setup) {
  std::vector<LoadPoint> points;
  if (setup.load.add_order.empty() || setup.classes.empty())
    return points;
  std::vector<std::uint32_t> channels(setup.classes.size(), 0);
  std::uint32_t added = 0;
  auto add_one = [&] {
    channels[setup.load.add_order[added % setup.load.add_order.size()]] += 1;
    ++added;
    if (added > max_channels_per_point)
      throw std::invalid_argument(
          fmt::format("a point would have more than {} channels", max_channels_per_point));
  };
  auto push = [&] {
    if (points.size() == max_load_points)
      throw std::invalid_argument(fmt::format("more than {} load points", max_load_points));
    points.push_back({channels, total_load(setup, channels)});
  };

  if (setup.load.max_total_mbytes_per_s) {
    // The point that first exceeds the limit is the last one, and included.
    do {
      add_one();
      push();
    } while (points.back().total_mbytes_per_s <= *setup.load.max_total_mbytes_per_s);
    return points;
  }
  if (!setup.load.totals_mbytes_per_s.empty()) {
    const double base = total_load(setup, channels);
    for (const double target : setup.load.totals_mbytes_per_s) {
      // Each total is independent: the cycling order, a class passed over
      // while its next channel would exceed the total, until none fits.
      std::fill(channels.begin(), channels.end(), 0);
      double total = base;
      added = 0;
      for (std::size_t next = 0, missed = 0; missed < setup.load.add_order.size();
           next = (next + 1) % setup.load.add_order.size()) {
        const std::size_t c = setup.load.add_order[next];
        const double rate = setup.classes[c].rate_mbytes_per_s;
        if (total + rate > target + 1e-9) {
          ++missed;
          continue;
        }
        missed = 0;
        total += rate;
        channels[c] += 1;
        if (++added > max_channels_per_point)
          throw std::invalid_argument(
              fmt::format("a point would have more than {} channels", max_channels_per_point));
      }
      if (added == 0)
        throw std::invalid_argument(fmt::format(
            "{:g} MB/s leaves no room for a QoS channel above the {:g} MB/s of best effort", target,
            base));
      if (!points.empty() && points.back().channels == channels)
        throw std::invalid_argument(
            fmt::format("{:g} MB/s gives the same channels as the total before it", target));
      push();
    }
    return points;
  }
  for (const std::uint32_t target : setup.load.channels) {
    // Each entry is independent: the first `target` channels of the order.
    std::fill(channels.begin(), channels.end(), 0);
    added = 0;
    while (added < target)
      add_one();
    push();
  }
  return points;
}

} // namespace lanai::bench
