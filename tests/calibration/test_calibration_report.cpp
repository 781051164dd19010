// The calibration summary: median absolute error, worst 1-way error, the
// published 1-way order, and the zero-target cells.
#include <doctest/doctest.h>

#include "bench/calibration/calibration_report.hpp"
#include "bench/calibration/latency_model.hpp"

using namespace lanai::bench;

namespace {

std::vector<TargetCell> cells() {
  return {{"svia", 4, "one_way", 30},
          {"pvia", 4, "one_way", 69},
          {"qosvia", 4, "one_way", 73},
          {"pvia", 4, "recv_desc_down", 0},
          {"svia", 4, "send_desc_down", 6}};
}

} // namespace

TEST_CASE("relative errors; targets under 1 us count against 1 us") {
  CHECK(relative_error(33, 30) == doctest::Approx(0.1));
  CHECK(relative_error(0.0, 0.0) == 0);
  CHECK(relative_error(0.5, 0.0) == doctest::Approx(0.5));
}

TEST_CASE("summary of a good fit") {
  const auto s = summarize_fit(cells(), {33, 69, 73, 0, 3});
  CHECK(s.median_abs_error == 0);
  CHECK(s.worst_one_way_error == doctest::Approx(0.1));
  CHECK(s.worst_one_way_cell == 0);
  CHECK(s.order_violations.empty());
  CHECK(s.ordered_sizes == 1);
  CHECK(meets(s, 0.15, 0.2));
  CHECK_FALSE(meets(s, 0.15, 0.05));
  CHECK(render_summary(cells(), s, 0.15, 0.2).find("yes, at all 1 sizes") != std::string::npos);
}

TEST_CASE("the median over the cells whose target is not 0 leaves the zeros out") {
  // Absolute errors 0.1, 0, 0, 2 (a zero target counts against 1 us), 0.5.
  const auto s = summarize_fit(cells(), {33, 69, 73, 2, 3});
  CHECK(s.median_abs_error == doctest::Approx(0.1));
  CHECK(s.targeted_cells == 4);
  CHECK(s.median_abs_error_targeted == doctest::Approx(0.05));
  const std::string text = render_summary(cells(), s, 0.15, 0.2);
  CHECK(text.find("over the 4 cells whose target is not 0: 5.0%") != std::string::npos);
  // A table with no zero target prints the one median only.
  const std::vector<TargetCell> all = cells();
  const std::vector<TargetCell> targeted(all.begin(), all.begin() + 3);
  CHECK(render_summary(targeted, summarize_fit(targeted, {33, 69, 73}), 0.15, 0.2)
            .find("whose target is not 0") == std::string::npos);
}

TEST_CASE("order violations name the cells and the amount") {
  auto s = summarize_fit(cells(), {76, 75, 74.5, 0, 6});
  REQUIRE(s.order_violations.size() == 2);
  CHECK(s.order_violations[0].lower == "svia");
  CHECK(s.order_violations[1].lower == "pvia");
  CHECK_FALSE(meets(s, 10, 10));
  const std::string text = render_summary(cells(), s, 0.15, 0.2);
  CHECK(text.find("at 4 B: pvia 75.00 us is above qosvia 74.50 us (by 0.50 us)") !=
        std::string::npos);
  // PVIA equal to QoS-VIA is allowed, SVIA equal to PVIA is not.
  s = summarize_fit(cells(), {69, 69, 69, 0, 6});
  REQUIRE(s.order_violations.size() == 1);
  CHECK(s.order_violations[0].strict);
}
