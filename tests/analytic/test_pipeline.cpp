// The fragmentation pipeline model on the published reference sets: the
// fixed-size theorem against the recurrence and brute force, the linear
// program against its bounds, ramp-up without bubbles, reversibility, the
// moving bottleneck of the AN2 set and the hierarchical plan for a slow disk.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <optional>
#include <span>
#include <stdexcept>
#include <vector>

#include "tools/analytic/pipeline_analysis.hpp"
#include "tools/analytic/pipeline_hierarchical.hpp"
#include "tools/analytic/pipeline_lp.hpp"
#include "tools/analytic/pipeline_model.hpp"
#include "tools/analytic/pipeline_ramp_up.hpp"

using namespace lanai::models;

namespace {

// Myrinet with Generic Active Messages: host copy, sender host DMA, the
// network DMAs with the receiver host DMA (the bottleneck), host copy.
const std::vector<PipelineStage> kGam = {{7.2, 7.2}, {5.2, 24.9}, {7.5, 24.9}, {7.4, 7.9}};
// AN2 global memory: server DMA, wire, requester DMA, requester CPU.
const std::vector<PipelineStage> kAn2 = {{2.1, 25.6}, {4.0, 60.1}, {2.1, 25.6}, {92.8, 26.2}};

double sum(const std::vector<double>& v) { return std::accumulate(v.begin(), v.end(), 0.0); }

std::int64_t brute_force_best_k(const std::vector<PipelineStage>& stages, double bytes,
                                std::int64_t max_k) {
  std::int64_t best = 1;
  for (std::int64_t k = 2; k <= max_k; ++k)
    if (fixed_latency_us(stages, bytes, k) < fixed_latency_us(stages, bytes, best))
      best = k;
  return best;
}

} // namespace

TEST_CASE("equal fragments: the theorem's closed form is the recurrence") {
  for (const double bytes : {4096.0, 8192.0}) {
    CAPTURE(bytes);
    for (std::int64_t k = 1; k <= 64; ++k) {
      CAPTURE(k);
      const std::size_t b = bottleneck_for_count(kGam, bytes, k);
      CHECK(b == 2); // the GAM bottleneck never moves
      CHECK(fixed_closed_form_us(kGam, bytes, k, b) ==
            doctest::Approx(fixed_latency_us(kGam, bytes, k)).epsilon(1e-12));
      CHECK(pipeline_latency_us(kGam, equal_fragments(bytes, k)) ==
            doctest::Approx(fixed_latency_us(kGam, bytes, k)).epsilon(1e-12));
    }
  }
  // T(5) = 5 * 7.5 + 4096/5 * 40/1024 + (7.2 + 5.2 + 7.4 + 4 * 24.9).
  CHECK(fixed_latency_us(kGam, 4096, 5) == doctest::Approx(188.9).epsilon(1e-12));
  CHECK(fixed_latency_us(kGam, 4096, 1) == doctest::Approx(286.9).epsilon(1e-12));
}

TEST_CASE("the fixed-size theorem's k is the brute-force best") {
  struct Case {
    const std::vector<PipelineStage>* stages;
    double bytes;
    std::int64_t k;
  };
  for (const Case c : {Case{&kGam, 4096, 5}, Case{&kGam, 8192, 7}, Case{&kAn2, 8192, 3},
                       Case{&kAn2, 65536, 0}, Case{&kGam, 100, 0}}) {
    CAPTURE(c.bytes);
    const FixedSizeChoice choice = fixed_size_theorem(*c.stages, c.bytes);
    const std::int64_t brute =
        brute_force_best_k(*c.stages, c.bytes, std::min<std::int64_t>(1024, c.bytes));
    CHECK(choice.k == brute);
    if (c.k)
      CHECK(choice.k == c.k);
    CHECK(choice.us == doctest::Approx(fixed_latency_us(*c.stages, c.bytes, choice.k)));
    CHECK(choice.bottleneck == bottleneck_for_count(*c.stages, c.bytes, choice.k));
  }
  // sqrt(4096 * 40/1024 / 7.5) = 4.62: of 4 and 5, 5 is better.
  CHECK(fixed_closed_form_k(kGam, 4096, 2) == doctest::Approx(4.6188).epsilon(1e-4));
  // Restricted to fewer fragments, the theorem clamps.
  CHECK(fixed_size_theorem(kGam, 4096, 3).k == 3);
}

