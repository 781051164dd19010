// Whitt's QNA, the three steps of the method, in the visit form of
// qna_network.hpp (a class switch is a route between visits).
#include "models/qna_solver.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "numeric/dense_linear.hpp"

namespace lanai::models {

namespace {

constexpr int kMaxIterations = 100000;
constexpr double kTolerance = 1e-13;

// Step 1a: the visit rates, lambda_v = lambda_0v + sum_u lambda_u p_uv.
std::vector<double> visit_rates(const QnaNetwork& net) {
  const std::size_t n = net.visits.size();
  std::vector<std::vector<double>> a(n, std::vector<double>(n, 0.0));
  std::vector<double> external(n, 0.0);
  for (std::size_t v = 0; v < n; ++v) a[v][v] = 1.0;
  for (const QnaRoute& r : net.routes) a[r.to][r.from] -= r.probability;
  for (const QnaArrival& arrival : net.arrivals)
    external[arrival.visit] += arrival.share * net.rate_per_us;
  std::vector<double> rates;
  if (!numeric::solve_dense(a, external, rates, 1e-12))
    throw QnaError(fmt::format("{}: the routing keeps some jobs in the network forever "
                               "(every job must eventually leave)",
                               net.name));
  for (double& r : rates) r = std::max(r, 0.0);
  return rates;
}

} // namespace

QnaResult solve_qna(const QnaNetwork& net) {
  const std::size_t n_visits = net.visits.size();
  const std::size_t n_stations = net.stations.size();
  QnaResult out;
  out.model = net.name;
  out.rate_per_us = net.rate_per_us;

  const std::vector<double> lambda = visit_rates(net);

  // Step 1b: service times (scaled ones once the station they refer to is
  // known) and utilisations.
  std::vector<double> service(n_visits, 0.0);
  std::vector<double> rho(n_stations, 0.0);
  std::vector<bool> scaled_station(n_stations, false);
  for (std::size_t v = 0; v < n_visits; ++v)
    if (net.visits[v].idle) scaled_station[net.visits[v].station] = true;
  auto add_load = [&](std::size_t v) {
    const QnaVisit& visit = net.visits[v];
    rho[visit.station] += lambda[v] * service[v] / net.stations[visit.station].servers;
  };
  for (std::size_t v = 0; v < n_visits; ++v) {
    if (net.visits[v].idle) continue;
    service[v] = net.visits[v].mean_us;
    add_load(v);
  }
  for (std::size_t v = 0; v < n_visits; ++v) {
    const QnaVisit& visit = net.visits[v];
    if (!visit.idle) continue;
    const std::size_t ref = visit.idle->station;
    if (scaled_station[ref])
      throw QnaError(fmt::format("{}: {} is scaled by the idle time of {}, whose own service is "
                                 "scaled too",
                                 net.name, visit.name(), net.stations[ref].name));
    service[v] = visit.mean_us * visit.idle->factor * std::max(0.0, 1.0 - rho[ref]);
    add_load(v);
  }
  for (std::size_t i = 0; i < n_stations; ++i)
    if (rho[i] >= 1.0)
      throw QnaError(fmt::format("{}: station {} is unstable at rate {} per us (utilisation "
                                 "{:.4f} >= 1)",
                                 net.name, net.stations[i].name, net.rate_per_us, rho[i]));

  // Aggregates per station: lambda_i, the mean service time and c^2_S,i.
  std::vector<double> lambda_i(n_stations, 0.0), mean_service(n_stations, 0.0),
      second_moment(n_stations, 0.0), scov_service(n_stations, 0.0);
  for (std::size_t v = 0; v < n_visits; ++v) {
    const std::size_t i = net.visits[v].station;
    lambda_i[i] += lambda[v];
    mean_service[i] += lambda[v] * service[v];
    second_moment[i] += lambda[v] * service[v] * service[v] * (net.visits[v].scov + 1.0);
  }
  for (std::size_t i = 0; i < n_stations; ++i) {
    if (lambda_i[i] <= 0.0) continue;
    mean_service[i] /= lambda_i[i];
    second_moment[i] /= lambda_i[i];
    scov_service[i] =
        mean_service[i] > 0.0 ? second_moment[i] / (mean_service[i] * mean_service[i]) - 1.0 : 0.0;
  }

  // Step 2: c^2_A per visit and c^2_D per station, to a fixed point.
  std::vector<double> external_rate(n_visits, 0.0), external_scov_rate(n_visits, 0.0);
  for (const QnaArrival& a : net.arrivals) {
    external_rate[a.visit] += a.share * net.rate_per_us;
    external_scov_rate[a.visit] += a.share * net.rate_per_us * a.scov;
  }
  std::vector<double> scov_arrival_visit(n_visits, 1.0), scov_arrival(n_stations, 1.0),
      scov_departure(n_stations, 1.0);
  int iterations = 0;
  for (double change = 1.0; change > kTolerance; ++iterations) {
    if (iterations == kMaxIterations)
      throw QnaError(fmt::format("{}: the variability equations did not converge", net.name));
    change = 0.0;
    std::vector<double> weighted = external_scov_rate;
    for (const QnaRoute& r : net.routes) {
      const std::size_t j = net.visits[r.from].station;
      const double split = 1.0 + r.probability * (scov_departure[j] - 1.0);
      weighted[r.to] += lambda[r.from] * r.probability * split;
    }
    std::vector<double> station_sum(n_stations, 0.0);
    for (std::size_t v = 0; v < n_visits; ++v) {
      const double next = lambda[v] > 0.0 ? weighted[v] / lambda[v] : 1.0;
      change = std::max(change, std::fabs(next - scov_arrival_visit[v]));
      scov_arrival_visit[v] = next;
      station_sum[net.visits[v].station] += lambda[v] * next;
    }
    for (std::size_t i = 0; i < n_stations; ++i) {
      if (lambda_i[i] <= 0.0) continue;
      scov_arrival[i] = station_sum[i] / lambda_i[i];
      const double m = net.stations[i].servers;
      const double next = 1.0 + rho[i] * rho[i] * (scov_service[i] - 1.0) / std::sqrt(m) +
                          (1.0 - rho[i] * rho[i]) * (scov_arrival[i] - 1.0);
      change = std::max(change, std::fabs(next - scov_departure[i]));
      scov_departure[i] = next;
    }
  }
  out.iterations = iterations;

  // Step 3: each station as a GI/G/m queue.
  std::vector<double> wait(n_stations, 0.0);
  for (std::size_t i = 0; i < n_stations; ++i) {
    QnaStationResult s;
    s.name = net.stations[i].name;
    s.servers = net.stations[i].servers;
    s.arrival_rate = lambda_i[i];
    s.utilization = rho[i];
    s.service_us = mean_service[i];
    s.scov_arrival = scov_arrival[i];
    s.scov_service = scov_service[i];
    s.scov_departure = scov_departure[i];
    if (lambda_i[i] > 0.0) {
      const double m = s.servers;
      const double r = rho[i];
      const double alpha = r > 0.7 ? (std::pow(r, m) + r) / 2.0 : std::pow(r, (m + 1.0) / 2.0);
      wait[i] = alpha * mean_service[i] / (1.0 - r) * (scov_arrival[i] + scov_service[i]) /
                (2.0 * m);
    }
    s.wait_us = wait[i];
    s.time_us = lambda_i[i] > 0.0 ? wait[i] + mean_service[i] : 0.0;
    s.queue = lambda_i[i] * wait[i];
    s.present = lambda_i[i] * s.time_us;
    out.stations.push_back(s);
  }

  // Per visit and per class.
  std::map<std::string, std::size_t> class_index;
  for (std::size_t v = 0; v < n_visits; ++v) {
    const QnaVisit& visit = net.visits[v];
    const std::size_t i = visit.station;
    QnaVisitResult r;
    r.name = visit.name();
    r.arrival_rate = lambda[v];
    r.service_us = service[v];
    r.utilization = lambda[v] * service[v] / net.stations[i].servers;
    r.scov_arrival = scov_arrival_visit[v];
    r.time_us = wait[i] + service[v];
    r.queue = lambda[v] * wait[i];
    r.present = lambda[v] * r.time_us;
    out.visits.push_back(r);
    auto [it, fresh] = class_index.try_emplace(visit.job_class, out.classes.size());
    if (fresh) out.classes.push_back(QnaClassResult{visit.job_class});
    QnaClassResult& c = out.classes[it->second];
    c.queue += r.queue;
    c.present += r.present;
    c.entry_rate += external_rate[v];
  }
  for (const QnaRoute& r : net.routes)
    if (net.visits[r.from].job_class != net.visits[r.to].job_class)
      out.classes[class_index[net.visits[r.to].job_class]].entry_rate +=
          lambda[r.from] * r.probability;
  for (QnaClassResult& c : out.classes)
    c.time_us = c.entry_rate > 0.0 ? c.present / c.entry_rate : 0.0;
  return out;
}

} // namespace lanai::models
