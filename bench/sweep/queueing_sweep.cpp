// One queueing experiment on the sweep runner.
#include "bench/sweep/queueing_sweep.hpp"

#include <chrono>

#include "bench/sweep/sweep_record_codec.hpp"
#include "bench/sweep/sweep_runner.hpp"

namespace lanai::bench {

std::size_t QueueingSweep::failed() const {
  std::size_t n = 0;
  for (const auto& p : points)
    if (p && p->twin.status == TwinStatus::failed)
      ++n;
  return n;
}

std::optional<ModelFigures> model_figures(const models::QnaResult& r, std::string_view station) {
  for (const auto& s : r.stations)
    if (s.name == station)
      return ModelFigures{s.utilization, s.queue};
  for (const auto& v : r.visits)
    if (v.name == station)
      return ModelFigures{v.utilization, v.queue};
  return std::nullopt;
}

QueueingSweep run_queueing_experiment(const Experiment& e, const QueueingRunOptions& options) {
  const auto wall_start = std::chrono::steady_clock::now();
  QueueingSweep sweep;
  sweep.experiment = e;
  const QueueingSetup& q = e.queueing;
  for (const double rate : q.rates_per_us) {
    models::QnaNetwork network = q.model;
    network.rate_per_us = rate;
    try {
      sweep.model.emplace_back(models::solve_qna(network));
      sweep.model_errors.emplace_back();
    } catch (const std::exception& err) {
      sweep.model.emplace_back();
      sweep.model_errors.emplace_back(err.what());
    }
  }

  const std::size_t per_variant = q.rates_per_us.size();
  const std::function<std::optional<QueueingPoint>(std::size_t)> point = [&](std::size_t i) {
    QueueingPoint p;
    p.index = i;
    p.variant = i / per_variant;
    p.rate = i % per_variant;
    TwinPointSpec spec;
    spec.profile = e.profile;
    spec.firmware = e.firmwares.front().source;
    spec.services = q.services;
    spec.transfers = q.transfers;
    spec.pooled = q.variants[p.variant] == "pooled";
    spec.rate_per_us = q.rates_per_us[p.rate];
    // Every variant sees the same doorbells at a given rate.
    spec.seed = e.seed + p.rate;
    spec.warmup = kernel::SimTime::from_ps(static_cast<std::int64_t>(e.warmup_ms * 1e9));
    spec.min_duration =
        kernel::SimTime::from_ps(static_cast<std::int64_t>(q.min_duration_ms * 1e9));
    spec.max_duration = kernel::SimTime::from_ps(static_cast<std::int64_t>(e.duration_ms * 1e9));
    spec.batches = q.batches;
    spec.target_precision = q.target_ci_percent / 100.0;
    p.twin = run_twin_point(spec, options.stop);
    if (p.twin.status == TwinStatus::stopped)
      return std::optional<QueueingPoint>{};
    return std::optional<QueueingPoint>(std::move(p));
  };

  SweepOptions sweep_options;
  sweep_options.jobs = options.jobs;
  sweep_options.stop = options.stop;
  sweep_options.progress = options.progress;
  sweep_options.ranks = options.ranks;
  // A point an MPI rank took and never gave back is a failed point.
  const auto lost = [&](std::size_t i, const std::string& why) {
    QueueingPoint p;
    p.index = i;
    p.variant = i / per_variant;
    p.rate = i % per_variant;
    p.twin.status = TwinStatus::failed;
    p.twin.detail = why;
    return p;
  };
  const auto elapsed = [wall_start] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  };
  sweep.points = run_sweep(
      q.variants.size() * per_variant, point, sweep_options, lost,
      interrupted_copy(sweep, &QueueingSweep::points, options.at_stop,
                       [&](QueueingSweep& partial) { partial.wall_seconds = elapsed(); }));
  sweep.interrupted = options.stop && options.stop->load();
  sweep.wall_seconds = elapsed();
  return sweep;
}

} // namespace lanai::bench