TEST_CASE("the linear program lies between the lower bound and equal fragments") {
  for (const auto* stages : {&kGam, &kAn2}) {
    for (const double bytes : {4096.0, 8192.0}) {
      CAPTURE(bytes);
      const double lower = pipeline_lower_bound_us(*stages, bytes);
      for (std::int64_t k = 1; k <= 24; ++k) {
        CAPTURE(k);
        const PipelineOptimum opt = optimal_latency(*stages, bytes, k);
        CHECK(opt.us <= fixed_latency_us(*stages, bytes, k) + 1e-6);
        CHECK(opt.us >= lower - 1e-6);
        REQUIRE(opt.fragments.size() == static_cast<std::size_t>(k));
        CHECK(sum(opt.fragments) == doctest::Approx(bytes).epsilon(1e-9));
        // The sizes found time to the LP's latency under the recurrence.
        CHECK(pipeline_latency_us(*stages, opt.fragments) == doctest::Approx(opt.us).epsilon(1e-9));
      }
    }
  }
  // B G_b + sum g, with b the GAM bottleneck.
  CHECK(pipeline_lower_bound_us(kGam, 4096) == doctest::Approx(4 * 24.9 + 27.3));
}

TEST_CASE("the linear program solves the degenerate large cases") {
  // Fragment counts on which a single floating-point simplex run stalls or
  // fails for this packet.
  for (const std::int64_t k : {47, 56, 64, 175}) {
    CAPTURE(k);
    const PipelineOptimum opt = optimal_latency(kGam, 65536, k);
    CHECK(opt.us <= fixed_latency_us(kGam, 65536, k) + 1e-6);
    CHECK(opt.us >= pipeline_lower_bound_us(kGam, 65536) - 1e-6);
    CHECK(pipeline_latency_us(kGam, opt.fragments) == doctest::Approx(opt.us).epsilon(1e-9));
  }
}

TEST_CASE("the linear program with one fragment is the unfragmented latency") {
  for (const auto* stages : {&kGam, &kAn2})
    for (const double bytes : {1.0, 4096.0, 8192.0}) {
      const PipelineOptimum opt = optimal_latency(*stages, bytes, 1);
      const std::vector<double> whole = {bytes};
      CHECK(opt.us == doctest::Approx(pipeline_latency_us(*stages, whole)).epsilon(1e-12));
      CHECK(opt.fragments.at(0) == doctest::Approx(bytes));
    }
  CHECK(optimal_latency(kGam, 4096, 1).us == doctest::Approx(286.9));
}

TEST_CASE("ramp-up fragments leave no bubbles on two stages") {
  // The GAM set reduced around its bottleneck, and a slow second stage.
  const std::vector<std::vector<PipelineStage>> pairs = {
      {compound_stage(std::span(kGam).first(2)), compound_stage(std::span(kGam).subspan(2))},
      {{5.0, 10.0}, {8.0, 30.0}}};
  for (const auto& two : pairs) {
    int plans = 0;
    for (std::int64_t k = 2; k <= 8; ++k) {
      CAPTURE(k);
      // Fast growth leaves too little for the first fragment at larger k.
      const auto sizes = ramp_up_fragments(two[0], two[1], 8192, k);
      if (!sizes)
        continue;
      ++plans;
      CHECK(sum(*sizes) == doctest::Approx(8192).epsilon(1e-12));
      const PipelineSchedule s = pipeline_schedule(two, *sizes);
      for (std::size_t i = 1; i < sizes->size(); ++i) {
        // Fragment i enters stage 1 as i-1 leaves it, having just left stage 0.
        CHECK(std::abs(s.enter_us[i][1] - s.leave_us[i - 1][1]) <= 1e-6);
        CHECK(std::abs(s.leave_us[i][0] - s.leave_us[i - 1][1]) <= 1e-6);
      }
    }
    CHECK(plans >= 3);
    const RampUpPlan plan = ramp_up_plan(two, 8192, 64);
    CHECK(plan.split == 1);
    CHECK(plan.fragments.size() >= 2);
    const PipelineSchedule s = pipeline_schedule(two, plan.fragments);
    for (std::size_t i = 1; i < plan.fragments.size(); ++i)
      CHECK(std::abs(s.enter_us[i][1] - s.leave_us[i - 1][1]) <= 1e-6);
    CHECK(plan.us == doctest::Approx(s.latency_us()));
    CHECK(plan.us < fixed_latency_us(two, 8192, 1));
  }
  // Fragments that would have to shrink below nothing are refused.
  CHECK_FALSE(ramp_up_fragments({10.0, 1.0}, {1.0, 1.0}, 100, 8));
  CHECK_FALSE(ramp_up_fragments({1.0, 0.0}, {1.0, 1.0}, 100, 2));
}

