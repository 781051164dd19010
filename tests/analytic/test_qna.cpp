// QNA against queues with exact answers, and the shipped NIC send-path model
// against its closed-form utilisations.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "tools/analytic/qna_model_file.hpp"
#include "tools/analytic/qna_solver.hpp"

using namespace lanai::models;

namespace {

// One station fed by Poisson arrivals at `rate`, service mean `s`, SCOV `scov`.
QnaNetwork single(double rate, double s, double scov, int servers = 1) {
  QnaNetwork n;
  n.name = "single";
  n.rate_per_us = rate;
  n.stations = {{"q", servers}};
  QnaVisit v;
  v.station_name = "q";
  v.job_class = "job";
  v.mean_us = s;
  v.scov = scov;
  n.visits = {v};
  n.arrivals = {{0, 1.0, 1.0}};
  return n;
}

QnaVisit visit(std::size_t station, std::string station_name, double s, double scov) {
  QnaVisit v;
  v.station = station;
  v.station_name = std::move(station_name);
  v.job_class = "job";
  v.mean_us = s;
  v.scov = scov;
  return v;
}

} // namespace

TEST_CASE("M/M/1: Lq = rho^2/(1-rho), L = rho/(1-rho), W = s/(1-rho)") {
  for (double rho : {0.1, 0.5, 0.9, 0.99}) {
    const QnaResult r = solve_qna(single(rho / 2.0, 2.0, 1.0));
    const QnaStationResult& q = r.stations.at(0);
    CHECK(q.utilization == doctest::Approx(rho).epsilon(1e-12));
    CHECK(q.queue == doctest::Approx(rho * rho / (1 - rho)).epsilon(1e-9));
    CHECK(q.present == doctest::Approx(rho / (1 - rho)).epsilon(1e-9));
    CHECK(q.time_us == doctest::Approx(2.0 / (1 - rho)).epsilon(1e-9));
    CHECK(q.scov_departure == doctest::Approx(1.0));
  }
}

TEST_CASE("M/D/1: Pollaczek-Khinchine, Lq = rho^2/(2(1-rho))") {
  for (double rho : {0.2, 0.6, 0.95}) {
    const QnaResult r = solve_qna(single(rho / 10.0, 10.0, 0.0));
    const QnaStationResult& q = r.stations.at(0);
    CHECK(q.queue == doctest::Approx(rho * rho / (2 * (1 - rho))).epsilon(1e-9));
    CHECK(q.wait_us == doctest::Approx(rho * 10.0 / (2 * (1 - rho))).epsilon(1e-9));
  }
}

TEST_CASE("M/G/1 with service SCOV c2: Lq = rho^2 (1 + c2) / (2 (1 - rho))") {
  for (double c2 : {0.25, 1.0, 2.0, 9.0}) {
    const double rho = 0.7;
    const QnaResult r = solve_qna(single(rho / 3.0, 3.0, c2));
    CHECK(r.stations.at(0).queue ==
          doctest::Approx(rho * rho * (1 + c2) / (2 * (1 - rho))).epsilon(1e-9));
  }
}

TEST_CASE("a tandem Jackson network: each station is the M/M/1 queue of its own load") {
  QnaNetwork n;
  n.name = "tandem";
  n.rate_per_us = 0.3;
  n.stations = {{"a", 1}, {"b", 1}, {"c", 1}};
  n.visits = {visit(0, "a", 1.0, 1.0), visit(1, "b", 2.0, 1.0), visit(2, "c", 3.0, 1.0)};
  n.arrivals = {{0, 1.0, 1.0}};
  n.routes = {{0, 1, 1.0}, {1, 2, 1.0}};
  const QnaResult r = solve_qna(n);
  double total_time = 0.0;
  for (std::size_t i = 0; i < 3; ++i) {
    const double rho = 0.3 * (i + 1.0);
    CHECK(r.stations[i].utilization == doctest::Approx(rho));
    CHECK(r.stations[i].scov_arrival == doctest::Approx(1.0));
    CHECK(r.stations[i].present == doctest::Approx(rho / (1 - rho)).epsilon(1e-9));
    total_time += (i + 1.0) / (1 - rho);
  }
  REQUIRE(r.classes.size() == 1);
  CHECK(r.classes[0].time_us == doctest::Approx(total_time).epsilon(1e-9));
}

TEST_CASE("Jackson feedback: a job that returns with probability p sees lambda/(1-p)") {
  QnaNetwork n = single(0.2, 2.0, 1.0);
  n.routes = {{0, 0, 0.5}};
  const QnaResult r = solve_qna(n);
  const double rho = 0.2 / 0.5 * 2.0;
  CHECK(r.stations[0].arrival_rate == doctest::Approx(0.4));
  CHECK(r.stations[0].present == doctest::Approx(rho / (1 - rho)).epsilon(1e-9));
}

TEST_CASE("M/M/m: the approximation is exact for m = 1 and close to Erlang C for m = 2") {
  // Erlang C for m = 2: Lq = 2 rho^3 / (1 - rho^2).
  const double rho = 0.8;
  const QnaResult r = solve_qna(single(2 * rho / 5.0, 5.0, 1.0, 2));
  const double exact = 2 * rho * rho * rho / (1 - rho * rho);
  CHECK(r.stations[0].utilization == doctest::Approx(rho));
  CHECK(std::fabs(r.stations[0].queue - exact) / exact < 0.05);
}

TEST_CASE("the NIC send-path model: utilisations of the published network") {
  const QnaNetwork n = load_qna_model(QNA_NIC_SEND_MODEL);
  for (double rate : {0.00273, 0.00493, 0.00786, 0.00900, 0.01079, 0.01100}) {
    QnaNetwork at = n;
    at.rate_per_us = rate;
    const QnaResult r = solve_qna(at);
    REQUIRE(r.stations.size() == 3);
    const double p = 0.5 * (1 - rate * 52.6887);
    CHECK(r.stations[0].name == "lanai");
    CHECK(r.stations[0].utilization == doctest::Approx(rate * (22 + 0.12 + 10 * p)));
    CHECK(r.stations[1].utilization == doctest::Approx(rate * (21 + 68.3154)));
    CHECK(r.stations[2].utilization == doctest::Approx(rate * 52.6887));
    // One message visits the LANai three times and the host DMA twice.
    CHECK(r.stations[0].arrival_rate == doctest::Approx(3 * rate));
    CHECK(r.stations[1].arrival_rate == doctest::Approx(2 * rate));
    for (const QnaStationResult& s : r.stations) {
      CHECK(s.queue >= 0.0);
      CHECK(s.present == doctest::Approx(s.queue + s.utilization * s.servers));
    }
  }
  // The host DMA queue grows without bound as it fills.
  QnaNetwork low = n, high = n;
  low.rate_per_us = 0.00786;
  high.rate_per_us = 0.011;
  CHECK(solve_qna(high).stations[1].queue > 10 * solve_qna(low).stations[1].queue);
}

TEST_CASE("networks QNA cannot solve are refused with the reason") {
  SUBCASE("a station at full load") {
    CHECK_THROWS_WITH_AS(solve_qna(single(0.5, 2.0, 1.0)),
                         doctest::Contains("station q is unstable at rate 0.5 per us"), QnaError);
  }
  SUBCASE("jobs that never leave") {
    QnaNetwork n = single(0.1, 1.0, 1.0);
    n.routes = {{0, 0, 1.0}};
    CHECK_THROWS_WITH_AS(solve_qna(n), doctest::Contains("keeps some jobs in the network forever"),
                         QnaError);
  }
}
