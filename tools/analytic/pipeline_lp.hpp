// The true optimum of the store-and-forward pipeline for a given fragment
// count: fragment sizes and start times as a linear program, solved with
// GLPK. It is the reference every fragmentation heuristic is measured by.
#pragma once

#include <cstdint>
#include <span>
#include <stdexcept>
#include <vector>

#include "tools/analytic/pipeline_model.hpp"

namespace lanai::models {

// The solver failed or found no optimum (which a well-formed pipeline never
// causes).
class PipelineLpError : public std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct PipelineOptimum {
  double us = 0.0;               // minimal latency over k fragments
  std::vector<double> fragments; // the sizes that reach it, in bytes, in order
};

// Minimises T over x_i >= 0 (sum B) and start times s_ij >= 0, subject to
//   s_ij >= s_i,j-1 + g_j-1 + x_i G_j-1   (fragment i has left stage j-1)
//   s_ij >= s_i-1,j + g_j + x_i-1 G_j     (fragment i-1 has left stage j)
//   T    >= s_k-1,n-1 + g_n-1 + x_k-1 G_n-1.
// Throws std::invalid_argument for a bad pipeline or k < 1, PipelineLpError
// if GLPK fails.
PipelineOptimum optimal_latency(std::span<const PipelineStage> stages, double bytes,
                                std::int64_t k);

} // namespace lanai::models
