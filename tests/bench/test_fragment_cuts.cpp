// Tests of how the bench cuts messages into fragments (the card's static
// cut, the host's equal cut) and of the line fit the direct method uses.
#include <doctest/doctest.h>

#include <numeric>
#include <stdexcept>
#include <vector>

#include "tools/numeric/line_fit.hpp"
#include "bench/workloads/card_stages.hpp"
#include "bench/workloads/pingpong.hpp"

using namespace lanai;

TEST_CASE("the static cut: full fragments and the remainder last") {
  CHECK(bench::static_fragments(4096, 1024) == std::vector<double>{1024, 1024, 1024, 1024});
  CHECK(bench::static_fragments(5000, 2048) == std::vector<double>{2048, 2048, 904});
  CHECK(bench::static_fragments(100, 4096) == std::vector<double>{100});
  CHECK_THROWS_AS(bench::static_fragments(100, 0), std::invalid_argument);
}

TEST_CASE("the host's cut: equal fragments, the first ones a byte longer") {
  const auto cut = bench::host_fragment_sizes(4099, 4);
  CHECK(cut == std::vector<std::uint32_t>{1025, 1025, 1025, 1024});
  CHECK(std::accumulate(cut.begin(), cut.end(), 0u) == 4099u);
  CHECK(bench::host_fragment_sizes(7, 7) == std::vector<std::uint32_t>(7, 1));
  CHECK_THROWS_AS(bench::host_fragment_sizes(7, 8), std::invalid_argument);
  CHECK_THROWS_AS(bench::host_fragment_sizes(4096, 0), std::invalid_argument);
  CHECK_THROWS_AS(bench::host_fragment_sizes(65536, bench::kMaxHostFragments + 1),
                  std::invalid_argument);
}

TEST_CASE("fit sizes reach the largest message") {
  CHECK(bench::default_fit_sizes(65536) ==
        std::vector<std::uint32_t>{256, 1024, 4096, 16384, 65536});
  CHECK(bench::default_fit_sizes(4096) == std::vector<std::uint32_t>{256, 1024, 4096});
  CHECK(bench::default_fit_sizes(100) == std::vector<std::uint32_t>{1024});
}

TEST_CASE("a line through exact points is recovered") {
  const std::vector<double> x{256, 1024, 4096, 16384}, y{10.5, 12, 18, 42};
  const auto fit = numeric::fit_line(x, y);
  CHECK(fit.slope == doctest::Approx(1.0 / 512));
  CHECK(fit.intercept == doctest::Approx(10.0));
  CHECK(fit.max_residual == doctest::Approx(0.0).epsilon(1e-9));
}

TEST_CASE("a noisy line: least squares and its worst miss") {
  const std::vector<double> x{0, 1, 2, 3}, y{1, 2, 2, 4};
  const auto fit = numeric::fit_line(x, y); // slope 0.9, intercept 0.9
  CHECK(fit.slope == doctest::Approx(0.9));
  CHECK(fit.intercept == doctest::Approx(0.9));
  CHECK(fit.max_residual == doctest::Approx(0.7));
}

TEST_CASE("a line fit refuses too few or degenerate points") {
  const std::vector<double> one{1}, two{1, 1}, three{1, 2, 3};
  CHECK_THROWS_AS(numeric::fit_line(one, one), std::invalid_argument);
  CHECK_THROWS_AS(numeric::fit_line(two, two), std::invalid_argument);
  CHECK_THROWS_AS(numeric::fit_line(three, two), std::invalid_argument);
}

TEST_CASE("a ping-pong never posts more receives than a VI holds") {
  lanai::bench::PingPongSpec spec;
  spec.size = 4096;
  spec.host_fragments = VIA_QUEUE_DEPTH + 1;
  CHECK_THROWS_AS(lanai::bench::run_pingpong(spec), std::invalid_argument);
  // Receives posted ahead keep three rounds' fragments posted.
  spec.receives = lanai::bench::ReceivePosting::ahead;
  spec.host_fragments = VIA_QUEUE_DEPTH / 3 + 1;
  CHECK_THROWS_WITH_AS(lanai::bench::run_pingpong(spec),
                       "22 host fragments with receives posted ahead need 66 receives posted at "
                       "once; a VI holds 64",
                       std::invalid_argument);
}

TEST_CASE("receive posting names") {
  using lanai::bench::ReceivePosting;
  for (const ReceivePosting p : {ReceivePosting::on_arrival, ReceivePosting::ahead})
    CHECK(lanai::bench::parse_receive_posting(lanai::bench::receive_posting_name(p)) == p);
  CHECK_THROWS_WITH_AS(lanai::bench::parse_receive_posting("early"),
                       "receive posting 'early': expected on-arrival or ahead",
                       std::invalid_argument);
}
