// Text and JSON forms of a PipelineAnalysis.
#include "tools/analytic/pipeline_report.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <string>
#include <vector>

namespace lanai::models {

namespace {

// Nine significant digits: enough to compare, identical on every run.
std::string num(double v) { return fmt::format("{:.9g}", v); }

std::string json_numbers(const std::vector<double>& values) {
  std::vector<std::string> texts;
  texts.reserve(values.size());
  for (const double v : values)
    texts.push_back(num(v));
  return fmt::format("[{}]", fmt::join(texts, ","));
}

std::string json_stage(const PipelineStage& s) {
  return fmt::format("{{\"g_us\":{},\"G_us_per_kb\":{}}}", num(s.g_us), num(s.G_us_per_kb));
}

std::string sizes_text(const std::vector<double>& values) {
  std::string out;
  for (std::size_t i = 0; i < values.size(); ++i)
    out += fmt::format("{}{:.1f}", i ? " " : "", values[i]);
  return out;
}

std::string stage_range(std::size_t first, std::size_t end) {
  return end - first == 1 ? fmt::format("stage {}", first)
                          : fmt::format("stages {}..{}", first, end - 1);
}

// "stage 1 (k = 1..3), stage 3 (k = 4..64)": runs of rows with one bottleneck.
std::string bottleneck_runs(const PipelineAnalysis& a) {
  std::string out;
  std::size_t start = 0;
  for (std::size_t r = 1; r <= a.by_k.size(); ++r) {
    if (r < a.by_k.size() && a.by_k[r].bottleneck == a.by_k[start].bottleneck)
      continue;
    const std::int64_t lo = a.by_k[start].k, hi = a.by_k[r - 1].k;
    out += fmt::format("{}stage {} (k = {})", start ? ", " : "", a.by_k[start].bottleneck,
                       lo == hi ? fmt::format("{}", lo) : fmt::format("{}..{}", lo, hi));
    start = r;
  }
  return out;
}

std::string no_hierarchical_reason(const PipelineAnalysis& a) {
  const std::vector<PipelineStage>& stages = a.params.stages;
  if (a.bottleneck == 0)
    return "the bottleneck, stage 0, has no stages in front of it";
  const double others = compound_stage(stages).G_us_per_kb - stages[a.bottleneck].G_us_per_kb;
  return fmt::format("stage {}'s G of {:.4g} us/KB is less than twice the others' {:.4g} us/KB",
                     a.bottleneck, stages[a.bottleneck].G_us_per_kb, others);
}

} // namespace

std::string pipeline_table(const PipelineAnalysis& a) {
  const std::vector<PipelineStage>& stages = a.params.stages;
  std::string out = fmt::format(
      "# Pipeline of {} store-and-forward stages, {} bytes (times in us, G in us per KB of "
      "1024 bytes)\n",
      stages.size(), num(a.params.bytes));
  out += fmt::format("{:>5}{:>10}{:>10}{:>14}\n", "stage", "g", "G", "unfragmented");
  for (std::size_t j = 0; j < stages.size(); ++j)
    out += fmt::format("{:>5}{:>10.3f}{:>10.3f}{:>14.3f}\n", j, stages[j].g_us,
                       stages[j].G_us_per_kb, stage_time_us(stages[j], a.params.bytes));
  out += fmt::format("# unfragmented: {:.3f} us, bottleneck stage {}; lower bound {:.3f} us\n",
                     a.unfragmented_us, a.bottleneck, a.lower_bound_us);
  out += fmt::format("# bottleneck by fragment count: {}\n\n", bottleneck_runs(a));

  out += fmt::format("{:>5}{:>12}{:>12}{:>12}\n", "k", "bottleneck", "fixed_us", "optimal_us");
  for (const PipelineRow& r : a.by_k)
    out +=
        fmt::format("{:>5}{:>12}{:>12.3f}{:>12.3f}\n", r.k, r.bottleneck, r.fixed_us, r.optimal_us);

  out += fmt::format("\nequal fragments, best of the table: k = {}, {:.3f} us\n", a.fixed_best_k,
                     a.fixed_best_us);
  out += fmt::format("fixed-size theorem: k = {} (bottleneck stage {}), {:.3f} us\n", a.theorem.k,
                     a.theorem.bottleneck, a.theorem.us);
  out += fmt::format(
      "optimal (linear program): k = {}, {:.3f} us; fragments (bytes): {}\n", a.optimal_best_k,
      a.optimal_best_us,
      sizes_text(a.by_k[static_cast<std::size_t>(a.optimal_best_k - 1)].optimal_fragments));
  const RampUpPlan& ramp = a.ramp_up;
  const std::string second =
      ramp.split < stages.size()
          ? fmt::format(" then {} as ({:.4g}, {:.4g})", stage_range(ramp.split, stages.size()),
                        ramp.second.g_us, ramp.second.G_us_per_kb)
          : std::string(" alone");
  out += fmt::format("ramp-up on {} as ({:.4g}, {:.4g}){}: k = {}, {:.3f} us; fragments (bytes): "
                     "{}\n",
                     stage_range(0, ramp.split), ramp.first.g_us, ramp.first.G_us_per_kb, second,
                     ramp.fragments.size(), ramp.us, sizes_text(ramp.fragments));
  if (const auto& h = a.hierarchical)
    out += fmt::format("hierarchical: {} fragments of {:.1f} bytes through {}, reassembled into {} "
                       "of {:.1f} bytes from stage {} on: {:.3f} us\n",
                       h->small_k, a.params.bytes / h->small_k, stage_range(0, h->dominant),
                       h->large_k, a.params.bytes / h->large_k, h->dominant, h->us);
  else
    out += fmt::format("hierarchical: none ({})\n", no_hierarchical_reason(a));
  return out;
}

std::string pipeline_json(const PipelineAnalysis& a) {
  const std::vector<PipelineStage>& stages = a.params.stages;
  std::string out =
      fmt::format("{{\"bytes\":{},\"max_k\":{},\"stages\":[", num(a.params.bytes), a.max_k);
  for (std::size_t j = 0; j < stages.size(); ++j)
    out += (j ? "," : "") + json_stage(stages[j]);
  out += fmt::format("],\"bottleneck\":{},\"bottlenecks\":[", a.bottleneck);
  for (std::size_t i = 0; i < a.bottlenecks.size(); ++i)
    out += fmt::format("{}{}", i ? "," : "", a.bottlenecks[i]);
  out += fmt::format("],\"unfragmented_us\":{},\"lower_bound_us\":{},\"by_k\":[",
                     num(a.unfragmented_us), num(a.lower_bound_us));
  for (std::size_t r = 0; r < a.by_k.size(); ++r) {
    const PipelineRow& row = a.by_k[r];
    out += fmt::format("{}{{\"k\":{},\"bottleneck\":{},\"fixed_us\":{},\"optimal_us\":{}}}",
                       r ? "," : "", row.k, row.bottleneck, num(row.fixed_us), num(row.optimal_us));
  }
  out += fmt::format(
      "],\"fixed_best_k\":{},\"fixed_best_us\":{},\"theorem_k\":{},"
      "\"theorem_bottleneck\":{},\"theorem_us\":{},\"optimal_best_k\":{},"
      "\"optimal_best_us\":{},\"optimal_fragments\":{},",
      a.fixed_best_k, num(a.fixed_best_us), a.theorem.k, a.theorem.bottleneck, num(a.theorem.us),
      a.optimal_best_k, num(a.optimal_best_us),
      json_numbers(a.by_k[static_cast<std::size_t>(a.optimal_best_k - 1)].optimal_fragments));
  const RampUpPlan& ramp = a.ramp_up;
  out += fmt::format("\"ramp_up\":{{\"split\":{},\"first\":{},\"second\":{},\"k\":{},"
                     "\"fragments\":{},\"us\":{}}},",
                     ramp.split, json_stage(ramp.first), json_stage(ramp.second),
                     ramp.fragments.size(), json_numbers(ramp.fragments), num(ramp.us));
  if (const auto& h = a.hierarchical)
    out += fmt::format("\"hierarchical\":{{\"dominant\":{},\"small_k\":{},\"large_k\":{},"
                       "\"small_bytes\":{},\"large_bytes\":{},\"us\":{}}}}}\n",
                       h->dominant, h->small_k, h->large_k, num(a.params.bytes / h->small_k),
                       num(a.params.bytes / h->large_k), num(h->us));
  else
    out += "\"hierarchical\":null}\n";
  return out;
}

} // namespace lanai::models
