#include "bench/workloads/indirect_stages.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <stdexcept>

#include "bench/metrics/latency_summary.hpp"
#include "tools/analytic/pipeline_model.hpp"
#include "tools/numeric/line_fit.hpp"

namespace lanai::bench {

double IndirectStages::fixed_us(double bytes, std::int64_t k) const {
  const double kb = bytes / models::kPipelineBytesPerKb, n = static_cast<double>(k);
  return n * g_b_us + kb / n * (sum_G_us_per_kb - G_b_us_per_kb) + (sum_g_us - g_b_us) +
         kb * G_b_us_per_kb;
}

IndirectStages measure_indirect(const PingPongSpec& base, std::span<const std::uint32_t> sizes,
                                std::uint32_t stream) {
  if (std::set<std::uint32_t>(sizes.begin(), sizes.end()).size() < 2)
    throw std::invalid_argument("the indirect method needs at least two different message sizes");
  if (stream < 3 || stream > kMaxHostFragments)
    throw std::invalid_argument(fmt::format("a back-to-back stream of {} messages: outside 3..{}",
                                            stream, kMaxHostFragments));
  IndirectStages out;
  out.sizes.assign(sizes.begin(), sizes.end());
  for (const std::uint32_t size : sizes) {
    if (std::uint64_t{size} * stream > VIA_MAX_TRANSFER)
      throw std::invalid_argument(
          fmt::format("a stream of {} messages of {} bytes: at most {} bytes in all", stream, size,
                      VIA_MAX_TRANSFER));
    PingPongSpec spec = base;
    spec.breakdown = false;
    spec.size = size;
    spec.host_fragments = 1;
    PingPongResult r = run_pingpong(spec);
    if (!r.ok())
      throw std::runtime_error(fmt::format("indirect method, {} bytes: {}", size, r.failure));
    out.latency_us.push_back(summarize(r.one_way_us).median);
    // The pong of `stream` fragments of `size` comes back to back; the
    // first arrival carries the stream's start-up, so it is left out.
    spec.size = size * stream;
    spec.host_fragments = stream;
    r = run_pingpong(spec);
    if (!r.ok())
      throw std::runtime_error(fmt::format(
          "indirect method, {} back-to-back messages of {} bytes: {}", stream, size, r.failure));
    const std::vector<double>& t = r.pong_arrivals_us;
    out.interarrival_us.push_back((t.back() - t[1]) / static_cast<double>(t.size() - 2));
  }
  std::vector<double> x(sizes.begin(), sizes.end());
  const numeric::LineFit sum = numeric::fit_line(x, out.latency_us);
  const numeric::LineFit bottleneck = numeric::fit_line(x, out.interarrival_us);
  out.sum_g_us = sum.intercept;
  out.sum_G_us_per_kb = sum.slope * models::kPipelineBytesPerKb;
  out.g_b_us = bottleneck.intercept;
  out.G_b_us_per_kb = bottleneck.slope * models::kPipelineBytesPerKb;
  return out;
}

} // namespace lanai::bench
