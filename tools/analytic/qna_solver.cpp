// Whitt's QNA, the three steps of the method, in the visit form of
// qna_network.hpp (a class switch is a route between visits).
#include "tools/analytic/qna_solver.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "tools/numeric/dense_linear.hpp"

namespace lanai::models {

namespace {

constexpr int kMaxIterations = 100000;
constexpr double kTolerance = 1e-13;

// Step 1a: the visit rates, lambda_v = lambda_0v + sum_u lambda_u p_uv.
std::vector<double> visit_rates(const QnaNetwork& net) {
  const std::size_t n = net.visits.size();
  std::vector<std::vector<double>> a(n, std::vector<double>(n, 0.0));
  std::vector<double> external(n, 0.0);
  for (std::size_t v = 0; v < n; ++v)
    a[v][v] = 1.0;
  for (const QnaRoute& r : net.routes)
    a[r.to][r.from] -= r.probability;
  for (const QnaArrival& arrival : net.arrivals)
    external[arrival.visit] += arrival.share * net.rate_per_us;
  std::vector<double> rates;
  if (!numeric::solve_dense(a, external, rates, 1e-12))
    throw QnaError(fmt::format("{}: the routing keeps some jobs in the network forever "
                               "(every job must eventually leave)",
                               net.name));
  for (double& r : rates)
    r = std::max(r, 0.0);
  return rates;
}

// Step 1b: each visit's service time (a visit scaled by another station's
// idle time once that station's own load is known) and each station's
// utilisation.
struct Load {
  std::vector<double> service; // per visit
  std::vector<double> rho;     // per station
};

Load service_and_load(const QnaNetwork& net, const std::vector<double>& lambda) {
  const std::size_t n_visits = net.visits.size();
  const std::size_t n_stations = net.stations.size();
  Load load{std::vector<double>(n_visits, 0.0), std::vector<double>(n_stations, 0.0)};
  std::vector<bool> scaled_station(n_stations, false);
  for (std::size_t v = 0; v < n_visits; ++v)
    if (net.visits[v].idle)
      scaled_station[net.visits[v].station] = true;
  auto add_load = [&](std::size_t v) {
    const QnaVisit& visit = net.visits[v];
    load.rho[visit.station] += lambda[v] * load.service[v] / net.stations[visit.station].servers;
  };
  for (std::size_t v = 0; v < n_visits; ++v) {
    if (net.visits[v].idle)
      continue;
    load.service[v] = net.visits[v].mean_us;
    add_load(v);
  }
  for (std::size_t v = 0; v < n_visits; ++v) {
    const QnaVisit& visit = net.visits[v];
    if (!visit.idle)
      continue;
    const std::size_t ref = visit.idle->station;
    if (scaled_station[ref])
      throw QnaError(fmt::format("{}: {} is scaled by the idle time of {}, whose own service is "
                                 "scaled too",
                                 net.name, visit.name(), net.stations[ref].name));
    load.service[v] = visit.mean_us * visit.idle->factor * std::max(0.0, 1.0 - load.rho[ref]);
    add_load(v);
  }
  for (std::size_t i = 0; i < n_stations; ++i)
    if (load.rho[i] >= 1.0)
      throw QnaError(fmt::format("{}: station {} is unstable at rate {} per us (utilisation "
                                 "{:.4f} >= 1)",
                                 net.name, net.stations[i].name, net.rate_per_us, load.rho[i]));
  return load;
}

// Aggregates per station: lambda_i, the mean service time and c^2_S,i.
struct StationService {
  std::vector<double> lambda, mean_service, scov_service;
};

StationService station_service(const QnaNetwork& net, const std::vector<double>& lambda,
                               const std::vector<double>& service) {
  const std::size_t n_stations = net.stations.size();
  StationService st{std::vector<double>(n_stations, 0.0), std::vector<double>(n_stations, 0.0),
                    std::vector<double>(n_stations, 0.0)};
  std::vector<double> second_moment(n_stations, 0.0);
  for (std::size_t v = 0; v < net.visits.size(); ++v) {
    const std::size_t i = net.visits[v].station;
    st.lambda[i] += lambda[v];
    st.mean_service[i] += lambda[v] * service[v];
    second_moment[i] += lambda[v] * service[v] * service[v] * (net.visits[v].scov + 1.0);
  }
  for (std::size_t i = 0; i < n_stations; ++i) {
    if (st.lambda[i] <= 0.0)
      continue;
    st.mean_service[i] /= st.lambda[i];
    second_moment[i] /= st.lambda[i];
    st.scov_service[i] = st.mean_service[i] > 0.0
                             ? second_moment[i] / (st.mean_service[i] * st.mean_service[i]) - 1.0
                             : 0.0;
  }
  return st;
}

// The arrivals from outside, per visit: their rate and rate-weighted c^2.
struct ExternalArrivals {
  std::vector<double> rate, scov_rate;
};

ExternalArrivals external_arrivals(const QnaNetwork& net) {
  ExternalArrivals ext{std::vector<double>(net.visits.size(), 0.0),
                       std::vector<double>(net.visits.size(), 0.0)};
  for (const QnaArrival& a : net.arrivals) {
    ext.rate[a.visit] += a.share * net.rate_per_us;
    ext.scov_rate[a.visit] += a.share * net.rate_per_us * a.scov;
  }
  return ext;
}

// Step 2: c^2_A per visit and per station, c^2_D per station.
struct Variability {
  std::vector<double> arrival_visit, arrival, departure;
  int iterations = 0;
};

// Solves the variability equations to a fixed point.
Variability variability(const QnaNetwork& net, const std::vector<double>& lambda,
                        const StationService& st, const std::vector<double>& rho,
                        const ExternalArrivals& ext) {
  const std::size_t n_visits = net.visits.size();
  const std::size_t n_stations = net.stations.size();
  Variability var{std::vector<double>(n_visits, 1.0), std::vector<double>(n_stations, 1.0),
                  std::vector<double>(n_stations, 1.0)};
  for (double change = 1.0; change > kTolerance; ++var.iterations) {
    if (var.iterations == kMaxIterations)
      throw QnaError(fmt::format("{}: the variability equations did not converge", net.name));
    change = 0.0;
    std::vector<double> weighted = ext.scov_rate;
    for (const QnaRoute& r : net.routes) {
      const std::size_t j = net.visits[r.from].station;
      const double split = 1.0 + r.probability * (var.departure[j] - 1.0);
      weighted[r.to] += lambda[r.from] * r.probability * split;
    }
    std::vector<double> station_sum(n_stations, 0.0);
    for (std::size_t v = 0; v < n_visits; ++v) {
      const double next = lambda[v] > 0.0 ? weighted[v] / lambda[v] : 1.0;
      change = std::max(change, std::fabs(next - var.arrival_visit[v]));
      var.arrival_visit[v] = next;
      station_sum[net.visits[v].station] += lambda[v] * next;
    }
    for (std::size_t i = 0; i < n_stations; ++i) {
      if (st.lambda[i] <= 0.0)
        continue;
      var.arrival[i] = station_sum[i] / st.lambda[i];
      const double m = net.stations[i].servers;
      const double next = 1.0 + rho[i] * rho[i] * (st.scov_service[i] - 1.0) / std::sqrt(m) +
                          (1.0 - rho[i] * rho[i]) * (var.arrival[i] - 1.0);
      change = std::max(change, std::fabs(next - var.departure[i]));
      var.departure[i] = next;
    }
  }
  return var;
}

// Step 3: each station as a GI/G/m queue; returns each station's wait.
std::vector<double> station_results(const QnaNetwork& net, const StationService& st,
                                    const std::vector<double>& rho, const Variability& var,
                                    QnaResult& out) {
  std::vector<double> wait(net.stations.size(), 0.0);
  for (std::size_t i = 0; i < net.stations.size(); ++i) {
    QnaStationResult s;
    s.name = net.stations[i].name;
    s.servers = net.stations[i].servers;
    s.arrival_rate = st.lambda[i];
    s.utilization = rho[i];
    s.service_us = st.mean_service[i];
    s.scov_arrival = var.arrival[i];
    s.scov_service = st.scov_service[i];
    s.scov_departure = var.departure[i];
    if (st.lambda[i] > 0.0) {
      const double m = s.servers;
      const double r = rho[i];
      const double alpha = r > 0.7 ? (std::pow(r, m) + r) / 2.0 : std::pow(r, (m + 1.0) / 2.0);
      wait[i] = alpha * st.mean_service[i] / (1.0 - r) * (var.arrival[i] + st.scov_service[i]) /
                (2.0 * m);
    }
    s.wait_us = wait[i];
    s.time_us = st.lambda[i] > 0.0 ? wait[i] + st.mean_service[i] : 0.0;
    s.queue = st.lambda[i] * wait[i];
    s.present = st.lambda[i] * s.time_us;
    out.stations.push_back(s);
  }
  return wait;
}

// Per visit and per class (a class is entered from outside and by routes
// that switch class).
void visit_and_class_results(const QnaNetwork& net, const std::vector<double>& lambda,
                             const std::vector<double>& service, const std::vector<double>& wait,
                             const Variability& var, const ExternalArrivals& ext, QnaResult& out) {
  std::map<std::string, std::size_t> class_index;
  for (std::size_t v = 0; v < net.visits.size(); ++v) {
    const QnaVisit& visit = net.visits[v];
    const std::size_t i = visit.station;
    QnaVisitResult r;
    r.name = visit.name();
    r.arrival_rate = lambda[v];
    r.service_us = service[v];
    r.utilization = lambda[v] * service[v] / net.stations[i].servers;
    r.scov_arrival = var.arrival_visit[v];
    r.time_us = wait[i] + service[v];
    r.queue = lambda[v] * wait[i];
    r.present = lambda[v] * r.time_us;
    out.visits.push_back(r);
    auto [it, fresh] = class_index.try_emplace(visit.job_class, out.classes.size());
    if (fresh)
      out.classes.push_back(QnaClassResult{visit.job_class});
    QnaClassResult& c = out.classes[it->second];
    c.queue += r.queue;
    c.present += r.present;
    c.entry_rate += ext.rate[v];
  }
  for (const QnaRoute& r : net.routes)
    if (net.visits[r.from].job_class != net.visits[r.to].job_class)
      out.classes[class_index[net.visits[r.to].job_class]].entry_rate +=
          lambda[r.from] * r.probability;
  for (QnaClassResult& c : out.classes)
    c.time_us = c.entry_rate > 0.0 ? c.present / c.entry_rate : 0.0;
}

} // namespace

QnaResult solve_qna(const QnaNetwork& net) {
  QnaResult out;
  out.model = net.name;
  out.rate_per_us = net.rate_per_us;
  const std::vector<double> lambda = visit_rates(net);
  const Load load = service_and_load(net, lambda);
  const StationService st = station_service(net, lambda, load.service);
  const ExternalArrivals ext = external_arrivals(net);
  const Variability var = variability(net, lambda, st, load.rho, ext);
  out.iterations = var.iterations;
  const std::vector<double> wait = station_results(net, st, load.rho, var, out);
  visit_and_class_results(net, lambda, load.service, wait, var, ext, out);
  return out;
}

} // namespace lanai::models
