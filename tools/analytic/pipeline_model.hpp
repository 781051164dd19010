// A packet pipelined through store-and-forward stages (host copies, the host
// and network DMAs, the wire): each stage costs an overhead per fragment plus
// a time per byte, and cutting the packet into fragments lets stages overlap.
// Here: the exact timing recurrence, the bottleneck, and equal fragments with
// the fixed-size theorem's choice of their number.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

namespace lanai::models {

// G is quoted per KB of 1024 bytes, as the published stage tables are.
inline constexpr double kPipelineBytesPerKb = 1024.0;

struct PipelineStage {
  double g_us = 0.0;        // overhead per fragment, us
  double G_us_per_kb = 0.0; // time per KB (1024 bytes) of fragment, us
};

// g + x G: what a fragment of `bytes` costs `stage`.
double stage_time_us(const PipelineStage& stage, double bytes);

// Throws std::invalid_argument unless there is at least one stage, every g
// and G is finite and >= 0, and `bytes` is finite and > 0.
void check_pipeline(std::span<const PipelineStage> stages, double bytes);

// The largest fragment count worth searching for a packet: max_k, but at
// most one fragment per byte and at least one fragment.
std::int64_t fragment_count_limit(double bytes, std::int64_t max_k);

// When each fragment enters and leaves each stage: fragment i enters stage j
// once it has left stage j-1 (or, for j = 0, at ready_us[i], default 0) and
// fragment i-1 has left stage j.
struct PipelineSchedule {
  std::vector<std::vector<double>> enter_us; // [fragment][stage]
  std::vector<std::vector<double>> leave_us; // [fragment][stage]
  double latency_us() const;                 // last fragment leaving the last stage
};

PipelineSchedule pipeline_schedule(std::span<const PipelineStage> stages,
                                   std::span<const double> fragments,
                                   std::span<const double> ready_us = {});

// The schedule's latency for fragments sent in this order.
double pipeline_latency_us(std::span<const PipelineStage> stages,
                           std::span<const double> fragments);

// The stage with the largest g + x G for fragments of `fragment_bytes`; the
// first such stage on a tie.
std::size_t bottleneck_stage(std::span<const PipelineStage> stages, double fragment_bytes);

// The bottleneck when `bytes` are cut into k equal fragments.
std::size_t bottleneck_for_count(std::span<const PipelineStage> stages, double bytes,
                                 std::int64_t k);

std::vector<double> equal_fragments(double bytes, std::int64_t k);

// Latency of k equal fragments of bytes/k (real-valued sizes), by the
// recurrence.
double fixed_latency_us(std::span<const PipelineStage> stages, double bytes, std::int64_t k);

// The fixed-size theorem's curve for bottleneck b:
// T(k) = k g_b + (B/k) sum_{j!=b} G_j + (sum_{j!=b} g_j + B G_b).
// It equals fixed_latency_us whenever b is the bottleneck at fragments of B/k.
double fixed_closed_form_us(std::span<const PipelineStage> stages, double bytes, std::int64_t k,
                            std::size_t b);

// The real k minimising that curve, sqrt(B sum_{j!=b} G_j / g_b); infinite
// when g_b is 0.
double fixed_closed_form_k(std::span<const PipelineStage> stages, double bytes, std::size_t b);

struct FixedSizeChoice {
  std::int64_t k = 1;
  std::size_t bottleneck = 0; // at fragments of B/k
  double us = 0.0;            // by the recurrence
};

// The fixed-size theorem's k over 1..fragment_count_limit(bytes, max_k).
// The bottleneck is constant on pieces of the k range; on each piece the
// curve's minimum (restricted to the piece, rounded down and up) is a
// candidate, and the best candidate wins (the smaller k on a tie). Since
// equal-fragment latency is the largest of the pieces' convex curves, it is
// convex in k, and the choice is the best k in the range.
FixedSizeChoice fixed_size_theorem(std::span<const PipelineStage> stages, double bytes,
                                   std::int64_t max_k = std::numeric_limits<std::int64_t>::max());

// One stage standing for several run back to back: the sums of g and of G.
PipelineStage compound_stage(std::span<const PipelineStage> stages);

// No schedule beats sum_j g_j + B max_j G_j: the stage m with the largest G
// is busy for at least g_m + B G_m, the first fragment pays the overheads of
// the stages before m before it starts, the last those after m after it ends.
double pipeline_lower_bound_us(std::span<const PipelineStage> stages, double bytes);

} // namespace lanai::models
