// Running a queueing experiment: every (variant, rate) point of the twin on
// the sweep runner, each next to the model's (QNA) answer at its rate.
#pragma once

#include <atomic>
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "bench/sweep/experiment_file.hpp"
#include "bench/sweep/sweep_runner.hpp"
#include "tools/analytic/qna_solver.hpp"
#include "bench/queueing/twin_point.hpp"

namespace lanai::bench {

struct QueueingPoint {
  std::size_t index = 0;
  std::size_t variant = 0; // into experiment.queueing.variants
  std::size_t rate = 0;    // into experiment.queueing.rates_per_us
  TwinPointResult twin;
  // Member by member: the record codec's round trip is checked with it.
  bool operator==(const QueueingPoint&) const = default;
};

// The model's figures for one station name of the results ("lanai",
// "lanai.doorbell", ..., "hdma", "nsdma"), if the model has it.
struct ModelFigures {
  double utilization = 0;
  double mean_queue = 0;
};

struct QueueingSweep {
  Experiment experiment;
  std::vector<std::optional<QueueingPoint>> points; // variant-major
  // Per rate: the model's answer, or the reason it has none (unstable).
  std::vector<std::optional<models::QnaResult>> model;
  std::vector<std::string> model_errors;
  bool interrupted = false;
  bool quick = false;
  double wall_seconds = 0;
  std::size_t failed() const;
};

std::optional<ModelFigures> model_figures(const models::QnaResult& result,
                                          std::string_view station);

struct QueueingRunOptions {
  unsigned jobs = 1;
  const std::atomic<bool>* stop = nullptr;
  std::function<void(std::size_t done, std::size_t total)> progress;
  SweepRanks* ranks = nullptr; // MPI ranks to spread the points over (sweep_runner.hpp)
  // Under MPI, rank 0 is handed the points finished when it sees the stop,
  // as an interrupted sweep, before it waits for the running ones
  // (SweepOptions::on_stop_records): time to write them.
  std::function<void(const QueueingSweep&)> at_stop;
};

QueueingSweep run_queueing_experiment(const Experiment& experiment,
                                      const QueueingRunOptions& options);

// Files: results.csv (variant,rate_per_us,station,utilization,mean_queue,
// mean_queue_ci95), comparison.csv (model next to emulator, relative
// differences), summary.json (everything, with wall times), experiment.toml
// and profile.toml; plots: hdma-queue.png (and lanai-queue.png).
void write_queueing_files(const std::filesystem::path& dir, const QueueingSweep& sweep);
std::string queueing_results_csv(const QueueingSweep& sweep);
std::string queueing_comparison_table(const QueueingSweep& sweep);
std::vector<std::filesystem::path> render_queueing_plots(const std::filesystem::path& dir,
                                                         const QueueingSweep& sweep,
                                                         std::string& warning);

} // namespace lanai::bench
