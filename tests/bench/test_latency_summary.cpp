// Tests of the latency columns on hand-computed samples: medians of odd and
// even counts, nearest-rank percentiles, population standard deviation.
#include "bench/metrics/latency_summary.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <vector>

using lanai::bench::summarize;

TEST_CASE("no samples summarize to zeros") {
  const auto s = summarize({});
  CHECK(s.count == 0);
  CHECK(s.min == 0);
  CHECK(s.median == 0);
  CHECK(s.avg == 0);
  CHECK(s.stdev == 0);
  CHECK(s.p99 == 0);
  CHECK(s.p999 == 0);
}

TEST_CASE("a single sample is every column") {
  const std::vector<double> v{7.5};
  const auto s = summarize(v);
  CHECK(s.count == 1);
  CHECK(s.min == 7.5);
  CHECK(s.median == 7.5);
  CHECK(s.avg == 7.5);
  CHECK(s.stdev == 0);
  CHECK(s.p99 == 7.5);
  CHECK(s.p999 == 7.5);
}

TEST_CASE("odd count: the middle sample is the median, order does not matter") {
  const std::vector<double> v{5, 1, 3, 2, 4};
  const auto s = summarize(v);
  CHECK(s.count == 5);
  CHECK(s.min == 1);
  CHECK(s.median == 3);
  CHECK(s.avg == 3);
  // Deviations -2..2: squares sum to 10, over 5 samples.
  CHECK(s.stdev == doctest::Approx(std::sqrt(2.0)));
  // Rank ceil(0.99 * 5) = 5.
  CHECK(s.p99 == 5);
  CHECK(s.p999 == 5);
}

TEST_CASE("even count: the median is the mean of the two middle samples") {
  const std::vector<double> v{4, 1, 3, 2};
  const auto s = summarize(v);
  CHECK(s.median == 2.5);
  CHECK(s.avg == 2.5);
  // Squares 2.25 + 0.25 + 0.25 + 2.25 = 5, over 4.
  CHECK(s.stdev == doctest::Approx(std::sqrt(1.25)));
  CHECK(s.p99 == 4);
}

TEST_CASE("stdev is the population one") {
  const std::vector<double> v{2, 4, 4, 4, 5, 5, 7, 9};
  const auto s = summarize(v);
  CHECK(s.avg == 5);
  CHECK(s.stdev == doctest::Approx(2.0));
}

// Samples 1..n in reverse order, so the summary has to sort them.
std::vector<double> one_to(int n) {
  std::vector<double> v;
  for (int i = n; i >= 1; --i)
    v.push_back(i);
  return v;
}

TEST_CASE("nearest-rank percentiles") {
  SUBCASE("100 samples: p99 is the 99th smallest, p99.9 the largest") {
    const auto s = summarize(one_to(100));
    CHECK(s.min == 1);
    CHECK(s.median == 50.5);
    CHECK(s.p99 == 99);
    CHECK(s.p999 == 100);
  }
  SUBCASE("1000 samples") {
    const auto s = summarize(one_to(1000));
    CHECK(s.p99 == 990);
    CHECK(s.p999 == 999);
    CHECK(s.avg == 500.5);
  }
  SUBCASE("2001 samples: ranks round up") {
    const auto s = summarize(one_to(2001));
    CHECK(s.median == 1001);
    CHECK(s.p99 == 1981);  // ceil(1980.99)
    CHECK(s.p999 == 1999); // ceil(1998.999)
  }
}

TEST_CASE("a large offset does not swamp the spread") {
  const double base = 1e12;
  const std::vector<double> v{base + 1, base + 2, base + 3};
  const auto s = summarize(v);
  CHECK(s.avg == base + 2);
  CHECK(s.stdev == doctest::Approx(std::sqrt(2.0 / 3.0)));
}
