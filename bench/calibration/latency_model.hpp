// The emulator as the model being calibrated: for a hardware profile, run
// the ping-pongs the target table needs (one per firmware and message
// size, all of one evaluation in parallel on a thread pool) and read off
// each cell's value: the median 1-way latency, or the mean time of a
// breakdown operation. Results do not depend on the number of threads.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "bench/calibration/target_table.hpp"
#include "emulator/profile/hardware_profile.hpp"

namespace lanai::bench {

struct ModelOptions {
  std::uint32_t iters = 50; // timed round trips per ping-pong
  std::uint32_t warmup = 1;
  std::uint64_t seed = 1;
  unsigned threads = 0; // 0: std::thread::hardware_concurrency()
  // The VIs' level (VIP_SERVICE_*): unreliable, the published firmwares'
  // work per message, unless told.
  std::uint32_t reliability = 1;
};

class LatencyModel {
public:
  LatencyModel(std::vector<TargetCell> cells, ModelOptions options);
  ~LatencyModel();
  LatencyModel(const LatencyModel&) = delete;
  LatencyModel& operator=(const LatencyModel&) = delete;

  const std::vector<TargetCell>& cells() const { return cells_; }
  // The model value of every cell, in the table's order. Throws
  // CalibrationError naming the firmware and size if a run fails, and the
  // cluster's error for an unknown firmware.
  std::vector<double> evaluate(const profile::HardwareProfile& profile);

private:
  struct Run;
  std::vector<TargetCell> cells_;
  ModelOptions options_;
  std::vector<Run> runs_;             // one per (firmware, size, breakdown or not)
  std::vector<std::size_t> cell_run_; // cell -> index in runs_
  struct Pool;
  std::unique_ptr<Pool> pool_;
};

// Relative error of a cell, (model - target) / target; targets below 1 us
// (the published zeros) are measured against 1 us instead.
double relative_error(double model_us, double target_us);

} // namespace lanai::bench