TEST_CASE("the ramp-up plan is no better than the optimum and names its reduction") {
  for (const double bytes : {4096.0, 8192.0}) {
    const PipelineAnalysis a = analyse_pipeline({kGam, bytes, 64});
    CHECK(a.ramp_up.split == 2);
    CHECK(a.ramp_up.first.g_us == doctest::Approx(12.4));
    CHECK(a.ramp_up.second.G_us_per_kb == doctest::Approx(32.8));
    CHECK(sum(a.ramp_up.fragments) == doctest::Approx(bytes));
    CHECK(a.ramp_up.us >= a.optimal_best_us - 1e-6);
    CHECK(a.ramp_up.us == doctest::Approx(pipeline_latency_us(kGam, a.ramp_up.fragments)));
    // On GAM it comes within 2% of the optimum, closer than equal fragments.
    CHECK(a.ramp_up.us <= a.optimal_best_us * 1.02);
    CHECK(a.ramp_up.us < a.fixed_best_us);
  }
}

TEST_CASE("a ramp-up cut chosen by hand: AN2 cut after the wire") {
  // By the rule the cut falls before the wire (the bottleneck), and the
  // second compound stage grows too fast; cut after it the plan comes
  // within 0.5% of the optimum.
  const PipelineAnalysis rule = analyse_pipeline({kAn2, 8192, 64});
  CHECK(rule.ramp_up.split == 1);
  PipelineParams cut{kAn2, 8192, 64};
  cut.ramp_split = 2;
  const PipelineAnalysis a = analyse_pipeline(cut);
  CHECK(a.ramp_up.split == 2);
  CHECK(a.ramp_up.first.g_us == doctest::Approx(6.1));
  CHECK(a.ramp_up.second.G_us_per_kb == doctest::Approx(51.8));
  CHECK(sum(a.ramp_up.fragments) == doctest::Approx(8192));
  CHECK(a.ramp_up.us == doctest::Approx(pipeline_latency_us(kAn2, a.ramp_up.fragments)));
  CHECK(a.ramp_up.us >= a.optimal_best_us - 1e-6);
  CHECK(a.ramp_up.us <= a.optimal_best_us * 1.005);
  CHECK(a.ramp_up.us < rule.ramp_up.us);
  // The cut leaves a stage on each side.
  for (const std::size_t bad : {std::size_t{4}, std::size_t{9}})
    CHECK_THROWS_AS(ramp_up_plan(kAn2, 8192, 64, bad), std::invalid_argument);
  const std::vector<PipelineStage> one = {{2.1, 25.6}};
  CHECK_THROWS_AS(ramp_up_plan(one, 8192, 64, 1), std::invalid_argument);
  CHECK(ramp_up_plan(one, 8192, 64).fragments.size() == 1);
}

TEST_CASE("reversing the stages reverses the optimal fragments") {
  const std::vector<PipelineStage> stages = {{3.0, 10.0}, {6.0, 40.0}, {2.0, 20.0}};
  std::vector<PipelineStage> reversed(stages.rbegin(), stages.rend());
  for (std::int64_t k = 2; k <= 6; ++k) {
    CAPTURE(k);
    const PipelineOptimum forward = optimal_latency(stages, 8192, k);
    const PipelineOptimum backward = optimal_latency(reversed, 8192, k);
    CHECK(backward.us == doctest::Approx(forward.us).epsilon(1e-9));
    for (std::size_t i = 0; i < forward.fragments.size(); ++i)
      CHECK(backward.fragments[forward.fragments.size() - 1 - i] ==
            doctest::Approx(forward.fragments[i]).epsilon(1e-6));
  }
}

