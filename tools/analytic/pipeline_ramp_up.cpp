// Ramp-up fragment sizes from the no-bubble recurrence, and the search over
// the fragment count on the two-stage reduction of a longer pipeline.
#include "tools/analytic/pipeline_ramp_up.hpp"

#include <fmt/format.h>

#include <stdexcept>
#include <string>

namespace lanai::models {

std::optional<std::vector<double>> ramp_up_fragments(const PipelineStage& first,
                                                     const PipelineStage& second, double bytes,
                                                     std::int64_t k) {
  if (k < 1)
    return std::nullopt;
  if (k == 1)
    return std::vector<double>{bytes};
  const double G0 = first.G_us_per_kb / kPipelineBytesPerKb;
  if (G0 <= 0.0)
    return std::nullopt;
  const double step = (second.g_us - first.g_us) / G0;
  const double ratio = second.G_us_per_kb / first.G_us_per_kb;
  // x_i = p_i x_0 + q_i; the sizes add up to P x_0 + Q = bytes.
  std::vector<double> p(static_cast<std::size_t>(k)), q(static_cast<std::size_t>(k));
  p[0] = 1.0;
  q[0] = 0.0;
  double P = 1.0, Q = 0.0;
  for (std::size_t i = 1; i < p.size(); ++i) {
    p[i] = ratio * p[i - 1];
    q[i] = step + ratio * q[i - 1];
    P += p[i];
    Q += q[i];
  }
  const double x0 = (bytes - Q) / P;
  std::vector<double> sizes(p.size());
  for (std::size_t i = 0; i < p.size(); ++i) {
    sizes[i] = p[i] * x0 + q[i];
    if (!(sizes[i] > 0.0))
      return std::nullopt;
  }
  return sizes;
}

RampUpPlan ramp_up_plan(std::span<const PipelineStage> stages, double bytes, std::int64_t max_k,
                        std::size_t split) {
  check_pipeline(stages, bytes);
  if (split != 0 && (stages.size() < 2 || split >= stages.size()))
    throw std::invalid_argument(
        stages.size() < 2
            ? std::string("a ramp-up cut needs at least two stages")
            : fmt::format("the ramp-up cut must be in 1..{} (the stages before it make the first "
                          "compound stage; got {})",
                          stages.size() - 1, split));
  RampUpPlan plan;
  const std::size_t b = bottleneck_stage(stages, bytes);
  plan.split = split != 0 ? split : b > 0 ? b : 1;
  plan.first = compound_stage(stages.first(plan.split));
  plan.second = compound_stage(stages.subspan(plan.split));
  const std::int64_t limit = fragment_count_limit(bytes, max_k);
  bool have = false;
  for (std::int64_t k = 1; k <= limit; ++k) {
    const std::optional<std::vector<double>> sizes =
        ramp_up_fragments(plan.first, plan.second, bytes, k);
    if (!sizes)
      continue;
    const double us = pipeline_latency_us(stages, *sizes);
    if (!have || us < plan.us) {
      have = true;
      plan.us = us;
      plan.fragments = *sizes;
    }
  }
  return plan;
}

} // namespace lanai::models
