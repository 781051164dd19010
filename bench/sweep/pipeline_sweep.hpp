// Running a pipeline experiment: for every firmware, the emulated path's
// stages measured by the direct method, then every (firmware, packet,
// fragment count) point on the sweep runner, each next to the pipeline
// model of the reference stages and of the emulated path's stages measured
// two ways: directly (each stage timed alone) and indirectly (the whole
// path as a black box).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "bench/sweep/experiment_file.hpp"
#include "bench/sweep/sweep_runner.hpp"
#include "bench/workloads/card_stages.hpp"
#include "bench/workloads/indirect_stages.hpp"

namespace lanai::bench {

struct PipelinePoint {
  std::size_t firmware = 0; // into experiment.firmwares
  std::uint32_t packet = 0;
  std::uint32_t k = 1;
  std::optional<double> emulated_us; // empty: not run (interrupted) or failed
  std::string failure;
  double measured_model_us = 0;
  double indirect_model_us = 0;
  double reference_model_us = 0;
};

// What running one point gives: its emulated latency, or why it has none.
// This alone travels between MPI ranks; the models are the leader's.
struct PipelineOutcome {
  std::optional<double> emulated_us; // empty: not run (interrupted) or failed
  std::string failure;
  bool operator==(const PipelineOutcome&) const = default;
};

// The best fragment count of one packet on one firmware, by each measure.
struct PipelineBest {
  std::size_t firmware = 0;
  std::uint32_t packet = 0;
  std::uint32_t emulated_k = 0; // 0: no point emulated
  double emulated_us = 0;
  std::uint32_t measured_model_k = 1;
  double measured_model_us = 0;
  std::int64_t measured_theorem_k = 1; // the fixed-size theorem over 1..max fragments
  std::uint32_t indirect_k = 1;
  double indirect_us = 0;
  std::uint32_t reference_k = 1;
  double reference_us = 0;
  std::int64_t reference_theorem_k = 1;
  double median_abs_error_pct = 0;   // direct-method model against the emulator
  double indirect_abs_error_pct = 0; // indirect-method model against the emulator (median)
};

struct PipelineSweep {
  Experiment experiment;
  // Per firmware: the stages a fragment goes through (host copies around
  // the card's message path), measured.
  std::vector<std::vector<MeasuredStage>> stages;
  std::vector<IndirectStages> indirect; // per firmware
  std::vector<PipelinePoint> points;    // firmware-major, then packet, then k
  // False in the files written when a sweep under MPI is stopped before rank
  // 0 has measured the stages: the measured and indirect models are then
  // written as unmeasured (null in JSON, empty in CSV), with no stages and
  // no best counts. The reference model needs no measurement.
  bool models_measured = true;
  bool interrupted = false;
  double wall_seconds = 0;
  std::size_t failed() const;
  std::vector<PipelineBest> best() const;
};

// Threads, stop flag and progress callback: the sweep runner's own.
struct PipelineRunOptions : SweepOptions {
  // Under MPI, rank 0 is handed the points finished when it sees the stop,
  // as an interrupted sweep, before it waits for the running ones (and for
  // the models it measures while the points run, which it may not have).
  std::function<void(const PipelineSweep&)> at_stop;
};

// Throws std::runtime_error if the direct method's runs fail.
PipelineSweep run_pipeline_experiment(const Experiment& experiment,
                                      const PipelineRunOptions& options);

// results.csv (firmware,packet_bytes,fragments,emulated_us,measured_model_us,
// indirect_model_us,reference_model_us), summary.json (stages, points, best counts),
// experiment.toml and profile.toml; the plot pipeline.png.
void write_pipeline_files(const std::filesystem::path& dir, const PipelineSweep& sweep);
std::string pipeline_table(const PipelineSweep& sweep);
std::vector<std::filesystem::path> render_pipeline_plots(const std::filesystem::path& dir,
                                                         const PipelineSweep& sweep,
                                                         std::string& warning);

} // namespace lanai::bench
