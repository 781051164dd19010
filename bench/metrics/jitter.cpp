// Jitter of a rate-controlled channel: how far each inter-receipt gap
// overshoots the negotiated inter-arrival time, counted per gap and pooled
// over the channels of one class.
#include "bench/metrics/jitter.hpp"

#include <cmath>
#include <stdexcept>

namespace lanai::bench {

double JitterResult::theta() const {
  if (intervals == 0 || interval_ps <= 0)
    return 0;
  return sum_jitter_ps / static_cast<double>(intervals) / interval_ps;
}

double JitterResult::jittered_fraction() const {
  if (intervals == 0)
    return 0;
  return static_cast<double>(jittered) / static_cast<double>(intervals);
}

JitterResult jitter(std::span<const std::int64_t> receipts_ps, double interval_ps) {
  if (!(interval_ps > 0) || !std::isfinite(interval_ps))
    throw std::invalid_argument("jitter: the inter-arrival time must be positive and finite");

  JitterResult r;
  r.interval_ps = interval_ps;
  r.messages = receipts_ps.size();
  for (std::size_t i = 1; i < receipts_ps.size(); ++i) {
    ++r.intervals;
    // The gap is taken in integers first: picosecond timestamps exceed the
    // 53 bits a double holds exactly after about 2.5 hours of virtual time.
    const double gap = static_cast<double>(receipts_ps[i] - receipts_ps[i - 1]);
    const double late = gap - interval_ps;
    if (late > 0) {
      ++r.jittered;
      r.sum_jitter_ps += late;
    }
  }
  return r;
}

JitterResult pool(std::span<const JitterResult> channels) {
  JitterResult total;
  if (channels.empty())
    return total;
  total.interval_ps = channels.front().interval_ps;
  for (const JitterResult& c : channels) {
    if (c.interval_ps != total.interval_ps)
      throw std::invalid_argument("jitter pool: channels have different inter-arrival times");
    total.messages += c.messages;
    total.intervals += c.intervals;
    total.jittered += c.jittered;
    total.sum_jitter_ps += c.sum_jitter_ps;
  }
  return total;
}

} // namespace lanai::bench
