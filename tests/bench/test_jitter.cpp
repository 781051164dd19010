// Tests of the jitter metrics on hand-made receipt sequences: periodic
// receipts, one late message, bunching, pooling channels, bad intervals.
#include "bench/metrics/jitter.hpp"

#include <doctest/doctest.h>

#include <array>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <vector>

using lanai::bench::jitter;
using lanai::bench::JitterResult;
using lanai::bench::pool;

using Receipts = std::vector<std::int64_t>;

TEST_CASE("perfectly periodic receipts have no jitter") {
  const Receipts r{1000, 1100, 1200, 1300};
  const auto j = jitter(r, 100.0);
  CHECK(j.messages == 4);
  CHECK(j.intervals == 3);
  CHECK(j.jittered == 0);
  CHECK(j.sum_jitter_ps == 0);
  CHECK(j.interval_ps == 100.0);
  CHECK(j.theta() == 0);
  CHECK(j.jittered_fraction() == 0);
}

TEST_CASE("one late message") {
  // Gaps 100, 150, 100: one gap 50 ps over I.
  const Receipts r{0, 100, 250, 350};
  const auto j = jitter(r, 100.0);
  CHECK(j.intervals == 3);
  CHECK(j.jittered == 1);
  CHECK(j.sum_jitter_ps == 50.0);
  CHECK(j.theta() == doctest::Approx(50.0 / 3.0 / 100.0));
  CHECK(j.jittered_fraction() == doctest::Approx(1.0 / 3.0));
}

TEST_CASE("bunching: only gaps longer than I count") {
  // Gaps 100, 50 (early), 150 (late): the early gap does not cancel the late one.
  const Receipts r{0, 100, 150, 300};
  const auto j = jitter(r, 100.0);
  CHECK(j.jittered == 1);
  CHECK(j.sum_jitter_ps == 50.0);
  CHECK(j.theta() == doctest::Approx(1.0 / 6.0));
  CHECK(j.jittered_fraction() == doctest::Approx(1.0 / 3.0));
}

TEST_CASE("a receipt earlier than its predecessor is no jitter itself") {
  // Gaps 200, -50, 150: jitter 100 and 50.
  const Receipts r{0, 200, 150, 300};
  const auto j = jitter(r, 100.0);
  CHECK(j.jittered == 2);
  CHECK(j.sum_jitter_ps == 150.0);
}

TEST_CASE("fewer than two receipts give no intervals") {
  CHECK(jitter(Receipts{}, 100.0).intervals == 0);
  const auto one = jitter(Receipts{42}, 100.0);
  CHECK(one.messages == 1);
  CHECK(one.intervals == 0);
  CHECK(one.theta() == 0);
  CHECK(one.jittered_fraction() == 0);
}

TEST_CASE("late gaps are exact for timestamps beyond double precision") {
  const std::int64_t t0 = std::int64_t{1} << 60;
  const Receipts r{t0, t0 + 1000, t0 + 2001};
  const auto j = jitter(r, 1000.0);
  CHECK(j.jittered == 1);
  CHECK(j.sum_jitter_ps == 1.0);
}

TEST_CASE("pooling sums the channels of one class") {
  const std::array<JitterResult, 2> channels{
      jitter(Receipts{0, 100, 250, 350}, 100.0),       // 3 intervals, one 50 late
      jitter(Receipts{5, 105, 205, 305, 405}, 100.0)}; // 4 intervals, none late
  const auto p = pool(channels);
  CHECK(p.messages == 9);
  CHECK(p.intervals == 7);
  CHECK(p.jittered == 1);
  CHECK(p.sum_jitter_ps == 50.0);
  CHECK(p.interval_ps == 100.0);
  CHECK(p.theta() == doctest::Approx(50.0 / 7.0 / 100.0));
  CHECK(p.jittered_fraction() == doctest::Approx(1.0 / 7.0));
}

TEST_CASE("pooling nothing gives an empty result") {
  const auto p = pool({});
  CHECK(p.intervals == 0);
  CHECK(p.theta() == 0);
}

TEST_CASE("pooling channels of different inter-arrival times throws") {
  const std::array<JitterResult, 2> channels{jitter(Receipts{0, 100}, 100.0),
                                             jitter(Receipts{0, 200}, 200.0)};
  CHECK_THROWS_AS(pool(channels), std::invalid_argument);
}

TEST_CASE("the inter-arrival time must be positive and finite") {
  const Receipts r{0, 100};
  CHECK_THROWS_AS(jitter(r, 0.0), std::invalid_argument);
  CHECK_THROWS_AS(jitter(r, -100.0), std::invalid_argument);
  CHECK_THROWS_AS(jitter(r, std::numeric_limits<double>::quiet_NaN()), std::invalid_argument);
  CHECK_THROWS_AS(jitter(r, std::numeric_limits<double>::infinity()), std::invalid_argument);
}
