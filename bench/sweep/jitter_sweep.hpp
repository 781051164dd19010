// Running a whole jitter experiment: every (firmware, load point) on the
// sweep runner, each point one emulator run reduced to its metrics.
#pragma once

#include "emulator/host/firmware_profiler.hpp"
#include "emulator/trace/trace_recorder.hpp"

#include <atomic>
#include <functional>

#include "bench/sweep/jitter_results.hpp"
#include "bench/sweep/sweep_runner.hpp"

namespace lanai::bench {

struct JitterRunOptions {
  unsigned jobs = 1;                       // 0: one per hardware thread
  const std::atomic<bool>* stop = nullptr; // Ctrl-C: running points end, queued ones are skipped
  std::function<void(std::size_t done, std::size_t total)> progress;
  // Records the device trace of point `trace_point` into `trace` (if set).
  trace::Recorder* trace = nullptr;
  // Profiles the firmware of point `trace_point` into `profiler` (if set).
  host::FirmwareProfiler* profiler = nullptr;
  std::size_t trace_point = 0;
  SweepRanks* ranks = nullptr; // MPI ranks to spread the points over (sweep_runner.hpp)
  // Under MPI, rank 0 is handed the points finished when it sees the stop,
  // as an interrupted sweep, before it waits for the running ones
  // (SweepOptions::on_stop_records): time to write them.
  std::function<void(const JitterSweep&)> at_stop;
};

// Runs the sweep. Points stopped before their end are discarded and the
// sweep marked interrupted; a point whose run fails (deadlock, firmware
// fault, or an error setting it up) is kept as a failed record.
JitterSweep run_jitter_experiment(const Experiment& experiment, const JitterRunOptions& options);

} // namespace lanai::bench
