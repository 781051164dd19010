// The store-and-forward pipeline's timing recurrence, its bottleneck, and
// the fixed-size theorem over the pieces on which the bottleneck is constant.
#include "tools/analytic/pipeline_model.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace lanai::models {

namespace {

// Sum of G over every stage but b, in us per byte.
double other_G_per_byte(std::span<const PipelineStage> stages, std::size_t b) {
  double sum = 0.0;
  for (std::size_t j = 0; j < stages.size(); ++j)
    if (j != b)
      sum += stages[j].G_us_per_kb;
  return sum / kPipelineBytesPerKb;
}

// Fragment sizes at which two stages' times cross, inside (lo, hi), with the
// ends: between two neighbours the bottleneck does not change.
std::vector<double> bottleneck_cuts(std::span<const PipelineStage> stages, double lo, double hi) {
  std::vector<double> cuts = {lo, hi};
  for (std::size_t a = 0; a < stages.size(); ++a)
    for (std::size_t b = a + 1; b < stages.size(); ++b) {
      const double dG = (stages[a].G_us_per_kb - stages[b].G_us_per_kb) / kPipelineBytesPerKb;
      if (dG == 0.0)
        continue;
      const double x = (stages[b].g_us - stages[a].g_us) / dG;
      if (x > lo && x < hi)
        cuts.push_back(x);
    }
  std::sort(cuts.begin(), cuts.end());
  cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
  return cuts;
}

} // namespace

double stage_time_us(const PipelineStage& stage, double bytes) {
  return stage.g_us + bytes * stage.G_us_per_kb / kPipelineBytesPerKb;
}

void check_pipeline(std::span<const PipelineStage> stages, double bytes) {
  if (stages.empty())
    throw std::invalid_argument("a pipeline needs at least one stage");
  for (std::size_t j = 0; j < stages.size(); ++j) {
    const PipelineStage& s = stages[j];
    if (!std::isfinite(s.g_us) || s.g_us < 0.0)
      throw std::invalid_argument(
          fmt::format("stage {}: overhead g must be a number >= 0 us (got {})", j, s.g_us));
    if (!std::isfinite(s.G_us_per_kb) || s.G_us_per_kb < 0.0)
      throw std::invalid_argument(
          fmt::format("stage {}: G must be a number >= 0 us per KB (got {})", j, s.G_us_per_kb));
  }
  if (!std::isfinite(bytes) || bytes <= 0.0)
    throw std::invalid_argument(fmt::format("packet size must be > 0 bytes (got {})", bytes));
}

std::int64_t fragment_count_limit(double bytes, std::int64_t max_k) {
  const double whole = std::floor(bytes);
  const std::int64_t per_byte =
      whole >= static_cast<double>(max_k) ? max_k : static_cast<std::int64_t>(whole);
  return std::max<std::int64_t>(1, std::min(max_k, per_byte));
}

double PipelineSchedule::latency_us() const {
  return leave_us.empty() || leave_us.back().empty() ? 0.0 : leave_us.back().back();
}

PipelineSchedule pipeline_schedule(std::span<const PipelineStage> stages,
                                   std::span<const double> fragments,
                                   std::span<const double> ready_us) {
  if (!ready_us.empty() && ready_us.size() != fragments.size())
    throw std::invalid_argument(
        fmt::format("{} ready times for {} fragments", ready_us.size(), fragments.size()));
  const std::size_t n = stages.size();
  PipelineSchedule s;
  s.enter_us.assign(fragments.size(), std::vector<double>(n, 0.0));
  s.leave_us.assign(fragments.size(), std::vector<double>(n, 0.0));
  for (std::size_t i = 0; i < fragments.size(); ++i)
    for (std::size_t j = 0; j < n; ++j) {
      const double arrived = j > 0 ? s.leave_us[i][j - 1] : ready_us.empty() ? 0.0 : ready_us[i];
      const double free = i > 0 ? s.leave_us[i - 1][j] : 0.0;
      s.enter_us[i][j] = std::max(arrived, free);
      s.leave_us[i][j] = s.enter_us[i][j] + stage_time_us(stages[j], fragments[i]);
    }
  return s;
}

