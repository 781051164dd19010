// One packet on one path through every part of the pipeline model.
#include "tools/analytic/pipeline_analysis.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "tools/analytic/pipeline_lp.hpp"

namespace lanai::models {

PipelineAnalysis analyse_pipeline(const PipelineParams& params) {
  check_pipeline(params.stages, params.bytes);
  if (params.max_k < 1)
    throw std::invalid_argument(
        fmt::format("largest fragment count must be >= 1 (got {})", params.max_k));
  const std::vector<PipelineStage>& stages = params.stages;
  const double bytes = params.bytes;

  PipelineAnalysis a;
  a.params = params;
  a.max_k = fragment_count_limit(bytes, params.max_k);
  a.bottleneck = bottleneck_stage(stages, bytes);
  a.unfragmented_us = fixed_latency_us(stages, bytes, 1);
  a.lower_bound_us = pipeline_lower_bound_us(stages, bytes);

  for (std::int64_t k = 1; k <= a.max_k; ++k) {
    PipelineRow row;
    row.k = k;
    row.bottleneck = bottleneck_for_count(stages, bytes, k);
    row.fixed_us = fixed_latency_us(stages, bytes, k);
    PipelineOptimum optimum = optimal_latency(stages, bytes, k);
    row.optimal_us = optimum.us;
    row.optimal_fragments = std::move(optimum.fragments);
    if (k == 1 || row.fixed_us < a.fixed_best_us) {
      a.fixed_best_k = k;
      a.fixed_best_us = row.fixed_us;
    }
    if (k == 1 || row.optimal_us < a.optimal_best_us) {
      a.optimal_best_k = k;
      a.optimal_best_us = row.optimal_us;
    }
    if (std::find(a.bottlenecks.begin(), a.bottlenecks.end(), row.bottleneck) ==
        a.bottlenecks.end())
      a.bottlenecks.push_back(row.bottleneck);
    a.by_k.push_back(std::move(row));
  }
  std::sort(a.bottlenecks.begin(), a.bottlenecks.end());

  a.theorem = fixed_size_theorem(stages, bytes);
  a.ramp_up = ramp_up_plan(stages, bytes, a.max_k, params.ramp_split);
  a.hierarchical = hierarchical_plan(stages, bytes, a.max_k);
  return a;
}

} // namespace lanai::models
