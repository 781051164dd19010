// The pipeline model's answers as a table for people and as JSON for scripts.
#pragma once

#include <string>

#include "tools/analytic/pipeline_analysis.hpp"

namespace lanai::models {

std::string pipeline_table(const PipelineAnalysis& analysis);

// {"bytes":..,"max_k":..,"stages":[{"g_us":..,"G_us_per_kb":..},..],
//  "bottleneck":..,"bottlenecks":[..],"unfragmented_us":..,"lower_bound_us":..,
//  "by_k":[{"k":..,"bottleneck":..,"fixed_us":..,"optimal_us":..},..],
//  "fixed_best_k":..,"fixed_best_us":..,
//  "theorem_k":..,"theorem_bottleneck":..,"theorem_us":..,
//  "optimal_best_k":..,"optimal_best_us":..,"optimal_fragments":[..],
//  "ramp_up":{"split":..,"first":{..},"second":{..},"k":..,"fragments":[..],"us":..},
//  "hierarchical":null or {"dominant":..,"small_k":..,"large_k":..,
//                          "small_bytes":..,"large_bytes":..,"us":..}}
std::string pipeline_json(const PipelineAnalysis& analysis);

} // namespace lanai::models