double pipeline_latency_us(std::span<const PipelineStage> stages,
                           std::span<const double> fragments) {
  return pipeline_schedule(stages, fragments).latency_us();
}

std::size_t bottleneck_stage(std::span<const PipelineStage> stages, double fragment_bytes) {
  std::size_t b = 0;
  for (std::size_t j = 1; j < stages.size(); ++j)
    if (stage_time_us(stages[j], fragment_bytes) > stage_time_us(stages[b], fragment_bytes))
      b = j;
  return b;
}

std::size_t bottleneck_for_count(std::span<const PipelineStage> stages, double bytes,
                                 std::int64_t k) {
  return bottleneck_stage(stages, bytes / static_cast<double>(k));
}

std::vector<double> equal_fragments(double bytes, std::int64_t k) {
  if (k < 1)
    throw std::invalid_argument(fmt::format("fragment count must be >= 1 (got {})", k));
  return std::vector<double>(static_cast<std::size_t>(k), bytes / static_cast<double>(k));
}

double fixed_latency_us(std::span<const PipelineStage> stages, double bytes, std::int64_t k) {
  return pipeline_latency_us(stages, equal_fragments(bytes, k));
}

double fixed_closed_form_us(std::span<const PipelineStage> stages, double bytes, std::int64_t k,
                            std::size_t b) {
  double other_g = 0.0;
  for (std::size_t j = 0; j < stages.size(); ++j)
    if (j != b)
      other_g += stages[j].g_us;
  const double kd = static_cast<double>(k);
  return kd * stages[b].g_us + bytes / kd * other_G_per_byte(stages, b) +
         (other_g + bytes * stages[b].G_us_per_kb / kPipelineBytesPerKb);
}

double fixed_closed_form_k(std::span<const PipelineStage> stages, double bytes, std::size_t b) {
  if (stages[b].g_us == 0.0)
    return INFINITY;
  return std::sqrt(bytes * other_G_per_byte(stages, b) / stages[b].g_us);
}

FixedSizeChoice fixed_size_theorem(std::span<const PipelineStage> stages, double bytes,
                                   std::int64_t max_k) {
  check_pipeline(stages, bytes);
  const std::int64_t limit = fragment_count_limit(bytes, max_k);
  const double k_max = static_cast<double>(limit);
  // Piece [lo, hi] of fragment sizes is the k range [bytes/hi, bytes/lo].
  const std::vector<double> cuts = bottleneck_cuts(stages, bytes / k_max, bytes);
  FixedSizeChoice best;
  bool have = false;
  double best_us = 0.0;
  auto consider = [&](double k_real) {
    const auto k = static_cast<std::int64_t>(std::clamp(k_real, 1.0, k_max));
    const double us =
        fixed_closed_form_us(stages, bytes, k, bottleneck_for_count(stages, bytes, k));
    if (!have || us < best_us || (us == best_us && k < best.k)) {
      have = true;
      best_us = us;
      best.k = k;
    }
  };
  for (std::size_t p = 0; p + 1 < cuts.size() || p == 0; ++p) {
    const double lo = cuts[p];
    const double hi = p + 1 < cuts.size() ? cuts[p + 1] : cuts[p];
    const std::size_t b = bottleneck_stage(stages, (lo + hi) / 2.0);
    const double k = std::clamp(fixed_closed_form_k(stages, bytes, b), bytes / hi, bytes / lo);
    consider(std::floor(k));
    consider(std::ceil(k));
  }
  best.bottleneck = bottleneck_for_count(stages, bytes, best.k);
  best.us = fixed_latency_us(stages, bytes, best.k);
  return best;
}

PipelineStage compound_stage(std::span<const PipelineStage> stages) {
  PipelineStage sum;
  for (const PipelineStage& s : stages) {
    sum.g_us += s.g_us;
    sum.G_us_per_kb += s.G_us_per_kb;
  }
  return sum;
}

double pipeline_lower_bound_us(std::span<const PipelineStage> stages, double bytes) {
  double max_G = 0.0;
  for (const PipelineStage& s : stages)
    max_G = std::max(max_G, s.G_us_per_kb);
  return compound_stage(stages).g_us + bytes * max_G / kPipelineBytesPerKb;
}

} // namespace lanai::models
