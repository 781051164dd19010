// Hierarchical fragmentation in front of a dominant stage (a slow disk or
// network behind fast copies): the stages before it carry small fragments,
// which are reassembled into large ones for the dominant stage and the stages
// after it, so that each side pays its overheads on a fragment size that
// suits it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

#include "tools/analytic/pipeline_model.hpp"

namespace lanai::models {

// The unfragmented packet's bottleneck b dominates when it has stages in
// front of it and its G is at least twice the sum of every other stage's G
// (so it is also the stage with the largest G). Nothing otherwise.
std::optional<std::size_t> dominant_stage(std::span<const PipelineStage> stages, double bytes);

// Latency of `bytes` as `small_k` equal small fragments through the stages
// before `b` (timed stage by stage by the recurrence), regrouped into
// `large_k` equal large fragments of small_k / large_k consecutive small
// ones each. A large fragment may enter stage b once its last small fragment
// has left stage b-1; from there on the recurrence runs on the large ones.
// large_k must divide small_k.
double hierarchical_latency_us(std::span<const PipelineStage> stages, double bytes, std::size_t b,
                               std::int64_t small_k, std::int64_t large_k);

struct HierarchicalPlan {
  std::size_t dominant = 0; // the stage b; stages 0..b-1 carry the small fragments
  std::int64_t small_k = 1; // small fragments, each bytes / small_k
  std::int64_t large_k = 1; // large fragments, each bytes / large_k
  double us = 0.0;
};

// For a dominant stage: every small_k in 1..fragment_count_limit(bytes,
// max_k) and every large_k dividing it, keeping the least latency (fewer
// small, then fewer large fragments on a tie). small_k == large_k is plain
// equal fragmentation, so the plan is never worse than the best of those.
std::optional<HierarchicalPlan> hierarchical_plan(std::span<const PipelineStage> stages,
                                                  double bytes, std::int64_t max_k);

} // namespace lanai::models
