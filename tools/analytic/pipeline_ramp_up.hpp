// Ramp-up fragmentation: on two stages the optimal fragments leave no
// bubbles, so each fragment's time in stage 0 equals its predecessor's time
// in stage 1, x_i+1 = (g_1 - g_0)/G_0 + x_i G_1/G_0. Longer pipelines are
// reduced to two compound stages around the bottleneck.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "tools/analytic/pipeline_model.hpp"

namespace lanai::models {

// The k bubble-free fragment sizes of `bytes` on the two stages (first,
// second): the recurrence fixes every size from x_0, and x_0 from the sum.
// Nothing when some size would be <= 0, or when k > 1 and the first stage
// has no per-byte time (the recurrence is then undefined).
std::optional<std::vector<double>> ramp_up_fragments(const PipelineStage& first,
                                                     const PipelineStage& second, double bytes,
                                                     std::int64_t k);

struct RampUpPlan {
  // The two-stage reduction the sizes come from: stages [0, split) make the
  // first compound stage and [split, n) the second. Unless chosen, split is
  // the bottleneck for the unfragmented packet, or 1 when that is stage 0.
  std::size_t split = 1;
  PipelineStage first;
  PipelineStage second;
  std::vector<double> fragments; // the best plan's sizes, in bytes, in order
  double us = 0.0;               // its latency on the full pipeline, by the recurrence
};

// Tries k = 1..fragment_count_limit(bytes, max_k), keeps the plan whose
// latency on the full pipeline is least (the smaller k on a tie). k = 1 is
// always a plan. `split` 0 cuts the path by the rule above; otherwise it
// must be in 1..n-1 (std::invalid_argument).
RampUpPlan ramp_up_plan(std::span<const PipelineStage> stages, double bytes, std::int64_t max_k,
                        std::size_t split = 0);

} // namespace lanai::models
