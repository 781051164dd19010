// Everything the pipeline model says about one packet on one path: equal
// fragments and the true optimum for each fragment count, the bottlenecks,
// the fixed-size theorem's choice and the ramp-up and hierarchical plans.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "tools/analytic/pipeline_hierarchical.hpp"
#include "tools/analytic/pipeline_model.hpp"
#include "tools/analytic/pipeline_ramp_up.hpp"

namespace lanai::models {

struct PipelineParams {
  std::vector<PipelineStage> stages; // the path's stages, sender first
  double bytes = 4096.0;             // packet size B, bytes
  std::int64_t max_k = 64;           // largest fragment count searched (at most B)
  std::size_t ramp_split = 0;        // the ramp-up plan's cut (0: by the bottleneck)
};

struct PipelineRow {
  std::int64_t k = 1;
  std::size_t bottleneck = 0; // at fragments of B/k
  double fixed_us = 0.0;      // k equal fragments
  double optimal_us = 0.0;    // the linear program's optimum for k fragments
  std::vector<double> optimal_fragments;
};

struct PipelineAnalysis {
  PipelineParams params;
  std::int64_t max_k = 1;               // as searched: params.max_k clamped to B
  std::size_t bottleneck = 0;           // for the unfragmented packet
  std::vector<std::size_t> bottlenecks; // every stage that is the bottleneck for some k searched
  double unfragmented_us = 0.0;
  double lower_bound_us = 0.0;   // pipeline_lower_bound_us
  std::vector<PipelineRow> by_k; // k = 1..max_k
  std::int64_t fixed_best_k = 1; // best row by fixed_us (smaller k on a tie)
  double fixed_best_us = 0.0;
  FixedSizeChoice theorem;         // over k = 1..B, not only the rows
  std::int64_t optimal_best_k = 1; // best row by optimal_us
  double optimal_best_us = 0.0;
  RampUpPlan ramp_up;
  std::optional<HierarchicalPlan> hierarchical; // when a stage dominates
};

// Throws std::invalid_argument for a bad pipeline or max_k < 1.
PipelineAnalysis analyse_pipeline(const PipelineParams& params);

} // namespace lanai::models
