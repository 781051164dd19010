// How well a profile matches the target table: the per-cell errors, the
// median absolute error over all cells and over those whose target is not 0
// (a target of 0 is a step the published breakdown counts as taking no
// time), the worst 1-way error and whether the 1-way latencies keep the
// published order SVIA < PVIA <= QoS-VIA.
#pragma once

#include <string>
#include <vector>

#include "bench/calibration/target_table.hpp"

namespace lanai::bench {

struct OrderViolation {
  std::uint32_t size = 0;
  std::string lower, higher; // firmware expected faster, and the other
  double lower_us = 0, higher_us = 0;
  bool strict = false; // SVIA < PVIA must be strict; PVIA <= QoS-VIA need not
};

struct CalibrationSummary {
  double median_abs_error = 0;          // fraction, over all cells
  double median_abs_error_targeted = 0; // fraction, over the cells whose target is not 0
  std::size_t targeted_cells = 0;
  double worst_one_way_error = 0; // fraction, signed, largest in magnitude
  std::size_t worst_one_way_cell = 0;
  bool has_one_way = false;
  std::vector<OrderViolation> order_violations; // empty: ordered at every size
  std::size_t ordered_sizes = 0;                // sizes where the order could be checked
};

CalibrationSummary summarize_fit(const std::vector<TargetCell>& cells,
                                 const std::vector<double>& model);

// Fixed-width table: firmware, size, quantity, target, model, error %.
std::string render_cells(const std::vector<TargetCell>& cells, const std::vector<double>& model);
// The summary lines; `median_limit` and `one_way_limit` (fractions) mark
// each figure "ok" or "over the limit".
std::string render_summary(const std::vector<TargetCell>& cells, const CalibrationSummary& s,
                           double median_limit, double one_way_limit);
bool meets(const CalibrationSummary& s, double median_limit, double one_way_limit);

} // namespace lanai::bench