TEST_CASE("AN2: the bottleneck moves from the receiver CPU to the wire as fragments grow") {
  CHECK(bottleneck_stage(kAn2, 256) == 3);
  CHECK(bottleneck_stage(kAn2, 2048) == 3);
  CHECK(bottleneck_stage(kAn2, 4096) == 1);
  CHECK(bottleneck_stage(kAn2, 8192) == 1);
  for (std::int64_t k = 1; k <= 16; ++k)
    CHECK(bottleneck_for_count(kAn2, 8192, k) == (k <= 3 ? 1u : 3u));
  const PipelineAnalysis a = analyse_pipeline({kAn2, 8192, 64});
  CHECK(a.bottleneck == 1);
  CHECK(a.bottlenecks == std::vector<std::size_t>{1, 3});
  CHECK(a.theorem.k == 3);
  CHECK(a.fixed_best_k == 3);
  CHECK(a.fixed_best_us == doctest::Approx(796.2));
  CHECK(a.optimal_best_us < a.fixed_best_us);
  CHECK_FALSE(a.hierarchical);
}

TEST_CASE("a dominant slow stage gets a hierarchical plan") {
  // The GAM path five times slower, feeding a disk at 1 MB/s with 0.5 ms
  // overhead; 64 KB packets.
  std::vector<PipelineStage> stages;
  for (const PipelineStage& s : kGam)
    stages.push_back({5 * s.g_us, 5 * s.G_us_per_kb});
  stages.push_back({500.0, 1024.0});
  const double bytes = 65536;
  REQUIRE(dominant_stage(stages, bytes) == std::optional<std::size_t>(4));
  const PipelineAnalysis a = analyse_pipeline({stages, bytes, 64});
  REQUIRE(a.hierarchical);
  const HierarchicalPlan& h = *a.hierarchical;
  CHECK(h.dominant == 4);
  CHECK(h.small_k > h.large_k);
  CHECK(h.small_k % h.large_k == 0);
  CHECK(h.us < a.fixed_best_us);
  CHECK(h.us == doctest::Approx(hierarchical_latency_us(stages, bytes, 4, h.small_k, h.large_k)));
  // Equal small and large fragments are plain equal fragmentation.
  for (std::int64_t k : {1, 4, 16})
    CHECK(hierarchical_latency_us(stages, bytes, 4, k, k) ==
          doctest::Approx(fixed_latency_us(stages, bytes, k)).epsilon(1e-12));
  // Neither reference set has a dominant stage.
  CHECK_FALSE(dominant_stage(kGam, 4096));
  CHECK_FALSE(dominant_stage(kAn2, 8192));
  CHECK_FALSE(analyse_pipeline({kGam, 4096, 8}).hierarchical);
}

TEST_CASE("bad pipelines are refused with the reason") {
  const std::vector<PipelineStage> none;
  CHECK_THROWS_WITH_AS(check_pipeline(none, 10), "a pipeline needs at least one stage",
                       std::invalid_argument);
  const std::vector<PipelineStage> negative = {{1.0, 1.0}, {-2.0, 1.0}};
  CHECK_THROWS_WITH_AS(check_pipeline(negative, 10),
                       "stage 1: overhead g must be a number >= 0 us (got -2)",
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(check_pipeline(kGam, 0), "packet size must be > 0 bytes (got 0)",
                       std::invalid_argument);
  CHECK_THROWS_AS(analyse_pipeline({kGam, 4096, 0}), std::invalid_argument);
  CHECK_THROWS_AS(optimal_latency(kGam, 4096, 0), std::invalid_argument);
  CHECK_THROWS_AS(hierarchical_latency_us(kGam, 4096, 2, 6, 4), std::invalid_argument);
  // max_k is clamped to one fragment per byte.
  CHECK(analyse_pipeline({kGam, 3, 64}).by_k.size() == 3);
}
