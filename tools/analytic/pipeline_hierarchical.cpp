// Two-level fragmentation: small fragments through the stages in front of a
// dominant stage, reassembled into large ones for it and the stages after it.
#include "tools/analytic/pipeline_hierarchical.hpp"

#include <fmt/format.h>

#include <stdexcept>
#include <vector>

namespace lanai::models {

std::optional<std::size_t> dominant_stage(std::span<const PipelineStage> stages, double bytes) {
  check_pipeline(stages, bytes);
  const std::size_t b = bottleneck_stage(stages, bytes);
  const double others = compound_stage(stages).G_us_per_kb - stages[b].G_us_per_kb;
  if (b == 0 || stages[b].G_us_per_kb < 2.0 * others)
    return std::nullopt;
  return b;
}

double hierarchical_latency_us(std::span<const PipelineStage> stages, double bytes, std::size_t b,
                               std::int64_t small_k, std::int64_t large_k) {
  check_pipeline(stages, bytes);
  if (b == 0 || b >= stages.size())
    throw std::invalid_argument(
        fmt::format("hierarchical plan: stage {} has no stages in front of it", b));
  if (large_k < 1 || small_k < large_k || small_k % large_k != 0)
    throw std::invalid_argument(fmt::format(
        "hierarchical plan: {} large fragments do not divide {} small ones", large_k, small_k));
  const PipelineSchedule front =
      pipeline_schedule(stages.first(b), equal_fragments(bytes, small_k));
  const std::int64_t per_large = small_k / large_k;
  std::vector<double> ready(static_cast<std::size_t>(large_k));
  for (std::size_t l = 0; l < ready.size(); ++l)
    ready[l] = front.leave_us[(l + 1) * static_cast<std::size_t>(per_large) - 1].back();
  return pipeline_schedule(stages.subspan(b), equal_fragments(bytes, large_k), ready).latency_us();
}

std::optional<HierarchicalPlan> hierarchical_plan(std::span<const PipelineStage> stages,
                                                  double bytes, std::int64_t max_k) {
  const std::optional<std::size_t> b = dominant_stage(stages, bytes);
  if (!b)
    return std::nullopt;
  HierarchicalPlan best;
  best.dominant = *b;
  bool have = false;
  const std::int64_t limit = fragment_count_limit(bytes, max_k);
  for (std::int64_t small = 1; small <= limit; ++small)
    for (std::int64_t large = 1; large <= small; ++large) {
      if (small % large != 0)
        continue;
      const double us = hierarchical_latency_us(stages, bytes, *b, small, large);
      if (!have || us < best.us) {
        have = true;
        best.us = us;
        best.small_k = small;
        best.large_k = large;
      }
    }
  return best;
}

} // namespace lanai::models
