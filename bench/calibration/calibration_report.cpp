// Per-cell table and summary of a calibration.
#include "bench/calibration/calibration_report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "bench/calibration/latency_model.hpp"

namespace lanai::bench {

namespace {

double median(std::vector<double> values) {
  if (values.empty())
    return 0;
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

} // namespace

CalibrationSummary summarize_fit(const std::vector<TargetCell>& cells,
                                 const std::vector<double>& model) {
  CalibrationSummary s;
  std::vector<double> abs_errors, targeted_errors;
  std::map<std::uint32_t, std::map<std::string, double>> one_way; // size -> firmware -> us
  for (std::size_t i = 0; i < cells.size(); ++i) {
    const double e = relative_error(model[i], cells[i].target_us);
    abs_errors.push_back(std::abs(e));
    if (cells[i].target_us != 0)
      targeted_errors.push_back(std::abs(e));
    if (!is_one_way(cells[i].quantity))
      continue;
    one_way[cells[i].size][cells[i].firmware] = model[i];
    if (!s.has_one_way || std::abs(e) > std::abs(s.worst_one_way_error)) {
      s.worst_one_way_error = e;
      s.worst_one_way_cell = i;
    }
    s.has_one_way = true;
  }
  s.median_abs_error = median(abs_errors);
  s.targeted_cells = targeted_errors.size();
  s.median_abs_error_targeted = median(targeted_errors);
  for (const auto& [size_key, by_fw_value] : one_way) {
    const auto size = size_key;
    const auto& by_fw = by_fw_value;
    auto check = [&](const char* lo, const char* hi, bool strict) {
      const auto a = by_fw.find(lo), b = by_fw.find(hi);
      if (a == by_fw.end() || b == by_fw.end())
        return false;
      if (strict ? !(a->second < b->second) : !(a->second <= b->second))
        s.order_violations.push_back({size, lo, hi, a->second, b->second, strict});
      return true;
    };
    const bool c1 = check("svia", "pvia", true);
    const bool c2 = check("pvia", "qosvia", false);
    if (c1 || c2)
      ++s.ordered_sizes;
  }
  return s;
}

std::string render_cells(const std::vector<TargetCell>& cells, const std::vector<double>& model) {
  std::string out = fmt::format("{:<9} {:>6} {:<22} {:>9} {:>9} {:>8}\n", "firmware", "size",
                                "quantity", "target", "model", "error%");
  for (std::size_t i = 0; i < cells.size(); ++i)
    out += fmt::format("{:<9} {:>6} {:<22} {:>9.1f} {:>9.2f} {:>+8.1f}\n", cells[i].firmware,
                       cells[i].size, cells[i].quantity, cells[i].target_us, model[i],
                       100 * relative_error(model[i], cells[i].target_us));
  return out;
}

bool meets(const CalibrationSummary& s, double median_limit, double one_way_limit) {
  return s.median_abs_error <= median_limit &&
         (!s.has_one_way || std::abs(s.worst_one_way_error) <= one_way_limit) &&
         s.order_violations.empty();
}

std::string render_summary(const std::vector<TargetCell>& cells, const CalibrationSummary& s,
                           double median_limit, double one_way_limit) {
  auto verdict = [](bool ok) { return ok ? "ok" : "OVER THE LIMIT"; };
  std::string out = fmt::format(
      "median absolute error over {} cells: {:.1f}% (limit {:.0f}%: {})\n", cells.size(),
      100 * s.median_abs_error, 100 * median_limit, verdict(s.median_abs_error <= median_limit));
  if (s.targeted_cells != cells.size())
    out += fmt::format("median absolute error over the {} cells whose target is not 0: {:.1f}%\n",
                       s.targeted_cells, 100 * s.median_abs_error_targeted);
  if (s.has_one_way) {
    const TargetCell& w = cells[s.worst_one_way_cell];
    out += fmt::format("worst 1-way error: {:+.1f}% ({} {} B) (limit {:.0f}%: {})\n",
                       100 * s.worst_one_way_error, w.firmware, w.size, 100 * one_way_limit,
                       verdict(std::abs(s.worst_one_way_error) <= one_way_limit));
  }
  if (s.ordered_sizes == 0) {
    out += "1-way order SVIA < PVIA <= QoS-VIA: not checked (no size has two of the firmwares)\n";
  } else if (s.order_violations.empty()) {
    out +=
        fmt::format("1-way order SVIA < PVIA <= QoS-VIA: yes, at all {} sizes\n", s.ordered_sizes);
  } else {
    out += "1-way order SVIA < PVIA <= QoS-VIA: NO\n";
    for (const OrderViolation& v : s.order_violations)
      out += fmt::format("  at {} B: {} {:.2f} us {} {} {:.2f} us (by {:.2f} us)\n", v.size,
                         v.lower, v.lower_us, v.strict ? "is not below" : "is above", v.higher,
                         v.higher_us, v.lower_us - v.higher_us);
  }
  return out;
}

} // namespace lanai::bench
