// The fitter on problems whose optimum is known: a linear model, a
// nonlinear one, integer parameters, and optima outside the bounds.
#include <doctest/doctest.h>

#include <cmath>
#include <stdexcept>

#include "bench/calibration/least_squares_fit.hpp"

using lanai::bench::fit_least_squares;
using lanai::bench::FitOptions;
using lanai::bench::FitParameter;
using lanai::bench::FitRound;

namespace {

// Residuals of y = a t + b against exact data from a = 3, b = -2.
std::vector<double> line(const std::vector<double>& x) {
  std::vector<double> r;
  for (double t = 0; t < 10; t += 1)
    r.push_back(x[0] * t + x[1] - (3 * t - 2));
  return r;
}

} // namespace

TEST_CASE("a linear model is fitted exactly") {
  const auto result = fit_least_squares({{"a", 1, -100, 100}, {"b", 1, -100, 100}}, line);
  CHECK(result.values[0] == doctest::Approx(3).epsilon(1e-6));
  CHECK(result.values[1] == doctest::Approx(-2).epsilon(1e-6));
  CHECK(result.cost < 1e-12);
}

TEST_CASE("a nonlinear model with parameters of different scales") {
  // y = c / (1 + t / tau): c near 50, tau near 2000.
  auto model = [](const std::vector<double>& x) {
    std::vector<double> r;
    for (double t = 0; t <= 8000; t += 500)
      r.push_back(x[0] / (1 + t / x[1]) - 50 / (1 + t / 2000));
    return r;
  };
  const auto result = fit_least_squares({{"c", 20, 1, 1000}, {"tau", 500, 10, 1e5}}, model);
  CHECK(result.values[0] == doctest::Approx(50).epsilon(1e-4));
  CHECK(result.values[1] == doctest::Approx(2000).epsilon(1e-4));
}

TEST_CASE("integer parameters end on the best integer") {
  // Continuous optimum at n = 2.6, so the best integer is 3; x is real.
  std::vector<std::vector<double>> seen;
  auto model = [&](const std::vector<double>& x) {
    seen.push_back(x);
    return std::vector<double>{x[0] - 2.6, 0.5 * (x[1] - 7.25)};
  };
  const auto result = fit_least_squares({{"n", 9, 1, 100, true}, {"x", 0, -50, 50, false}}, model);
  CHECK(result.values[0] == 3);
  CHECK(result.values[1] == doctest::Approx(7.25).epsilon(0.01));
  for (const auto& x : seen)
    CHECK(x[0] == std::round(x[0])); // only integers evaluated
}

TEST_CASE("bounds are respected, also when the optimum lies outside") {
  std::vector<std::vector<double>> seen;
  auto model = [&](const std::vector<double>& x) {
    seen.push_back(x);
    return std::vector<double>{x[0] - 10, x[1] + 4, x[2] - 0.3};
  };
  const auto result = fit_least_squares({{"a", 1, 0, 5}, {"k", 3, 1, 8, true}, {"c", 40, 33, 66}},
                                        model); // c starts inside
  CHECK(result.values[0] == doctest::Approx(5));
  CHECK(result.values[1] == 1);
  CHECK(result.values[2] == doctest::Approx(33));
  for (const auto& x : seen) {
    CHECK(x[0] >= 0);
    CHECK(x[0] <= 5);
    CHECK(x[1] >= 1);
    CHECK(x[2] >= 33);
  }
}

TEST_CASE("an initial value outside its bounds is clamped; progress is reported") {
  std::vector<FitRound> rounds;
  FitOptions options;
  options.on_round = [&](const FitRound& r) { rounds.push_back(r); };
  const auto result = fit_least_squares(
      {{"a", 500, 0, 20}},
      [](const std::vector<double>& x) { return std::vector<double>{x[0] - 7}; }, options);
  CHECK(result.values[0] == doctest::Approx(7));
  REQUIRE(!rounds.empty());
  CHECK(rounds.front().phase == "start");
  CHECK(rounds.front().values[0] == 20);
  CHECK(rounds.back().cost <= rounds.front().cost);
}

TEST_CASE("bad problems are refused") {
  auto zero = [](const std::vector<double>&) { return std::vector<double>{0.0}; };
  CHECK_THROWS_AS(fit_least_squares({}, zero), std::invalid_argument);
  CHECK_THROWS_AS(fit_least_squares({{"a", 1, 5, 2}}, zero), std::invalid_argument);
  CHECK_THROWS_AS(fit_least_squares({{"n", 1, 1.2, 1.8, true}}, zero), std::invalid_argument);
}
